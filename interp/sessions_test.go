package interp

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/gotensor/gotensor/display"
	"github.com/gotensor/gotensor/kernel"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// gate lets cells of two sessions wait for each other: Signal(name) opens
// the gate name, Wait(name) waits until it is open. Spin runs tensor ops
// in compiled code until the tensor library's interrupt hook stops them.
type gate struct {
	mu    sync.Mutex
	gates map[string]chan struct{}
}

func (g *gate) ch(name string) chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gates[name] == nil {
		g.gates[name] = make(chan struct{})
	}
	return g.gates[name]
}

func (g *gate) Signal(name string) { close(g.ch(name)) }

func (g *gate) Wait(name string) {
	select {
	case <-g.ch(name):
	case <-time.After(time.Minute):
		panic("gate " + name + " never opened")
	}
}

func (g *gate) symbols() yaegi.Exports {
	return yaegi.Exports{"example.com/gate/gate": {
		"Signal": reflect.ValueOf(g.Signal),
		"Wait":   reflect.ValueOf(g.Wait),
		"Spin": reflect.ValueOf(func(x *tensor.Tensor) {
			g.Signal("a-spinning")
			for {
				x.Exp()
			}
		}),
	}}
}

// TestSessionsApart runs two sessions side by side in one process, each
// training a model with a live plot, and checks that nothing crosses: A
// sits inside NoGrad while B trains and B's ops still record; A is
// interrupted inside a tensor op that runs in compiled code while B is
// halfway through its loop, and B's loop runs to completion; each
// session's outputs (its cells', its goroutines', its live plot, its plot
// size) reach its own cells only.
func TestSessionsApart(t *testing.T) {
	g := &gate{gates: map[string]chan struct{}{}}
	var ss [2]*Session
	var rs [2]*recorder
	for i, name := range []string{"A", "B"} {
		s, err := New(Options{Symbols: g.symbols()})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ss[i], rs[i] = s, &recorder{}
		setup := fmt.Sprintf(`import "example.com/gate"
w := tensor.Zeros(3, 1).SetRequiresGrad(true)
x := tensor.Randn(64, 3)
y := x.MatMul(tensor.FromFloat32s([]float32{1, -2, 3}, 3, 1))
step := func() float64 {
	loss := x.MatMul(w).Sub(y).Square().Mean()
	if !loss.RequiresGrad() {
		panic("session %s records no graph")
	}
	loss.Backward()
	w = w.Sub(w.Grad().MulScalar(0.1)).Detach().SetRequiresGrad(true)
	return loss.Item()
}
curve := display.NewLivePlot("loss %s")
display.SetPlotSize(%d, 200)
big := tensor.Rand(300, 300)`, name, name, 300+100*i)
		if _, err := s.Execute(context.Background(), setup, rs[i]); err != nil {
			t.Fatalf("session %s: setup: %v", name, err)
		}
	}
	a, b := ss[0], ss[1]
	ra, rb := rs[0], rs[1]

	var wg sync.WaitGroup
	var errB, errA1, errA2 error
	wg.Add(2)
	go func() {
		defer wg.Done()
		_, errB = b.Execute(context.Background(), `gate.Wait("a-nograd")
step()
gate.Signal("b-recorded")
go func() {
	display.HTML("<i>from B's goroutine</i>")
	gate.Signal("b-go")
}()
gate.Wait("b-go")
for i := 0; i < 100; i++ {
	if i == 50 {
		gate.Signal("b-half")
		gate.Wait("a-interrupted")
	}
	curve.Add("train", step())
}
display.Plot(display.LinePlot("B's plot", display.Series{Name: "s", Y: []float64{1, 2}}))
fmt.Println("B trained, loss", step() < 1e-3)`, rb)
	}()
	go func() {
		defer wg.Done()
		_, errA1 = a.Execute(context.Background(), `tensor.NoGrad(func() {
	gate.Signal("a-nograd")
	gate.Wait("b-recorded")
	fmt.Println("A inside NoGrad records:", tensor.GradEnabled())
})
fmt.Println("A after NoGrad records:", tensor.GradEnabled())`, ra)
		if errA1 != nil {
			g.Signal("a-interrupted") // let B go on
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			g.Wait("a-spinning")
			g.Wait("b-half")
			cancel()
		}()
		_, errA2 = a.Execute(ctx, `curve.Add("train", step())
curve.Add("train", step())
go func() {
	display.HTML("<i>from A's goroutine</i>")
	gate.Signal("a-go")
}()
gate.Wait("a-go")
display.Plot(display.LinePlot("A's plot", display.Series{Name: "s", Y: []float64{1, 2}}))
gate.Spin(big)`, ra)
		g.Signal("a-interrupted")
	}()
	wg.Wait()

	if errA1 != nil {
		t.Fatalf("A's NoGrad cell: %v", errA1)
	}
	var e *kernel.Error
	if !errors.As(errA2, &e) || e.Name != "Interrupted" {
		t.Errorf("A's spinning cell ended with %v, want Interrupted", errA2)
	}
	if errB != nil {
		t.Fatalf("B's training cell, run while A was inside NoGrad and then interrupted: %v", errB)
	}
	if got, want := ra.text("stdout"), "A inside NoGrad records: false\nA after NoGrad records: true\n"; got != want {
		t.Errorf("A printed %q, want %q", got, want)
	}
	if got, want := rb.text("stdout"), "B trained, loss true\n"; got != want {
		t.Errorf("B printed %q, want %q", got, want)
	}

	// Each session's outputs reached its own cells only.
	for i, name := range []string{"A", "B"} {
		other := []string{"B", "A"}[i]
		r := rs[i]
		r.mu.Lock()
		shown := append([]kernel.Bundle(nil), r.displays...)
		r.mu.Unlock()
		var live, goroutine, plot bool
		for _, d := range shown {
			txt := fmt.Sprint(d.Data["text/plain"], d.Data["text/html"])
			if strings.Contains(txt, "loss "+other) || strings.Contains(txt, other+"'s") {
				t.Errorf("session %s received session %s's output %q", name, other, txt)
			}
			live = live || strings.Contains(txt, `<plot "loss `+name+`">`)
			goroutine = goroutine || strings.Contains(txt, "from "+name+"'s goroutine")
			if strings.Contains(txt, name+"'s plot") {
				plot = true
				width := d.Metadata["image/png"].(map[string]any)["width"]
				if fmt.Sprint(width) != fmt.Sprint(300+100*i) {
					t.Errorf("session %s's plot is %v pixels wide, want %d, its own SetPlotSize", name, width, 300+100*i)
				}
			}
		}
		if !live || !goroutine || !plot {
			t.Errorf("session %s's outputs: live plot %v, its goroutine's HTML %v, its plot %v; want all", name, live, goroutine, plot)
		}
	}

	// A works after its interrupt.
	if res, _ := mustRun(t, a, "fmt.Sprint(tensor.GradEnabled(), step() > 0, big.Shape())"); res != "true true [300 300]" {
		t.Errorf("A after its interrupt: %q", res)
	}
}

