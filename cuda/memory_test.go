//go:build cgo

package cuda

import (
	"runtime"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestMemoryFunctions checks MemoryAllocated (bytes of live tensors, each
// rounded up to 512 as PyTorch counts), its peak and ResetPeakMemoryStats,
// MemoryReserved, and MemorySummary's rows, on the emulated device.
func TestMemoryFunctions(t *testing.T) {
	dev := tensor.CUDA(0)
	tensor.Zeros(1).To(dev) // opened
	runtime.GC()
	base := MemoryAllocated(0)
	x := tensor.Zeros(1000).To(dev)                 // 4000 bytes: 4096
	y := tensor.Zeros(3, 5).AsType(tensor.BFloat16) // 30 bytes: 512
	y = y.To(dev)
	if got := MemoryAllocated(0) - base; got != 4096+512 {
		t.Errorf("MemoryAllocated grew by %d bytes for 4000- and 30-byte tensors, want 4608", got)
	}
	if MemoryReserved(0) < MemoryAllocated(0) || MaxMemoryReserved(0) < MemoryReserved(0) {
		t.Errorf("reserved %d (peak %d) below allocated %d", MemoryReserved(0), MaxMemoryReserved(0), MemoryAllocated(0))
	}
	ResetPeakMemoryStats(0)
	if MaxMemoryAllocated(0) != MemoryAllocated(0) {
		t.Errorf("after ResetPeakMemoryStats the peak is %d, the current %d", MaxMemoryAllocated(0), MemoryAllocated(0))
	}
	big := tensor.Zeros(1 << 18).To(dev) // 1 MiB
	big.Free()
	if got := MaxMemoryAllocated(0) - MemoryAllocated(0); got != 1<<20 {
		t.Errorf("the peak is %d bytes above the current after a freed 1 MiB tensor, want 1 MiB", got)
	}
	s := MemorySummary(0)
	for _, want := range []string{"cuda:0", "allocated by tensors", "reserved from the driver", "live tensors", "largest live tensors:", "× float32[1000] (3.9 KiB each)"} {
		if !strings.Contains(s, want) {
			t.Errorf("MemorySummary lacks %q:\n%s", want, s)
		}
	}
	if !strings.Contains(Report(), s[:strings.Index(s, "\n")]) {
		t.Errorf("Report does not hold the summary:\n%s", Report())
	}
	if got := MemorySummary(7); !strings.Contains(got, "no such device") {
		t.Errorf("MemorySummary(7) = %q", got)
	}
	if MemoryAllocated(7) != 0 || MaxMemoryAllocated(7) != 0 || MemoryReserved(7) != 0 {
		t.Error("a device that does not exist holds memory")
	}
	runtime.KeepAlive(x)
	runtime.KeepAlive(y)
}
