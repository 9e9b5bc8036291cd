package tensor

import (
	"testing"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

func TestViews(t *testing.T) {
	a := arange(2, 3, 4)
	cases := []struct {
		name  string
		x     *Tensor
		shape []int
		want  []float64
		view  bool // shares a's storage
	}{
		{"Reshape", a.Reshape(6, 4).Narrow(0, 1, 1), []int{1, 4}, f64{4, 5, 6, 7}, true},
		{"Reshape -1", a.Reshape(-1, 12).Select(0, 1).Narrow(0, 0, 2), []int{2}, f64{12, 13}, true},
		{"Transpose", a.Transpose(0, 2).Select(0, 1), []int{3, 2}, f64{1, 13, 5, 17, 9, 21}, true},
		{"Transpose neg", a.Transpose(-1, -3).Select(0, 1), []int{3, 2}, f64{1, 13, 5, 17, 9, 21}, true},
		{"Permute", a.Permute(2, 0, 1).Select(0, 3), []int{2, 3}, f64{3, 7, 11, 15, 19, 23}, true},
		{"T 2-D", arange(2, 3).T(), []int{3, 2}, f64{0, 3, 1, 4, 2, 5}, false},
		{"Narrow", a.Narrow(2, 1, 2).Select(0, 0), []int{3, 2}, f64{1, 2, 5, 6, 9, 10}, true},
		{"Narrow neg start", a.Narrow(-1, -1, 1).Select(0, 1), []int{3, 1}, f64{15, 19, 23}, true},
		{"Select", a.Select(1, -1), []int{2, 4}, f64{8, 9, 10, 11, 20, 21, 22, 23}, true},
		{"Squeeze", a.Narrow(1, 2, 1).Squeeze(), []int{2, 4}, f64{8, 9, 10, 11, 20, 21, 22, 23}, true},
		{"Squeeze dim", arange(1, 2, 1).Squeeze(0), []int{2, 1}, f64{0, 1}, false},
		{"Squeeze non-1 dim", arange(1, 2, 1).Squeeze(1), []int{1, 2, 1}, f64{0, 1}, false},
		{"Unsqueeze", a.Select(0, 0).Select(0, 0).Unsqueeze(0), []int{1, 4}, f64{0, 1, 2, 3}, true},
		{"Unsqueeze -1", a.Select(0, 0).Select(0, 0).Unsqueeze(-1), []int{4, 1}, f64{0, 1, 2, 3}, true},
		{"Expand", a.Select(0, 0).Select(0, 0).Expand(2, 4), []int{2, 4}, f64{0, 1, 2, 3, 0, 1, 2, 3}, true},
		{"Expand -1", arange(2, 1).Expand(-1, 3), []int{2, 3}, f64{0, 0, 0, 1, 1, 1}, false},
		{"Flatten", a.Flatten(1).Select(0, 1).Narrow(0, 0, 3), []int{3}, f64{12, 13, 14}, true},
		{"Flatten 0", a.Flatten(0).Narrow(0, 21, 3), []int{3}, f64{21, 22, 23}, true},
		{"Reshape of T copies", a.Transpose(1, 2).Reshape(2, 12).Select(0, 0).Narrow(0, 0, 4), []int{4}, f64{0, 4, 8, 1}, false},
		{"Reshape of T view", a.Transpose(0, 1).Reshape(3, 2, 2, 2).Select(0, 0).Select(0, 1), []int{2, 2}, f64{12, 13, 14, 15}, true},
		{"Contiguous", a.Transpose(0, 1).Contiguous().Select(0, 0).Flatten(0), []int{8}, f64{0, 1, 2, 3, 12, 13, 14, 15}, false},
		{"View", a.View(4, 6).Select(0, 3), []int{6}, f64{18, 19, 20, 21, 22, 23}, true},
	}
	for _, c := range cases {
		checkT(t, c.name, c.x, c.shape, Float32, c.want)
		if c.view && !c.x.SharesStorage(a) {
			t.Errorf("%s: expected a view sharing storage", c.name)
		}
		if !c.view && c.x.SharesStorage(a) {
			t.Errorf("%s: expected a copy", c.name)
		}
	}
	if c := a.Contiguous(); c != a {
		t.Error("Contiguous of a contiguous tensor should return it")
	}
}

func TestViewSeesWrites(t *testing.T) {
	// A view reads the storage it shares: a write through the backend into
	// the base shows in the view (there is no user-facing in-place op yet).
	a := Zeros(2, 3)
	v := a.T().Narrow(0, 1, 2)
	cpuEngine.Fill(a.storage, backend.Layout{Shape: []int{2}, Strides: []int{3}, Offset: 1}, 7)
	checkT(t, "view after write", v, []int{2, 2}, Float32, f64{7, 7, 0, 0})
}

func TestCatStack(t *testing.T) {
	a, b := arange(2, 3), arange(1, 3).AddScalar(10)
	checkT(t, "Cat 0", Cat(0, a, b), []int{3, 3}, Float32, f64{0, 1, 2, 3, 4, 5, 10, 11, 12})
	checkT(t, "Cat 1", Cat(1, a, a.Narrow(1, 0, 1)), []int{2, 4}, Float32, f64{0, 1, 2, 0, 3, 4, 5, 3})
	checkT(t, "Cat -1 of T", Cat(-1, a.T(), a.T()), []int{3, 4}, Float32, f64{0, 3, 0, 3, 1, 4, 1, 4, 2, 5, 2, 5})
	checkT(t, "Cat skips empty 1-D", Cat(0, Zeros(0), Ones(2)), []int{2}, Float32, f64{1, 1})
	checkT(t, "Cat promotes", Cat(0, FromInt64s([]int64{1}), Full(0.5, 1)), []int{2}, Float32, f64{1, 0.5})
	checkT(t, "Cat int", Cat(0, FromInt64s([]int64{1}), FromInt64s([]int64{2, 3})), []int{3}, Int64, f64{1, 2, 3})
	checkT(t, "Stack 0", Stack(0, Ones(2), Zeros(2)), []int{2, 2}, Float32, f64{1, 1, 0, 0})
	checkT(t, "Stack -1", Stack(-1, Ones(2), Zeros(2)), []int{2, 2}, Float32, f64{1, 0, 1, 0})
	checkT(t, "Stack 1 of matrices", Stack(1, a, a.MulScalar(2)), []int{2, 2, 3}, Float32, f64{0, 1, 2, 0, 2, 4, 3, 4, 5, 6, 8, 10})
	checkT(t, "Stack scalars", Stack(0, Scalar(1), Scalar(2)), []int{2}, Float32, f64{1, 2})
}
