package cuda

import (
	"math"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/tensor"

	"github.com/gotensor/gotensor/tensorlib/backend"
)

// Reductions (kernels/reduce.cu) take one of two kernels, by layout:
//
//   - cols, when the last kept dim is contiguous and the reduced dims lie
//     outside it (Sum(0) of [N, C]): threads over adjacent columns, so that
//     loads coalesce;
//   - rows otherwise: a group of threads a row, a warp's lanes (1 to 32)
//     for rows of up to rowsWarpMax vectors, the block for longer ones.
//     When the last reduced dim is contiguous (every row of a contiguous
//     tensor; BatchNorm's [N, C, H*W] reduced over N and H*W), rows are
//     read as contiguous segments with vector loads; other layouts index
//     each element.
//
// When the outputs are too few to fill the device (a sum of all elements,
// 64 BatchNorm channels), each row is split into chunks reduced by
// different blocks into a workspace, [nout, nsplit], and a second launch
// (a rows kernel, reading each output's partials as one contiguous row)
// combines the chunks in a fixed order: no atomics, so every run gives the
// same bits.

// rowsWarpMax is the longest row, in vectors, that a warp (not a block)
// reduces.
const rowsWarpMax = 256

// accBytes is the size of an arg reduction's accumulator (ArgAcc in
// kernels/reduce.cu: a value and a long long index).
const accBytes = 16

// maxSplit is the most chunks a row is split into.
const maxSplit = 1024

// maxChunk keeps a chunk's indices within 32 bits.
const maxChunk = 1 << 30

// reduceKernels are the reduce kernels of each op (kernels/reduce.cu):
// over rows, over columns, and over the rows of partial results of a
// split (the rows kernel but for argmax and argmin, which read
// accumulators).
var reduceKernels = [...]struct{ rows, cols, part kernels.Op }{
	backend.OpSum:    {kernels.SumRows, kernels.SumCols, kernels.SumRows},
	backend.OpMax:    {kernels.MaxRows, kernels.MaxCols, kernels.MaxRows},
	backend.OpMin:    {kernels.MinRows, kernels.MinCols, kernels.MinRows},
	backend.OpArgmax: {kernels.ArgmaxRows, kernels.ArgmaxCols, kernels.ArgmaxRowsPart},
	backend.OpArgmin: {kernels.ArgminRows, kernels.ArgminCols, kernels.ArgminRowsPart},
}

// vecWidth is VecWidth of kernels/common.cuh: the elements of a 16-byte
// load.
func vecWidth(dt tensor.DType) int { return 16 / elemSize(dt) }

// reduceTarget is how many blocks fill the device once.
func (d *device) reduceTarget(threads int) int {
	return max(1, d.props.MultiProcessors) * max(1, 2048/threads)
}

// maxGrid is the most blocks a grid-stride kernel is given.
func (d *device) maxGrid() int { return max(1, d.props.MultiProcessors) * blocksPerSM }

// reduceInput is what a reduce launch reads: the buffer, its layout in
// kernel order (kept dims, then reduced) and the element width of its
// vector loads (1 for accumulators).
type reduceInput struct {
	ptr      driver.DevicePtr
	shape    []int
	strides  []int
	offset   int
	nkeep    int
	vec      int
	nout     int
	nred     int
	accBytes int // bytes of one accumulator, for the workspace
	accDType tensor.DType
	final    bool // a second pass: never split again
}

// reduce launches the reduction kernels of op (sum, max, argmax, ...) that
// write out, one element of each row of the plan.
func (d *device) reduce(op backend.ReduceOp, out, src *storage, p backend.Reduction) {
	ks := reduceKernels[op]
	arg := op == backend.OpArgmax || op == backend.OpArgmin
	in := reduceInput{ptr: src.ptr, offset: p.Offset, nkeep: len(p.KeptShape), vec: vecWidth(src.dt),
		nout: p.NumOut, nred: p.NumReduced, accBytes: elemSize(src.dt), accDType: src.dt}
	in.shape = append(append([]int(nil), p.KeptShape...), p.ReducedShape...)
	in.strides = append(append([]int(nil), p.KeptStrides...), p.ReducedStrides...)
	if len(p.ReducedShape) == 0 {
		// One element a row (reduced dims of size 1): a contiguous
		// segment of one.
		in.shape, in.strides = append(in.shape, 1), append(in.strides, 1)
	}
	if arg {
		in.accBytes, in.accDType = accBytes, tensor.Int64
	}
	nk := in.nkeep
	if nk > 0 && in.strides[nk-1] == 1 && in.strides[len(in.strides)-1] != 1 {
		d.reduceCols(ks.cols, ks.part, src.dt, out.ptr, in)
		return
	}
	d.reduceRows(ks.rows, ks.part, src.dt, out.ptr, in)
}

// pow2 returns the smallest power of two at least n, from 1 to 32.
func pow2(n int) int {
	g := 1
	for g < n && g < 32 {
		g *= 2
	}
	return g
}

