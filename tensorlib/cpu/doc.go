// Package cpu is gotensor's CPU backend: Backend implements the backend
// contract (package backend) over Go slices, one Storage a slice of the
// dtype's Go type. It is the default device, which package tensor opens
// itself; users never import this package.
//
// Each op's code is in the file named after it, as in the CUDA backend
// (package cuda), its kernels (kernels/<op>.cu), the contract (package
// backend) and the front end (package tensor): elementwise.go,
// activation.go, reduce.go, softmax.go, norm.go, loss.go, matmul.go,
// conv.go, pool.go, index.go, sort.go, optim.go, attention.go; storage,
// copies, casts, fills and random numbers are in backend.go. Loops over large tensors split across
// goroutines (kernels_shim.go: parallelFor, which also checks the
// notebook's interrupt between chunks) and, in cgo builds on amd64, run
// vectorized C loops (simd_cgo.go) that give the Go loops' results bit
// for bit.
package cpu
