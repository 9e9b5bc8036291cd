package tensor_test

import (
	"encoding/json"
	"errors"
	"os/exec"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestAutocastDTypes checks the dtype of each op's result inside an
// Autocast scope against PyTorch's CUDA autocast lists
// (aten/src/ATen/autocast_mode.cpp: mm, linear, conv2d,
// scaled_dot_product_attention lower precision; exp, log, pow, sum,
// cumsum, softmax, log_softmax, logsumexp, layer_norm, cross_entropy,
// nll_loss, mse_loss, binary_cross_entropy_with_logits float32; the rest
// in their inputs' dtype, promoting), on every device.
func TestAutocastDTypes(t *testing.T) {
	for _, dev := range testDevices(t) {
		for _, dt := range []tensor.DType{tensor.BFloat16, tensor.Float16} {
			x := tensor.Randn(4, 6).To(dev)
			w := tensor.Randn(3, 6).To(dev)
			img := tensor.Randn(1, 2, 5, 5).To(dev)
			k := tensor.Randn(3, 2, 3, 3).To(dev)
			q := tensor.Randn(2, 5, 4).To(dev)
			h := x.AsType(dt)
			labels := tensor.FromInt64s([]int64{0, 1, 2, 0}).To(dev)
			type c struct {
				name string
				f    func() *tensor.Tensor
				want tensor.DType
			}
			tensor.Autocast(dt, func() {
				if got, on := tensor.AutocastDType(); got != dt || !on {
					t.Fatalf("AutocastDType() = %v, %v inside the scope", got, on)
				}
				for _, cs := range []c{
					{"MatMul", func() *tensor.Tensor { return x.MatMul(w.T()) }, dt},
					{"Linear", func() *tensor.Tensor { return tensor.Linear(x, w, nil) }, dt},
					{"Conv2d", func() *tensor.Tensor { return tensor.Conv2d(img, k, nil, [2]int{1, 1}, [2]int{}, [2]int{1, 1}) }, dt},
					{"ScaledDotProductAttention", func() *tensor.Tensor { return tensor.ScaledDotProductAttention(q, q, q, tensor.Causal()) }, dt},
					{"MatMul of Float64", func() *tensor.Tensor { return x.AsType(tensor.Float64).MatMul(w.T().AsType(tensor.Float64)) }, tensor.Float64},
					{"Softmax", func() *tensor.Tensor { return h.Softmax(-1) }, tensor.Float32},
					{"LogSoftmax", func() *tensor.Tensor { return h.LogSoftmax(-1) }, tensor.Float32},
					{"LogSumExp", func() *tensor.Tensor { return h.LogSumExp(-1) }, tensor.Float32},
					{"LayerNorm", func() *tensor.Tensor { return tensor.LayerNorm(h, []int{6}, nil, nil, 1e-5) }, tensor.Float32},
					{"Exp", func() *tensor.Tensor { return h.Exp() }, tensor.Float32},
					{"Log", func() *tensor.Tensor { return h.Abs().Log() }, tensor.Float32},
					{"PowScalar", func() *tensor.Tensor { return h.PowScalar(2) }, tensor.Float32},
					{"Sum", func() *tensor.Tensor { return h.Sum() }, tensor.Float32},
					{"CumSum", func() *tensor.Tensor { return h.CumSum(1) }, tensor.Float32},
					{"CrossEntropy", func() *tensor.Tensor { return tensor.CrossEntropy(h.Narrow(1, 0, 3), labels) }, tensor.Float32},
					{"GELU keeps", func() *tensor.Tensor { return h.GELU() }, dt},
					{"Mean keeps", func() *tensor.Tensor { return h.Mean() }, dt},
					{"Add promotes", func() *tensor.Tensor { return h.Add(x) }, tensor.Float32},
					{"Float32 stays", func() *tensor.Tensor { return x.ReLU() }, tensor.Float32},
					{"BatchNorm keeps", func() *tensor.Tensor {
						return tensor.BatchNorm(h, nil, nil, tensor.Ones(6).To(dev), tensor.Zeros(6).To(dev), true, 0.1, 1e-5)
					}, dt},
				} {
					if got := cs.f().DType(); got != cs.want {
						t.Errorf("%v %v: %s gives %v, want %v", dev, dt, cs.name, got, cs.want)
					}
				}
				tensor.NoAutocast(func() {
					if got := x.MatMul(w.T()).DType(); got != tensor.Float32 {
						t.Errorf("%v: MatMul inside NoAutocast gives %v", dev, got)
					}
				})
			})
			if _, on := tensor.AutocastDType(); on {
				t.Fatal("autocasting after the scope ended")
			}
		}
	}
}

// TestAutocastScope checks nesting, that a panic ends the scope, and the
// dtype check.
func TestAutocastScope(t *testing.T) {
	tensor.Autocast(tensor.Float16, func() {
		tensor.Autocast(tensor.BFloat16, func() {
			if dt, _ := tensor.AutocastDType(); dt != tensor.BFloat16 {
				t.Errorf("inner scope autocasts to %v", dt)
			}
		})
		if dt, _ := tensor.AutocastDType(); dt != tensor.Float16 {
			t.Errorf("after the inner scope: %v", dt)
		}
	})
	boom := errors.New("boom")
	func() {
		defer func() {
			if r := recover(); r != boom {
				t.Errorf("recovered %v", r)
			}
		}()
		tensor.Autocast(tensor.BFloat16, func() { panic(boom) })
	}()
	if _, on := tensor.AutocastDType(); on {
		t.Error("a panic left the scope on")
	}
	if err := tensor.Try(func() { tensor.Autocast(tensor.Float32, func() {}) }); err == nil {
		t.Error("Autocast(Float32) accepted")
	}
}

// TestAutocastTraining runs a small network's step under autocast: the
// parameters and their gradients stay Float32, Backward (inside or after
// the scope) runs each op's backward in its forward's dtypes, and the loss
// and gradients agree with PyTorch's CPU autocast (Linear in bfloat16,
// cross_entropy in float32) to bfloat16's precision.
func TestAutocastTraining(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import torch").Run(); err != nil {
		testenv.Missing(t, "Debian's python3-torch is not available (scripts/setup.sh installs it): %v", err)
	}
	tensor.ManualSeed(5)
	x0, w10, b10, w20 := tensor.Randn(8, 6), tensor.Randn(16, 6).MulScalar(0.4), tensor.Randn(16).MulScalar(0.1), tensor.Randn(4, 16).MulScalar(0.25)
	labels := tensor.FromInt64s([]int64{0, 1, 2, 3, 3, 2, 1, 0})
	script := `
import json, sys, torch, torch.nn.functional as F
d = json.loads(sys.argv[1])
t = lambda k, s: torch.tensor(d[k], dtype=torch.float32).reshape(s)
x, w1, b1, w2 = t("x", (8, 6)), t("w1", (16, 6)).requires_grad_(), t("b1", (16,)).requires_grad_(), t("w2", (4, 16)).requires_grad_()
with torch.autocast("cpu", dtype=torch.bfloat16):
    h = F.relu(F.linear(x, w1, b1))
    logits = F.linear(h, w2)
    loss = F.cross_entropy(logits, torch.tensor([0, 1, 2, 3, 3, 2, 1, 0]))
loss.backward()
print(json.dumps({"dtypes": [str(h.dtype), str(logits.dtype), str(loss.dtype), str(w1.grad.dtype)],
                  "loss": loss.item(), "w1": w1.grad.ravel().tolist(), "b1": b1.grad.tolist(), "w2": w2.grad.ravel().tolist()}))
`
	in, _ := json.Marshal(map[string][]float32{"x": x0.Float32s(), "w1": w10.Float32s(), "b1": b10.Float32s(), "w2": w20.Float32s()})
	out, err := exec.Command(py, "-c", script, string(in)).Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	var ref struct {
		DTypes     []string
		Loss       float64
		W1, B1, W2 []float64
	}
	if err := json.Unmarshal(out, &ref); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if ref.DTypes[0] != "torch.bfloat16" || ref.DTypes[2] != "torch.float32" || ref.DTypes[3] != "torch.float32" {
		t.Fatalf("PyTorch's dtypes %v", ref.DTypes)
	}
	for _, dev := range testDevices(t) {
		for _, inside := range []bool{false, true} {
			w1 := w10.Clone().To(dev).SetRequiresGrad(true)
			b1 := b10.Clone().To(dev).SetRequiresGrad(true)
			w2 := w20.Clone().To(dev).SetRequiresGrad(true)
			var h, logits, loss *tensor.Tensor
			tensor.Autocast(tensor.BFloat16, func() {
				h = tensor.Linear(x0.To(dev), w1, b1).ReLU()
				logits = tensor.Linear(h, w2, nil)
				loss = tensor.CrossEntropy(logits, labels.To(dev))
				if inside {
					loss.Backward()
				}
			})
			if !inside {
				loss.Backward()
			}
			if h.DType() != tensor.BFloat16 || logits.DType() != tensor.BFloat16 || loss.DType() != tensor.Float32 {
				t.Errorf("%v: dtypes %v %v %v", dev, h.DType(), logits.DType(), loss.DType())
			}
			if !nearRel(loss.Item(), ref.Loss, 0.01) {
				t.Errorf("%v: loss %v, PyTorch %v", dev, loss.Item(), ref.Loss)
			}
			for _, g := range []struct {
				name string
				p    *tensor.Tensor
				want []float64
			}{{"w1", w1, ref.W1}, {"b1", b1, ref.B1}, {"w2", w2, ref.W2}} {
				if g.p.DType() != tensor.Float32 || g.p.Grad().DType() != tensor.Float32 {
					t.Fatalf("%v: %s is %v with a %v gradient", dev, g.name, g.p.DType(), g.p.Grad().DType())
				}
				got := g.p.Grad().Float64s()
				scale := 0.0
				for _, v := range g.want {
					scale = max(scale, v, -v)
				}
				for i := range got {
					if d := got[i] - g.want[i]; d > 0.03*scale || d < -0.03*scale {
						t.Errorf("%v (backward inside %v): %s's gradient [%d] = %v, PyTorch %v", dev, inside, g.name, i, got[i], g.want[i])
						break
					}
				}
			}
		}
	}
}

// TestRNGState checks that SetRNGState repeats the random calls that
// followed RNGState.
func TestRNGState(t *testing.T) {
	tensor.ManualSeed(11)
	tensor.Randn(3)
	st := tensor.RNGState()
	a := append(tensor.Randn(4).Float32s(), tensor.RandPerm(5).AsType(tensor.Float32).Float32s()...)
	tensor.Randn(7)
	if err := tensor.SetRNGState(st); err != nil {
		t.Fatal(err)
	}
	b := append(tensor.Randn(4).Float32s(), tensor.RandPerm(5).AsType(tensor.Float32).Float32s()...)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("after SetRNGState: %v, want %v", b, a)
		}
	}
	if err := tensor.SetRNGState([]byte("nope")); err == nil {
		t.Error("a bad state was accepted")
	}
}
