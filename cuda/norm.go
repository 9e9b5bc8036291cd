package cuda

import (
	"strconv"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The fused kernels of kernels/softmax.cu, norm.cu, pool.cu and
// activation.cu: the optional interfaces of tensorlib/backend/fused.go.
// Workspaces (partial sums, contiguous copies of unusual views) come from
// the caching allocator and go back to it as soon as the kernels that use
// them are launched: the device runs launches in order, so the next user
// of the block runs after them.

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
func (d *device) launchWarpRows(name string, rows int, a *driver.Args) {
	const threads, warps = 256, 256 / 32
	d.launch(name, d.gridFor(int64(rows), warps), threads, a)
}

// launchRows launches a row kernel over rows with groups of G threads.
func (d *device) launchRows(name string, rows, G int, a *driver.Args) {
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

// Softmax returns the softmax (log-softmax with log set) of x along dim.
func (b *deviceBackend) Softmax(x backend.Storage, xl backend.Layout, dim int, log bool) backend.Storage {
	return b.softmaxRows("softmax_", dim, log, operand{b.store(x), xl})
}

// SoftmaxBackward returns the gradient of Softmax's input.
func (b *deviceBackend) SoftmaxBackward(g backend.Storage, gl backend.Layout, y backend.Storage, yl backend.Layout, dim int, log bool) backend.Storage {
	return b.softmaxRows("softmax_backward_", dim, log, operand{b.store(g), gl}, operand{b.store(y), yl})
}

// operand is a storage seen under a layout, as a kernel reads it.
type operand struct {
	s *storage
	l backend.Layout
}

// softmaxRows launches kernel (softmax_ or softmax_backward_) over the rows
// along dim of its operands (x; or g and y) into a new contiguous storage
// of the first operand's shape and dtype.
func (b *deviceBackend) softmaxRows(kernel string, dim int, log bool, ops ...operand) backend.Storage {
	dt, shape := ops[0].s.dt, ops[0].l.Shape
	ls := []backend.Layout{backend.Contiguous(shape)}
	for _, o := range ops {
		ls = append(ls, o.l)
	}
	n := backend.Numel(shape)
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(dt, n)
		if n == 0 {
			return
		}
		v, _ := rowLayouts(shape, dim, dim+1, ls...)
		if per, ok := v.warpRows(); ok {
			a := d.newArgs()
			a.I64(int64(v.rows)).I32(int32(v.n))
			v.packWarp(a, 0, out)
			for j, o := range ops {
				v.packWarp(a, j+1, o.s)
			}
			a.I32(b2i(log))
			d.launchWarpRows(kernel+"warp"+strconv.Itoa(per)+"_"+suffix(dt), v.rows, a)
			return
		}
		G := v.group(d, len(ops))
		a := d.newArgs()
		a.I64(int64(v.rows)).I64(int64(v.n)).Ptr(out.ptr)
		v.pack(a, 0)
		for j, o := range ops {
			a.Ptr(o.s.ptr)
			v.pack(a, j+1)
		}
		a.I32(int32(G)).I32(b2i(log))
		d.launchRows(kernel+suffix(dt), v.rows, G, a)
	})
	return out
}

// LayerNorm normalises x over its last k dims.
func (b *deviceBackend) LayerNorm(x backend.Storage, xl backend.Layout, k int, w backend.Storage, wl backend.Layout, bias backend.Storage, bl backend.Layout, eps float64) (y, mean, rstd backend.Storage) {
	xs := b.store(x)
	nd := len(xl.Shape)
	var ys, ms, rs *storage
	d := b.dev
	d.do(func() {
		var ws workspace
		defer ws.free()
		ol := backend.Contiguous(xl.Shape)
		v, ok := rowLayouts(xl.Shape, nd-k, nd, ol, xl)
		if !ok {
			xs, xl = ws.contiguous(d, xs, xl)
			v, _ = rowLayouts(xl.Shape, nd-k, nd, ol, xl)
		}
		ys = d.newStorage(xs.dt, xl.Numel())
		ms, rs = d.newStorage(xs.dt, v.rows), d.newStorage(xs.dt, v.rows)
		if xl.Numel() == 0 {
			return
		}
		wp, bp := b.ptrOf(&ws, w, wl), b.ptrOf(&ws, bias, bl)
		if per, ok := v.warpRows(); ok {
			a := d.newArgs()
			a.I64(int64(v.rows)).I32(int32(v.n))
			v.packWarp(a, 0, ys)
			v.packWarp(a, 1, xs)
			a.Ptr(wp).Ptr(bp).Ptr(ms.ptr).Ptr(rs.ptr)
			floatArg(a, xs.dt, eps)
			d.launchWarpRows("layer_norm_warp"+strconv.Itoa(per)+"_"+suffix(xs.dt), v.rows, a)
			return
		}
		G := v.group(d, 1)
		a := d.newArgs()
		a.I64(int64(v.rows)).I64(int64(v.n)).Ptr(ys.ptr)
		v.pack(a, 0)
		a.Ptr(xs.ptr)
		v.pack(a, 1)
		a.Ptr(wp).Ptr(bp).Ptr(ms.ptr).Ptr(rs.ptr)
		floatArg(a, xs.dt, eps)
		a.I32(int32(G))
		d.launchRows("layer_norm_"+suffix(xs.dt), v.rows, G, a)
	})
	return ys, ms, rs
}

