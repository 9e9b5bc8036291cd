package cuda

import (
	"math"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// reducePlan splits a layout into kept dims (first) and reduced dims
// (last), each group merged where contiguous, as the reduce kernels take
// it.
type reducePlan struct {
	shape, strides []int
	nkeep          int
	nout, nred     int
}

func newReducePlan(l tensor.Layout, dims []int) reducePlan {
	isRed := make([]bool, len(l.Shape))
	for _, d := range dims {
		isRed[d] = true
	}
	var ks, kst, rs, rst []int
	for d, s := range l.Shape {
		if s == 1 {
			continue
		}
		if isRed[d] {
			rs, rst = mergeDim(rs, rst, s, l.Strides[d])
		} else {
			ks, kst = mergeDim(ks, kst, s, l.Strides[d])
		}
	}
	p := reducePlan{shape: append(ks, rs...), strides: append(kst, rst...), nkeep: len(ks),
		nout: numel(ks), nred: numel(rs)}
	for d, s := range l.Shape {
		if s == 0 {
			if isRed[d] {
				p.nred = 0
			} else {
				p.nout = 0
			}
		}
	}
	return p
}

func mergeDim(shape, strides []int, size, stride int) ([]int, []int) {
	if n := len(shape); n > 0 && strides[n-1] == stride*size {
		shape[n-1] *= size
		strides[n-1] = stride
		return shape, strides
	}
	return append(shape, size), append(strides, stride)
}

// serialBelow is the reduction length under which one thread per output
// beats a block per output.
const serialBelow = 64

// reduce launches kernel (sum, max, argmax, ...) over the plan.
func (d *device) reduce(kernel string, out, src *storage, l tensor.Layout, p reducePlan) {
	a := d.newArgs()
	a.I64(int64(p.nout)).I64(int64(p.nred)).Ptr(out.ptr).Ptr(src.ptr)
	packLayout(a, p.shape, p.strides, l.Offset)
	a.I32(int32(p.nkeep))
	if p.nred < serialBelow {
		d.launch(kernel+"_serial_"+suffix(src.dt), d.gridFor(int64(p.nout), elemThreads), elemThreads, a)
		return
	}
	threads := d.reduceThreads()
	d.launch(kernel+"_"+suffix(src.dt), d.gridFor(int64(p.nout), 1), threads, a)
}

var reduceNames = map[tensor.ReduceOp]string{tensor.OpSum: "sum", tensor.OpMax: "max", tensor.OpMin: "min",
	tensor.OpArgmax: "argmax", tensor.OpArgmin: "argmin"}

// Reduce reduces s under l over dims with OpSum, OpMax or OpMin.
func (b *backend) Reduce(op tensor.ReduceOp, s tensor.Storage, l tensor.Layout, dims []int) tensor.Storage {
	src := b.store(s)
	p := newReducePlan(l, dims)
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(src.dt, p.nout)
		if p.nout == 0 {
			return
		}
		if p.nred == 0 {
			// Only a sum reaches here (the front end rejects empty
			// max/min): the identity.
			var id float64
			switch op {
			case tensor.OpMax:
				id = math.Inf(-1)
			case tensor.OpMin:
				id = math.Inf(1)
			}
			a := d.newArgs()
			a.I64(int64(p.nout)).Ptr(out.ptr)
			packLayout(a, []int{p.nout}, []int{1}, 0)
			a.F64(id)
			d.elementwise("fill_"+suffix(src.dt), int64(p.nout), a)
			return
		}
		d.reduce(reduceNames[op], out, src, l, p)
	})
	return out
}

// ArgReduce returns the Int64 index of the first maximum or minimum along
// dim.
func (b *backend) ArgReduce(op tensor.ReduceOp, s tensor.Storage, l tensor.Layout, dim int) tensor.Storage {
	src := b.store(s)
	p := newReducePlan(l, []int{dim})
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(tensor.Int64, p.nout)
		if p.nout == 0 {
			return
		}
		d.reduce(reduceNames[op], out, src, l, p)
	})
	return out
}
