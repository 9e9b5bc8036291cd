// Command gpu measures gotensor's CUDA backend on the machine's first GPU
// against the references a GPU user compares with:
//
//   - SGEMM: x.MatMul(w) of n×n Float32 tensors in TFLOP/s, against
//     PyTorch's torch.mm of the same size on the same GPU (full Float32);
//   - elementwise bandwidth: a.Add(b) and a.Clone() on 64M Float32
//     elements in GB/s, against the same in PyTorch and PyTorch's device
//     copy (reference_torch.py).
//
// The MNIST epoch against PyTorch on the same GPU is bench/mnist's:
//
//	go run -tags cuda ./bench/mnist -device cuda -python ~/venv/bin/python
//
// It needs a GPU, the CUDA toolkit (scripts/setup-cuda.sh) and the cuda
// build tag. Run it from the repository root:
//
//	go run -tags cuda ./bench/gpu -python ~/venv/bin/python
//	go run -tags cuda ./bench/gpu -sizes 4096 -only gemm,bandwidth
//
// Every timed loop ends with cuda.Synchronize (ops return once their
// kernels are queued), and runs after warm-up iterations that load the
// kernels and fill the allocator's cache.
package main
