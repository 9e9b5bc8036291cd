package tensorio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// values returns t's elements as float64s (bool as 0/1).
func values(t *tensor.Tensor) []float64 {
	if t.DType() == tensor.Bool {
		var v []float64
		for _, b := range t.Bools() {
			if b {
				v = append(v, 1)
			} else {
				v = append(v, 0)
			}
		}
		return v
	}
	return t.Float64s()
}

// formula returns f(i) for i in 0..n-1.
func formula(n int, f func(i int) float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = f(i)
	}
	return v
}

func checkTensor(t *testing.T, what string, got *tensor.Tensor, dt tensor.DType, shape []int, want []float64) {
	t.Helper()
	if got.DType() != dt || !slices.Equal(got.Shape(), shape) {
		t.Fatalf("%s: %v %v, want %v %v", what, got.DType(), got.Shape(), dt, shape)
	}
	v := values(got)
	if len(v) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(v), len(want))
	}
	for i := range v {
		if v[i] != want[i] {
			t.Fatalf("%s: element %d is %v, want %v (all: %v)", what, i, v[i], want[i], v)
		}
	}
}

// The fixtures were written by testdata/make_fixtures.py with numpy.
func TestLoadNPYFixtures(t *testing.T) {
	cases := []struct {
		file  string
		dt    tensor.DType
		shape []int
		want  []float64
	}{
		{"f4_2x3.npy", tensor.Float32, []int{2, 3}, formula(6, func(i int) float64 { return float64(i) / 4 })},
		{"f8_2x3x4.npy", tensor.Float64, []int{2, 3, 4}, formula(24, func(i int) float64 { return float64(i)*0.5 - 3 })},
		{"i8_5.npy", tensor.Int64, []int{5}, formula(5, func(i int) float64 { return float64(-7 * i) })},
		{"b1_2x2.npy", tensor.Bool, []int{2, 2}, []float64{1, 0, 0, 1}},
		{"f4_scalar.npy", tensor.Float32, []int{}, []float64{2.5}},
		{"f4_0x3.npy", tensor.Float32, []int{0, 3}, []float64{}},
		{"f8_fortran_3x4.npy", tensor.Float64, []int{3, 4}, formula(12, func(i int) float64 { return float64(10*(i/4) + i%4) })},
		{"f4be_4.npy", tensor.Float32, []int{4}, []float64{1, 2, 3, 4}},
		{"i4_2x2.npy", tensor.Int64, []int{2, 2}, []float64{-2, -1, 0, 1}},
		{"u1_3.npy", tensor.Int64, []int{3}, []float64{0, 128, 255}},
		{"f2_3.npy", tensor.Float16, []int{3}, []float64{1.5, -0.25, 65504}},
		{"f4_v2_2x2.npy", tensor.Float32, []int{2, 2}, []float64{10, 11, 12, 13}},
		{"f8_v3_3.npy", tensor.Float64, []int{3}, []float64{0, 2, 4}},
	}
	for _, c := range cases {
		got, err := LoadNPY(filepath.Join("testdata", c.file))
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		checkTensor(t, c.file, got, c.dt, c.shape, c.want)
	}
}

// The bytes SaveNPY writes are those numpy.save wrote for the fixtures.
func TestSaveNPYMatchesNumpyBytes(t *testing.T) {
	for _, file := range []string{"f4_2x3.npy", "f8_2x3x4.npy", "i8_5.npy", "b1_2x2.npy", "f4_scalar.npy", "f4_0x3.npy"} {
		want, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		x, err := ReadNPY(bytes.NewReader(want))
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteNPY(&got, x); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: SaveNPY wrote\n%q\nnumpy.save wrote\n%q", file, got.Bytes(), want)
		}
	}
}

