package tensor

import (
	"math"
	"testing"
)

func TestCreation(t *testing.T) {
	nan := math.NaN()
	_ = nan
	cases := []struct {
		name  string
		x     *Tensor
		shape []int
		dt    DType
		want  []float64
	}{
		{"Zeros", Zeros(2, 3), []int{2, 3}, Float32, f64{0, 0, 0, 0, 0, 0}},
		{"Ones", Ones(3), []int{3}, Float32, f64{1, 1, 1}},
		{"Full", Full(2.5, 2, 1), []int{2, 1}, Float32, f64{2.5, 2.5}},
		{"Scalar", Scalar(7), []int{}, Float32, f64{7}},
		{"Zeros0d", Zeros(), []int{}, Float32, f64{0}},
		{"ZerosEmpty", Zeros(0, 4), []int{0, 4}, Float32, f64{}},
		{"Arange", Arange(0, 5, 1), []int{5}, Float32, f64{0, 1, 2, 3, 4}},
		{"ArangeFrac", Arange(1, 2, 0.25), []int{4}, Float32, f64{1, 1.25, 1.5, 1.75}},
		{"ArangeDown", Arange(3, 0, -1), []int{3}, Float32, f64{3, 2, 1}},
		{"ArangeEmpty", Arange(2, 2, 1), []int{0}, Float32, f64{}},
		{"Eye", Eye(3), []int{3, 3}, Float32, f64{1, 0, 0, 0, 1, 0, 0, 0, 1}},
		{"FromFloat32s", FromFloat32s([]float32{1, 2, 3, 4}, 2, 2), []int{2, 2}, Float32, f64{1, 2, 3, 4}},
		{"FromFloat32s-1", FromFloat32s([]float32{1, 2, 3, 4}, -1, 2), []int{2, 2}, Float32, f64{1, 2, 3, 4}},
		{"FromFloat32s1D", FromFloat32s([]float32{1, 2}), []int{2}, Float32, f64{1, 2}},
		{"FromFloat64s", FromFloat64s([]float64{0.1, 0.2}), []int{2}, Float64, f64{0.1, 0.2}},
		{"FromInt64s", FromInt64s([]int64{-1, 5}, 2, 1), []int{2, 1}, Int64, f64{-1, 5}},
		{"FromBools", FromBools([]bool{true, false}), []int{2}, Bool, f64{1, 0}},
		{"FromInts", FromInts([]int{3, 4}), []int{2}, Int64, f64{3, 4}},
		{"ZerosLike", ZerosLike(FromInt64s([]int64{1, 2})), []int{2}, Int64, f64{0, 0}},
		{"OnesLike", OnesLike(Zeros(2).AsType(Float64)), []int{2}, Float64, f64{1, 1}},
	}
	for i, c := range cases {
		checkT(t, c.name, c.x, c.shape, c.dt, c.want)
		_ = i
	}
}

func TestFromCopiesData(t *testing.T) {
	data := []float32{1, 2}
	x := FromFloat32s(data)
	data[0] = 99
	if got := x.Float32s()[0]; got != 1 {
		t.Errorf("FromFloat32s shares the caller's slice: got %v after changing it", got)
	}
	out := x.Float32s()
	out[1] = 99
	if got := x.Float32s()[1]; got != 2 {
		t.Errorf("Float32s returns the tensor's storage: got %v after changing it", got)
	}
}

func TestDataOut(t *testing.T) {
	x := FromFloat32s([]float32{1.5, -2.5, 0}, 3)
	if got := x.Int64s(); got[0] != 1 || got[1] != -2 || got[2] != 0 {
		t.Errorf("Int64s = %v, want [1 -2 0] (truncation)", got)
	}
	if got := x.Bools(); !got[0] || !got[1] || got[2] {
		t.Errorf("Bools = %v, want [true true false]", got)
	}
	if got := x.Float64s(); got[1] != -2.5 {
		t.Errorf("Float64s = %v", got)
	}
	if got := x.Select(0, 1).Item(); got != -2.5 {
		t.Errorf("Item = %v, want -2.5", got)
	}
	if got := FromBools([]bool{true}).Item(); got != 1 {
		t.Errorf("Item of true = %v, want 1", got)
	}
	// Data out of a non-contiguous view is in the view's row-major order.
	if got := arange(2, 3).T().Float32s(); !equalF32(got, []float32{0, 3, 1, 4, 2, 5}) {
		t.Errorf("T().Float32s() = %v", got)
	}
}

func equalF32(a, b []float32) bool {
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

func TestAsType(t *testing.T) {
	x := FromFloat32s([]float32{-1.7, 0, 2.9})
	checkT(t, "Int64", x.AsType(Int64), []int{3}, Int64, f64{-1, 0, 2})
	checkT(t, "Bool", x.AsType(Bool), []int{3}, Bool, f64{1, 0, 1})
	checkT(t, "Float64", x.AsType(Float64), []int{3}, Float64, f64{float64(float32(-1.7)), 0, float64(float32(2.9))})
	if x.AsType(Float32) != x {
		t.Error("AsType to the same dtype should return x itself")
	}
	checkT(t, "BoolToFloat", FromBools([]bool{true, false}).AsType(Float32), []int{2}, Float32, f64{1, 0})
}

func TestRandomSeeded(t *testing.T) {
	ManualSeed(42)
	a, b, c := Rand(100), Randn(100), RandInt(-3, 4, 100)
	ManualSeed(42)
	a2, b2, c2 := Rand(100), Randn(100), RandInt(-3, 4, 100)
	for i, pair := range [][2]*Tensor{{a, a2}, {b, b2}, {c, c2}} {
		x, y := pair[0].Float64s(), pair[1].Float64s()
		for j := range x {
			if x[j] != y[j] {
				t.Fatalf("case %d: element %d differs after the same ManualSeed: %v vs %v", i, j, x[j], y[j])
			}
		}
	}
	ManualSeed(43)
	if Rand(100).Float64s()[0] == a.Float64s()[0] {
		t.Error("different seeds gave the same first value")
	}
	if c.DType() != Int64 || a.DType() != Float32 || b.DType() != Float32 {
		t.Errorf("dtypes %v %v %v", a.DType(), b.DType(), c.DType())
	}
	big := Rand(10000).Float64s()
	lo, hi, sum := 1.0, 0.0, 0.0
	for _, v := range big {
		lo, hi, sum = min(lo, v), max(hi, v), sum+v
	}
	if lo < 0 || hi >= 1 || math.Abs(sum/1e4-0.5) > 0.02 {
		t.Errorf("Rand: min %v max %v mean %v, want [0, 1) with mean 0.5", lo, hi, sum/1e4)
	}
	n := Randn(10000)
	if m, v := n.Mean().Item(), n.Var(0).Item(); math.Abs(m) > 0.05 || math.Abs(v-1) > 0.05 {
		t.Errorf("Randn: mean %v var %v, want 0 and 1", m, v)
	}
	ints := RandInt(-3, 4, 10000).Int64s()
	seen := map[int64]bool{}
	for _, v := range ints {
		if v < -3 || v >= 4 {
			t.Fatalf("RandInt value %d outside [-3, 4)", v)
		}
		seen[v] = true
	}
	if len(seen) != 7 {
		t.Errorf("RandInt hit %d of 7 values", len(seen))
	}
}
