package tensor

import (
	"fmt"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// Benchmarks of the CPU kernels that dominate MNIST training:
// go test -run - -bench 'Adam|BatchNormShape|MaxPool|ReLUBackward' ./tensorlib/tensor

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

// convActivations returns the first activations of a small MNIST CNN:
// [128 16 26 26] and a per-channel [1 16 1 1] operand.
func convActivations() (*Tensor, *Tensor) {
	ManualSeed(0)
	return Randn(128, 16, 26, 26), Rand(1, 16, 1, 1)
}

// BenchmarkBatchNormShape is a channel-wise broadcast op as in BatchNorm2d.
func BenchmarkBatchNormShape(b *testing.B) {
	x, s := convActivations()
	for b.Loop() {
		x.Div(s)
	}
}

func BenchmarkMaxPool2x2(b *testing.B) {
	x, _ := convActivations()
	for b.Loop() {
		x.MaxPool2d([2]int{2, 2}, [2]int{2, 2}, [2]int{0, 0})
	}
}

// BenchmarkReLUBackward is the gradient of ReLU as the front end computes
// it: a comparison with 0 and a Where.
func BenchmarkReLUBackward(b *testing.B) {
	x, _ := convActivations()
	zero := Scalar(0)
	for b.Loop() {
		Where(x.GtScalar(0), x, zero)
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
