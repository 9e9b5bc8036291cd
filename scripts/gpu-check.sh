#!/bin/bash
# GPU checks and benchmarks in one command, for a machine with an NVIDIA GPU,
# PyTorch (CUDA build) as python3 and no Go toolchain: build the binaries on a
# machine with Go and CUDA (scripts/gpu-check.sh build), copy the repository
# with the folder .gpu to the GPU machine, and run scripts/gpu-check.sh there
# from the repository's root. Logs go to $OUT (default /tmp/gpu-check).
#
#   scripts/gpu-check.sh build     # here: .gpu/ with the test and bench binaries, MNIST gzipped
#   scripts/gpu-check.sh [STEPS]   # there: STEPS from parity,amp,bench,attention,mnist,cudnn,cudnn-parity (default all)
#   scripts/gpu-check.sh flash     # there: the flash attention kernels alone: their parity tests, then
#                                  # bench/gpu's attention part against PyTorch's SDPA (flash, bfloat16)
#
# Each step has its own time limit, and a step that would start after
# GPU_CHECK_BUDGET seconds (default 420) is skipped, so the whole run fits
# a lease.
set -u
cd "$(dirname "$0")/.."

if [ "${1:-}" = build ]; then
	set -e
	mkdir -p .gpu/mnist
	rm -f .gpu/*.gz
	# Stripped and gzipped: the binaries travel within a size limit.
	go test -c -tags cuda -ldflags='-s -w' -o .gpu/cuda.test ./cuda
	for b in gpu mnist attention; do
		go build -tags cuda -ldflags='-s -w' -o .gpu/bench-$b ./bench/$b
	done
	gzip -f -9 .gpu/cuda.test .gpu/bench-*
	src=$(go run ./cmd/gotensor data dir mnist 2>/dev/null || echo "$HOME/.cache/gotensor/mnist")
	for f in "$src"/*-ubyte; do gzip -c "$f" >.gpu/mnist/"$(basename "$f")".gz; done
	du -sh .gpu
	exit 0
fi

OUT=${OUT:-/tmp/gpu-check}
mkdir -p "$OUT"
steps=",${1:-parity,amp,bench,attention,mnist,cudnn,cudnn-parity},"
budget=${GPU_CHECK_BUDGET:-420}
start=$SECONDS

# step NAME LIMIT COMMAND...: runs COMMAND with a time limit of LIMIT
# seconds, its output to the terminal and $OUT/NAME.log, unless NAME is
# not asked for or the budget would be passed.
step() {
	local name=$1 limit=$2
	shift 2
	case $steps in *",$name,"*) ;; *) return ;; esac
	if [ $((SECONDS - start + limit / 2)) -gt "$budget" ]; then
		echo "=== $name: SKIPPED (budget: $((SECONDS - start)) s of $budget used)"
		return
	fi
	echo "=== $name (limit $limit s) at $((SECONDS - start)) s: $*"
	timeout "$limit" "$@" >"$OUT/$name.log" 2>&1
	local rc=$?
	echo "=== $name: exit $rc after $((SECONDS - start)) s"
}

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
python3 -c 'import torch; print("torch", torch.__version__, torch.cuda.get_device_name(0))' 2>&1 | tee -a "$OUT/gpu.txt"

# cuDNN from PyTorch's wheels, for the cudnn step.
cudnn=$(python3 -c 'import nvidia.cudnn, os; print(os.path.join(list(nvidia.cudnn.__path__)[0], "lib"))' 2>/dev/null)

for f in .gpu/*.gz; do gunzip -c "$f" >"${f%.gz}" && chmod +x "${f%.gz}"; done
mkdir -p /tmp/mnist
for f in .gpu/mnist/*.gz; do [ -e "$f" ] && gunzip -c "$f" >/tmp/mnist/"$(basename "$f" .gz)"; done

step parity 100 env GOTENSOR_TEST_GPU=1 .gpu/cuda.test -test.count=1 -test.timeout 95s
# The "flash" step (not in the default list: parity and bench cover it).
step flash 120 sh -c 'env GOTENSOR_TEST_GPU=1 .gpu/cuda.test -test.count=1 -test.timeout 60s -test.v -test.run "TestMMAFragments|TestFlashAttention" &&
	.gpu/bench-gpu -python python3 -only flash'
grep -E '^(--- FAIL|FAIL|ok|PASS|panic)|relative|^ +[0-9]+ +[0-9.]+ |Attention forward' "$OUT/flash.log" 2>/dev/null | head -60
grep -E '^(--- FAIL|FAIL|ok|PASS|panic)' "$OUT/parity.log" | head -40
# Mixed precision against PyTorch (bf16, fp16 and TF32 GEMMs; the
# transformer block and conv net steps under bfloat16 autocast; peak
# memory), with cuDNN on the path where PyTorch brings it, as PyTorch's
# autocast convolves with it.
step amp 120 env LD_LIBRARY_PATH="${cudnn:+$cudnn:}${LD_LIBRARY_PATH:-}" .gpu/bench-gpu -python python3 -only gemm16,amp -sizes 4096,8192 -profile 12
cat "$OUT/amp.log" 2>/dev/null
step bench 200 .gpu/bench-gpu -python python3 -only gemm,bandwidth,ops,train,flash -profile 20
cat "$OUT/bench.log" 2>/dev/null
step attention 60 .gpu/bench-attention -device cuda -b 32 -t 256,1024 -rounds 2 -python python3
tail -4 "$OUT/attention.log" 2>/dev/null
step mnist 90 .gpu/bench-mnist -device cuda -model mlp,cnn,cnn-bn -epochs 2 -python python3 -dir /tmp/mnist
tail -8 "$OUT/mnist.log" 2>/dev/null
# The steps above run without cuDNN on the loader's path (im2col + GEMM);
# these find it there, as on a machine where cuDNN is installed.
if [ -n "$cudnn" ]; then
	export LD_LIBRARY_PATH=$cudnn:${LD_LIBRARY_PATH:-}
	step cudnn 90 .gpu/bench-gpu -python python3 -only ops,train -profile 8
	tail -60 "$OUT/cudnn.log" 2>/dev/null
	step cudnn-parity 100 env GOTENSOR_TEST_GPU=1 .gpu/cuda.test -test.count=1 -test.timeout 95s
	grep -E '^(--- FAIL|FAIL|ok|PASS|panic)' "$OUT/cudnn-parity.log" | head -20
else
	echo "=== cudnn: no cuDNN found beside PyTorch"
fi
echo "=== done in $((SECONDS - start)) s"
