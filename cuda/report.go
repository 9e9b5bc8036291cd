package cuda

import (
	"fmt"
	"strings"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// Report returns a text summary of the CUDA devices and their memory, as
// the notebook's %gpu magic shows it: one line per device (name, compute
// capability, memory) followed, for a device that tensors have used, by
// what the caching allocator holds. Without devices it says how to get
// them.
//
//	fmt.Print(cuda.Report())
//	// cuda:0 NVIDIA A100-SXM4-40GB, compute 8.0, 39.4 GiB
//	//   1.2 GiB allocated, 256.0 MiB cached, peak 2.0 GiB
func Report() string {
	ds := Devices()
	if len(ds) == 0 {
		return "no CUDA devices: this build has no CUDA support or this machine no GPU " +
			"(build gotensor with -tags cuda on a machine with an NVIDIA driver), " +
			"or call cuda.UseEmulator(cuda.EmulatorConfig{}) to try GPU tensors on an emulated device\n"
	}
	stats := map[int]Stats{}
	for _, s := range MemoryStats() {
		stats[s.Device] = s
	}
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintln(&b, d)
		if s, ok := stats[d.Index]; ok {
			fmt.Fprintf(&b, "  %s allocated, %s cached, peak %s\n",
				backend.ByteSize(s.Allocated), backend.ByteSize(s.Cached), backend.ByteSize(s.Peak))
		} else {
			b.WriteString("  not used yet\n")
		}
	}
	return b.String()
}

// Synchronize waits until every device that tensors have used has finished
// the work queued on it. Ops return as soon as their kernels are queued, so
// time GPU code with Synchronize before reading the clock:
//
//	start := time.Now()
//	y := x.MatMul(w)
//	cuda.Synchronize()
//	fmt.Println(time.Since(start))
func Synchronize() {
	for _, d := range openDevices() {
		d.do(d.sync)
	}
}
