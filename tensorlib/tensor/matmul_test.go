package tensor

import (
	"math"
	"testing"
)

// refMatMul multiplies row-major matrices in float64.
func refMatMul(a, b []float64, m, k, n int) []float64 {
	c := make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			for p := 0; p < k; p++ {
				c[i*n+j] += a[i*k+p] * b[p*n+j]
			}
		}
	}
	return c
}

func TestMatMul(t *testing.T) {
	a := FromFloat32s([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	b := FromFloat32s([]float32{7, 8, 9, 10, 11, 12}, 3, 2)
	v := FromFloat32s([]float32{1, 0, -1})
	cases := []struct {
		name  string
		x     *Tensor
		shape []int
		dt    DType
		want  []float64
	}{
		{"2x3@3x2", a.MatMul(b), []int{2, 2}, Float32, f64{58, 64, 139, 154}},
		{"T@T", b.T().MatMul(a.T()), []int{2, 2}, Float32, f64{58, 139, 64, 154}},
		{"a@a.T", a.MatMul(a.T()), []int{2, 2}, Float32, f64{14, 32, 32, 77}},
		{"a.T@a", a.T().MatMul(a), []int{3, 3}, Float32, f64{17, 22, 27, 22, 29, 36, 27, 36, 45}},
		{"mv", a.MatMul(v), []int{2}, Float32, f64{-2, -2}},
		{"vm", FromFloat32s([]float32{1, -1}).MatMul(a), []int{3}, Float32, f64{-3, -3, -3}},
		{"dot", v.MatMul(v), []int{}, Float32, f64{2}},
		{"batched", Stack(0, a, a.MulScalar(2)).MatMul(b), []int{2, 2, 2}, Float32, f64{58, 64, 139, 154, 116, 128, 278, 308}},
		{"batch broadcast", a.MatMul(Stack(0, b, b.Neg())), []int{2, 2, 2}, Float32, f64{58, 64, 139, 154, -58, -64, -139, -154}},
		{"batch both broadcast", Stack(0, a, a).Unsqueeze(1).MatMul(Stack(0, b, b, b)), []int{2, 3, 2, 2}, Float32,
			f64{58, 64, 139, 154, 58, 64, 139, 154, 58, 64, 139, 154, 58, 64, 139, 154, 58, 64, 139, 154, 58, 64, 139, 154}},
		{"batched @ vector", Stack(0, a, a).MatMul(v), []int{2, 2}, Float32, f64{-2, -2, -2, -2}},
		{"vector @ batched", FromFloat32s([]float32{1, -1}).MatMul(Stack(0, a, a)), []int{2, 3}, Float32, f64{-3, -3, -3, -3, -3, -3}},
		{"narrowed", a.Narrow(1, 1, 2).MatMul(b.Narrow(0, 1, 2)), []int{2, 2}, Float32, f64{2*9 + 3*11, 2*10 + 3*12, 5*9 + 6*11, 5*10 + 6*12}},
		{"expanded rows", v.Unsqueeze(0).Expand(2, 3).MatMul(b), []int{2, 2}, Float32, f64{-4, -4, -4, -4}},
		{"f64", a.AsType(Float64).MatMul(b.AsType(Float64)), []int{2, 2}, Float64, f64{58, 64, 139, 154}},
		{"promote", a.MatMul(b.AsType(Float64)), []int{2, 2}, Float64, f64{58, 64, 139, 154}},
		{"int64", a.AsType(Int64).MatMul(b.AsType(Int64).T().T()), []int{2, 2}, Int64, f64{58, 64, 139, 154}},
		{"k=0", Zeros(2, 0).MatMul(Zeros(0, 3)), []int{2, 3}, Float32, f64{0, 0, 0, 0, 0, 0}},
		{"m=0", Zeros(0, 2).MatMul(Zeros(2, 3)), []int{0, 3}, Float32, f64{}},
	}
	for _, c := range cases {
		checkT(t, c.name, c.x, c.shape, c.dt, c.want)
	}
}

func TestMatMulRandom(t *testing.T) {
	// Sizes and layouts that take the GEMM paths: plain, transposed (no
	// copy), and a strided view that must be packed; 3-D with a 2-D right
	// operand folds the batch into rows.
	ManualSeed(1)
	m, k, n := 33, 70, 45
	a, b := Randn(m, k), Randn(k, n)
	want := refMatMul(a.Float64s(), b.Float64s(), m, k, n)
	checkTol(t, "plain", a.MatMul(b), []int{m, n}, Float32, want, 1e-4)
	checkTol(t, "transposed", a.T().Contiguous().T().MatMul(b.T().Contiguous().T()), []int{m, n}, Float32, want, 1e-4)
	wide := Randn(m, 2*k)
	strided := Zeros(m, 2*k).Add(wide).Reshape(m, k, 2).Select(2, 0) // column stride 2
	wantS := refMatMul(strided.Float64s(), b.Float64s(), m, k, n)
	checkTol(t, "packed", strided.MatMul(b), []int{m, n}, Float32, wantS, 1e-4)
	x3 := Randn(4, m, k)
	got := x3.MatMul(b)
	for i := 0; i < 4; i++ {
		w := refMatMul(x3.Select(0, i).Float64s(), b.Float64s(), m, k, n)
		checkTol(t, "fold", got.Select(0, i), []int{m, n}, Float32, w, 1e-4)
	}
	if math.IsNaN(got.Sum().Item()) {
		t.Error("NaN in result")
	}
}
