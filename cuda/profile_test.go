//go:build cgo

package cuda

import (
	"strings"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestProfile checks that a profile names the kernels and GEMMs that ran
// while it was on, with their call counts, and nothing run after it.
func TestProfile(t *testing.T) {
	dev := tensor.CUDA(0)
	a := tensor.RandnOn(dev, 64, 32)
	b := tensor.RandnOn(dev, 32, 16)
	Synchronize()

	StartProfile()
	_ = a.Add(a)
	_ = a.Add(a)
	_ = a.MatMul(b)
	p := StopProfile()
	_ = a.Add(a) // after the profile: not counted

	calls := map[string]int{}
	for _, e := range p {
		calls[e.Name] = e.Calls
		if e.Time <= 0 {
			t.Errorf("%s: time %v, want > 0", e.Name, e.Time)
		}
	}
	if calls["add_f32"] != 2 {
		t.Errorf("add_f32 ran %d times in the profile, want 2 (profile %v)", calls["add_f32"], p)
	}
	// MatMul [64 32]·[32 16] is cuBLAS's column-major 16×64×32.
	if calls["gemm 16×64×32 ×1"] != 1 {
		t.Errorf("the GEMM ran %d times in the profile, want 1 (profile %v)", calls["gemm 16×64×32 ×1"], p)
	}
	for i := 1; i < len(p); i++ {
		if p[i].Time > p[i-1].Time {
			t.Errorf("entries not sorted by time: %v", p)
		}
	}
	var sb strings.Builder
	p.WriteTable(&sb, 1)
	if lines := strings.Count(sb.String(), "\n"); lines != 3 {
		t.Errorf("WriteTable(top 1) wrote %d lines, want a header, one entry and the total:\n%s", lines, sb.String())
	}
}
