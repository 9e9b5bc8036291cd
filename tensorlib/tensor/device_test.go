package tensor

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

// testBackend is a second device for tests. Its storage is its own type
// holding its own copies, so a CPU storage handed to it (or its storage
// handed to the CPU backend) panics; compute is delegated to the CPU
// kernels on those copies. It proves that the front end reaches devices
// only through the Backend interface.
type testBackend struct {
	dev Device
	ops atomic.Int64 // calls that computed something
}

type testStorage struct{ cpu *cpuStorage }

func (s *testStorage) DType() DType { return s.cpu.dtype }
func (s *testStorage) Len() int     { return s.cpu.Len() }

var testBackends [2]*testBackend

func init() {
	RegisterBackend("testdev", func(i int) (Backend, error) {
		if i < 0 || i >= len(testBackends) {
			return nil, fmt.Errorf("no testdev %d (have %d)", i, len(testBackends))
		}
		b := &testBackend{dev: Device{kind: "testdev", index: i}}
		testBackends[i] = b
		return b, nil
	})
}

func (b *testBackend) un(s Storage) *cpuStorage {
	ts, ok := s.(*testStorage)
	if !ok {
		panic(fmt.Sprintf("testdev: got foreign storage %T", s))
	}
	return ts.cpu
}

func (b *testBackend) wrap(s Storage) Storage {
	b.ops.Add(1)
	return &testStorage{cpu: s.(*cpuStorage)}
}

var cpuB = cpuBackend{}

func (b *testBackend) Device() Device                { return b.dev }
func (b *testBackend) Alloc(dt DType, n int) Storage { return b.wrap(cpuB.Alloc(dt, n)) }
func (b *testBackend) FromHost(data any) Storage {
	// Copy: the device keeps its own memory.
	h := cpuB.FromHost(data)
	return b.wrap(cpuB.contiguous(h, contiguousLayout([]int{h.Len()})))
}
func (b *testBackend) ToHost(s Storage, l Layout) any { return cpuB.ToHost(b.un(s), l) }
func (b *testBackend) Copy(src Storage, sl Layout, dst Storage, dl Layout) {
	cpuB.Copy(b.un(src), sl, b.un(dst), dl)
}
func (b *testBackend) Cast(s Storage, l Layout, dt DType) Storage {
	return b.wrap(cpuB.Cast(b.un(s), l, dt))
}
func (b *testBackend) Fill(dst Storage, dl Layout, v float64) { cpuB.Fill(b.un(dst), dl, v) }
func (b *testBackend) Arange(dt DType, n int, start, step float64) Storage {
	return b.wrap(cpuB.Arange(dt, n, start, step))
}
func (b *testBackend) Random(dist Distribution, dt DType, n int, lo, hi float64, seed uint64) Storage {
	return b.wrap(cpuB.Random(dist, dt, n, lo, hi, seed))
}
func (b *testBackend) Unary(op UnaryOp, s Storage, l Layout) Storage {
	return b.wrap(cpuB.Unary(op, b.un(s), l))
}
func (b *testBackend) Binary(op BinaryOp, x Storage, lx Layout, y Storage, ly Layout) Storage {
	return b.wrap(cpuB.Binary(op, b.un(x), lx, b.un(y), ly))
}
func (b *testBackend) BinaryScalar(op BinaryOp, x Storage, lx Layout, s float64, rev bool) Storage {
	return b.wrap(cpuB.BinaryScalar(op, b.un(x), lx, s, rev))
}
func (b *testBackend) Compare(op CompareOp, x Storage, lx Layout, y Storage, ly Layout) Storage {
	return b.wrap(cpuB.Compare(op, b.un(x), lx, b.un(y), ly))
}
func (b *testBackend) Where(c Storage, lc Layout, x Storage, lx Layout, y Storage, ly Layout) Storage {
	return b.wrap(cpuB.Where(b.un(c), lc, b.un(x), lx, b.un(y), ly))
}
func (b *testBackend) Reduce(op ReduceOp, s Storage, l Layout, dims []int) Storage {
	return b.wrap(cpuB.Reduce(op, b.un(s), l, dims))
}
func (b *testBackend) ArgReduce(op ReduceOp, s Storage, l Layout, dim int) Storage {
	return b.wrap(cpuB.ArgReduce(op, b.un(s), l, dim))
}
func (b *testBackend) MatMul(x Storage, lx Layout, y Storage, ly Layout) Storage {
	return b.wrap(cpuB.MatMul(b.un(x), lx, b.un(y), ly))
}
func (b *testBackend) Gather(s Storage, l Layout, dim int, idx Storage, il Layout) Storage {
	return b.wrap(cpuB.Gather(b.un(s), l, dim, b.un(idx), il))
}
func (b *testBackend) IndexSelect(s Storage, l Layout, dim int, idx Storage, il Layout) Storage {
	return b.wrap(cpuB.IndexSelect(b.un(s), l, dim, b.un(idx), il))
}
func (b *testBackend) ScatterAdd(d Storage, dl Layout, dim int, idx Storage, il Layout, s Storage, sl Layout) {
	cpuB.ScatterAdd(b.un(d), dl, dim, b.un(idx), il, b.un(s), sl)
}
func (b *testBackend) IndexAdd(d Storage, dl Layout, dim int, idx Storage, il Layout, s Storage, sl Layout) {
	cpuB.IndexAdd(b.un(d), dl, dim, b.un(idx), il, b.un(s), sl)
}
func (b *testBackend) Im2Col(s Storage, l Layout, k, st, p, d [2]int) Storage {
	return b.wrap(cpuB.Im2Col(b.un(s), l, k, st, p, d))
}
func (b *testBackend) Col2Im(c Storage, cl Layout, shape []int, k, st, p, d [2]int) Storage {
	return b.wrap(cpuB.Col2Im(b.un(c), cl, shape, k, st, p, d))
}
func (b *testBackend) MaxPool2d(s Storage, l Layout, k, st, p [2]int) (Storage, Storage) {
	o, i := cpuB.MaxPool2d(b.un(s), l, k, st, p)
	return b.wrap(o), b.wrap(i)
}
func (b *testBackend) AdamStep(p Storage, pl Layout, g Storage, gl Layout, m Storage, ml Layout, v Storage, vl Layout, h AdamParams) {
	cpuB.AdamStep(b.un(p), pl, b.un(g), gl, b.un(m), ml, b.un(v), vl, h)
}
func (b *testBackend) SGDStep(p Storage, pl Layout, g Storage, gl Layout, buf Storage, bl Layout, h SGDParams) {
	var bs Storage
	if buf != nil {
		bs = b.un(buf)
	}
	cpuB.SGDStep(b.un(p), pl, b.un(g), gl, bs, bl, h)
}

