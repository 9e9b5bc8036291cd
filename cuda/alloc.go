package cuda

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// allocator is a device's caching allocator. Blocks are rounded up to a
// bucket size (roundSize) and, when released, kept on the free list of
// their size for reuse instead of going back to the driver, whose
// allocations synchronize the device and are slow.
//
// malloc and emptyCache call the driver and run inside device.do;
// release may run anywhere (finalizers run on their own goroutine), so the
// lists and counters sit behind a mutex.
type allocator struct {
	dev int
	drv driver.Driver

	mu        sync.Mutex
	free      map[int][]driver.DevicePtr
	allocated int64 // bytes in blocks handed out
	cached    int64 // bytes in free lists
	peak      int64 // highest allocated
	total     int64 // bytes held from the driver (allocated + cached)
	// limit is the soft cap on allocated: past it, malloc collects garbage
	// before asking the driver for more (see malloc).
	limit int64

	// What the blocks handed out hold (track), for MemoryAllocated and
	// for saying what fills the device.
	live      map[driver.DevicePtr]liveBlock
	tensors   int64 // bytes of the live storages, each rounded up to 512 (PyTorch's memory_allocated)
	peakTens  int64 // highest tensors
	peakTotal int64 // highest total
	counts    allocCounts
}

// liveBlock is what a block handed out holds: n elements of dt.
type liveBlock struct {
	dt tensor.DType
	n  int
}

// allocCounts are the allocator's event counts since the device opened.
type allocCounts struct {
	mallocs, fromCache, driverAllocs, cacheFlushes, ooms int64
}

func newAllocator(dev int, drv driver.Driver) *allocator {
	a := &allocator{dev: dev, drv: drv, free: map[int][]driver.DevicePtr{}, live: map[driver.DevicePtr]liveBlock{}}
	a.limit = a.minLimit()
	return a
}

// minLimit is the smallest soft cap on allocated memory: 4 GiB, or an
// eighth of a smaller device's memory.
func (a *allocator) minLimit() int64 {
	return min(4<<30, a.drv.Props().TotalMem/8)
}

// Bucket sizes: multiples of 512 bytes below 1 MiB, of 2 MiB above.
const (
	smallAlign = 512
	smallMax   = 1 << 20
	largeAlign = 2 << 20
)

// roundSize returns the bucket size for n bytes.
func roundSize(n int) int {
	if n <= smallMax {
		return max(smallAlign, (n+smallAlign-1)/smallAlign*smallAlign)
	}
	return (n + largeAlign - 1) / largeAlign * largeAlign
}

// malloc returns a block of at least n bytes and its bucket size.
func (a *allocator) malloc(n int) (driver.DevicePtr, int) {
	size := roundSize(n)
	a.mu.Lock()
	a.counts.mallocs++
	a.mu.Unlock()
	if p, ok := a.reuse(size); ok {
		return p, size
	}
	a.mu.Lock()
	over := a.allocated+int64(size) > a.limit
	a.mu.Unlock()
	if over {
		// Tensors give their memory back through finalizers, which run
		// only after a garbage collection, and the Go heap (which paces
		// collections) does not see device memory. So device memory
		// paces them too, as GOGC does the heap: past twice what was in
		// use after the last collection, collect before growing, and
		// keep the device from filling up with dead tensors.
		collectGarbage()
		if p, ok := a.reuse(size); ok {
			return p, size
		}
		a.mu.Lock()
		a.limit = max(a.minLimit(), 2*(a.allocated+int64(size)))
		bloated := a.total+int64(size) > 2*a.limit
		a.mu.Unlock()
		// The cache is kept (giving it back to the driver and taking it
		// again costs a device synchronization and slow driver calls
		// each time), unless it has grown past the cap on what is in use.
		if bloated {
			a.emptyCache()
		}
	}
	p, err := a.drv.Alloc(size)
	if errors.Is(err, driver.ErrOutOfMemory) {
		// Give the cache back, then let the garbage collector find
		// tensors nobody references and finalize them, and try again.
		a.emptyCache()
		if p, err = a.drv.Alloc(size); errors.Is(err, driver.ErrOutOfMemory) {
			collectGarbage()
			if q, ok := a.reuse(size); ok {
				return q, size
			}
			a.emptyCache()
			p, err = a.drv.Alloc(size)
		}
	}
	if err != nil {
		if errors.Is(err, driver.ErrOutOfMemory) {
			a.mu.Lock()
			a.counts.ooms++
			a.mu.Unlock()
			panic(a.oomError(n, err))
		}
		panic(&DriverError{Device: a.dev, Op: fmt.Sprintf("allocating %d bytes", size), Err: err})
	}
	a.mu.Lock()
	a.allocated += int64(size)
	a.total += int64(size)
	a.peak = max(a.peak, a.allocated)
	a.peakTotal = max(a.peakTotal, a.total)
	a.counts.driverAllocs++
	a.mu.Unlock()
	return p, size
}

