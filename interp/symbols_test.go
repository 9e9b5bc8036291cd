package interp

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"testing"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/gotensor/gotensor/display"
)

// rich renders itself, as a tensor does.
type rich struct{ n int }

func (r rich) Bundle() display.Bundle {
	return display.Bundle{Data: map[string]any{"text/plain": fmt.Sprintf("rich(%d)", r.n), "text/html": fmt.Sprintf("<b>%d</b>", r.n)}}
}

var demoSymbols = yaegi.Exports{
	"example.com/demo/demo": {
		"Rich":  reflect.ValueOf(func(n int) rich { return rich{n} }),
		"Show":  reflect.ValueOf(func(v any) { display.Show(v) }),
		"Print": reflect.ValueOf(func(s string) { fmt.Println(s); fmt.Fprintln(os.Stderr, "err:"+s) }),
	},
}

// TestSymbols checks Options.Symbols and Preimport, rich last values and
// display from compiled code.
func TestSymbols(t *testing.T) {
	s, err := New(Options{Symbols: demoSymbols, Preimport: []string{"example.com/demo"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var r recorder
	b, err := s.Execute(context.Background(), "demo.Show(demo.Rich(1))\ndemo.Rich(2)", &r)
	if err != nil {
		t.Fatal(err)
	}
	if b == nil || b.Data["text/html"] != "<b>2</b>" || b.Data["text/plain"] != "rich(2)" {
		t.Errorf("result %+v, want the rich bundle of 2", b)
	}
	if len(r.displays) != 1 || r.displays[0].Data["text/html"] != "<b>1</b>" {
		t.Errorf("displays %+v, want the rich bundle of 1", r.displays)
	}
	// Importing a pre-imported package again is harmless.
	if _, _, err := run(t, s, "import \"example.com/demo\"\ndemo.Rich(3)"); err != nil {
		t.Error(err)
	}
}

// TestCaptureStdio checks that compiled code's writes to os.Stdout and
// os.Stderr reach the running cell, in the order written, and that fd 2
// stays the process's own standard error (where fatal errors go).
func TestCaptureStdio(t *testing.T) {
	orig := os.Stderr
	s, err := New(Options{Symbols: demoSymbols, CaptureStdio: true})
	if err != nil {
		t.Fatal(err)
	}
	var r recorder
	_, err = s.Execute(context.Background(), `import "example.com/demo"
import "os"
import "encoding/json"
demo.Print("hello")
os.Stdout.WriteString("direct\n")
fmt.Println("interpreted")
json.NewEncoder(os.Stdout).Encode(map[string]int{"a": 1})
fmt.Println("last")`, &r)
	logTo := s.Stderr()
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	if want := "hello\ndirect\ninterpreted\n{\"a\":1}\nlast\n"; r.text("stdout") != want {
		t.Errorf("stdout %q, want %q", r.text("stdout"), want)
	}
	if got := r.text("stderr"); got != "err:hello\n" {
		t.Errorf("stderr %q, want %q", got, "err:hello\n")
	}
	if logTo != orig {
		t.Error("Stderr() should be the original standard error while capturing")
	}
	if os.Stderr != orig {
		t.Error("Close did not give os.Stderr back")
	}
}

// TestCaptureStdioPerCell checks that what a cell writes to the captured
// file descriptors, through the interpreter's fmt or compiled code, is
// that cell's output, never a later cell's, also when it ends in a byte
// that may begin the capture's sync marker (the forwarder keeps such a
// tail), and that cells which write nothing, whose end skips the sync,
// get nothing.
func TestCaptureStdioPerCell(t *testing.T) {
	s, err := New(Options{CaptureStdio: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Execute(context.Background(), `import "os"`, &recorder{}); err != nil {
		t.Fatal(err)
	}
	for i := range 60 {
		var code, want, wantErr string
		switch i % 4 {
		case 0:
			code, want = fmt.Sprintf("os.Stdout.WriteString(\"c%d\\x00\")", i), fmt.Sprintf("c%d\x00", i)
		case 1:
			code, want = fmt.Sprintf("fmt.Println(%d)", i), fmt.Sprintf("%d\n", i)
		case 2:
			code = fmt.Sprintf("x%d := %d", i, i)
		case 3:
			code, wantErr = fmt.Sprintf("fmt.Fprint(os.Stderr, \"e%d\")", i), fmt.Sprintf("e%d", i)
		}
		var r recorder
		if _, err := s.Execute(context.Background(), code, &r); err != nil {
			t.Fatalf("cell %d: %v", i, err)
		}
		if got := r.text("stdout"); got != want {
			t.Errorf("cell %d (%s): stdout %q, want %q", i, code, got, want)
		}
		if got := r.text("stderr"); got != wantErr {
			t.Errorf("cell %d (%s): stderr %q, want %q", i, code, got, wantErr)
		}
	}
}
