//go:build cgo

package cuda

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/nn"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The fused kernels (softmax.go, norm.go, loss.go, activation.go,
// pool.go) against the CPU backend, forward and backward: rows shorter and longer than a block (the emulator's blocks
// have 32 threads) and not multiples of it, strided views, NaN and
// infinities, empty tensors, float32 and float64.

// rowSizes are the row lengths the cases sweep: one element, fewer than a
// block, just over one, many blocks' worth and just over a power of two.
var rowSizes = []int{1, 3, 33, 1000, 1025}

var (
	inf  = float32(math.Inf(1))
	nan  = float32(math.NaN())
	pair = func(a, b int) [2]int { return [2]int{a, b} }
)

// special returns a [4, 6] tensor whose rows hold a NaN, a +Inf, -Inf
// elements (a mask) and only -Inf.
func special() *tensor.Tensor {
	return tensor.FromFloat32s([]float32{
		0.5, nan, 1, 2, -1, 0,
		1, 2, inf, -3, 0.25, 1,
		-inf, 1, 2, -inf, 0.5, -inf,
		-inf, -inf, -inf, -inf, -inf, -inf,
	}, 4, 6)
}

// causalMask returns [t, t] with 0 on and below the diagonal, -Inf above.
func causalMask(t int) *tensor.Tensor {
	v := make([]float32, t*t)
	for i := 0; i < t; i++ {
		for j := i + 1; j < t; j++ {
			v[i*t+j] = -inf
		}
	}
	return tensor.FromFloat32s(v, t, t)
}

func softmaxCases() []parityCase {
	var cs []parityCase
	for _, log := range []bool{false, true} {
		name := "Softmax"
		sm := func(x *tensor.Tensor, dim int) *tensor.Tensor { return x.Softmax(dim) }
		if log {
			name = "LogSoftmax"
			sm = func(x *tensor.Tensor, dim int) *tensor.Tensor { return x.LogSoftmax(dim) }
		}
		for _, n := range rowSizes {
			cs = append(cs,
				parityCase{name: fmt.Sprintf("%s/rows of %d", name, n), inputs: in(randn(3, n)),
					f: func(x []*tensor.Tensor) *tensor.Tensor { return sm(x[0], -1) }},
				parityCase{name: fmt.Sprintf("%s/f64 rows of %d", name, n), inputs: in(f64(2, n)),
					f: func(x []*tensor.Tensor) *tensor.Tensor { return sm(x[0], 1) }},
			)
		}
		cs = append(cs,
			parityCase{name: name + "/transposed", inputs: in(randn(33, 5)),
				f: func(x []*tensor.Tensor) *tensor.Tensor { return sm(x[0].T(), 1) }},
			parityCase{name: name + "/dim 0", inputs: in(randn(40, 6)),
				f: func(x []*tensor.Tensor) *tensor.Tensor { return sm(x[0], 0) }},
			// Enough strided rows side by side for one thread a row.
			parityCase{name: name + "/dim 0 of many columns", inputs: in(randn(33, 300)),
				f: func(x []*tensor.Tensor) *tensor.Tensor { return sm(x[0], 0) }},
			parityCase{name: name + "/middle dim", inputs: in(randn(2, 33, 4)),
				f: func(x []*tensor.Tensor) *tensor.Tensor { return sm(x[0], 1) }},
			parityCase{name: name + "/narrowed permuted", inputs: in(randn(4, 5, 40)),
				f: func(x []*tensor.Tensor) *tensor.Tensor { return sm(x[0].Narrow(2, 3, 35).Permute(1, 0, 2), -1) }},
			parityCase{name: name + "/expanded", inputs: in(randn(1, 7)),
				f: func(x []*tensor.Tensor) *tensor.Tensor { return sm(x[0].Expand(3, 7), -1) }},
			parityCase{name: name + "/NaN Inf -Inf", inputs: in(fixed(special())),
				f: func(x []*tensor.Tensor) *tensor.Tensor { return sm(x[0], 1) }},
			parityCase{name: name + "/causal mask", inputs: in(randn(2, 3, 9, 9), fixed(causalMask(9))),
				f: func(x []*tensor.Tensor) *tensor.Tensor { return sm(x[0].Add(x[1]), -1) }},
			parityCase{name: name + "/empty rows", inputs: in(randn(3, 0)),
				f: func(x []*tensor.Tensor) *tensor.Tensor { return sm(x[0], 1) }},
			parityCase{name: name + "/no rows", inputs: in(randn(0, 5)),
				f: func(x []*tensor.Tensor) *tensor.Tensor { return sm(x[0], 1) }},
		)
	}
	return cs
}

