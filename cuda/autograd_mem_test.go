//go:build cgo

package cuda

import (
	"errors"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// allocated returns the bytes held by live tensors on cuda:0.
func allocated(t *testing.T) (live, peak int64) {
	t.Helper()
	for _, s := range MemoryStats() {
		if s.Device == 0 {
			return s.Allocated, s.Peak
		}
	}
	t.Fatal("cuda:0 is not open")
	return 0, 0
}

// quiesce turns Go's collector off until the test ends and runs the
// finalizers of what is already garbage, so that no finalizer of an
// earlier test's tensor frees device memory while a test measures it.
func quiesce(t *testing.T) {
	t.Helper()
	old := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetGCPercent(old) })
	// Finalizers run one after another on one goroutine: once a sentinel
	// made garbage after the others has run, those queued before it have.
	for range 2 {
		done := make(chan struct{})
		sentinel := new([64]byte) // not a tiny allocation, whose finalizer may never run
		runtime.SetFinalizer(sentinel, func(*[64]byte) { close(done) })
		sentinel = nil
		runtime.GC()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("finalizers did not run within 10 s")
		}
	}
}

// TestBackwardFreesIntermediateGradients checks that Backward gives each
// intermediate gradient's device memory back to the allocator as soon as
// it is consumed, with the garbage collector off: through a chain of 16
// ops of S bytes each, the memory in use never grows by more than a few
// S during backward (not 16 S), and after it only the leaf's gradient
// remains.
func TestBackwardFreesIntermediateGradients(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	const n, depth = 1 << 16, 16
	const size = 4 * n // bytes of one [n] Float32 tensor, a bucket size
	x := tensor.Ones(n).To(tensor.CUDA(0)).SetRequiresGrad(true)
	y := x
	for i := 0; i < depth; i++ {
		y = y.MulScalar(1.5)
	}
	loss := y.Sum()
	before, _ := allocated(t)
	ResetPeak()
	loss.Backward()
	after, peak := allocated(t)
	if grow := peak - before; grow > 3*size {
		t.Errorf("backward through %d ops of %d bytes raised the memory in use by %d bytes at its peak, want at most %d (intermediate gradients not freed)",
			depth, size, grow, 3*size)
	}
	if grow := after - before; grow > 2*size {
		t.Errorf("after backward %d more bytes are in use, want at most %d (the leaf's gradient)", grow, 2*size)
	}
	// The gradient is 1.5¹⁶ everywhere.
	want := math.Pow(1.5, depth)
	g := x.Grad().Float32s()
	for i, v := range g {
		if math.Abs(float64(v)-want) > 1e-4*want {
			t.Fatalf("x.Grad()[%d] = %v, want %v", i, v, want)
		}
	}

	// A second Backward is a clear error, not wrong numbers.
	err := tensor.Try(func() { loss.Backward() })
	var ge *tensor.GradError
	if !errors.As(err, &ge) || !strings.Contains(err.Error(), "Backward through the graph a second time") {
		t.Errorf("second Backward: %v, want a *tensor.GradError saying \"Backward through the graph a second time\"", err)
	}
	if g2 := x.Grad().Float32s(); g2[0] != g[0] {
		t.Errorf("the failed second Backward changed x.Grad() from %v to %v", g[0], g2[0])
	}
	runtime.KeepAlive(loss)
}

// TestBackwardReleasesSavedTensors checks that the graph drops what its
// closures saved (the forward intermediates) once backward has run, so
// that the collector reclaims their device memory while the loss, whose
// node is the graph's root, is still held.
func TestBackwardReleasesSavedTensors(t *testing.T) {
	const n, depth = 1 << 16, 8
	base, _ := allocated(t)
	x := tensor.Ones(n).To(tensor.CUDA(0)).SetRequiresGrad(true)
	y := x
	for i := 0; i < depth; i++ {
		y = y.Exp().MulScalar(0.5) // Exp saves its output
	}
	loss := y.Sum()
	y = nil
	loss.Backward()
	var live int64
	for try := 0; try < 50; try++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // finalizers run on their own goroutine
		if live, _ = allocated(t); live-base <= 3*4*n {
			break
		}
	}
	if live-base > 3*4*n {
		t.Errorf("%d bytes still in use after backward and collection, want at most %d (x, its gradient, the loss): the graph keeps saved tensors", live-base, 3*4*n)
	}
	runtime.KeepAlive(loss)
	runtime.KeepAlive(x)
}
