package textform

import (
	"math"
	"slices"
	"testing"
)

// The expected strings are what PyTorch 2 prints for the same values
// (torch.tensor([...]) with the default print options).
func TestFloats(t *testing.T) {
	for i, tc := range []struct {
		vals []float64
		want []string
	}{
		{[]float64{1, 2.5, 3}, []string{"1.0000", "2.5000", "3.0000"}},
		{[]float64{1, 2, -3}, []string{"1.", "2.", "-3."}},
		{[]float64{0, 0}, []string{"0.", "0."}},
		{[]float64{1, 20000}, []string{"1.0000e+00", "2.0000e+04"}},
		{[]float64{0.00001, 0.5}, []string{"1.0000e-05", "5.0000e-01"}},
		{[]float64{math.NaN(), math.Inf(1), math.Inf(-1), 1}, []string{"nan", "inf", "-inf", "1."}},
	} {
		f := ForValues(tc.vals)
		var got []string
		for _, v := range tc.vals {
			got = append(got, f.Format(v))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("case %d: %v written %q, want %q", i, tc.vals, got, tc.want)
		}
	}
}

func TestShown(t *testing.T) {
	if got, want := Shown(4, true), []int{0, 1, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("Shown(4, true) = %v, want %v", got, want)
	}
	if got, want := Shown(10, true), []int{0, 1, 2, -1, 7, 8, 9}; !slices.Equal(got, want) {
		t.Errorf("Shown(10, true) = %v, want %v", got, want)
	}
	if got := Shown(10, false); len(got) != 10 || got[9] != 9 {
		t.Errorf("Shown(10, false) = %v, want 0..9", got)
	}
}
