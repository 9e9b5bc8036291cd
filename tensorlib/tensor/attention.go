package tensor

import (
	"math"
	"slices"

	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/cpu"
)

// An AttentionOption configures ScaledDotProductAttention.
type AttentionOption func(*attentionConfig)

type attentionConfig struct {
	causal   bool
	mask     *Tensor
	dropout  float64
	scale    float64
	hasScale bool
	composed bool
	fused    bool
	flash    bool
}

// Causal makes each query attend only to the keys at its own position and
// before it (is_causal=True): query i sees keys 0..i, the top-left
// aligned lower triangle, as torch.ones(L, S).tril().
func Causal() AttentionOption { return func(c *attentionConfig) { c.causal = true } }

// AttnMask restricts or biases attention with mask, which broadcasts to
// the scores' shape [..., L, S], as scaled_dot_product_attention's
// attn_mask: a Bool mask is true where a query MAY attend to a key; a
// float mask is added to the scores (-Inf forbids). With Causal too, both
// apply. The mask gets no gradient on the blocked path; give it one by
// requiring grad on it, which selects the composed path.
//
// The Bool rule is SDPA's, and the opposite of the layers' in package nn
// (nn.AttnMask, nn.SrcMask, ...: true = may NOT attend), as it is in
// PyTorch:
//
//	allowed := tensor.Ones(T, T).Tril(0).AsType(tensor.Bool) // causal: true on and below the diagonal
//	out := tensor.ScaledDotProductAttention(q, k, v, tensor.AttnMask(allowed))
func AttnMask(mask *Tensor) AttentionOption { return func(c *attentionConfig) { c.mask = mask } }

// AttnDropout drops each attention weight with probability p after the
// softmax and scales the others by 1/(1-p) (dropout_p). Pass it only while
// training.
func AttnDropout(p float64) AttentionOption { return func(c *attentionConfig) { c.dropout = p } }

// AttnScale sets the factor the scores q·k are multiplied by (scale); the
// default is 1/sqrt(E), E being the size of q's last dim.
func AttnScale(s float64) AttentionOption {
	return func(c *attentionConfig) { c.scale, c.hasScale = s, true }
}

// AttnComposed computes attention with the composed ops (MatMul, Softmax,
// MatMul) even where a blocked or fused kernel exists: for comparisons and
// benchmarks.
func AttnComposed() AttentionOption { return func(c *attentionConfig) { c.composed = true } }

// AttnFused computes attention with the device's fused kernel in the
// operands' own precision (CUDA: kernels/attention.cu, float32 and
// float64), where the backend has one and the call has no mask other than
// Causal and no dropout; otherwise it has no effect. The kernel never
// writes the [L, S] scores to memory, so it fits sequences whose scores
// would not; but it is one thread per query row without tensor cores, and
// on an H100 it took 7 times the composed ops' time (B 32, 8 heads of 64,
// T 256 and 1024), so it is not the default. Where the flash kernel runs
// (see AttnFlash), it takes precedence: both are fused kernels.
func AttnFused() AttentionOption { return func(c *attentionConfig) { c.fused = true } }

// AttnFlash computes float32 attention with the device's tensor-core
// kernel (CUDA: kernels/flash.cu, FlashAttention-2's way, on compute
// capability 8.0 and up), which rounds q, k, v and the output's gradient
// to bfloat16 as it loads them, and the softmax weights and their
// gradients to bfloat16 before their products; products accumulate in
// float32. Results then carry bfloat16's precision, 2^-9 relative per
// operand: the output and the gradients were within 6e-3 of float64
// attention in norm (relative) over the tests' shapes, where float32's
// own kernels are within 1e-6; which is why float32 takes this kernel only
// when asked. It applies with head sizes
// 64 and 128 (q, k and v alike), no mask other than Causal, no dropout,
// non-empty sequences and a device that has it; otherwise AttnFlash has
// no effect. BFloat16 and Float16 tensors take the kernel without it
// (computing in their own format, rounding only the softmax weights and
// their gradients, and the results), under the same conditions; Float64
// never does.
func AttnFlash() AttentionOption { return func(c *attentionConfig) { c.flash = true } }

