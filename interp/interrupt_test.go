package interp

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/gotensor/gotensor/kernel"
	"github.com/gotensor/gotensor/tensorlib/backend"
)

// TestInterrupt checks that cancelling Execute stops interpreted loops and
// recursion within a second and that everything defined before keeps working
// (docs/design.md: after yaegi's EvalWithContext is cancelled, earlier
// closures return zero values).
func TestInterrupt(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "f := func(x int) int { return x * 10 }\nfunc g(x int) int { return x + 1 }\ntotal := 0")
	cells := []string{
		"for {}",
		"for { total++ }",
		"for i := 0; ; i++ { total += i }",
		"func spin(n int) int { if n > 50 { return 0 }; return spin(n+1) - 1 }\nfunc loop() { for { spin(0) } }\nloop()",
		"go func() { for {} }()\nfor {}",
		"xs := []int{1, 2, 3}\nfor { for range xs { total++ } }",
		"func swallow() { defer func() { recover() }(); for {} }\nfor { swallow() }",
	}
	for i, code := range cells {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		_, err := s.Execute(ctx, code, &recorder{})
		took := time.Since(start)
		var e *kernel.Error
		if !errors.As(err, &e) || e.Name != "Interrupted" {
			t.Errorf("cell %d %q: got %v, want Interrupted", i, code, err)
		}
		t.Logf("cell %d: stopped after %v", i, took)
		if res, _ := mustRun(t, s, "f(3) + g(1)"); res != "32" {
			t.Errorf("cell %d: after the interrupt f(3)+g(1) = %q, want 32", i, res)
		}
	}
	// Interrupted is false again once the cell has stopped.
	if s.Interrupted() {
		t.Error("Interrupted() still true after the cell returned")
	}
}

// TestInterruptCompiled checks that a loop around compiled code
// (time.Sleep) stops the cell.
func TestInterruptCompiled(t *testing.T) {
	s := newSession(t)
	// time.Sleep in a loop: the loop check stops it between sleeps.
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := s.Execute(ctx, "import \"time\"\nfor { time.Sleep(10 * time.Millisecond) }", &recorder{})
	var e *kernel.Error
	if !errors.As(err, &e) || e.Name != "Interrupted" {
		t.Errorf("got %v after %v, want Interrupted", err, time.Since(start))
	}
}

// BenchmarkInterruptCheck measures a 2M-iteration loop in a cell, where
// the session checks the interrupt flag each iteration, and the same loop
// run on yaegi directly, without the check: the ratio is the check's cost.
func BenchmarkInterruptCheck(b *testing.B) {
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Execute(context.Background(), "n := 0", &recorder{}); err != nil {
		b.Fatal(err)
	}
	const loop = "for k := 0; k < 2000000; k++ { n += k }"
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			// Cells run their statements in function literals (see runStmt).
			if _, err := s.yi.Eval("func() {" + loop + "}()"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("checked", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Execute(context.Background(), loop, &recorder{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// spinSymbols has a compiled function that never returns on its own: it
// works in chunks forever and checks the interrupt hook between them, as a
// backend's long native work does.
var spinSymbols = yaegi.Exports{
	"example.com/spin/spin": {
		"Forever": reflect.ValueOf(func() {
			for {
				if backend.Interrupted() {
					panic(backend.ErrInterrupted)
				}
				time.Sleep(time.Millisecond)
			}
		}),
	},
}

// TestInterruptNative checks that an interrupt stops long native work
// (through the tensor library's interrupt hook) and sleeps within a second,
// and that tensors and functions work afterwards.
func TestInterruptNative(t *testing.T) {
	s, err := New(Options{Symbols: spinSymbols})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mustRun(t, s, "f := func(x int) int { return x * 10 }\nbig := tensor.Rand(1000, 1000)\nsmall := tensor.Rand(200, 200)")
	cells := []string{
		"import \"example.com/spin\"\nspin.Forever()",
		"import \"time\"\ntime.Sleep(time.Hour)",
		"import \"time\"\nfunc nap() { time.Sleep(time.Hour) }\nnap()",
		"for { big = big.Exp().Log() }",
		"tensor.NoGrad(func() { for { small.MatMul(small) } })",
	}
	for i, code := range cells {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(150*time.Millisecond, cancel)
		start := time.Now()
		_, err := s.Execute(ctx, code, &recorder{})
		took := time.Since(start)
		var e *kernel.Error
		if !errors.As(err, &e) || e.Name != "Interrupted" {
			t.Errorf("cell %d %q: got %v, want Interrupted", i, code, err)
		}
		t.Logf("cell %d: stopped after %v", i, took)
		if res, _ := mustRun(t, s, "fmt.Sprint(f(3), tensor.Ones(2, 3).Sum().Item(), big.Shape())"); res != "30 6 [1000 1000]" {
			t.Errorf("cell %d: after the interrupt got %q, want %q", i, res, "30 6 [1000 1000]")
		}
	}
}

// TestInterruptBlocked checks a cell blocked in compiled code: Execute
// returns after InterruptGrace, the next cell warns and runs.
func TestInterruptBlocked(t *testing.T) {
	s, err := New(Options{InterruptGrace: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mustRun(t, s, "block := make(chan int)\nreached := false")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	var r recorder
	_, err = s.Execute(ctx, "<-block\nfor { reached = true }", &r)
	var e *kernel.Error
	if !errors.As(err, &e) || e.Name != "Interrupted" {
		t.Errorf("got %v after %v, want Interrupted after the grace", err, time.Since(start))
	}
	if !strings.Contains(r.text("stderr"), "blocked in compiled code") {
		t.Errorf("stderr %q: want a word about the blocked cell", r.text("stderr"))
	}
	r = recorder{}
	b, err := s.Execute(context.Background(), "40 + 2", &r)
	if err != nil || b == nil || b.Data["text/plain"] != "42" {
		t.Errorf("next cell: got %v, %v", b, err)
	}
	if !strings.Contains(r.text("stderr"), "still blocked") {
		t.Errorf("stderr %q: want a warning about the blocked cell", r.text("stderr"))
	}
}
