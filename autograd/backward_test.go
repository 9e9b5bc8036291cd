package autograd

import (
	"sync"
	"testing"
)

// vec is a minimal Value: a flat vector with a shape, enough to drive the
// engine without tensors.
type vec struct {
	shape []int
	data  []float64
}

func (v *vec) Shape() []int { return v.shape }
func (v *vec) Add(w Value) Value {
	o := &vec{shape: v.shape, data: make([]float64, len(v.data))}
	for i := range v.data {
		o.data[i] = v.data[i] + w.(*vec).data[i]
	}
	return o
}
func (v *vec) Clone() Value { return &vec{shape: v.shape, data: append([]float64(nil), v.data...)} }

// SumTo handles the one broadcast the tests use: a length-n vector from a
// scalar (shape []).
func (v *vec) SumTo(shape []int) Value {
	s := 0.0
	for _, x := range v.data {
		s += x
	}
	return &vec{shape: shape, data: []float64{s}}
}

func scalar(x float64) *vec { return &vec{shape: []int{}, data: []float64{x}} }

// mul records z = x*y for scalars with values a and b.
func mul(x, y *Node, a, b float64) *Node {
	return NewNode("Mul", nil, []*Node{x, y}, func(g Value) []Value {
		gv := g.(*vec).data[0]
		return []Value{scalar(gv * b), scalar(gv * a)}
	})
}

func TestDiamondAccumulates(t *testing.T) {
	// x = 3; y = x*x (uses x twice); z = y*x: dz/dx = 3x² = 27.
	x := NewLeaf(nil)
	y := mul(x, x, 3, 3)
	z := mul(y, x, 9, 3)
	Backward(z, scalar(1), false)
	if got := x.Grad().(*vec).data[0]; got != 27 {
		t.Fatalf("dz/dx = %v, want 27", got)
	}
	// A second graph adds to the leaf's gradient.
	w := mul(x, x, 3, 3)
	Backward(w, scalar(1), false)
	if got := x.Grad().(*vec).data[0]; got != 33 {
		t.Fatalf("accumulated grad = %v, want 27 + 6 = 33", got)
	}
	x.SetGrad(nil)
	if x.Grad() != nil {
		t.Fatal("SetGrad(nil) did not clear the gradient")
	}
}

func TestBroadcastSummedByEngine(t *testing.T) {
	// y = expand(x) to length 3; the closure returns the gradient at the
	// broadcast shape and the engine sums it back to x's shape [].
	x := NewLeaf([]int{})
	y := NewNode("Expand", []int{3}, []*Node{x}, func(g Value) []Value { return []Value{g} })
	Backward(y, &vec{shape: []int{3}, data: []float64{1, 2, 4}}, false)
	if got := x.Grad().(*vec); len(got.shape) != 0 || got.data[0] != 7 {
		t.Fatalf("grad = %v %v, want [] 7", got.shape, got.data)
	}
}

func TestFreedGraph(t *testing.T) {
	x := NewLeaf(nil)
	y := mul(x, x, 2, 2)
	z := mul(y, x, 4, 2)
	Backward(z, scalar(1), false)
	if !z.Freed() || z.backward != nil || z.inputs != nil || y.backward != nil || y.inputs != nil {
		t.Fatal("graph not released after Backward")
	}
	if x.Freed() {
		t.Fatal("a leaf was released")
	}
	first := x.Grad().(*vec).data[0]
	for _, root := range []*Node{z, mul(y, x, 4, 2)} {
		if err := Backward(root, scalar(1), false); err != ErrFreed {
			t.Fatalf("second Backward: got %v, want ErrFreed", err)
		}
	}
	if got := x.Grad().(*vec).data[0]; got != first {
		t.Fatalf("grad after the failed passes = %v, want the first pass's %v", got, first)
	}
}

func TestRetainGraph(t *testing.T) {
	x := NewLeaf(nil)
	y := mul(x, x, 5, 5)
	Backward(y, scalar(1), true)
	Backward(y, scalar(1), false)
	if got := x.Grad().(*vec).data[0]; got != 20 {
		t.Fatalf("grad after two passes = %v, want 20", got)
	}
}

func TestDeepGraph(t *testing.T) {
	// A chain of 100000 nodes must not overflow the stack.
	x := NewLeaf(nil)
	n := x
	for i := 0; i < 100000; i++ {
		n = NewNode("Id", nil, []*Node{n}, func(g Value) []Value { return []Value{g} })
	}
	Backward(n, scalar(1), false)
	if got := x.Grad().(*vec).data[0]; got != 1 {
		t.Fatalf("grad = %v, want 1", got)
	}
}