// TestDebuggedCellDisplays checks that a cell run under the debugger
// (yaegi runs it in a goroutine of its own, which the step binds to the
// session) publishes to its session and the session's interrupt stops
// its tensor ops, and that a goroutine of no session publishes nothing
// to it while the step is stopped at a breakpoint.
func TestDebuggedCellDisplays(t *testing.T) {
	g := &gate{gates: map[string]chan struct{}{}}
	s, err := New(Options{Symbols: g.symbols()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	mustRun(t, s, `import "example.com/gate"`)
	c := newDAPClient(t, s)
	c.start()
	cell := "n := 1\nfor i := 0; i < 2; i++ {\n\tn++\n}\ndisplay.HTML(\"<b>debugged</b>\")\nfmt.Println(n)"
	c.breakAt(cell, 1)
	var r recorder
	done := runAsync(s, cell, &r)
	c.stopped()
	display.HTML("<i>no session's</i>")
	c.Body("continue", map[string]any{"threadId": 1})
	if err := wait(t, done); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	if len(r.displays) != 1 || r.displays[0].Data["text/html"] != "<b>debugged</b>" {
		t.Errorf("a debugged cell's session got %v, want the cell's HTML alone", r.displays)
	}
	r.mu.Unlock()

	// The session's interrupt reaches a loop of tensor ops in compiled
	// code (gate.Spin), which only the tensor library's hook stops.
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		g.Wait("a-spinning")
		cancel()
	}()
	done = make(chan error, 1)
	go func() {
		_, err := s.Execute(ctx, "gate.Spin(tensor.Rand(200, 200))", &recorder{})
		done <- err
	}()
	var e *kernel.Error
	if err := wait(t, done); !errors.As(err, &e) || e.Name != "Interrupted" {
		t.Errorf("an interrupted debugged cell ended with %v, want Interrupted", err)
	}
}
