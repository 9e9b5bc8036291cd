package interp

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/kernel"
)

// pagerRecorder is a recorder that is also a Pager.
type pagerRecorder struct {
	recorder
	pages []kernel.Bundle
}

func (r *pagerRecorder) Page(b kernel.Bundle) { r.pages = append(r.pages, b) }

// TestHelpQuery checks ?name and name?: the documentation goes to the
// pager of an Output that has one, else to standard output; the cell has
// no value. A standard-library function shows its type (fmt.Println's is
// func(...any) (int, error)); the library's and a cell's functions show
// their doc comments too.
func TestHelpQuery(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "// double returns twice n.\nfunc double(n int) int { return 2 * n }")
	for _, c := range []struct{ code, want string }{
		{"?fmt.Println", "func Println(...any) (int, error)"},
		{"fmt.Println?", "func Println(...any) (int, error)"},
		{"  double ?\n", "func double(n int) int"},
		{"? tensor.Zeros", "Zeros returns a Float32 tensor of the given shape filled with 0"},
	} {
		var r pagerRecorder
		b, err := s.Execute(context.Background(), c.code, &r)
		if err != nil || b != nil || len(r.pages) != 1 || r.text("stdout") != "" {
			t.Errorf("%q: value %v, error %v, %d pages, stdout %q", c.code, b, err, len(r.pages), r.text("stdout"))
			continue
		}
		if text, _ := r.pages[0].Data["text/plain"].(string); !strings.Contains(text, c.want) {
			t.Errorf("%q: paged %q, want it to hold %q", c.code, text, c.want)
		}
	}
	if got := s.IsComplete("fmt.Println?"); got.Status != "complete" {
		t.Errorf("IsComplete(fmt.Println?) = %+v", got)
	}
	// Without a pager, the text is the cell's output.
	if res, out := mustRun(t, s, "?double"); res != "" || !strings.Contains(out, "func double(n int) int") || !strings.Contains(out, "twice n") {
		t.Errorf("?double without a pager: %q, stdout %q", res, out)
	}
	_, _, err := run(t, s, "?nosuchname")
	var e *kernel.Error
	if !errors.As(err, &e) || e.Name != "MagicError" || !strings.Contains(e.Value, "nosuchname is not a package member") {
		t.Errorf("?nosuchname: %v", err)
	}
	// A question mark inside Go code is Go's business.
	if _, _, err := run(t, s, "x := 1 ? 2"); err == nil || strings.Contains(err.Error(), "MagicError") {
		t.Errorf("x := 1 ? 2: %v", err)
	}
}
