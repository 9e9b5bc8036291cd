package monotest

import (
	"testing"
)

// TestPrograms runs each program's cells in a session and compares what
// they print with what go run prints.
func TestPrograms(t *testing.T) {
	for _, p := range programs {
		t.Run(p.name, func(t *testing.T) {
			s := newSession(t, p.fallback)
			var got string
			for i, c := range p.cells {
				out, err := s.cell(c)
				if err != nil {
					t.Fatalf("cell %d: %v", i+1, err)
				}
				got += out
			}
			if got != p.want {
				t.Errorf("got\n%s\nwant\n%s", got, p.want)
			}
		})
	}
}
