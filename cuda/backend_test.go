//go:build cgo

package cuda

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"

	"github.com/gotensor/gotensor/tensorlib/backend"

	"github.com/gotensor/gotensor/tensorlib/optim"
)

func cudaBackend(t *testing.T) *deviceBackend {
	t.Helper()
	d, err := getDevice(0)
	if err != nil {
		t.Fatal(err)
	}
	return &deviceBackend{dev: d}
}

// TestPhiloxKnownAnswer checks the generator against the Random123
// known-answer vector for Philox4x32-10 with zero key and counter:
// 6627e8d5 e169c58d bc57ac4c 9b00dbd8.
func TestPhiloxKnownAnswer(t *testing.T) {
	b := cudaBackend(t)
	u := b.ToHost(b.Random(backend.Uniform, tensor.Float32, 1, 0, 1, 0), backend.Contiguous([]int{1})).([]float32)
	if want := float32(0x6627e8) / (1 << 24); u[0] != want {
		t.Errorf("uniform f32 from the zero counter = %v, want %v", u[0], want)
	}
	d := b.ToHost(b.Random(backend.Uniform, tensor.Float64, 1, 0, 1, 0), backend.Contiguous([]int{1})).([]float64)
	if want := float64((uint64(0x6627e8d5)<<32|0xe169c58d)>>11) / (1 << 53); d[0] != want {
		t.Errorf("uniform f64 from the zero counter = %v, want %v", d[0], want)
	}
}

func TestRandom(t *testing.T) {
	b := cudaBackend(t)
	const n = 20000
	l := backend.Contiguous([]int{n})
	f64 := func(s backend.Storage) []float64 {
		switch v := b.ToHost(b.Cast(s, l, tensor.Float64), l).(type) {
		case []float64:
			return v
		}
		panic("unreachable")
	}
	moments := func(v []float64) (mean, std float64) {
		for _, x := range v {
			mean += x
		}
		mean /= float64(len(v))
		for _, x := range v {
			std += (x - mean) * (x - mean)
		}
		return mean, math.Sqrt(std / float64(len(v)))
	}
	for _, c := range []struct {
		name      string
		dist      backend.Distribution
		dt        tensor.DType
		a, b      float64
		mean, std float64
	}{
		{"uniform f32", backend.Uniform, tensor.Float32, -1, 2, 0.5, 3 / math.Sqrt(12)},
		{"uniform f64", backend.Uniform, tensor.Float64, 0, 1, 0.5, 1 / math.Sqrt(12)},
		{"normal f32", backend.Normal, tensor.Float32, 1, 2, 1, 2},
		{"normal f64", backend.Normal, tensor.Float64, 0, 1, 0, 1},
		{"int i64", backend.IntUniform, tensor.Int64, -3, 5, 0.5, math.Sqrt((64 - 1) / 12.0)},
		{"int f32", backend.IntUniform, tensor.Float32, 0, 10, 4.5, math.Sqrt(99 / 12.0)},
	} {
		v := f64(b.Random(c.dist, c.dt, n, c.a, c.b, 7))
		again := f64(b.Random(c.dist, c.dt, n, c.a, c.b, 7))
		other := f64(b.Random(c.dist, c.dt, n, c.a, c.b, 8))
		same, diff := true, 0
		for i := range v {
			same = same && v[i] == again[i]
			if v[i] != other[i] {
				diff++
			}
			if c.dist != backend.Normal && (v[i] < c.a || v[i] >= c.b) {
				t.Fatalf("%s: element %d = %v outside [%v, %v)", c.name, i, v[i], c.a, c.b)
			}
			if c.dist == backend.IntUniform && v[i] != math.Trunc(v[i]) {
				t.Fatalf("%s: element %d = %v is not an integer", c.name, i, v[i])
			}
		}
		if !same {
			t.Errorf("%s: the same seed gave different numbers", c.name)
		}
		if diff < n/2 {
			t.Errorf("%s: seeds 7 and 8 agree on %d of %d elements", c.name, n-diff, n)
		}
		// 5 standard errors.
		mean, std := moments(v)
		if math.Abs(mean-c.mean) > 5*c.std/math.Sqrt(n) || math.Abs(std-c.std) > 0.05*c.std {
			t.Errorf("%s: mean %.4f std %.4f, want %.4f and %.4f", c.name, mean, std, c.mean, c.std)
		}
	}
}

