package interp

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestInterrupt checks that cancelling Execute stops interpreted loops and
// recursion within a second and that everything defined before keeps working
// (DESIGN.md trap: after EvalWithContext is cancelled, earlier closures
// return zero values).
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
		var e *Error
		if !errors.As(err, &e) || e.Name != "Interrupted" {
			t.Errorf("cell %d %q: got %v, want Interrupted", i, code, err)
		}
		if took > time.Second {
			t.Errorf("cell %d %q: stopped after %v, want under a second", i, code, took)
		}
		if res, _ := mustRun(t, s, "f(3) + g(1)"); res != "32" {
			t.Errorf("cell %d: after the interrupt f(3)+g(1) = %q, want 32", i, res)
		}
	}
	// Interrupted is false again once the cell has stopped.
	if Interrupted() {
		t.Error("Interrupted() still true after the cell returned")
	}
}

// TestInterruptCompiled checks that compiled code polling CheckInterrupt
// stops the cell.
func TestInterruptCompiled(t *testing.T) {
	s := newSession(t)
	// time.Sleep in a loop: the loop check stops it between sleeps.
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := s.Execute(ctx, "import \"time\"\nfor { time.Sleep(10 * time.Millisecond) }", &recorder{})
	var e *Error
	if !errors.As(err, &e) || e.Name != "Interrupted" || time.Since(start) > time.Second {
		t.Errorf("got %v after %v, want Interrupted within a second", err, time.Since(start))
	}
}

// TestInterruptCost measures a 10M-iteration loop with and without the
// interrupt check; the numbers go in the report, the test only guards
// against a check that costs more than the loop itself.
func TestInterruptCost(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	s := newSession(t)
	mustRun(t, s, "n := 0")
	const loop = "for k := 0; k < 2000000; k++ { n += k }"
	start := time.Now()
	if _, err := s.yi.Eval(loop); err != nil {
		t.Fatal(err)
	}
	plain := time.Since(start)
	start = time.Now()
	mustRun(t, s, loop)
	checked := time.Since(start)
	t.Logf("2M iterations: plain %v, with interrupt check %v (%.2fx)", plain, checked, float64(checked)/float64(plain))
	if checked > 2*plain+50*time.Millisecond {
		t.Errorf("interrupt check too costly: %v vs %v", checked, plain)
	}
}
