package data

import (
	"fmt"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// rowsDataset returns n examples: x[i] = [i, 100+i] and y[i] = 10*i, so
// that a batch shows which examples it holds and whether x and y agree.
func rowsDataset(n int) *Dataset {
	xs := make([]float32, 0, 2*n)
	ys := make([]int64, n)
	for i := 0; i < n; i++ {
		xs = append(xs, float32(i), float32(100+i))
		ys[i] = int64(10 * i)
	}
	return NewTensorDataset(tensor.FromFloat32s(xs, n, 2), tensor.FromInt64s(ys))
}

// batchIDs returns the example numbers of a rowsDataset batch, checking
// that x and y belong together.
func batchIDs(t *testing.T, x, y *tensor.Tensor) []int {
	t.Helper()
	xs, ys := x.Float32s(), y.Int64s()
	if x.Size(0) != y.Size(0) || x.Size(1) != 2 {
		t.Fatalf("batch shapes %v, %v", x.Shape(), y.Shape())
	}
	ids := make([]int, len(ys))
	for i := range ids {
		ids[i] = int(xs[2*i])
		if xs[2*i+1] != float32(100+ids[i]) || ys[i] != int64(10*ids[i]) {
			t.Fatalf("row %d of the batch mixes examples: x %v, y %d", i, xs[2*i:2*i+2], ys[i])
		}
	}
	return ids
}

// epochIDs runs one epoch and returns the example numbers of each batch.
func epochIDs(t *testing.T, l *Loader) [][]int {
	t.Helper()
	var out [][]int
	for l.Next() {
		x, y := l.Batch()
		out = append(out, batchIDs(t, x, y))
	}
	return out
}

func TestLoaderSequential(t *testing.T) {
	ds := rowsDataset(10)
	l := NewLoader(ds, 4)
	if l.Len() != 3 {
		t.Fatalf("Len = %d, want 3", l.Len())
	}
	for epoch := 0; epoch < 2; epoch++ {
		got := fmt.Sprint(epochIDs(t, l))
		if want := "[[0 1 2 3] [4 5 6 7] [8 9]]"; got != want {
			t.Fatalf("epoch %d: batches %s, want %s", epoch, got, want)
		}
	}
	l = NewLoader(ds, 4, DropLast())
	if got, want := fmt.Sprint(epochIDs(t, l)), "[[0 1 2 3] [4 5 6 7]]"; got != want || l.Len() != 2 {
		t.Fatalf("DropLast: batches %s (Len %d), want %s (Len 2)", got, l.Len(), want)
	}
	if got := NewLoader(ds, 20, DropLast()).Len(); got != 0 {
		t.Fatalf("DropLast with batch > N: Len %d, want 0", got)
	}
}

func TestLoaderShuffle(t *testing.T) {
	ds := rowsDataset(50)
	a, b := NewLoader(ds, 8, Shuffle(42)), NewLoader(ds, 8, Shuffle(42))
	var epochs []string
	for epoch := 0; epoch < 3; epoch++ {
		ea, eb := epochIDs(t, a), epochIDs(t, b)
		if fmt.Sprint(ea) != fmt.Sprint(eb) {
			t.Fatalf("epoch %d: two loaders with seed 42 differ:\n%v\n%v", epoch, ea, eb)
		}
		if len(ea) != 7 || len(ea[6]) != 2 {
			t.Fatalf("epoch %d: %d batches, last of %d; want 7, last of 2", epoch, len(ea), len(ea[len(ea)-1]))
		}
		// A permutation of all examples.
		var all []int
		for _, batch := range ea {
			all = append(all, batch...)
		}
		sort.Ints(all)
		for i, v := range all {
			if v != i {
				t.Fatalf("epoch %d is not a permutation of 0..49: %v", epoch, all)
			}
		}
		epochs = append(epochs, fmt.Sprint(ea))
	}
	if epochs[0] == epochs[1] || epochs[1] == epochs[2] {
		t.Fatal("the order does not change between epochs")
	}
	if fmt.Sprint(epochIDs(t, NewLoader(ds, 8, Shuffle(7)))) == epochs[0] {
		t.Fatal("seeds 7 and 42 give the same order")
	}
	if fmt.Sprint(epochIDs(t, NewLoader(ds, 8))) == epochs[0] {
		t.Fatal("the shuffled order is the identity")
	}
}

func TestLoaderEpochLoopAndReset(t *testing.T) {
	ds := rowsDataset(10)
	l := NewLoader(ds, 3, Shuffle(1))
	for epoch := 1; epoch <= 3; epoch++ {
		n := 0
		for l.Next() {
			n++
		}
		if n != l.Len() || l.Epoch() != epoch {
			t.Fatalf("epoch %d: %d batches (Len %d), Epoch() %d", epoch, n, l.Len(), l.Epoch())
		}
	}
	// Stop an epoch early, Reset, and the next epoch is complete.
	l.Next()
	l.Reset()
	if got := len(epochIDs(t, l)); got != 4 || l.Epoch() != 5 {
		t.Fatalf("after Reset: %d batches in epoch %d, want 4 in epoch 5", got, l.Epoch())
	}
	// Without Reset, Next continues an interrupted epoch.
	l.Next()
	if got := len(epochIDs(t, l)); got != 3 {
		t.Fatalf("continued epoch gave %d more batches, want 3", got)
	}
}

func TestLoaderUnlabelled(t *testing.T) {
	l := NewLoader(NewTensorDataset(tensor.Arange(0, 5, 1), nil), 2, Shuffle(3))
	n := 0
	for l.Next() {
		x, y := l.Batch()
		if y != nil {
			t.Fatal("y is not nil for an unlabelled dataset")
		}
		n += x.Numel()
	}
	if n != 5 {
		t.Fatalf("saw %d examples, want 5", n)
	}
}

func TestLoaderEmpty(t *testing.T) {
	l := NewLoader(NewTensorDataset(tensor.Zeros(0, 3), tensor.Zeros(0)), 4, Shuffle(1))
	for i := 0; i < 3; i++ {
		if l.Next() {
			t.Fatal("Next is true for an empty dataset")
		}
	}
}

func TestLoaderMisuse(t *testing.T) {
	mustPanic := func(what string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s did not panic", what)
			}
		}()
		f()
	}
	ds := rowsDataset(4)
	mustPanic("Batch before Next", func() { NewLoader(ds, 2).Batch() })
	mustPanic("batch 0", func() { NewLoader(ds, 0) })
	mustPanic("nil dataset", func() { NewLoader(nil, 2) })
	mustPanic("rows differ", func() { NewTensorDataset(tensor.Zeros(3, 2), tensor.Zeros(4)) })
	mustPanic("Get out of range", func() { ds.Get(4) })
}

