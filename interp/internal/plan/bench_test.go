package plan

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/gotensor/gotensor/interp/internal/symbols"
)

// BenchmarkUniversePreloaded measures what a session pays for type
// information before its first cell: fmt, math and gotensor's packages.
func BenchmarkUniversePreloaded(b *testing.B) {
	paths := append([]string{"fmt", "math"}, symbols.Packages...)
	for b.Loop() {
		u := testUniverse()
		for _, p := range paths {
			if _, err := u.Import(p); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkUniverseStdlib imports every package of the tables.
func BenchmarkUniverseStdlib(b *testing.B) {
	for b.Loop() {
		u := testUniverse()
		for _, p := range u.Paths() {
			if _, err := u.Import(p); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkPlan measures what planning a cell costs after n cells, each
// of which declares a type, a method and a variable: it must barely
// grow with the session (docs/design.md).
func BenchmarkPlan(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 2000} {
		s := newSession(b)
		for i := 1; i <= n; i++ {
			run(b, s, i, fmt.Sprintf("type T%d struct{ A int }\nfunc (t T%d) M() int { return t.A }\nv%d := T%d{%d}", i, i, i, i, i))
		}
		for _, c := range []struct{ name, src string }{
			{"1+1", "1 + 1"},
			{"cell", "type U struct{ A int }\nfunc (u U) M() int { return u.A + v1.M() }\nw := U{3}\nfor i := range 10 { w.A += i }\nfmt.Println(w.M())"},
		} {
			b.Run(fmt.Sprintf("%s/cells=%d", c.name, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := s.Plan(n+1, c.src); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkUniverseSource imports packages whose generic declarations
// come from the toolchain's source: slices (from source entirely, with
// iter and cmp) and sync/atomic (reflection plus its generic types).
func BenchmarkUniverseSource(b *testing.B) {
	for b.Loop() {
		u := testUniverse()
		u.Source = GOROOTSource(runtime.GOROOT())
		for _, p := range []string{"slices", "sync/atomic"} {
			if _, err := u.Import(p); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkPlanGeneric measures planning a cell that calls slices.Sort
// on a slice of int32 (the runtime has no compiled instance for it): the
// first time in a process (slices' source read and checked with its
// bodies, then the instance written and checked with the cell), the first
// time in a session of a universe that has checked the source, and in a
// session that has the instance (a later cell); and a cell that sorts
// []int (the runtime's compiled instance), and one without generic code.
func BenchmarkPlanGeneric(b *testing.B) {
	const first = "import \"slices\"\nxs := []int32{3, 1, 2}\nslices.Sort(xs)"
	const later = "ys := []int32{5, 4}\nslices.Sort(ys)"
	b.Run("first/cold-universe", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			s := monoSession(b)
			b.StartTimer()
			if _, err := s.Plan(1, first); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("first/warm-universe", func(b *testing.B) {
		s := monoSession(b)
		if _, err := s.Plan(1, first); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := s.Reset(); err != nil {
				b.Fatal(err)
			}
			if _, err := s.Plan(1, first); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("later-cell", func(b *testing.B) {
		s := monoSession(b)
		run(b, s, 1, first)
		for b.Loop() {
			if _, err := s.Plan(2, later); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("compiled-instance", func(b *testing.B) {
		s := monoSession(b)
		run(b, s, 1, first)
		for b.Loop() {
			if _, err := s.Plan(2, "zs := []int{5, 4}\nslices.Sort(zs)"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("no-generics", func(b *testing.B) {
		s := monoSession(b)
		run(b, s, 1, first)
		for b.Loop() {
			if _, err := s.Plan(2, "zs := []int{5, 4}\nzs[0] = 1"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
