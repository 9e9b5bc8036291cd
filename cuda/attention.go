package cuda

import (
	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/backend"
)

// The device backend implements backend.Attention with the kernels of
// kernels/attention.cu.
var _ backend.Attention = (*deviceBackend)(nil)

// attnMaxHead is ATT_MAXD of kernels/attention.cu.
const attnMaxHead = 128

// MaxAttentionHead implements backend.Attention.
func (b *deviceBackend) MaxAttentionHead() int { return attnMaxHead }

// attnThreads is the block size of the attention kernels: ATT_THREADS on
// a GPU, fewer on the emulator, where each thread is a coroutine.
func (d *device) attnThreads() int {
	if d.props.Emulated {
		return 16
	}
	return 64
}

// attnArgs starts the arguments every attention kernel takes.
func (d *device) attnArgs(bs, l, s, e, ev int, ptrs ...*storage) *driver.Args {
	a := d.newArgs()
	a.I64(int64(bs)).I64(int64(l)).I64(int64(s)).I32(int32(e)).I32(int32(ev))
	for _, p := range ptrs {
		a.Ptr(p.ptr)
	}
	return a
}

func causalFlag(causal bool) int32 {
	if causal {
		return 1
	}
	return 0
}

// attnGrid returns the blocks for rows rows of each of bs batches.
func (d *device) attnGrid(bs, rows int) int {
	per := (rows + d.attnThreads() - 1) / d.attnThreads()
	return d.gridFor(int64(bs*per), 1)
}

// AttentionForward implements backend.Attention.
func (b *deviceBackend) AttentionForward(q, k, v backend.Storage, bs, l, s, e, ev int, scale float64, causal bool) (out, lse backend.Storage) {
	qs, ks, vs := b.store(q), b.store(k), b.store(v)
	var o, ls *storage
	d := b.dev
	d.do(func() {
		o, ls = d.newStorage(qs.dt, bs*l*ev), d.newStorage(qs.dt, bs*l)
		if bs*l == 0 {
			return
		}
		a := d.attnArgs(bs, l, s, e, ev, qs, ks, vs, o, ls)
		a.F64(scale).I32(causalFlag(causal))
		d.launch(kernelFor(kernels.AttnFwd, qs.dt), d.attnGrid(bs, l), d.attnThreads(), a)
	})
	return o, ls
}

// AttentionBackward implements backend.Attention.
func (b *deviceBackend) AttentionBackward(q, k, v, out, lse, g backend.Storage, bs, l, s, e, ev int, scale float64, causal bool) (dq, dk, dv backend.Storage) {
	qs, ks, vs, os, ls, gs := b.store(q), b.store(k), b.store(v), b.store(out), b.store(lse), b.store(g)
	var gq, gk, gv *storage
	d := b.dev
	d.do(func() {
		gq, gk, gv = d.newStorage(qs.dt, bs*l*e), d.newStorage(qs.dt, bs*s*e), d.newStorage(qs.dt, bs*s*ev)
		if bs*l == 0 || bs*s == 0 {
			return
		}
		dd := d.newStorage(qs.dt, bs*l)
		a := d.attnArgs(bs, l, s, e, ev, qs, ks, vs, os, gs, ls, dd, gq)
		a.F64(scale).I32(causalFlag(causal))
		d.launch(kernelFor(kernels.AttnBwdDq, qs.dt), d.attnGrid(bs, l), d.attnThreads(), a)
		a = d.attnArgs(bs, l, s, e, ev, qs, ks, vs, gs, ls, dd, gk, gv)
		a.F64(scale).I32(causalFlag(causal))
		d.launch(kernelFor(kernels.AttnBwdDkv, qs.dt), d.attnGrid(bs, s), d.attnThreads(), a)
	})
	return gq, gk, gv
}
