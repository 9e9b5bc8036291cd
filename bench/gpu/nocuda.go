//go:build !cuda

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "bench/gpu: this benchmark needs the CUDA backend: run it on a machine with a GPU as go run -tags cuda ./bench/gpu")
	os.Exit(2)
}