// sameOnDevices runs f on CPU tensors and on their copies on dev and checks
// that the results agree and live where their inputs do.
func TestOpsOnTestDevice(t *testing.T) {
	dev := NewDevice("testdev", 0)
	if dev.String() != "testdev:0" || dev.Kind() != "testdev" || dev.Index() != 0 {
		t.Fatalf("device %v kind %q index %d", dev, dev.Kind(), dev.Index())
	}
	ManualSeed(3)
	x, w := Randn(4, 5), Randn(5, 3)
	labels := FromInt64s([]int64{2, 0, 1, 1})
	ops := []struct {
		name string
		f    func(x, w, labels *Tensor) *Tensor
	}{
		{"Add broadcast", func(x, w, _ *Tensor) *Tensor { return x.Add(x.Select(0, 1)) }},
		{"Mul T", func(x, w, _ *Tensor) *Tensor { return x.T().Mul(x.T()) }},
		{"scalar chain", func(x, w, _ *Tensor) *Tensor { return x.MulScalar(2).AddScalar(1).PowScalar(2).DivScalar(3) }},
		{"unary", func(x, w, _ *Tensor) *Tensor {
			return x.Exp().Add(x.Tanh()).Add(x.Sigmoid()).Add(x.ReLU()).Add(x.GELU())
		}},
		{"MatMul", func(x, w, _ *Tensor) *Tensor { return x.MatMul(w) }},
		{"MatMul T", func(x, w, _ *Tensor) *Tensor { return w.T().MatMul(x.T()) }},
		{"Sum", func(x, w, _ *Tensor) *Tensor { return x.Sum(0) }},
		{"Mean", func(x, w, _ *Tensor) *Tensor { return x.Mean() }},
		{"Var", func(x, w, _ *Tensor) *Tensor { return x.Var(1) }},
		{"Max", func(x, w, _ *Tensor) *Tensor { return x.Max(-1) }},
		{"Argmax", func(x, w, _ *Tensor) *Tensor { return x.Argmax(1) }},
		{"LogSoftmax", func(x, w, _ *Tensor) *Tensor { return x.LogSoftmax(1) }},
		{"LogSumExp", func(x, w, _ *Tensor) *Tensor { return x.LogSumExp(0) }},
		{"Gather", func(x, w, l *Tensor) *Tensor { return x.Gather(1, l.Unsqueeze(1)) }},
		{"IndexSelect", func(x, w, l *Tensor) *Tensor { return x.IndexSelect(0, l) }},
		{"OneHot", func(x, w, l *Tensor) *Tensor { return OneHot(l, 3) }},
		{"Where", func(x, w, _ *Tensor) *Tensor { return Where(x.Gt(ZerosLike(x)), x, x.Neg()) }},
		{"Cat", func(x, w, _ *Tensor) *Tensor { return Cat(1, x, x.Narrow(1, 0, 2)) }},
		{"Stack", func(x, w, _ *Tensor) *Tensor { return Stack(0, x, x) }},
		{"Reshape copy", func(x, w, _ *Tensor) *Tensor { return x.T().Reshape(-1) }},
		{"Contiguous", func(x, w, _ *Tensor) *Tensor { return x.T().Contiguous() }},
		{"AsType", func(x, w, _ *Tensor) *Tensor { return x.AsType(Int64) }},
		{"Compare", func(x, w, _ *Tensor) *Tensor { return x.Le(x.Select(1, 0).Unsqueeze(1)) }},
		{"Clone", func(x, w, _ *Tensor) *Tensor { return x.Clone() }},
		{"FullLike", func(x, w, _ *Tensor) *Tensor { return FullLike(x, 3) }},
	}
	xd, wd, ld := x.To(dev), w.To(dev), labels.To(dev)
	for _, op := range ops {
		before := testBackends[0].ops.Load()
		want := op.f(x, w, labels)
		got := op.f(xd, wd, ld)
		if got.Device() != dev {
			t.Errorf("%s: result on %v, want %v", op.name, got.Device(), dev)
			continue
		}
		if testBackends[0].ops.Load() == before {
			t.Errorf("%s: the test backend computed nothing", op.name)
		}
		checkT(t, op.name, got.CPU(), want.Shape(), want.DType(), want.Float64s())
	}
}

