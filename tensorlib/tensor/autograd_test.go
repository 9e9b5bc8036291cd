package tensor

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"weak"
)

func TestBackwardAccumulatesAndZeroGrad(t *testing.T) {
	x := FromFloat64s([]float64{1, 2, 3}).SetRequiresGrad(true)
	if x.Grad() != nil {
		t.Fatal("Grad before Backward is not nil")
	}
	loss := func() *Tensor { return x.Mul(x).Add(x).Sum() } // d/dx = 2x + 1
	loss().Backward()
	checkT(t, "grad", x.Grad(), []int{3}, Float64, f64{3, 5, 7})
	loss().Backward()
	checkT(t, "accumulated grad", x.Grad(), []int{3}, Float64, f64{6, 10, 14})
	x.ZeroGrad()
	if x.Grad() != nil {
		t.Fatal("Grad after ZeroGrad is not nil")
	}
	loss().Backward()
	checkT(t, "grad after ZeroGrad", x.Grad(), []int{3}, Float64, f64{3, 5, 7})
	if x.Grad().RequiresGrad() {
		t.Error("a gradient requires grad")
	}
}

func TestBroadcastGradient(t *testing.T) {
	x := Ones(2, 3).SetRequiresGrad(true)
	b := FromFloat32s([]float32{1, 2, 3}).SetRequiresGrad(true)
	c := Full(2, 2, 1).SetRequiresGrad(true)
	x.Add(b).Mul(c).Sum().Backward()
	checkT(t, "x grad", x.Grad(), []int{2, 3}, Float32, f64{2, 2, 2, 2, 2, 2})
	checkT(t, "b grad", b.Grad(), []int{3}, Float32, f64{4, 4, 4})
	checkT(t, "c grad", c.Grad(), []int{2, 1}, Float32, f64{9, 9}) // sum of (1 + b) per row
}

func TestMixedDtypeGradients(t *testing.T) {
	x := FromFloat32s([]float32{1, 2}).SetRequiresGrad(true)
	y := FromFloat64s([]float64{3, 4}).SetRequiresGrad(true)
	i := FromInt64s([]int64{5, 6})
	x.Mul(y).Add(i).AsType(Float64).Sum().Backward()
	checkT(t, "float32 grad", x.Grad(), []int{2}, Float32, f64{3, 4})
	checkT(t, "float64 grad", y.Grad(), []int{2}, Float64, f64{1, 2})
	z := FromFloat64s([]float64{1.5}).SetRequiresGrad(true)
	z.AsType(Float32).MulScalar(2).Sum().Backward()
	checkT(t, "AsType grad", z.Grad(), []int{1}, Float64, f64{2})
	if z.AsType(Int64).RequiresGrad() {
		t.Error("an Int64 cast requires grad")
	}
}

func TestDetachAndNoGrad(t *testing.T) {
	x := FromFloat32s([]float32{1, 2}).SetRequiresGrad(true)
	d := x.Detach()
	if d.RequiresGrad() || !d.SharesStorage(x) || !d.IsLeaf() {
		t.Fatal("Detach: want a leaf sharing storage without grad")
	}
	x.Mul(d).Sum().Backward() // d is a constant: grad = d
	checkT(t, "grad through Detach", x.Grad(), []int{2}, Float32, f64{1, 2})
	var y *Tensor
	NoGrad(func() {
		if GradEnabled() {
			t.Error("GradEnabled inside NoGrad")
		}
		y = x.Exp()
	})
	if y.RequiresGrad() || !GradEnabled() {
		t.Fatal("NoGrad: result requires grad, or recording stayed off")
	}
	if err := Try(func() { y.Sum().Backward() }); err == nil || !strings.Contains(err.Error(), "does not require grad") {
		t.Fatalf("Backward of a tensor without graph: %v", err)
	}
}

func TestLeafFlags(t *testing.T) {
	x := Ones(2).SetRequiresGrad(true)
	y := x.MulScalar(2)
	if !x.IsLeaf() || y.IsLeaf() || !Ones(1).IsLeaf() || !y.RequiresGrad() || y.GradFn() != "MulScalar" || x.GradFn() != "" {
		t.Fatal("IsLeaf / RequiresGrad / GradFn wrong")
	}
	if y.Grad() != nil {
		t.Error("a non-leaf has a gradient")
	}
	if got := x.String(); got != "tensor([1., 1.], requires_grad=True)" {
		t.Errorf("String() = %q", got)
	}
	if got := y.String(); got != "tensor([2., 2.], grad_fn=<MulScalarBackward>)" {
		t.Errorf("String() = %q", got)
	}
	var de *DTypeError
	if err := Try(func() { FromInt64s([]int64{1}).SetRequiresGrad(true) }); !errors.As(err, &de) {
		t.Errorf("SetRequiresGrad on Int64: %v, want a *DTypeError", err)
	}
	var ae *GradError
	if err := Try(func() { y.SetRequiresGrad(false) }); !errors.As(err, &ae) || !strings.Contains(err.Error(), "Detach") {
		t.Errorf("SetRequiresGrad(false) on a result: %v", err)
	}
	if x.SetRequiresGrad(false).RequiresGrad() {
		t.Error("SetRequiresGrad(false) on a leaf")
	}
}

