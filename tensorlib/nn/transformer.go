package nn

import (
	"fmt"
	"math"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// MultiheadAttention is torch.nn.MultiheadAttention with batch_first=True:
// inputs and outputs are [N, L, EmbedDim]. The query, key and value
// projections are the three row blocks of InProjWeight, the heads split
// EmbedDim into NumHeads parts of EmbedDim/NumHeads, and OutProj mixes
// them back. Attention runs through tensor.ScaledDotProductAttention. Its
// tensors have PyTorch's names (in_proj_weight, in_proj_bias,
// out_proj.weight, out_proj.bias), so Save files load into PyTorch's
// layer and back.
type MultiheadAttention struct {
	EmbedDim, NumHeads int
	InProjWeight       *tensor.Tensor // [3*EmbedDim, EmbedDim]
	InProjBias         *tensor.Tensor // [3*EmbedDim], nil with NoBias
	OutProj            *Linear        // EmbedDim to EmbedDim
	Dropout            float64        // on the attention weights, in training
	Causal             bool           // every pass masks the future (is_causal)
	Training           bool
}

// NewMultiheadAttention returns a MultiheadAttention of embedDim split
// into numHeads heads, initialised as PyTorch does (Xavier-uniform input
// projection, zero biases). Options: DropoutP (on the attention weights,
// default 0) and NoBias. It panics when numHeads does not divide embedDim.
//
//	attn := nn.NewMultiheadAttention(128, 4)
//	attn.Causal = true
//	y := attn.Forward(x) // [N, T, 128]
func NewMultiheadAttention(embedDim, numHeads int, opts ...Option) *MultiheadAttention {
	c := newConfig("NewMultiheadAttention", optDropout|optNoBias, opts)
	if embedDim <= 0 || numHeads <= 0 || embedDim%numHeads != 0 {
		panic(fmt.Errorf("nn: NewMultiheadAttention(%d, %d): the number of heads must divide the embedding size", embedDim, numHeads))
	}
	l := &MultiheadAttention{EmbedDim: embedDim, NumHeads: numHeads, Dropout: max(0, c.dropout), Training: true,
		InProjWeight: param(XavierUniform(tensor.Zeros(3*embedDim, embedDim), 1)),
		OutProj:      NewLinear(embedDim, embedDim, opts2(c.noBias)...)}
	if !c.noBias {
		l.InProjBias = param(tensor.Zeros(3 * embedDim))
		l.OutProj.Bias = param(tensor.Zeros(embedDim))
	}
	return l
}

func opts2(noBias bool) []Option {
	if noBias {
		return []Option{NoBias()}
	}
	return nil
}

// Forward returns the self-attention of x, [N, L, EmbedDim], causal when
// Causal is set.
func (l *MultiheadAttention) Forward(x *tensor.Tensor) *tensor.Tensor {
	return l.Attend(x, x, x)
}

// project returns x's projection by block i (0 query, 1 key, 2 value) of
// the input projection, split into heads: [N, H, L, D].
func (l *MultiheadAttention) project(x *tensor.Tensor, i int) *tensor.Tensor {
	E := l.EmbedDim
	var b *tensor.Tensor
	if l.InProjBias != nil {
		b = l.InProjBias.Narrow(0, i*E, E)
	}
	return l.heads(tensor.Linear(x, l.InProjWeight.Narrow(0, i*E, E), b))
}

// heads reshapes [N, L, E] to [N, H, L, D].
func (l *MultiheadAttention) heads(x *tensor.Tensor) *tensor.Tensor {
	s := x.Shape()
	if len(s) != 3 || s[2] != l.EmbedDim {
		panic(&tensor.ShapeError{Op: "nn.MultiheadAttention", Shapes: [][]int{s},
			Msg: fmt.Sprintf("input %v: want [N, L, %d] (batch first)", s, l.EmbedDim)})
	}
	return x.Reshape(s[0], s[1], l.NumHeads, l.EmbedDim/l.NumHeads).Transpose(1, 2)
}

// qkv projects self-attention's input in one product when it can.
func (l *MultiheadAttention) qkv(q, k, v *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor, *tensor.Tensor) {
	if q == k && k == v {
		l.heads(q) // checks the shape
		parts := tensor.Linear(q, l.InProjWeight, l.InProjBias).Chunk(3, -1)
		return l.heads(parts[0]), l.heads(parts[1]), l.heads(parts[2])
	}
	return l.project(q, 0), l.project(k, 1), l.project(v, 2)
}

// Attend returns the attention of the queries q [N, L, E] over the keys k
// and values v [N, S, E], as PyTorch's forward(query, key, value) with
// need_weights=False. Options: AttnMask ([L, S] or [N*NumHeads, L, S]),
// KeyPaddingMask ([N, S]), IsCausal. Their Bool masks are true where a
// query may NOT attend, as in PyTorch's layers (the opposite of
// tensor.AttnMask); float masks are added to the scores. It is causal
// when Causal is set too; the layer's dropout applies in training mode.
//
//	pad := lengths... // [N, S] Bool, true at padded keys
//	y := attn.Attend(x, memory, memory, nn.KeyPaddingMask(pad))
func (l *MultiheadAttention) Attend(q, k, v *tensor.Tensor, opts ...ForwardOption) *tensor.Tensor {
	c := forwardOptions("MultiheadAttention.Attend", fwdAttnMask|fwdKeyPadding|fwdIsCausal, opts)
	out, _ := l.attend(q, k, v, c.mask(fwdAttnMask), c.mask(fwdKeyPadding), c.set&fwdIsCausal != 0, false)
	return out
}

// attend runs the attention of q over k and v with PyTorch's layer masks
// attn and pad (nil for none), causal when causal or l.Causal is set, and
// returns the output, [N, L, E], and when weights is set the attention
// weights of every head, [N, H, L, S] (after dropout, as PyTorch returns
// them).
func (l *MultiheadAttention) attend(q, k, v, attn, pad *tensor.Tensor, causal, weights bool) (out, w *tensor.Tensor) {
	qh, kh, vh := l.qkv(q, k, v)
	N, L, S := qh.Size(0), qh.Size(2), kh.Size(2)
	bias := layerMask("nn.MultiheadAttention", "attn mask", "key padding mask", attn, pad, qh, N, l.NumHeads, L, S)
	causal = causal || l.Causal
	dropout := 0.0
	if l.Training && l.Dropout > 0 {
		dropout = l.Dropout
	}
	var o *tensor.Tensor
	if weights {
		s := qh.MatMul(kh.Transpose(-2, -1)).MulScalar(1 / math.Sqrt(float64(qh.Size(-1))))
		if causal {
			s = s.MaskedFill(tensor.Ones(L, S).Triu(1).AsType(tensor.Bool).To(s.Device()), math.Inf(-1))
		}
		if bias != nil {
			s = s.Add(bias)
		}
		w = s.Softmax(-1)
		if dropout > 0 {
			w = tensor.Dropout(w, dropout)
		}
		o = w.MatMul(vh)
	} else {
		var opts []tensor.AttentionOption
		if causal {
			opts = append(opts, tensor.Causal())
		}
		if bias != nil {
			opts = append(opts, tensor.AttnMask(bias)) // additive: no Bool convention involved
		}
		if dropout > 0 {
			opts = append(opts, tensor.AttnDropout(dropout))
		}
		o = tensor.ScaledDotProductAttention(qh, kh, vh, opts...)
	}
	o = o.Transpose(1, 2).Reshape(N, L, l.EmbedDim)
	return tensor.Linear(o, l.OutProj.Weight, l.OutProj.Bias), w
}

// AttendWithWeights is PyTorch's forward(query, key, value) with
// need_weights=True: Attend's output and the attention weights, each row
// summing to 1 over the keys (after dropout in training, as PyTorch's),
// averaged over the heads, [N, L, S], or per head, [N, NumHeads, L, S],
// with AverageAttnWeights(false). It takes Attend's options and
// AverageAttnWeights. It builds the whole [L, S] matrix of every head,
// which Attend avoids.
//
//	out, w := attn.AttendWithWeights(x, x, x, nn.AttnMask(future)) // w: [N, L, L]
func (l *MultiheadAttention) AttendWithWeights(q, k, v *tensor.Tensor, opts ...ForwardOption) (out, weights *tensor.Tensor) {
	c := forwardOptions("MultiheadAttention.AttendWithWeights", fwdAttnMask|fwdKeyPadding|fwdIsCausal|fwdAverage, opts)
	out, w := l.attend(q, k, v, c.mask(fwdAttnMask), c.mask(fwdKeyPadding), c.set&fwdIsCausal != 0, true)
	return out, averageHeads(w, c.average)
}

// Weights returns the attention weights of the queries q over the keys k
// that AttendWithWeights returns: averaged over the heads, [N, L, S],
// or, with AverageAttnWeights(false), per head, [N, NumHeads, L, S]. For
// looking at, with display.HeatMap.
//
//	w := attn.Weights(x, x, nn.IsCausal()).Select(0, 0) // [T, T], the first sequence
func (l *MultiheadAttention) Weights(q, k *tensor.Tensor, opts ...ForwardOption) *tensor.Tensor {
	c := forwardOptions("MultiheadAttention.Weights", fwdAttnMask|fwdKeyPadding|fwdIsCausal|fwdAverage, opts)
	_, w := l.attend(q, k, k, c.mask(fwdAttnMask), c.mask(fwdKeyPadding), c.set&fwdIsCausal != 0, true)
	return averageHeads(w, c.average)
}

// averageHeads returns the weights w, [N, H, L, S], averaged over the
// heads when average is set.
func averageHeads(w *tensor.Tensor, average bool) *tensor.Tensor {
	if average {
		return w.Mean(1)
	}
	return w
}

// Parameters returns InProjWeight, InProjBias, OutProj.Weight and
// OutProj.Bias.
func (l *MultiheadAttention) Parameters() []*tensor.Tensor {
	return own(l, nonNil(l.InProjWeight, l.InProjBias, l.OutProj.Weight, l.OutProj.Bias))
}

func (l *MultiheadAttention) state() []named {
	return namedNonNil("in_proj_weight", l.InProjWeight, "in_proj_bias", l.InProjBias,
		"out_proj.weight", l.OutProj.Weight, "out_proj.bias", l.OutProj.Bias)
}
func (l *MultiheadAttention) setMode(training bool) { l.Training = training }

// To moves the parameters to dev in place (see the function To).
func (l *MultiheadAttention) To(dev tensor.Device) { To(l, dev) }

// String returns PyTorch's repr.
func (l *MultiheadAttention) String() string {
	return fmt.Sprintf("MultiheadAttention(\n  (out_proj): NonDynamicallyQuantizableLinear(in_features=%d, out_features=%d, bias=%s)\n)",
		l.EmbedDim, l.EmbedDim, pyBool(l.OutProj.Bias != nil))
}

// TransformerEncoderLayer is torch.nn.TransformerEncoderLayer with
// batch_first=True: self-attention and a feed-forward block (Linear,
// activation, dropout, Linear), each added back to its input and
// layer-normalised, after (post-norm, PyTorch's default) or before
// (NormFirst). Its children have PyTorch's names (self_attn, linear1,
// linear2, norm1, norm2, dropout, dropout1, dropout2), so Save files load
// into PyTorch's layer and back.
type TransformerEncoderLayer struct {
	SelfAttn           *MultiheadAttention
	Linear1, Linear2   *Linear
	Norm1, Norm2       *LayerNorm
	Drop, Drop1, Drop2 *Dropout
	NormFirst          bool
	Activation         string // "relu" or "gelu"
	Causal             bool   // every pass masks the future
}

// NewTransformerEncoderLayer returns an encoder layer of width dModel with
// nHead attention heads and a feed-forward block of dimFF, initialised as
// PyTorch does. Options: DropoutP (default 0.1), Activation ("relu",
// "gelu"), NormFirst, Eps (of the layer norms, default 1e-5).
//
//	block := nn.NewTransformerEncoderLayer(128, 4, 512, nn.NormFirst(), nn.Activation("gelu"), nn.DropoutP(0.1))
//	block.Causal = true
func NewTransformerEncoderLayer(dModel, nHead, dimFF int, opts ...Option) *TransformerEncoderLayer {
	c, p := layerConfig("NewTransformerEncoderLayer", opts)
	l := &TransformerEncoderLayer{
		SelfAttn: NewMultiheadAttention(dModel, nHead, DropoutP(p)),
		Linear1:  NewLinear(dModel, dimFF), Linear2: NewLinear(dimFF, dModel),
		Norm1: NewLayerNorm(dModel), Norm2: NewLayerNorm(dModel),
		Drop: NewDropout(p), Drop1: NewDropout(p), Drop2: NewDropout(p),
		NormFirst: c.normFirst, Activation: c.activation,
	}
	l.Norm1.Eps, l.Norm2.Eps = c.eps, c.eps
	return l
}

// Forward returns the layer applied to x, [N, L, dModel], with causal
// self-attention when Causal is set.
func (l *TransformerEncoderLayer) Forward(x *tensor.Tensor) *tensor.Tensor {
	return l.ForwardMask(x)
}

// ForwardMask is PyTorch's forward(src, src_mask, src_key_padding_mask):
// the layer applied to x, [N, L, dModel], with the options SrcMask ([L, L]
// or [N*nHead, L, L]), SrcKeyPaddingMask ([N, L]) and IsCausal. Their Bool
// masks are true where a position may NOT attend, as in PyTorch's layers
// (the opposite of tensor.AttnMask); float masks are added to the scores.
// It is causal when Causal is set too.
//
//	future := tensor.Ones(T, T).Triu(1).AsType(tensor.Bool) // torch.triu(torch.ones(T, T), 1).bool()
//	y := block.ForwardMask(x, nn.SrcMask(future))
func (l *TransformerEncoderLayer) ForwardMask(x *tensor.Tensor, opts ...ForwardOption) *tensor.Tensor {
	c := forwardOptions("TransformerEncoderLayer.ForwardMask", fwdSrcMask|fwdSrcKeyPadding|fwdIsCausal, opts)
	y, _ := l.forward(x, c.mask(fwdSrcMask), c.mask(fwdSrcKeyPadding), c.set&fwdIsCausal != 0, false)
	return y
}

// ForwardWithWeights is ForwardMask that also returns the self-attention
// weights of the pass, averaged over the heads, [N, L, L], or per head
// with AverageAttnWeights(false), [N, nHead, L, L]. It takes ForwardMask's
// options and AverageAttnWeights.
func (l *TransformerEncoderLayer) ForwardWithWeights(x *tensor.Tensor, opts ...ForwardOption) (y, weights *tensor.Tensor) {
	c := forwardOptions("TransformerEncoderLayer.ForwardWithWeights", fwdSrcMask|fwdSrcKeyPadding|fwdIsCausal|fwdAverage, opts)
	y, w := l.forward(x, c.mask(fwdSrcMask), c.mask(fwdSrcKeyPadding), c.set&fwdIsCausal != 0, true)
	return y, averageHeads(w, c.average)
}

// forward applies the layer with PyTorch's masks and returns, when
// weights is set, the self-attention's weights per head.
func (l *TransformerEncoderLayer) forward(x, mask, pad *tensor.Tensor, causal, weights bool) (y, w *tensor.Tensor) {
	causal = causal || l.Causal
	sa := func(x *tensor.Tensor) *tensor.Tensor {
		var o *tensor.Tensor
		o, w = l.SelfAttn.attend(x, x, x, mask, pad, causal, weights)
		return l.Drop1.Forward(o)
	}
	ff := func(x *tensor.Tensor) *tensor.Tensor {
		return l.Drop2.Forward(feedForward(x, l.Linear1, l.Linear2, l.Drop, l.Activation))
	}
	if l.NormFirst {
		x = x.Add(sa(l.Norm1.Forward(x)))
		return x.Add(ff(l.Norm2.Forward(x))), w
	}
	x = l.Norm1.Forward(x.Add(sa(x)))
	return l.Norm2.Forward(x.Add(ff(x))), w
}

// feedForward is the feed-forward block of the transformer layers,
// without its last dropout: linear2(dropout(activation(linear1(x)))).
func feedForward(x *tensor.Tensor, linear1, linear2 *Linear, drop *Dropout, activation string) *tensor.Tensor {
	h := linear1.Forward(x)
	if activation == "gelu" {
		h = h.GELU()
	} else {
		h = h.ReLU()
	}
	return linear2.Forward(drop.Forward(h))
}

// Children returns the sub-modules by PyTorch's names.
func (l *TransformerEncoderLayer) Children() []Child {
	return []Child{{"self_attn", l.SelfAttn, nil}, {"linear1", l.Linear1, nil}, {"dropout", l.Drop, nil},
		{"linear2", l.Linear2, nil}, {"norm1", l.Norm1, nil}, {"norm2", l.Norm2, nil},
		{"dropout1", l.Drop1, nil}, {"dropout2", l.Drop2, nil}}
}

// Parameters returns the parameters of the children, in order.
func (l *TransformerEncoderLayer) Parameters() []*tensor.Tensor {
	var ps []*tensor.Tensor
	for _, c := range l.Children() {
		ps = append(ps, Parameters(c.Module)...)
	}
	return ps
}

// SetTraining sets the mode of the dropouts (see the function SetTraining).
func (l *TransformerEncoderLayer) SetTraining(training bool) { SetTraining(l, training) }

// To moves the parameters to dev in place (see the function To).
func (l *TransformerEncoderLayer) To(dev tensor.Device) { To(l, dev) }

// String returns PyTorch's repr.
func (l *TransformerEncoderLayer) String() string {
	return containerString("TransformerEncoderLayer", l.Children())
}
