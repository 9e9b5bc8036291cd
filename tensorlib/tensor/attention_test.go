package tensor_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TestAttentionBlockedMatchesComposed compares the CPU's blocked attention
// with the composed ops (themselves checked against PyTorch), forward and
// backward, across head sizes, odd lengths that leave partial tiles, and
// every kind of mask.
func TestAttentionBlockedMatchesComposed(t *testing.T) {
	defer tensor.SetAttnBlockedMin(0)()
	tensor.ManualSeed(11)
	boolMask := tensor.Rand(1, 131, 97).LtScalar(0.8)
	boolMask = tensor.Cat(2, tensor.Ones(1, 131, 1).AsType(tensor.Bool), boolMask.Narrow(2, 1, 96))
	for _, c := range []struct {
		name       string
		b, l, s, e int
		opts       []tensor.AttentionOption
	}{
		{"plain_e32", 3, 70, 70, 32, nil},
		{"causal_e64", 2, 131, 131, 64, []tensor.AttentionOption{tensor.Causal()}},
		{"cross_e128", 2, 65, 129, 128, nil},
		{"bool_mask", 2, 131, 97, 32, []tensor.AttentionOption{tensor.AttnMask(boolMask)}},
		{"additive_scale", 2, 33, 97, 16, []tensor.AttentionOption{tensor.AttnMask(tensor.Randn(33, 97)), tensor.AttnScale(0.7)}},
		{"causal_short_keys", 1, 90, 40, 8, []tensor.AttentionOption{tensor.Causal()}},
		{"one", 1, 1, 1, 4, []tensor.AttentionOption{tensor.Causal()}},
	} {
		for _, dt := range []tensor.DType{tensor.Float64, tensor.Float32} {
			t.Run(fmt.Sprintf("%s/%v", c.name, dt), func(t *testing.T) {
				q := tensor.Randn(c.b, c.l, c.e).AsType(dt)
				k := tensor.Randn(c.b, c.s, c.e).AsType(dt)
				v := tensor.Randn(c.b, c.s, c.e/2+1).AsType(dt)
				w := tensor.Randn(c.b, c.l, c.e/2+1).AsType(dt)
				run := func(extra ...tensor.AttentionOption) []*tensor.Tensor {
					xs := []*tensor.Tensor{q.Clone().SetRequiresGrad(true), k.Clone().SetRequiresGrad(true), v.Clone().SetRequiresGrad(true)}
					out := tensor.ScaledDotProductAttention(xs[0], xs[1], xs[2], append(c.opts, extra...)...)
					out.Mul(w).Sum().Backward()
					return []*tensor.Tensor{out, xs[0].Grad(), xs[1].Grad(), xs[2].Grad()}
				}
				got, want := run(), run(tensor.AttnComposed())
				tol := 1e-10
				if dt == tensor.Float32 {
					tol = 2e-4
				}
				for i, name := range []string{"output", "dq", "dk", "dv"} {
					g, wt := got[i].Float64s(), want[i].Float64s()
					for j := range wt {
						if math.Abs(g[j]-wt[j]) > tol*math.Max(1, math.Abs(wt[j])) {
							t.Fatalf("%s element %d = %.10g, composed gives %.10g", name, j, g[j], wt[j])
						}
					}
				}
			})
		}
	}
}

// TestAttentionFullyMasked checks that a query that may see no key gives
// NaN, as the composed form (and PyTorch's) does, while the other rows are
// unaffected.
func TestAttentionFullyMasked(t *testing.T) {
	defer tensor.SetAttnBlockedMin(0)()
	q, k, v := tensor.Randn(1, 3, 4), tensor.Randn(1, 2, 4), tensor.Randn(1, 2, 2)
	mask := tensor.FromBools([]bool{true, false, false, false, true, true}, 3, 2)
	got := tensor.ScaledDotProductAttention(q, k, v, tensor.AttnMask(mask)).Float64s()
	want := tensor.ScaledDotProductAttention(q, k, v, tensor.AttnMask(mask), tensor.AttnComposed()).Float64s()
	for i := range want {
		if math.IsNaN(want[i]) != math.IsNaN(got[i]) || (!math.IsNaN(want[i]) && math.Abs(got[i]-want[i]) > 1e-5) {
			t.Fatalf("element %d = %v, composed gives %v", i, got[i], want[i])
		}
	}
	if !math.IsNaN(got[2]) || math.IsNaN(got[0]) {
		t.Errorf("want NaN only in row 1, got %v", got)
	}
}

func TestAttentionDropout(t *testing.T) {
	q := tensor.Randn(2, 5, 8)
	out := tensor.ScaledDotProductAttention(q, q, tensor.Ones(2, 5, 3), tensor.AttnDropout(0.5))
	// With v all ones, each output is the sum of the kept weights scaled
	// by 2: a sum of values 0 or 2p_j, so between 0 and 2.
	for i, x := range out.Float64s() {
		if x < -1e-6 || x > 2+1e-6 {
			t.Fatalf("element %d = %v outside [0, 2]", i, x)
		}
	}
	if err := tensor.Try(func() { tensor.ScaledDotProductAttention(q, q, q, tensor.AttnDropout(1.5)) }); err == nil {
		t.Error("dropout 1.5 did not panic")
	}
	if err := tensor.Try(func() { tensor.ScaledDotProductAttention(q, tensor.Randn(2, 5, 7), q) }); err == nil {
		t.Error("mismatched head sizes did not panic")
	}
}

// TestAttentionPathsBySize checks which CPU path runs: the composed ops
// for small score matrices, the blocked kernel from the threshold on.
func TestAttentionPathsBySize(t *testing.T) {
	q := tensor.Randn(1, 8, 4).SetRequiresGrad(true)
	if got := tensor.ScaledDotProductAttention(q, q, q).GradFn(); got != "MatMul" {
		t.Errorf("small: recorded by %s, want the composed ops (MatMul)", got)
	}
	defer tensor.SetAttnBlockedMin(64)()
	if got := tensor.ScaledDotProductAttention(q, q, q).GradFn(); got != "ScaledDotProductAttention" {
		t.Errorf("at the threshold: recorded by %s, want the blocked kernel", got)
	}
}
