package tensor_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The fixtures in testdata/fixtures.json are produced by PyTorch through
// testdata/gen_fixtures.py (run it with Debian's /usr/bin/python3 after
// changing it). Each case names an op, its inputs (with the view steps that
// make them non-contiguous) and either torch's result or the kind of error
// torch raised. TestFixtures runs every case through the public API, on
// every device the test binary has (testDevices): NaN, infinities, empty
// tensors, error kinds and non-contiguous inputs reach each backend.

type fixtureFile struct {
	Torch string        `json:"torch"`
	Cases []fixtureCase `json:"cases"`
}

type fixtureCase struct {
	Name       string          `json:"name"`
	Op         string          `json:"op"`
	Args       fixtureArgs     `json:"args"`
	Inputs     []fixtureTensor `json:"inputs"`
	Want       *fixtureTensor  `json:"want"`
	OrWant     *fixtureTensor  `json:"or_want"` // with Error: an accepted result instead of the panic
	Error      string          `json:"error"`
	TorchError string          `json:"torch_error"`
	Tol        []float64       `json:"tol"`
}

type fixtureTensor struct {
	Data  []fixtureNum `json:"data"`
	Shape []int        `json:"shape"`
	DType string       `json:"dtype"`
	View  [][]any      `json:"view"`
}

// fixtureNum keeps a number's text so that float32 values are parsed at
// float32 precision, and accepts "nan", "inf" and "-inf".
type fixtureNum string

func (n *fixtureNum) UnmarshalJSON(b []byte) error {
	s := string(b)
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	*n = fixtureNum(s)
	return nil
}

func (n fixtureNum) float(bits int) float64 {
	switch n {
	case "nan":
		return math.NaN()
	case "inf":
		return math.Inf(1)
	case "-inf":
		return math.Inf(-1)
	}
	v, err := strconv.ParseFloat(string(n), bits)
	if err != nil {
		panic("fixtures: bad number " + string(n))
	}
	return v
}

func (n fixtureNum) int() int64 {
	v, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		panic("fixtures: bad integer " + string(n))
	}
	return v
}

type fixtureArgs []float64

// UnmarshalJSON accepts "nan", "inf" and "-inf" among the numbers.
func (a *fixtureArgs) UnmarshalJSON(b []byte) error {
	var ns []fixtureNum
	if err := json.Unmarshal(b, &ns); err != nil {
		return err
	}
	*a = make(fixtureArgs, len(ns))
	for i, n := range ns {
		(*a)[i] = n.float(64)
	}
	return nil
}

func (a fixtureArgs) int(i int) int { return int(a[i]) }

func (a fixtureArgs) ints(from int) []int {
	out := make([]int, 0, len(a))
	for _, v := range a[from:] {
		out = append(out, int(v))
	}
	return out
}

type fixtureOp func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor

