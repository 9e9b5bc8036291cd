package optim_test

import (
	"fmt"

	"github.com/gotensor/gotensor/tensorlib/optim"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Minimize (x - 3)² with SGD and momentum.
func ExampleNewSGD() {
	x := tensor.Scalar(0).SetRequiresGrad(true)
	opt := optim.NewSGD([]*tensor.Tensor{x}, 0.1, optim.Momentum(0.5))
	for i := 0; i < 100; i++ {
		opt.ZeroGrad()
		d := x.SubScalar(3)
		d.Mul(d).Backward()
		opt.Step()
	}
	fmt.Printf("x = %.4f\n", x.Item())
	// Output: x = 3.0000
}

// A cosine schedule anneals the learning rate once an epoch.
func ExampleNewCosineLR() {
	w := tensor.Zeros(3).SetRequiresGrad(true)
	opt := optim.NewAdam([]*tensor.Tensor{w}, 0.1)
	sched := optim.NewCosineLR(opt, 4, 0)
	for epoch := 0; epoch < 4; epoch++ {
		// ... an epoch of opt.ZeroGrad(), loss.Backward(), opt.Step() ...
		sched.Step()
		fmt.Printf("%.4f ", opt.LR())
	}
	fmt.Println()
	// Output: 0.0854 0.0500 0.0146 0.0000
}
