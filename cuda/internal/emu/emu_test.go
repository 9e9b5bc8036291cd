//go:build cgo

package emu

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/gotensor/gotensor/cuda/internal/driver"
	"github.com/gotensor/gotensor/kernels"
)

// TestKernelTable checks that the emulator has exactly the kernels of the
// PTX, so a kernel added to a .cu file runs on both.
func TestKernelTable(t *testing.T) {
	var want []string
	for _, k := range kernels.Kernels() {
		want = append(want, string(k))
	}
	if got := Kernels(); !slices.Equal(got, want) {
		t.Fatalf("emulator kernels differ from the PTX entries: run go generate ./kernels\nemu: %v\nptx: %v", got, want)
	}
}

func upload[T any](t *testing.T, d *Driver, v []T) driver.DevicePtr {
	t.Helper()
	n := len(v) * int(unsafe.Sizeof(v[0]))
	p, err := d.Alloc(n)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.MemcpyHtoD(p, unsafe.Pointer(&v[0]), n); err != nil {
		t.Fatal(err)
	}
	return p
}

func download[T any](t *testing.T, d *Driver, p driver.DevicePtr, n int) []T {
	t.Helper()
	v := make([]T, n)
	if err := d.MemcpyDtoH(unsafe.Pointer(&v[0]), p, n*int(unsafe.Sizeof(v[0]))); err != nil {
		t.Fatal(err)
	}
	return v
}

// contigLayout packs kernels/common.cuh's Layout for n contiguous elements:
// ndim 1, contig 1, offset 0, shape {n}, strides {1}.
func contigLayout(a *driver.Args, n int) {
	var b [144]byte
	binary.LittleEndian.PutUint32(b[0:], 1)
	binary.LittleEndian.PutUint32(b[4:], 1)
	binary.LittleEndian.PutUint64(b[16:], uint64(n))
	binary.LittleEndian.PutUint64(b[80:], 1)
	a.Struct(b[:], 8)
}

func TestLaunchAdd(t *testing.T) {
	d := New(Options{})
	defer d.Close()
	const n = 1000
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), float32(2*i)+0.5
	}
	px, py := upload(t, d, x), upload(t, d, y)
	out, _ := d.Alloc(4 * n)
	var a driver.Args
	a.I64(n).Ptr(out).Ptr(px)
	contigLayout(&a, n)
	a.Ptr(py)
	contigLayout(&a, n)
	m, _ := d.LoadModule("elementwise", nil)
	f, err := m.Function("add_f32")
	if err != nil {
		t.Fatal(err)
	}
	// A grid smaller than n: the grid-stride loop covers the rest.
	if err := d.Launch(f, driver.Dim3{3, 1, 1}, driver.Dim3{64, 1, 1}, 0, &a); err != nil {
		t.Fatal(err)
	}
	got := download[float32](t, d, out, n)
	for i := range got {
		if want := float32(3*i) + 0.5; got[i] != want {
			t.Fatalf("out[%d] = %v, want %v", i, got[i], want)
		}
	}
}

// TestBarrier runs the row reduction, whose threads meet at __syncthreads
// and at warp shuffles, against a plain sum: one block a row (group =
// the block) and lanes of a warp a row.
func TestBarrier(t *testing.T) {
	d := New(Options{})
	defer d.Close()
	const rows, cols = 5, 300
	x := make([]float64, rows*cols)
	want := make([]float64, rows)
	for i := range x {
		x[i] = math.Sin(float64(i))
		want[i/cols] += x[i]
	}
	px := upload(t, d, x)
	out, _ := d.Alloc(8 * rows)
	// Layout [rows, cols], strides [cols, 1]; nkeep = 1.
	var lb [144]byte
	binary.LittleEndian.PutUint32(lb[0:], 2)
	binary.LittleEndian.PutUint64(lb[16:], rows)
	binary.LittleEndian.PutUint64(lb[24:], cols)
	binary.LittleEndian.PutUint64(lb[80:], cols)
	binary.LittleEndian.PutUint64(lb[88:], 1)
	for _, c := range []struct{ threads, group int }{{32, 32}, {64, 64}, {256, 256}, {96, 8}, {32, 1}} {
		var a driver.Args
		a.I64(rows).I64(cols).Ptr(out).Ptr(0).Ptr(px).Struct(lb[:], 8).I32(1).I64(cols).I32(1).I64(cols).I32(int32(c.group))
		if err := Launch("sum_rows_f64", driver.Dim3{2, 1, 1}, driver.Dim3{c.threads, 1, 1}, &a); err != nil {
			t.Fatal(err)
		}
		got := download[float64](t, d, out, rows)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Errorf("%d threads, groups of %d: row %d sum = %v, want %v", c.threads, c.group, i, got[i], want[i])
			}
		}
	}
}