func layerNormCases() []parityCase {
	ln := func(shape ...int) func(x []*tensor.Tensor) *tensor.Tensor {
		return func(x []*tensor.Tensor) *tensor.Tensor {
			var w, b *tensor.Tensor
			if len(x) > 1 {
				w = x[1]
			}
			if len(x) > 2 {
				b = x[2]
			}
			return tensor.LayerNorm(x[0], shape, w, b, 1e-5)
		}
	}
	var cs []parityCase
	for _, n := range rowSizes {
		cs = append(cs,
			parityCase{name: fmt.Sprintf("LayerNorm/rows of %d", n), inputs: in(randn(3, n), randn(n), randn(n)), f: ln(n)},
			parityCase{name: fmt.Sprintf("LayerNorm/f64 rows of %d", n), inputs: in(f64(2, n), f64(n), f64(n)), f: ln(n)},
		)
	}
	cs = append(cs,
		parityCase{name: "LayerNorm/two dims", inputs: in(randn(2, 3, 4, 5), randn(4, 5), randn(4, 5)), f: ln(4, 5)},
		parityCase{name: "LayerNorm/no affine", inputs: in(randn(5, 7)), f: ln(7)},
		parityCase{name: "LayerNorm/weight only", inputs: in(randn(5, 7), randn(7)), f: ln(7)},
		// Many short rows: the weight's gradient sums the rows in slices.
		parityCase{name: "LayerNorm/many rows", inputs: in(randn(50, 3), randn(3), randn(3)), f: ln(3)},
		parityCase{name: "LayerNorm/many rows 33", inputs: in(randn(40, 33), randn(33), randn(33)), f: ln(33)},
		parityCase{name: "LayerNorm/transposed", inputs: in(randn(33, 6), randn(6), randn(6)), f: func(x []*tensor.Tensor) *tensor.Tensor {
			return tensor.LayerNorm(x[0].T(), []int{33}, nil, nil, 1e-5).Add(tensor.LayerNorm(x[0], []int{6}, x[1], x[2], 1e-3).T())
		}},
		// Trailing dims that do not merge: a contiguous copy first.
		parityCase{name: "LayerNorm/permuted", inputs: in(randn(4, 5, 3), randn(3, 5)), f: func(x []*tensor.Tensor) *tensor.Tensor {
			return tensor.LayerNorm(x[0].Transpose(1, 2), []int{3, 5}, x[1], nil, 1e-5)
		}},
		parityCase{name: "LayerNorm/expanded weight", inputs: in(randn(3, 8), randn(1)), f: func(x []*tensor.Tensor) *tensor.Tensor {
			return tensor.LayerNorm(x[0], []int{8}, x[1].Expand(8), nil, 1e-5)
		}},
		parityCase{name: "LayerNorm/NaN Inf", inputs: in(fixed(special())), f: ln(6)},
		parityCase{name: "LayerNorm/empty", inputs: in(randn(0, 4), randn(4), randn(4)), f: ln(4)},
	)
	return cs
}

