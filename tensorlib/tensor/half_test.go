package tensor_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// halfDTypes maps the fixtures' names of the 16-bit dtypes to them.
var halfDTypes = map[string]tensor.DType{"bfloat16": tensor.BFloat16, "float16": tensor.Float16}

// halfFixtureOps are the ops of testdata/half_fixtures.json that
// fixtures.json does not use.
var halfFixtureOps = map[string]fixtureOp{
	"as_bfloat16": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].AsType(tensor.BFloat16) },
	"as_float16":  func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].AsType(tensor.Float16) },
	"layer_norm": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor {
		return tensor.LayerNorm(in[0], in[1].Shape(), in[1], in[2], 1e-5)
	},
	"cross_entropy": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return tensor.CrossEntropy(in[0], in[1]) },
	"conv2d": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor {
		return tensor.Conv2d(in[0], in[1], in[2], [2]int{1, 1}, [2]int{1, 1}, [2]int{1, 1})
	},
	"max_pool2d": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor {
		return in[0].MaxPool2d([2]int{2, 2}, [2]int{}, [2]int{})
	},
}

// TestHalfFixtures runs the bfloat16 and float16 cases of
// testdata/half_fixtures.json (gen_half_fixtures.py, PyTorch) on every
// device: conversions and exactly rounded ops bit for bit, the others to
// a unit or two in the last place.
func TestHalfFixtures(t *testing.T) {
	b, err := os.ReadFile("testdata/half_fixtures.json")
	if err != nil {
		t.Fatalf("%v (regenerate with /usr/bin/python3 testdata/gen_half_fixtures.py)", err)
	}
	var f fixtureFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	for _, dev := range testDevices(t) {
		t.Run(dev.String(), func(t *testing.T) {
			for _, c := range f.Cases {
				t.Run(c.Name, func(t *testing.T) { runFixture(t, c, dev) })
			}
		})
	}
}

// TestHalfGradients checks that gradients flow through 16-bit ops in the
// leaves' dtypes, and agree with the same computation in float32 (whose
// ops are checked against PyTorch elsewhere) to bfloat16's precision.
func TestHalfGradients(t *testing.T) {
	for _, dev := range testDevices(t) {
		for _, dt := range []tensor.DType{tensor.BFloat16, tensor.Float16} {
			tensor.ManualSeed(3)
			x0, w0, b0 := tensor.Randn(4, 6), tensor.Randn(5, 6).MulScalar(0.5), tensor.Randn(5)
			labels := tensor.FromInt64s([]int64{0, 4, 2, 1}, 4)
			run := func(dt tensor.DType) (loss *tensor.Tensor, grads []*tensor.Tensor) {
				x := x0.AsType(dt).Clone().To(dev).SetRequiresGrad(true)
				w := w0.AsType(dt).Clone().To(dev).SetRequiresGrad(true)
				b := b0.Clone().To(dev).SetRequiresGrad(true) // a float32 bias: mixed dtypes
				h := tensor.Linear(x, w, b.AsType(dt)).GELU()
				h = tensor.LayerNorm(h, []int{5}, nil, nil, 1e-5)
				loss = tensor.CrossEntropy(h.Mul(h.Sigmoid()), labels.To(dev)).Add(h.Softmax(-1).Max(1).Sum())
				loss.Backward()
				return loss, []*tensor.Tensor{x.Grad(), w.Grad(), b.Grad()}
			}
			l16, g16 := run(dt)
			l32, g32 := run(tensor.Float32)
			if l16.DType() != dt {
				t.Errorf("%v %v: loss dtype %v", dev, dt, l16.DType())
			}
			if !nearRel(l16.Item(), l32.Item(), 0.03) {
				t.Errorf("%v %v: loss %v, float32 gives %v", dev, dt, l16.Item(), l32.Item())
			}
			for i, g := range g16 {
				want := []tensor.DType{dt, dt, tensor.Float32}[i]
				if g == nil || g.DType() != want {
					t.Fatalf("%v %v: gradient %d is %v, want dtype %v", dev, dt, i, g, want)
				}
				gv, wv := g.Float64s(), g32[i].Float64s()
				for j := range gv {
					if !nearRel(gv[j], wv[j], 0.05) {
						t.Errorf("%v %v: gradient %d element %d = %v, float32 gives %v", dev, dt, i, j, gv[j], wv[j])
						break
					}
				}
			}
		}
	}
}

func nearRel(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

// A bfloat16 tensor keeps 8 significant bits, prints as PyTorch prints it
// (torch.tensor([1, 2.5, 3.14159]).bfloat16() is tensor([1.0000, 2.5000,
// 3.1406], dtype=torch.bfloat16)), and computes in float32, rounding each
// result.
func ExampleTensor_AsType_bfloat16() {
	x := tensor.FromFloat32s([]float32{1, 2.5, 3.14159}).AsType(tensor.BFloat16)
	fmt.Println(x)
	fmt.Println(x.MulScalar(3))
	fmt.Println(x.Float32s())
	// Output:
	// tensor([1.0000, 2.5000, 3.1406], dtype=bfloat16)
	// tensor([3.0000, 7.5000, 9.4375], dtype=bfloat16)
	// [1 2.5 3.140625]
}