// A panic while gathering a batch in the background reaches the caller
// of Next, and the process survives.
func TestLoaderGoroutinePanic(t *testing.T) {
	// Labels shorter than the images (NewTensorDataset would refuse this):
	// IndexSelect on the labels panics in the prefetch goroutine.
	ds := &Dataset{Images: tensor.Zeros(6, 2), Labels: tensor.FromInt64s([]int64{0, 1})}
	l := NewLoader(ds, 6, Shuffle(1))
	defer func() {
		r := recover()
		if _, ok := r.(*tensor.IndexError); !ok {
			t.Fatalf("Next panicked with %v (%T), want a *tensor.IndexError", r, r)
		}
	}()
	l.Next()
	t.Fatal("Next did not panic")
}

func TestLoaderNoGoroutineLeak(t *testing.T) {
	ds := rowsDataset(1000)
	settle := func(limit int) int {
		n := runtime.NumGoroutine()
		for i := 0; i < 200 && n > limit; i++ {
			time.Sleep(5 * time.Millisecond)
			n = runtime.NumGoroutine()
		}
		return n
	}
	base := runtime.NumGoroutine()
	for i := 0; i < 20; i++ {
		l := NewLoader(ds, 10, Shuffle(int64(i)))
		for l.Next() {
			if l.epoch == 1 && l.next == 3 {
				break // leave the loop early, a batch in flight
			}
		}
	}
	if n := settle(base); n > base {
		t.Fatalf("%d goroutines after abandoning 20 loaders mid-epoch, %d before", n, base)
	}
}

func BenchmarkLoaderMNISTBatch(b *testing.B) {
	ds := NewTensorDataset(tensor.Zeros(60000, 1, 28, 28), tensor.Zeros(60000).AsType(tensor.Int64))
	idx := make([]int64, 128)
	for i := range idx {
		idx[i] = int64((i * 7919) % 60000)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		gather(ds, 0, 128, idx)
	}
}

// BenchmarkLoaderNext measures a shuffled batch of 128 MNIST-sized images
// (it should be cheap next to a training step, which it overlaps: a few
// milliseconds at most).
func BenchmarkLoaderNext(b *testing.B) {
	ds := NewTensorDataset(tensor.Zeros(60000, 1, 28, 28), tensor.Zeros(60000).AsType(tensor.Int64))
	l := NewLoader(ds, 128, Shuffle(1))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if !l.Next() {
			l.Next()
		}
	}
}
