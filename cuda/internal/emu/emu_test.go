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
	if got, want := Kernels(), kernels.Kernels(); !slices.Equal(got, want) {
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

// TestBarrier runs a block reduction, whose threads must meet at each
// __syncthreads, against a plain sum.
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
	for _, threads := range []int{1, 32, 256} {
		var a driver.Args
		a.I64(rows).I64(cols).Ptr(out).Ptr(px).Struct(lb[:], 8).I32(1)
		if err := Launch("sum_f64", driver.Dim3{2, 1, 1}, driver.Dim3{threads, 1, 1}, &a); err != nil {
			t.Fatal(err)
		}
		got := download[float64](t, d, out, rows)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Errorf("%d threads: row %d sum = %v, want %v", threads, i, got[i], want[i])
			}
		}
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
