package tensor_test

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"

	"github.com/gotensor/gotensor/tensorlib/backend"

	"github.com/gotensor/gotensor/tensorlib/internal/access"
)

// testdata/grad_fixtures.json holds PyTorch's outputs and gradients for the
// expressions below and torch.optim trajectories; testdata/
// gen_grad_fixtures.py writes it (run it with Debian's /usr/bin/python3).

type gradFixtures struct {
	Torch string        `json:"torch"`
	Cases []gradCase    `json:"cases"`
	Optim []optimRecord `json:"optim"`
}

type gradCase struct {
	Name   string     `json:"name"`
	Inputs []gfTensor `json:"inputs"`
	Labels []int64    `json:"labels"`
	R      gfTensor   `json:"r"`
	Out    gfTensor   `json:"out"`
	Grads  []gfTensor `json:"grads"`
}

type optimRecord struct {
	Name  string         `json:"name"`
	Hyper map[string]any `json:"hyper"`
	P0    gfTensor       `json:"p0"`
	Grads []gfTensor     `json:"grads"`
	Want  gfTensor       `json:"want"`
}

type gfTensor struct {
	Shape []int     `json:"shape"`
	DType string    `json:"dtype"`
	Data  []float64 `json:"data"`
}

func (f gfTensor) tensor() *tensor.Tensor {
	x := tensor.FromFloat64s(f.Data).Reshape(f.Shape...)
	if f.DType == "float32" {
		x = x.AsType(tensor.Float32)
	}
	return x
}

var one2, zero2 = [2]int{1, 1}, [2]int{0, 0}

// gradExprs rebuilds each fixture's expression with gotensor; y holds the
// labels when the case has them.
var gradExprs = map[string]func(xs []*tensor.Tensor, y *tensor.Tensor) *tensor.Tensor{
	"mlp": func(xs []*tensor.Tensor, y *tensor.Tensor) *tensor.Tensor {
		return tensor.CrossEntropy(xs[0].MatMul(xs[1]).Add(xs[2]).ReLU().MatMul(xs[3]).Add(xs[4]), y)
	},
	"mlp64": func(xs []*tensor.Tensor, y *tensor.Tensor) *tensor.Tensor {
		return tensor.CrossEntropy(xs[0].MatMul(xs[1]).Add(xs[2]).Tanh().MatMul(xs[3]).Add(xs[4]), y)
	},
	"layernorm": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		x := xs[0]
		d := x.Sub(x.MeanKeep(-1)).Div(x.Var(-1).Unsqueeze(-1).AddScalar(1e-5).Sqrt())
		return d.Mul(xs[1]).Add(xs[2]).Tanh().PowScalar(2)
	},
	"attention": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		return xs[0].MatMul(xs[1].Transpose(-2, -1)).DivScalar(2).Softmax(-1).MatMul(xs[2])
	},
	"mixed": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		x, y := xs[0], xs[1]
		return tensor.Where(x.GtScalar(0), x.GELU().Mul(y.Sigmoid()), x.Maximum(y).Exp()).LogSumExp(1)
	},
	"conv": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		return tensor.Conv2d(xs[0], xs[1], xs[2], one2, one2, one2)
	},
	"conv_strided": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		return tensor.Conv2d(xs[0], xs[1], xs[2], [2]int{2, 1}, [2]int{0, 1}, [2]int{1, 2})
	},
	"conv32": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		return tensor.Conv2d(xs[0], xs[1], xs[2], [2]int{2, 2}, [2]int{2, 2}, [2]int{2, 2})
	},
	"maxpool": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		return xs[0].MaxPool2d([2]int{2, 2}, [2]int{}, zero2)
	},
	"maxpool_pad": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		return xs[0].MaxPool2d([2]int{3, 3}, [2]int{2, 2}, one2)
	},
	"avgpool": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		return xs[0].AvgPool2d([2]int{2, 2}, [2]int{}, zero2)
	},
	"avgpool_pad": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		return xs[0].AvgPool2d([2]int{3, 2}, [2]int{2, 1}, one2)
	},
	"cross_entropy": func(xs []*tensor.Tensor, y *tensor.Tensor) *tensor.Tensor {
		return tensor.CrossEntropy(xs[0], y)
	},
	"cross_entropy32": func(xs []*tensor.Tensor, y *tensor.Tensor) *tensor.Tensor {
		return tensor.CrossEntropy(xs[0], y)
	},
	"cnn": func(xs []*tensor.Tensor, y *tensor.Tensor) *tensor.Tensor {
		h := tensor.Conv2d(xs[0], xs[1], xs[2], one2, one2, one2).ReLU().MaxPool2d([2]int{2, 2}, [2]int{}, zero2)
		return tensor.CrossEntropy(h.Flatten(1).MatMul(xs[3]), y)
	},
	"linear": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		return tensor.Linear(xs[0], xs[1], xs[2])
	},
	"linear32": func(xs []*tensor.Tensor, y *tensor.Tensor) *tensor.Tensor {
		return tensor.CrossEntropy(tensor.Linear(xs[0], xs[1], nil).ReLU(), y)
	},
	"sort_topk_cumsum": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		s, _ := xs[0].Sort(1, true)
		k, _ := xs[0].TopK(3, 1)
		return s.CumSum(1).Mul(k.SumKeep(1))
	},
	"causal_scores": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		s := xs[0].MatMul(xs[1].Transpose(-2, -1))
		future := tensor.Ones(4, 4).Triu(1).AsType(tensor.Bool).To(s.Device())
		return s.MaskedFill(future, math.Inf(-1)).Softmax(-1).Add(s.Tril(-1))
	},
	"sdpa_causal": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		return tensor.ScaledDotProductAttention(xs[0], xs[1], xs[2], tensor.Causal())
	},
	"sdpa_bool_mask": func(xs []*tensor.Tensor, y *tensor.Tensor) *tensor.Tensor {
		return tensor.ScaledDotProductAttention(xs[0], xs[1], xs[2], tensor.AttnMask(y.Reshape(67, 70).AsType(tensor.Bool)))
	},
	"sdpa_additive32": func(xs []*tensor.Tensor, y *tensor.Tensor) *tensor.Tensor {
		m := y.Reshape(2, 1, 9, 9).AsType(tensor.Float32).MulScalar(-0.5)
		return tensor.ScaledDotProductAttention(xs[0], xs[1], xs[2], tensor.AttnMask(m))
	},
	"sdpa_scale_e128": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		return tensor.ScaledDotProductAttention(xs[0], xs[1], xs[2], tensor.AttnScale(0.3), tensor.Causal())
	},
}

