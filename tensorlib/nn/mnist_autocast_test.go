package nn_test

import (
	"testing"

	"github.com/gotensor/gotensor/tensorlib/data"
	"github.com/gotensor/gotensor/tensorlib/nn"
	"github.com/gotensor/gotensor/tensorlib/optim"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// autocast runs a module's forward pass under bfloat16 autocast, as a
// training loop that wraps its forward in tensor.Autocast does.
type autocast struct{ nn.Module }

func (a autocast) Forward(x *tensor.Tensor) *tensor.Tensor {
	var y *tensor.Tensor
	tensor.Autocast(tensor.BFloat16, func() { y = a.Module.Forward(x) })
	return y
}

// TestMNISTMLPAutocast trains TestMNISTMLP's network under bfloat16
// autocast (its Linear layers in bfloat16, the loss in float32, the
// parameters and Adam's state in float32) to the same 97% test accuracy
// in the same number of epochs at most, as mixed precision does in
// PyTorch.
func TestMNISTMLPAutocast(t *testing.T) {
	train, test := loadMNISTOrSkip(t)
	tensor.ManualSeed(1)
	model := nn.NewSequential(
		nn.NewFlatten(),
		nn.NewLinear(784, 256), nn.NewReLU(),
		nn.NewLinear(256, 10),
	)
	opt := optim.NewAdam(model.Parameters(), 1e-3)
	loader := data.NewLoader(train, 128, data.Shuffle(1))
	trainUntil(t, "MLP bfloat16", autocast{model}, loader, test, opt, nil, 0.97, 6)
	for _, p := range model.Parameters() {
		if p.DType() != tensor.Float32 {
			t.Errorf("a parameter became %v", p.DType())
		}
	}
}
