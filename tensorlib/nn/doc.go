// Package nn builds neural networks on tensor's autograd: layers, losses,
// initialisers and model files, with PyTorch's names, defaults and
// parameter naming.
//
// # Modules
//
// A Forwarder maps a tensor to a tensor with Forward, and a Module is a
// Forwarder that also lists its parameters with Parameters. Every layer
// here is a Module — Linear,
// Conv2d, MaxPool2d, AvgPool2d, Flatten, ReLU, Sigmoid, Tanh, GELU,
// Dropout, BatchNorm (1d and 2d), LayerNorm, Embedding,
// MultiheadAttention, TransformerEncoderLayer, TransformerEncoder,
// TransformerDecoderLayer, TransformerDecoder, Transformer — and
// Sequential chains them. Layers start with
// PyTorch's initialisation (Linear and Conv2d: U(±1/√fan_in)) drawn from
// the generator that tensor.ManualSeed seeds, and their fields (Weight,
// Bias, RunningMean, ...) are exported.
//
// An MLP for MNIST:
//
//	model := nn.NewSequential(
//		nn.NewFlatten(),
//		nn.NewLinear(784, 256), nn.NewReLU(),
//		nn.NewLinear(256, 10),
//	)
//	opt := optim.NewAdam(model.Parameters(), 1e-3)
//	for loader.Next() {
//		x, y := loader.Batch()
//		loss := nn.CrossEntropy(model.Forward(x), y)
//		opt.ZeroGrad()
//		loss.Backward()
//		opt.Step()
//	}
//
// A small CNN, summarised for a [1, 1, 28, 28] input:
//
//	cnn := nn.NewSequential(
//		nn.NewConv2d(1, 32, 3, nn.Padding(1)), nn.NewBatchNorm2d(32), nn.NewReLU(),
//		nn.NewMaxPool2d(2), // [N 32 14 14]
//		nn.NewConv2d(32, 64, 3, nn.Padding(1)), nn.NewReLU(),
//		nn.NewMaxPool2d(2), // [N 64 7 7]
//		nn.NewFlatten(), nn.NewDropout(0.25),
//		nn.NewLinear(64*7*7, 10),
//	)
//	fmt.Println(nn.Summary(cnn, 1, 1, 28, 28))
//
// Options configure layers at construction: nn.Stride, nn.Padding,
// nn.Dilation (and their HW forms for unequal sizes), nn.KernelHW,
// nn.NoBias, nn.Eps, nn.Momentum, nn.NoAffine.
//
// # Training and evaluation
//
// Dropout and BatchNorm behave differently in training and evaluation:
// nn.SetTraining(model, false) switches a whole model to evaluation
// (PyTorch's model.eval()) and nn.SetTraining(model, true) back; new
// layers start in training mode.
//
// # Your own modules
//
// A struct with a Forward method is a Forwarder, in compiled code and in
// a notebook cell, and works everywhere a layer does: the functions of
// this package (Parameters, Children, StateDict, To, Train, Eval,
// SetTraining, Summary, Save, Load), a Sequential's layers, a Child, the
// Norm of the transformer stacks, a Checkpoint's Model. As PyTorch finds a module's parameters
// in its attributes, nn finds them in its exported fields (see Forwarder
// for the rule): sub-modules, tensors that require grad, tensors tagged
// `nn:",buffer"`, and slices and maps of them, named after the fields in
// snake case:
//
//	type Net struct {
//		FC1, FC2 *nn.Linear
//		Drop     *nn.Dropout
//		Pos      *tensor.Tensor // a learned parameter: SetRequiresGrad(true)
//	}
//
//	func (n *Net) Forward(x *tensor.Tensor) *tensor.Tensor {
//		return n.FC2.Forward(n.Drop.Forward(n.FC1.Forward(x.Flatten(1).Add(n.Pos)).ReLU()))
//	}
//
//	opt := optim.NewAdam(nn.Parameters(net), 1e-3) // pos, fc1.weight, fc1.bias, fc2.weight, fc2.bias
//	nn.Eval(net)                                   // Drop too
//
// Methods of the module's own override the fields: Parameters (the
// tensors to train, say with a frozen embedding left out) and Children
// (Container: names of your choosing, or sub-modules in unexported
// fields). A Parameters method makes the struct a Module, which code
// written for nn.Module (func train(m nn.Module)) takes; one that returns
// what the fields give is a line, as nn.Parameters called from it on its
// own module reads the fields rather than call it back:
//
//	func (n *Net) Parameters() []*tensor.Tensor { return nn.Parameters(n) }
//
// In a notebook, add a module whose type is declared in a cell to a
// Sequential with Add (or a []nn.Forwarder slice and ...): the
// interpreter cannot pass it as a variadic argument.
//
// Besides Forward, the library asks a module only for those optional
// methods (through Container and fmt.Stringer) and reads its exported
// fields; it never calls a method it finds by reflection.
//
// # Losses
//
// CrossEntropy (logits and Int64 labels, fused and stable), NLLLoss,
// MSELoss and BCEWithLogits return the mean over the batch as a 0-d
// tensor, as PyTorch's functions do with their default reduction. They
// take PyTorch's shapes — CrossEntropy and NLLLoss [N, C, d1, ...] against
// targets [N, d1, ...], CrossEntropy class probabilities too — and its
// keyword arguments as LossOptions: Reduction ("mean", "sum", "none"),
// Weight, IgnoreIndex (default -100, as PyTorch's), LabelSmoothing,
// PosWeight:
//
//	loss := nn.CrossEntropy(logits.Permute(0, 2, 1), y, nn.IgnoreIndex(pad), nn.LabelSmoothing(0.1))
//
// # Files
//
// Save writes a model's parameters and buffers (StateDict) to a
// safetensors file under PyTorch's names — "0.weight", "0.bias",
// "1.running_mean", "1.num_batches_tracked", ... — and Load reads one
// back into a model of the same structure, checking every name and shape.
// PyTorch's model.load_state_dict(safetensors.torch.load_file(path))
// reads what Save writes, and the reverse:
//
//	if err := nn.Save("mnist.safetensors", model); err != nil { ... }
//	if err := nn.Load("mnist.safetensors", model); err != nil { ... }
//
// # Errors
//
// Misuse panics as in package tensor: an input of the wrong shape panics
// with a *tensor.ShapeError naming the layer ("nn.Linear: input [128 700]:
// last dim must be in_features=784"), and tensor.Try turns it back into an
// error. Bad constructor arguments and options panic with a message
// saying what the constructor takes. File trouble returns an error.
package nn
