package cuda

import (
	"math"

	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/backend"
)

// AdamStep updates p, m and v in place with one Adam (or AdamW) step.
func (b *deviceBackend) AdamStep(p backend.Storage, pl backend.Layout, g backend.Storage, gl backend.Layout, m backend.Storage, ml backend.Layout, v backend.Storage, vl backend.Layout, h backend.AdamParams) {
	ps, gs, ms, vs := b.store(p), b.store(g), b.store(m), b.store(v)
	n := pl.Numel()
	// The AdamArgs struct of kernels/optim.cu; bias corrections in float64
	// as the CPU backend computes them.
	var sb structBuilder
	sb.f64(h.Beta1)
	sb.f64(h.Beta2)
	sb.f64(h.Eps)
	sb.f64(h.WeightDecay)
	sb.f64(h.LR / (1 - math.Pow(h.Beta1, float64(h.Step))))
	sb.f64(math.Sqrt(1 - math.Pow(h.Beta2, float64(h.Step))))
	sb.f64(1 - h.LR*h.WeightDecay)
	sb.i32(b2i(h.Decoupled))
	sb.i32(b2i(h.WeightDecay != 0))
	d := b.dev
	d.do(func() {
		shape, st := backend.Coalesce(gl.Shape, gl)
		a := d.newArgs()
		a.I64(int64(n)).Ptr(ps.at(pl.Offset)).Ptr(gs.ptr)
		packLayout(a, shape, st[0], gl.Offset)
		a.Ptr(ms.at(ml.Offset)).Ptr(vs.at(vl.Offset))
		a.Struct(sb.b, 8)
		d.elementwise(kernelFor(kernels.Adam, ps.dt), int64(n), a)
	})
}

// SGDStep updates p (and the momentum buffer) in place with one SGD step.
func (b *deviceBackend) SGDStep(p backend.Storage, pl backend.Layout, g backend.Storage, gl backend.Layout, buf backend.Storage, bl backend.Layout, h backend.SGDParams) {
	ps, gs := b.store(p), b.store(g)
	var bs *storage
	if buf != nil {
		bs = b.store(buf)
	}
	n := pl.Numel()
	var sb structBuilder
	sb.f64(h.LR)
	sb.f64(h.Momentum)
	sb.f64(h.Dampening)
	sb.f64(h.WeightDecay)
	sb.i32(b2i(h.Nesterov))
	sb.i32(b2i(h.First))
	sb.i32(b2i(h.Momentum != 0))
	sb.i32(b2i(h.WeightDecay != 0))
	d := b.dev
	d.do(func() {
		shape, st := backend.Coalesce(gl.Shape, gl)
		a := d.newArgs()
		a.I64(int64(n)).Ptr(ps.at(pl.Offset)).Ptr(gs.ptr)
		packLayout(a, shape, st[0], gl.Offset)
		if bs != nil {
			a.Ptr(bs.at(bl.Offset))
		} else {
			a.Ptr(0)
		}
		a.Struct(sb.b, 8)
		d.elementwise(kernelFor(kernels.Sgd, ps.dt), int64(n), a)
	})
}
