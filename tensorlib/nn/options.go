package nn

import (
	"fmt"
	"strings"
)

// An Option configures a layer at construction: Stride, Padding and
// Dilation for Conv2d and the pools, NoBias for Linear and Conv2d, Eps,
// Momentum and NoAffine for the normalisation layers. A constructor
// panics when given an option it does not take.
//
//	conv := nn.NewConv2d(1, 32, 3, nn.Padding(1), nn.Stride(2))
type Option func(*config)

type optBit uint

const (
	optStride optBit = 1 << iota
	optPadding
	optDilation
	optKernel
	optNoBias
	optEps
	optMomentum
	optNoAffine
	optDropout
	optNormFirst
	optActivation
	optNorm
)

var optNames = []string{"Stride", "Padding", "Dilation", "KernelHW", "NoBias", "Eps", "Momentum", "NoAffine", "DropoutP", "NormFirst", "Activation", "Norm"}

type config struct {
	set                       optBit
	stride, padding, dilation [2]int
	kernel                    [2]int
	noBias, noAffine          bool
	eps, momentum             float64
	dropout                   float64
	normFirst                 bool
	activation                string
	norm                      Forwarder
}

// Stride sets the step of a convolution or pooling window in both
// spatial dims (Conv2d's default 1, the pools' default their kernel size).
func Stride(s int) Option { return StrideHW(s, s) }

// StrideHW sets the window step separately for height and width.
func StrideHW(h, w int) Option {
	return func(c *config) { c.set |= optStride; c.stride = [2]int{h, w} }
}

// Padding sets the implicit zero padding (Conv2d, AvgPool2d) or -inf
// padding (MaxPool2d) on each side of both spatial dims; default 0.
func Padding(p int) Option { return PaddingHW(p, p) }

// PaddingHW sets the padding separately for height and width.
func PaddingHW(h, w int) Option {
	return func(c *config) { c.set |= optPadding; c.padding = [2]int{h, w} }
}

// Dilation sets the spacing between kernel elements of a Conv2d in both
// spatial dims; default 1.
func Dilation(d int) Option { return DilationHW(d, d) }

// DilationHW sets the dilation separately for height and width.
func DilationHW(h, w int) Option {
	return func(c *config) { c.set |= optDilation; c.dilation = [2]int{h, w} }
}

// KernelHW gives Conv2d or a pool a rectangular kernel of h × w, replacing
// the square kernel size passed to the constructor.
func KernelHW(h, w int) Option {
	return func(c *config) { c.set |= optKernel; c.kernel = [2]int{h, w} }
}

// NoBias leaves out the additive bias of Linear or Conv2d (PyTorch's
// bias=False).
func NoBias() Option { return func(c *config) { c.set |= optNoBias; c.noBias = true } }

// Eps sets the value added to the variance for numerical stability in
// BatchNorm and LayerNorm; default 1e-5.
func Eps(e float64) Option { return func(c *config) { c.set |= optEps; c.eps = e } }

// Momentum sets the weight of the current batch in BatchNorm's running
// statistics: running = (1-momentum)*running + momentum*batch; default 0.1.
func Momentum(m float64) Option { return func(c *config) { c.set |= optMomentum; c.momentum = m } }

// NoAffine leaves out the learnable scale and shift of BatchNorm
// (affine=False) and LayerNorm (elementwise_affine=False).
func NoAffine() Option { return func(c *config) { c.set |= optNoAffine; c.noAffine = true } }

// DropoutP sets the dropout probability of MultiheadAttention (on the
// attention weights; default 0) and of TransformerEncoderLayer,
// TransformerDecoderLayer and Transformer (default 0.1).
func DropoutP(p float64) Option { return func(c *config) { c.set |= optDropout; c.dropout = p } }

// NormFirst makes a TransformerEncoderLayer, TransformerDecoderLayer or
// Transformer normalise before attention and the feed-forward block
// instead of after (norm_first=True, the pre-norm layout most language
// models use).
func NormFirst() Option { return func(c *config) { c.set |= optNormFirst; c.normFirst = true } }

// Activation sets the activation of the feed-forward block of a
// TransformerEncoderLayer, TransformerDecoderLayer or Transformer: "relu" (the default) or "gelu".
func Activation(name string) Option {
	return func(c *config) { c.set |= optActivation; c.activation = name }
}

// Norm gives TransformerEncoder or TransformerDecoder a module applied to
// the output of the last layer (PyTorch's norm=), usually a LayerNorm; its
// tensors are named "norm.weight", ...
//
//	enc := nn.NewTransformerEncoder(layer, 6, nn.Norm(nn.NewLayerNorm(512)))
func Norm(m Forwarder) Option { return func(c *config) { c.set |= optNorm; c.norm = m } }

// newConfig applies opts over the defaults and panics when one of them
// is not in allowed.
func newConfig(layer string, allowed optBit, opts []Option) config {
	c := config{dilation: [2]int{1, 1}, stride: [2]int{1, 1}, eps: 1e-5, momentum: 0.1, dropout: -1, activation: "relu"}
	for _, o := range opts {
		if o == nil {
			continue
		}
		o(&c)
	}
	if bad := c.set &^ allowed; bad != 0 {
		names, ok := optionLists(optNames, uint(bad), uint(allowed))
		panic(fmt.Sprintf("nn: %s does not take option %s; it takes %s", layer, names, ok))
	}
	return c
}

// optionLists returns the names of the bits set in bad and in allowed,
// joined with commas ("no options" when allowed has none).
func optionLists(names []string, bad, allowed uint) (string, string) {
	var b, ok []string
	for i, n := range names {
		if bad&(1<<i) != 0 {
			b = append(b, n)
		}
		if allowed&(1<<i) != 0 {
			ok = append(ok, n)
		}
	}
	return strings.Join(b, ", "), orNone(strings.Join(ok, ", "))
}

func orNone(s string) string {
	if s == "" {
		return "no options"
	}
	return s
}