func batchNormCases() []parityCase {
	bn := func(x []*tensor.Tensor) *tensor.Tensor {
		var w, b *tensor.Tensor
		if len(x) > 1 {
			w, b = x[1], x[2]
		}
		return tensor.BatchNorm(x[0], nil, nil, w, b, true, 0.1, 1e-5)
	}
	return []parityCase{
		// Few channels: each channel's statistics in slices over blocks.
		{name: "BatchNorm/few channels", inputs: in(randn(8, 3, 10, 10), randn(3), randn(3)), f: bn},
		{name: "BatchNorm/many channels", inputs: in(randn(4, 16, 5, 5), randn(16), randn(16)), f: bn},
		{name: "BatchNorm/1d", inputs: in(randn(6, 5), randn(5), randn(5)), f: bn},
		{name: "BatchNorm/1d one channel", inputs: in(randn(1025, 1), randn(1), randn(1)), f: bn},
		{name: "BatchNorm/long planes", inputs: in(randn(2, 3, 40), randn(3), randn(3)), f: bn},
		{name: "BatchNorm/no affine", inputs: in(randn(3, 4, 33)), f: bn},
		{name: "BatchNorm/f64", inputs: in(f64(5, 3, 7, 7), f64(3), f64(3)), f: bn},
		{name: "BatchNorm/channels last", inputs: in(randn(4, 6, 7, 3), randn(3), randn(3)), f: func(x []*tensor.Tensor) *tensor.Tensor {
			return bn([]*tensor.Tensor{x[0].Permute(0, 3, 1, 2), x[1], x[2]})
		}},
		// H and W transposed do not merge: a contiguous copy first.
		{name: "BatchNorm/transposed planes", inputs: in(randn(3, 2, 5, 6), randn(2), randn(2)), f: func(x []*tensor.Tensor) *tensor.Tensor {
			return bn([]*tensor.Tensor{x[0].Transpose(2, 3), x[1], x[2]})
		}},
		{name: "BatchNorm/NaN Inf", inputs: in(fixed(tensor.FromFloat32s([]float32{1, nan, 2, 3, 4, inf, 5, 6, 7, 8, 9, 10}, 3, 2, 2))), f: bn},
		{name: "BatchNorm/running statistics", nograd: true, inputs: in(randn(4, 3, 5), randn(3), pos(3)),
			f: func(x []*tensor.Tensor) *tensor.Tensor {
				tensor.BatchNorm(x[0], x[1], x[2], nil, nil, true, 0.1, 1e-5)
				tensor.BatchNorm(x[0].MulScalar(2), x[1], x[2], nil, nil, true, 0.3, 1e-5)
				return tensor.Cat(0, x[1], x[2])
			}},
		{name: "BatchNorm/eval", nograd: true, inputs: in(randn(4, 3, 5, 5), randn(3), pos(3), randn(3), randn(3)),
			f: func(x []*tensor.Tensor) *tensor.Tensor {
				return tensor.BatchNorm(x[0], x[1], x[2].T(), x[3], x[4], false, 0.1, 1e-5)
			}},
		{name: "BatchNorm/eval strided stats", nograd: true, inputs: in(randn(4, 3, 2), randn(3, 2), pos(3, 2)),
			f: func(x []*tensor.Tensor) *tensor.Tensor {
				return tensor.BatchNorm(x[0], x[1].Select(1, 1), x[2].Select(1, 0), nil, nil, false, 0.1, 1e-3)
			}},
	}
}

func crossEntropyCases() []parityCase {
	labels := func(n, c int) func() *tensor.Tensor { return ints(0, c, n) }
	var cs []parityCase
	for _, c := range rowSizes {
		cs = append(cs,
			parityCase{name: fmt.Sprintf("CrossEntropy/%d classes", c), inputs: in(randn(5, c), labels(5, c)), f: op2CE},
			parityCase{name: fmt.Sprintf("CrossEntropy/f64 %d classes", c), inputs: in(f64(3, c), labels(3, c)), f: op2CE},
		)
	}
	cs = append(cs,
		parityCase{name: "CrossEntropy/transposed", inputs: in(randn(33, 40), labels(40, 33)), f: func(x []*tensor.Tensor) *tensor.Tensor {
			return tensor.CrossEntropy(x[0].T(), x[1])
		}},
		parityCase{name: "CrossEntropy/strided labels", inputs: in(randn(4, 7), labels(4, 7)), f: func(x []*tensor.Tensor) *tensor.Tensor {
			return tensor.CrossEntropy(x[0], x[1].Unsqueeze(1).Expand(4, 2).Select(1, 1))
		}},
		parityCase{name: "CrossEntropy/NaN Inf", inputs: in(fixed(special()), fixed(tensor.FromInts([]int{0, 2, 1, 3}, 4))), f: op2CE},
		parityCase{name: "CrossEntropy/masked classes", inputs: in(fixed(tensor.FromFloat32s([]float32{-inf, 1, 2, -inf, 0.5, 3}, 2, 3)),
			fixed(tensor.FromInts([]int{1, 2}, 2))), f: op2CE},
		parityCase{name: "CrossEntropy/no rows", inputs: in(randn(0, 4), labels(0, 4)), f: op2CE},
	)
	return cs
}

