package tensor

import (
	"math"
	"slices"
	"testing"
)

func TestReductions(t *testing.T) {
	a := arange(2, 3)    // [[0 1 2] [3 4 5]]
	c := arange(2, 3, 4) // 0..23
	inf := math.Inf(1)
	nan := math.NaN()
	cases := []struct {
		name  string
		x     *Tensor
		shape []int
		dt    DType
		want  []float64
	}{
		{"Sum()", a.Sum(), []int{}, Float32, f64{15}},
		{"Sum(0)", a.Sum(0), []int{3}, Float32, f64{3, 5, 7}},
		{"Sum(1)", a.Sum(1), []int{2}, Float32, f64{3, 12}},
		{"Sum(-1)", a.Sum(-1), []int{2}, Float32, f64{3, 12}},
		{"Sum(0,1)", a.Sum(0, 1), []int{}, Float32, f64{15}},
		{"SumKeep(1)", a.SumKeep(1), []int{2, 1}, Float32, f64{3, 12}},
		{"SumKeep()", a.SumKeep(), []int{1, 1}, Float32, f64{15}},
		{"Sum3(0,2)", c.Sum(0, 2), []int{3}, Float32, f64{0 + 1 + 2 + 3 + 12 + 13 + 14 + 15, 4 + 5 + 6 + 7 + 16 + 17 + 18 + 19, 8 + 9 + 10 + 11 + 20 + 21 + 22 + 23}},
		{"Sum3(1)", c.Sum(1), []int{2, 4}, Float32, f64{12, 15, 18, 21, 48, 51, 54, 57}},
		{"Sum of T", a.T().Sum(1), []int{3}, Float32, f64{3, 5, 7}},
		{"Sum of permuted", c.Permute(2, 0, 1).Sum(2), []int{4, 2}, Float32, f64{12, 48, 15, 51, 18, 54, 21, 57}},
		{"Sum int", FromInt64s([]int64{1, 2, 3}).Sum(), []int{}, Int64, f64{6}},
		{"Sum bool", FromBools([]bool{true, true, false}).Sum(), []int{}, Int64, f64{2}},
		{"Sum empty", Zeros(0, 3).Sum(0), []int{3}, Float32, f64{0, 0, 0}},
		{"Sum empty all", Zeros(0).Sum(), []int{}, Float32, f64{0}},
		{"Mean()", a.Mean(), []int{}, Float32, f64{2.5}},
		{"Mean(0)", a.Mean(0), []int{3}, Float32, f64{1.5, 2.5, 3.5}},
		{"MeanKeep(1)", a.MeanKeep(1), []int{2, 1}, Float32, f64{1, 4}},
		{"Mean empty", Zeros(0).Mean(), []int{}, Float32, f64{nan}},
		{"Mean f64", a.AsType(Float64).Mean(1), []int{2}, Float64, f64{1, 4}},
		{"Max(1)", a.Max(1), []int{2}, Float32, f64{2, 5}},
		{"Max(0)", a.Max(0), []int{3}, Float32, f64{3, 4, 5}},
		{"Min(1)", a.Neg().Min(1), []int{2}, Float32, f64{-2, -5}},
		{"MaxKeep", a.MaxKeep(0), []int{1, 3}, Float32, f64{3, 4, 5}},
		{"MinKeep", a.MinKeep(-1), []int{2, 1}, Float32, f64{0, 3}},
		{"MaxAll", a.MaxAll(), []int{}, Float32, f64{5}},
		{"MinAll", a.MinAll(), []int{}, Float32, f64{0}},
		{"Max int", FromInt64s([]int64{-5, -2, -9}).Max(0), []int{}, Int64, f64{-2}},
		{"Max bool", FromBools([]bool{false, true}).Max(0), []int{}, Bool, f64{1}},
		{"Max NaN", FromFloat32s([]float32{1, float32(nan), 3}).Max(0), []int{}, Float32, f64{nan}},
		{"Argmax(1)", FromFloat32s([]float32{1, 3, 3, 0, -1, -2}, 2, 3).Argmax(1), []int{2}, Int64, f64{1, 0}},
		{"Argmax(0)", FromFloat32s([]float32{1, 3, 3, 0, -1, 4}, 2, 3).Argmax(0), []int{3}, Int64, f64{0, 0, 1}},
		{"Argmin(1)", FromFloat32s([]float32{1, 0, 0, 5, 7, -2}, 2, 3).Argmin(1), []int{2}, Int64, f64{1, 2}},
		{"Argmax NaN", FromFloat32s([]float32{1, float32(nan), 3}).Argmax(0), []int{}, Int64, f64{1}},
		{"Argmax of T", a.T().Argmax(1), []int{3}, Int64, f64{1, 1, 1}},
		{"Var(1)", FromFloat32s([]float32{1, 2, 3, 4, 2, 0}, 2, 3).Var(1), []int{2}, Float32, f64{1, 4}},
		{"Var(0)", FromFloat32s([]float32{1, 3}, 2, 1).Var(0), []int{1}, Float32, f64{2}},
		{"Var n=1", Ones(1, 3).Var(0), []int{3}, Float32, f64{nan, nan, nan}},
		{"Softmax", FromFloat32s([]float32{0, 0, math.Ln2}).Softmax(0), []int{3}, Float32, f64{0.25, 0.25, 0.5}},
		{"Softmax stable", FromFloat32s([]float32{1000, 1000}).Softmax(0), []int{2}, Float32, f64{0.5, 0.5}},
		{"Softmax(0) matrix", FromFloat32s([]float32{0, 5, 0, 5}, 2, 2).Softmax(0), []int{2, 2}, Float32, f64{0.5, 0.5, 0.5, 0.5}},
		{"LogSoftmax", FromFloat32s([]float32{0, 0, math.Ln2}).LogSoftmax(0), []int{3}, Float32, f64{math.Log(0.25), math.Log(0.25), math.Log(0.5)}},
		{"LogSoftmax stable", FromFloat32s([]float32{-1000, 0}).LogSoftmax(-1), []int{2}, Float32, f64{-1000, 0}},
		{"LogSumExp", FromFloat32s([]float32{0, 0, 0, 0, 1000, 1000}, 3, 2).LogSumExp(1), []int{3}, Float32, f64{math.Ln2, math.Ln2, 1000 + math.Ln2}},
		{"LogSumExp -inf", FromFloat32s([]float32{float32(-inf), float32(-inf)}).LogSumExp(0), []int{}, Float32, f64{-inf}},
		{"LogSumExp int", FromInt64s([]int64{0, 0}).LogSumExp(0), []int{}, Float32, f64{math.Ln2}},
	}
	for _, c := range cases {
		checkT(t, c.name, c.x, c.shape, c.dt, c.want)
	}
}

