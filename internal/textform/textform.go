// Package textform holds the rules by which gotensor shows a tensor's
// values, PyTorch's print options at their defaults: which items a large
// tensor shows, and how one tensor's floats are written. The text form
// (tensor's String) and the HTML table (package display) both follow
// them, so the two show the same items written the same way.
package textform

import (
	"math"
	"strconv"
)

// PyTorch's print options.
const (
	// Threshold is the most elements a tensor shows in full; a larger one
	// is summarised.
	Threshold = 1000
	// EdgeItems is how many items a summarised tensor shows at each end of
	// a dimension longer than 2*EdgeItems.
	EdgeItems = 3
	// Precision is the number of decimals of a float.
	Precision = 4
)

// Shown returns the indices a tensor shows along a dimension of n items:
// all of them, or when summarize is set and n > 2*EdgeItems, the first
// and last EdgeItems with -1 between them for the ellipsis.
func Shown(n int, summarize bool) []int {
	var r []int
	if summarize && n > 2*EdgeItems {
		for i := range EdgeItems {
			r = append(r, i)
		}
		r = append(r, -1)
		for i := n - EdgeItems; i < n; i++ {
			r = append(r, i)
		}
		return r
	}
	for i := range n {
		r = append(r, i)
	}
	return r
}

// Floats is how the floats of one tensor are written, chosen from the
// values it shows: "2." style when every finite nonzero value is whole
// (or there is none),
// scientific notation when their magnitudes span more than 1000x or
// exceed 1e8 (or, for values that are not whole, fall below 1e-4), else
// Precision decimals.
type Floats struct {
	whole, sci bool
}

// ForValues returns the way to write a tensor whose shown values are vs.
func ForValues(vs []float64) Floats {
	f := Floats{whole: true}
	lo, hi := math.Inf(1), 0.0
	found := false
	for _, v := range vs {
		if v == 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			continue
		}
		found = true
		a := math.Abs(v)
		lo, hi = min(lo, a), max(hi, a)
		if v != math.Ceil(v) {
			f.whole = false
		}
	}
	switch {
	case !found: // zeros, nan and inf only: "0." as PyTorch writes them
	case f.whole:
		f.sci = hi/lo > 1000 || hi > 1e8
	default:
		f.sci = hi/lo > 1000 || hi > 1e8 || lo < 1e-4
	}
	return f
}

// Format writes v: "nan", "inf", "-inf", or v in f's notation.
func (f Floats) Format(v float64) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	case f.sci:
		return strconv.FormatFloat(v, 'e', Precision, 64)
	case f.whole:
		return strconv.FormatFloat(v, 'f', 0, 64) + "."
	}
	return strconv.FormatFloat(v, 'f', Precision, 64)
}

// Bool writes a bool as PyTorch does: "True" or "False".
func Bool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}
