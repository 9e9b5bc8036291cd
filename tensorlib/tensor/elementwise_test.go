package tensor

import (
	"math"
	"testing"
)

func TestBinaryBroadcast(t *testing.T) {
	a := arange(2, 3)                              // [[0 1 2] [3 4 5]]
	row := FromFloat32s([]float32{10, 20, 30})     // [3]
	col := FromFloat32s([]float32{100, 200}, 2, 1) // [2 1]
	cases := []struct {
		name  string
		x     *Tensor
		shape []int
		want  []float64
	}{
		{"Add row", a.Add(row), []int{2, 3}, f64{10, 21, 32, 13, 24, 35}},
		{"Add col", a.Add(col), []int{2, 3}, f64{100, 101, 102, 203, 204, 205}},
		{"row+col outer", row.Add(col), []int{2, 3}, f64{110, 120, 130, 210, 220, 230}},
		{"Sub", a.Sub(row), []int{2, 3}, f64{-10, -19, -28, -7, -16, -25}},
		{"Mul", a.Mul(col), []int{2, 3}, f64{0, 100, 200, 600, 800, 1000}},
		{"Div", a.Div(row), []int{2, 3}, f64{0, 0.05, 2.0 / 30, 0.3, 0.2, 5.0 / 30}},
		{"Pow", a.Pow(Full(2)), []int{2, 3}, f64{0, 1, 4, 9, 16, 25}},
		{"Maximum", a.Maximum(Full(2.5)), []int{2, 3}, f64{2.5, 2.5, 2.5, 3, 4, 5}},
		{"Minimum", a.Minimum(Full(2.5)), []int{2, 3}, f64{0, 1, 2, 2.5, 2.5, 2.5}},
		{"0-d+0-d", Scalar(2).Add(Scalar(3)), []int{}, f64{5}},
		{"empty", Zeros(0, 3).Add(row), []int{0, 3}, f64{}},
		{"transposed", a.T().Add(a.T()), []int{3, 2}, f64{0, 6, 2, 8, 4, 10}},
		{"transposed+contig", a.T().Add(arange(3, 2)), []int{3, 2}, f64{0, 4, 3, 7, 6, 10}},
		{"narrowed", a.Narrow(1, 1, 2).Mul(a.Narrow(1, 0, 2)), []int{2, 2}, f64{0, 2, 12, 20}},
		{"expanded", row.Expand(2, 3).Add(a), []int{2, 3}, f64{10, 21, 32, 13, 24, 35}},
		{"rank3", arange(2, 1, 3).Add(arange(4, 1)), []int{2, 4, 3}, f64{0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 5, 3, 4, 5, 4, 5, 6, 5, 6, 7, 6, 7, 8}},
	}
	for _, c := range cases {
		checkT(t, c.name, c.x, c.shape, Float32, c.want)
	}
}

func TestBinaryLarge(t *testing.T) {
	// Big enough to take the parallel paths, with a broadcast operand and a
	// transposed one.
	n := 300
	a := arange(n, n)
	b := arange(n)
	got := a.Add(b).Sub(a.T().T()).Float32s()
	for i, v := range got {
		if v != float32(i%n) {
			t.Fatalf("element %d = %v, want %v", i, v, i%n)
		}
	}
	s := a.Add(a.T()).Float32s()
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if want := float32(i*n + j + j*n + i); s[i*n+j] != want {
				t.Fatalf("a+a.T [%d %d] = %v, want %v", i, j, s[i*n+j], want)
			}
		}
	}
}

func TestPromotion(t *testing.T) {
	f32, f64t := Ones(2), Ones(2).AsType(Float64)
	i64, b := FromInt64s([]int64{3, 4}), FromBools([]bool{true, false})
	cases := []struct {
		name string
		x    *Tensor
		dt   DType
		want []float64
	}{
		{"i64+f32", i64.Add(f32), Float32, f64{4, 5}},
		{"f32+f64", f32.Add(f64t), Float64, f64{2, 2}},
		{"b+i64", b.Add(i64), Int64, f64{4, 4}},
		{"b+b (or)", b.Add(FromBools([]bool{true, false})), Bool, f64{1, 0}},
		{"b*b (and)", b.Mul(FromBools([]bool{false, false})), Bool, f64{0, 0}},
		{"i64+i64", i64.Add(i64), Int64, f64{6, 8}},
		{"i64/i64 true division", i64.Div(FromInt64s([]int64{2, 8})), Float32, f64{1.5, 0.5}},
		{"i64**i64", i64.Pow(FromInt64s([]int64{2, 3})), Int64, f64{9, 64}},
		{"i64 AddScalar whole", i64.AddScalar(1), Int64, f64{4, 5}},
		{"i64 AddScalar frac", i64.AddScalar(0.5), Float32, f64{3.5, 4.5}},
		{"i64 DivScalar", i64.DivScalar(2), Float32, f64{1.5, 2}},
		{"i64 PowScalar", i64.PowScalar(2), Int64, f64{9, 16}},
		{"i64 PowScalar frac", FromInt64s([]int64{4, 9}).PowScalar(0.5), Float32, f64{2, 3}},
		{"b MulScalar", b.MulScalar(3), Int64, f64{3, 0}},
		{"f64 AddScalar", f64t.AddScalar(0.25), Float64, f64{1.25, 1.25}},
		{"f32 MulScalar", f32.MulScalar(1e-3), Float32, f64{1e-3, 1e-3}},
		{"i64 Exp", FromInt64s([]int64{0, 1}).Exp(), Float32, f64{1, math.E}},
		{"b Sqrt", b.Sqrt(), Float32, f64{1, 0}},
		{"i64 Neg", i64.Neg(), Int64, f64{-3, -4}},
		{"i64 Abs", FromInt64s([]int64{-3, 4}).Abs(), Int64, f64{3, 4}},
		{"i64 ReLU", FromInt64s([]int64{-3, 4}).ReLU(), Int64, f64{0, 4}},
		{"RSubScalar", f32.RSubScalar(3), Float32, f64{2, 2}},
		{"RDivScalar", Full(4, 2).RDivScalar(2), Float32, f64{0.5, 0.5}},
	}
	for _, c := range cases {
		checkT(t, c.name, c.x, []int{2}, c.dt, c.want)
	}
}

