package cuda

import (
	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/backend"
)

// CrossEntropy returns the mean softmax cross-entropy of the logits [N, C]
// against the labels, and each row's logsumexp.
func (b *deviceBackend) CrossEntropy(logits backend.Storage, ll backend.Layout, labels backend.Storage, lbl backend.Layout) (loss, lse backend.Storage) {
	xs, ys := b.store(logits), b.store(labels)
	n := ll.Shape[0]
	var lossS, lseS *storage
	d := b.dev
	d.do(func() {
		var ws workspace
		defer ws.free()
		dt := xs.dt
		lossS, lseS = d.newStorage(dt, 1), d.newStorage(dt, n)
		rowLoss := ws.alloc(d, dt, n)
		threads := d.reduceThreads()
		if n > 0 {
			rec := d.errorRecord()
			v, _ := rowLayouts(ll.Shape, 1, 2, ll)
			G := v.group(d, 0)
			a := d.newArgs()
			a.I64(int64(n)).I64(int64(v.n)).Ptr(lseS.ptr).Ptr(rowLoss.ptr).Ptr(xs.ptr)
			v.pack(a, 0)
			a.Ptr(ys.at(lbl.Offset)).I64(int64(lbl.Strides[0])).I32(int32(G)).Ptr(rec.ptr)
			d.launchRows(kernelFor(kernels.CrossEntropy, dt), n, G, a)
			d.checkIndex("CrossEntropy", 1)
		}
		a := d.newArgs()
		a.I64(int64(n)).Ptr(lossS.ptr).Ptr(rowLoss.ptr)
		d.launch(kernelFor(kernels.MeanRows, dt), 1, threads, a)
	})
	return lossS, lseS
}

// CrossEntropyBackward returns the gradient of CrossEntropy's logits.
func (b *deviceBackend) CrossEntropyBackward(g backend.Storage, gl backend.Layout, logits backend.Storage, ll backend.Layout, labels backend.Storage, lbl backend.Layout, lse backend.Storage) backend.Storage {
	gs, xs, ys, ls := b.store(g), b.store(logits), b.store(labels), b.store(lse)
	numel := ll.Numel()
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(xs.dt, numel)
		if numel == 0 {
			return
		}
		v, _ := rowLayouts(ll.Shape, 1, 2, ll)
		G := v.group(d, 0)
		a := d.newArgs()
		a.I64(int64(v.rows)).I64(int64(v.n)).Ptr(out.ptr).Ptr(xs.ptr)
		v.pack(a, 0)
		a.Ptr(ys.at(lbl.Offset)).I64(int64(lbl.Strides[0])).Ptr(ls.ptr).Ptr(gs.at(gl.Offset)).I32(int32(G))
		d.launchRows(kernelFor(kernels.CrossEntropyBackward, xs.dt), v.rows, G, a)
	})
	return out
}