func TestReduceLarge(t *testing.T) {
	// Shapes that take every CPU reduction path, checked against float64
	// sums done here: contiguous rows, whole-array, column accumulation and
	// the generic strided walk.
	rows, cols := 300, 500
	x := Randn(rows, cols)
	v := x.Float64s()
	rowSum := make([]float64, rows)
	colSum := make([]float64, cols)
	colMax := make([]float64, cols)
	total := 0.0
	for i := range colMax {
		colMax[i] = math.Inf(-1)
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			e := v[i*cols+j]
			rowSum[i] += e
			colSum[j] += e
			colMax[j] = math.Max(colMax[j], e)
			total += e
		}
	}
	checkTol(t, "Sum(1)", x.Sum(1), []int{rows}, Float32, rowSum, 1e-4)
	checkTol(t, "Sum(0)", x.Sum(0), []int{cols}, Float32, colSum, 1e-4)
	checkT(t, "Max(0)", x.Max(0), []int{cols}, Float32, colMax)
	rowMax, rowMin := make([]float64, rows), make([]float64, rows)
	for i := range rowMax {
		r := v[i*cols : (i+1)*cols]
		rowMax[i], rowMin[i] = slices.Max(r), slices.Min(r)
	}
	checkT(t, "Max(1)", x.Max(1), []int{rows}, Float32, rowMax)
	checkT(t, "Min(1)", x.Min(1), []int{rows}, Float32, rowMin)
	checkT(t, "Max(1) float64", x.AsType(Float64).Max(1), []int{rows}, Float64, rowMax)
	withNaN := x.Float32s()
	withNaN[7*cols+411] = float32(math.NaN())
	nanMax := FromFloat32s(withNaN, rows, cols).Max(1).Float64s()
	for i, m := range nanMax {
		if (i == 7) != math.IsNaN(m) {
			t.Errorf("Max(1) row %d with a NaN in row 7: %v", i, m)
		}
	}
	checkTol(t, "Sum()", x.Sum(), []int{}, Float32, f64{total}, 1e-4)
	checkTol(t, "T Sum(0)", x.T().Sum(0), []int{rows}, Float32, rowSum, 1e-4)
	checkTol(t, "T Sum(1)", x.T().Sum(1), []int{cols}, Float32, colSum, 1e-4)
	big := Ones(1 << 20)
	checkT(t, "Sum 1M", big.Sum(), []int{}, Float32, f64{1 << 20})
	checkT(t, "Sum 3D middle", Ones(40, 300, 20).Sum(1), []int{40, 20}, Float32, fill(800, 300))
	if got := Ones(3, 4).Expand(2, 3, 4).Sum().Item(); got != 24 {
		t.Errorf("Sum of an expanded view = %v, want 24", got)
	}
	p := Randn(64, 10).Softmax(1).Sum(1).Float64s()
	for i, s := range p {
		if math.Abs(s-1) > 1e-5 {
			t.Fatalf("softmax row %d sums to %v", i, s)
		}
	}
}

func fill(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}
