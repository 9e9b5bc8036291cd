// Package kernels holds gotensor's CUDA kernels: CUDA C sources, one .cu
// file per family (elementwise, compare, copy, reduce, index, conv, pool,
// softmax, norm, activation, optim, random, and selftest, which only tests
// launch), and their PTX, compiled by nvcc for compute_70 and embedded in
// the binary. The driver JIT-compiles the PTX for the GPU at hand, so one
// build runs on Volta and every later architecture.
//
// Kernels are named <op>_<dtype> (add_f32, sum_rows_f64, cast_i64_bool)
// and declared extern "C" so that their PTX names are those names;
// names_gen.go, generated from the PTX, has a Kernel constant for each
// (AddF32, SumRowsF64, CastI64Bool), the module that defines it, and an
// Op for each op, its kernels by dtype suffix (Add, SumRows, Cast). Each
// takes its element count first and covers any grid with a grid-stride
// loop; strided inputs arrive as a Layout struct (common.cuh) with a
// contiguous fast path (elementwise.cuh: 16-byte vectors, 32-bit indices).
// common.cuh also has the warp and block reductions (warp_reduce,
// block_reduce) that kernels share. The fused row kernels (softmax, norm)
// share rows.cuh: a tensor seen as rows, groups of a block's threads per
// row, reductions in shared memory in a fixed order.
//
// The same sources are compiled by the host C++ compiler into the CPU
// emulator (package cuda/internal/emu), against its cuda_emu.h. After
// changing a .cu file, run
//
//	go generate ./kernels
//
// with the CUDA toolkit installed (scripts/setup-cuda.sh), and commit the
// PTX, names_gen.go and cuda/internal/emu/kernels_gen.h it rewrites;
// scripts/check-ptx.sh, run by CI, fails when they are stale.
package kernels
