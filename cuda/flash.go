package cuda

import (
	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/kernels"
	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The device backend implements backend.FlashAttention with the kernels
// of kernels/flash.cu, which use the tensor cores' mma.sync m16n8k16
// (compute capability 8.0 and up; the emulator runs them on any CPU).
var _ backend.FlashAttention = (*deviceBackend)(nil)

// flashThreads is FA_THREADS of kernels/flash.cu (4 warps), and flashRows
// FA_ROWS, the queries (or keys) of one block.
const (
	flashThreads = 128
	flashRows    = 64
)

// flashFormat is the 16-bit format the flash kernels compute in: "bf16"
// or "f16", that of BFloat16 and Float16 operands; Float32 ones are
// rounded to bfloat16 (what tensor.AttnFlash asks for), or to float16 in
// the tests.
type flashFormat string

const (
	flashBF16 flashFormat = "bf16"
	flashF16  flashFormat = "f16"
)

// tensorCores reports whether the device runs mma.sync m16n8k16 with
// bf16 and f16 operands: compute capability 8.0 and up, or the emulator.
func (d *device) tensorCores() bool { return d.props.Emulated || d.props.Major >= 8 }

// FlashAttentionSupports implements backend.FlashAttention: BFloat16,
// Float16 and Float32 operands (rounded to bfloat16 in the kernels) with
// head size 64 or 128, on a device with tensor cores for bfloat16.
func (b *deviceBackend) FlashAttentionSupports(dt backend.DType, e int) bool {
	return (dt == tensor.Float32 || dt.IsHalf()) && (e == 64 || e == 128) && b.dev.tensorCores()
}

// flashFormatOf returns the format the kernels compute dt in: its own for
// the 16-bit dtypes, bfloat16 for Float32.
func flashFormatOf(dt tensor.DType) flashFormat {
	if dt == tensor.Float16 {
		return flashF16
	}
	return flashBF16
}

// flashKernel names a flash kernel: flash_fwd_d64_bf16_f32 (float32
// operands computed in bfloat16), say.
func flashKernel(op map[int]kernels.Op, e int, dt tensor.DType, f flashFormat) kernels.Kernel {
	return kernelKey(op[e], string(f)+"_"+suffix(dt))
}

// The flash kernels by head size.
var (
	flashFwd     = map[int]kernels.Op{64: kernels.FlashFwdD64, 128: kernels.FlashFwdD128}
	flashBwdDkdv = map[int]kernels.Op{64: kernels.FlashBwdDkdvD64, 128: kernels.FlashBwdDkdvD128}
	flashBwdDq   = map[int]kernels.Op{64: kernels.FlashBwdDqD64, 128: kernels.FlashBwdDqD128}
)

// flashGrid returns the blocks for rows rows (queries or keys) in each of
// bs batches: one block per flashRows rows, capped as grid-stride kernels
// are (the kernels loop over the rest).
func (d *device) flashGrid(bs, rows int) int {
	return d.gridFor(int64(bs*((rows+flashRows-1)/flashRows)), 1)
}

// flashArgs starts the arguments of the forward and backward kernels.
func (d *device) flashArgs(bs, l, s int, ptrs ...*storage) *driver.Args {
	a := d.newArgs()
	a.I64(int64(bs)).I64(int64(l)).I64(int64(s))
	for _, p := range ptrs {
		a.Ptr(p.ptr)
	}
	return a
}

// FlashAttentionForward implements backend.FlashAttention.
func (b *deviceBackend) FlashAttentionForward(q, k, v backend.Storage, bs, l, s, e int, scale float64, causal bool) (out, lse backend.Storage) {
	return b.flashForward(q, k, v, bs, l, s, e, scale, causal, flashFormatOf(q.DType()))
}

func (b *deviceBackend) flashForward(q, k, v backend.Storage, bs, l, s, e int, scale float64, causal bool, f flashFormat) (out, lse backend.Storage) {
	qs, ks, vs := b.store(q), b.store(k), b.store(v)
	var o, ls *storage
	d := b.dev
	d.do(func() {
		o, ls = d.newStorage(qs.dt, bs*l*e), d.newStorage(tensor.Float32, bs*l)
		if bs*l == 0 {
			return
		}
		a := d.flashArgs(bs, l, s, qs, ks, vs, o, ls)
		a.F32(float32(scale)).I32(causalFlag(causal))
		d.launch(flashKernel(flashFwd, e, qs.dt, f), d.flashGrid(bs, l), flashThreads, a)
	})
	return o, ls
}

// FlashAttentionBackward implements backend.FlashAttention.
func (b *deviceBackend) FlashAttentionBackward(q, k, v, out, lse, g backend.Storage, bs, l, s, e int, scale float64, causal bool) (dq, dk, dv backend.Storage) {
	return b.flashBackward(q, k, v, out, lse, g, bs, l, s, e, scale, causal, flashFormatOf(q.DType()))
}

func (b *deviceBackend) flashBackward(q, k, v, out, lse, g backend.Storage, bs, l, s, e int, scale float64, causal bool, f flashFormat) (dq, dk, dv backend.Storage) {
	qs, ks, vs, os, ls, gs := b.store(q), b.store(k), b.store(v), b.store(out), b.store(lse), b.store(g)
	var gq, gk, gv *storage
	d := b.dev
	d.do(func() {
		gq, gk, gv = d.newStorage(qs.dt, bs*l*e), d.newStorage(qs.dt, bs*s*e), d.newStorage(qs.dt, bs*s*e)
		if bs*l == 0 || bs*s == 0 {
			return
		}
		delta := d.newStorage(tensor.Float32, bs*l)
		defer delta.Free() // stream order: later work may reuse it
		// delta_i = dout_i · out_i, a warp per row.
		a := d.newArgs()
		a.I64(int64(bs * l)).I32(int32(e)).Ptr(os.ptr).Ptr(gs.ptr).Ptr(delta.ptr)
		d.launch(kernelFor(kernels.FlashBwdDelta, qs.dt), d.gridFor(int64(bs*l), flashThreads/32), flashThreads, a)
		a = d.flashArgs(bs, l, s, qs, ks, vs, gs, ls, delta, gk, gv)
		a.F32(float32(scale)).I32(causalFlag(causal))
		d.launch(flashKernel(flashBwdDkdv, e, qs.dt, f), d.flashGrid(bs, s), flashThreads, a)
		a = d.flashArgs(bs, l, s, qs, ks, vs, gs, ls, delta, gq)
		a.F32(float32(scale)).I32(causalFlag(causal))
		d.launch(flashKernel(flashBwdDq, e, qs.dt, f), d.flashGrid(bs, l), flashThreads, a)
	})
	return gq, gk, gv
}