func op2CE(x []*tensor.Tensor) *tensor.Tensor { return tensor.CrossEntropy(x[0], x[1]) }

func poolCases() []parityCase {
	mp := func(k, s, p [2]int) func(x []*tensor.Tensor) *tensor.Tensor {
		return func(x []*tensor.Tensor) *tensor.Tensor { return x[0].MaxPool2d(k, s, p) }
	}
	return []parityCase{
		{name: "MaxPool2d/2x2", inputs: in(randn(2, 3, 8, 8)), f: mp(pair(2, 2), pair(2, 2), pair(0, 0))},
		{name: "MaxPool2d/odd size", inputs: in(randn(1, 2, 7, 5)), f: mp(pair(2, 2), pair(0, 0), pair(0, 0))},
		{name: "MaxPool2d/padded", inputs: in(randn(2, 2, 7, 7)), f: mp(pair(3, 3), pair(3, 3), pair(1, 1))},
		{name: "MaxPool2d/overlapping", inputs: in(randn(1, 3, 9, 8)), f: mp(pair(3, 2), pair(1, 1), pair(1, 1))},
		{name: "MaxPool2d/f64", inputs: in(f64(2, 2, 6, 6)), f: mp(pair(2, 3), pair(2, 1), pair(0, 1))},
		{name: "MaxPool2d/ties", inputs: in(func() *tensor.Tensor { return tensor.RandInt(0, 2, 2, 2, 6, 6).AsType(tensor.Float32) }),
			f: mp(pair(3, 3), pair(2, 2), pair(1, 1))},
		{name: "MaxPool2d/NaN", inputs: in(fixed(tensor.FromFloat32s([]float32{1, nan, 3, 4, 5, -inf, 7, 8, 9}, 1, 1, 3, 3))),
			f: mp(pair(2, 2), pair(1, 1), pair(0, 0))},
		{name: "MaxPool2d/strided gradient", inputs: in(randn(2, 3, 6, 8)), f: func(x []*tensor.Tensor) *tensor.Tensor {
			return x[0].MaxPool2d(pair(2, 2), pair(2, 2), pair(0, 0)).Transpose(2, 3)
		}},
		{name: "MaxPool2d/empty", inputs: in(randn(0, 3, 4, 4)), f: mp(pair(2, 2), pair(2, 2), pair(0, 0))},
	}
}

func reluCases() []parityCase {
	return []parityCase{
		{name: "ReLU/strided gradient", inputs: in(randn(5, 9)), f: func(x []*tensor.Tensor) *tensor.Tensor { return x[0].ReLU().T() }},
		{name: "ReLU/expanded gradient", inputs: in(randn(4, 6)), f: func(x []*tensor.Tensor) *tensor.Tensor {
			return x[0].ReLU().Sum(0)
		}},
		{name: "ReLU/NaN", inputs: in(fixed(special())), f: func(x []*tensor.Tensor) *tensor.Tensor { return x[0].ReLU() }},
		{name: "ReLU/f64 empty", inputs: in(f64(0, 3)), f: func(x []*tensor.Tensor) *tensor.Tensor { return x[0].ReLU() }},
	}
}

func TestFusedParity(t *testing.T) {
	for _, g := range []struct {
		name  string
		cases []parityCase
	}{
		{"softmax", softmaxCases()}, {"layer norm", layerNormCases()}, {"batch norm", batchNormCases()},
		{"cross entropy", crossEntropyCases()}, {"pool", poolCases()}, {"relu", reluCases()},
	} {
		t.Run(g.name, func(t *testing.T) { checkParity(t, g.cases) })
	}
}

// TestCrossEntropyLabelError checks that a label out of range on the device
// is the CPU's *tensor.IndexError, and that the device goes on working.
func TestCrossEntropyLabelError(t *testing.T) {
	x := tensor.Randn(3, 4)
	y := tensor.FromInts([]int{0, 4, 1}, 3)
	var want, got *tensor.IndexError
	errCPU := tensor.Try(func() { tensor.CrossEntropy(x, y) })
	errGPU := tensor.Try(func() { tensor.CrossEntropy(x.To(tensor.CUDA(0)), y.To(tensor.CUDA(0))) })
	if !errors.As(errCPU, &want) || !errors.As(errGPU, &got) {
		t.Fatalf("label 4 of 4 classes: cpu %v, cuda %v; want *tensor.IndexError from both", errCPU, errGPU)
	}
	if got.Error() != want.Error() {
		t.Errorf("cuda error %q, cpu %q", got, want)
	}
	l := tensor.CrossEntropy(x.To(tensor.CUDA(0)), tensor.FromInts([]int{0, 3, 1}, 3).To(tensor.CUDA(0))).Item()
	if w := tensor.CrossEntropy(x, tensor.FromInts([]int{0, 3, 1}, 3)).Item(); math.Abs(l-w) > 1e-5 {
		t.Errorf("loss after a label error = %v, want %v", l, w)
	}
}