func TestBackwardErrors(t *testing.T) {
	x := Ones(2, 2).SetRequiresGrad(true)
	y := x.Exp()
	err := Try(func() { y.Backward() })
	var se *ShapeError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "BackwardWith") {
		t.Fatalf("Backward of a non-scalar: %v", err)
	}
	y.BackwardWith(Full(2, 2, 2))
	checkTol(t, "BackwardWith", x.Grad(), []int{2, 2}, Float32, f64{2 * math_E, 2 * math_E, 2 * math_E, 2 * math_E}, 1e-6)
	// The graph is freed: a second pass through y (directly or through a
	// new op on y) fails clearly.
	for _, f := range []func(){func() { y.BackwardWith(OnesLike(y)) }, func() { y.Sum().Backward() }} {
		err := Try(f)
		var ge *GradError
		if !errors.As(err, &ge) || !strings.HasPrefix(err.Error(), "tensor: Backward: Backward through the graph a second time: the graph behind this tensor was freed by an earlier Backward") ||
			!strings.HasSuffix(err.Error(), "; run the forward pass again to build a new graph before calling Backward again") {
			t.Fatalf("second Backward: %v", err)
		}
	}
	if err := Try(func() { x.Exp().BackwardWith(Ones(3)) }); !errors.As(err, &se) {
		t.Errorf("BackwardWith a wrong shape: %v", err)
	}
}

const math_E = 2.718281828459045

func TestGraphReleased(t *testing.T) {
	x := Randn(64, 64).SetRequiresGrad(true)
	h := x.Exp() // saved by Exp's and Sum's closures
	wh := weak.Make(h)
	loss := h.Tanh().Sum()
	h = nil
	runtime.GC()
	if wh.Value() == nil {
		t.Fatal("intermediate collected while the graph needs it")
	}
	loss.Backward()
	runtime.GC()
	if wh.Value() != nil {
		t.Fatal("intermediate still reachable after Backward: the graph was not released")
	}
	if !loss.node.Freed() {
		t.Fatal("loss node not marked freed")
	}
	if x.Grad() == nil {
		t.Fatal("no gradient")
	}
}

// TestUntrackedOpsStayCheap checks that ops pay nothing for autograd when
// no input requires grad: the allocations of a small Add are those of the
// library before autograd (5 for equal shapes, 22 broadcasting; measured
// on the tree before this change, as for the others).
func TestUntrackedOpsStayCheap(t *testing.T) {
	x, y, b := Ones(4, 4), Ones(4, 4), Ones(4)
	if n := testing.AllocsPerRun(100, func() { x.Add(y) }); n > 5 {
		t.Errorf("Add of equal shapes: %v allocations, want <= 5", n)
	}
	if n := testing.AllocsPerRun(100, func() { x.Add(b) }); n > 22 {
		t.Errorf("broadcast Add: %v allocations, want <= 22", n)
	}
	for _, c := range []struct {
		name string
		f    func()
		max  float64
	}{
		{"Exp", func() { x.Exp() }, 6},
		{"Sum(1)", func() { x.Sum(1) }, 12},
		{"Reshape", func() { x.Reshape(16) }, 4},
		{"MatMul", func() { x.MatMul(y) }, 8},
	} {
		if n := testing.AllocsPerRun(100, c.f); n > c.max {
			t.Errorf("%s: %v allocations, want <= %v", c.name, n, c.max)
		}
	}
}

func TestGradOnTestDevice(t *testing.T) {
	dev := NewDevice("testdev", 0)
	w := Randn(3, 2).To(dev).SetRequiresGrad(true)
	x := Randn(4, 3).To(dev)
	labels := FromInt64s([]int64{0, 1, 1, 0}).To(dev)
	CrossEntropy(x.MatMul(w).ReLU(), labels).Backward()
	if w.Grad() == nil || w.Grad().Device() != dev {
		t.Fatal("gradient missing or on the wrong device")
	}
	wc := w.CPU().Detach().SetRequiresGrad(true)
	CrossEntropy(x.CPU().MatMul(wc).ReLU(), labels.CPU()).Backward()
	checkT(t, "testdev grad", w.Grad().CPU(), []int{3, 2}, Float32, wc.Grad().Float64s())
}