func TestIndexErrors(t *testing.T) {
	x := tensor.Randn(3, 4)
	idx := tensor.FromInts([]int{0, 4, 1}, 3, 1)
	var want, got *tensor.IndexError
	errCPU := tensor.Try(func() { x.Gather(1, idx) })
	errGPU := tensor.Try(func() { x.To(tensor.CUDA(0)).Gather(1, idx.To(tensor.CUDA(0))) })
	if !errors.As(errCPU, &want) || !errors.As(errGPU, &got) {
		t.Fatalf("Gather out of range: cpu %v, cuda %v; want *tensor.IndexError from both", errCPU, errGPU)
	}
	if got.Error() != want.Error() || got.Index != 4 || got.Size != 4 {
		t.Errorf("cuda error %q, cpu %q", got, want)
	}
	errGPU = tensor.Try(func() {
		x.To(tensor.CUDA(0)).IndexSelect(0, tensor.FromInts([]int{2, -1}, 2).To(tensor.CUDA(0)))
	})
	if !errors.As(errGPU, &got) || got.Index != -1 || got.Size != 3 {
		t.Errorf("IndexSelect with -1: %v", errGPU)
	}
	// The device goes on working.
	if s := x.To(tensor.CUDA(0)).Sum().Item(); math.Abs(s-x.Sum().Item()) > 1e-5 {
		t.Errorf("sum after an index error = %v", s)
	}
}

// TestScatterAddReference checks ScatterAdd and IndexAdd, with repeated
// indices and a transposed destination, against plain loops.
func TestScatterAddReference(t *testing.T) {
	b := cudaBackend(t)
	// dst is a [3, 4] view (transpose of [4, 3] storage); scatter along dim 1.
	dl := backend.Layout{Shape: []int{3, 4}, Strides: []int{1, 3}}
	dst := b.FromHost(make([]float64, 12))
	idx := []int64{3, 3, 0, 1, 1, 1}         // [3, 2]
	src := []float64{1, 2, 10, 20, 100, 200} // [3, 2]
	il, sl := backend.Contiguous([]int{3, 2}), backend.Contiguous([]int{3, 2})
	b.ScatterAdd(dst, dl, 1, b.FromHost(idx), il, b.FromHost(src), sl)
	want := make([]float64, 12) // storage order: [4, 3]
	for i := 0; i < 3; i++ {
		for j := 0; j < 2; j++ {
			want[int(idx[i*2+j])*3+i] += src[i*2+j]
		}
	}
	if got := b.ToHost(dst, backend.Contiguous([]int{12})).([]float64); !equalF64(got, want) {
		t.Errorf("ScatterAdd: storage %v, want %v", got, want)
	}

	// IndexAdd along dim 0 of [4, 2] with index [2, 0, 2] and src [3, 2].
	dst = b.FromHost(make([]float32, 8))
	b.IndexAdd(dst, backend.Contiguous([]int{4, 2}), 0, b.FromHost([]int64{2, 0, 2}), backend.Contiguous([]int{3}),
		b.FromHost([]float32{1, 2, 3, 4, 5, 6}), backend.Contiguous([]int{3, 2}))
	got := b.ToHost(dst, backend.Contiguous([]int{8})).([]float32)
	if w := []float32{3, 4, 0, 0, 6, 8, 0, 0}; !equalF32(got, w) {
		t.Errorf("IndexAdd = %v, want %v", got, w)
	}
}

// TestSumReference reduces a permuted, offset view over two dims and
// compares with a plain loop.
func TestSumReference(t *testing.T) {
	b := cudaBackend(t)
	const A, B, C = 4, 70, 3 // storage [A, B, C]; view [C, A, B] via strides
	data := make([]float32, 5+A*B*C)
	for i := range data {
		data[i] = float32(math.Sin(float64(i)))
	}
	l := backend.Layout{Shape: []int{C, A, B}, Strides: []int{1, B * C, C}, Offset: 5}
	s := b.FromHost(data)
	for _, dims := range [][]int{{2}, {0, 2}, {1, 2}, {0, 1, 2}} {
		out := b.ToHost(b.Reduce(backend.OpSum, s, l, dims), backend.Contiguous([]int{numelKept(l.Shape, dims)})).([]float32)
		want := make([]float64, len(out))
		for c := 0; c < C; c++ {
			for a := 0; a < A; a++ {
				for bb := 0; bb < B; bb++ {
					idx := []int{c, a, bb}
					o := 0
					for d := 0; d < 3; d++ {
						if !contains(dims, d) {
							o = o*l.Shape[d] + idx[d]
						}
					}
					want[o] += float64(data[5+c+a*B*C+bb*C])
				}
			}
		}
		for i := range want {
			if math.Abs(float64(out[i])-want[i]) > 1e-4 {
				t.Errorf("dims %v: out[%d] = %v, want %v", dims, i, out[i], want[i])
			}
		}
	}
}

