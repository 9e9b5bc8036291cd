package parallel

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

func TestForCoversRangeOnce(t *testing.T) {
	for _, tc := range []struct{ n, grain int }{
		{0, 10}, {1, 10}, {19, 10}, {20, 10}, {21, 10}, {1000, 1}, {1000, 0}, {1 << 20, 1000}, {12345, 77},
	} {
		t.Run(fmt.Sprintf("n=%d,grain=%d", tc.n, tc.grain), func(t *testing.T) {
			hits := make([]int32, tc.n)
			var calls atomic.Int32
			For(tc.n, tc.grain, func(lo, hi int) {
				calls.Add(1)
				if hi-lo < max(tc.grain, 1) && !(lo == 0 && hi == tc.n) {
					t.Errorf("range [%d, %d) is shorter than grain %d", lo, hi, tc.grain)
				}
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&hits[i], 1)
				}
			})
			for i, h := range hits {
				if h != 1 {
					t.Fatalf("index %d visited %d times, want 1", i, h)
				}
			}
			if tc.n == 0 && calls.Load() != 0 {
				t.Fatalf("n=0: fn called %d times, want 0", calls.Load())
			}
			if tc.n > 0 && tc.n < 2*max(tc.grain, 1) && calls.Load() != 1 {
				t.Fatalf("n < 2*grain: fn called %d times, want once inline", calls.Load())
			}
		})
	}
}

func TestForRunsInParallel(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("GOMAXPROCS < 2")
	}
	// Every chunk waits until a second chunk has started: this finishes only
	// if two chunks run at the same time.
	var arrived atomic.Int32
	both := make(chan struct{})
	var once sync.Once
	For(8, 1, func(lo, hi int) {
		if arrived.Add(1) == 2 {
			once.Do(func() { close(both) })
		}
		select {
		case <-both:
		case <-time.After(5 * time.Second):
			t.Error("chunks did not run concurrently")
		}
	})
}

type kernelError struct{ op string }

func (e *kernelError) Error() string { return "tensor: " + e.op + ": bad shape" }

func TestForRepanicsInCaller(t *testing.T) {
	want := &kernelError{"Add"}
	var ran atomic.Int32
	got := func() (r any) {
		defer func() { r = recover() }()
		For(1000, 10, func(lo, hi int) {
			ran.Add(1)
			if lo <= 500 && 500 < hi {
				panic(want)
			}
		})
		return nil
	}()
	if got != want {
		t.Fatalf("recovered %v (%T), want the *kernelError the chunk panicked with", got, got)
	}
	// Later chunks are not started once one failed (in-flight ones finish).
	if n := ran.Load(); n == 0 {
		t.Fatalf("no chunk ran")
	}

	// A runtime error in a chunk arrives as a runtime.Error.
	got = func() (r any) {
		defer func() { r = recover() }()
		var s []int
		For(100, 10, func(lo, hi int) { _ = s[lo] })
		return nil
	}()
	if _, ok := got.(runtime.Error); !ok {
		t.Fatalf("recovered %v (%T), want a runtime.Error", got, got)
	}
}

func TestForInterrupt(t *testing.T) {
	var checks atomic.Int32
	backend.SetInterruptHook(func() bool { return checks.Add(1) > 3 })
	defer backend.SetInterruptHook(nil)

	var ran atomic.Int32
	got := func() (r any) {
		defer func() { r = recover() }()
		For(1<<20, 1, func(lo, hi int) { ran.Add(1) })
		return nil
	}()
	if err, ok := got.(error); !ok || !errors.Is(err, backend.ErrInterrupted) {
		t.Fatalf("recovered %v, want backend.ErrInterrupted", got)
	}
	if n := ran.Load(); n > 3 {
		t.Fatalf("%d chunks ran after the hook allowed 3", n)
	}

	// Small loops that run inline check the hook too.
	got = func() (r any) {
		defer func() { r = recover() }()
		For(5, 10, func(lo, hi int) { t.Error("inline chunk ran after an interrupt") })
		return nil
	}()
	if got != backend.ErrInterrupted {
		t.Fatalf("inline: recovered %v, want backend.ErrInterrupted", got)
	}

	// Removing the hook lets loops run again.
	backend.SetInterruptHook(nil)
	ran.Store(0)
	For(1000, 10, func(lo, hi int) { ran.Add(int32(hi - lo)) })
	if ran.Load() != 1000 {
		t.Fatalf("after removing the hook, %d of 1000 items ran", ran.Load())
	}
}

func TestForNested(t *testing.T) {
	var total atomic.Int64
	For(64, 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			For(1000, 10, func(lo, hi int) { total.Add(int64(hi - lo)) })
		}
	})
	if total.Load() != 64*1000 {
		t.Fatalf("nested loops covered %d items, want %d", total.Load(), 64*1000)
	}
}

// TestForInterruptPerGoroutine runs two loops side by side, each on a
// goroutine with a hook of its own, and interrupts one: the other runs to
// completion, nested loops in its chunks included, while the interrupted
// one stops, nested loops in its chunks included.
func TestForInterruptPerGoroutine(t *testing.T) {
	var stopA atomic.Bool
	type result struct {
		items int64
		r     any
	}
	// gate holds A's chunks until A is interrupted, so that A cannot end
	// first on a busy machine.
	gateA := func() {
		for !stopA.Load() {
			time.Sleep(time.Millisecond)
		}
	}
	run := func(hook func() bool, gate func(), started chan<- struct{}, out chan<- result) {
		defer backend.BindInterruptHook(hook)()
		var items atomic.Int64
		var once sync.Once
		defer func() { out <- result{items.Load(), recover()} }()
		For(64, 1, func(lo, hi int) {
			once.Do(func() { close(started) })
			for range hi - lo {
				For(1000, 10, func(lo, hi int) {
					items.Add(int64(hi - lo))
					gate()
				})
			}
		})
	}
	startedA, startedB := make(chan struct{}), make(chan struct{})
	outA, outB := make(chan result, 1), make(chan result, 1)
	go run(stopA.Load, gateA, startedA, outA)
	go run(func() bool { return false }, func() {}, startedB, outB)
	<-startedA
	<-startedB
	stopA.Store(true)
	a, b := <-outA, <-outB
	if a.r != backend.ErrInterrupted {
		t.Errorf("interrupted loop: recovered %v, want backend.ErrInterrupted", a.r)
	}
	if a.items >= 64*1000 {
		t.Errorf("interrupted loop ran all its %d items", a.items)
	}
	if b.r != nil || b.items != 64*1000 {
		t.Errorf("the other loop: recovered %v after %d items, want nil after %d", b.r, b.items, 64*1000)
	}
	if backend.Interrupted() {
		t.Error("a goroutine without a hook reports an interrupt")
	}
}
