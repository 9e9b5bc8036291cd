package cuda

import (
	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// What the fused ops share (softmax.go, norm.go, loss.go, activation.go,
// pool.go: the optional interfaces of tensorlib/backend, each in the file
// of its op there too), as their kernels share kernels/rows.cuh: a tensor
// seen as rows, and workspaces. Workspaces (partial sums, contiguous
// copies of unusual views) come from the caching allocator and go back to
// it as soon as the kernels that use them are launched: the device runs
// launches in order, so the next user of the block runs after them.

var (
	_ backend.BatchNorm      = (*deviceBackend)(nil)
	_ backend.LayerNorm      = (*deviceBackend)(nil)
	_ backend.Softmax        = (*deviceBackend)(nil)
	_ backend.Loss           = (*deviceBackend)(nil)
	_ backend.ActivationGrad = (*deviceBackend)(nil)
	_ backend.Pool           = (*deviceBackend)(nil)
)

// workspace holds the temporary storages of one op, freed together.
type workspace []*storage

// alloc returns n uninitialized elements of dt that free releases.
func (w *workspace) alloc(d *device, dt tensor.DType, n int) *storage {
	s := d.newStorage(dt, n)
	*w = append(*w, s)
	return s
}

// contiguous returns s under l as a contiguous storage and its layout:
// s itself when l is contiguous, else a copy that free releases.
func (w *workspace) contiguous(d *device, s *storage, l backend.Layout) (*storage, backend.Layout) {
	if l.IsContiguous() {
		return s, l
	}
	c := d.contiguous(s, l)
	*w = append(*w, c)
	return c, backend.Contiguous(l.Shape)
}

// free returns the workspace's blocks to the allocator.
func (w *workspace) free() {
	for _, s := range *w {
		s.Free()
	}
	*w = nil
}

// rowView is a tensor seen as rows, the kernels' row view (kernels/
// rows.cuh): the dims outside a range, merged where every operand allows,
// enumerate the rows; the range, merged into one dim, is a row.
type rowView struct {
	kept    []int   // the merged shape of the row index
	rows, n int     // rows, and elements per row
	strides [][]int // per operand: the kept dims' strides, then the row's
	offsets []int   // per operand
}

// rowLayouts returns the row view of operands ls, all of shape, whose rows
// are the dims [lo, hi); ok is false when those do not merge into one dim
// in every operand.
func rowLayouts(shape []int, lo, hi int, ls ...backend.Layout) (v rowView, ok bool) {
	outShape := append(append([]int(nil), shape[:lo]...), shape[hi:]...)
	outL := make([]backend.Layout, len(ls))
	inL := make([]backend.Layout, len(ls))
	for j, l := range ls {
		outL[j] = backend.Layout{Shape: outShape, Strides: append(append([]int(nil), l.Strides[:lo]...), l.Strides[hi:]...)}
		inL[j] = backend.Layout{Shape: shape[lo:hi], Strides: l.Strides[lo:hi]}
	}
	kept, ks := backend.Coalesce(outShape, outL...)
	inner, is := backend.Coalesce(shape[lo:hi], inL...)
	if len(inner) > 1 {
		return rowView{}, false
	}
	v = rowView{kept: kept, rows: backend.Numel(outShape), n: backend.Numel(shape[lo:hi])}
	for j, l := range ls {
		st := append([]int(nil), ks[j]...)
		if len(inner) == 1 {
			st = append(st, is[j][0])
		} else {
			st = append(st, 0) // rows of one element
		}
		v.strides = append(v.strides, st)
		v.offsets = append(v.offsets, l.Offset)
	}
	return v, true
}

// pack appends operand j's row view as a kernel Layout.
func (v rowView) pack(a *driver.Args, j int) {
	packLayout(a, append(append([]int(nil), v.kept...), v.n), v.strides[j], v.offsets[j])
}

// group returns the threads per row G for operand j's reads on d: about
// four elements a thread, up to the whole block of threads. When the rows
// are strided and side by side (a softmax over a dim other than the last)
// and there are enough of them to fill the device, it is one thread a
// row, so that the threads of a warp read neighbouring elements.
func (v rowView) group(d *device, j int) int {
	threads := d.reduceThreads()
	st := v.strides[j]
	if k := len(v.kept); st[k] != 1 && k > 0 && st[k-1] == 1 && v.n > 1 &&
		v.rows >= 4*threads*max(1, d.props.MultiProcessors) {
		return 1
	}
	g := 1
	for g < threads && g*4 < v.n {
		g *= 2
	}
	return g
}

// warpRowMax is the longest row of the row kernels' warp path
// (kernels/rows.cuh: WARP_SIZE * WARP_ROW_PER_MAX).
const warpRowMax = 32 * 32

// warpRows returns the elements per lane of the row kernels' warp path
// (kernels/rows.cuh), a power of two, and whether it applies: rows of at
// most warpRowMax elements, adjacent in the result (operand 0) and
// adjacent or broadcast (element stride 0) in the other operands, the
// rows one stride apart.
func (v rowView) warpRows() (per int, ok bool) {
	k := len(v.kept)
	if v.n > warpRowMax || k > 1 {
		return 0, false
	}
	for j, st := range v.strides {
		if v.n > 1 && st[k] != 1 && (j == 0 || st[k] != 0) {
			return 0, false
		}
	}
	per = 1
	for per*32 < v.n {
		per *= 2
	}
	return per, true
}

// packWarp appends operand j (storage s) as the warp-row kernels take
// it: its pointer at its offset, its distance between rows and, for the
// operands read (j > 0), between the elements of a row: 1, or 0 for an
// operand broadcast along its rows.
func (v rowView) packWarp(a *driver.Args, j int, s *storage) {
	k := len(v.kept)
	rowStride, elemStride := 0, 1
	if k > 0 {
		rowStride = v.strides[j][0]
	}
	if v.n > 1 {
		elemStride = v.strides[j][k]
	}
	a.Ptr(s.at(v.offsets[j])).I64(int64(rowStride))
	if j > 0 {
		a.I64(int64(elemStride))
	}
}

// launchWarpRows launches a warp-row kernel: a warp a row, 256 threads a
// block.
func (d *device) launchWarpRows(name kernels.Kernel, rows int, a *driver.Args) {
	const threads, warps = 256, 256 / 32
	d.launch(name, d.gridFor(int64(rows), warps), threads, a)
}

// launchRows launches a row kernel over rows with groups of G threads.
func (d *device) launchRows(name kernels.Kernel, rows, G int, a *driver.Args) {
	threads := d.reduceThreads()
	d.launch(name, d.gridFor(int64(rows), threads/G), threads, a)
}

// parts returns into how many slices to split each of groups reductions
// of m elements so that the device has work for all its multiprocessors,
// each slice keeping at least minPer elements.
func (d *device) parts(groups, m, minPer int) int {
	target := max(1, d.props.MultiProcessors) * 4
	p := (target + groups - 1) / max(groups, 1)
	p = min(p, m/max(minPer, 1), 1024)
	return max(p, 1)
}

// floatArg appends v as a kernel argument of dtype dt.
func floatArg(a *driver.Args, dt tensor.DType, v float64) {
	if dt == tensor.Float32 {
		a.F32(float32(v))
	} else {
		a.F64(v)
	}
}

// ptrOf returns the address of s under l for a kernel that reads it
// contiguously, copying it into w when l is not contiguous; 0 for a nil
// s.
func (b *deviceBackend) ptrOf(w *workspace, s backend.Storage, l backend.Layout) driver.DevicePtr {
	if s == nil {
		return 0
	}
	c, cl := w.contiguous(b.dev, b.store(s), l)
	return c.at(cl.Offset)
}

// operand is a storage seen under a layout, as a kernel reads it.
type operand struct {
	s *storage
	l backend.Layout
}