func numelKept(shape, dims []int) int {
	n := 1
	for d, s := range shape {
		if !contains(dims, d) {
			n *= s
		}
	}
	return n
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestIm2ColReference unfolds a transposed input and compares with the
// definition of torch.nn.functional.unfold, then checks Col2Im as its
// adjoint: <Im2Col(x), c> = <x, Col2Im(c)>.
func TestIm2ColReference(t *testing.T) {
	b := cudaBackend(t)
	const N, C, H, W = 2, 2, 5, 4
	k, st, p, dl := [2]int{2, 3}, [2]int{2, 1}, [2]int{1, 1}, [2]int{1, 2}
	// Storage [N, C, W, H]; view [N, C, H, W].
	data := make([]float64, N*C*H*W)
	for i := range data {
		data[i] = float64(i%17) - 8
	}
	l := backend.Layout{Shape: []int{N, C, H, W}, Strides: []int{C * H * W, H * W, 1, H}}
	x := func(n, c, h, w int) float64 { return data[n*C*H*W+c*H*W+w*H+h] }
	OH := (H+2*p[0]-dl[0]*(k[0]-1)-1)/st[0] + 1
	OW := (W+2*p[1]-dl[1]*(k[1]-1)-1)/st[1] + 1
	rows, L := C*k[0]*k[1], OH*OW
	got := b.ToHost(b.Im2Col(b.FromHost(data), l, k, st, p, dl), backend.Contiguous([]int{N * rows * L})).([]float64)
	for n := 0; n < N; n++ {
		for c := 0; c < C; c++ {
			for i := 0; i < k[0]; i++ {
				for j := 0; j < k[1]; j++ {
					for oh := 0; oh < OH; oh++ {
						for ow := 0; ow < OW; ow++ {
							h, w := oh*st[0]-p[0]+i*dl[0], ow*st[1]-p[1]+j*dl[1]
							want := 0.0
							if h >= 0 && h < H && w >= 0 && w < W {
								want = x(n, c, h, w)
							}
							r := (c*k[0]+i)*k[1] + j
							if g := got[(n*rows+r)*L+oh*OW+ow]; g != want {
								t.Fatalf("col (%d, %d, %d) = %v, want %v", n, r, oh*OW+ow, g, want)
							}
						}
					}
				}
			}
		}
	}
	cols := make([]float64, len(got))
	dot1 := 0.0
	for i := range cols {
		cols[i] = float64(i%5) - 2
		dot1 += cols[i] * got[i]
	}
	back := b.ToHost(b.Col2Im(b.FromHost(cols), backend.Contiguous([]int{N, rows, L}), []int{N, C, H, W}, k, st, p, dl),
		backend.Contiguous([]int{N * C * H * W})).([]float64)
	dot2 := 0.0
	for n := 0; n < N; n++ {
		for c := 0; c < C; c++ {
			for h := 0; h < H; h++ {
				for w := 0; w < W; w++ {
					dot2 += x(n, c, h, w) * back[((n*C+c)*H+h)*W+w]
				}
			}
		}
	}
	if dot1 != dot2 {
		t.Errorf("<Im2Col(x), c> = %v but <x, Col2Im(c)> = %v", dot1, dot2)
	}
}

// TestOptimParity runs a few Adam, AdamW and SGD steps on both devices,
// with a transposed gradient, through package optim (which calls the
// backends' fused AdamStep and SGDStep).
func TestOptimParity(t *testing.T) {
	tensor.ManualSeed(3)
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
		p0 := tensor.Randn(5, 4).AsType(dt)
		grads := []*tensor.Tensor{tensor.Randn(4, 5).AsType(dt), tensor.Randn(4, 5).AsType(dt), tensor.Randn(4, 5).AsType(dt)}
		optimizers := []func(p *tensor.Tensor) optim.Optimizer{
			func(p *tensor.Tensor) optim.Optimizer { return optim.NewAdam([]*tensor.Tensor{p}, 0.01) },
			func(p *tensor.Tensor) optim.Optimizer {
				return optim.NewAdam([]*tensor.Tensor{p}, 0.1, optim.Betas(0.8, 0.99), optim.Eps(1e-6), optim.WeightDecay(0.1))
			},
			func(p *tensor.Tensor) optim.Optimizer {
				return optim.NewAdamW([]*tensor.Tensor{p}, 0.1, optim.Betas(0.8, 0.99), optim.Eps(1e-6), optim.WeightDecay(0.1))
			},
			func(p *tensor.Tensor) optim.Optimizer { return optim.NewSGD([]*tensor.Tensor{p}, 0.1) },
			func(p *tensor.Tensor) optim.Optimizer {
				return optim.NewSGD([]*tensor.Tensor{p}, 0.1, optim.Momentum(0.9), optim.WeightDecay(0.01))
			},
			func(p *tensor.Tensor) optim.Optimizer {
				return optim.NewSGD([]*tensor.Tensor{p}, 0.1, optim.Momentum(0.9), optim.Dampening(0.1))
			},
			func(p *tensor.Tensor) optim.Optimizer {
				return optim.NewSGD([]*tensor.Tensor{p}, 0.1, optim.Momentum(0.9), optim.Nesterov())
			},
		}
		run := func(dev tensor.Device) []*tensor.Tensor {
			var out []*tensor.Tensor
			for _, newOpt := range optimizers {
				p := p0.Clone().To(dev).SetRequiresGrad(true)
				opt := newOpt(p)
				for _, g := range grads {
					p.SetGrad(g.To(dev).T())
					opt.Step()
				}
				out = append(out, p.To(tensor.CPU))
			}
			return out
		}
		want, got := run(tensor.CPU), run(tensor.CUDA(0))
		for i := range want {
			assertClose(t, fmt.Sprintf("%v optimizer %d", dt, i), got[i], want[i])
		}
	}
}

func equalF64(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalF32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
