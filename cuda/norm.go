package cuda

import (
	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/backend"
)

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
			d.launchWarpRows(kernelFor(layerNormWarp[per], xs.dt), v.rows, a)
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
		d.launchRows(kernelFor(kernels.LayerNorm, xs.dt), v.rows, G, a)
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
				d.launchWarpRows(kernelFor(layerNormBackwardWarp[per], dt), v.rows, a)
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
				d.launchRows(kernelFor(kernels.LayerNormBackward, dt), v.rows, G, a)
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
		d.launch(kernelFor(kernels.LayerNormBackwardWb, dt), d.gridFor(int64(ntiles*P), 1), threads, a)
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
			d.elementwise(kernelFor(kernels.SumParts, dt), int64(v.n), a)
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
		d.launch(kernelFor(kernels.BatchNormApply, dt), grid, threads, a)
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
	d.launch(kernelFor(kernels.BatchNormStats, dt), d.gridFor(int64(c*P), 1), threads, a)
	a = d.newArgs()
	a.I64(int64(c)).I32(int32(P)).Ptr(mean.ptr).Ptr(variance.ptr).Ptr(pn.ptr).Ptr(pm.ptr).Ptr(pm2.ptr)
	d.elementwise(kernelFor(kernels.BatchNormStatsFinal, dt), int64(c), a)
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
		d.launch(kernelFor(kernels.BatchNormBackwardStats, dt), d.gridFor(int64(c*P), 1), threads, a)

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
		d.elementwise(kernelFor(kernels.BatchNormBackwardFinal, dt), int64(c), a)
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
		d.launch(kernelFor(kernels.BatchNormBackwardApply, dt), grid, th, a)
	})
	return gx, gw, gb
}

// The layer-norm warp-row kernels by elements a lane (rowView.warpRows).
var (
	layerNormWarp = map[int]kernels.Op{1: kernels.LayerNormWarp1, 2: kernels.LayerNormWarp2,
		4: kernels.LayerNormWarp4, 8: kernels.LayerNormWarp8, 16: kernels.LayerNormWarp16, 32: kernels.LayerNormWarp32}
	layerNormBackwardWarp = map[int]kernels.Op{1: kernels.LayerNormBackwardWarp1, 2: kernels.LayerNormBackwardWarp2,
		4: kernels.LayerNormBackwardWarp4, 8: kernels.LayerNormBackwardWarp8, 16: kernels.LayerNormBackwardWarp16,
		32: kernels.LayerNormBackwardWarp32}
)
