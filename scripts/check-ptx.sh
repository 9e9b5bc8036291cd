#!/usr/bin/env bash
# check-ptx.sh regenerates the PTX of kernels/*.cu with nvcc and the
# emulator's kernel table, and exits non-zero when they differ from the
# committed files (kernels/ptx/*.ptx, cuda/internal/emu/kernels_gen.h).
#
# The committed PTX comes from CUDA 11.8 (what CI installs through
# scripts/setup-cuda.sh); another nvcc release writes a different header
# and may schedule instructions differently, so compare with 11.8.
# Set NVCC to choose the compiler.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

nvcc="${NVCC:-nvcc}"
if ! command -v "$nvcc" >/dev/null; then
	echo "check-ptx: $nvcc not found: run scripts/setup-cuda.sh or set NVCC" >&2
	exit 2
fi
release="$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
if [[ "$release" != 11.8 ]]; then
	echo "check-ptx: warning: nvcc $release; the committed PTX is from CUDA 11.8" >&2
fi
cd kernels
go run ./internal/gen -check -nvcc "$nvcc"
echo "check-ptx: kernels/ptx and the emulator table are current (nvcc $release)"
