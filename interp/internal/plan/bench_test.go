package plan

import (
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