// altGradExprs computes some fixtures a second way, through the fused
// ops that nn's layers use: each must match PyTorch as the plain
// expression does.
var altGradExprs = map[string]func(xs []*tensor.Tensor, y *tensor.Tensor) *tensor.Tensor{
	"mlp": func(xs []*tensor.Tensor, y *tensor.Tensor) *tensor.Tensor {
		h := tensor.Linear(xs[0], xs[1].T(), xs[2]).ReLU()
		return tensor.CrossEntropy(tensor.Linear(h, xs[3].T(), xs[4]), y)
	},
	// The CPU's blocked attention, which small inputs do not otherwise take.
	"sdpa_causal": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		defer tensor.SetAttnBlockedMin(0)()
		return tensor.ScaledDotProductAttention(xs[0], xs[1], xs[2], tensor.Causal())
	},
	"sdpa_bool_mask": func(xs []*tensor.Tensor, y *tensor.Tensor) *tensor.Tensor {
		defer tensor.SetAttnBlockedMin(0)()
		return tensor.ScaledDotProductAttention(xs[0], xs[1], xs[2], tensor.AttnMask(y.Reshape(67, 70).AsType(tensor.Bool)))
	},
	"sdpa_additive32": func(xs []*tensor.Tensor, y *tensor.Tensor) *tensor.Tensor {
		defer tensor.SetAttnBlockedMin(0)()
		m := y.Reshape(2, 1, 9, 9).AsType(tensor.Float32).MulScalar(-0.5)
		return tensor.ScaledDotProductAttention(xs[0], xs[1], xs[2], tensor.AttnMask(m))
	},
	"linear": func(xs []*tensor.Tensor, _ *tensor.Tensor) *tensor.Tensor {
		// A transposed input and a weight viewed through a transpose.
		x := xs[0].Transpose(0, 1).Contiguous().Transpose(0, 1)
		return tensor.Linear(x, xs[1].T().Contiguous().T(), xs[2])
	},
}

