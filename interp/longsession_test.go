package interp

import (
	"context"
	"testing"
)

// TestManyCells runs more cells than positions of the first encoding
// allowed (go/token caps line numbers at 1<<30): a long-lived kernel must
// keep compiling cells and reporting their lines.
func TestManyCells(t *testing.T) {
	s := newSession(t)
	var r recorder
	for i := 0; i < 1500; i++ {
		if _, err := s.Execute(context.Background(), "1+1", &r); err != nil {
			t.Fatalf("cell %d: %v", i+1, err)
		}
	}
	_, _, err := run(t, s, "x := 1\ny := undefinedName")
	e, ok := err.(*Error)
	if !ok || e.Value != "cell line 2:6: undefined: undefinedName" {
		t.Errorf("error after 1500 cells: %#v", err)
	}
}

// BenchmarkExecute measures the per-cell cost of the session for a cell
// like "1+1" (the kernel's round trip adds the wire on top).
func BenchmarkExecute(b *testing.B) {
	s, err := New(Options{CaptureStdio: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var r recorder
	for i := 0; i < b.N; i++ {
		if _, err := s.Execute(context.Background(), "1+1", &r); err != nil {
			b.Fatal(err)
		}
	}
}
