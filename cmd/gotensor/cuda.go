//go:build cuda

package main

// The CUDA build (go build -tags cuda) links the CUDA backend, so that
// tensor.CUDA(i) and tensor.DefaultDevice() find the GPUs. Run it only on a
// machine with an NVIDIA GPU and driver: the CUDA library's initialization
// exits the process when there is none, which is why `gotensor install`
// picks this build only where GPUPresent says so.
import _ "github.com/gotensor/gotensor/cuda"

func init() { buildFeatures = append(buildFeatures, "cuda") }
