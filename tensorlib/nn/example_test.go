package nn_test

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/nn"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

func ExampleNewSequential() {
	model := nn.NewSequential(
		nn.NewFlatten(),
		nn.NewLinear(784, 256), nn.NewReLU(),
		nn.NewLinear(256, 10),
	)
	fmt.Println(model)
	fmt.Println(model.Forward(tensor.Zeros(32, 1, 28, 28)).Shape())
	fmt.Println(nn.NumParameters(model))
	// Output:
	// Sequential(
	//   (0): Flatten(start_dim=1, end_dim=-1)
	//   (1): Linear(in_features=784, out_features=256, bias=True)
	//   (2): ReLU()
	//   (3): Linear(in_features=256, out_features=10, bias=True)
	// )
	// [32 10]
	// 203530
}

func ExampleSummary() {
	cnn := nn.NewSequential(
		nn.NewConv2d(1, 8, 3, nn.Padding(1)), nn.NewReLU(), nn.NewMaxPool2d(2),
		nn.NewFlatten(), nn.NewLinear(8*14*14, 10),
	)
	fmt.Println(nn.Summary(cnn, 1, 1, 28, 28))
	// Output:
	// Layer                                                                           Output Shape  Param #
	// =====================================================================================================
	// (0) Conv2d(1, 8, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1))             [1 8 28 28]        80
	// (1) ReLU()                                                                      [1 8 28 28]         0
	// (2) MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)  [1 8 14 14]         0
	// (3) Flatten(start_dim=1, end_dim=-1)                                            [1 1568]            0
	// (4) Linear(in_features=1568, out_features=10, bias=True)                        [1 10]         15,690
	// =====================================================================================================
	// Input shape: [1 1 28 28]
	// Output shape: [1 10]
	// Total params: 15,770
	// Trainable params: 15,770
}

func ExampleStateDict() {
	model := nn.NewSequential(nn.NewLinear(4, 8), nn.NewBatchNorm1d(8), nn.NewLinear(8, 2, nn.NoBias()))
	for _, name := range []string{"0.weight", "0.bias", "1.running_var", "1.num_batches_tracked", "2.weight"} {
		fmt.Println(name, nn.StateDict(model)[name].Shape())
	}
	// Output:
	// 0.weight [8 4]
	// 0.bias [8]
	// 1.running_var [8]
	// 1.num_batches_tracked []
	// 2.weight [2 8]
}

// A user's own module: Forward and Parameters make it a Module; Children
// names its layers for Save and Load and lets SetTraining reach them.
type Net struct {
	FC1, FC2 *nn.Linear
	Drop     *nn.Dropout
}

func (n *Net) Forward(x *tensor.Tensor) *tensor.Tensor {
	return n.FC2.Forward(n.Drop.Forward(n.FC1.Forward(x).ReLU()))
}

func (n *Net) Parameters() []*tensor.Tensor {
	return append(n.FC1.Parameters(), n.FC2.Parameters()...)
}

func (n *Net) Children() []nn.Child {
	return []nn.Child{{Name: "fc1", Module: n.FC1}, {Name: "drop", Module: n.Drop}, {Name: "fc2", Module: n.FC2}}
}

func ExampleContainer() {
	net := &Net{FC1: nn.NewLinear(10, 5), FC2: nn.NewLinear(5, 2), Drop: nn.NewDropout(0.5)}
	nn.SetTraining(net, false)
	fmt.Println(net.Drop.Training)
	fmt.Println(len(nn.StateDict(net)), nn.StateDict(net)["fc2.bias"].Shape())
	// Output:
	// false
	// 4 [2]
}
