package tensor

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/cpu"
)

// testBackend is a second device for tests. Its storage is its own type
// holding its own copies, so a CPU storage handed to it (or its storage
// handed to the CPU backend) panics; compute is delegated to the CPU
// kernels on those copies. It proves that the front end reaches devices
// only through the Backend interface.
type testBackend struct {
	ops atomic.Int64 // calls that computed something
}

type testStorage struct{ cpu *cpu.Storage }

func (s *testStorage) DType() DType { return s.cpu.DType() }
func (s *testStorage) Len() int     { return s.cpu.Len() }

var testBackends [2]*testBackend

func init() {
	backend.Register("testdev", func(i int) (backend.Backend, error) {
		if i < 0 || i >= len(testBackends) {
			return nil, fmt.Errorf("no testdev %d (have %d)", i, len(testBackends))
		}
		b := &testBackend{}
		testBackends[i] = b
		return b, nil
	})
}

func (b *testBackend) un(s backend.Storage) *cpu.Storage {
	ts, ok := s.(*testStorage)
	if !ok {
		panic(fmt.Sprintf("testdev: got foreign storage %T", s))
	}
	return ts.cpu
}

func (b *testBackend) wrap(s backend.Storage) backend.Storage {
	b.ops.Add(1)
	return &testStorage{cpu: s.(*cpu.Storage)}
}

var cpuB = cpu.Backend{}

