package tensor_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestMultinomialFrequencies draws many samples and compares the counts
// with the weights: each count is within 5 standard deviations of its
// binomial mean.
func TestMultinomialFrequencies(t *testing.T) {
	for _, dev := range testDevices(t) {
		w := []float64{0.1, 0, 0.4, 0.2, 0.3}
		probs := tensor.FromFloat64s(append(append([]float64{}, w...), 0, 0, 0, 1, 0), 2, 5).MulScalar(3).AsType(tensor.Float32).To(dev)
		tensor.ManualSeed(7)
		const n = 20000
		got := tensor.Multinomial(probs, n, true)
		if !slices.Equal(got.Shape(), []int{2, n}) || got.DType() != tensor.Int64 || got.Device() != dev {
			t.Fatalf("%v: shape %v dtype %v device %v", dev, got.Shape(), got.DType(), got.Device())
		}
		idx := got.Int64s()
		counts := make([]float64, 5)
		for _, v := range idx[:n] {
			counts[v]++
		}
		for i, p := range w {
			sd := math.Sqrt(n * p * (1 - p))
			if math.Abs(counts[i]-n*p) > 5*sd+1e-9 {
				t.Errorf("%v: category %d drawn %v times, want about %v", dev, i, counts[i], n*p)
			}
		}
		for _, v := range idx[n:] {
			if v != 3 {
				t.Fatalf("%v: row with one nonzero weight drew %d", dev, v)
			}
		}
		tensor.ManualSeed(7)
		if again := tensor.Multinomial(probs, n, true).Int64s(); !slices.Equal(again, idx) {
			t.Errorf("%v: the same seed drew different samples", dev)
		}
	}
}

func TestMultinomialWithoutReplacement(t *testing.T) {
	for _, dev := range testDevices(t) {
		probs := tensor.FromFloat32s([]float32{0.5, 0, 0.2, 0.3}).To(dev)
		firsts := make([]float64, 4)
		const trials = 4000
		tensor.ManualSeed(3)
		for i := 0; i < trials; i++ {
			s := tensor.Multinomial(probs, 3, false).Int64s()
			seen := map[int64]bool{}
			for _, v := range s {
				if v == 1 || seen[v] {
					t.Fatalf("%v: draw %v repeats a category or draws one of weight 0", dev, s)
				}
				seen[v] = true
			}
			firsts[s[0]]++
		}
		// The first draw of each set follows the weights.
		for i, p := range []float64{0.5, 0, 0.2, 0.3} {
			sd := math.Sqrt(trials * p * (1 - p))
			if math.Abs(firsts[i]-trials*p) > 5*sd+1e-9 {
				t.Errorf("%v: category %d drawn first %v times, want about %v", dev, i, firsts[i], trials*p)
			}
		}
	}
}

func TestMultinomialErrors(t *testing.T) {
	var ve *tensor.ValueError
	var de *tensor.DTypeError
	var se *tensor.ShapeError
	for _, c := range []struct {
		name string
		f    func()
		want any
	}{
		{"negative", func() { tensor.Multinomial(tensor.FromFloat32s([]float32{0.5, -0.1}), 1, true) }, &ve},
		{"zero row", func() { tensor.Multinomial(tensor.Zeros(2, 3), 1, true) }, &ve},
		{"too many", func() { tensor.Multinomial(tensor.FromFloat32s([]float32{0.5, 0, 0.5}), 3, false) }, &ve},
		{"int", func() { tensor.Multinomial(tensor.FromInt64s([]int64{1, 2}), 1, true) }, &de},
		{"3-d", func() { tensor.Multinomial(tensor.Ones(2, 2, 2), 1, true) }, &se},
	} {
		err := tensor.Try(c.f)
		if err == nil || !errors.As(err, c.want) {
			t.Errorf("%s: got %v, want a %T", c.name, err, c.want)
		}
	}
}

// TestSortGradFiniteDifferences checks the gradients of Sort, TopK,
// CumSum, Tril and MaskedFill by central differences in float64.
func TestSortGradFiniteDifferences(t *testing.T) {
	x0 := []float64{0.3, -1.2, 2.5, 0.7, -0.4, 1.9, -2.2, 0.1, 1.1, -0.8, 0.6, -1.5}
	mask := tensor.FromBools([]bool{true, false, false, true, false, true, false, false, true, false, false, true}, 3, 4)
	f := func(x *tensor.Tensor) *tensor.Tensor {
		s, _ := x.Sort(1, false)
		k, _ := x.TopK(2, 0)
		return s.CumSum(1).Mul(s).Sum().Add(k.Square().Sum()).Add(x.Tril(1).MaskedFill(mask, 3).Exp().Sum())
	}
	x := tensor.FromFloat64s(x0, 3, 4).SetRequiresGrad(true)
	f(x).Backward()
	g := x.Grad().Float64s()
	const h = 1e-6
	for i := range x0 {
		p, m := slices.Clone(x0), slices.Clone(x0)
		p[i] += h
		m[i] -= h
		want := (f(tensor.FromFloat64s(p, 3, 4)).Item() - f(tensor.FromFloat64s(m, 3, 4)).Item()) / (2 * h)
		if math.Abs(g[i]-want) > 1e-5*math.Max(1, math.Abs(want)) {
			t.Errorf("grad %d = %v, finite differences give %v", i, g[i], want)
		}
	}
}
