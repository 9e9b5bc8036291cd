package main

// sizes are the dimensions of the per-op table and the training steps,
// passed as they are to reference_torch.py (the JSON names are its
// keys), so that both sides run the same shapes.
type sizes struct {
	// Attention: batch, heads, sequence, head size; D = H·Dh.
	B  int `json:"B"`
	H  int `json:"H"`
	T  int `json:"T"`
	Dh int `json:"Dh"`
	// Images: batch, channels, height = width.
	N  int `json:"N"`
	C  int `json:"C"`
	HW int `json:"HW"`
	// Add: elements of each operand.
	Elems int `json:"elems"`
	// The conv net's training step: batch, image side, channels of the
	// two convolutions.
	ConvN  int `json:"conv_n"`
	ConvHW int `json:"conv_hw"`
	ConvC1 int `json:"conv_c1"`
	ConvC2 int `json:"conv_c2"`
}

// fullSizes are the issue's: what a GPU user trains today.
var fullSizes = sizes{B: 32, H: 8, T: 256, Dh: 64, N: 128, C: 64, HW: 32, Elems: 64 << 20,
	ConvN: 128, ConvHW: 32, ConvC1: 64, ConvC2: 128}

// smallSizes run the same code paths in seconds on the emulated device.
var smallSizes = sizes{B: 2, H: 2, T: 8, Dh: 4, N: 4, C: 3, HW: 8, Elems: 4096,
	ConvN: 4, ConvHW: 8, ConvC1: 4, ConvC2: 8}

// D is the model width of the transformer block.
func (s sizes) D() int { return s.H * s.Dh }