// split returns how many chunks each row of nred elements is split into,
// and the chunk length, for units blocks (of threads each) before
// splitting; minChunk is the least work worth a block. A second pass
// (final) is never split.
func (d *device) split(in reduceInput, units, threads, minChunk int) (nsplit, chunk int) {
	nred := in.nred
	if in.final {
		return 1, nred
	}
	nsplit = 1
	if target := d.reduceTarget(threads); units < target {
		nsplit = min((target+units-1)/units, (nred+minChunk-1)/minChunk, maxSplit)
	}
	nsplit = max(nsplit, (nred+maxChunk-1)/maxChunk)
	chunk = (nred + nsplit - 1) / nsplit
	if nsplit > 1 {
		// Chunks of whole 16-byte vectors keep them aligned alike.
		chunk = (chunk + 63) / 64 * 64
		nsplit = (nred + chunk - 1) / chunk
	}
	return nsplit, chunk
}

// reduceArgs allocates the workspace of nsplit partial results a row when
// nsplit > 1 (nil otherwise) and starts the arguments that the rows and
// cols kernels share: nout, nred, out, part, in, l, nkeep.
func (d *device) reduceArgs(in reduceInput, out driver.DevicePtr, nsplit int) (*storage, *driver.Args) {
	var ws *storage
	var part driver.DevicePtr
	if nsplit > 1 {
		ws = d.newStorage(in.accDType, in.nout*nsplit*in.accBytes/elemSize(in.accDType))
		part = ws.ptr
	}
	a := d.newArgs()
	a.I64(int64(in.nout)).I64(int64(in.nred)).Ptr(out).Ptr(part).Ptr(in.ptr)
	packLayout(a, in.shape, in.strides, in.offset)
	a.I32(int32(in.nkeep))
	return ws, a
}

// reduceRows launches kernel (sum_rows, ...) over in, then, when the rows
// were split, partKernel over the workspace of partial results.
func (d *device) reduceRows(kernel, partKernel kernels.Op, dt tensor.DType, out driver.DevicePtr, in reduceInput) {
	threads := d.reduceThreads()
	seglen := 0
	if in.strides[len(in.strides)-1] == 1 {
		seglen = in.shape[len(in.shape)-1]
	}
	per := 1 // elements a thread takes at a time
	if seglen > 0 {
		per = in.vec
	}
	group := pow2((in.nred + per - 1) / per)
	nsplit, chunk := 1, in.nred
	if (in.nred+per-1)/per > rowsWarpMax {
		group = threads
		nsplit, chunk = d.split(in, in.nout, threads, threads*per*4)
	}
	units := in.nout * nsplit
	grid := units
	if group <= 32 {
		grid = (units + threads/group - 1) / (threads / group)
	}
	grid = min(grid, d.maxGrid())
	ws, a := d.reduceArgs(in, out, nsplit)
	a.I64(int64(seglen)).I32(int32(nsplit)).I64(int64(chunk)).I32(int32(group))
	d.launch(kernelFor(kernel, dt), grid, threads, a)
	d.reducePartials(partKernel, dt, out, in, ws, nsplit)
}

// reducePartials launches partKernel (a rows kernel) over ws, the [nout,
// nsplit] partial results of a split reduction of in, and frees ws; it
// does nothing when ws is nil (no split).
func (d *device) reducePartials(partKernel kernels.Op, dt tensor.DType, out driver.DevicePtr, in reduceInput, ws *storage, nsplit int) {
	if ws == nil {
		return
	}
	vec := 1
	if in.accDType == dt && in.accBytes == elemSize(dt) {
		vec = vecWidth(dt)
	}
	d.reduceRows(partKernel, partKernel, dt, out, reduceInput{ptr: ws.ptr, shape: []int{in.nout, nsplit},
		strides: []int{nsplit, 1}, nkeep: 1, vec: vec, nout: in.nout, nred: nsplit, final: true})
	ws.Free()
}

// reduceCols launches kernel (sum_cols, ...) over in, whose last kept dim
// is the contiguous columns, then, when split, partKernel (a rows kernel)
// over the workspace.
func (d *device) reduceCols(kernel, partKernel kernels.Op, dt tensor.DType, out driver.DevicePtr, in reduceInput) {
	threads := d.reduceThreads()
	ncol := in.shape[in.nkeep-1]
	tcols := 32
	if ncol <= threads/2 {
		tcols = ncol
	}
	rows := threads / tcols
	units := in.nout / ncol * ((ncol + tcols - 1) / tcols)
	nsplit, chunk := d.split(in, units, threads, rows*16)
	grid := min(units*nsplit, d.maxGrid())
	ws, a := d.reduceArgs(in, out, nsplit)
	a.I32(int32(nsplit)).I64(int64(chunk)).I32(int32(tcols))
	d.launch(kernelFor(kernel, dt), grid, threads, a)
	d.reducePartials(partKernel, dt, out, in, ws, nsplit)
}

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
			d.elementwise(kernelFor(kernels.Fill, src.dt), int64(p.NumOut), a)
			return
		}
		d.reduce(op, out, src, p)
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
		d.reduce(op, out, src, p)
	})
	return out
}