// LayerNormBackward returns the gradients of LayerNorm's x, w and b.
func (b *deviceBackend) LayerNormBackward(g backend.Storage, gl backend.Layout, x backend.Storage, xl backend.Layout, k int, mean, rstd backend.Storage, w backend.Storage, wl backend.Layout, need [3]bool) (gx, gw, gb backend.Storage) {
	gs, xs := b.store(g), b.store(x)
	ms, rs := b.store(mean), b.store(rstd)
	nd := len(xl.Shape)
	d := b.dev
	d.do(func() {
		var ws workspace
		defer ws.free()
		ol := backend.Contiguous(xl.Shape)
		v, ok := rowLayouts(xl.Shape, nd-k, nd, ol, gl, xl)
		if !ok {
			gs, gl = ws.contiguous(d, gs, gl)
			xs, xl = ws.contiguous(d, xs, xl)
			v, _ = rowLayouts(xl.Shape, nd-k, nd, ol, gl, xl)
		}
		dt := xs.dt
		numel := xl.Numel()
		wp := b.ptrOf(&ws, w, wl)
		threads := d.reduceThreads()
		if need[0] {
			out := d.newStorage(dt, numel)
			gx = out
			if per, ok := v.warpRows(); ok && numel > 0 {
				a := d.newArgs()
				a.I64(int64(v.rows)).I32(int32(v.n))
				v.packWarp(a, 0, out)
				v.packWarp(a, 1, gs)
				v.packWarp(a, 2, xs)
				a.Ptr(ms.ptr).Ptr(rs.ptr).Ptr(wp)
				d.launchWarpRows("layer_norm_backward_warp"+strconv.Itoa(per)+"_"+suffix(dt), v.rows, a)
			} else if numel > 0 {
				G := v.group(d, 1)
				a := d.newArgs()
				a.I64(int64(v.rows)).I64(int64(v.n)).Ptr(out.ptr)
				v.pack(a, 0)
				a.Ptr(gs.ptr)
				v.pack(a, 1)
				a.Ptr(xs.ptr)
				v.pack(a, 2)
				a.Ptr(ms.ptr).Ptr(rs.ptr).Ptr(wp).I32(int32(G))
				d.launchRows("layer_norm_backward_"+suffix(dt), v.rows, G, a)
			}
		}
		needW, needB := need[1] && w != nil, need[2]
		if !needW && !needB {
			return
		}
		var gwS, gbS *storage
		if needW {
			gwS = d.zeroStorage(dt, v.n)
			gw = gwS
		}
		if needB {
			gbS = d.zeroStorage(dt, v.n)
			gb = gbS
		}
		if numel == 0 {
			return
		}
		// Column sums over the rows, in P slices of the rows when there are
		// too few columns to fill the device, then summed in order.
		ntiles := (v.n + threads - 1) / threads
		P := d.parts(ntiles, v.rows, 16)
		var pw, pb driver.DevicePtr
		if needW {
			pw = gwS.ptr
			if P > 1 {
				pw = ws.alloc(d, dt, P*v.n).ptr
			}
		}
		if needB {
			pb = gbS.ptr
			if P > 1 {
				pb = ws.alloc(d, dt, P*v.n).ptr
			}
		}
		a := d.newArgs()
		a.I64(int64(v.rows)).I64(int64(v.n)).I32(int32(P)).Ptr(pw).Ptr(pb).Ptr(gs.ptr)
		v.pack(a, 1)
		a.Ptr(xs.ptr)
		v.pack(a, 2)
		a.Ptr(ms.ptr).Ptr(rs.ptr)
		d.launch("layer_norm_backward_wb_"+suffix(dt), d.gridFor(int64(ntiles*P), 1), threads, a)
		if P == 1 {
			return
		}
		for _, s := range []struct {
			out   *storage
			parts driver.DevicePtr
		}{{gwS, pw}, {gbS, pb}} {
			if s.out == nil {
				continue
			}
			a := d.newArgs()
			a.I64(int64(v.n)).I32(int32(P)).Ptr(s.out.ptr).Ptr(s.parts)
			d.elementwise("sum_parts_"+suffix(dt), int64(v.n), a)
		}
	})
	return gx, gw, gb
}

