#!/usr/bin/env bash
# test.sh runs every gotensor test: it sets the machine up (setup.sh), checks
# formatting and go vet, runs the Go tests, builds bin/gotensor, installs its
# kernelspec into a throw-away Jupyter data directory and runs the Python
# tests (tests/) against it with Debian's Jupyter, then the JupyterLab
# browser tests (test-lab.sh). Then the "cuda build" step
# installs the CUDA toolkit (setup-cuda.sh), checks that the committed PTX is
# current (check-ptx.sh), vets and builds the -tags cuda binary
# (bin/gotensor-cuda) and compiles, without running, its CUDA tests: there is
# no GPU here, and gorgonia.org/cu's init exits a process that finds none.
# It runs every step whose inputs are there (the build needs the generated
# source, the kernelspec the build, the Python tests the kernelspec: a step
# whose input failed is reported NOT RUN, never run against an older
# binary), prints a summary and exits non-zero when any step failed.
#
# GOTENSOR_REQUIRE_TOOLS=1 (the default here; set it to 0 to allow skips)
# turns every test that would skip for a missing tool or data set (PyTorch,
# NumPy, npm, chromium, OpenBLAS, MNIST, Jupyter) into a failure: setup.sh
# has installed them all. pytest runs with -rs, so the log gives the reason
# of every skip that is left.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/setup.sh
export PATH="$PATH:/usr/local/go/bin"

export GOTENSOR_REQUIRE_TOOLS="${GOTENSOR_REQUIRE_TOOLS:-1}"

passed=() failed=() notrun=()
# step NAME CMD... runs CMD and records whether it passed.
step() {
	local name="$1"
	shift
	printf '\n== %s\n' "$name"
	if "$@"; then
		printf -- '-- %s: ok\n' "$name"
		passed+=("$name")
	else
		printf -- '-- %s: FAILED\n' "$name"
		failed+=("$name")
	fi
}

# step_after NEED NAME CMD... runs step NAME when step NEED passed, and
# otherwise records NAME as not run.
step_after() {
	local need="$1" p
	shift
	for p in "${passed[@]}"; do
		if [[ "$p" == "$need" ]]; then
			step "$@"
			return
		fi
	done
	printf '\n== %s\n-- %s: NOT RUN (it needs "%s", which failed or did not run)\n' "$1" "$1" "$need"
	notrun+=("$1")
}

gofmt_check() {
	local files
	files="$(gofmt -l .)"
	if [[ -n "$files" ]]; then
		printf 'not gofmt-ed (run gofmt -w):\n%s\n' "$files"
		return 1
	fi
}

step "gofmt" gofmt_check
step "go vet" go vet ./...
# go.mod lists what the code imports, no more and no less.
step "go mod tidy" go mod tidy -diff
# Imports point down the layers of the README's Layout.
step "layers" scripts/check-layers.sh
# generated_current regenerates the package in folder $1 and fails when
# that changed any file, or added one, there.
generated_current() {
	go generate "./$1" || return 1
	if ! git diff --quiet -- "$1" || [[ -n "$(git ls-files --others --exclude-standard -- "$1")" ]]; then
		echo "$1 is stale: run 'go generate ./$1' and commit the result"
		git status --short -- "$1"
		return 1
	fi
}
# The yaegi symbol tables and docs (interp/internal/symbols) are generated from the library's source:
# a stale table would hide a new name from notebooks.
step "generated symbols" generated_current interp/internal/symbols
# The standard library's tables (interp/internal/stdlib) are those of the Go
# that builds the kernel: a new Go release changes them.
step "generated stdlib" generated_current interp/internal/stdlib
# The kernel embeds the standard library's generic source (git-ignored,
# generated from the toolchain): the Go tests check it, the build embeds it.
step "generate stdsrc" go generate ./interp/internal/stdsrc
# The MNIST training tests (tensorlib/nn) and the notebooks need the data.
step "fetch MNIST" go run ./cmd/gotensor data mnist
# Compiled cells link the standard library and gotensor's packages
# compiled for plugins: compile them once, before the tests that run them.
step "warm compiled cells" go run ./cmd/gotensor warm
# Plain `go test ./...` (Go's default flags) leaves out the corpora of Go
# programs run as cells; GOTENSOR_TEST_CORPORA=1 runs them too, several
# minutes on two busy cores, hence the -timeout past go test's default 10
# minutes.
step "go test" env GOTENSOR_TEST_CORPORA=1 go test -count=1 -timeout 40m ./...
# Widgets' callbacks run on a running cell's goroutine and their values are
# read from its loops while the kernel's comm goroutine changes them: the
# live-control tests under the race detector.
step "go test -race (live control)" go test -race -count=1 -run 'TestWidgets|TestComm|TestUpdate|TestClick|TestSetValue|TestInteract' ./interp ./kernel ./widgets

# build_kernel builds bin/gotensor afresh: an older binary left by a failed
# build must not be what the Python tests run.
build_kernel() {
	rm -f bin/gotensor
	go build -o bin/gotensor ./cmd/gotensor && [[ -x bin/gotensor ]]
}
step_after "generate stdsrc" "build" build_kernel
# The kernel's compiled cells link packages built for plugins with the
# binary's own settings: build them now, not in the first test's cell.
step_after "build" "warm the kernel's compiled cells" bin/gotensor warm

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# Jupyter looks here first for kernelspecs and writes connection files here.
export JUPYTER_DATA_DIR="$tmp/data" JUPYTER_RUNTIME_DIR="$tmp/runtime"
unset JUPYTER_PATH
export GOTENSOR_KERNEL_NAME=gotensor-test
export PYDEVD_DISABLE_FILE_VALIDATION=1 PYTHONDONTWRITEBYTECODE=1
step_after "build" "kernelspec install" bin/gotensor install --user --name "$GOTENSOR_KERNEL_NAME"
# A module that finds a tool missing fails at collection; the others still run.
step_after "kernelspec install" "python tests" /usr/bin/python3 -m pytest -q -rs --continue-on-collection-errors tests/
step_after "build" "jupyterlab" scripts/test-lab.sh

# cuda_build runs the CUDA checks in order, stopping at the first failure.
cuda_build() {
	local bins
	bins="$(mktemp -d)"
	scripts/setup-cuda.sh &&
		scripts/check-ptx.sh &&
		go vet -tags cuda ./... &&
		go build -tags cuda -o bin/gotensor-cuda ./cmd/gotensor &&
		go test -tags cuda -c -o "$bins/" ./cuda/... ./kernels/... &&
		ls "$bins"
	local rc=$?
	rm -rf "$bins"
	return "$rc"
}
step "cuda build" cuda_build

echo
if ((${#failed[@]})); then
	printf 'FAILED: %s\n' "${failed[@]}"
	if ((${#notrun[@]})); then
		printf 'NOT RUN: %s\n' "${notrun[@]}"
	fi
	exit 1
fi
echo "all tests passed"
