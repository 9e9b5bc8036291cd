// Command gpu measures gotensor's CUDA backend on the machine's first GPU
// against PyTorch on the same GPU in the same run (reference_torch.py,
// eager float32, TF32 off), in one command that takes about a minute:
//
//   - SGEMM: x.MatMul(w) of n×n Float32 tensors in TFLOP/s, against
//     torch.mm;
//   - elementwise bandwidth: a.Add(b) and a.Clone() on 64M Float32
//     elements in GB/s, against the same in PyTorch and its device copy;
//   - the per-op table (sizes.go, ops.go): Sum of a large tensor,
//     Softmax(-1), nn.LayerNorm(512), nn.BatchNorm2d(64) training,
//     MaxPool2d(2), q.MatMul(k.Transpose(-2, -1)),
//     Permute(0, 2, 1, 3).Reshape, Conv2d(64, 128, 3, pad 1), GELU and
//     Add, in milliseconds forward (under NoGrad) and forward +
//     out.Sum().Backward(), with the ratio to PyTorch's;
//   - two training steps (train.go): a pre-norm transformer block (B 32,
//     T 256, D 512, 8 heads, causal mask, AdamW, loss out.Mul(out).Mean())
//     and a conv net (Conv2d 3→64→128 3×3 pad 1, BatchNorm2d, ReLU,
//     MaxPool2d(2) on 32×32, Linear; batch 128, SGD with momentum);
//   - mixed precision (mixed.go): n×n GEMMs in BFloat16 and Float16
//     (cuBLAS GemmEx, float32 sums) and Float32 as TF32, against torch.mm
//     in the same dtypes; the two training steps under
//     tensor.Autocast(tensor.BFloat16, ...) with the block's attention by
//     ScaledDotProductAttention, against torch.autocast with
//     F.scaled_dot_product_attention; and the peak memory of one step
//     (cuda.MaxMemoryAllocated) against torch.cuda.max_memory_allocated
//     (-only gemm16,amp).
//   - attention (flash.go): forward + out.Sum().Backward(), causal, B 32,
//     8 heads of 64, T 256 and 1024: the tensor-core kernel
//     (tensor.AttnFlash, float32 tensors rounded to bfloat16 in the
//     kernel) and the float32 default, against PyTorch's
//     scaled_dot_product_attention in bfloat16 with the flash backend
//     forced, and in float32 (flash_torch.py).
//
// Conv2d runs through cuDNN where it is found (libcudnn.so.9 or .8 on the
// loader's path, or GOTENSOR_CUDNN=path), as im2col + GEMM otherwise; the
// header says which. Run the bench with and without it to compare the two
// on the GPU:
//
//	GOTENSOR_CUDNN=0 go run -tags cuda ./bench/gpu -only ops,train
//
// The MNIST epoch against PyTorch on the same GPU is bench/mnist's:
//
//	go run -tags cuda ./bench/mnist -device cuda -python ~/venv/bin/python
//
// It needs a GPU, the CUDA toolkit (scripts/setup-cuda.sh) and the cuda
// build tag. Run it from the repository root:
//
//	go run -tags cuda ./bench/gpu -python ~/venv/bin/python
//	go run -tags cuda ./bench/gpu -only ops,train
//
// Without a GPU, -emulate runs the same code on the CUDA emulator (PyTorch
// on the CPU), and -small with tiny sizes; the times mean nothing there,
// and the package's test runs it so that the bench keeps working:
//
//	go run ./bench/gpu -emulate -small -python /usr/bin/python3
//
// Every timed loop ends with cuda.Synchronize (ops return once their
// kernels are queued), and runs after a warm-up call that loads the
// kernels and fills the allocator's cache.
package main
