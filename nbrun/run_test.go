package nbrun

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gotensor/gotensor/interp"
	"github.com/gotensor/gotensor/kernel"
)

// TestRunTiny runs testdata/tiny.ipynb in a real session: it prints, ends
// in a value, shows HTML and a progress bar, then fails in cell 7, so cell
// 8 never runs.
func TestRunTiny(t *testing.T) {
	nb, err := ReadFile("testdata/tiny.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	sess, err := interp.New(interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var progress bytes.Buffer
	err = Run(context.Background(), nb, sess, &progress)

	var ce *CellError
	if !errors.As(err, &ce) || ce.Cell != 6 || ce.Interrupted() {
		t.Fatalf("Run error %v; want a *CellError for cell index 6", err)
	}
	byID := map[string]*Cell{}
	for _, c := range nb.Cells {
		byID[c.ID] = c
	}
	for i, tc := range []struct {
		id    string
		count int
		want  []string
	}{
		{"hello", 1, []string{"stream:stdout:hello from gotensor\n"}},
		{"value", 2, []string{"execute_result:43"}},
		{"html", 3, []string{"display_data:bold text"}},
		{"progress", 4, []string{"display_data:[####################] 3/3"}},
		{"fails", 5, []string{"error:"}},
		{"after", 0, nil},
	} {
		c := byID[tc.id]
		got := kinds(c.Outputs)
		for j := range got {
			// Only the prefixes matter: rates and error names vary.
			if j < len(tc.want) && strings.HasPrefix(got[j], tc.want[j]) {
				got[j] = tc.want[j]
			}
		}
		if !reflect.DeepEqual(got, tc.want) || c.ExecutionCount != tc.count {
			t.Errorf("%d: cell %s: outputs %q, count %d; want %q, %d", i, tc.id, kinds(c.Outputs), c.ExecutionCount, tc.want, tc.count)
		}
	}
	if r := byID["value"].Outputs[0]; r.ExecutionCount != 2 {
		t.Errorf("execute_result count %d, want 2", r.ExecutionCount)
	}
	if h := byID["html"].Outputs[0].Data["text/html"]; h != "<b>bold</b> text" {
		t.Errorf("text/html = %q", h)
	}
	if e := byID["fails"].Outputs[0]; e.EValue != ce.Err.Value || len(e.Traceback) == 0 || !strings.Contains(e.Traceback[0], e.EValue) {
		t.Errorf("error output %+v does not match the returned error %v", e, ce.Err)
	}
	if byID["intro"].Source != "# A tiny notebook\n\nIt prints, shows a value, *HTML* and a **progress bar**, then fails.\n\n- one\n- two [link](https://go.dev)" || byID["raw"].Source != "raw text, kept as is" {
		t.Error("markdown or raw cell changed")
	}
	ks, _ := nb.Metadata["kernelspec"].(map[string]any)
	li, _ := nb.Metadata["language_info"].(map[string]any)
	if ks["name"] != "gotensor" || ks["display_name"] != "Go (gotensor)" || ks["language"] != "go" ||
		li["name"] != "go" || li["file_extension"] != ".go" || li["mimetype"] != "text/x-go" {
		t.Errorf("metadata kernelspec %v, language_info %v", ks, li)
	}
	if nb.Metadata["custom"] == nil {
		t.Error("Run dropped the notebook's own metadata")
	}

	p := progress.String()
	for _, want := range []string{
		"[1/6] cell 2 ...\nhello from gotensor\n[1/6] cell 2 done in ",
		"[2/6] cell 3 ...\nOut[2]: 43\n",
		"bold text\n",
		"[####################] 3/3",
		"[5/6] cell 7 ... failed after ",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("progress lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "[6/6]") {
		t.Errorf("the cell after the error ran:\n%s", p)
	}

	var out bytes.Buffer
	if err := Write(&out, nb); err != nil {
		t.Fatal(err)
	}
	validate(t, out.Bytes())
}

// fakeExec runs cells as Go functions keyed by their source.
type fakeExec map[string]func(ctx context.Context, out kernel.Output) (*kernel.Bundle, error)

func (f fakeExec) Execute(ctx context.Context, code string, out kernel.Output) (*kernel.Bundle, error) {
	return f[code](ctx, out)
}

func codeNotebook(sources ...string) *Notebook {
	nb := &Notebook{}
	for _, s := range sources {
		nb.Cells = append(nb.Cells, &Cell{Type: CodeCell, Source: s, ExecutionCount: 9, Outputs: []*Output{{Type: StreamOutput, Name: "stdout", Text: "stale"}}})
	}
	return nb
}

func TestRunLateUpdate(t *testing.T) {
	defer func(q time.Duration) { settleQuiet = q }(settleQuiet)
	settleQuiet = 100 * time.Millisecond
	nb := codeNotebook("show", "  \n", "more")
	ex := fakeExec{
		"show": func(_ context.Context, out kernel.Output) (*kernel.Bundle, error) {
			out.Display(text("curve 1"), "c", false)
			go func() { // a live plot's timer redraws after the cell
				time.Sleep(30 * time.Millisecond)
				out.Display(text("curve 2"), "c", true)
			}()
			return nil, nil
		},
		"more": func(_ context.Context, out kernel.Output) (*kernel.Bundle, error) {
			return nil, nil
		},
	}
	if err := Run(context.Background(), nb, ex, nil); err != nil {
		t.Fatal(err)
	}
	if got := kinds(nb.Cells[0].Outputs); !reflect.DeepEqual(got, []string{"display_data:curve 2"}) {
		t.Errorf("first cell %q; want the late update in place", got)
	}
	if c := nb.Cells[1]; c.ExecutionCount != 0 || len(c.Outputs) != 0 {
		t.Errorf("empty cell: count %d, outputs %q; want it skipped and cleared", c.ExecutionCount, kinds(c.Outputs))
	}
	if c := nb.Cells[2]; c.ExecutionCount != 2 || len(c.Outputs) != 0 {
		t.Errorf("last cell: count %d, outputs %q; want 2 and none", c.ExecutionCount, kinds(c.Outputs))
	}
}

func TestRunInterrupt(t *testing.T) {
	nb := codeNotebook("loop", "next")
	ctx, cancel := context.WithCancel(context.Background())
	ex := fakeExec{
		"loop": func(ctx context.Context, out kernel.Output) (*kernel.Bundle, error) {
			out.Stream("stdout", "epoch 1\n")
			cancel()
			<-ctx.Done()
			return nil, ctx.Err() // not an *kernel.Error: Run shapes it
		},
	}
	err := Run(ctx, nb, ex, nil)
	var ce *CellError
	if !errors.As(err, &ce) || !ce.Interrupted() || ce.Cell != 0 {
		t.Fatalf("Run = %v; want an interrupted *CellError for cell 0", err)
	}
	if got, want := kinds(nb.Cells[0].Outputs), []string{"stream:stdout:epoch 1\n", "error:Interrupted"}; !reflect.DeepEqual(got, want) {
		t.Errorf("outputs %q; want %q", got, want)
	}
	if len(nb.Cells[1].Outputs) != 0 || nb.Cells[1].ExecutionCount != 0 {
		t.Error("the cell after the interrupt kept its stale outputs")
	}
}

func TestRunExecutorPanic(t *testing.T) {
	nb := codeNotebook("boom")
	ex := fakeExec{"boom": func(context.Context, kernel.Output) (*kernel.Bundle, error) { panic("broken") }}
	err := Run(context.Background(), nb, ex, nil)
	var ce *CellError
	if !errors.As(err, &ce) || ce.Err.Name != "InternalError" || !strings.Contains(ce.Err.Value, "broken") {
		t.Fatalf("Run = %v; want an InternalError", err)
	}
}

func TestTerminalThrottle(t *testing.T) {
	var b bytes.Buffer
	term := newTerminal(&b)
	term.begin(1, 1, 0)
	term.Display(text("0/3"), "p", false)
	term.Display(text("1/3"), "p", true) // within the throttle: held
	term.Display(text("2/3"), "p", true)
	term.Stream("stdout", "partial")
	term.end(1500*time.Millisecond, false)
	term.Display(text("late"), "p", true) // after the cell: not shown
	want := "[1/1] cell 1 ...\n0/3\npartial\n2/3\n[1/1] cell 1 done in 1.5s\n"
	if b.String() != want {
		t.Errorf("terminal printed %q; want %q", b.String(), want)
	}
}

// TestRunLivePlot checks that a live plot's last redraw, which its timer
// makes after the cell ended, lands in place in the cell's output.
func TestRunLivePlot(t *testing.T) {
	nb := &Notebook{Cells: []*Cell{
		{Type: CodeCell, Source: "curve := display.NewLivePlot(\"loss\")\nfor i := 0; i < 50; i++ {\n\tcurve.Add(\"train\", 1/float64(i+1))\n}"},
		{Type: CodeCell, Source: "curve.Bundle()"},
	}}
	sess, err := interp.New(interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := Run(context.Background(), nb, sess, nil); err != nil {
		t.Fatal(err)
	}
	live, final := nb.Cells[0].Outputs, nb.Cells[1].Outputs
	if len(live) != 1 || live[0].Type != DisplayDataOutput || len(final) != 1 || final[0].Type != ExecuteResultOutput {
		t.Fatalf("outputs %q and %q; want one display_data and one execute_result", kinds(live), kinds(final))
	}
	got, want := live[0].Data["image/png"], final[0].Data["image/png"]
	if s, _ := want.(string); s == "" || got != want {
		t.Errorf("the live plot's output is not its final state (%d bytes of PNG, want %d)", len(got.(string)), len(s))
	}
}

// newSession starts a session that the test closes.
func newSession(t *testing.T) *interp.Session {
	t.Helper()
	sess, err := interp.New(interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	return sess
}

// newCells returns a notebook of code cells.
func newCells(sources ...string) *Notebook {
	nb := &Notebook{Metadata: map[string]any{}}
	for i, s := range sources {
		nb.Cells = append(nb.Cells, &Cell{ID: string(rune('a' + i)), Type: CodeCell, Source: s, Metadata: map[string]any{}})
	}
	return nb
}

// TestRunAllowErrors checks --allow-errors and --timeout: every cell runs,
// a failed cell holds its error, a cell past the time limit is
// interrupted with a CellTimeoutError (nbconvert's name), and the run
// returns the failed cells.
func TestRunAllowErrors(t *testing.T) {
	sess := newSession(t)
	nb := newCells(`fmt.Println("one")`, `panic("two")`, `for {}`, `fmt.Println("four")`)
	err := RunWith(context.Background(), nb, sess, nil, Options{AllowErrors: true, Timeout: 300 * time.Millisecond})
	var failed CellErrors
	if !errors.As(err, &failed) || len(failed) != 2 || failed[0].Cell != 1 || failed[1].Cell != 2 {
		t.Fatalf("RunWith = %v; want the errors of cells 2 and 3", err)
	}
	if got := kinds(nb.Cells[3].Outputs); !reflect.DeepEqual(got, []string{"stream:stdout:four\n"}) || nb.Cells[3].ExecutionCount != 4 {
		t.Errorf("the cell after the errors: %q, count %d", got, nb.Cells[3].ExecutionCount)
	}
	if o := nb.Cells[2].Outputs; len(o) != 1 || o[0].EName != "CellTimeoutError" {
		t.Errorf("the endless cell: %+v", o)
	}
	if o := nb.Cells[1].Outputs; len(o) != 1 || o[0].Type != ErrorOutput || !strings.Contains(o[0].EValue, "two") {
		t.Errorf("the panicking cell: %+v", o)
	}
	// Without AllowErrors the run stops at the time limit.
	nb = newCells(`for {}`, `fmt.Println("never")`)
	err = RunWith(context.Background(), nb, sess, nil, Options{Timeout: 200 * time.Millisecond})
	var ce *CellError
	if !errors.As(err, &ce) || ce.Err.Name != "CellTimeoutError" || len(nb.Cells[1].Outputs) != 0 {
		t.Errorf("RunWith = %v, second cell %v", err, nb.Cells[1].Outputs)
	}
}

// TestInjectParameters checks papermill's convention: the parameters go in
// a cell tagged "injected-parameters" right after the cell tagged
// "parameters" (at the top when there is none), a run injects them afresh,
// and the values are Go literals of the parameters cell's types.
func TestInjectParameters(t *testing.T) {
	nb := newCells(`fmt.Println("setup")`, "lr := 0.001\nname := \"base\"\nvar epochs = 3\nvar tag string", `fmt.Println(lr, name, epochs, tag, extra)`)
	nb.Cells[1].Metadata["tags"] = []any{"parameters"}
	params := []Parameter{{"lr", "1e-2"}, {"name", "42"}, {"epochs", "5"}, {"tag", "x y"}, {"extra", "true"}}
	for range 2 { // injecting twice replaces the first injection
		if err := InjectParameters(nb, params); err != nil {
			t.Fatal(err)
		}
	}
	if len(nb.Cells) != 4 {
		t.Fatalf("%d cells, want 4", len(nb.Cells))
	}
	inj := nb.Cells[2]
	want := "// Parameters\nlr = 1e-2\nname = \"42\"\nepochs = 5\ntag = \"x y\"\nextra := true"
	if inj.Source != want || !reflect.DeepEqual(inj.Metadata["tags"], []any{"injected-parameters"}) || inj.Type != CodeCell {
		t.Errorf("injected cell %q %v, want %q", inj.Source, inj.Metadata, want)
	}
	sess := newSession(t)
	if err := Run(context.Background(), nb, sess, nil); err != nil {
		t.Fatal(err)
	}
	if got := kinds(nb.Cells[3].Outputs); !reflect.DeepEqual(got, []string{"stream:stdout:0.01 42 5 x y true\n"}) {
		t.Errorf("the cell reading the parameters printed %q", got)
	}
	// A parameters cell with imports and functions among its statements.
	mixed := newCells("import (\n\t\"os\"\n\t\"time\"\n)\n\nfunc double(x int) int {\n\treturn 2 * x\n}\nquick := os.Getenv(\"Q\") != \"\"\nimport \"strings\"\nvar label = strings.ToUpper(\"x\")")
	mixed.Cells[0].Metadata["tags"] = []any{"parameters"}
	if err := InjectParameters(mixed, []Parameter{{"quick", "true"}, {"label", "7"}}); err != nil || mixed.Cells[1].Source != "// Parameters\nquick = true\nlabel = 7" {
		t.Errorf("after a cell with imports and functions: %v, %q", err, mixed.Cells[1].Source)
	}
	plain := newCells(`fmt.Println(n)`)
	if err := InjectParameters(plain, []Parameter{{"n", "-3"}}); err != nil || plain.Cells[0].Source != "// Parameters\nn := -3" {
		t.Errorf("without a parameters cell: %v, first cell %q", err, plain.Cells[0].Source)
	}
	if err := InjectParameters(plain, []Parameter{{"not a name", "1"}}); err == nil {
		t.Error("a parameter that is not an identifier was injected")
	}
}

// TestRunWidgetState checks that a headless run saves its widgets as
// nbconvert --execute does: the view in the cell's outputs and the state
// of the open widgets under metadata.widgets.
func TestRunWidgetState(t *testing.T) {
	sess := newSession(t)
	nb := newCells(`s := widgets.NewIntSlider("n", 0, 10, 4)`+"\ns.SetValue(6)\ns", `fmt.Println(s.Value())`)
	if err := Run(context.Background(), nb, sess, nil); err != nil {
		t.Fatal(err)
	}
	view, _ := nb.Cells[0].Outputs[0].Data["application/vnd.jupyter.widget-view+json"].(map[string]any)
	if view == nil || view["version_major"] != 2 {
		t.Fatalf("the slider's output %+v", nb.Cells[0].Outputs[0])
	}
	w, _ := nb.Metadata["widgets"].(map[string]any)
	st, _ := w["application/vnd.jupyter.widget-state+json"].(map[string]any)
	states, _ := st["state"].(map[string]any)
	e, _ := states[view["model_id"].(string)].(map[string]any)
	if e["model_name"] != "IntSliderModel" || e["state"].(map[string]any)["value"] != 6 {
		t.Errorf("saved state of the slider: %v", e)
	}
	if st["version_major"] != 2 || len(states) != 3 {
		t.Errorf("saved widget state: version %v, %d models (want the slider, its layout and style)", st["version_major"], len(states))
	}
}
