package nn

import (
	"fmt"
	"strconv"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TransformerEncoder is torch.nn.TransformerEncoder: a stack of encoder
// layers, each given the same masks, and an optional final norm. Its
// tensors have PyTorch's names ("layers.0.self_attn.in_proj_weight",
// "norm.weight"), so Save files load into PyTorch's module with
// strict=True, and back. (PyTorch's enable_nested_tensor, a fast path for
// padded batches in inference, has no counterpart: the result is the
// same.)
type TransformerEncoder struct {
	Layers []*TransformerEncoderLayer
	Norm   Forwarder // applied to the last layer's output; nil for none
}

// NewTransformerEncoder returns a stack of numLayers copies of layer, as
// PyTorch's constructor does (deep copies: every layer starts with layer's
// weights; layer itself is not used). Option: Norm, a module applied to
// the output (PyTorch's norm=).
//
//	layer := nn.NewTransformerEncoderLayer(512, 8, 2048)
//	enc := nn.NewTransformerEncoder(layer, 6, nn.Norm(nn.NewLayerNorm(512)))
//	y := enc.ForwardMask(x, nn.SrcKeyPaddingMask(pad))
func NewTransformerEncoder(layer *TransformerEncoderLayer, numLayers int, opts ...Option) *TransformerEncoder {
	c := newConfig("NewTransformerEncoder", optNorm, opts)
	if layer == nil || numLayers <= 0 {
		panic(fmt.Errorf("nn: NewTransformerEncoder: want a layer and a positive number of layers, got %d", numLayers))
	}
	e := &TransformerEncoder{Norm: c.norm}
	for i := 0; i < numLayers; i++ {
		e.Layers = append(e.Layers, layer.clone())
	}
	return e
}

// Forward returns the stack applied to x, [N, L, dModel], without masks
// (the layers' Causal fields apply).
func (e *TransformerEncoder) Forward(x *tensor.Tensor) *tensor.Tensor { return e.ForwardMask(x) }

// ForwardMask is PyTorch's forward(src, mask, src_key_padding_mask): every
// layer gets the masks. Options: SrcMask (PyTorch's mask=: [L, L] or
// [N*nHead, L, L]), SrcKeyPaddingMask ([N, L]) and IsCausal. Bool masks are
// true where a position may NOT attend, as in PyTorch's layers (the
// opposite of tensor.AttnMask); float masks are added to the scores.
//
//	future := tensor.Ones(T, T).Triu(1).AsType(tensor.Bool) // torch.triu(torch.ones(T, T), 1).bool()
//	y := enc.ForwardMask(x, nn.SrcMask(future))
func (e *TransformerEncoder) ForwardMask(x *tensor.Tensor, opts ...ForwardOption) *tensor.Tensor {
	c := forwardOptions("TransformerEncoder.ForwardMask", encoderOptions, opts)
	return e.forward(x, &c)
}

// ForwardWithWeights is ForwardMask that also returns the self-attention
// weights of every layer from the same pass, weights[i] being layer i's:
// averaged over the heads, [N, L, L], or per head with
// AverageAttnWeights(false), [N, nHead, L, L]. PyTorch's encoder has no
// such method; there one runs the layers one by one and calls each
// self_attn with need_weights=True. It takes ForwardMask's options and
// AverageAttnWeights.
//
//	y, ws := enc.ForwardWithWeights(x, nn.SrcMask(future))
//	display.Show(display.HeatMap(ws[1].Select(0, 0))) // layer 1, first sequence
func (e *TransformerEncoder) ForwardWithWeights(x *tensor.Tensor, opts ...ForwardOption) (y *tensor.Tensor, weights []*tensor.Tensor) {
	c := forwardOptions("TransformerEncoder.ForwardWithWeights", encoderOptions|fwdAverage, opts)
	return e.forwardWeights(x, &c, true)
}

// encoderOptions are the options of the encoders' ForwardMask.
const encoderOptions = fwdSrcMask | fwdSrcKeyPadding | fwdIsCausal

func (e *TransformerEncoder) forward(x *tensor.Tensor, c *forwardConfig) *tensor.Tensor {
	y, _ := e.forwardWeights(x, c, false)
	return y
}

// forwardWeights runs the stack and returns, when weights is set, every
// layer's self-attention weights.
func (e *TransformerEncoder) forwardWeights(x *tensor.Tensor, c *forwardConfig, weights bool) (*tensor.Tensor, []*tensor.Tensor) {
	var ws []*tensor.Tensor
	for _, l := range e.Layers {
		var w *tensor.Tensor
		x, w = l.forward(x, c.mask(fwdSrcMask), c.mask(fwdSrcKeyPadding), c.set&fwdIsCausal != 0, weights)
		if weights {
			ws = append(ws, averageHeads(w, c.average))
		}
	}
	if e.Norm != nil {
		x = e.Norm.Forward(x)
	}
	return x, ws
}

// Children returns the layers ("layers.0", ...) and the norm ("norm").
func (e *TransformerEncoder) Children() []Child {
	return stackChildren(len(e.Layers), func(i int) Forwarder { return e.Layers[i] }, e.Norm)
}

// Parameters returns the parameters of the layers and the norm, in order.
func (e *TransformerEncoder) Parameters() []*tensor.Tensor { return childParameters(e.Children()) }

// To moves the parameters to dev in place (see the function To).
func (e *TransformerEncoder) To(dev tensor.Device) { To(e, dev) }

// String returns PyTorch's repr.
func (e *TransformerEncoder) String() string {
	return stackString("TransformerEncoder", len(e.Layers), func(i int) Forwarder { return e.Layers[i] }, e.Norm)
}

// TransformerDecoderLayer is torch.nn.TransformerDecoderLayer with
// batch_first=True: self-attention over the target, attention over the
// encoder's output (the memory), and a feed-forward block (Linear,
// activation, dropout, Linear), each added back to its input and
// layer-normalised, after (post-norm, PyTorch's default) or before
// (NormFirst). Its children have PyTorch's names (self_attn,
// multihead_attn, linear1, dropout, linear2, norm1, norm2, norm3,
// dropout1, dropout2, dropout3).
type TransformerDecoderLayer struct {
	SelfAttn, MultiheadAttn   *MultiheadAttention
	Linear1, Linear2          *Linear
	Norm1, Norm2, Norm3       *LayerNorm
	Drop, Drop1, Drop2, Drop3 *Dropout
	NormFirst                 bool
	Activation                string // "relu" or "gelu"
}

// NewTransformerDecoderLayer returns a decoder layer of width dModel with
// nHead attention heads and a feed-forward block of dimFF, initialised as
// PyTorch does. Options: DropoutP (default 0.1), Activation ("relu",
// "gelu"), NormFirst, Eps (of the layer norms, default 1e-5).
//
//	layer := nn.NewTransformerDecoderLayer(512, 8, 2048)
//	y := layer.ForwardMemory(tgt, memory, nn.TgtIsCausal())
func NewTransformerDecoderLayer(dModel, nHead, dimFF int, opts ...Option) *TransformerDecoderLayer {
	c, p := layerConfig("NewTransformerDecoderLayer", opts)
	l := &TransformerDecoderLayer{
		SelfAttn:      NewMultiheadAttention(dModel, nHead, DropoutP(p)),
		MultiheadAttn: NewMultiheadAttention(dModel, nHead, DropoutP(p)),
		Linear1:       NewLinear(dModel, dimFF), Linear2: NewLinear(dimFF, dModel),
		Norm1: NewLayerNorm(dModel), Norm2: NewLayerNorm(dModel), Norm3: NewLayerNorm(dModel),
		Drop: NewDropout(p), Drop1: NewDropout(p), Drop2: NewDropout(p), Drop3: NewDropout(p),
		NormFirst: c.normFirst, Activation: c.activation,
	}
	l.Norm1.Eps, l.Norm2.Eps, l.Norm3.Eps = c.eps, c.eps, c.eps
	return l
}

// Forward panics: a decoder layer needs the memory too; call
// ForwardMemory.
func (l *TransformerDecoderLayer) Forward(x *tensor.Tensor) *tensor.Tensor {
	panic(fmt.Errorf("nn: TransformerDecoderLayer needs the encoder's output too: call ForwardMemory(tgt, memory, opts...)"))
}

// ForwardMemory is PyTorch's forward(tgt, memory, tgt_mask, memory_mask,
// tgt_key_padding_mask, memory_key_padding_mask): the layer applied to the
// target tgt, [N, T, dModel], attending over memory, [N, S, dModel].
// Options: TgtMask ([T, T] or [N*nHead, T, T]), MemoryMask ([T, S] or
// [N*nHead, T, S]), TgtKeyPaddingMask ([N, T]), MemoryKeyPaddingMask ([N,
// S]) and TgtIsCausal. Bool masks are true where a position may NOT
// attend, as in PyTorch's layers; float masks are added to the scores.
//
//	y := layer.ForwardMemory(tgt, memory, nn.TgtMask(nn.GenerateSquareSubsequentMask(T)))
func (l *TransformerDecoderLayer) ForwardMemory(tgt, memory *tensor.Tensor, opts ...ForwardOption) *tensor.Tensor {
	c := forwardOptions("TransformerDecoderLayer.ForwardMemory", decoderOptions, opts)
	return l.forward(tgt, memory, &c)
}

// decoderOptions are the options of the decoders' ForwardMemory.
const decoderOptions = fwdTgtMask | fwdMemoryMask | fwdTgtKeyPadding | fwdMemoryKeyPadding | fwdTgtIsCausal

func (l *TransformerDecoderLayer) forward(x, memory *tensor.Tensor, c *forwardConfig) *tensor.Tensor {
	sa := func(x *tensor.Tensor) *tensor.Tensor {
		o, _ := l.SelfAttn.attend(x, x, x, c.mask(fwdTgtMask), c.mask(fwdTgtKeyPadding), c.set&fwdTgtIsCausal != 0, false)
		return l.Drop1.Forward(o)
	}
	mha := func(x *tensor.Tensor) *tensor.Tensor {
		o, _ := l.MultiheadAttn.attend(x, memory, memory, c.mask(fwdMemoryMask), c.mask(fwdMemoryKeyPadding), false, false)
		return l.Drop2.Forward(o)
	}
	ff := func(x *tensor.Tensor) *tensor.Tensor {
		return l.Drop3.Forward(feedForward(x, l.Linear1, l.Linear2, l.Drop, l.Activation))
	}
	if l.NormFirst {
		x = x.Add(sa(l.Norm1.Forward(x)))
		x = x.Add(mha(l.Norm2.Forward(x)))
		return x.Add(ff(l.Norm3.Forward(x)))
	}
	x = l.Norm1.Forward(x.Add(sa(x)))
	x = l.Norm2.Forward(x.Add(mha(x)))
	return l.Norm3.Forward(x.Add(ff(x)))
}

// Children returns the sub-modules by PyTorch's names.
func (l *TransformerDecoderLayer) Children() []Child {
	return []Child{{"self_attn", l.SelfAttn, nil}, {"multihead_attn", l.MultiheadAttn, nil},
		{"linear1", l.Linear1, nil}, {"dropout", l.Drop, nil}, {"linear2", l.Linear2, nil},
		{"norm1", l.Norm1, nil}, {"norm2", l.Norm2, nil}, {"norm3", l.Norm3, nil},
		{"dropout1", l.Drop1, nil}, {"dropout2", l.Drop2, nil}, {"dropout3", l.Drop3, nil}}
}

// Parameters returns the parameters of the children, in order.
func (l *TransformerDecoderLayer) Parameters() []*tensor.Tensor { return childParameters(l.Children()) }

// To moves the parameters to dev in place (see the function To).
func (l *TransformerDecoderLayer) To(dev tensor.Device) { To(l, dev) }

// String returns PyTorch's repr.
func (l *TransformerDecoderLayer) String() string {
	return containerString("TransformerDecoderLayer", l.Children())
}

// TransformerDecoder is torch.nn.TransformerDecoder: a stack of decoder
// layers, each given the memory and the same masks, and an optional final
// norm. Its tensors have PyTorch's names ("layers.0.multihead_attn.…",
// "norm.weight").
type TransformerDecoder struct {
	Layers []*TransformerDecoderLayer
	Norm   Forwarder // applied to the last layer's output; nil for none
}

// NewTransformerDecoder returns a stack of numLayers copies of layer (deep
// copies, as PyTorch makes). Option: Norm (PyTorch's norm=).
//
//	dec := nn.NewTransformerDecoder(nn.NewTransformerDecoderLayer(512, 8, 2048), 6, nn.Norm(nn.NewLayerNorm(512)))
func NewTransformerDecoder(layer *TransformerDecoderLayer, numLayers int, opts ...Option) *TransformerDecoder {
	c := newConfig("NewTransformerDecoder", optNorm, opts)
	if layer == nil || numLayers <= 0 {
		panic(fmt.Errorf("nn: NewTransformerDecoder: want a layer and a positive number of layers, got %d", numLayers))
	}
	d := &TransformerDecoder{Norm: c.norm}
	for i := 0; i < numLayers; i++ {
		d.Layers = append(d.Layers, layer.clone())
	}
	return d
}

// Forward panics: a decoder needs the memory too; call ForwardMemory.
func (d *TransformerDecoder) Forward(x *tensor.Tensor) *tensor.Tensor {
	panic(fmt.Errorf("nn: TransformerDecoder needs the encoder's output too: call ForwardMemory(tgt, memory, opts...)"))
}

// ForwardMemory is PyTorch's forward(tgt, memory, tgt_mask, memory_mask,
// tgt_key_padding_mask, memory_key_padding_mask): every layer gets the
// memory and the masks, then the norm applies. It takes the options of
// TransformerDecoderLayer.ForwardMemory.
func (d *TransformerDecoder) ForwardMemory(tgt, memory *tensor.Tensor, opts ...ForwardOption) *tensor.Tensor {
	c := forwardOptions("TransformerDecoder.ForwardMemory", decoderOptions, opts)
	return d.forward(tgt, memory, &c)
}

func (d *TransformerDecoder) forward(x, memory *tensor.Tensor, c *forwardConfig) *tensor.Tensor {
	for _, l := range d.Layers {
		x = l.forward(x, memory, c)
	}
	if d.Norm != nil {
		x = d.Norm.Forward(x)
	}
	return x
}

// Children returns the layers ("layers.0", ...) and the norm ("norm").
func (d *TransformerDecoder) Children() []Child {
	return stackChildren(len(d.Layers), func(i int) Forwarder { return d.Layers[i] }, d.Norm)
}

// Parameters returns the parameters of the layers and the norm, in order.
func (d *TransformerDecoder) Parameters() []*tensor.Tensor { return childParameters(d.Children()) }

// To moves the parameters to dev in place (see the function To).
func (d *TransformerDecoder) To(dev tensor.Device) { To(d, dev) }

// String returns PyTorch's repr.
func (d *TransformerDecoder) String() string {
	return stackString("TransformerDecoder", len(d.Layers), func(i int) Forwarder { return d.Layers[i] }, d.Norm)
}

// Transformer is torch.nn.Transformer with batch_first=True: an encoder of
// the source and a decoder of the target over the encoder's output, each
// with a final LayerNorm. Its tensors have PyTorch's names
// ("encoder.layers.0.…", "encoder.norm.weight", "decoder.layers.0.…"), so
// Save files load into PyTorch's module with strict=True, and back. Set
// Encoder or Decoder to use others (PyTorch's custom_encoder,
// custom_decoder).
type Transformer struct {
	Encoder *TransformerEncoder
	Decoder *TransformerDecoder
	DModel  int
	NHead   int
}

// NewTransformer returns a Transformer of width dModel with nHead heads,
// numEncoderLayers and numDecoderLayers layers and feed-forward blocks of
// dimFF (PyTorch's defaults are 512, 8, 6, 6, 2048), initialised as
// PyTorch does: every parameter of two or more dims Xavier-uniform.
// Options: DropoutP (default 0.1), Activation ("relu", "gelu"), NormFirst,
// Eps.
//
//	model := nn.NewTransformer(512, 8, 6, 6, 2048)
//	out := model.ForwardSrcTgt(src, tgt, nn.TgtMask(nn.GenerateSquareSubsequentMask(T)))
func NewTransformer(dModel, nHead, numEncoderLayers, numDecoderLayers, dimFF int, opts ...Option) *Transformer {
	c := newConfig("NewTransformer", optDropout|optNormFirst|optActivation|optEps, opts)
	encNorm, decNorm := NewLayerNorm(dModel), NewLayerNorm(dModel)
	encNorm.Eps, decNorm.Eps = c.eps, c.eps
	m := &Transformer{DModel: dModel, NHead: nHead,
		Encoder: NewTransformerEncoder(NewTransformerEncoderLayer(dModel, nHead, dimFF, opts...), numEncoderLayers, Norm(encNorm)),
		Decoder: NewTransformerDecoder(NewTransformerDecoderLayer(dModel, nHead, dimFF, opts...), numDecoderLayers, Norm(decNorm)),
	}
	tensor.NoGrad(func() {
		for _, p := range m.Parameters() {
			if p.Dim() > 1 {
				XavierUniform(p, 1)
			}
		}
	})
	return m
}

// Forward panics: a Transformer takes a source and a target; call
// ForwardSrcTgt.
func (m *Transformer) Forward(x *tensor.Tensor) *tensor.Tensor {
	panic(fmt.Errorf("nn: Transformer takes a source and a target: call ForwardSrcTgt(src, tgt, opts...)"))
}

// ForwardSrcTgt is PyTorch's forward(src, tgt, src_mask, tgt_mask,
// memory_mask, src_key_padding_mask, tgt_key_padding_mask,
// memory_key_padding_mask): the encoder's output on src, [N, S, DModel],
// is the decoder's memory for tgt, [N, T, DModel]; the result is [N, T,
// DModel]. Options: SrcMask, SrcKeyPaddingMask and IsCausal go to the
// encoder; TgtMask, MemoryMask, TgtKeyPaddingMask, MemoryKeyPaddingMask
// and TgtIsCausal to the decoder. Bool masks are true where a position may
// NOT attend, as in PyTorch's layers; float masks are added.
//
//	out := model.ForwardSrcTgt(src, tgt, nn.TgtMask(nn.GenerateSquareSubsequentMask(T)), nn.SrcKeyPaddingMask(pad))
func (m *Transformer) ForwardSrcTgt(src, tgt *tensor.Tensor, opts ...ForwardOption) *tensor.Tensor {
	c := forwardOptions("Transformer.ForwardSrcTgt", encoderOptions|decoderOptions, opts)
	return m.Decoder.forward(tgt, m.Encoder.forward(src, &c), &c)
}

// Children returns the encoder and the decoder.
func (m *Transformer) Children() []Child {
	return []Child{{Name: "encoder", Module: m.Encoder}, {Name: "decoder", Module: m.Decoder}}
}

// Parameters returns the parameters of the encoder and the decoder.
func (m *Transformer) Parameters() []*tensor.Tensor { return childParameters(m.Children()) }

// To moves the parameters to dev in place (see the function To).
func (m *Transformer) To(dev tensor.Device) { To(m, dev) }

// String returns PyTorch's repr.
func (m *Transformer) String() string { return containerString("Transformer", m.Children()) }

// layerConfig reads the options of a transformer layer's constructor and
// returns them with the dropout probability (default 0.1).
func layerConfig(name string, opts []Option) (config, float64) {
	c := newConfig(name, optDropout|optNormFirst|optActivation|optEps, opts)
	if c.activation != "relu" && c.activation != "gelu" {
		panic(fmt.Errorf("nn: %s: activation %q; use \"relu\" or \"gelu\"", name, c.activation))
	}
	if c.dropout < 0 {
		return c, 0.1
	}
	return c, c.dropout
}

// clone returns a deep copy of l, as PyTorch's copy.deepcopy.
func (l *TransformerEncoderLayer) clone() *TransformerEncoderLayer {
	c := *l
	c.SelfAttn = l.SelfAttn.clone()
	c.Linear1, c.Linear2 = l.Linear1.clone(), l.Linear2.clone()
	c.Norm1, c.Norm2 = l.Norm1.clone(), l.Norm2.clone()
	c.Drop, c.Drop1, c.Drop2 = cloneDropout(l.Drop), cloneDropout(l.Drop1), cloneDropout(l.Drop2)
	return &c
}

func (l *TransformerDecoderLayer) clone() *TransformerDecoderLayer {
	c := *l
	c.SelfAttn, c.MultiheadAttn = l.SelfAttn.clone(), l.MultiheadAttn.clone()
	c.Linear1, c.Linear2 = l.Linear1.clone(), l.Linear2.clone()
	c.Norm1, c.Norm2, c.Norm3 = l.Norm1.clone(), l.Norm2.clone(), l.Norm3.clone()
	c.Drop, c.Drop1, c.Drop2, c.Drop3 = cloneDropout(l.Drop), cloneDropout(l.Drop1), cloneDropout(l.Drop2), cloneDropout(l.Drop3)
	return &c
}

func (l *MultiheadAttention) clone() *MultiheadAttention {
	c := *l
	c.InProjWeight, c.InProjBias = cloneParam(l.InProjWeight), cloneParam(l.InProjBias)
	c.OutProj = l.OutProj.clone()
	return &c
}

func (l *Linear) clone() *Linear {
	c := *l
	c.Weight, c.Bias = cloneParam(l.Weight), cloneParam(l.Bias)
	return &c
}

func (l *LayerNorm) clone() *LayerNorm {
	c := *l
	c.NormalizedShape = append([]int(nil), l.NormalizedShape...)
	c.Weight, c.Bias = cloneParam(l.Weight), cloneParam(l.Bias)
	return &c
}

func cloneDropout(l *Dropout) *Dropout {
	c := *l
	return &c
}

// cloneParam returns a copy of the leaf p with its own storage, requiring
// grad as p does; nil for nil.
func cloneParam(p *tensor.Tensor) *tensor.Tensor {
	if p == nil {
		return nil
	}
	return p.Detach().Clone().SetRequiresGrad(p.RequiresGrad())
}

// stackChildren names n layers "layers.0", ... and norm, when not nil,
// "norm".
func stackChildren(n int, layer func(int) Forwarder, norm Forwarder) []Child {
	cs := make([]Child, 0, n+1)
	for i := 0; i < n; i++ {
		cs = append(cs, Child{Name: "layers." + strconv.Itoa(i), Module: layer(i)})
	}
	if norm != nil {
		cs = append(cs, Child{Name: "norm", Module: norm})
	}
	return cs
}

// stackString is PyTorch's repr of a stack: its layers in a ModuleList,
// then the norm.
func stackString(name string, n int, layer func(int) Forwarder, norm Forwarder) string {
	list := make([]Child, n)
	for i := range list {
		list[i] = Child{Name: strconv.Itoa(i), Module: layer(i)}
	}
	cs := []Child{{Name: "layers", Module: repr(containerString("ModuleList", list))}}
	if norm != nil {
		cs = append(cs, Child{Name: "norm", Module: norm})
	}
	return containerString(name, cs)
}

// repr is a module that is only a repr, for printing containers such as
// a stack's ModuleList.
type repr string

func (r repr) Forward(x *tensor.Tensor) *tensor.Tensor { return x }
func (r repr) Parameters() []*tensor.Tensor            { return nil }
func (r repr) String() string                          { return string(r) }

// childParameters returns the parameters of the modules of cs, in order.
func childParameters(cs []Child) []*tensor.Tensor {
	var ps []*tensor.Tensor
	for _, c := range cs {
		if c.Module != nil {
			ps = append(ps, Parameters(c.Module)...)
		}
	}
	return ps
}
