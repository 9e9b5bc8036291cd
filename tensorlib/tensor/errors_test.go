package tensor

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

func TestErrorMessages(t *testing.T) {
	cases := []struct {
		name string
		f    func()
		want string // the full message, or a prefix ending in "..."
	}{
		{"broadcast", func() { Zeros(2, 3).Add(Zeros(4, 3)) },
			"tensor: Add: shapes [2 3] and [4 3] cannot be broadcast: sizes 2 and 4 differ in dim 0 (counting from the right: -2); each dimension, aligned from the right, must be equal or 1; use Unsqueeze, Reshape or Expand to line them up"},
		{"broadcast compare", func() { Zeros(3).Lt(Zeros(2)) }, "tensor: Lt: shapes [3] and [2] cannot be broadcast..."},
		{"matmul inner", func() { Zeros(128, 784).MatMul(Zeros(256, 10)) },
			"tensor: MatMul: [128 784] @ [256 10]: inner sizes 784 and 256 differ; the last dim of the left operand must equal the second-to-last dim of the right; transpose one with .T() or .Transpose(-2, -1)"},
		{"matmul 0-d", func() { Scalar(1).MatMul(Zeros(2)) }, "tensor: MatMul: [] @ [2]: 0-d operand..."},
		{"matmul batch", func() { Zeros(2, 1, 3).MatMul(Zeros(3, 3, 1)) }, "tensor: MatMul: shapes [2] and [3] cannot be broadcast..."},
		{"reshape", func() { Zeros(2, 3).Reshape(4, 2) },
			"tensor: Reshape: cannot reshape [2 3] (6 elements) into [4 2] (8 elements); the product of the new sizes must equal the number of elements"},
		{"reshape -1", func() { Zeros(2, 3).Reshape(4, -1) }, "tensor: Reshape: cannot infer -1 in shape [4 -1] for 6 elements (from shape [2 3])..."},
		{"dim range", func() { Zeros(2, 3).Sum(2) }, "tensor: Sum: dim 2 is out of range for shape [2 3] (2 dims); use a dim in [-2, 1]"},
		{"dim dup", func() { Zeros(2, 3).Sum(1, -1) }, "tensor: Sum: dim 1 appears more than once in [1 -1]; list each dim once"},
		{"max empty", func() { Zeros(0, 3).Max(0) }, "tensor: Max: cannot take the maximum over dim 0 of size 0 (shape [0 3])..."},
		{"item", func() { Zeros(2).Item() }, "tensor: Item: a tensor with 2 elements (shape [2]) cannot be converted to a number; Item needs exactly one element..."},
		{"permute", func() { Zeros(2, 3).Permute(0, 0) }, "tensor: Permute: dim 0 repeats in [0 0]..."},
		{"expand", func() { Zeros(2, 3).Expand(4, 3) }, "tensor: Expand: cannot expand shape [2 3] to [4 3]; only dims of size 1 can grow..."},
		{"view", func() { Zeros(2, 3).T().View(6) }, "tensor: View: a tensor of shape [3 2] and strides [1 3] cannot be viewed as [6] without copying; call x.Contiguous() first..."},
		{"cat", func() { Cat(0, Zeros(2, 3), Zeros(2, 4)) }, "tensor: Cat: tensor 1 has shape [2 4], which does not match [2 3] outside dim 0; all shapes must match except in dim 0"},
		{"stack", func() { Stack(0, Zeros(2), Zeros(3)) }, "tensor: Stack: tensor 1 has shape [3], tensor 0 has [2]; all tensors must have the same shape"},
		{"gather dims", func() { Zeros(2, 3).Gather(1, FromInt64s([]int64{0})) }, "tensor: Gather: index shape [1] has 1 dims, x shape [2 3] has 2..."},
		{"negative size", func() { Zeros(2, -1) }, "tensor: Zeros: negative size -1 in shape [2 -1]; sizes must be >= 0"},
	}
	for _, c := range cases {
		err := mustPanic(t, c.f)
		var se *ShapeError
		if !errors.As(err, &se) {
			t.Errorf("%s: got %T, want *ShapeError", c.name, err)
			continue
		}
		checkMsg(t, c.name, err.Error(), c.want)
	}
	// Values out of range are not shape errors.
	for _, c := range []struct {
		name string
		f    func()
		kind any // a pointer to a nil error of the expected type
		want string
	}{
		{"narrow", func() { Zeros(5).Narrow(0, 3, 4) }, new(*IndexError),
			"tensor: Narrow: range [3, 7) does not fit dim 0 of size 5; need 0 <= start and start+length <= 5"},
		{"arange", func() { Arange(0, 5, -1) }, new(*ValueError),
			"tensor: Arange: step -1 cannot go from 0 to 5; use a negative step to count down"},
		{"arange step 0", func() { Arange(0, 5, 0) }, new(*ValueError), "tensor: Arange: invalid range start=0 end=5 step=0..."},
		{"clamp", func() { Ones(2).Clamp(1, 0) }, new(*ValueError), "tensor: Clamp: empty range [1, 0]; pass lo <= hi"},
		{"dropout", func() { Dropout(Ones(2), 1.5) }, new(*ValueError), "tensor: Dropout: dropout probability 1.5; use a probability in [0, 1]"},
		{"randint", func() { RandInt(3, 3, 2) }, new(*ValueError), "tensor: RandInt: empty range [3, 3)..."},
		{"cat none", func() { Cat(0) }, new(*ValueError), "tensor: Cat: no tensors to concatenate; pass at least one tensor"},
		{"window", func() { Zeros(1, 1, 4, 4).MaxPool2d([2]int{0, 2}, [2]int{}, [2]int{}) }, new(*ValueError), "tensor: MaxPool2d: invalid window..."},
		{"pool padding", func() { Zeros(1, 1, 4, 4).MaxPool2d([2]int{2, 2}, [2]int{}, [2]int{2, 0}) }, new(*ValueError),
			"tensor: MaxPool2d: padding [2 0] is more than half the kernel [2 2]; use padding <= kernel/2"},
	} {
		err := mustPanic(t, c.f)
		if !errors.As(err, c.kind) {
			t.Errorf("%s: got %T, want %T", c.name, err, c.kind)
			continue
		}
		checkMsg(t, c.name, err.Error(), c.want)
	}
	// The error carries the operands' shapes for programs to inspect.
	err := mustPanic(t, func() { Zeros(2, 3).Add(Zeros(4, 3)) }).(*ShapeError)
	if err.Op != "Add" || len(err.Shapes) != 2 || !slices.Equal(err.Shapes[1], []int{4, 3}) {
		t.Errorf("ShapeError fields: %+v", err)
	}
}

