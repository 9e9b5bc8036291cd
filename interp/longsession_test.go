package interp

import (
	"context"
	"fmt"
	"reflect"
	"runtime"
	"testing"

	"github.com/gotensor/gotensor/kernel"
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
	e, ok := err.(*kernel.Error)
	if !ok || e.Value != "cell line 2:6: undefined: undefinedName" {
		t.Errorf("error after 1500 cells: %#v", err)
	}
}

// TestDeclaringCellsMemory checks that what a session keeps grows by a
// bounded amount a cell when cells keep declaring types with methods.
// Each such cell makes the dispatch functions again for all the session's
// types, and yaegi kept every function it compiled (its debugger's files,
// its package scope's children): 100 cells kept 290 MB, 200 cells 1.1 GB.
func TestDeclaringCellsMemory(t *testing.T) {
	s := newSession(t)
	var r recorder
	declare := func(from, to int) {
		for i := from; i < to; i++ {
			code := fmt.Sprintf("type T%d struct{ A int }\nfunc (t T%d) M() int { return t.A }\nfunc f%d() int { return %d }\nv%d := T%d{f%d()}", i, i, i, i, i, i, i)
			if _, err := s.Execute(context.Background(), code, &r); err != nil {
				t.Fatalf("cell %d: %v", i+1, err)
			}
		}
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	declare(0, 20)
	before := heap()
	declare(20, 100)
	after := heap()
	// About 100 KB a cell is kept now (the cell's types, functions and
	// variables, the code that runs them); the dispatch functions kept
	// added 3.5 MB a cell here.
	if grown := int64(after) - int64(before); grown > 40<<20 {
		t.Errorf("80 cells that declare a type each kept %d MB, want at most 40 MB", grown>>20)
	}

	// A cell that declares nothing and makes no function keeps nothing
	// of its code once it ended (10 KB a cell was kept).
	for range 200 {
		if _, err := s.Execute(context.Background(), "1+1", &r); err != nil {
			t.Fatal(err)
		}
	}
	before = heap()
	for range 2000 {
		if _, err := s.Execute(context.Background(), "x := 3\nx * 2", &r); err != nil {
			t.Fatal(err)
		}
	}
	after = heap()
	if grown := int64(after) - int64(before); grown > 4<<20 {
		t.Errorf("2000 cells of statements kept %d KB, want at most 4 MB", grown>>10)
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

// BenchmarkCellCost measures a cell's fixed cost, "1+1", in a fresh
// session and after 2,000 cells that each declare a type with a method, a
// function and a variable: it must not grow with the session.
func BenchmarkCellCost(b *testing.B) {
	for _, n := range []int{0, 2000} {
		b.Run(fmt.Sprintf("cells=%d", n), func(b *testing.B) {
			s, err := New(Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			var r recorder
			for i := range n {
				code := fmt.Sprintf("type T%d struct{ A int }\nfunc (t T%d) M() int { return t.A }\nfunc f%d() int { return %d }\nv%d := T%d{f%d()}", i, i, i, i, i, i, i)
				if _, err := s.Execute(context.Background(), code, &r); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for b.Loop() {
				if _, err := s.Execute(context.Background(), "1+1", &r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCellAddsNoGlobals checks that a cell adds to the interpreter's global
// frame only the variables and functions it declares: yaegi copies the
// whole frame each time a compilation adds to it, so a cell's fixed cost
// would grow with the session (see BenchmarkCellCost). It reads yaegi
// v0.16.1's unexported frame, and skips when the field is not there.
func TestCellAddsNoGlobals(t *testing.T) {
	s := newSession(t)
	field := reflect.ValueOf(s.yi).Elem().FieldByName("frame")
	if !field.IsValid() || field.Kind() != reflect.Pointer || !field.Elem().FieldByName("data").IsValid() {
		t.Skip("yaegi's Interpreter has no frame.data field")
	}
	frameLen := func() int { return field.Elem().FieldByName("data").Len() }
	cases := []struct {
		code string
		adds int
	}{
		{"1+1", 0},
		{"x := 1", 1},
		{"x := 2", 0}, // the same variable
		{"x + 1", 0},
		{"func f() int { return x }\nf()", 1},
		{"g := func() int { return x }\ng()", 1},
		{"for i := 0; i < 3; i++ { x += f() }\nfmt.Println(x)", 0},
		{"type P struct{ A int }\nfunc (p P) M() int { return p.A }\nP{1}.M()", 0},
	}
	for _, c := range cases {
		before := frameLen()
		mustRun(t, s, c.code)
		if got := frameLen() - before; got != c.adds {
			t.Errorf("%q added %d globals, want %d", c.code, got, c.adds)
		}
	}
}
