package interp

import (
	"runtime"
	"strings"
	"testing"
)

// TestMemoryBounded checks that running a cell that makes a large tensor
// many times does not keep every tensor alive: yaegi keeps the temporary
// values of top-level code in its global frame for the session's life and
// gives a variable a new slot each time its definition runs.
func TestMemoryBounded(t *testing.T) {
	cases := []struct {
		code string
		runs int
	}{
		{"x := tensor.Zeros(1000, 1000)", 100}, // 4 MB each
		{"var v = tensor.Zeros(N, N)", 30},
		{"var w *tensor.Tensor = tensor.Zeros(N, N)", 30},
		{"tensor.Zeros(N, N)", 30}, // the last value
		{"y = tensor.Zeros(N, N)", 30},
		{"_ = tensor.Zeros(N, N).Numel()\nn := 1", 30},
		{"fmt.Sprint(tensor.Zeros(N, N).Numel())", 30},
		{"for i := 0; i < 1; i++ { z := tensor.Zeros(N, N); _ = z }", 30},
		{"a, b := tensor.Zeros(N, N), 2", 30},
		{"sl := []*tensor.Tensor{tensor.Zeros(N, N)}\nlen(sl)", 30},
		{"m := map[string]*tensor.Tensor{\"k\": tensor.Zeros(N, N)}", 30},
		{"func mk() *tensor.Tensor { return tensor.Zeros(N, N) }\nk := mk()", 30},
		{"p := tensor.Zeros(N, N)\nq := p.AddScalar(1)\nq.Numel()", 30},
	}
	s := newSession(t)
	mustRun(t, s, "var y *tensor.Tensor")
	var m runtime.MemStats
	heap := func() int64 {
		runtime.GC()
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	for i, c := range cases {
		code := strings.ReplaceAll(c.code, "N, N", "500, 500") // 1 MB
		mustRun(t, s, code)
		before := heap()
		for range c.runs {
			mustRun(t, s, code)
		}
		// Five tensors of slack: the ones alive now, and the collector's.
		const limit = 5 * 4 << 20
		if grew := heap() - before; grew > limit {
			t.Errorf("case %d %q: the heap grew by %d MB over %d runs, want under %d MB", i, code, grew>>20, c.runs, limit>>20)
		}
	}
}