// track records that the block at p, just handed out, holds n elements of
// dt.
func (a *allocator) track(p driver.DevicePtr, dt tensor.DType, n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.live[p] = liveBlock{dt: dt, n: n}
	a.tensors += tensorBytes(dt, n)
	a.peakTens = max(a.peakTens, a.tensors)
}

// tensorBytes is what n elements of dt count in MemoryAllocated: their
// bytes rounded up to 512, as PyTorch's allocator counts them.
func tensorBytes(dt tensor.DType, n int) int64 {
	return (int64(n*elemSize(dt)) + smallAlign - 1) / smallAlign * smallAlign
}

func (a *allocator) reuse(size int) (driver.DevicePtr, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	list := a.free[size]
	if len(list) == 0 {
		return 0, false
	}
	p := list[len(list)-1]
	a.free[size] = list[:len(list)-1]
	a.cached -= int64(size)
	a.allocated += int64(size)
	a.peak = max(a.peak, a.allocated)
	a.counts.fromCache++
	return p, true
}

// release puts a block back on its free list. Safe from any goroutine.
func (a *allocator) release(p driver.DevicePtr, size int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.free[size] = append(a.free[size], p)
	a.allocated -= int64(size)
	a.cached += int64(size)
	if b, ok := a.live[p]; ok {
		a.tensors -= tensorBytes(b.dt, b.n)
		delete(a.live, p)
	}
}

// emptyCache returns every cached block to the driver, after the device
// has finished the work queued before (a cached block may have been freed
// by a tensor that an in-flight kernel still reads).
func (a *allocator) emptyCache() {
	if err := a.drv.Synchronize(); err != nil {
		panic(&DriverError{Device: a.dev, Op: "waiting for the device before emptying the cache", Err: err})
	}
	a.mu.Lock()
	free := a.free
	a.free = map[int][]driver.DevicePtr{}
	a.counts.cacheFlushes++
	a.mu.Unlock()
	for size, list := range free {
		for _, p := range list {
			if err := a.drv.Free(p); err != nil {
				panic(&DriverError{Device: a.dev, Op: "freeing device memory", Err: err})
			}
			a.mu.Lock()
			a.cached -= int64(size)
			a.total -= int64(size)
			a.mu.Unlock()
		}
	}
}

func (a *allocator) stats() (allocated, cached, peak int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.allocated, a.cached, a.peak
}

func (a *allocator) oomError(n int, cause error) *OutOfMemoryError {
	allocated, cached, _ := a.stats()
	return &OutOfMemoryError{Device: a.dev, Requested: int64(n), Allocated: allocated,
		Cached: cached, Total: a.drv.Props().TotalMem, Largest: a.largest(maxHolders), cause: cause}
}

// maxHolders is how many groups of live tensors an out-of-memory error
// and MemorySummary list.
const maxHolders = 5

// largest returns the live storages grouped by dtype and length, the
// groups that hold the most memory first (at most k groups).
func (a *allocator) largest(k int) []LiveTensors {
	a.mu.Lock()
	groups := map[liveBlock]int{}
	for _, b := range a.live {
		groups[b]++
	}
	a.mu.Unlock()
	out := make([]LiveTensors, 0, len(groups))
	for b, c := range groups {
		out = append(out, LiveTensors{DType: b.dt, Elements: b.n, Count: c, Bytes: int64(c) * int64(b.n*elemSize(b.dt))})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Bytes != out[j].Bytes {
			return out[i].Bytes > out[j].Bytes
		}
		if out[i].Elements != out[j].Elements {
			return out[i].Elements > out[j].Elements
		}
		return out[i].DType < out[j].DType
	})
	if len(out) > k {
		out = out[:k]
	}
	return out
}

// collectGarbage runs the Go garbage collector and waits (up to a second)
// for the finalizers it queues, which release unreachable tensors' device
// memory to the allocator.
func collectGarbage() {
	runtime.GC()
	type sentinel struct {
		p *int
		_ [16]byte // not a tiny allocation, so the finalizer runs
	}
	done := make(chan struct{})
	s := &sentinel{}
	runtime.SetFinalizer(s, func(*sentinel) { close(done) })
	s = nil
	runtime.GC()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
}