// ScaledDotProductAttention returns softmax(q·kᵀ·scale + mask)·v
// (torch.nn.functional.scaled_dot_product_attention): q is [..., L, E], k
// [..., S, E] and v [..., S, Ev], with the same leading (batch, head)
// dims; the result is [..., L, Ev]. Options: Causal, AttnMask,
// AttnDropout, AttnScale, and AttnFlash, AttnFused and AttnComposed to
// choose the kernel.
//
// On a CUDA device it composes MatMul (cuBLAS), Softmax and MatMul, which
// is faster there than the fused kernel AttnFused selects. BFloat16 and
// Float16 tensors take the tensor-core kernel there (FlashAttention-2's
// way; see AttnFlash, which selects it for float32, rounding operands to
// bfloat16). On the CPU,
// without dropout, it runs a blocked kernel that takes the
// keys a tile at a time with an online softmax, as FlashAttention does: it
// never holds the [L, S] scores in memory, and its backward recomputes
// them tile by tile. Elsewhere (other devices, dropout, a mask that needs
// a gradient) it composes MatMul, MaskedFill, Softmax and MatMul, with the
// same result. A query that may attend to no key gives NaN, as PyTorch's
// composed form does.
//
//	out := tensor.ScaledDotProductAttention(q, k, v, tensor.Causal())
func ScaledDotProductAttention(q, k, v *Tensor, opts ...AttentionOption) *Tensor {
	const op = "ScaledDotProductAttention"
	q, k, v = AutocastLower(q), AutocastLower(k), AutocastLower(v)
	var c attentionConfig
	for _, o := range opts {
		o(&c)
	}
	sameDevice(op, q, k, v)
	needFloat(op, q)
	if q.DType() != k.DType() || q.DType() != v.DType() {
		panic(dtypeErr(op, "convert them to one dtype with AsType", []DType{q.DType(), k.DType(), v.DType()},
			"q, k and v must have one dtype, got %v, %v and %v", q.DType(), k.DType(), v.DType()))
	}
	if q.Dim() < 2 || k.Dim() != q.Dim() || v.Dim() != q.Dim() ||
		!slices.Equal(q.layout.Shape[:q.Dim()-2], k.layout.Shape[:k.Dim()-2]) ||
		!slices.Equal(q.layout.Shape[:q.Dim()-2], v.layout.Shape[:v.Dim()-2]) ||
		q.Size(-1) != k.Size(-1) || k.Size(-2) != v.Size(-2) {
		panic(shapeErr(op, "pass q [..., L, E], k [..., S, E] and v [..., S, Ev] with the same leading dims",
			[][]int{q.Shape(), k.Shape(), v.Shape()}, "q %v, k %v and v %v do not fit", q.layout.Shape, k.layout.Shape, v.layout.Shape))
	}
	if !(c.dropout >= 0 && c.dropout <= 1) {
		panic(valueErr(op, "use a probability in [0, 1]", "dropout probability %v", c.dropout))
	}
	scale := 1 / math.Sqrt(float64(q.Size(-1)))
	if c.hasScale {
		scale = c.scale
	}
	L, S := q.Size(-2), k.Size(-2)
	scoreShape := append(q.Shape()[:q.Dim()-2], L, S)
	var bias *Tensor // additive, broadcasting to scoreShape
	if c.mask != nil {
		sameDevice(op, q, c.mask)
		m := c.mask
		bs := broadcastShapes(op, m.layout.Shape, scoreShape)
		if !slices.Equal(bs, scoreShape) {
			panic(shapeErr(op, "give the mask a shape that broadcasts to [..., L, S]", [][]int{m.Shape(), scoreShape},
				"mask of shape %v does not broadcast to the scores' shape %v", m.layout.Shape, scoreShape))
		}
		if m.DType() == Bool {
			bias = Where(m, fill0d(q, 0), fill0d(q, math.Inf(-1)))
		} else {
			bias = m.AsType(q.DType())
		}
	}
	// The flash kernel computes in 16 bits: the default for BFloat16 and
	// Float16, for Float32 only when asked; the backend says which dtypes
	// it takes.
	flash := c.flash || q.DType().IsHalf()
	if fa, ok := q.backend.Backend.(backend.FlashAttention); ok && flash && c.dropout == 0 && !c.composed && bias == nil &&
		L > 0 && S > 0 && q.Size(-1) == v.Size(-1) && fa.FlashAttentionSupports(q.DType(), q.Size(-1)) {
		return attentionKernel(func(q, k, v backend.Storage, b, l, s, e, _ int, scale float64, causal bool) (backend.Storage, backend.Storage) {
			return fa.FlashAttentionForward(q, k, v, b, l, s, e, scale, causal)
		}, func(q, k, v, out, lse, g backend.Storage, b, l, s, e, _ int, scale float64, causal bool) (backend.Storage, backend.Storage, backend.Storage) {
			return fa.FlashAttentionBackward(q, k, v, out, lse, g, b, l, s, e, scale, causal)
		}, q, k, v, c.causal, scale)
	}
	if ab, ok := q.backend.Backend.(backend.Attention); ok && c.fused && c.dropout == 0 && !c.composed && bias == nil &&
		max(q.Size(-1), v.Size(-1)) <= ab.MaxAttentionHead() && fused("Attention", q, k, v) {
		return attentionKernel(ab.AttentionForward, ab.AttentionBackward, q, k, v, c.causal, scale)
	}
	blocked := q.Device() == CPU && c.dropout == 0 && !c.composed && (bias == nil || !tracked(bias)) &&
		backend.Numel(scoreShape) >= attnBlockedMin
	if blocked && isHalf(q, k, v, bias) {
		return inFloat32(q.DType(), func(xs []*Tensor) *Tensor { return attentionBlocked(xs[0], xs[1], xs[2], xs[3], c.causal, scale) }, q, k, v, bias)
	}
	if blocked {
		return attentionBlocked(q, k, v, bias, c.causal, scale)
	}
	s := q.MatMul(k.Transpose(-2, -1)).MulScalar(scale)
	if c.causal {
		s = Where(triMask(op, s, 0, true), s, fill0d(s, math.Inf(-1)))
	}
	if bias != nil {
		s = s.Add(bias)
	}
	p := s.Softmax(-1)
	if c.dropout > 0 {
		p = Dropout(p, c.dropout)
	}
	return p.MatMul(v)
}