// fixtureOps maps the fixtures' op names to calls of the public API.
var fixtureOps = map[string]fixtureOp{
	// Creation and conversion.
	"zeros":    func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return tensor.Zeros(a.ints(0)...) },
	"ones":     func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return tensor.Ones(a.ints(0)...) },
	"full":     func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return tensor.Full(a[0], a.ints(1)...) },
	"arange":   func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return tensor.Arange(a[0], a[1], a[2]) },
	"eye":      func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return tensor.Eye(a.int(0)) },
	"scalar":   func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return tensor.Scalar(a[0]) },
	"identity": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0] },
	"item": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor {
		return tensor.FromFloat64s([]float64{in[0].Item()}, 1).Select(0, 0)
	},
	"as_float32": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].AsType(tensor.Float32) },
	"as_float64": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].AsType(tensor.Float64) },
	"as_int64":   func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].AsType(tensor.Int64) },
	"as_bool":    func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].AsType(tensor.Bool) },

	// Elementwise binary, scalar forms, unary.
	"add":        func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Add(in[1]) },
	"sub":        func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Sub(in[1]) },
	"mul":        func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Mul(in[1]) },
	"div":        func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Div(in[1]) },
	"pow":        func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Pow(in[1]) },
	"maximum":    func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Maximum(in[1]) },
	"minimum":    func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Minimum(in[1]) },
	"add_scalar": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].AddScalar(a[0]) },
	"sub_scalar": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].SubScalar(a[0]) },
	"mul_scalar": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].MulScalar(a[0]) },
	"div_scalar": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].DivScalar(a[0]) },
	"pow_scalar": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].PowScalar(a[0]) },
	"neg":        func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Neg() },
	"abs":        func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Abs() },
	"sqrt":       func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Sqrt() },
	"exp":        func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Exp() },
	"log":        func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Log() },
	"sin":        func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Sin() },
	"cos":        func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Cos() },
	"tanh":       func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Tanh() },
	"sigmoid":    func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Sigmoid() },
	"relu":       func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].ReLU() },
	"gelu":       func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].GELU() },
	"clamp":      func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Clamp(a[0], a[1]) },

	// Comparisons and selection.
	"eq":    func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Eq(in[1]) },
	"ne":    func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Ne(in[1]) },
	"lt":    func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Lt(in[1]) },
	"le":    func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Le(in[1]) },
	"gt":    func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Gt(in[1]) },
	"ge":    func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Ge(in[1]) },
	"where": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return tensor.Where(in[0], in[1], in[2]) },

	// Reductions.
	"sum":         func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Sum(a.ints(0)...) },
	"mean":        func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Mean(a.ints(0)...) },
	"sum_keep":    func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].SumKeep(a.ints(0)...) },
	"mean_keep":   func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].MeanKeep(a.ints(0)...) },
	"max":         func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Max(a.int(0)) },
	"min":         func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Min(a.int(0)) },
	"argmax":      func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Argmax(a.int(0)) },
	"argmin":      func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Argmin(a.int(0)) },
	"var":         func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Var(a.int(0)) },
	"softmax":     func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Softmax(a.int(0)) },
	"log_softmax": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].LogSoftmax(a.int(0)) },
	"logsumexp":   func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].LogSumExp(a.int(0)) },

	// Shape.
	"reshape":   func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Reshape(a.ints(0)...) },
	"transpose": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Transpose(a.int(0), a.int(1)) },
	"permute":   func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Permute(a.ints(0)...) },
	"t":         func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].T() },
	"narrow": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor {
		return in[0].Narrow(a.int(0), a.int(1), a.int(2))
	},
	"select":     func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Select(a.int(0), a.int(1)) },
	"squeeze":    func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Squeeze(a.ints(0)...) },
	"unsqueeze":  func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Unsqueeze(a.int(0)) },
	"expand":     func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Expand(a.ints(0)...) },
	"flatten":    func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Flatten(a.int(0)) },
	"contiguous": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Contiguous() },

	// Joining and indexing.
	"cat":          func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return tensor.Cat(a.int(0), in...) },
	"stack":        func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return tensor.Stack(a.int(0), in...) },
	"gather":       func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Gather(a.int(0), in[1]) },
	"index_select": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].IndexSelect(a.int(0), in[1]) },
	"one_hot":      func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return tensor.OneHot(in[0], a.int(0)) },

	// Linear algebra.
	"matmul": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].MatMul(in[1]) },

	// Masks, sorting and scans for transformers.
	"tril":        func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Tril(a.int(0)) },
	"triu":        func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Triu(a.int(0)) },
	"masked_fill": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].MaskedFill(in[1], a[0]) },
	"sort_values": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor {
		v, _ := in[0].Sort(a.int(0), a.int(1) != 0)
		return v
	},
	"sort_indices": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor {
		_, i := in[0].Sort(a.int(0), a.int(1) != 0)
		return i
	},
	"argsort": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].Argsort(a.int(0), a.int(1) != 0) },
	"topk_values": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor {
		v, _ := in[0].TopK(a.int(0), a.int(1))
		return v
	},
	"topk_indices": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor {
		_, i := in[0].TopK(a.int(0), a.int(1))
		return i
	},
	"cumsum": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor { return in[0].CumSum(a.int(0)) },
	"split": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor {
		return in[0].Split(a.int(0), a.int(1))[a.int(2)]
	},
	"chunk": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor {
		return in[0].Chunk(a.int(0), a.int(1))[a.int(2)]
	},
	"chunk_len": func(in []*tensor.Tensor, a fixtureArgs) *tensor.Tensor {
		return tensor.FromInt64s([]int64{int64(len(in[0].Chunk(a.int(0), a.int(1))))}, 1).Select(0, 0)
	},
}

