//go:build cgo

package cuda

import (
	"errors"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/display"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestTryOutOfMemory asks the device for twice its memory (8 GiB of the
// 4 GiB emulated device) through the tensor API: tensor.Try returns the
// *OutOfMemoryError, and the device works on afterwards, as a notebook
// session must.
func TestTryOutOfMemory(t *testing.T) {
	dev := tensor.CUDA(0)
	mem := Devices()[0].Memory
	x := tensor.Ones(1).To(dev)
	err := tensor.Try(func() { x.Expand(int(mem / 2)).Contiguous() }) // 2*mem bytes of float32
	var oom *OutOfMemoryError
	if !errors.As(err, &oom) {
		t.Fatalf("Try(twice the device's memory) = %v (%T), want *OutOfMemoryError", err, err)
	}
	if want := "tried to allocate " + backend.ByteSize(2*mem); oom.Requested != 2*mem || !strings.Contains(err.Error(), want) {
		t.Errorf("OutOfMemoryError %q asks for %d bytes, want %d and %q", err, oom.Requested, 2*mem, want)
	}
	if got := x.AddScalar(2).Sum().Item(); got != 3 {
		t.Errorf("after the out-of-memory error, (1+2).Sum() = %v, want 3", got)
	}
}

// TestFree frees a tensor's device memory: the allocator gets it back at
// once, views of the storage are freed too, and using them panics with a
// *tensor.DeviceError. On the CPU, Free does nothing.
func TestFree(t *testing.T) {
	dev := tensor.CUDA(0)
	allocated := func() int64 {
		for _, s := range MemoryStats() {
			if s.Device == 0 {
				return s.Allocated
			}
		}
		t.Fatal("no memory stats for cuda:0")
		return 0
	}
	x := tensor.Ones(1000, 2).To(dev) // 8000 bytes: an 8192-byte block
	v := x.T()
	before := allocated()
	x.Free()
	x.Free() // a second Free does nothing
	if got := before - allocated(); got != 8192 {
		t.Errorf("Free gave back %d bytes, want 8192", got)
	}
	for name, f := range map[string]func(){
		"x.Sum":    func() { x.Sum() },
		"view.Add": func() { v.Add(v) },
		"x.CPU":    func() { x.CPU() },
	} {
		err := tensor.Try(f)
		var de *tensor.DeviceError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), "freed") {
			t.Errorf("%s after Free: %v, want a *tensor.DeviceError about the freed memory", name, err)
		}
	}

	c := tensor.Ones(3)
	c.Free()
	if got := c.Sum().Item(); got != 3 {
		t.Errorf("a CPU tensor after Free sums to %v, want 3", got)
	}
}

