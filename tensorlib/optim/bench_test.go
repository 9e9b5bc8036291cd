package optim

import (
	"math"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// BenchmarkAdamStep compares one Adam step on a 256×784 float32 parameter
// (the MNIST MLP's first layer) done by the backend's fused AdamStep, as
// Adam.Step does, with the same step composed of tensor ops: the reason
// the optimizer maths stays in the backend interface.
func BenchmarkAdamStep(b *testing.B) {
	const lr, b1, b2, eps = 1e-3, 0.9, 0.999, 1e-8
	tensor.ManualSeed(1)
	g := tensor.Randn(256, 784)
	b.Run("fused", func(b *testing.B) {
		p := tensor.Randn(256, 784).SetRequiresGrad(true)
		opt := NewAdam([]*tensor.Tensor{p}, lr)
		for b.Loop() {
			p.SetGrad(g)
			opt.Step()
		}
	})
	b.Run("composed", func(b *testing.B) {
		p := tensor.Randn(256, 784)
		m, v := tensor.ZerosLike(p), tensor.ZerosLike(p)
		step := 0
		for b.Loop() {
			step++
			m = m.MulScalar(b1).Add(g.MulScalar(1 - b1))
			v = v.MulScalar(b2).Add(g.Square().MulScalar(1 - b2))
			mhat := m.DivScalar(1 - math.Pow(b1, float64(step)))
			vhat := v.DivScalar(1 - math.Pow(b2, float64(step)))
			tensor.CopyInto(p, p.Sub(mhat.Div(vhat.Sqrt().AddScalar(eps)).MulScalar(lr)))
		}
	})
}
