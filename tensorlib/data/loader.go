package data

import (
	"fmt"
	"math/rand/v2"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// A Loader cuts a Dataset into batches of examples, one epoch after
// another, optionally in a fresh random order each epoch. While the caller
// trains on one batch, the Loader gathers the next one in a goroutine.
//
// Next advances to the next batch and returns false at the end of an
// epoch; the call after that starts the next epoch, so an epoch loop reads
//
//	loader := data.NewLoader(train, 128, data.Shuffle(42))
//	for epoch := 0; epoch < 3; epoch++ {
//		for loader.Next() {
//			x, y := loader.Batch() // x: [128 1 28 28], y: [128]
//			...
//		}
//	}
//
// Breaking out of an epoch early is fine: call Reset (or just keep
// calling Next, which continues the interrupted epoch). A Loader leaves no
// goroutine behind when it is dropped. A Loader is not safe for use by
// several goroutines at once.
type Loader struct {
	ds       *Dataset
	batch    int
	shuffle  bool
	seed     int64
	dropLast bool

	epoch   int     // epochs started so far
	inEpoch bool    // an epoch is under way
	order   []int64 // this epoch's example order (nil: sequential)
	next    int     // index of the next batch to hand out
	resume  int     // the batch the next epoch starts at (LoadStateDict)
	pending chan batchResult
	x, y    *tensor.Tensor
}

// A LoaderOption configures NewLoader.
type LoaderOption func(*Loader)

// Shuffle makes the Loader visit the examples in a new random order each
// epoch. The orders depend only on seed and the epoch number, so a run is
// reproducible.
func Shuffle(seed int64) LoaderOption {
	return func(l *Loader) { l.shuffle, l.seed = true, seed }
}

// DropLast drops the last batch of each epoch when it would be smaller
// than the batch size (PyTorch's drop_last=True).
func DropLast() LoaderOption {
	return func(l *Loader) { l.dropLast = true }
}

// NewLoader returns a Loader over ds with batch examples per batch. It
// panics when ds is nil or batch < 1.
//
//	loader := data.NewLoader(train, 128, data.Shuffle(42), data.DropLast())
func NewLoader(ds *Dataset, batch int, opts ...LoaderOption) *Loader {
	if ds == nil || ds.Images == nil {
		panic("data: NewLoader: dataset is nil; load one with data.LoadMNIST or make one with data.NewTensorDataset")
	}
	if batch < 1 {
		panic(fmt.Sprintf("data: NewLoader: batch size %d; it must be at least 1", batch))
	}
	l := &Loader{ds: ds, batch: batch}
	for _, o := range opts {
		o(l)
	}
	return l
}

// Len returns the number of batches in one epoch.
func (l *Loader) Len() int {
	n := l.ds.Len()
	if l.dropLast {
		return n / l.batch
	}
	return (n + l.batch - 1) / l.batch
}

// Epoch returns the number of epochs started so far (1 during the first).
func (l *Loader) Epoch() int { return l.epoch }

// Next advances to the next batch of the current epoch, starting a new
// epoch when none is under way, and reports whether there is one; it
// returns false once the epoch's batches are used up. A panic while
// gathering a batch (in the background goroutine) is raised again here.
func (l *Loader) Next() bool {
	if !l.inEpoch {
		l.startEpoch()
	}
	if l.next >= l.Len() {
		l.inEpoch = false
		l.pending = nil
		l.x, l.y = nil, nil
		return false
	}
	r := <-l.pending
	l.next++
	l.pending = nil
	if l.next < l.Len() {
		l.prefetch(l.next)
	}
	if r.panicked != nil {
		panic(r.panicked)
	}
	l.x, l.y = r.x, r.y
	return true
}

// Batch returns the current batch: the examples' inputs and labels (y is
// nil when the dataset has none). Without Shuffle they are views of the
// dataset's tensors (Narrow); with it, new tensors. It panics when Next
// has not returned true.
func (l *Loader) Batch() (x, y *tensor.Tensor) {
	if l.x == nil {
		panic("data: Loader.Batch: no current batch; call Next first and use Batch only while it returns true")
	}
	return l.x, l.y
}

// Reset abandons the current epoch: the next call to Next starts a new
// one (with the next epoch's order).
func (l *Loader) Reset() {
	l.inEpoch = false
	l.pending = nil // a gathering goroutine finishes into its buffered channel
	l.x, l.y = nil, nil
}

func (l *Loader) startEpoch() {
	l.epoch++
	l.inEpoch = true
	l.next, l.resume = l.resume, 0
	l.order = nil
	if l.shuffle {
		// PCG seeded by (seed, epoch): each epoch's order is reproducible
		// on its own.
		r := rand.New(rand.NewPCG(uint64(l.seed), uint64(l.epoch)))
		n := l.ds.Len()
		l.order = make([]int64, n)
		for i := range l.order {
			l.order[i] = int64(i)
		}
		r.Shuffle(n, func(i, j int) { l.order[i], l.order[j] = l.order[j], l.order[i] })
	}
	if l.next < l.Len() {
		l.prefetch(l.next)
	}
}

// StateDict returns where the Loader is, for a checkpoint
// (nn.SaveCheckpoint): "epoch", the epochs started (Epoch), and
// "next_batch", the batches of the current epoch handed out, or -1 between
// epochs, as 0-d Int64 tensors.
func (l *Loader) StateDict() map[string]*tensor.Tensor {
	next := int64(-1)
	if l.inEpoch {
		next = int64(l.next)
	}
	return map[string]*tensor.Tensor{
		"epoch":      tensor.FromInt64s([]int64{int64(l.epoch)}).Reshape(),
		"next_batch": tensor.FromInt64s([]int64{next}).Reshape(),
	}
}

// LoadStateDict moves the Loader to where a state StateDict returned says:
// the next Next continues that epoch (in the same order, for a Loader made
// with the same dataset and options) at the batch after the last one
// handed out, or starts the next epoch. It returns an error, changing
// nothing, when the state is not a Loader's or does not fit this one.
func (l *Loader) LoadStateDict(state map[string]*tensor.Tensor) error {
	e, n := state["epoch"], state["next_batch"]
	if len(state) != 2 || e == nil || n == nil || e.Numel() != 1 || n.Numel() != 1 {
		return fmt.Errorf("data: Loader.LoadStateDict: want the one-element \"epoch\" and \"next_batch\", not a state of %d entries", len(state))
	}
	epoch, next := int(e.Item()), int(n.Item())
	if epoch < 0 || next > l.Len() || (next >= 0 && epoch < 1) {
		return fmt.Errorf("data: Loader.LoadStateDict: epoch %d, batch %d does not fit a Loader of %d batches an epoch", epoch, next, l.Len())
	}
	l.Reset()
	l.epoch, l.resume = epoch, 0
	if next >= 0 {
		l.epoch, l.resume = epoch-1, next
	}
	return nil
}

type batchResult struct {
	x, y     *tensor.Tensor
	panicked any
}

// prefetch gathers batch b in a goroutine. The goroutine sends into a
// channel with room for its one result, so it always ends, even when
// nobody receives.
func (l *Loader) prefetch(b int) {
	ch := make(chan batchResult, 1)
	l.pending = ch
	ds, lo := l.ds, b*l.batch
	hi := lo + l.batch
	if n := ds.Len(); hi > n {
		hi = n
	}
	var idx []int64
	if l.order != nil {
		idx = l.order[lo:hi]
	}
	go func() {
		var r batchResult
		defer func() {
			if p := recover(); p != nil {
				r = batchResult{panicked: p}
			}
			ch <- r
		}()
		r.x, r.y = gather(ds, lo, hi, idx)
	}()
}

// gather returns examples lo..hi of ds (sequential: views made with
// Narrow) or, with idx, the examples idx lists (copied with IndexSelect).
func gather(ds *Dataset, lo, hi int, idx []int64) (x, y *tensor.Tensor) {
	if idx == nil {
		x = ds.Images.Narrow(0, lo, hi-lo)
		if ds.Labels != nil {
			y = ds.Labels.Narrow(0, lo, hi-lo)
		}
		return x, y
	}
	it := tensor.FromInt64s(idx)
	if d := ds.Images.Device(); d != tensor.CPU {
		it = it.To(d)
	}
	x = ds.Images.IndexSelect(0, it)
	if ds.Labels != nil {
		iy := it
		if d := ds.Labels.Device(); d != it.Device() {
			iy = iy.To(d)
		}
		y = ds.Labels.IndexSelect(0, iy)
	}
	return x, y
}
