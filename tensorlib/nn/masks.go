package nn

import (
	"fmt"
	"math"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// A ForwardOption passes one of the optional arguments of a layer's
// forward pass, named after PyTorch's keyword argument: nn.SrcMask(m) is
// src_mask=m. The attention layers take them (MultiheadAttention,
// TransformerEncoderLayer, TransformerEncoder, TransformerDecoderLayer,
// TransformerDecoder, Transformer); a method panics when given one it
// does not take, and its doc comment lists those it takes.
//
// The masks follow PyTorch's layers, not tensor.ScaledDotProductAttention:
// a Bool mask is true where a query may NOT attend (a padded key, a future
// position), and a float mask is added to the attention scores (-Inf
// forbids). This is the opposite of tensor.AttnMask's Bool rule, as it is
// in PyTorch (nn.MultiheadAttention's attn_mask against
// scaled_dot_product_attention's).
//
//	future := tensor.Ones(T, T).Triu(1).AsType(tensor.Bool) // torch.triu(torch.ones(T, T), 1).bool()
//	y := enc.ForwardMask(x, nn.SrcMask(future), nn.SrcKeyPaddingMask(pad))
type ForwardOption func(*forwardConfig)

type fwdBit uint

const (
	fwdAttnMask fwdBit = 1 << iota
	fwdKeyPadding
	fwdSrcMask
	fwdSrcKeyPadding
	fwdTgtMask
	fwdTgtKeyPadding
	fwdMemoryMask
	fwdMemoryKeyPadding
	fwdIsCausal
	fwdTgtIsCausal
	fwdAverage
)

var fwdNames = []string{"AttnMask", "KeyPaddingMask", "SrcMask", "SrcKeyPaddingMask", "TgtMask", "TgtKeyPaddingMask",
	"MemoryMask", "MemoryKeyPaddingMask", "IsCausal", "TgtIsCausal", "AverageAttnWeights"}

type forwardConfig struct {
	set     fwdBit
	masks   [8]*tensor.Tensor // indexed by the bit number of the mask options
	average bool
}

// mask returns the mask set by the option of bit b, or nil.
func (c *forwardConfig) mask(b fwdBit) *tensor.Tensor {
	for i := range c.masks {
		if b == 1<<i {
			return c.masks[i]
		}
	}
	return nil
}

func maskOption(b fwdBit, m *tensor.Tensor) ForwardOption {
	return func(c *forwardConfig) {
		c.set |= b
		for i := range c.masks {
			if b == 1<<i {
				c.masks[i] = m
			}
		}
	}
}

// AttnMask is MultiheadAttention's attn_mask: which keys each query may
// attend to, [L, S] or [N*NumHeads, L, S]. A Bool mask is true where
// attention is NOT allowed; a float mask is added to the scores. This is
// PyTorch's layer convention, the opposite of tensor.AttnMask's Bool rule.
//
//	out := attn.Attend(x, x, x, nn.AttnMask(tensor.Ones(T, T).Triu(1).AsType(tensor.Bool))) // causal
func AttnMask(m *tensor.Tensor) ForwardOption { return maskOption(fwdAttnMask, m) }

// KeyPaddingMask is MultiheadAttention's key_padding_mask: [N, S], a
// Bool mask true at the keys to ignore (padding), or a float mask added
// to every query's scores of that key.
func KeyPaddingMask(m *tensor.Tensor) ForwardOption { return maskOption(fwdKeyPadding, m) }

// SrcMask is the self-attention mask of an encoder (src_mask of
// TransformerEncoderLayer and Transformer, mask of TransformerEncoder):
// [L, L] or [N*nHead, L, L], Bool true where attention is NOT allowed, or
// float and added, as AttnMask.
func SrcMask(m *tensor.Tensor) ForwardOption { return maskOption(fwdSrcMask, m) }

// SrcKeyPaddingMask is src_key_padding_mask: [N, L], Bool true at the
// source positions to ignore (padding), or float and added.
func SrcKeyPaddingMask(m *tensor.Tensor) ForwardOption { return maskOption(fwdSrcKeyPadding, m) }

// TgtMask is the decoder's self-attention mask (tgt_mask): [T, T] or
// [N*nHead, T, T], Bool true where attention is NOT allowed (the future:
// GenerateSquareSubsequentMask), or float and added.
func TgtMask(m *tensor.Tensor) ForwardOption { return maskOption(fwdTgtMask, m) }

// TgtKeyPaddingMask is tgt_key_padding_mask: [N, T], Bool true at the
// target positions to ignore, or float and added.
func TgtKeyPaddingMask(m *tensor.Tensor) ForwardOption { return maskOption(fwdTgtKeyPadding, m) }

// MemoryMask is the mask of the decoder's attention over the encoder's
// output (memory_mask): [T, S] or [N*nHead, T, S], Bool true where
// attention is NOT allowed, or float and added.
func MemoryMask(m *tensor.Tensor) ForwardOption { return maskOption(fwdMemoryMask, m) }

// MemoryKeyPaddingMask is memory_key_padding_mask: [N, S], Bool true at
// the memory positions to ignore, or float and added.
func MemoryKeyPaddingMask(m *tensor.Tensor) ForwardOption {
	return maskOption(fwdMemoryKeyPadding, m)
}

// IsCausal makes self-attention causal, each position attending to itself
// and the positions before it, as the mask
// tensor.Ones(L, L).Triu(1).AsType(tensor.Bool) would, but through the
// attention kernels' causal path. Unlike PyTorch 2's is_causal, which is
// only a hint that must come with that mask, it is enough by itself; with
// a mask too, both apply.
func IsCausal() ForwardOption { return func(c *forwardConfig) { c.set |= fwdIsCausal } }

// TgtIsCausal makes a decoder's self-attention causal (tgt_is_causal), as
// IsCausal does an encoder's: TgtMask(GenerateSquareSubsequentMask(T))
// without the mask.
func TgtIsCausal() ForwardOption { return func(c *forwardConfig) { c.set |= fwdTgtIsCausal } }

// AverageAttnWeights sets whether the attention weights that
// MultiheadAttention.AttendWithWeights and Weights, and the encoders'
// ForwardWithWeights, return are the mean over the heads, [N, L, S] (true,
// the default, as PyTorch's average_attn_weights), or one map per head,
// [N, NumHeads, L, S] (false).
//
//	_, w := attn.AttendWithWeights(x, x, x, nn.AverageAttnWeights(false)) // [N, H, L, S]
func AverageAttnWeights(average bool) ForwardOption {
	return func(c *forwardConfig) { c.set |= fwdAverage; c.average = average }
}

// forwardOptions applies opts and panics when one is not in allowed.
func forwardOptions(op string, allowed fwdBit, opts []ForwardOption) forwardConfig {
	c := forwardConfig{average: true}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if bad := c.set &^ allowed; bad != 0 {
		names, ok := optionLists(fwdNames, uint(bad), uint(allowed))
		panic(fmt.Errorf("nn: %s does not take %s; it takes %s", op, names, ok))
	}
	return c
}

// layerMask returns the additive mask, broadcasting to [N, H, L, S], that
// PyTorch's layer masks attn ([L, S] or [N*H, L, S]) and pad ([N, S])
// stand for (Bool: true forbids; float: added), as q's dtype; nil when
// both are nil. It panics when a mask has another shape or dtype.
func layerMask(op, attnName, padName string, attn, pad, q *tensor.Tensor, N, H, L, S int) *tensor.Tensor {
	var bias *tensor.Tensor
	if attn != nil {
		s := attn.Shape()
		switch {
		case len(s) == 2 && s[0] == L && s[1] == S:
		case len(s) == 3 && s[0] == N*H && s[1] == L && s[2] == S:
			attn = attn.Reshape(N, H, L, S)
		default:
			panic(&tensor.ShapeError{Op: op, Shapes: [][]int{s},
				Msg: fmt.Sprintf("%s of shape %v: want [%d, %d] or [%d, %d, %d] (L, S or N*heads, L, S)", attnName, s, L, S, N*H, L, S),
				Fix: "build it as PyTorch's: [L, S], true where a query may not attend to a key"})
		}
		bias = additive(op, attnName, attn, q)
	}
	if pad != nil {
		s := pad.Shape()
		if len(s) != 2 || s[0] != N || s[1] != S {
			panic(&tensor.ShapeError{Op: op, Shapes: [][]int{s},
				Msg: fmt.Sprintf("%s of shape %v: want [%d, %d] (N, S)", padName, s, N, S),
				Fix: "give one row per batch element, true at the keys to ignore"})
		}
		p := additive(op, padName, pad.Reshape(N, 1, 1, S), q)
		if bias == nil {
			bias = p
		} else {
			bias = bias.Add(p)
		}
	}
	return bias
}

// additive turns a layer mask into the scores' addend: -Inf where a Bool
// mask is true, 0 elsewhere; a float mask as q's dtype.
func additive(op, name string, m, q *tensor.Tensor) *tensor.Tensor {
	switch m.DType() {
	case tensor.Bool:
		dt, dev := q.DType(), q.Device()
		return tensor.Where(m, tensor.Full(math.Inf(-1)).AsType(dt).To(dev), tensor.Zeros().AsType(dt).To(dev))
	case tensor.Int64:
		panic(&tensor.DTypeError{Op: op, DTypes: []tensor.DType{m.DType()},
			Msg: fmt.Sprintf("%s is Int64", name), Fix: "use a Bool mask (true = may not attend) or a float mask added to the scores"})
	}
	return m.AsType(q.DType())
}

// GenerateSquareSubsequentMask returns the causal mask of n positions, as
// torch.nn.Transformer.generate_square_subsequent_mask: an [n, n] float
// mask with -Inf above the diagonal (the future) and 0 elsewhere, for
// TgtMask, SrcMask or AttnMask.
//
//	y := block.ForwardMask(x, nn.SrcMask(nn.GenerateSquareSubsequentMask(T)))
func GenerateSquareSubsequentMask(n int) *tensor.Tensor {
	future := tensor.Ones(n, n).Triu(1).AsType(tensor.Bool)
	return tensor.Where(future, tensor.Full(math.Inf(-1)), tensor.Zeros())
}
