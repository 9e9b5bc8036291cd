//go:build cuda

package main

// The CUDA build (go build -tags cuda) compiles package cuda's GPU provider
// (cuda/gpu_cuda.go), so that tensor.CUDA(i) and tensor.DefaultDevice()
// find the GPUs; every build links package cuda itself, through the
// notebook session, which pre-imports it. Run this build only on a machine
// with an NVIDIA GPU and driver: the CUDA library's initialization exits
// the process when there is none, which is why `gotensor install` picks
// this build only where GPUPresent says so. This file only records the
// build's feature, for `gotensor version`.
func init() { buildFeatures = append(buildFeatures, "cuda") }
