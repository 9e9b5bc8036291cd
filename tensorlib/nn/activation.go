package nn

import "github.com/gotensor/gotensor/tensorlib/tensor"

// ReLU applies max(x, 0) elementwise, as torch.nn.ReLU.
type ReLU struct{}

// NewReLU returns a ReLU layer.
func NewReLU() *ReLU { return &ReLU{} }

// Forward returns max(x, 0).
func (*ReLU) Forward(x *tensor.Tensor) *tensor.Tensor { return x.ReLU() }

// Parameters returns nil.
func (*ReLU) Parameters() []*tensor.Tensor { return nil }

// String returns "ReLU()".
func (*ReLU) String() string { return "ReLU()" }

// Sigmoid applies 1/(1+e^-x) elementwise, as torch.nn.Sigmoid.
type Sigmoid struct{}

// NewSigmoid returns a Sigmoid layer.
func NewSigmoid() *Sigmoid { return &Sigmoid{} }

// Forward returns 1/(1+e^-x).
func (*Sigmoid) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Sigmoid() }

// Parameters returns nil.
func (*Sigmoid) Parameters() []*tensor.Tensor { return nil }

// String returns "Sigmoid()".
func (*Sigmoid) String() string { return "Sigmoid()" }

// Tanh applies tanh elementwise, as torch.nn.Tanh.
type Tanh struct{}

// NewTanh returns a Tanh layer.
func NewTanh() *Tanh { return &Tanh{} }

// Forward returns tanh(x).
func (*Tanh) Forward(x *tensor.Tensor) *tensor.Tensor { return x.Tanh() }

// Parameters returns nil.
func (*Tanh) Parameters() []*tensor.Tensor { return nil }

// String returns "Tanh()".
func (*Tanh) String() string { return "Tanh()" }

// GELU applies x·Φ(x) elementwise, Φ the standard normal CDF: the exact
// form, torch.nn.GELU(approximate='none').
type GELU struct{}

// NewGELU returns a GELU layer.
func NewGELU() *GELU { return &GELU{} }

// Forward returns x·Φ(x).
func (*GELU) Forward(x *tensor.Tensor) *tensor.Tensor { return x.GELU() }

// Parameters returns nil.
func (*GELU) Parameters() []*tensor.Tensor { return nil }

// String returns "GELU(approximate='none')".
func (*GELU) String() string { return "GELU(approximate='none')" }
