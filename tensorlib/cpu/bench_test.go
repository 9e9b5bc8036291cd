package cpu

import (
	"fmt"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// Benchmarks of the CPU kernels that dominate MNIST training:
// go test -run - -bench . ./tensorlib/cpu (the front end's: ./tensorlib/tensor)

// BenchmarkAdamKernel is one Adam step on the first layer of the MNIST
// MLP (784×256 parameters).
func BenchmarkAdamKernel(b *testing.B) {
	n := 784 * 256
	p, g, m, v := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range g {
		g[i] = float32(i%17) - 8
	}
	h := backend.AdamParams{LR: 1e-3, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, Step: 3}
	for b.Loop() {
		adam(p, g, m, v, h)
	}
}

// BenchmarkIm2colSample unfolds one sample of each convolution of the
// bench/mnist CNN: 1×28×28 and 16×12×12 inputs, 5×5 windows.
func BenchmarkIm2colSample(b *testing.B) {
	for _, c := range []int{1, 8, 16} {
		h := map[int]int{1: 28, 8: 12, 16: 12}[c]
		g := backend.NewWindow([]int{1, c, h, h}, [2]int{5, 5}, [2]int{1, 1}, [2]int{0, 0}, [2]int{1, 1})
		x, cols := make([]float32, c*h*h), make([]float32, c*25*g.OH*g.OW)
		b.Run(fmt.Sprintf("C%d", c), func(b *testing.B) {
			for b.Loop() {
				im2colSample(cols, x, g)
			}
		})
		b.Run(fmt.Sprintf("C%d/col2im", c), func(b *testing.B) {
			for b.Loop() {
				col2imSample(x, cols, g)
			}
		})
	}
}
