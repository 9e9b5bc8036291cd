package kernels

// go generate ./kernels compiles every *.cu here to ptx/*.ptx with nvcc
// (CUDA 11.8 is what CI checks against) and rewrites the emulator's kernel
// table, cuda/internal/emu/kernels_gen.h. scripts/check-ptx.sh fails when
// the committed files differ from a fresh run.

//go:generate go run ./internal/gen
