package cuda

import (
	"fmt"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/kernels"
)

// Copies go to the kernels of kernels/copy.cu, chosen from the merged
// (coalesced) view:
//
//   - copy_flat_b16 when both sides are dense and 16-byte aligned (else
//     the driver's memcpy);
//   - copy_rows when some dim is contiguous (stride 1) in both source and
//     destination: a permute that keeps the last dim, such as
//     Permute(0, 2, 1, 3) before a Reshape, copies whole rows, 16 bytes
//     per load and store when the rows are aligned;
//   - transpose when the destination's contiguous dim is not the
//     source's, as in x.Transpose(-2, -1).Contiguous(): 32×32 tiles
//     through shared memory, so that reads and writes are both coalesced;
//   - the per-element strided copy otherwise (no dim with stride 1).
//
// A copy visits every element once in any order, so the dims are
// reordered freely to put the row or the tile dims last.

// minRow is the shortest row copy_rows takes; shorter rows use the
// per-element copy or the transpose.
const minRow = 4

// copyFast copies src under (shape, ss, soff) to dst under (shape, ds,
// doff), merged views of the same shape, with copy_rows or transpose, and
// reports whether it did. Inside do only.
func (d *device) copyFast(src *storage, shape, ss []int, soff int, dst *storage, ds []int, doff int) bool {
	nd := len(shape)
	c, r := -1, -1 // the dims of stride 1 in dst and in src
	for i := nd - 1; i >= 0; i-- {
		if ds[i] == 1 && c < 0 {
			c = i
		}
		if ss[i] == 1 && r < 0 {
			r = i
		}
	}
	if c < 0 || r < 0 {
		return false
	}
	es := elemSize(src.dt)
	n := 1
	for _, s := range shape {
		n *= s
	}
	small := int32(0)
	if n < 1<<31 {
		small = 1
	}
	// rest returns the shape and strides of the dims other than skip.
	rest := func(strides []int, skip ...int) (sh, st []int) {
		for i := range shape {
			if i != skip[0] && (len(skip) < 2 || i != skip[1]) {
				sh = append(sh, shape[i])
				st = append(st, strides[i])
			}
		}
		return sh, st
	}
	if c == r {
		length := shape[c]
		if length < minRow {
			return false
		}
		osh, dst1 := rest(ds, c)
		_, sst := rest(ss, c)
		rows := n / length
		width := es
		if v := 16 / es; es < 16 && length%v == 0 && doff%v == 0 && soff%v == 0 && allDivisible(v, dst1, sst) {
			width = 16
			length /= v
			doff /= v
			soff /= v
			dst1, sst = divideAll(v, dst1), divideAll(v, sst)
		}
		a := d.newArgs()
		a.I64(int64(rows)).I64(int64(length)).I32(small).Ptr(dst.ptr)
		packLayout(a, osh, dst1, doff)
		a.Ptr(src.ptr)
		packLayout(a, osh, sst, soff)
		// bx threads along a row (a power of two, at least the row's
		// length up to 256), by rows per block of 256 threads.
		bx := 1
		for bx < length && bx < 256 {
			bx *= 2
		}
		by := 256 / bx
		if d.props.Emulated {
			bx, by = min(bx, 16), min(by, 4) // each emulated thread costs a host call
		}
		grid := min((rows+by-1)/by, max(1, d.props.MultiProcessors)*blocksPerSM)
		d.launchDims(copyRowsKernels[width], driver.Dim3{grid, 1, 1}, driver.Dim3{bx, by, 1}, a)
		return true
	}
	R, C := shape[r], shape[c]
	bsh, bds := rest(ds, r, c)
	_, bss := rest(ss, r, c)
	batch := n / (R * C)
	a := d.newArgs()
	a.I64(int64(R)).I64(int64(C)).I64(int64(batch)).I32(small).Ptr(dst.ptr)
	packLayout(a, bsh, bds, doff)
	a.I64(int64(ds[r])).I64(int64(ds[c])).Ptr(src.ptr)
	packLayout(a, bsh, bss, soff)
	a.I64(int64(ss[r])).I64(int64(ss[c]))
	const tile, tileRows = 32, 8 // TILE and TILE_ROWS of kernels/copy.cu
	tilesR, tilesC := (R+tile-1)/tile, (C+tile-1)/tile
	grid := driver.Dim3{min(tilesC, 65535), min(tilesR, 65535), min(batch, 65535)}
	d.launchDims(transposeKernels[es], grid, driver.Dim3{tile, tileRows, 1}, a)
	return true
}

// copyFlat copies bytes from src to dst, dense buffers, with the
// vectorized copy_flat_b16 kernel when both addresses and the size are
// multiples of 16, and reports whether it did (else the caller uses the
// driver's memcpy). Inside do only.
func (d *device) copyFlat(src, dst driver.DevicePtr, bytes int) bool {
	if src%16 != 0 || dst%16 != 0 || bytes%16 != 0 {
		return false
	}
	n := int64(bytes / 16)
	a := d.newArgs()
	a.I64(n).Ptr(dst).Ptr(src)
	d.elementwise(kernels.CopyFlatB16, n, a)
	return true
}

// allDivisible reports whether v divides every element of each slice.
func allDivisible(v int, xs ...[]int) bool {
	for _, x := range xs {
		for _, e := range x {
			if e%v != 0 {
				return false
			}
		}
	}
	return true
}

// divideAll returns x with every element divided by v.
func divideAll(v int, x []int) []int {
	out := make([]int, len(x))
	for i, e := range x {
		out[i] = e / v
	}
	return out
}

// launchDims launches name on a grid and blocks of up to three dims.
// Inside do only.
func (d *device) launchDims(k kernels.Kernel, grid, block driver.Dim3, args *driver.Args) {
	if grid.Count() <= 0 {
		return
	}
	name := string(k)
	f := d.function(k)
	d.timed(name, func() {
		if err := d.drv.Launch(f, grid, block, 0, args); err != nil {
			d.fail(err, fmt.Sprintf("launching %s (grid %v, block %v)", name, grid, block))
		}
	})
}

// The row-copy and transpose kernels by element width in bytes.
var (
	copyRowsKernels = map[int]kernels.Kernel{1: kernels.CopyRowsB1, 2: kernels.CopyRowsB2,
		4: kernels.CopyRowsB4, 8: kernels.CopyRowsB8, 16: kernels.CopyRowsB16}
	transposeKernels = map[int]kernels.Kernel{1: kernels.TransposeB1, 2: kernels.TransposeB2,
		4: kernels.TransposeB4, 8: kernels.TransposeB8}
)
