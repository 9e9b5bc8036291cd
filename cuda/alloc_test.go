//go:build cgo

package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/cuda/internal/emu"
	"github.com/gotensor/gotensor/tensorlib/tensor"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// smallDevice opens a private emulated device with mem bytes of memory.
func smallDevice(t *testing.T, mem int64) (*deviceBackend, *emu.Driver) {
	t.Helper()
	drv := emu.New(emu.Options{Memory: mem})
	d, err := openDevice(90, func() (driver.Driver, error) { return drv, nil })
	if err != nil {
		t.Fatal(err)
	}
	return &deviceBackend{dev: d}, drv
}

func TestRoundSize(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{0, 512}, {1, 512}, {512, 512}, {513, 1024}, {1 << 20, 1 << 20}, {1<<20 + 1, 2 << 20}, {5 << 20, 6 << 20},
	} {
		if got := roundSize(c.n); got != c.want {
			t.Errorf("roundSize(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

func TestAllocatorReuseAndStats(t *testing.T) {
	b, drv := smallDevice(t, 1<<30)
	a := b.dev.alloc
	s1 := b.Alloc(tensor.Float32, 1000).(*storage) // 4000 bytes -> 4096
	s2 := b.Alloc(tensor.Float64, 10).(*storage)   // 80 -> 512
	if al, ca, pk := a.stats(); al != 4096+512 || ca != 0 || pk != 4096+512 {
		t.Fatalf("stats = %d allocated, %d cached, %d peak; want 4608, 0, 4608", al, ca, pk)
	}
	p1 := s1.ptr
	s1.Free()
	s1.Free() // idempotent
	if al, ca, _ := a.stats(); al != 512 || ca != 4096 {
		t.Fatalf("after Free: %d allocated, %d cached; want 512, 4096", al, ca)
	}
	s3 := b.Alloc(tensor.Int64, 500).(*storage) // 4000 -> 4096: the cached block
	if s3.ptr != p1 {
		t.Error("a block of the same bucket was not reused")
	}
	if drv.Used() != 4096+512 {
		t.Errorf("driver holds %d bytes, want 4608 (no new allocation)", drv.Used())
	}
	// Reused memory is zeroed by Alloc.
	if v := b.ToHost(s3, backend.Contiguous([]int{500})).([]int64); v[0] != 0 || v[499] != 0 {
		t.Error("Alloc did not zero a reused block")
	}
	s3.Free()
	b.dev.do(a.emptyCache)
	if al, ca, pk := a.stats(); al != 512 || ca != 0 || pk != 4608 {
		t.Errorf("after emptyCache: %d allocated, %d cached, %d peak; want 512, 0, 4608", al, ca, pk)
	}
	if drv.Used() != 512 {
		t.Errorf("driver holds %d bytes after emptyCache, want 512", drv.Used())
	}
	runtime.KeepAlive(s2)
}

func TestUseAfterFree(t *testing.T) {
	x := tensor.Ones(4).To(tensor.CUDA(0))
	x.Detach().Free() // a view frees the storage it shares with x
	err := tensor.Try(func() { x.Float32s() })
	var de *tensor.DeviceError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "freed") {
		t.Errorf("use after Free: %v", err)
	}
}

// TestOutOfMemory fills a 1 MiB device: an allocation that fits only once
// unreachable tensors are collected succeeds after the GC retry; one that
// cannot fit panics with an *OutOfMemoryError.
func TestOutOfMemory(t *testing.T) {
	b, _ := smallDevice(t, 1<<20)
	const quarter = 256 << 10 / 4 // float32 elements in 256 KiB
	keep := []backend.Storage{b.Alloc(tensor.Float32, quarter), b.Alloc(tensor.Float32, quarter)}
	func() {
		// Unreachable after this function: only the GC can free them.
		b.Alloc(tensor.Float32, quarter)
		b.Alloc(tensor.Float32, quarter)
	}()
	s := b.Alloc(tensor.Float32, 2*quarter) // needs the two lost blocks
	keep = append(keep, s)

	var oom *OutOfMemoryError
	err, _ := catch(func() { b.Alloc(tensor.Float32, quarter) }).(error)
	if !errors.As(err, &oom) {
		t.Fatalf("allocating on a full device: %v (%T), want *OutOfMemoryError", err, err)
	}
	if oom.Requested != 256<<10 || oom.Allocated != 1<<20 || oom.Total != 1<<20 || oom.Cached != 0 {
		t.Errorf("error fields %+v", *oom)
	}
	// What holds the memory: the two 256 KiB tensors kept and the 512 KiB one.
	if len(oom.Largest) != 2 || oom.Largest[0] != (LiveTensors{tensor.Float32, 2 * quarter, 1, 512 << 10}) ||
		oom.Largest[1] != (LiveTensors{tensor.Float32, quarter, 2, 512 << 10}) {
		t.Errorf("largest live tensors %v", oom.Largest)
	}
	for _, want := range []string{"cuda:90", "256.0 KiB", "1.0 MiB held by tensors", "x.Free()",
		"the largest live tensors: 1 × float32[131072] (512.0 KiB each), 2 × float32[65536] (256.0 KiB each)", "%gpu lists them"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q lacks %q", err, want)
		}
	}
	if !errors.Is(err, driver.ErrOutOfMemory) {
		t.Error("the error does not wrap driver.ErrOutOfMemory")
	}
	runtime.KeepAlive(keep)
}

// TestCrossGoroutine uses tensors made on one goroutine from others, as
// notebook cells do.
func TestCrossGoroutine(t *testing.T) {
	x := tensor.FromFloat32s([]float32{1, 2, 3}, 3).To(tensor.CUDA(0))
	done := make(chan *tensor.Tensor)
	go func() { done <- x.MulScalar(2) }()
	y := <-done
	go func() { done <- y.Add(x) }()
	if got := (<-done).Float32s(); got[0] != 3 || got[1] != 6 || got[2] != 9 {
		t.Errorf("got %v, want [3 6 9]", got)
	}
}

func TestDevicesAndStats(t *testing.T) {
	ds := Devices()
	if len(ds) < 1 || ds[0].Major < 7 || ds[0].Memory <= 0 {
		t.Fatalf("Devices() = %v", ds)
	}
	emulated := ds[0].Emulated
	if emulated && (len(ds) != 1 || ds[0].Major != 7 || ds[0].Memory != emu.DefaultMemory) {
		t.Fatalf("Devices() = %v, want one emulated device of compute 7.x and the default memory", ds)
	}
	x := tensor.Zeros(1000).To(tensor.CUDA(0))
	var st Stats
	for _, s := range MemoryStats() {
		if s.Device == 0 {
			st = s
		}
	}
	if st.Allocated < 4000 || st.Peak < st.Allocated || (emulated && st.Total != emu.DefaultMemory) || st.Total != ds[0].Memory {
		t.Errorf("MemoryStats = %+v with a 4000-byte tensor alive", st)
	}
	runtime.KeepAlive(x)
	EmptyCache()
	for _, s := range MemoryStats() {
		if s.Cached != 0 {
			t.Errorf("cuda:%d: %d bytes cached after EmptyCache", s.Device, s.Cached)
		}
	}
	if err := tensor.Try(func() { tensor.CUDA(len(ds)) }); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("no device %d", len(ds))) {
		t.Errorf("CUDA(%d) with %d devices: %v", len(ds), len(ds), err)
	}
}