func loadFixtures(t *testing.T) fixtureFile {
	t.Helper()
	b, err := os.ReadFile("testdata/fixtures.json")
	if err != nil {
		t.Fatalf("reading fixtures: %v (regenerate with /usr/bin/python3 testdata/gen_fixtures.py)", err)
	}
	var f fixtureFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("parsing fixtures: %v", err)
	}
	return f
}

func TestFixtures(t *testing.T) {
	f := loadFixtures(t)
	if len(f.Cases) == 0 {
		t.Fatal("no fixture cases")
	}
	for _, dev := range testDevices(t) {
		t.Run(dev.String(), func(t *testing.T) {
			failed := 0
			for _, c := range f.Cases {
				ok := t.Run(c.Name, func(t *testing.T) { runFixture(t, c, dev) })
				if !ok {
					failed++
				}
			}
			t.Logf("%d fixture cases from torch %s on %v: %d passed, %d failed",
				len(f.Cases), f.Torch, dev, len(f.Cases)-failed, failed)
		})
	}
}

// TestFixturesCoverOps checks that every op the harness maps has cases and
// every case names a mapped op.
func TestFixturesCoverOps(t *testing.T) {
	f := loadFixtures(t)
	seen := map[string]int{}
	for _, c := range f.Cases {
		if _, ok := fixtureOps[c.Op]; !ok {
			t.Errorf("case %s: unknown op %q", c.Name, c.Op)
		}
		seen[c.Op]++
	}
	var missing []string
	for op := range fixtureOps {
		if seen[op] == 0 {
			missing = append(missing, op)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("ops with no fixture cases: %v", missing)
	}
}

// runFixture runs case c with its inputs on dev.
func runFixture(t *testing.T, c fixtureCase, dev tensor.Device) {
	fn, ok := fixtureOps[c.Op]
	if !ok {
		fn, ok = halfFixtureOps[c.Op]
	}
	if !ok {
		t.Fatalf("unknown op %q", c.Op)
	}
	in := make([]*tensor.Tensor, len(c.Inputs))
	for i, ft := range c.Inputs {
		x, err := buildFixtureInput(ft, dev)
		if err != nil {
			t.Fatalf("input %d: %v", i, err)
		}
		in[i] = x
	}
	var got *tensor.Tensor
	err, other := tryFixture(func() { got = fn(in, c.Args) })
	if other != nil {
		t.Fatalf("%s: panicked with %T: %v\ninputs: %s", c.Op, other, other, describeInputs(c.Inputs))
	}
	if c.Error != "" {
		if err == nil && got != nil && c.OrWant != nil {
			compareFixture(t, c, c.OrWant, got)
			return
		}
		if err == nil {
			desc := "<nil>"
			if got != nil {
				desc = fmt.Sprintf("shape %v dtype %v %v", got.Shape(), got.DType(), fixtureValues(got))
			}
			t.Fatalf("want a panic with %s (torch: %s), got %s\ninputs: %s",
				c.Error, c.TorchError, desc, describeInputs(c.Inputs))
		}
		if !errorIsKind(err, c.Error) {
			t.Fatalf("want %s (torch: %s), got %T: %v", c.Error, c.TorchError, err, err)
		}
		if !strings.HasPrefix(err.Error(), "tensor: ") {
			t.Errorf("error message %q does not start with \"tensor: \"", err)
		}
		if name := fixtureGoName(c.Op); !strings.Contains(err.Error(), name) {
			t.Errorf("error message %q does not name the op %s", err, name)
		}
		return
	}
	if err != nil {
		t.Fatalf("unexpected %T: %v\ninputs: %s", err, err, describeInputs(c.Inputs))
	}
	if got == nil {
		t.Fatal("op returned nil")
	}
	if len(in) > 0 && c.Op != "item" && c.Op != "chunk_len" && got.Device() != dev { // item makes a CPU tensor of a number
		t.Errorf("result on %v, want %v", got.Device(), dev)
	}
	compareFixture(t, c, c.Want, got)
}

// fixtureGoName returns the Go name of a fixture op, as error messages
// spell it: "log_softmax" is LogSoftmax.
func fixtureGoName(op string) string {
	switch op {
	case "logsumexp":
		return "LogSumExp"
	case "matmul":
		return "MatMul"
	case "relu":
		return "ReLU"
	case "gelu":
		return "GELU"
	case "one_hot":
		return "OneHot"
	case "sort_values", "sort_indices":
		return "Sort"
	case "topk_values", "topk_indices":
		return "TopK"
	case "cumsum":
		return "CumSum"
	}
	parts := strings.Split(op, "_")
	for i, p := range parts {
		parts[i] = strings.ToUpper(p[:1]) + p[1:]
	}
	return strings.Join(parts, "")
}

// tryFixture runs f; err is the typed tensor error it panicked with, other
// any other panic value.
func tryFixture(f func()) (err error, other any) {
	defer func() {
		if r := recover(); r != nil {
			other = r
		}
	}()
	err = tensor.Try(f)
	return err, nil
}

func errorIsKind(err error, kinds string) bool {
	for _, k := range strings.Split(kinds, "|") {
		var (
			se *tensor.ShapeError
			de *tensor.DTypeError
			ie *tensor.IndexError
			ve *tensor.DeviceError
		)
		switch k {
		case "ShapeError":
			if errors.As(err, &se) {
				return true
			}
		case "DTypeError":
			if errors.As(err, &de) {
				return true
			}
		case "IndexError":
			if errors.As(err, &ie) {
				return true
			}
		case "DeviceError":
			if errors.As(err, &ve) {
				return true
			}
		}
	}
	return false
}

// buildFixtureInput makes input ft on dev: its data moves there before
// the view steps, so that the views are the device's.
func buildFixtureInput(ft fixtureTensor, dev tensor.Device) (x *tensor.Tensor, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("building %s %v view %v: panic: %v", ft.DType, ft.Shape, ft.View, r)
		}
	}()
	n := len(ft.Data)
	switch ft.DType {
	case "float32":
		d := make([]float32, n)
		for i, v := range ft.Data {
			d[i] = float32(v.float(32))
		}
		x = tensor.FromFloat32s(d, ft.Shape...)
	case "float64":
		d := make([]float64, n)
		for i, v := range ft.Data {
			d[i] = v.float(64)
		}
		x = tensor.FromFloat64s(d, ft.Shape...)
	case "int64":
		d := make([]int64, n)
		for i, v := range ft.Data {
			d[i] = v.int()
		}
		x = tensor.FromInt64s(d, ft.Shape...)
	case "bool":
		d := make([]bool, n)
		for i, v := range ft.Data {
			d[i] = v.int() != 0
		}
		x = tensor.FromBools(d, ft.Shape...)
	case "bfloat16", "float16":
		d := make([]float32, n)
		for i, v := range ft.Data {
			d[i] = float32(v.float(32))
		}
		x = tensor.FromFloat32s(d, ft.Shape...).AsType(halfDTypes[ft.DType])
	default:
		return nil, fmt.Errorf("unknown dtype %q", ft.DType)
	}
	if x.DType().String() != ft.DType {
		return nil, fmt.Errorf("built %s, want %s", x.DType(), ft.DType)
	}
	x = x.To(dev)
	for _, step := range ft.View {
		x = applyFixtureView(x, step)
	}
	return x, nil
}