// ncsLayouts returns layouts ls of shape [N, C, ...] as [N, C, S], the
// trailing dims merged into one; ok is false when they do not merge in
// every layout.
func ncsLayouts(shape []int, ls ...backend.Layout) (out []backend.Layout, ok bool) {
	rest := shape[2:]
	rl := make([]backend.Layout, len(ls))
	for j, l := range ls {
		rl[j] = backend.Layout{Shape: rest, Strides: l.Strides[2:]}
	}
	merged, st := backend.Coalesce(rest, rl...)
	if len(merged) > 1 {
		return nil, false
	}
	s := backend.Numel(rest)
	for j, l := range ls {
		ss := 0
		if len(merged) == 1 {
			ss = st[j][0]
		}
		out = append(out, backend.Layout{Shape: []int{shape[0], shape[1], s},
			Strides: []int{l.Strides[0], l.Strides[1], ss}, Offset: l.Offset})
	}
	return out, true
}

// planeConfig returns how the per-element batch norm kernels run over
// [N, C, S]: flat (a thread per element) for short planes, else a block
// of threads per plane.
func (d *device) planeConfig(l backend.Layout) (flat bool, grid, threads int) {
	n, c, s := l.Shape[0], l.Shape[1], l.Shape[2]
	if s < 32 {
		return true, d.gridFor(int64(n*c*s), elemThreads), elemThreads
	}
	threads = 32
	for threads < elemThreads && threads < s {
		threads *= 2
	}
	return false, d.gridFor(int64(n*c), 1), threads
}

// BatchNorm normalises x per channel (dim 1).
func (b *deviceBackend) BatchNorm(x backend.Storage, xl backend.Layout, mean backend.Storage, ml backend.Layout, variance backend.Storage, vl backend.Layout, w backend.Storage, wl backend.Layout, bias backend.Storage, bl backend.Layout, eps float64) (y, batchMean, batchVar backend.Storage) {
	xs := b.store(x)
	d := b.dev
	d.do(func() {
		var ws workspace
		defer ws.free()
		l3, ok := ncsLayouts(xl.Shape, xl)
		if !ok {
			xs, xl = ws.contiguous(d, xs, xl)
			l3, _ = ncsLayouts(xl.Shape, xl)
		}
		x3 := l3[0]
		dt, c, numel := xs.dt, xl.Shape[1], xl.Numel()
		ys := d.newStorage(dt, numel)
		y = ys
		var mp, vp driver.DevicePtr
		mstride, vstride := 1, 1
		if mean == nil {
			bm, bv := d.newStorage(dt, c), d.newStorage(dt, c)
			batchMean, batchVar = bm, bv
			if c == 0 {
				return
			}
			d.batchNormStats(&ws, xs, x3, bm, bv)
			mp, vp = bm.ptr, bv.ptr
		} else {
			mp, mstride = b.store(mean).at(ml.Offset), ml.Strides[0]
			vp, vstride = b.store(variance).at(vl.Offset), vl.Strides[0]
		}
		if numel == 0 {
			return
		}
		var wp, bp driver.DevicePtr
		wstride, bstride := 0, 0
		if w != nil {
			wp, wstride = b.store(w).at(wl.Offset), wl.Strides[0]
		}
		if bias != nil {
			bp, bstride = b.store(bias).at(bl.Offset), bl.Strides[0]
		}
		flat, grid, threads := d.planeConfig(x3)
		a := d.newArgs()
		a.Ptr(ys.ptr).Ptr(xs.ptr)
		packRaw(a, x3)
		a.Ptr(mp).I64(int64(mstride)).Ptr(vp).I64(int64(vstride)).Ptr(wp).I64(int64(wstride)).Ptr(bp).I64(int64(bstride))
		floatArg(a, dt, eps)
		a.I32(b2i(flat))
		d.launch("batch_norm_apply_"+suffix(dt), grid, threads, a)
	})
	return y, batchMean, batchVar
}

