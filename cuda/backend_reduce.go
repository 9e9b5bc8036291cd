package cuda

import (
	"math"

	"github.com/gotensor/gotensor/tensorlib/tensor"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// kernelOrder returns r's dims as the reduce kernels take them: the kept
// dims first, then the reduced ones, with the number of kept dims.
func kernelOrder(r backend.Reduction) (shape, strides []int, nkeep int) {
	shape = append(append([]int(nil), r.KeptShape...), r.ReducedShape...)
	strides = append(append([]int(nil), r.KeptStrides...), r.ReducedStrides...)
	return shape, strides, len(r.KeptShape)
}

// serialBelow is the reduction length under which one thread per output
// beats a block per output.
const serialBelow = 64

// reduce launches kernel (sum, max, argmax, ...) over the plan.
func (d *device) reduce(kernel string, out, src *storage, p backend.Reduction) {
	shape, strides, nkeep := kernelOrder(p)
	a := d.newArgs()
	a.I64(int64(p.NumOut)).I64(int64(p.NumReduced)).Ptr(out.ptr).Ptr(src.ptr)
	packLayout(a, shape, strides, p.Offset)
	a.I32(int32(nkeep))
	if p.NumReduced < serialBelow {
		d.launch(kernel+"_serial_"+suffix(src.dt), d.gridFor(int64(p.NumOut), elemThreads), elemThreads, a)
		return
	}
	threads := d.reduceThreads()
	d.launch(kernel+"_"+suffix(src.dt), d.gridFor(int64(p.NumOut), 1), threads, a)
}

// reduceKernels are the reduce kernels of each op, by the prefix of their
// names in kernels/reduce.cu.
var reduceKernels = [...]string{backend.OpSum: "sum", backend.OpMax: "max", backend.OpMin: "min",
	backend.OpArgmax: "argmax", backend.OpArgmin: "argmin"}

// Reduce reduces s under l over dims with OpSum, OpMax or OpMin.
func (b *deviceBackend) Reduce(op backend.ReduceOp, s backend.Storage, l backend.Layout, dims []int) backend.Storage {
	src := b.store(s)
	p := backend.SplitReduce(l, dims)
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(src.dt, p.NumOut)
		if p.NumOut == 0 {
			return
		}
		if p.NumReduced == 0 {
			// Only a sum reaches here (the front end rejects empty
			// max/min): the identity.
			var id float64
			switch op {
			case backend.OpMax:
				id = math.Inf(-1)
			case backend.OpMin:
				id = math.Inf(1)
			}
			a := d.newArgs()
			a.I64(int64(p.NumOut)).Ptr(out.ptr)
			packLayout(a, []int{p.NumOut}, []int{1}, 0)
			a.F64(id)
			d.elementwise("fill_"+suffix(src.dt), int64(p.NumOut), a)
			return
		}
		d.reduce(reduceKernels[op], out, src, p)
	})
	return out
}

// ArgReduce returns the Int64 index of the first maximum or minimum along
// dim.
func (b *deviceBackend) ArgReduce(op backend.ReduceOp, s backend.Storage, l backend.Layout, dim int) backend.Storage {
	src := b.store(s)
	p := backend.SplitReduce(l, []int{dim})
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(tensor.Int64, p.NumOut)
		if p.NumOut == 0 {
			return
		}
		d.reduce(reduceKernels[op], out, src, p)
	})
	return out
}
