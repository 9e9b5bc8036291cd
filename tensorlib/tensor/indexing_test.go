package tensor

import "testing"

func TestIndexing(t *testing.T) {
	a := arange(3, 4) // rows [0..3] [4..7] [8..11]
	idx := FromInt64s([]int64{3, 0, 1, 1, 2, 2}, 3, 2)
	checkT(t, "Gather 1", a.Gather(1, idx), []int{3, 2}, Float32, f64{3, 0, 5, 5, 10, 10})
	checkT(t, "Gather 0", a.Gather(0, FromInt64s([]int64{2, 0, 1, 0}, 1, 4)), []int{1, 4}, Float32, f64{8, 1, 6, 3})
	checkT(t, "Gather -1 of T", a.T().Gather(-1, FromInt64s([]int64{2, 1}, 2, 1)), []int{2, 1}, Float32, f64{8, 5})
	checkT(t, "Gather int", FromInt64s([]int64{5, 6, 7}).Gather(0, FromInt64s([]int64{2, 2})), []int{2}, Int64, f64{7, 7})
	checkT(t, "IndexSelect 0", a.IndexSelect(0, FromInt64s([]int64{2, 0, 2})), []int{3, 4}, Float32, f64{8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11})
	checkT(t, "IndexSelect 1", a.IndexSelect(1, FromInt64s([]int64{1})), []int{3, 1}, Float32, f64{1, 5, 9})
	checkT(t, "IndexSelect of T", a.T().IndexSelect(0, FromInt64s([]int64{3})), []int{1, 3}, Float32, f64{3, 7, 11})
	checkT(t, "IndexSelect empty", a.IndexSelect(0, FromInt64s(nil)), []int{0, 4}, Float32, f64{})
	checkT(t, "IndexSelect bool", FromBools([]bool{true, false}).IndexSelect(0, FromInt64s([]int64{1, 0})), []int{2}, Bool, f64{0, 1})

	cond := FromBools([]bool{true, false, true})
	checkT(t, "Where", Where(cond, Ones(3), Zeros(3)), []int{3}, Float32, f64{1, 0, 1})
	checkT(t, "Where broadcast", Where(cond, arange(2, 3), Scalar(-1)), []int{2, 3}, Float32, f64{0, -1, 2, 3, -1, 5})
	checkT(t, "Where promotes", Where(cond, FromInt64s([]int64{7}), Full(0.5)), []int{3}, Float32, f64{7, 0.5, 7})
	checkT(t, "Where cond broadcast", Where(cond.Unsqueeze(1), FromInt64s([]int64{1, 2}), FromInt64s([]int64{0})), []int{3, 2}, Int64, f64{1, 2, 0, 0, 1, 2})

	checkT(t, "OneHot", OneHot(FromInt64s([]int64{0, 2, 1}), 3), []int{3, 3}, Int64, f64{1, 0, 0, 0, 0, 1, 0, 1, 0})
	checkT(t, "OneHot infer", OneHot(FromInt64s([]int64{1, 0}), -1), []int{2, 2}, Int64, f64{0, 1, 1, 0})
	checkT(t, "OneHot 2-D", OneHot(FromInt64s([]int64{1, 0}, 2, 1), 2), []int{2, 1, 2}, Int64, f64{0, 1, 1, 0})
}