func checkMsg(t *testing.T, name, got, want string) {
	t.Helper()
	if p, ok := strings.CutSuffix(want, "..."); ok {
		if !strings.HasPrefix(got, p) {
			t.Errorf("%s:\n got %q\nwant prefix %q", name, got, p)
		}
		return
	}
	if got != want {
		t.Errorf("%s:\n got %q\nwant %q", name, got, want)
	}
}

func TestDTypeErrors(t *testing.T) {
	cases := []struct {
		name string
		f    func()
		want string
	}{
		{"mean int", func() { FromInt64s([]int64{1}).Mean() },
			"tensor: Mean: the mean needs a floating-point tensor, got int64; convert first with x.AsType(tensor.Float32)"},
		{"var bool", func() { FromBools([]bool{true}).Var(0) }, "tensor: Var: needs a floating-point tensor, got bool..."},
		{"softmax int", func() { FromInt64s([]int64{1}).Softmax(0) }, "tensor: Softmax: needs a floating-point tensor, got int64..."},
		{"bool sub", func() { FromBools([]bool{true}).Sub(FromBools([]bool{true})) }, "tensor: Sub: subtraction of two Bool tensors is not supported..."},
		{"bool neg", func() { FromBools([]bool{true}).Neg() }, "tensor: Neg: Neg is not supported on Bool tensors..."},
		{"where cond", func() { Where(Ones(2), Ones(2), Ones(2)) }, "tensor: Where: condition must be Bool, got float32..."},
		{"gather idx", func() { Ones(2).Gather(0, Zeros(1)) }, "tensor: Gather: indices must be Int64, got float32; convert with idx.AsType(tensor.Int64)"},
		{"onehot", func() { OneHot(Ones(2), 3) }, "tensor: OneHot: indices must be Int64, got float32..."},
		{"matmul bool", func() { FromBools([]bool{true}).MatMul(FromBools([]bool{true})) }, "tensor: MatMul: bool @ bool: Bool matrices are not supported..."},
		{"int neg pow", func() { FromInt64s([]int64{2}).PowScalar(-1) }, "tensor: PowScalar: integers to negative integer powers are not allowed (int64 ** -1)..."},
		{"astype", func() { Ones(1).AsType(DType(9)) }, "tensor: AsType: unknown dtype DType(9)..."},
	}
	for _, c := range cases {
		err := mustPanic(t, c.f)
		if _, ok := err.(*DTypeError); !ok {
			t.Errorf("%s: got %T, want *DTypeError", c.name, err)
			continue
		}
		checkMsg(t, c.name, err.Error(), c.want)
	}
}

