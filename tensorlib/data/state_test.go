package data

import (
	"fmt"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestLoaderStateDict checks that a new Loader given another's state
// continues with the same batches: in the middle of an epoch (the same
// shuffled order, from the next batch), between epochs, and before any.
func TestLoaderStateDict(t *testing.T) {
	ds := rowsDataset(10)
	for _, stop := range []int{0, 2, 4, 7} { // batches read before saving (4 an epoch)
		a := NewLoader(ds, 3, Shuffle(9))
		read := func(l *Loader, n int) (out []string) {
			for len(out) < n {
				if !l.Next() {
					out = append(out, "end")
					continue
				}
				x, y := l.Batch()
				out = append(out, fmt.Sprint(batchIDs(t, x, y)))
			}
			return out
		}
		read(a, stop)
		st := a.StateDict()
		want := read(a, 9)
		b := NewLoader(ds, 3, Shuffle(9))
		if err := b.LoadStateDict(st); err != nil {
			t.Fatal(err)
		}
		if got := read(b, 9); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("after %d batches: the restored loader reads %v, want %v", stop, got, want)
		}
	}
	l := NewLoader(ds, 3)
	if err := l.LoadStateDict(map[string]*tensor.Tensor{"epoch": tensor.Scalar(1)}); err == nil {
		t.Error("a state without next_batch loaded")
	}
}