// batchNormStats writes the mean and biased variance of each channel of x
// under x3 ([N, C, S]) into mean and variance. Inside do only.
func (d *device) batchNormStats(ws *workspace, xs *storage, x3 backend.Layout, mean, variance *storage) {
	dt, c, m := xs.dt, x3.Shape[1], x3.Shape[0]*x3.Shape[2]
	threads := d.reduceThreads()
	P := d.parts(c, m, 4*threads)
	pn, pm, pm2 := ws.alloc(d, dt, c*P), ws.alloc(d, dt, c*P), ws.alloc(d, dt, c*P)
	a := d.newArgs()
	a.I64(int64(c)).I32(int32(P)).Ptr(pn.ptr).Ptr(pm.ptr).Ptr(pm2.ptr).Ptr(xs.ptr)
	packRaw(a, x3)
	d.launch("batch_norm_stats_"+suffix(dt), d.gridFor(int64(c*P), 1), threads, a)
	a = d.newArgs()
	a.I64(int64(c)).I32(int32(P)).Ptr(mean.ptr).Ptr(variance.ptr).Ptr(pn.ptr).Ptr(pm.ptr).Ptr(pm2.ptr)
	d.elementwise("batch_norm_stats_final_"+suffix(dt), int64(c), a)
}

// BatchNormBackward returns the gradients of BatchNorm's x, w and b.
func (b *deviceBackend) BatchNormBackward(g backend.Storage, gl backend.Layout, x backend.Storage, xl backend.Layout, mean, variance backend.Storage, w backend.Storage, wl backend.Layout, eps float64, need [3]bool, overwrite bool) (gx, gw, gb backend.Storage) {
	gs, xs := b.store(g), b.store(x)
	ms, vs := b.store(mean), b.store(variance)
	d := b.dev
	d.do(func() {
		var ws workspace
		defer ws.free()
		l3, ok := ncsLayouts(xl.Shape, gl, xl)
		if !ok {
			gs, gl = ws.contiguous(d, gs, gl)
			xs, xl = ws.contiguous(d, xs, xl)
			l3, _ = ncsLayouts(xl.Shape, gl, xl)
		}
		g3, x3 := l3[0], l3[1]
		dt, c, numel := xs.dt, xl.Shape[1], xl.Numel()
		m := x3.Shape[0] * x3.Shape[2]
		var gwS, gbS *storage
		if need[1] {
			gwS = d.newStorage(dt, c)
			gw = gwS
		}
		if need[2] {
			gbS = d.newStorage(dt, c)
			gb = gbS
		}
		var out *storage
		if need[0] {
			if overwrite && gl.IsContiguous() && gl.Offset == 0 && gs.n == numel {
				out = gs
			} else {
				out = d.newStorage(dt, numel)
			}
			gx = out
		}
		if c == 0 {
			return
		}
		threads := d.reduceThreads()
		P := d.parts(c, m, 4*threads)
		psg, psgx := ws.alloc(d, dt, c*P), ws.alloc(d, dt, c*P)
		a := d.newArgs()
		a.I64(int64(c)).I32(int32(P)).Ptr(psg.ptr).Ptr(psgx.ptr).Ptr(gs.ptr)
		packRaw(a, g3)
		a.Ptr(xs.ptr)
		packRaw(a, x3)
		a.Ptr(ms.ptr)
		d.launch("batch_norm_backward_stats_"+suffix(dt), d.gridFor(int64(c*P), 1), threads, a)

		var coef *storage
		if need[0] {
			coef = ws.alloc(d, dt, 3*c)
		}
		var wp, gwp, gbp, cp driver.DevicePtr
		wstride := 0
		if w != nil {
			wp, wstride = b.store(w).at(wl.Offset), wl.Strides[0]
		}
		if gwS != nil {
			gwp = gwS.ptr
		}
		if gbS != nil {
			gbp = gbS.ptr
		}
		if coef != nil {
			cp = coef.ptr
		}
		a = d.newArgs()
		a.I64(int64(c)).I32(int32(P)).I64(int64(m)).Ptr(psg.ptr).Ptr(psgx.ptr).Ptr(vs.ptr).Ptr(wp).I64(int64(wstride))
		floatArg(a, dt, eps)
		a.Ptr(gwp).Ptr(gbp).Ptr(cp)
		d.elementwise("batch_norm_backward_final_"+suffix(dt), int64(c), a)
		if !need[0] || numel == 0 {
			return
		}
		flat, grid, th := d.planeConfig(x3)
		a = d.newArgs()
		a.Ptr(out.ptr).Ptr(gs.ptr)
		packRaw(a, g3)
		a.Ptr(xs.ptr)
		packRaw(a, x3)
		a.Ptr(ms.ptr).Ptr(coef.ptr).I32(b2i(flat))
		d.launch("batch_norm_backward_apply_"+suffix(dt), grid, th, a)
	})
	return gx, gw, gb
}

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
			d.launchRows("cross_entropy_"+suffix(dt), n, G, a)
			d.checkIndex("CrossEntropy", 1)
		}
		a := d.newArgs()
		a.I64(int64(n)).Ptr(lossS.ptr).Ptr(rowLoss.ptr)
		d.launch("mean_rows_"+suffix(dt), 1, threads, a)
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
		d.launchRows("cross_entropy_backward_"+suffix(xs.dt), v.rows, G, a)
	})
	return out
}

