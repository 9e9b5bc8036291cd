package tensor

import (
	"math"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// Softmax returns exp(x) / sum(exp(x)) along dim, computed stably (the
// maximum is subtracted first). Each slice along dim sums to 1; -Inf
// elements (a mask) get 0, and a slice holding NaN or +Inf, or only -Inf,
// is NaN, as in PyTorch. It panics with a *DTypeError on Int64 and Bool
// tensors. On a backend with fused kernels (backend.Softmax: the CPU and
// CUDA backends) it is one op forward and one backward.
//
//	probs := logits.Softmax(-1)
func (x *Tensor) Softmax(dim int) *Tensor { return softmax("Softmax", AutocastFloat32(x), dim, false) }

// LogSoftmax returns log(Softmax(x)) along dim, computed stably as
// x - max - log(sum(exp(x - max))). It panics with a *DTypeError on Int64
// and Bool tensors.
func (x *Tensor) LogSoftmax(dim int) *Tensor {
	return softmax("LogSoftmax", AutocastFloat32(x), dim, true)
}

// softmax is Softmax, or LogSoftmax with log set.
func softmax(op string, x *Tensor, dim int, log bool) *Tensor {
	needFloat(op, x)
	d := normDim(op, dim, x.Dim(), x.layout.Shape)
	if x.Numel() == 0 {
		return x.Clone()
	}
	if !fused("Softmax", x) {
		return inFloat32(x.DType(), func(xs []*Tensor) *Tensor { return softmax(op, xs[0], dim, log) }, x)
	}
	sb, ok := x.backend.Backend.(backend.Softmax)
	if !ok {
		c := x.Sub(x.Detach().MaxKeep(d))
		if log {
			return c.Sub(c.Exp().SumKeep(d).Log())
		}
		e := c.Exp()
		return e.Div(e.SumKeep(d))
	}
	out := newTensor(x.backend, sb.Softmax(x.storage, x.layout, d, log), x.Shape())
	if !tracked(x) {
		return out
	}
	return record(out, op, func(g *Tensor) []*Tensor {
		if g.DType() != out.DType() {
			g = g.AsType(out.DType())
		}
		s := sb.SoftmaxBackward(g.storage, g.layout, out.storage, out.layout, d, log)
		return []*Tensor{newTensor(g.backend, s, g.Shape())}
	}, x)
}

// LogSumExp returns log(sum(exp(x))) along dim, removing it, computed
// stably: an infinite maximum is not subtracted, so rows of -Inf give -Inf
// as in torch.logsumexp. Int64 and Bool inputs give Float32.
func (x *Tensor) LogSumExp(dim int) *Tensor {
	x = AutocastFloat32(x)
	if !x.DType().IsFloat() {
		x = x.AsType(Float32)
	}
	d := normDim("LogSumExp", dim, x.Dim(), x.layout.Shape)
	if x.layout.Shape[d] == 0 {
		return x.Sum(d).Log() // log(0) = -Inf, as torch
	}
	m := x.Detach().MaxKeep(d)
	m = Where(m.Abs().Eq(scalarLike(m, math.Inf(1))), ZerosLike(m), m)
	return x.Sub(m).Exp().Sum(d).Log().Add(m.Squeeze(d))
}