func TestNoGrad(t *testing.T) {
	if !Enabled() {
		t.Fatal("recording off at start")
	}
	NoGrad(func() {
		NoGrad(func() {
			if Enabled() {
				t.Error("recording on inside nested NoGrad")
			}
		})
		if Enabled() {
			t.Error("recording on after leaving the inner scope")
		}
	})
	func() {
		defer func() { recover() }()
		NoGrad(func() { panic("boom") })
	}()
	if !Enabled() {
		t.Fatal("recording still off after a panic in NoGrad")
	}
	// Concurrent scopes balance.
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 1000; j++ {
				NoGrad(func() {})
			}
		}()
	}
	wg.Wait()
	if !Enabled() {
		t.Fatal("depth counter unbalanced after concurrent scopes")
	}
	// Closures run with recording off.
	x := NewLeaf(nil)
	y := NewNode("Id", nil, []*Node{x}, func(g Value) []Value {
		if Enabled() {
			t.Error("recording on inside a backward closure")
		}
		return []Value{g}
	})
	Backward(y, scalar(1), false)
}

// relVec is a vec that records its Release.
type relVec struct {
	vec
	released bool
}

func (v *relVec) Release() { v.released = true }

func (v *relVec) Add(w Value) Value { return rscalar(v.data[0] + w.(*relVec).data[0]) }
func (v *relVec) Clone() Value      { return rscalar(v.data[0]) }

func rscalar(x float64) *relVec { return &relVec{vec: vec{shape: []int{}, data: []float64{x}}} }

func TestEngineReleasesConsumedGradients(t *testing.T) {
	// y = x used by two ops, a and b: y's gradient is the sum of theirs,
	// after which both parts are released; the sum goes on to x, a leaf
	// with a gradient already, and is released once added to it, while
	// the leaf's own gradient never is.
	x := NewLeaf([]int{})
	old := rscalar(100)
	x.SetGrad(old)
	y := NewNode("Id", []int{}, []*Node{x}, func(g Value) []Value {
		return []Value{rscalar(g.(*relVec).data[0])}
	})
	var parts []*relVec
	branch := func(k float64) *Node {
		return NewNode("Scale", []int{}, []*Node{y}, func(g Value) []Value {
			p := rscalar(k * g.(*relVec).data[0])
			parts = append(parts, p)
			return []Value{p}
		})
	}
	a, b := branch(2), branch(3)
	root := NewNode("Add", []int{}, []*Node{a, b}, func(g Value) []Value {
		return []Value{rscalar(g.(*relVec).data[0]), rscalar(g.(*relVec).data[0])}
	})
	if err := Backward(root, rscalar(1), false); err != nil {
		t.Fatal(err)
	}
	if got := x.Grad().(*relVec).data[0]; got != 105 {
		t.Fatalf("x's gradient = %v, want 100 + 2 + 3", got)
	}
	if len(parts) != 2 || !parts[0].released || !parts[1].released {
		t.Errorf("the two gradients summed into y's were not released: %+v", parts)
	}
	if old.released {
		t.Error("the leaf's own gradient was released")
	}
}

func TestNodeWithoutGradientIsReleased(t *testing.T) {
	// z = f(x, y) whose backward gives y no gradient: y's node is
	// released all the same.
	x, w := NewLeaf([]int{}), NewLeaf([]int{})
	y := NewNode("Id", []int{}, []*Node{w}, func(g Value) []Value { return []Value{g} })
	z := NewNode("First", []int{}, []*Node{x, y}, func(g Value) []Value { return []Value{g, nil} })
	if err := Backward(z, scalar(1), false); err != nil {
		t.Fatal(err)
	}
	if !y.Freed() || !z.Freed() {
		t.Errorf("freed: y %v, z %v; want both", y.Freed(), z.Freed())
	}
	if x.Freed() || w.Freed() {
		t.Error("a leaf was released")
	}
}

// TestNoGradPerGoroutine checks that a NoGrad scope turns recording off on
// its own goroutine only: another goroutine, and one started inside the
// scope, keep recording.
func TestNoGradPerGoroutine(t *testing.T) {
	inside := make(chan struct{})
	leave := make(chan struct{})
	started := make(chan bool)
	go NoGrad(func() {
		go func() { started <- Enabled() }()
		close(inside)
		<-leave
	})
	<-inside
	if !Enabled() {
		t.Error("another goroutine's NoGrad scope turned recording off here")
	}
	if !<-started {
		t.Error("a goroutine started inside a NoGrad scope does not record")
	}
	close(leave)
}