// shflWant is CUDA's shuffle (kind 0 idx, 1 up, 2 down, 3 xor) for lane of
// a warp of n lanes: the source lane, or lane itself when the source lies
// outside lane's segment of width lanes or past the warp's end.
func shflWant(kind, arg, width, lane, n int) int {
	seg := lane &^ (width - 1)
	var src int
	switch kind {
	case 0:
		src = seg + arg&(width-1)
	case 1:
		src = lane - arg
	case 2:
		src = lane + arg
	default:
		src = lane ^ arg
	}
	if src < seg || src >= seg+width || src >= n {
		return lane
	}
	return src
}

// TestShuffles runs each shuffle on each type over blocks of whole and
// partial warps and checks which lane's value every lane received.
func TestShuffles(t *testing.T) {
	d := New(Options{})
	defer d.Close()
	const grid = 2
	for _, block := range []int{32, 64, 40} {
		n := grid * block
		for _, c := range []struct{ kind, arg, width int }{
			{0, 5, 32}, {0, 3, 8}, {1, 1, 32}, {1, 4, 16}, {2, 1, 32}, {2, 16, 32}, {2, 2, 4},
			{3, 1, 32}, {3, 16, 32}, {3, 7, 8}, {3, 8, 8},
		} {
			check := func(typ string, got []float64) {
				t.Helper()
				for i, g := range got {
					b, tid := i/block, i%block
					lane, warp := tid%32, tid/32
					lanes := min(32, block-32*warp)
					src := shflWant(c.kind, c.arg, c.width, lane, lanes)
					if want := float64(b*block + warp*32 + src); g != want {
						t.Fatalf("block %d, %s shuffle %+v: thread %d got the value of %v, want %v", block, typ, c, i, g, want)
					}
				}
			}
			run := func(name string, in, out driver.DevicePtr) {
				t.Helper()
				var a driver.Args
				a.Ptr(out).Ptr(in).I32(int32(c.kind)).I32(int32(c.arg)).I32(int32(c.width))
				if err := Launch(name, driver.Dim3{grid, 1, 1}, driver.Dim3{block, 1, 1}, &a); err != nil {
					t.Fatal(err)
				}
			}
			i32, f32, f64, i64 := make([]int32, n), make([]float32, n), make([]float64, n), make([]int64, n)
			for i := range n {
				i32[i], f32[i], f64[i], i64[i] = int32(i), float32(i), float64(i), int64(i)
			}
			// Values that use every byte: a shuffle that moved 4 of 8
			// bytes would lose them.
			big := func(v []int64) []float64 {
				r := make([]float64, len(v))
				for i, x := range v {
					r[i] = float64(x - 1<<40)
				}
				return r
			}
			for i := range i64 {
				i64[i] += 1 << 40
				f64[i] += 0.25
			}
			pi, pf, pd, pl := upload(t, d, i32), upload(t, d, f32), upload(t, d, f64), upload(t, d, i64)
			out, _ := d.Alloc(8 * n)
			conv := func(f func(i int) float64) []float64 {
				r := make([]float64, n)
				for i := range r {
					r[i] = f(i)
				}
				return r
			}
			run("selftest_shfl_i32", pi, out)
			o32 := download[int32](t, d, out, n)
			check("int", conv(func(i int) float64 { return float64(o32[i]) }))
			run("selftest_shfl_u32", pi, out)
			ou := download[uint32](t, d, out, n)
			check("unsigned", conv(func(i int) float64 { return float64(ou[i]) }))
			run("selftest_shfl_f32", pf, out)
			of := download[float32](t, d, out, n)
			check("float", conv(func(i int) float64 { return float64(of[i]) }))
			run("selftest_shfl_f64", pd, out)
			od := download[float64](t, d, out, n)
			check("double", conv(func(i int) float64 { return od[i] - 0.25 }))
			run("selftest_shfl_i64", pl, out)
			check("long long", big(download[int64](t, d, out, n)))
			for _, p := range []driver.DevicePtr{pi, pf, pd, pl, out} {
				d.Free(p)
			}
		}
	}
}

