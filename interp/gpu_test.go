package interp

import (
	"strings"
	"testing"
)

// TestGPUMagic checks %gpu before and after GPU tensors exist, on the
// emulated CUDA device (there is no GPU on the test machines), and that
// %who shows which device each tensor is on. Tensors made in one cell are
// used from a later one.
func TestGPUMagic(t *testing.T) {
	s := newSession(t)
	if _, out := mustRun(t, s, "%gpu"); !strings.Contains(out, "no CUDA devices") && !strings.Contains(out, "cuda:0") {
		t.Fatalf("%%gpu with no devices: %q", out)
	}
	if res, _ := mustRun(t, s, "cuda.UseEmulator(cuda.EmulatorConfig{Memory: 64 << 20})"); res != "<nil>" && !strings.Contains(res, "already in use") {
		t.Fatalf("UseEmulator: %s", res)
	}
	mustRun(t, s, "g := tensor.Ones(256, 256).To(tensor.CUDA(0))\nc := tensor.Ones(2, 3)")
	res, _ := mustRun(t, s, "g.Sum().Item()")
	if res != "65536" {
		t.Errorf("sum on the emulated device in a later cell = %s, want 65536", res)
	}
	_, out := mustRun(t, s, "%gpu")
	if !strings.Contains(out, "cuda:0") || !strings.Contains(out, "allocated by tensors") ||
		!strings.Contains(out, "variables holding GPU tensors:\n  g            [256 256] float32 cuda:0 256.0 KiB") {
		t.Errorf("%%gpu after a GPU tensor:\n%s", out)
	}
	t.Logf("%%gpu:\n%s", out)
	_, out = mustRun(t, s, "%who")
	t.Logf("%%who:\n%s", out)
	if !strings.Contains(out, "[256 256] float32 cuda:0") || !strings.Contains(out, "[2 3] float32 cpu") {
		t.Errorf("%%who does not show the devices:\n%s", out)
	}
}