func loadGradFixtures(t *testing.T) gradFixtures {
	t.Helper()
	b, err := os.ReadFile("testdata/grad_fixtures.json")
	if err != nil {
		t.Fatal(err)
	}
	var f gradFixtures
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// closeTo compares within rtol relative to max(1, |want|).
func closeTo(t *testing.T, what string, got *tensor.Tensor, want gfTensor, rtol float64) {
	t.Helper()
	if !equalShape(got.Shape(), want.Shape) {
		t.Errorf("%s: shape %v, want %v", what, got.Shape(), want.Shape)
		return
	}
	if got.DType().String() != want.DType {
		t.Errorf("%s: dtype %v, want %v", what, got.DType(), want.DType)
	}
	g := got.Float64s()
	for i, w := range want.Data {
		if math.Abs(g[i]-w) > rtol*math.Max(1, math.Abs(w)) {
			t.Errorf("%s: element %d = %.9g, want %.9g", what, i, g[i], w)
			return
		}
	}
}

func equalShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestGradFixtures checks every expression's output and gradients against
// PyTorch's, on every device the test binary has.
func TestGradFixtures(t *testing.T) {
	f := loadGradFixtures(t)
	if len(f.Cases) != len(gradExprs) {
		t.Errorf("%d fixture cases, %d expressions", len(f.Cases), len(gradExprs))
	}
	for _, dev := range testDevices(t) {
		t.Run(dev.String(), func(t *testing.T) { gradFixturesOn(t, f, dev) })
	}
}

func gradFixturesOn(t *testing.T, f gradFixtures, dev tensor.Device) {
	for _, c := range f.Cases {
		expr, ok := gradExprs[c.Name]
		if !ok {
			t.Errorf("no expression for fixture %q", c.Name)
			continue
		}
		checkGradCase(t, c, c.Name, expr, dev)
		if alt, ok := altGradExprs[c.Name]; ok {
			checkGradCase(t, c, c.Name+" (fused)", alt, dev)
		}
	}
	for name := range altGradExprs {
		if _, ok := gradExprs[name]; !ok {
			t.Errorf("alternative expression for %q, which is no fixture", name)
		}
	}
}

// checkGradCase computes fixture c with expr on dev and compares the
// output and the gradients with PyTorch's.
func checkGradCase(t *testing.T, c gradCase, name string, expr func(xs []*tensor.Tensor, y *tensor.Tensor) *tensor.Tensor, dev tensor.Device) {
	t.Helper()
	xs := make([]*tensor.Tensor, len(c.Inputs))
	for i, in := range c.Inputs {
		xs[i] = in.tensor().To(dev).SetRequiresGrad(true)
	}
	var y *tensor.Tensor
	if c.Labels != nil {
		y = tensor.FromInt64s(c.Labels).To(dev)
	}
	out := expr(xs, y)
	tol := 1e-9
	if c.Out.DType == "float32" {
		tol = 2e-5
	}
	closeTo(t, name+" output", out, c.Out, tol)
	out.Mul(c.R.tensor().To(dev)).Sum().Backward()
	for i, g := range c.Grads {
		if xs[i].Grad() == nil {
			t.Errorf("%s: input %d has no gradient", name, i)
			continue
		}
		closeTo(t, name+" grad "+string(rune('0'+i)), xs[i].Grad(), g, tol)
	}
}

func TestOptimizerStepsMatchTorch(t *testing.T) {
	f := loadGradFixtures(t)
	for _, o := range f.Optim {
		num := func(k string, def float64) float64 {
			if v, ok := o.Hyper[k].(float64); ok {
				return v
			}
			return def
		}
		p := o.P0.tensor().Clone()
		name := o.Name + " " + o.P0.DType
		switch o.Name[:3] {
		case "ada":
			b1, b2 := 0.9, 0.999
			if bs, ok := o.Hyper["betas"].([]any); ok {
				b1, b2 = bs[0].(float64), bs[1].(float64)
			}
			wd := 0.0
			if o.Name == "adamw" {
				wd = 1e-2 // torch.optim.AdamW's default
			}
			m, v := tensor.ZerosLike(p), tensor.ZerosLike(p)
			for i, g := range o.Grads {
				access.Get[*tensor.Tensor]().AdamStep(p, g.tensor(), m, v, backend.AdamParams{LR: num("lr", 1e-3), Beta1: b1, Beta2: b2,
					Eps: num("eps", 1e-8), WeightDecay: num("weight_decay", wd), Step: i + 1, Decoupled: o.Name == "adamw"})
			}
		default:
			buf := tensor.ZerosLike(p)
			_, nesterov := o.Hyper["nesterov"]
			for i, g := range o.Grads {
				access.Get[*tensor.Tensor]().SGDStep(p, g.tensor(), buf, backend.SGDParams{LR: num("lr", 0), Momentum: num("momentum", 0),
					Dampening: num("dampening", 0), WeightDecay: num("weight_decay", 0), Nesterov: nesterov, First: i == 0})
			}
		}
		tol := 1e-12
		if o.P0.DType == "float32" {
			tol = 1e-5
		}
		closeTo(t, name, p, o.Want, tol)
	}
}