// TestBlockReduce checks block_reduce (sum and max) and warp_reduce over
// groups of 8 lanes for block sizes from one warp to 1024 threads.
func TestBlockReduce(t *testing.T) {
	d := New(Options{})
	defer d.Close()
	const grid = 3
	for _, block := range []int{32, 64, 96, 256, 1024} {
		n := grid * block
		x := make([]int64, n)
		for i := range x {
			x[i] = int64((i*7919)%1000) - 500 + int64(i)<<33
		}
		px := upload(t, d, x)
		out, _ := d.Alloc(8 * 3 * grid)
		var a driver.Args
		a.Ptr(out).Ptr(px)
		if err := Launch("selftest_sums", driver.Dim3{grid, 1, 1}, driver.Dim3{block, 1, 1}, &a); err != nil {
			t.Fatal(err)
		}
		got := download[int64](t, d, out, 3*grid)
		for b := range grid {
			var sum, mx int64 = 0, math.MinInt64
			for _, v := range x[b*block : (b+1)*block] {
				sum += v
				mx = max(mx, v)
			}
			if got[3*b] != sum || got[3*b+1] != mx || got[3*b+2] != sum {
				t.Errorf("block of %d, block %d: sum %d, max %d, groups of 8 %d; want %d, %d, %d",
					block, b, got[3*b], got[3*b+1], got[3*b+2], sum, mx, sum)
			}
		}
		d.Free(px)
		d.Free(out)
	}
}

// TestRowsReduce checks rows_reduce (kernels/rows.cuh) with an op that is
// not commutative, composition of affine maps, for groups within a warp
// and across warps: every thread of a group must get the maps of its
// group's threads composed in thread order.
func TestRowsReduce(t *testing.T) {
	d := New(Options{})
	defer d.Close()
	const grid, block = 2, 64
	n := grid * block
	in := make([]uint64, 2*n)
	for i := range in {
		in[i] = uint64(i)*0x9e3779b97f4a7c15 + 1
	}
	pin := upload(t, d, in)
	defer d.Free(pin)
	for _, G := range []int{1, 2, 8, 32, 64} {
		out, _ := d.Alloc(8 * 2 * n)
		var a driver.Args
		a.Ptr(out).Ptr(pin).I32(int32(G))
		if err := Launch("selftest_rows", driver.Dim3{grid, 1, 1}, driver.Dim3{block, 1, 1}, &a); err != nil {
			t.Fatal(err)
		}
		got := download[uint64](t, d, out, 2*n)
		for i := range n {
			// The composition f0 after f1 after ... of the group's maps.
			wa, wb := uint64(1), uint64(0)
			for j := i - i%G; j < i-i%G+G; j++ {
				wa, wb = wa*in[2*j], wa*in[2*j+1]+wb
			}
			if got[2*i] != wa || got[2*i+1] != wb {
				t.Errorf("G %d, thread %d: got x -> %#x x + %#x, want %#x x + %#x", G, i, got[2*i], got[2*i+1], wa, wb)
			}
		}
		d.Free(out)
	}
}