// catch returns what f panics with, or nil.
func catch(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// TestDeadTensorsDoNotFillTheDevice checks that device memory paces the
// garbage collector: tensors dropped without Free come back before the
// device fills, so what the allocator holds stays near its soft cap
// instead of growing to the whole device.
func TestDeadTensorsDoNotFillTheDevice(t *testing.T) {
	d, err := getDevice(0)
	if err != nil {
		t.Fatal(err)
	}
	total := Devices()[0].Memory
	const size = 64 << 20 // bytes per tensor
	n := int(total/size) + 8
	if n > 200 {
		n = 200 // a big GPU: 12.5 GiB of garbage is enough to show it
	}
	var peakHeld int64
	for i := 0; i < n; i++ {
		// Device storage as a tensor holds it, dropped at once; no host
		// memory, so only device memory can pace the collector.
		d.do(func() { d.newStorage(tensor.Float32, size/4) })
		for _, s := range MemoryStats() {
			if s.Device == 0 {
				peakHeld = max(peakHeld, s.Allocated+s.Cached)
			}
		}
	}
	// The cap on allocated memory is minLimit, doubled at most to twice
	// what is live (one tensor here), and the cache is given back past
	// twice the cap.
	if limit := 2*(d.alloc.minLimit()+2*size) + size; peakHeld > limit {
		t.Errorf("the allocator held up to %d MiB for %d dead tensors of %d MiB; want at most %d MiB",
			peakHeld>>20, n, size>>20, limit>>20)
	}
	runtime.GC()
	EmptyCache()
}
