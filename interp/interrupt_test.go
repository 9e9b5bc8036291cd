package interp

import (
	"context"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/gotensor/gotensor/tensorlib/backend"
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

// TestInterruptCompiled checks that a loop around compiled code
// (time.Sleep) stops the cell.
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

// TestInterruptCost measures a 2M-iteration loop with and without the
// interrupt check; the numbers go in the report, the test only guards
// against a check that costs far more than the loop itself (the margin
// allows for a busy machine).
func TestInterruptCost(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	s := newSession(t)
	mustRun(t, s, "n := 0")
	const loop = "for k := 0; k < 2000000; k++ { n += k }"
	// The best of three runs each: the machine may be busy.
	plain, checked := time.Hour, time.Hour
	for range 3 {
		// Collect first: yaegi's loops leave garbage that the next
		// measurement would pay for.
		runtime.GC()
		start := time.Now()
		// Cells run their statements in function literals (see runStmt).
		if _, err := s.yi.Eval("func() {" + loop + "}()"); err != nil {
			t.Fatal(err)
		}
		plain = min(plain, time.Since(start))
		runtime.GC()
		start = time.Now()
		mustRun(t, s, loop)
		checked = min(checked, time.Since(start))
	}
	t.Logf("2M iterations: plain %v, with interrupt check %v (%.2fx)", plain, checked, float64(checked)/float64(plain))
	if checked > 3*plain+50*time.Millisecond {
		t.Errorf("interrupt check too costly: %v vs %v", checked, plain)
	}
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
		var e *Error
		if !errors.As(err, &e) || e.Name != "Interrupted" {
			t.Errorf("cell %d %q: got %v, want Interrupted", i, code, err)
		}
		if took > time.Second {
			t.Errorf("cell %d %q: stopped after %v, want under a second", i, code, took)
		}
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
	var e *Error
	if !errors.As(err, &e) || e.Name != "Interrupted" || time.Since(start) > time.Second {
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