func (b *testBackend) Alloc(dt DType, n int) backend.Storage { return b.wrap(cpuB.Alloc(dt, n)) }
func (b *testBackend) FromHost(data any) backend.Storage {
	// Copy: the device keeps its own memory.
	h := cpuB.FromHost(data)
	l := backend.Contiguous([]int{h.Len()})
	c := cpuB.Alloc(h.DType(), h.Len())
	cpuB.Copy(h, l, c, l)
	return b.wrap(c)
}
func (b *testBackend) ToHost(s backend.Storage, l backend.Layout) any { return cpuB.ToHost(b.un(s), l) }
func (b *testBackend) Copy(src backend.Storage, sl backend.Layout, dst backend.Storage, dl backend.Layout) {
	cpuB.Copy(b.un(src), sl, b.un(dst), dl)
}
func (b *testBackend) Cast(s backend.Storage, l backend.Layout, dt DType) backend.Storage {
	return b.wrap(cpuB.Cast(b.un(s), l, dt))
}
func (b *testBackend) Fill(dst backend.Storage, dl backend.Layout, v float64) {
	cpuB.Fill(b.un(dst), dl, v)
}
func (b *testBackend) Arange(dt DType, n int, start, step float64) backend.Storage {
	return b.wrap(cpuB.Arange(dt, n, start, step))
}
func (b *testBackend) Random(dist backend.Distribution, dt DType, n int, lo, hi float64, seed uint64) backend.Storage {
	return b.wrap(cpuB.Random(dist, dt, n, lo, hi, seed))
}
func (b *testBackend) Unary(op backend.UnaryOp, s backend.Storage, l backend.Layout) backend.Storage {
	return b.wrap(cpuB.Unary(op, b.un(s), l))
}
func (b *testBackend) Binary(op backend.BinaryOp, x backend.Storage, lx backend.Layout, y backend.Storage, ly backend.Layout) backend.Storage {
	return b.wrap(cpuB.Binary(op, b.un(x), lx, b.un(y), ly))
}
func (b *testBackend) BinaryScalar(op backend.BinaryOp, x backend.Storage, lx backend.Layout, s float64, rev bool) backend.Storage {
	return b.wrap(cpuB.BinaryScalar(op, b.un(x), lx, s, rev))
}
func (b *testBackend) Compare(op backend.CompareOp, x backend.Storage, lx backend.Layout, y backend.Storage, ly backend.Layout) backend.Storage {
	return b.wrap(cpuB.Compare(op, b.un(x), lx, b.un(y), ly))
}
func (b *testBackend) Where(c backend.Storage, lc backend.Layout, x backend.Storage, lx backend.Layout, y backend.Storage, ly backend.Layout) backend.Storage {
	return b.wrap(cpuB.Where(b.un(c), lc, b.un(x), lx, b.un(y), ly))
}
func (b *testBackend) Reduce(op backend.ReduceOp, s backend.Storage, l backend.Layout, dims []int) backend.Storage {
	return b.wrap(cpuB.Reduce(op, b.un(s), l, dims))
}
func (b *testBackend) ArgReduce(op backend.ReduceOp, s backend.Storage, l backend.Layout, dim int) backend.Storage {
	return b.wrap(cpuB.ArgReduce(op, b.un(s), l, dim))
}
func (b *testBackend) MatMul(x backend.Storage, lx backend.Layout, y backend.Storage, ly backend.Layout) backend.Storage {
	return b.wrap(cpuB.MatMul(b.un(x), lx, b.un(y), ly))
}
func (b *testBackend) Gather(s backend.Storage, l backend.Layout, dim int, idx backend.Storage, il backend.Layout) backend.Storage {
	return b.wrap(cpuB.Gather(b.un(s), l, dim, b.un(idx), il))
}
func (b *testBackend) IndexSelect(s backend.Storage, l backend.Layout, dim int, idx backend.Storage, il backend.Layout) backend.Storage {
	return b.wrap(cpuB.IndexSelect(b.un(s), l, dim, b.un(idx), il))
}
func (b *testBackend) ScatterAdd(d backend.Storage, dl backend.Layout, dim int, idx backend.Storage, il backend.Layout, s backend.Storage, sl backend.Layout) {
	cpuB.ScatterAdd(b.un(d), dl, dim, b.un(idx), il, b.un(s), sl)
}
func (b *testBackend) IndexAdd(d backend.Storage, dl backend.Layout, dim int, idx backend.Storage, il backend.Layout, s backend.Storage, sl backend.Layout) {
	cpuB.IndexAdd(b.un(d), dl, dim, b.un(idx), il, b.un(s), sl)
}
func (b *testBackend) Im2Col(s backend.Storage, l backend.Layout, k, st, p, d [2]int) backend.Storage {
	return b.wrap(cpuB.Im2Col(b.un(s), l, k, st, p, d))
}
func (b *testBackend) Col2Im(c backend.Storage, cl backend.Layout, shape []int, k, st, p, d [2]int) backend.Storage {
	return b.wrap(cpuB.Col2Im(b.un(c), cl, shape, k, st, p, d))
}
func (b *testBackend) MaxPool2d(s backend.Storage, l backend.Layout, k, st, p [2]int) (backend.Storage, backend.Storage) {
	o, i := cpuB.MaxPool2d(b.un(s), l, k, st, p)
	return b.wrap(o), b.wrap(i)
}
func (b *testBackend) AdamStep(p backend.Storage, pl backend.Layout, g backend.Storage, gl backend.Layout, m backend.Storage, ml backend.Layout, v backend.Storage, vl backend.Layout, h backend.AdamParams) {
	cpuB.AdamStep(b.un(p), pl, b.un(g), gl, b.un(m), ml, b.un(v), vl, h)
}
func (b *testBackend) SGDStep(p backend.Storage, pl backend.Layout, g backend.Storage, gl backend.Layout, buf backend.Storage, bl backend.Layout, h backend.SGDParams) {
	var bs backend.Storage
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
	if _, ok := xd.storage.(*testStorage); !ok {
		t.Fatalf("device tensor storage is %T", xd.storage)
	}
	if xd.To(dev) != xd || x.CPU() != x {
		t.Error("To the same device should return the tensor itself")
	}
	// The device copy is separate memory: changing the source after the
	// copy does not reach it, and the source stays valid.
	cpuEngine.Fill(x.storage, backend.Contiguous(x.layout.Shape), 9)
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
		fmt.Sprintf(`tensor: NewDevice: no backend registered for device kind "tpu" (have %v)...`, Backends()))
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
	backend.Register("testdev", func(int) (backend.Backend, error) { return nil, nil })
}