// TestRandOn draws random tensors on the device: reproducible under
// ManualSeed, one seed per call whatever the device (so the CPU's
// sequence after it is unchanged), and with the right distribution.
func TestRandOn(t *testing.T) {
	dev := tensor.CUDA(0)
	const n = 20000
	tensor.ManualSeed(5)
	a := tensor.RandnOn(dev, n)
	after := tensor.Rand(4).Float32s()
	tensor.ManualSeed(5)
	b := tensor.RandnOn(dev, n)
	if a.Device() != dev || a.DType() != tensor.Float32 {
		t.Fatalf("RandnOn(cuda:0) gave a %v tensor on %v", a.DType(), a.Device())
	}
	if !equalFloat32s(a.Float32s(), b.Float32s()) {
		t.Error("RandnOn gave different tensors after the same ManualSeed")
	}
	tensor.ManualSeed(5)
	tensor.Rand(1)
	if want := tensor.Rand(4).Float32s(); !equalFloat32s(after, want) {
		t.Errorf("Rand after RandnOn = %v, want %v (RandnOn must draw exactly one seed)", after, want)
	}

	v := a.Float64s()
	mean, std := 0.0, 0.0
	for _, x := range v {
		mean += x
	}
	mean /= n
	for _, x := range v {
		std += (x - mean) * (x - mean)
	}
	std = math.Sqrt(std / n)
	if math.Abs(mean) > 5/math.Sqrt(n) || math.Abs(std-1) > 0.02 {
		t.Errorf("RandnOn: mean %.4f, std %.4f; want 0 and 1", mean, std)
	}

	u := tensor.RandOn(dev, 100, 200)
	if got := u.Shape(); got[0] != 100 || got[1] != 200 {
		t.Errorf("RandOn shape %v, want [100 200]", got)
	}
	if lo, hi := u.MinAll().Item(), u.MaxAll().Item(); lo < 0 || hi >= 1 {
		t.Errorf("RandOn: elements in [%v, %v], want [0, 1)", lo, hi)
	}
	k := tensor.RandIntOn(dev, -2, 3, 1000)
	if k.DType() != tensor.Int64 || k.MinAll().Item() != -2 || k.MaxAll().Item() != 2 {
		t.Errorf("RandIntOn(-2, 3): %v elements in [%v, %v], want Int64 in [-2, 2]", k.DType(), k.MinAll().Item(), k.MaxAll().Item())
	}
	if err := tensor.Try(func() { tensor.RandIntOn(dev, 3, 3, 2) }); err == nil {
		t.Error("RandIntOn(3, 3): no error for an empty range")
	}

	// On the CPU, RandOn is Rand.
	tensor.ManualSeed(9)
	c := tensor.RandOn(tensor.CPU, 50).Float32s()
	tensor.ManualSeed(9)
	if want := tensor.Rand(50).Float32s(); !equalFloat32s(c, want) {
		t.Error("RandOn(CPU) differs from Rand under the same seed")
	}
}

func equalFloat32s(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDisplay renders CUDA tensors without a manual .CPU(): the HTML and
// text are the CPU tensor's, but for the device label.
func TestDisplay(t *testing.T) {
	dev := tensor.CUDA(0)
	tensor.ManualSeed(3)
	big := tensor.Randn(40, 50) // summarised
	for i, x := range []*tensor.Tensor{
		tensor.Scalar(2.5),
		tensor.Arange(0, 6, 1).Reshape(2, 3),
		tensor.Randn(2, 3, 4),
		big,
		big.T().Narrow(0, 1, 5), // a non-contiguous view
		tensor.FromInts([]int{3, -1, 4}, 3),
		tensor.FromFloat64s([]float64{1.5, 2}, 2),
	} {
		want := display.Render(x)
		got := display.Render(x.To(dev))
		for _, mime := range []string{"text/plain", "text/html"} {
			w, _ := want.Data[mime].(string)
			g, _ := got.Data[mime].(string)
			if w == "" {
				t.Fatalf("case %d: no %s", i, mime)
			}
			if mime == "text/plain" {
				g = deviceSuffix.ReplaceAllString(g, "")
			} else {
				g = strings.Replace(g, "cuda:0", "cpu", 1)
			}
			if g != w {
				t.Errorf("case %d: %s of the CUDA tensor\n%s\nwant the CPU tensor's\n%s", i, mime, g, w)
			}
		}
	}
}

// deviceSuffix is the device label of a CUDA tensor's text form, which may
// start a line of its own.
var deviceSuffix = regexp.MustCompile(`,\s*device='cuda:0'`)

// TestReport checks the %gpu summary on the emulated device.
func TestReport(t *testing.T) {
	x := tensor.Zeros(10).To(tensor.CUDA(0))
	r := Report()
	first := Devices()[0].String() + "\n"
	if Devices()[0].Emulated {
		first = "cuda:0 gotensor CUDA emulator 0, compute 7.0, 4.0 GiB (emulated)\n"
	}
	for _, want := range []string{first, "allocated", "cached", "peak"} {
		if !strings.Contains(r, want) {
			t.Errorf("Report() = %q lacks %q", r, want)
		}
	}
	Synchronize()
	x.Free()
}

// TestDefaultDevice: with a CUDA device registered (here the emulated
// one), DefaultDevice is CUDA(0).
func TestDefaultDevice(t *testing.T) {
	if d := tensor.DefaultDevice(); d != tensor.CUDA(0) {
		t.Errorf("DefaultDevice() = %v with an emulated device, want cuda:0", d)
	}
}
