package cuda

import "strings"

// Report returns a text summary of the CUDA devices and their memory, as
// the notebook's %gpu magic shows it: for each device its name, compute
// capability and memory, and for a device that tensors have used its
// MemorySummary (what tensors hold and the peak, what is cached and
// reserved, the largest live tensors). Without devices it says how to get
// them.
//
//	fmt.Print(cuda.Report())
//	// cuda:0 NVIDIA A100-SXM4-40GB, compute 8.0, 39.4 GiB
//	//                             current  peak
//	//   allocated by tensors      1.2 GiB  2.0 GiB  ...
func Report() string {
	ds := Devices()
	if len(ds) == 0 {
		return "no CUDA devices: this build has no CUDA support or this machine no GPU " +
			"(build gotensor with -tags cuda on a machine with an NVIDIA driver), " +
			"or call cuda.UseEmulator(cuda.EmulatorConfig{}) to try GPU tensors on an emulated device\n"
	}
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(MemorySummary(d.Index))
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
