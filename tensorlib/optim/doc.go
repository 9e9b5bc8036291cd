// Package optim updates a model's parameters from their gradients:
// stochastic gradient descent (SGD) with momentum, dampening, Nesterov
// momentum and weight decay, Adam and AdamW, learning-rate schedules, and
// gradient-norm clipping. The update rules are PyTorch's (torch.optim),
// step for step.
//
// # A training step
//
//	opt := optim.NewAdam(model.Parameters(), 1e-3)
//	sched := optim.NewCosineLR(opt, epochs, 0)
//	for epoch := 0; epoch < epochs; epoch++ {
//		for loader.Next() {
//			x, y := loader.Batch()
//			loss := nn.CrossEntropy(model.Forward(x), y)
//			opt.ZeroGrad()   // clear the gradients of the last step
//			loss.Backward()  // fill p.Grad() for every parameter p
//			optim.ClipGradNorm(model.Parameters(), 1) // optional
//			opt.Step()       // update the parameters in place
//		}
//		sched.Step() // once an epoch
//	}
//
// Options configure an optimizer at construction:
//
//	optim.NewSGD(params, 0.1, optim.Momentum(0.9), optim.Nesterov(), optim.WeightDecay(5e-4))
//	optim.NewAdamW(params, 1e-3, optim.Betas(0.9, 0.95), optim.WeightDecay(0.1))
//
// # Conventions
//
// Parameters are float tensors (Float32 or Float64) that are leaves of the
// autograd graph, usually created with SetRequiresGrad(true). Step updates
// them in place, so a model keeps working with the same tensors. A
// parameter whose Grad is nil (it took no part in the loss) is skipped, and
// its optimizer state does not advance, as in PyTorch. ZeroGrad sets the
// gradients to nil (PyTorch's set_to_none=True).
//
// Misuse — a negative learning rate, an option an optimizer does not take
// (Nesterov on Adam), a non-float or non-leaf parameter — panics with a
// message that starts with "optim: " and says what to change.
package optim