func TestNPYRoundTrip(t *testing.T) {
	dir := t.TempDir()
	m := tensor.FromFloat32s([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	cases := []struct {
		x    *tensor.Tensor
		want []float64
	}{
		{m, []float64{1, 2, 3, 4, 5, 6}},
		{m.T(), []float64{1, 4, 2, 5, 3, 6}}, // non-contiguous: written in row-major order
		{tensor.FromFloat64s([]float64{math.Pi, -0.0, math.Inf(1), math.MaxFloat64}), []float64{math.Pi, 0, math.Inf(1), math.MaxFloat64}},
		{tensor.FromInt64s([]int64{math.MinInt64, -1, math.MaxInt64}, 3, 1), []float64{math.MinInt64, -1, math.MaxInt64}},
		{tensor.FromBools([]bool{true, false, false}), []float64{1, 0, 0}},
		{tensor.Scalar(7), []float64{7}},
	}
	for i, c := range cases {
		p := filepath.Join(dir, fmt.Sprintf("%d.npy", i))
		if err := SaveNPY(p, c.x); err != nil {
			t.Fatal(err)
		}
		got, err := LoadNPY(p)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		checkTensor(t, fmt.Sprint("case ", i), got, c.x.DType(), c.x.Shape(), c.want)
	}
}

func TestLoadNPYErrors(t *testing.T) {
	good, _ := os.ReadFile(filepath.Join("testdata", "f4_2x3.npy"))
	header := func(dict string) []byte {
		h := []byte("\x93NUMPY\x01\x00")
		h = append(h, byte(len(dict)+1), 0)
		return append(append(h, dict...), '\n')
	}
	cases := []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "not a .npy file"},
		{"zip", []byte("PK\x03\x04rest of an npz"), "not a .npy file"},
		{"version 9", append([]byte("\x93NUMPY\x09\x00"), good[8:]...), "major version number (9)"},
		{"truncated data", good[:len(good)-3], "data ends before the [2 3] <f4 elements"},
		{"complex", header("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }"), `dtype "<c8" is not supported`},
		{"object", header("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }"), "not supported"},
		{"structured", header("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }"), "structured"},
		{"no shape", header("{'descr': '<f4', 'fortran_order': False, }"), "bad header"},
	}
	for _, c := range cases {
		_, err := ReadNPY(bytes.NewReader(c.b))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	if _, err := LoadNPY("/nonexistent.npy"); err == nil || !strings.HasPrefix(err.Error(), "tensorio: LoadNPY: ") {
		t.Errorf("missing file: error %v", err)
	}
}

// numpy reads what SaveNPY writes: the values, dtypes and shapes it
// reports are compared with the tensors' defining formulas.
func TestNPYReadByNumpy(t *testing.T) {
	dir := t.TempDir()
	files := map[string]*tensor.Tensor{
		"a.npy": tensor.Arange(0, 12, 1).Reshape(3, 4).DivScalar(8),
		"b.npy": tensor.Arange(0, 6, 1).AsType(tensor.Float64).Reshape(2, 1, 3).SubScalar(2.5),
		"c.npy": tensor.FromInt64s([]int64{-5, 0, 1 << 40}),
		"d.npy": tensor.FromBools([]bool{false, true}, 2, 1),
		"e.npy": tensor.Scalar(1.25),
		"f.npy": tensor.Arange(0, 6, 1).Reshape(2, 3).T(), // non-contiguous
	}
	for name, x := range files {
		if err := SaveNPY(filepath.Join(dir, name), x); err != nil {
			t.Fatal(err)
		}
	}
	out := runPython(t, dir, `
import glob, json, numpy as np
r = {}
for f in sorted(glob.glob("*.npy")):
    a = np.load(f)
    r[f] = {"dtype": a.dtype.str, "shape": list(a.shape), "values": a.astype(np.float64).ravel().tolist(),
            "c_contiguous": bool(a.flags.c_contiguous)}
print(json.dumps(r))
`)
	var got map[string]struct {
		DType       string
		Shape       []int
		Values      []float64
		CContiguous bool `json:"c_contiguous"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := map[string]struct {
		dtype  string
		shape  []int
		values []float64
	}{
		"a.npy": {"<f4", []int{3, 4}, formula(12, func(i int) float64 { return float64(i) / 8 })},
		"b.npy": {"<f8", []int{2, 1, 3}, formula(6, func(i int) float64 { return float64(i) - 2.5 })},
		"c.npy": {"<i8", []int{3}, []float64{-5, 0, 1 << 40}},
		"d.npy": {"|b1", []int{2, 1}, []float64{0, 1}},
		"e.npy": {"<f4", []int{}, []float64{1.25}},
		"f.npy": {"<f4", []int{3, 2}, []float64{0, 3, 1, 4, 2, 5}},
	}
	for name, w := range want {
		g := got[name]
		if g.DType != w.dtype || !slices.Equal(g.Shape, w.shape) || fmt.Sprint(g.Values) != fmt.Sprint(w.values) || !g.CContiguous {
			t.Errorf("%s: numpy read %s %v %v (C order %v), want %s %v %v", name, g.DType, g.Shape, g.Values, g.CContiguous, w.dtype, w.shape, w.values)
		}
	}
}

// python returns Debian's python3 with numpy, or skips the test.
func python(t *testing.T) string {
	t.Helper()
	const py = "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import numpy").Run(); err != nil {
		testenv.Missing(t, "%s with numpy is not available (scripts/setup.sh installs python3-numpy): %v", py, err)
	}
	return py
}

// runPython runs script with Debian's python3 in dir and returns its
// standard output.
func runPython(t *testing.T, dir, script string) []byte {
	t.Helper()
	cmd := exec.Command(python(t), "-c", script)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, stderr.String())
	}
	return out
}