// TestFusedDeterministic checks that the fused reductions give the same
// bits on every run: partial results merge in a fixed order, without
// atomics.
func TestFusedDeterministic(t *testing.T) {
	dev := tensor.CUDA(0)
	x := tensor.Randn(16, 3, 9, 9).To(dev)
	w := tensor.Randn(3).To(dev)
	w.SetRequiresGrad(true)
	run := func() ([]float32, []float32) {
		w.ZeroGrad()
		y := tensor.BatchNorm(x, nil, nil, w, nil, true, 0.1, 1e-5)
		y.Mul(y).Sum().Backward()
		return y.To(tensor.CPU).Float32s(), w.Grad().To(tensor.CPU).Float32s()
	}
	y1, g1 := run()
	y2, g2 := run()
	for i := range y1 {
		if math.Float32bits(y1[i]) != math.Float32bits(y2[i]) {
			t.Fatalf("BatchNorm output %d: %v then %v", i, y1[i], y2[i])
		}
	}
	for i := range g1 {
		if math.Float32bits(g1[i]) != math.Float32bits(g2[i]) {
			t.Fatalf("BatchNorm weight gradient %d: %v then %v", i, g1[i], g2[i])
		}
	}
}

// TestFusedWorkspacesFreed checks that the fused ops hold only their
// results once they return: partial sums and contiguous copies of views go
// back to the allocator right after the launches, not when the collector
// runs.
func TestFusedWorkspacesFreed(t *testing.T) {
	b, _ := smallDevice(t, 1<<30)
	held := func() int64 {
		al, _, _ := b.dev.alloc.stats()
		return al
	}
	f32 := func(n int) backend.Storage { return b.FromHost(tensor.Randn(n).Float32s()) }
	size := func(n int) int64 { return int64(roundSize(4 * n)) }
	check := func(what string, base, want int64) {
		t.Helper()
		if got := held() - base; got != want {
			t.Errorf("%s: holds %d more bytes, want %d (its results only)", what, got, want)
		}
	}

	// BatchNorm with 3 channels: each channel's statistics in slices.
	x := f32(8 * 3 * 100)
	xl := backend.Contiguous([]int{8, 3, 10, 10})
	base := held()
	y, bm, bv := b.BatchNorm(x, xl, nil, backend.Layout{}, nil, backend.Layout{}, nil, backend.Layout{}, nil, backend.Layout{}, 1e-5)
	check("BatchNorm", base, size(2400)+2*size(3))
	base = held()
	gx, gw, gb := b.BatchNormBackward(y, xl, x, xl, bm, bv, nil, backend.Layout{}, 1e-5, [3]bool{true, true, true}, false)
	check("BatchNormBackward", base, size(2400)+2*size(3))

	// LayerNorm over trailing dims that do not merge (a contiguous copy),
	// and over many short rows (the weight's gradient in slices).
	v := f32(30)
	vl := backend.Layout{Shape: []int{2, 3, 5}, Strides: []int{15, 1, 3}}
	w := f32(15)
	wl := backend.Contiguous([]int{3, 5})
	base = held()
	ly, lm, lr := b.LayerNorm(v, vl, 2, w, wl, nil, backend.Layout{}, 1e-5)
	check("LayerNorm of a view", base, size(30)+2*size(2))
	base = held()
	lgx, lgw, _ := b.LayerNormBackward(ly, backend.Contiguous([]int{2, 3, 5}), v, vl, 2, lm, lr, w, wl, [3]bool{true, true, false})
	check("LayerNormBackward of a view", base, size(30)+size(15))
	r := f32(50 * 3)
	rl := backend.Contiguous([]int{50, 3})
	ry, rm, rr := b.LayerNorm(r, rl, 1, nil, backend.Layout{}, nil, backend.Layout{}, 1e-5)
	rw := f32(3)
	base = held()
	_, rgw, rgb := b.LayerNormBackward(ry, rl, r, rl, 1, rm, rr, rw, backend.Contiguous([]int{3}), [3]bool{false, true, true})
	check("LayerNormBackward of many rows", base, 2*size(3))

	// CrossEntropy: the per-row losses. (The device's index-check record,
	// made on first use, stays.)
	labels := b.FromHost([]int64{0, 2, 1, 2})
	b.dev.do(func() { b.dev.errorRecord() })
	base = held()
	loss, lse := b.CrossEntropy(x, backend.Contiguous([]int{4, 3}), labels, backend.Contiguous([]int{4}))
	check("CrossEntropy", base, size(1)+size(4))
	// Every operand stays alive to the end: a collection during the test
	// would otherwise free a dead one through its finalizer and hide an
	// op's leak (seen on a GPU, where device memory paces the collector).
	runtime.KeepAlive([]backend.Storage{x, y, bm, bv, gx, gw, gb, v, w, ly, lm, lr, lgx, lgw, r, rw, ry, rm, rr, rgw, rgb, labels, loss, lse})
}