// TestSyncwarp checks that __syncwarp orders shared memory within a warp,
// in whole and partial warps.
func TestSyncwarp(t *testing.T) {
	d := New(Options{})
	defer d.Close()
	for _, block := range []int{32, 70} {
		out, _ := d.Alloc(4 * 2 * block)
		var a driver.Args
		a.Ptr(out)
		if err := Launch("selftest_syncwarp", driver.Dim3{2, 1, 1}, driver.Dim3{block, 1, 1}, &a); err != nil {
			t.Fatal(err)
		}
		got := download[int32](t, d, out, 2*block)
		for i, g := range got {
			b, tid := i/block, i%block
			base := tid - tid%32
			lanes := min(32, block-base)
			if want := int32(1000*(b+1) + base + (tid%32+1)%lanes); g != want {
				t.Fatalf("block of %d: thread %d read %d, want %d", block, i, g, want)
			}
		}
		d.Free(out)
	}
}

// TestWarpMisuse checks that the emulator fails launches whose warp
// primitives a GPU would run with undefined results.
func TestWarpMisuse(t *testing.T) {
	d := New(Options{})
	defer d.Close()
	out, _ := d.Alloc(4 * 64)
	defer d.Free(out)
	for name, want := range map[string]string{
		"selftest_diverge": "returned while others wait at a warp primitive",
		"selftest_mixed":   "waits at a warp primitive while lanes of its warp wait at __syncthreads",
	} {
		var a driver.Args
		a.Ptr(out)
		err := Launch(name, driver.Dim3{1, 1, 1}, driver.Dim3{64, 1, 1}, &a)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error containing %q", name, err, want)
		}
	}
	// A misaligned vector load: sum_rows_f32 over a contiguous row reads
	// 16-byte vectors from the first aligned element; a layout that
	// claims a row but an odd pointer is caught.
	buf, _ := d.Alloc(4 * 64)
	defer d.Free(buf)
	var lb [144]byte
	binary.LittleEndian.PutUint32(lb[0:], 1)
	binary.LittleEndian.PutUint64(lb[16:], 40)
	binary.LittleEndian.PutUint64(lb[80:], 1)
	var a driver.Args
	a.I64(1).I64(40).Ptr(out).Ptr(0).Ptr(buf.Add(2)).Struct(lb[:], 8).I32(0).I64(40).I32(1).I64(40).I32(32)
	if err := Launch("sum_rows_f32", driver.Dim3{1, 1, 1}, driver.Dim3{32, 1, 1}, &a); err == nil || !strings.Contains(err.Error(), "misaligned vector load") {
		t.Errorf("misaligned: %v", err)
	}
}

func TestLaunchErrors(t *testing.T) {
	var a driver.Args
	a.I64(1)
	for _, c := range []struct {
		name  string
		block int
		want  string
	}{
		{"no_such_kernel", 1, "no kernel no_such_kernel"},
		{"add_f32", 1, "takes 6 arguments, got 1"},
		{"neg_f32", 2048, ""},
	} {
		err := Launch(c.name, driver.Dim3{1, 1, 1}, driver.Dim3{c.block, 1, 1}, &a)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Launch(%s): %v, want an error containing %q", c.name, err, c.want)
		}
	}
	// Right count, wrong size: a float where the kernel takes a long long.
	var b driver.Args
	b.F32(1).Ptr(0).Ptr(0)
	contigLayout(&b, 1)
	if err := Launch("neg_f32", driver.Dim3{1, 1, 1}, driver.Dim3{1, 1, 1}, &b); err == nil || !strings.Contains(err.Error(), "argument 0 is 8 bytes, got 4") {
		t.Errorf("size mismatch: %v", err)
	}
}

func TestMemory(t *testing.T) {
	d := New(Options{Memory: 1 << 20})
	defer d.Close()
	p, err := d.Alloc(1 << 19)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Alloc(1<<19 + 1); !errors.Is(err, driver.ErrOutOfMemory) {
		t.Errorf("Alloc beyond the limit: %v, want ErrOutOfMemory", err)
	}
	if d.Used() != 1<<19 {
		t.Errorf("Used = %d", d.Used())
	}
	if err := d.Memset(p.Add(100), 7, 1<<19); err == nil {
		t.Error("Memset past the allocation succeeded")
	}
	if err := d.Free(p); err != nil {
		t.Fatal(err)
	}
	if err := d.Free(p); err == nil {
		t.Error("double Free succeeded")
	}
	if d.Used() != 0 {
		t.Errorf("Used = %d after Free", d.Used())
	}
}