func TestIndexErrors(t *testing.T) {
	cases := []struct {
		name string
		f    func()
		want string
	}{
		{"select", func() { Zeros(2, 3).Select(1, 3) }, "tensor: Select: index 3 is out of range for dim 1 of size 3 (shape [2 3]); use an index in [-3, 2]"},
		{"gather", func() { Zeros(2, 3).Gather(1, FromInt64s([]int64{3}, 1, 1)) }, "tensor: Gather: index 3 is out of bounds for dim 1 with size 3; indices must be in [0, 3)"},
		{"gather neg", func() { Zeros(3).Gather(0, FromInt64s([]int64{-1})) }, "tensor: Gather: index -1 is out of bounds for dim 0 with size 3..."},
		{"index select", func() { Zeros(2, 3).IndexSelect(0, FromInt64s([]int64{0, 2})) }, "tensor: IndexSelect: index 2 is out of bounds for dim 0 with size 2..."},
		{"onehot", func() { OneHot(FromInt64s([]int64{0, 3}), 3) }, "tensor: OneHot: label 3 is outside [0, 3); pass the number of classes as n, larger than every label"},
	}
	for _, c := range cases {
		err := mustPanic(t, c.f)
		if _, ok := err.(*IndexError); !ok {
			t.Errorf("%s: got %T, want *IndexError", c.name, err)
			continue
		}
		checkMsg(t, c.name, err.Error(), c.want)
	}
}

func TestDeviceErrorNoCUDA(t *testing.T) {
	if slices.Contains(Backends(), "cuda") {
		// The device-generic tests (testDevices) registered the emulator
		// first: run this test alone, or in file order, to see it.
		t.Skip("a CUDA backend is registered")
	}
	err := mustPanic(t, func() { CUDA(0) })
	de, ok := err.(*DeviceError)
	if !ok {
		t.Fatalf("CUDA(0) panicked with %T, want *DeviceError", err)
	}
	checkMsg(t, "CUDA(0)", de.Error(), "tensor: CUDA: this build has no CUDA support; build gotensor with -tags cuda on a machine with the CUDA driver...")
	checkMsg(t, "x.CUDA()", mustPanic(t, func() { Ones(1).CUDA() }).Error(), "tensor: CUDA: this build has no CUDA support...")
	if DefaultDevice() != CPU {
		t.Errorf("DefaultDevice() = %v without CUDA, want cpu", DefaultDevice())
	}
}

func TestTryPassesOtherPanics(t *testing.T) {
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want the original panic value", r)
		}
	}()
	_ = Try(func() { panic("boom") })
	t.Error("Try swallowed a foreign panic")
}

func TestTryNil(t *testing.T) {
	if err := Try(func() { Ones(2).Add(Ones(2)) }); err != nil {
		t.Errorf("Try = %v, want nil", err)
	}
}

// TestOutOfHostMemory asks for a 160 GB tensor (PyTorch: "can't allocate
// memory"): the op panics with an *OutOfMemoryError saying what was asked
// and what is free, which Try returns, instead of the Go runtime ending the
// process.
func TestOutOfHostMemory(t *testing.T) {
	const want = int64(200000) * 200000 * 4
	avail, ok := backend.HostMemoryAvailable()
	if !ok {
		t.Skip("this system does not report its available memory")
	}
	if avail >= want {
		t.Skipf("this machine has %d bytes available: a 160 GB tensor fits", avail)
	}
	err := Try(func() { Zeros(200000, 200000) })
	var oom *OutOfMemoryError
	if !errors.As(err, &oom) {
		t.Fatalf("Zeros(200000, 200000): got %v, want an *OutOfMemoryError", err)
	}
	if oom.Requested != want || oom.Available <= 0 || oom.Available >= want {
		t.Errorf("got %+v, want Requested %d and 0 < Available < Requested", oom, want)
	}
	for _, s := range []string{"out of memory", "149.0 GiB"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("message %q does not say %q", err, s)
		}
	}
	// The session goes on: a tensor that fits still allocates.
	if got := Zeros(1000, 1000).Numel(); got != 1000000 {
		t.Errorf("Numel = %d after the failed allocation", got)
	}
}
