// Package cuda is gotensor's CUDA backend: tensors whose storage lives in
// GPU memory, computed by the kernels of package kernels and by cuBLAS.
//
// Build gotensor with -tags cuda on a machine with an NVIDIA driver; the
// package then registers the "cuda" backend, and
//
//	x := tensor.Randn(64, 128).To(tensor.CUDA(0))
//	w := tensor.RandnOn(tensor.CUDA(0), 128, 10) // drawn on the GPU
//	y := x.MatMul(w).ReLU()                      // runs on the GPU
//	fmt.Println(y.To(tensor.CPU))                // copies back
//	x.Free()                                     // memory back to the cache now
//
// Without the tag no GPU code is linked (gorgonia.org/cu's package init
// exits the process when it finds no GPU, so the default build must never
// import it). UseEmulator registers an emulated device instead, the same
// kernels compiled for the CPU: tests use it, and so can anyone without a
// GPU who wants to check code meant for one.
//
// Ops drive the device from the calling goroutine, one at a time under
// the device's lock, locked to its OS thread with the device's primary
// context made current there, so tensors made in one notebook cell work
// from any later cell and from any goroutine. Device memory is cached: freed blocks (x.Free, or the garbage
// collector's finalizer) go to size-bucketed free lists and are reused;
// EmptyCache returns them to the driver. When the device is full the
// allocator empties the cache, runs the Go garbage collector and retries
// before panicking with an *OutOfMemoryError that says how much was asked
// and what is in use; tensor.Try and notebook cells turn it into an error
// and the session goes on. MemoryStats and Devices report on the devices,
// Report formats both (the notebook's %gpu), and Synchronize waits for
// queued work, for timing.
//
// The devices, their allocators and caches are the process's, shared by
// every notebook session in it, as the GPU itself is: one session's
// EmptyCache or memory statistics see the other's tensors too.
package cuda
