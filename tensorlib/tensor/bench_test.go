package tensor

import "testing"

// The benchmarks behind the README's NumPy comparison (bench/ runs the
// NumPy side): go test -run - -bench . ./tensorlib/tensor

func benchPair(b *testing.B) (*Tensor, *Tensor) {
	b.Helper()
	ManualSeed(0)
	x, y := Rand(4096, 4096), Rand(4096, 4096)
	b.SetBytes(4 * 4096 * 4096)
	b.ResetTimer()
	return x, y
}

func BenchmarkAdd4096(b *testing.B) {
	x, y := benchPair(b)
	for i := 0; i < b.N; i++ {
		x.Add(y)
	}
}

func BenchmarkAddTransposed4096(b *testing.B) {
	x, y := benchPair(b)
	for i := 0; i < b.N; i++ {
		x.Add(y.T())
	}
}

func BenchmarkMulScalar4096(b *testing.B) {
	x, _ := benchPair(b)
	for i := 0; i < b.N; i++ {
		x.MulScalar(2)
	}
}

func BenchmarkExp4096(b *testing.B) {
	x, _ := benchPair(b)
	for i := 0; i < b.N; i++ {
		x.Exp()
	}
}

func BenchmarkSum1_4096(b *testing.B) {
	x, _ := benchPair(b)
	for i := 0; i < b.N; i++ {
		x.Sum(1)
	}
}

func BenchmarkSum0_4096(b *testing.B) {
	x, _ := benchPair(b)
	for i := 0; i < b.N; i++ {
		x.Sum(0)
	}
}

func BenchmarkSumAll4096(b *testing.B) {
	x, _ := benchPair(b)
	for i := 0; i < b.N; i++ {
		x.Sum()
	}
}

func BenchmarkSoftmax4096(b *testing.B) {
	x, _ := benchPair(b)
	for i := 0; i < b.N; i++ {
		x.Softmax(1)
	}
}

func BenchmarkMatMul1024(b *testing.B) {
	ManualSeed(0)
	x, y := Rand(1024, 1024), Rand(1024, 1024)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.MatMul(y)
	}
	b.ReportMetric(2*1024*1024*1024*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkSmallOp measures per-op overhead, which the interpreter pays on
// every call.
func BenchmarkSmallOp(b *testing.B) {
	x, y := Ones(4, 4), Ones(4)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		x.Add(y)
	}
}

func BenchmarkSmallOpSameShape(b *testing.B) {
	x, y := Ones(4, 4), Ones(4, 4)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		x.Add(y)
	}
}

func BenchmarkSmallSum(b *testing.B) {
	x := Ones(4, 4)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		x.Sum(1)
	}
}

// BenchmarkSmallOpTracked is BenchmarkSmallOpSameShape with an operand
// that requires grad: the cost of recording a node.
func BenchmarkSmallOpTracked(b *testing.B) {
	x, y := Ones(4, 4).SetRequiresGrad(true), Ones(4, 4)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		x.Add(y)
	}
}

// BenchmarkMLPStep measures one forward and backward pass of a 784-256-10
// MLP on a batch of 128.
func BenchmarkMLPStep(b *testing.B) {
	ManualSeed(0)
	x, y := Rand(128, 784), RandInt(0, 10, 128)
	w1, b1 := Randn(784, 256).MulScalar(0.05).SetRequiresGrad(true), Zeros(256).SetRequiresGrad(true)
	w2, b2 := Randn(256, 10).MulScalar(0.05).SetRequiresGrad(true), Zeros(10).SetRequiresGrad(true)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		CrossEntropy(x.MatMul(w1).Add(b1).ReLU().MatMul(w2).Add(b2), y).Backward()
	}
}

// Benchmarks of the CPU kernels that dominate MNIST training:
// go test -run - -bench 'BatchNormShape|MaxPool|ReLUBackward' ./tensorlib/tensor

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
