package backend

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestHostMemoryAvailable compares with MemTotal from /proc/meminfo: what
// is available is positive and no more than the machine's memory plus the
// Go heap's idle pages.
func TestHostMemoryAvailable(t *testing.T) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		t.Skip("no /proc/meminfo")
	}
	var total int64
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "MemTotal:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			total = kb << 10
		}
	}
	avail, ok := HostMemoryAvailable()
	if !ok {
		t.Fatal("HostMemoryAvailable: not ok on Linux")
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if avail <= 0 || avail > total+int64(ms.HeapSys) {
		t.Errorf("available %d bytes, machine total %d", avail, total)
	}
}

func TestByteSize(t *testing.T) {
	for n, want := range map[int64]string{512: "512 B", 1536: "1.5 KiB", 3 << 30: "3.0 GiB", 160e9: "149.0 GiB"} {
		if got := ByteSize(n); got != want {
			t.Errorf("ByteSize(%d) = %q, want %q", n, got, want)
		}
	}
}