// attnBlockedMin is the number of scores from which the CPU takes the
// blocked kernel: below it the composed ops' larger matrix products are
// faster. Measured on 2026-11-27 (two busy cores, causal, 8 heads of 64,
// forward and backward): B=2, T=256 (1M scores) 61 ms blocked against 43
// ms composed; B=8, T=256 (4M) 204 ms against 445 ms. Tests lower it.
var attnBlockedMin = 1 << 21

// attentionKernel runs ScaledDotProductAttention on a backend's fused
// kernel pair (backend.Attention or backend.FlashAttention), forward and
// backward: fwd returns the output and the rows' log-sum-exp, which bwd
// takes back.
func attentionKernel(
	fwd func(q, k, v backend.Storage, b, l, s, e, ev int, scale float64, causal bool) (out, lse backend.Storage),
	bwd func(q, k, v, out, lse, g backend.Storage, b, l, s, e, ev int, scale float64, causal bool) (dq, dk, dv backend.Storage),
	q, k, v *Tensor, causal bool, scale float64) *Tensor {
	batch := q.Shape()[:q.Dim()-2]
	B := backend.Numel(batch)
	L, S, E, Ev := q.Size(-2), k.Size(-2), q.Size(-1), v.Size(-1)
	dense := func(x *Tensor) *Tensor {
		if x.layout.IsContiguous() && x.layout.Offset == 0 {
			return x
		}
		return x.clone()
	}
	qc, kc, vc := dense(q), dense(k), dense(v)
	os, lse := fwd(qc.storage, kc.storage, vc.storage, B, L, S, E, Ev, scale, causal)
	out := newTensor(q.backend, os, append(cloneInts(batch), L, Ev))
	if !tracked(q, k, v) {
		return out
	}
	return record(out, "ScaledDotProductAttention", func(g *Tensor) []*Tensor {
		gc := dense(g)
		dq, dk, dv := bwd(qc.storage, kc.storage, vc.storage, os, lse, gc.storage, B, L, S, E, Ev, scale, causal)
		return []*Tensor{newTensor(q.backend, dq, q.Shape()), newTensor(q.backend, dk, k.Shape()), newTensor(q.backend, dv, v.Shape())}
	}, q, k, v)
}

// attentionBlocked is ScaledDotProductAttention's CPU path (cpu.Attention).
func attentionBlocked(q, k, v, bias *Tensor, causal bool, scale float64) *Tensor {
	batch := q.Shape()[:q.Dim()-2]
	B := backend.Numel(batch)
	L, S, E, Ev := q.Size(-2), k.Size(-2), q.Size(-1), v.Size(-1)
	qc, kc, vc := q.Contiguous(), k.Contiguous(), v.Contiguous()
	outShape := append(cloneInts(batch), L, Ev)
	var bs backend.Storage
	var biasOff []int
	var biasStrides [2]int
	if bias != nil {
		bc := bias.Detach()
		if bc.layout.Offset != 0 || !bc.layout.IsContiguous() {
			bc = bc.Clone()
		}
		bl := bc.layout.BroadcastTo(append(cloneInts(batch), L, S))
		biasOff = make([]int, B)
		for b := range biasOff {
			o, r := bl.Offset, b
			for d := len(batch) - 1; d >= 0; d-- {
				o += (r % batch[d]) * bl.Strides[d]
				r /= batch[d]
			}
			biasOff[b] = o
		}
		n := len(bl.Strides)
		bs, biasStrides = bc.storage, [2]int{bl.Strides[n-2], bl.Strides[n-1]}
	}
	os, backward := cpu.Attention(qc.storage, kc.storage, vc.storage, [3]int{qc.layout.Offset, kc.layout.Offset, vc.layout.Offset},
		B, L, S, E, Ev, bs, biasOff, biasStrides, scale, causal)
	out := newTensor(cpuEngine, os, outShape)
	if !tracked(q, k, v) {
		return out
	}
	return record(out, "ScaledDotProductAttention", func(g *Tensor) []*Tensor {
		gc := g.Contiguous()
		dq, dk, dv := backward(gc.storage, gc.layout.Offset)
		return []*Tensor{newTensor(cpuEngine, dq, q.Shape()), newTensor(cpuEngine, dk, k.Shape()), newTensor(cpuEngine, dv, v.Shape())}
	}, q, k, v)
}