func applyFixtureView(x *tensor.Tensor, step []any) *tensor.Tensor {
	a := make([]int, len(step)-1)
	for i, v := range step[1:] {
		a[i] = int(v.(float64))
	}
	switch step[0].(string) {
	case "transpose":
		return x.Transpose(a[0], a[1])
	case "permute":
		return x.Permute(a...)
	case "narrow":
		return x.Narrow(a[0], a[1], a[2])
	case "select":
		return x.Select(a[0], a[1])
	case "expand":
		return x.Expand(a...)
	case "t":
		return x.T()
	case "unsqueeze":
		return x.Unsqueeze(a[0])
	}
	panic(fmt.Sprintf("unknown view step %v", step))
}

func compareFixture(t *testing.T, c fixtureCase, w *fixtureTensor, got *tensor.Tensor) {
	t.Helper()
	if !slices.Equal(got.Shape(), w.Shape) {
		t.Fatalf("shape %v, want %v\ninputs: %s", got.Shape(), w.Shape, describeInputs(c.Inputs))
	}
	if got.DType().String() != w.DType {
		t.Fatalf("dtype %v, want %s\ninputs: %s", got.DType(), w.DType, describeInputs(c.Inputs))
	}
	switch w.DType {
	case "float32", "float64", "bfloat16", "float16":
		rtol, atol := 1e-5, 2e-6
		bits := 32
		switch w.DType {
		case "float64":
			rtol, atol, bits = 1e-10, 1e-12, 64
		case "bfloat16", "float16":
			rtol, atol = 0, 0 // bit for bit unless the case says
		}
		if len(c.Tol) == 2 {
			rtol, atol = c.Tol[0], c.Tol[1]
		}
		g := got.Float64s()
		if len(g) != len(w.Data) {
			t.Fatalf("%d values, want %d", len(g), len(w.Data))
		}
		for i, wv := range w.Data {
			want := wv.float(bits)
			if !closeFloat(g[i], want, rtol, atol) {
				t.Fatalf("value %d: got %v, want %v (rtol %g, atol %g)\ngot  %v\nwant %v\ninputs: %s",
					i, g[i], want, rtol, atol, g, fixtureData(w), describeInputs(c.Inputs))
			}
		}
	case "int64":
		g := got.Int64s()
		if len(g) != len(w.Data) {
			t.Fatalf("%d values, want %d", len(g), len(w.Data))
		}
		for i, wv := range w.Data {
			if g[i] != wv.int() {
				t.Fatalf("value %d: got %d, want %d\ngot  %v\nwant %v\ninputs: %s",
					i, g[i], wv.int(), g, fixtureData(w), describeInputs(c.Inputs))
			}
		}
	case "bool":
		g := got.Bools()
		if len(g) != len(w.Data) {
			t.Fatalf("%d values, want %d", len(g), len(w.Data))
		}
		for i, wv := range w.Data {
			if g[i] != (wv.int() != 0) {
				t.Fatalf("value %d: got %v, want %v\ngot  %v\nwant %v\ninputs: %s",
					i, g[i], wv.int() != 0, g, fixtureData(w), describeInputs(c.Inputs))
			}
		}
	default:
		t.Fatalf("unknown want dtype %q", w.DType)
	}
}

func closeFloat(got, want, rtol, atol float64) bool {
	switch {
	case math.IsNaN(want):
		return math.IsNaN(got)
	case math.IsInf(want, 0):
		return got == want
	}
	return math.Abs(got-want) <= atol+rtol*math.Abs(want)
}

func fixtureValues(x *tensor.Tensor) any {
	switch x.DType() {
	case tensor.Int64:
		return x.Int64s()
	case tensor.Bool:
		return x.Bools()
	}
	return x.Float64s()
}

func fixtureData(ft *fixtureTensor) string {
	s := make([]string, len(ft.Data))
	for i, v := range ft.Data {
		s[i] = string(v)
	}
	return "[" + strings.Join(s, " ") + "]"
}

func describeInputs(in []fixtureTensor) string {
	var b strings.Builder
	for i, ft := range in {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s%v %s", ft.DType, ft.Shape, fixtureData(&ft))
		if len(ft.View) > 0 {
			fmt.Fprintf(&b, " view %v", ft.View)
		}
	}
	return b.String()
}
