package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// chunksPerWorker is how many chunks For cuts per goroutine: more than one,
// so that a goroutine slowed by other work on the machine is balanced by the
// others, and so that the interrupt hook is consulted a few times per call.
const chunksPerWorker = 4

// For calls fn on disjoint ranges [lo, hi) that together cover [0, n), in
// parallel on up to runtime.GOMAXPROCS goroutines, and returns when all
// calls have returned. Each range holds at least grain items (grain < 1
// counts as 1); when n < 2*grain, For calls fn(0, n) on the calling
// goroutine. fn must be safe to call concurrently on disjoint ranges. For
// may be called from inside fn.
//
// If a call of fn panics, For stops starting new ranges and, once the
// running ones return, panics in the caller with the same value (the first
// one, if several panicked). If the caller's interrupt hook
// (backend.InterruptHook, read once on the calling goroutine) reports true
// before a range starts, on any goroutine, For panics with
// backend.ErrInterrupted in the same way.
//
// Example, doubling a slice:
//
//	parallel.For(len(x), 1<<14, func(lo, hi int) {
//		for i := lo; i < hi; i++ {
//			x[i] *= 2
//		}
//	})
func For(n, grain int, fn func(lo, hi int)) {
	if n <= 0 {
		return
	}
	if grain < 1 {
		grain = 1
	}
	stop := backend.InterruptHook()
	if n < 2*grain {
		if stop() {
			panic(backend.ErrInterrupted)
		}
		fn(0, n)
		return
	}
	procs := runtime.GOMAXPROCS(0)
	size := max(grain, (n+procs*chunksPerWorker-1)/(procs*chunksPerWorker))
	// The last chunk takes the remainder, so no chunk is shorter than grain.
	r := loop{n: n, size: size, chunks: n / size, fn: fn, stopHook: stop}
	workers := min(procs, r.chunks)
	r.wg.Add(workers - 1)
	for range workers - 1 {
		go func() {
			defer r.wg.Done()
			// A For inside fn, on this goroutine, stops with the caller.
			defer backend.BindInterruptHook(stop)()
			r.work()
		}()
	}
	r.work()
	r.wg.Wait()
	if r.failed.Load() {
		panic(r.panicVal)
	}
	if r.interrupted.Load() {
		panic(backend.ErrInterrupted)
	}
}

// loop is the shared state of one For call.
type loop struct {
	n, size, chunks int
	fn              func(lo, hi int)
	stopHook        func() bool // the caller's interrupt hook

	next        atomic.Int64 // index of the next chunk to run
	stop        atomic.Bool  // set on panic or interrupt: start no more chunks
	interrupted atomic.Bool
	failed      atomic.Bool
	panicOnce   sync.Once
	panicVal    any
	wg          sync.WaitGroup
}

// work runs chunks until none are left or the loop stops.
func (r *loop) work() {
	for !r.stop.Load() {
		if r.stopHook() {
			r.interrupted.Store(true)
			r.stop.Store(true)
			return
		}
		i := int(r.next.Add(1) - 1)
		if i >= r.chunks {
			return
		}
		lo, hi := i*r.size, (i+1)*r.size
		if i == r.chunks-1 {
			hi = r.n
		}
		r.run(lo, hi)
	}
}

// run calls fn(lo, hi), recording a panic instead of letting it escape.
func (r *loop) run(lo, hi int) {
	defer func() {
		if v := recover(); v != nil {
			r.panicOnce.Do(func() {
				r.panicVal = v
				r.failed.Store(true)
			})
			r.stop.Store(true)
		}
	}()
	r.fn(lo, hi)
}
