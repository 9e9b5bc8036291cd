package backend

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// HostMemoryAvailable returns how many bytes of host memory a new
// allocation can still get: the kernel's MemAvailable (/proc/meminfo),
// capped by the process's cgroup memory limit when it has one, plus what
// the Go heap holds unused. ok is false where the system does not say
// (not Linux); callers then allocate and let the runtime decide.
//
// It reads a few small files: call it for large allocations only.
func HostMemoryAvailable() (bytes int64, ok bool) {
	avail, ok := memAvailable()
	if !ok {
		return 0, false
	}
	if limit, used, ok := cgroupMemory(); ok && limit-used < avail {
		avail = max(0, limit-used)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return avail + int64(ms.HeapIdle-ms.HeapReleased), true
}

// memAvailable reads MemAvailable from /proc/meminfo.
func memAvailable() (int64, bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemAvailable:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return 0, false
			}
			return kb << 10, true
		}
	}
	return 0, false
}

// cgroupMemory returns the cgroup v2 memory limit of the process and its
// current use, when a limit is set.
func cgroupMemory() (limit, used int64, ok bool) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, 0, false
	}
	// cgroup v2: one line "0::/path".
	line := strings.TrimSpace(string(b))
	path, found := strings.CutPrefix(line, "0::")
	if !found || strings.Contains(path, "\n") {
		return 0, 0, false
	}
	dir := "/sys/fs/cgroup" + path
	read := func(name string) (int64, bool) {
		b, err := os.ReadFile(dir + "/" + name)
		if err != nil {
			return 0, false
		}
		s := strings.TrimSpace(string(b))
		if s == "max" {
			return 0, false
		}
		v, err := strconv.ParseInt(s, 10, 64)
		return v, err == nil
	}
	if limit, ok = read("memory.max"); !ok {
		return 0, 0, false
	}
	used, _ = read("memory.current")
	return limit, used, true
}

// ByteSize formats n bytes with a binary unit: "512 B", "1.5 KiB", "3.0 GiB".
func ByteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}