// TestWarpRowPaths checks the row kernels' warp path (rows of up to 1024
// adjacent elements, kernels/rows.cuh) on what the parity cases do not
// reach: rows spaced apart (a narrowed last dim), the gradient of a sum
// (broadcast along each row: element stride 0), Float64, rows of one and
// of exactly 1024, against the CPU; and BatchNorm's running statistics,
// updated in place on the device.
func TestWarpRowPaths(t *testing.T) {
	dev := tensor.CUDA(0)
	ops := []struct {
		name string
		f    func(x *tensor.Tensor) *tensor.Tensor
	}{
		{"Softmax", func(x *tensor.Tensor) *tensor.Tensor { return x.Softmax(-1) }},
		{"LogSoftmax", func(x *tensor.Tensor) *tensor.Tensor { return x.LogSoftmax(-1) }},
		{"LayerNorm", func(x *tensor.Tensor) *tensor.Tensor {
			n := x.Size(-1)
			w := tensor.Arange(0, float64(n), 1).MulScalar(1 / float64(n)).AddScalar(0.5) // weights 0.5 to 1.5
			return tensor.LayerNorm(x, []int{n}, w.AsType(x.DType()).To(x.Device()), nil, 1e-5)
		}},
	}
	for _, op := range ops {
		for _, c := range []struct {
			rows, width, n int // rows of width elements, narrowed to n
			dt             tensor.DType
		}{{5, 40, 33, tensor.Float32}, {3, 9, 9, tensor.Float64}, {4, 1, 1, tensor.Float32}, {2, 1030, 1024, tensor.Float32}} {
			name := fmt.Sprintf("%s/%dx%d of %d/%v", op.name, c.rows, c.n, c.width, c.dt)
			base := tensor.Randn(c.rows, c.width).AsType(c.dt)
			run := func(d tensor.Device) (out, grad *tensor.Tensor) {
				x := base.To(d).SetRequiresGrad(true)
				out = op.f(x.Narrow(1, c.width-c.n, c.n))
				out.Sum().Backward() // the gradient of out: ones, broadcast
				return out.CPU(), x.Grad().CPU()
			}
			gotOut, gotGrad := run(dev)
			wantOut, wantGrad := run(tensor.CPU)
			assertClose(t, name+" output", gotOut, wantOut)
			assertClose(t, name+" gradient", gotGrad, wantGrad)
		}
	}

	tensor.ManualSeed(5)
	cpu := nn.NewBatchNorm2d(3)
	gpu := nn.NewBatchNorm2d(3)
	nn.To(gpu, dev)
	x := tensor.Randn(4, 3, 5, 5).MulScalar(2).AddScalar(1)
	for i := 0; i < 2; i++ {
		cpu.Forward(x)
		gpu.Forward(x.To(dev))
	}
	assertClose(t, "BatchNorm running mean", gpu.RunningMean.CPU(), cpu.RunningMean)
	assertClose(t, "BatchNorm running var", gpu.RunningVar.CPU(), cpu.RunningVar)
}