// TestLeafGradientsShareNoStorage checks that a leaf keeps a gradient
// without a copy only when nothing else holds its storage: gradients that
// an op passes on unchanged (Add gives g to both operands, Reshape a view
// of g, BackwardWith the caller's tensor) are copied, while a gradient a
// backward computed (Linear's weight gradient) is kept as it is.
func TestLeafGradientsShareNoStorage(t *testing.T) {
	a := FromFloat64s([]float64{1, 2}).SetRequiresGrad(true)
	b := FromFloat64s([]float64{3, 4}).SetRequiresGrad(true)
	c := FromFloat64s([]float64{5, 6, 7, 8}).SetRequiresGrad(true)
	seed := FromFloat64s([]float64{1, 10})
	a.Add(b).Add(c.Reshape(2, 2).Sum(0)).BackwardWith(seed)
	grads := []*Tensor{a.Grad(), b.Grad(), c.Grad()}
	for i, g := range grads {
		if g.SharesStorage(seed) {
			t.Errorf("gradient %d shares the seed's storage", i)
		}
		for j := i + 1; j < len(grads); j++ {
			if g.SharesStorage(grads[j]) {
				t.Errorf("gradients %d and %d share storage", i, j)
			}
		}
	}
	checkT(t, "a grad", a.Grad(), []int{2}, Float64, f64{1, 10})
	checkT(t, "c grad", c.Grad(), []int{4}, Float64, f64{1, 10, 1, 10})

}

// TestOwnedGrad checks which gradients a backward returns the engine may
// keep without a copy, and that Clone copies only the others.
func TestOwnedGrad(t *testing.T) {
	in := Ones(2, 3)
	g := &gradValue{t: Ones(2, 3)}
	fresh, other := Zeros(2, 3), Zeros(6)
	cases := []struct {
		name  string
		gs    []*Tensor
		g     *gradValue
		owned bool
	}{
		{"computed", []*Tensor{fresh, nil}, g, true},
		{"g itself", []*Tensor{g.t}, g, false},
		{"a view of g", []*Tensor{g.t.Reshape(6)}, g, false},
		{"a view of an owned g", []*Tensor{g.t.Reshape(6)}, &gradValue{t: g.t, owned: true}, true},
		{"given twice", []*Tensor{fresh, fresh}, g, false},
		{"an input", []*Tensor{in}, g, false},
		{"part of a storage", []*Tensor{other.Narrow(0, 0, 3)}, g, false},
		{"transposed", []*Tensor{fresh.T()}, g, false},
	}
	for _, c := range cases {
		if got := ownedGrad(c.gs[0], 0, c.gs, c.g, []*Tensor{in}); got != c.owned {
			t.Errorf("%s: owned %v, want %v", c.name, got, c.owned)
		}
	}
	if c := (&gradValue{t: fresh, owned: true}).Clone().(*gradValue); c.t != fresh || c.owned {
		t.Errorf("Clone of an owned gradient copied it or kept it owned")
	}
	if c := (&gradValue{t: fresh}).Clone().(*gradValue); c.t.SharesStorage(fresh) {
		t.Errorf("Clone of a shared gradient did not copy it")
	}
}

// TestBackwardKeepsCallerGradient checks that the backwards that may write
// over their incoming gradient (ReLU, BatchNorm) do so only when the engine
// owns it: the caller's gradient and a gradient that Add hands to two
// operands stay as they were.
func TestBackwardKeepsCallerGradient(t *testing.T) {
	x := Randn(4, 3, 5, 5).SetRequiresGrad(true)
	seed := Randn(4, 3, 5, 5)
	want := seed.Float64s()
	for name, f := range map[string]func(*Tensor) *Tensor{
		"ReLU":      (*Tensor).ReLU,
		"BatchNorm": func(x *Tensor) *Tensor { return BatchNorm(x, nil, nil, nil, nil, true, 0.1, 1e-5) },
		"ReLU twice through Add": func(x *Tensor) *Tensor {
			return x.ReLU().Add(BatchNorm(x, nil, nil, nil, nil, true, 0.1, 1e-5))
		},
	} {
		f(x).BackwardWith(seed)
		checkT(t, name+": the caller's gradient", seed, []int{4, 3, 5, 5}, Float32, want)
	}
}