func TestTransfers(t *testing.T) {
	dev := NewDevice("testdev", 1)
	x := FromFloat32s([]float32{1, 2, 3, 4}, 2, 2)
	xd := x.To(dev)
	if xd.Device() != dev || x.Device() != CPU {
		t.Fatalf("devices %v and %v", xd.Device(), x.Device())
	}
	if _, ok := xd.Storage().(*testStorage); !ok {
		t.Fatalf("device tensor storage is %T", xd.Storage())
	}
	if xd.To(dev) != xd || x.CPU() != x {
		t.Error("To the same device should return the tensor itself")
	}
	// The device copy is separate memory: changing the source after the
	// copy does not reach it, and the source stays valid.
	cpuBackendInstance.Fill(x.storage, contiguousLayout(x.layout.Shape), 9)
	checkT(t, "device copy", xd.CPU(), []int{2, 2}, Float32, f64{1, 2, 3, 4})
	checkT(t, "source", x, []int{2, 2}, Float32, f64{9, 9, 9, 9})
	// Transfers of a view copy only the view, in row-major order.
	y := arange(2, 3).T().To(dev)
	checkT(t, "view transfer", y.CPU(), []int{3, 2}, Float32, f64{0, 3, 1, 4, 2, 5})
	if got := y.Select(0, 2).Select(0, 1).Item(); got != 5 {
		t.Errorf("Item on device = %v", got)
	}
	if got := y.String(); got != "tensor([[0., 3.],\n        [1., 4.],\n        [2., 5.]], device='testdev:1')" {
		t.Errorf("String = %q", got)
	}
	// Devices 0 and 1 of a kind are different devices.
	err := mustPanic(t, func() { y.Add(y.To(NewDevice("testdev", 0))) })
	checkMsg(t, "two testdevs", err.Error(), "tensor: Add: expected all tensors on one device, got testdev:1 and testdev:0...")
}

func TestMixedDevicesPanic(t *testing.T) {
	dev := NewDevice("testdev", 0)
	x, y := Ones(2), Ones(2).To(dev)
	cases := []struct {
		name string
		f    func()
		op   string
	}{
		{"Add", func() { x.Add(y) }, "Add"},
		{"Lt", func() { y.Lt(x) }, "Lt"},
		{"MatMul", func() { x.MatMul(y) }, "MatMul"},
		{"Where", func() { Where(x.Gt(x), x, y) }, "Where"},
		{"Cat", func() { Cat(0, x, y) }, "Cat"},
		{"Gather", func() { y.Gather(0, FromInt64s([]int64{0})) }, "Gather"},
	}
	for _, c := range cases {
		err := mustPanic(t, c.f)
		var de *DeviceError
		if !errors.As(err, &de) {
			t.Errorf("%s: got %T, want *DeviceError", c.name, err)
			continue
		}
		if de.Op != c.op || len(de.Devices) != 2 {
			t.Errorf("%s: %+v", c.name, de)
		}
		checkMsg(t, c.name, err.Error(), "tensor: "+c.op+": expected all tensors on one device, got ...")
		if want := "; move them with .To(device), e.g. y.To(x.Device())"; err.Error()[len(err.Error())-len(want):] != want {
			t.Errorf("%s: message %q does not end with the fix", c.name, err)
		}
	}
}

func TestDeviceLookupErrors(t *testing.T) {
	checkMsg(t, "unknown kind", mustPanic(t, func() { NewDevice("tpu", 0) }).Error(),
		`tensor: NewDevice: no backend registered for device kind "tpu" (have [cpu testdev])...`)
	checkMsg(t, "bad index", mustPanic(t, func() { NewDevice("testdev", 5) }).Error(),
		"tensor: NewDevice: cannot open testdev:5: no testdev 5 (have 2)")
	if NewDevice("cpu", 0) != CPU || CPU.String() != "cpu" || (Device{}) != CPU {
		t.Error("the zero Device should be the CPU")
	}
	defer func() {
		if recover() == nil {
			t.Error("registering a kind twice should panic")
		}
	}()
	RegisterBackend("testdev", func(int) (Backend, error) { return nil, nil })
}
