package interp

import (
	"path/filepath"
	"testing"
)

// contractCells use every name docs/design.md lists under "The names
// notebooks rely on" (the contract that tests outside the project rely
// on), as a notebook user types them: each must compile and run in a
// session without imports.
var contractCells = []string{
	`tensor.ManualSeed(1)
a := tensor.Zeros(2, 3); b := tensor.Ones(2, 3); c := tensor.Full(2.5, 2, 3); d := tensor.Arange(0, 6, 1); e := tensor.Eye(3)
r := tensor.Rand(2, 3); rn := tensor.Randn(2, 3); ri := tensor.RandInt(0, 10, 2, 3)
f32 := tensor.FromFloat32s([]float32{1, 2, 3, 4, 5, 6}, 2, 3); f64 := tensor.FromFloat64s([]float64{1, 2}, 2); i64 := tensor.FromInt64s([]int64{1, 2}, 2); s := tensor.Scalar(3)
fmt.Println(a.Shape(), a.Dim(), a.Numel(), a.DType(), a.Device(), a.DType() == tensor.Float32, f64.DType() == tensor.Float64, i64.DType() == tensor.Int64, a.Device() == tensor.CPU, len(a.String()) > 0)
fmt.Println(s.Item(), f32.Float32s(), f32.Float64s(), i64.Int64s(), d.Numel(), e.Numel(), r.Numel(), rn.Numel(), ri.DType())`,
	`x := f32
_ = x.To(tensor.CPU); _ = x.CPU(); _ = x.AsType(tensor.Float64); _ = tensor.Bool
y := x.Add(b).Sub(b).Mul(c).Div(c).Pow(b).Maximum(a).Minimum(c)
y = y.AddScalar(1).SubScalar(1).MulScalar(2).DivScalar(2).PowScalar(1)
y = y.Neg().Abs().Sqrt().Exp().Log().Sin().Cos().Tanh().Sigmoid().ReLU().GELU().Clamp(0, 1)
m := x.Eq(b).Ne(b); _ = x.Lt(b); _ = x.Le(b); _ = x.Gt(b); _ = x.Ge(b); _ = tensor.Where(x.Gt(b), x, b); _ = m
_ = x.Sum(); _ = x.Sum(1); _ = x.Mean(); _ = x.Mean(0); _ = x.SumKeep(1); _ = x.MeanKeep(1); _ = x.Max(1); _ = x.Min(1); _ = x.Argmax(1); _ = x.Argmin(1); _ = x.Var(1)
_ = x.Softmax(1); _ = x.LogSoftmax(1); _ = x.LogSumExp(1)
_ = x.Reshape(3, -1); _ = x.Transpose(0, 1); _ = x.Permute(1, 0); _ = x.T(); _ = x.Narrow(1, 0, 2); _ = x.Select(0, 1); _ = x.Unsqueeze(0).Squeeze(); _ = x.Unsqueeze(0).Squeeze(0)
_ = x.Unsqueeze(0).Expand(4, 2, 3); _ = x.Flatten(0); _ = x.Contiguous(); _ = tensor.Cat(0, x, x); _ = tensor.Stack(0, x, x)
idx := tensor.FromInt64s([]int64{0, 2}, 1, 2)
_ = x.Gather(1, idx); _ = x.IndexSelect(1, tensor.FromInt64s([]int64{0, 2}, 2)); _ = tensor.OneHot(tensor.FromInt64s([]int64{0, 2}, 2), 3)
_ = x.MatMul(x.T())
w := tensor.Randn(3, 2).SetRequiresGrad(true)
loss := x.MatMul(w).Sum()
loss.Backward()
fmt.Println(w.RequiresGrad(), w.Grad().Shape()); w.ZeroGrad(); _ = w.Detach(); tensor.NoGrad(func() { _ = w.MulScalar(2) })`,
	`import "os"
path := os.Getenv("GOTENSOR_CONTRACT_FILE")
model := nn.NewSequential(nn.NewConv2d(1, 4, 3), nn.NewMaxPool2d(2), nn.NewAvgPool2d(1), nn.NewReLU(), nn.NewBatchNorm2d(4), nn.NewFlatten(), nn.NewLinear(4*13*13, 10), nn.NewSigmoid(), nn.NewTanh(), nn.NewGELU(), nn.NewDropout(0.1), nn.NewBatchNorm1d(10), nn.NewLayerNorm(10))
_ = nn.NewEmbedding(10, 4)
var mod nn.Module = model
_ = mod.Parameters()
nn.SetTraining(model, true)
out := mod.Forward(tensor.Randn(2, 1, 28, 28))
lab := tensor.FromInt64s([]int64{1, 2}, 2)
l := nn.CrossEntropy(out, lab); _ = nn.NLLLoss(out.LogSoftmax(1), lab); _ = nn.MSELoss(out, out); _ = nn.BCEWithLogits(out, out.Sigmoid())
opt := optim.NewSGD(model.Parameters(), 0.1, optim.Momentum(0.9), optim.Nesterov(), optim.WeightDecay(1e-4))
_ = optim.NewSGD(model.Parameters(), 0.1, optim.Momentum(0.9), optim.Dampening(0.1))
adam := optim.NewAdam(model.Parameters(), 1e-3, optim.Betas(0.9, 0.99), optim.Eps(1e-8), optim.WeightDecay(0))
_ = optim.NewAdamW(model.Parameters(), 1e-3)
opt.ZeroGrad(); l.Backward(); opt.Step(); opt.SetLR(0.01); adam.ZeroGrad()
_ = optim.NewStepLR(opt, 1, 0.5); _ = optim.NewCosineLR(adam, 10, 0)
fmt.Println(optim.ClipGradNorm(model.Parameters(), 1.0) >= 0)
fmt.Println(nn.Save(path, model), nn.Load(path, model))`,
	`display.Show(x); display.HTML("<b>x</b>"); display.Markdown("*x*"); display.Latex("x^2"); display.SVG("<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'></svg>")
display.Image(tensor.Rand(1, 28, 28)); display.Grid(tensor.Rand(8, 1, 28, 28), 4)
lp := display.NewLivePlot("loss"); lp.Add("train", 1); lp.AddXY("test", 1, 2); lp.Done()
pb := display.NewProgress(10); pb.Add(10); pb.Done()
display.Table([]string{"a", "b"}, [][]string{{"1", "2"}})
p := display.LinePlot("t", display.Series{Y: []float64{1, 2}}); display.Plot(p)
fmt.Println(tensor.DefaultDevice(), len(cuda.Devices()))
`,
}

func TestDesignNames(t *testing.T) {
	t.Setenv("GOTENSOR_CONTRACT_FILE", filepath.Join(t.TempDir(), "m.safetensors"))
	s := newSession(t)
	for i, c := range contractCells {
		if _, _, err := run(t, s, c); err != nil {
			t.Errorf("cell %d: %v", i+1, err)
		}
	}
}
