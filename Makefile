# Targets wrap the scripts in scripts/, which work without make too.
#
#	make setup          Debian packages, Go toolchain and modules (scripts/setup.sh)
#	make build          bin/gotensor, with the standard library's generic source embedded
#	make install        build, then install the kernelspec (INSTALL_FLAGS=--user)
#	make test           every test: Go, kernelspec, Python (scripts/test.sh)
#	make bench          every benchmark in bench/
#	make bench-kernel   start-up and round trip against ipykernel
#	make bench-tensor   SGEMM and big elementwise ops against NumPy

GO ?= go
INSTALL_FLAGS ?= --user

.PHONY: setup build install test bench bench-kernel bench-tensor

setup:
	scripts/setup.sh

# The kernel embeds the Go source of the standard library's generic
# packages (slices, maps, iter ...), generated from the toolchain, not
# committed: see interp/internal/stdsrc.
build:
	$(GO) generate ./interp/internal/stdsrc
	$(GO) build -o bin/gotensor ./cmd/gotensor

install: build
	bin/gotensor install $(INSTALL_FLAGS)

test:
	scripts/test.sh

bench: bench-kernel bench-tensor

bench-kernel: build
	/usr/bin/python3 bench/kernel_bench.py --gotensor bin/gotensor

bench-tensor:
	$(GO) run ./bench/tensor