// ReLUBackward returns g where y > 0 and 0 elsewhere, over g when
// overwrite allows it.
func (b *deviceBackend) ReLUBackward(g backend.Storage, gl backend.Layout, y backend.Storage, yl backend.Layout, overwrite bool) backend.Storage {
	return b.gradPass("relu_backward_", g, gl, y, yl, overwrite)
}

// ActivationBackward returns the gradient of GELU's, Tanh's or Sigmoid's
// input in one pass (kernels/activation.cu), over g when overwrite allows.
func (b *deviceBackend) ActivationBackward(op backend.UnaryOp, g backend.Storage, gl backend.Layout, v backend.Storage, vl backend.Layout, overwrite bool) backend.Storage {
	var kernel string
	switch op {
	case backend.OpGELU:
		kernel = "gelu_backward_"
	case backend.OpTanh:
		kernel = "tanh_backward_"
	case backend.OpSigmoid:
		kernel = "sigmoid_backward_"
	default:
		panic("cuda: ActivationBackward of " + op.String())
	}
	return b.gradPass(kernel, g, gl, v, vl, overwrite)
}

// gradPass runs an activation's backward kernel (kernel + dtype suffix)
// over g and the saved operand v, each read once, into a new contiguous
// storage or, when overwrite allows, over g's own.
func (b *deviceBackend) gradPass(kernel string, g backend.Storage, gl backend.Layout, v backend.Storage, vl backend.Layout, overwrite bool) backend.Storage {
	gs, vs := b.store(g), b.store(v)
	n := gl.Numel()
	var out *storage
	d := b.dev
	d.do(func() {
		if overwrite && gl.IsContiguous() && gl.Offset == 0 && gs.n == n {
			out = gs
		} else {
			out = d.newStorage(gs.dt, n)
		}
		shape, st := backend.Coalesce(gl.Shape, gl, vl)
		a := d.newArgs()
		a.I64(int64(n)).Ptr(out.ptr).Ptr(gs.ptr)
		packLayout(a, shape, st[0], gl.Offset)
		a.Ptr(vs.ptr)
		packLayout(a, shape, st[1], vl.Offset)
		d.elementwise(kernel+suffix(gs.dt), int64(n), a)
	})
	return out
}

// MaxPool2dBackward returns the gradient of MaxPool2d's input of shape
// [N, C, H, W].
func (b *deviceBackend) MaxPool2dBackward(g backend.Storage, gl backend.Layout, idx backend.Storage, shape []int, kernel, stride, padding [2]int) backend.Storage {
	gs, ix := b.store(g), b.store(idx)
	win := backend.NewWindow(shape, kernel, stride, padding, [2]int{1, 1})
	total := backend.Numel(shape)
	var out *storage
	d := b.dev
	d.do(func() {
		out = d.newStorage(gs.dt, total)
		a := d.newArgs()
		a.I64(int64(total)).Ptr(out.ptr).Ptr(gs.ptr)
		packRaw(a, gl)
		a.Ptr(ix.ptr)
		packConv(a, win)
		d.elementwise("maxpool2d_backward_"+suffix(gs.dt), int64(total), a)
	})
	return out
}
