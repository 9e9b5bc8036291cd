package nn

import (
	"fmt"

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
	Causal             bool           // Forward masks the future (is_causal)
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
	var opts []tensor.AttentionOption
	if l.Causal {
		opts = append(opts, tensor.Causal())
	}
	return l.Attend(x, x, x, opts...)
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
// and values v [N, S, E] (PyTorch's forward(query, key, value) with
// need_weights=False), with opts passed on to
// tensor.ScaledDotProductAttention (Causal, AttnMask); the layer's
// dropout applies in training mode.
//
//	y := attn.Attend(x, memory, memory)
func (l *MultiheadAttention) Attend(q, k, v *tensor.Tensor, opts ...tensor.AttentionOption) *tensor.Tensor {
	qh, kh, vh := l.qkv(q, k, v)
	if l.Training && l.Dropout > 0 {
		opts = append(opts, tensor.AttnDropout(l.Dropout))
	}
	o := tensor.ScaledDotProductAttention(qh, kh, vh, opts...)
	s := q.Shape()
	o = o.Transpose(1, 2).Reshape(s[0], s[1], l.EmbedDim)
	return tensor.Linear(o, l.OutProj.Weight, l.OutProj.Bias)
}

// Weights returns the attention weights of the queries q over the keys k,
// [N, NumHeads, L, S], each row summing to 1 (PyTorch's attn_weights with
// average_attn_weights=False; take Mean(1) for its default), with the
// masks of opts (Causal, AttnMask). For looking at, with
// display.HeatMap; it builds the whole [L, S] matrix.
func (l *MultiheadAttention) Weights(q, k *tensor.Tensor, opts ...tensor.AttentionOption) *tensor.Tensor {
	qh, kh := l.project(q, 0), l.project(k, 1)
	// The weights are attention over the identity: values one-hot per key.
	S := k.Shape()[1]
	eye := tensor.Eye(S).AsType(qh.DType()).To(qh.Device()).Expand(qh.Shape()[0], l.NumHeads, S, S)
	return tensor.ScaledDotProductAttention(qh, kh, eye, opts...)
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
	Causal             bool   // Forward masks the future
}

// NewTransformerEncoderLayer returns an encoder layer of width dModel with
// nHead attention heads and a feed-forward block of dimFF, initialised as
// PyTorch does. Options: DropoutP (default 0.1), Activation ("relu",
// "gelu"), NormFirst, Eps (of the layer norms, default 1e-5).
//
//	block := nn.NewTransformerEncoderLayer(128, 4, 512, nn.NormFirst(), nn.Activation("gelu"), nn.DropoutP(0.1))
//	block.Causal = true
func NewTransformerEncoderLayer(dModel, nHead, dimFF int, opts ...Option) *TransformerEncoderLayer {
	c := newConfig("NewTransformerEncoderLayer", optDropout|optNormFirst|optActivation|optEps, opts)
	if c.activation != "relu" && c.activation != "gelu" {
		panic(fmt.Errorf("nn: NewTransformerEncoderLayer: activation %q; use \"relu\" or \"gelu\"", c.activation))
	}
	p := c.dropout
	if p < 0 {
		p = 0.1
	}
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
	var opts []tensor.AttentionOption
	if l.Causal {
		opts = append(opts, tensor.Causal())
	}
	return l.ForwardMask(x, opts...)
}

// ForwardMask is Forward with the attention options given (tensor.Causal,
// tensor.AttnMask) instead of Causal's.
func (l *TransformerEncoderLayer) ForwardMask(x *tensor.Tensor, opts ...tensor.AttentionOption) *tensor.Tensor {
	sa := func(x *tensor.Tensor) *tensor.Tensor { return l.Drop1.Forward(l.SelfAttn.Attend(x, x, x, opts...)) }
	ff := func(x *tensor.Tensor) *tensor.Tensor {
		h := l.Linear1.Forward(x)
		if l.Activation == "gelu" {
			h = h.GELU()
		} else {
			h = h.ReLU()
		}
		return l.Drop2.Forward(l.Linear2.Forward(l.Drop.Forward(h)))
	}
	if l.NormFirst {
		x = x.Add(sa(l.Norm1.Forward(x)))
		return x.Add(ff(l.Norm2.Forward(x)))
	}
	x = l.Norm1.Forward(x.Add(sa(x)))
	return l.Norm2.Forward(x.Add(ff(x)))
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
		ps = append(ps, c.Module.Parameters()...)
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
