package monotest

import "testing"

// BenchmarkSort measures slices.Sort and slices.SortFunc of 100,000
// random ints in a cell (planning included): []int calls the runtime's
// compiled instance, a named slice type runs the instantiated source in
// the interpreter, sort.Ints is the compiled reference.
func BenchmarkSort(b *testing.B) {
	for _, c := range []struct{ name, src string }{
		{"slices.Sort/[]int", "xs := slices.Clone(base)\nslices.Sort(xs)"},
		{"slices.Sort/named", "ys := Ints(slices.Clone(base))\nslices.Sort(ys)"},
		{"slices.SortFunc/[]int", "xs := slices.Clone(base)\nslices.SortFunc(xs, func(a, b int) int { return a - b })"},
		{"sort.Ints", "xs := slices.Clone(base)\nsort.Ints(xs)"},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := newSession(b, false)
			if _, err := s.cell("import (\"math/rand\"; \"slices\"; \"sort\")\ntype Ints []int\nbase := make([]int, 100000)\nfor i := range base { base[i] = rand.Intn(1000000) }"); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := s.cell(c.src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
