#!/usr/bin/env bash
# install.sh sets the machine up (setup.sh), builds bin/gotensor as make
# build does and installs the "Go (gotensor)" kernel for Jupyter. Arguments
# go to `gotensor install` (default --user; also --sys-prefix, --prefix DIR,
# --name N, --display-name S, --cuda, --cpu). Then start Jupyter: jupyter notebook
#
# On a machine with an NVIDIA GPU (nvidia-smi -L lists one, or
# a GPU device node /dev/nvidia0 ... exists) and the CUDA toolkit (cuda.h and cublas_v2.h in
# /usr/include, as scripts/setup-cuda.sh installs them, or in
# /usr/local/cuda/include) it also builds the CUDA build bin/gotensor-cuda
# (go build -tags cuda), which `gotensor install` then puts in kernel.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

say() { printf 'install: %s\n' "$*" >&2; }

scripts/setup.sh
export PATH="$PATH:/usr/local/go/bin"
# The kernel carries the standard library's generic source (slices, maps,
# iter ...), so that it runs them where no Go is installed.
go generate ./interp/internal/stdsrc
go build -o bin/gotensor ./cmd/gotensor

gpu_present() {
	# A GPU's device node, not the control device /dev/nvidiactl, which
	# can exist without a GPU.
	nvidia-smi -L >/dev/null 2>&1 || compgen -G '/dev/nvidia[0-9]*' >/dev/null
}

# cuda_toolkit sets CGO flags for NVIDIA's own installer and succeeds when
# the CUDA headers are found.
cuda_toolkit() {
	local d
	for d in /usr/include /usr/local/cuda/include; do
		if [[ -f "$d/cuda.h" && -f "$d/cublas_v2.h" ]]; then
			if [[ "$d" == /usr/local/cuda/include ]]; then
				export CGO_CFLAGS="${CGO_CFLAGS:-} -I/usr/local/cuda/include"
				export CGO_LDFLAGS="${CGO_LDFLAGS:-} -L/usr/local/cuda/lib64"
			fi
			return 0
		fi
	done
	return 1
}

if gpu_present; then
	if cuda_toolkit; then
		say "GPU found: building the CUDA build bin/gotensor-cuda"
		if ! go build -tags cuda -o bin/gotensor-cuda ./cmd/gotensor; then
			say "building bin/gotensor-cuda failed; installing the CPU build"
			rm -f bin/gotensor-cuda
		fi
	else
		say "GPU found but no CUDA toolkit (cuda.h, cublas_v2.h): run scripts/setup-cuda.sh for the GPU build; installing the CPU build"
	fi
fi
# Compiled cells link the standard library and the tensor library
# compiled for plugins: compile them now, not in the first cell.
bin/gotensor warm || say "compiled cells are not available here; cells will run in the interpreter"
bin/gotensor install "$@"