func TestUnary(t *testing.T) {
	x := FromFloat64s([]float64{-2, -0.5, 0, 0.5, 3})
	inf := math.Inf(1)
	nan := math.NaN()
	cases := []struct {
		name string
		got  *Tensor
		f    func(float64) float64
	}{
		{"Neg", x.Neg(), func(v float64) float64 { return -v }},
		{"Abs", x.Abs(), math.Abs},
		{"Exp", x.Exp(), math.Exp},
		{"Sin", x.Sin(), math.Sin},
		{"Cos", x.Cos(), math.Cos},
		{"Tanh", x.Tanh(), math.Tanh},
		{"Sigmoid", x.Sigmoid(), func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }},
		{"ReLU", x.ReLU(), func(v float64) float64 { return math.Max(v, 0) }},
		{"GELU", x.GELU(), func(v float64) float64 { return v * 0.5 * math.Erfc(-v/math.Sqrt2) }},
		{"Square", x.Square(), func(v float64) float64 { return v * v }},
		{"Clamp", x.Clamp(-1, 0.5), func(v float64) float64 { return math.Min(math.Max(v, -1), 0.5) }},
		{"ClampLow", x.Clamp(0, inf), func(v float64) float64 { return math.Max(v, 0) }},
	}
	xs := x.Float64s()
	for _, c := range cases {
		want := make([]float64, len(xs))
		for i, v := range xs {
			want[i] = c.f(v)
		}
		checkT(t, c.name, c.got, []int{5}, Float64, want)
	}
	checkT(t, "Sqrt", FromFloat32s([]float32{4, 0, -1}).Sqrt(), []int{3}, Float32, f64{2, 0, nan})
	checkT(t, "Log", FromFloat32s([]float32{1, 0, -1}).Log(), []int{3}, Float32, f64{0, -inf, nan})
	checkT(t, "GELU known", FromFloat32s([]float32{1}).GELU(), []int{1}, Float32, f64{0.8413447460685429})
}

func TestUnaryFloat32MatchesFloat64(t *testing.T) {
	// The float32 kernels (the fast exp among them) agree with float64 math
	// to float32 precision over a wide range, including the edges.
	vals := []float32{-100, -88, -87.5, -87, -50, -1, -1e-7, 0, 1e-7, 0.3, 1, 10, 80, 88, 88.5, 89}
	for i := 0; i < 2000; i++ {
		vals = append(vals, float32(i-1000)*0.0871)
	}
	x := FromFloat32s(vals)
	for _, c := range []struct {
		name string
		got  *Tensor
		f    func(float64) float64
	}{
		{"Exp", x.Exp(), math.Exp},
		{"Sigmoid", x.Sigmoid(), func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }},
		{"Tanh", x.Tanh(), math.Tanh},
	} {
		got := c.got.Float32s()
		for i, v := range vals {
			want := float32(c.f(float64(v)))
			if !close(float64(got[i]), float64(want), 3e-7) && !(want < 1e-37 && math.Abs(float64(got[i]-want)) < 1e-44) {
				t.Errorf("%s(%v) = %v, want %v", c.name, v, got[i], want)
			}
		}
	}
	if got := FromFloat32s([]float32{float32(math.NaN())}).Exp().Item(); !math.IsNaN(got) {
		t.Errorf("Exp(NaN) = %v", got)
	}
}

func TestNaNPropagation(t *testing.T) {
	nan := math.NaN()
	x := FromFloat32s([]float32{float32(nan), 1})
	y := FromFloat32s([]float32{0, float32(nan)})
	checkT(t, "Maximum", x.Maximum(y), []int{2}, Float32, f64{nan, nan})
	checkT(t, "Minimum", x.Minimum(y), []int{2}, Float32, f64{nan, nan})
	checkT(t, "ReLU", x.ReLU(), []int{2}, Float32, f64{nan, 1})
}

func TestCompare(t *testing.T) {
	a := FromFloat32s([]float32{1, 2, 3})
	b := FromInt64s([]int64{2}, 1)
	cases := []struct {
		name string
		x    *Tensor
		want []float64
	}{
		{"Eq", a.Eq(b), f64{0, 1, 0}},
		{"Ne", a.Ne(b), f64{1, 0, 1}},
		{"Lt", a.Lt(b), f64{1, 0, 0}},
		{"Le", a.Le(b), f64{1, 1, 0}},
		{"Gt", a.Gt(b), f64{0, 0, 1}},
		{"Ge", a.Ge(b), f64{0, 1, 1}},
		{"EqScalar", a.EqScalar(3), f64{0, 0, 1}},
		{"GtScalar", a.GtScalar(1.5), f64{0, 1, 1}},
		{"LtScalar", a.LtScalar(1.5), f64{1, 0, 0}},
		{"Bool Eq", FromBools([]bool{true, false, true}).Eq(FromBools([]bool{true})), f64{1, 0, 1}},
	}
	for _, c := range cases {
		checkT(t, c.name, c.x, []int{3}, Bool, c.want)
	}
	checkT(t, "broadcast", a.Lt(a.Unsqueeze(1)), []int{3, 3}, Bool, f64{0, 0, 0, 1, 0, 0, 1, 1, 0})
}