// naiveGemm computes column-major C = alpha*op(A)*op(B) + beta*C.
func naiveGemm(g driver.GemmArgs, a, b, c []float64) {
	for z := 0; z < g.Batch; z++ {
		A, B, C := a[z*int(g.StrideA):], b[z*int(g.StrideB):], c[z*int(g.StrideC):]
		for i := 0; i < g.M; i++ {
			for j := 0; j < g.N; j++ {
				s := 0.0
				for p := 0; p < g.K; p++ {
					av := A[i+p*g.LDA]
					if g.TransA {
						av = A[p+i*g.LDA]
					}
					bv := B[p+j*g.LDB]
					if g.TransB {
						bv = B[j+p*g.LDB]
					}
					s += av * bv
				}
				C[i+j*g.LDC] = g.Alpha*s + g.Beta*C[i+j*g.LDC]
			}
		}
	}
}

// TestGemmColumnMajor checks the emulated cuBLAS GEMM against a plain
// column-major loop, over transposes, padded leading dimensions, batch
// strides (0 broadcasts) and alpha/beta.
func TestGemmColumnMajor(t *testing.T) {
	d := New(Options{})
	defer d.Close()
	for i, g := range []driver.GemmArgs{
		{M: 3, N: 4, K: 5, LDA: 3, LDB: 5, LDC: 3, Alpha: 1, Batch: 1},
		{TransA: true, M: 3, N: 4, K: 5, LDA: 6, LDB: 7, LDC: 4, Alpha: 2, Beta: 0.5, Batch: 1},
		{TransB: true, M: 2, N: 3, K: 4, LDA: 2, LDB: 3, LDC: 2, Alpha: 1, Batch: 3, StrideA: 8, StrideB: 0, StrideC: 6},
		{TransA: true, TransB: true, M: 4, N: 2, K: 3, LDA: 3, LDB: 2, LDC: 5, Alpha: -1, Beta: 1, Batch: 2, StrideA: 12, StrideB: 6, StrideC: 10},
	} {
		for _, double := range []bool{false, true} {
			g.Double = double
			an, bn, cn := 64, 64, 64
			a, b, c := make([]float64, an), make([]float64, bn), make([]float64, cn)
			for k := range a {
				a[k], b[k], c[k] = math.Sin(float64(k)), math.Cos(float64(3*k)), float64(k%7)
			}
			want := append([]float64(nil), c...)
			naiveGemm(g, a, b, want)
			var got []float64
			if double {
				g.A, g.B, g.C = upload(t, d, a), upload(t, d, b), upload(t, d, c)
				if err := d.Gemm(g); err != nil {
					t.Fatal(err)
				}
				got = download[float64](t, d, g.C, cn)
			} else {
				f32 := func(v []float64) []float32 {
					out := make([]float32, len(v))
					for k, x := range v {
						out[k] = float32(x)
					}
					return out
				}
				g.A, g.B, g.C = upload(t, d, f32(a)), upload(t, d, f32(b)), upload(t, d, f32(c))
				if err := d.Gemm(g); err != nil {
					t.Fatal(err)
				}
				for _, x := range download[float32](t, d, g.C, cn) {
					got = append(got, float64(x))
				}
			}
			for k := range want {
				if math.Abs(got[k]-want[k]) > 1e-5*(1+math.Abs(want[k])) {
					t.Fatalf("case %d (double %v): C[%d] = %v, want %v", i, double, k, got[k], want[k])
				}
			}
		}
	}
	// cuBLAS rejects a leading dimension below the rows; so does the emulator.
	if err := d.Gemm(driver.GemmArgs{M: 3, N: 1, K: 1, LDA: 2, LDB: 1, LDC: 3, Batch: 1}); err == nil {
		t.Error("lda < m accepted")
	}
}
