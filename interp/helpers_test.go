package interp

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gotensor/gotensor/kernel"
)

// recorder is an Output that records what a cell produces.
type recorder struct {
	mu       sync.Mutex
	streams  []streamEvent
	displays []kernel.Bundle
	inputs   []string // answers to Input, consumed in order
	prompts  []string
}

type streamEvent struct {
	name, text string
	at         time.Time
}

func (r *recorder) Stream(name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.streams = append(r.streams, streamEvent{name, text, time.Now()})
}

func (r *recorder) Display(b kernel.Bundle, id string, update bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.displays = append(r.displays, b)
}

func (r *recorder) ClearOutput(wait bool) {}

func (r *recorder) Input(prompt string, password bool) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.prompts = append(r.prompts, prompt)
	if len(r.inputs) == 0 {
		return "", errors.New("no input")
	}
	s := r.inputs[0]
	r.inputs = r.inputs[1:]
	return s, nil
}

// text returns everything written to the named stream.
func (r *recorder) text(name string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, e := range r.streams {
		if e.name == name {
			b.WriteString(e.text)
		}
	}
	return b.String()
}

func newSession(t *testing.T) *Session {
	t.Helper()
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// run executes code and returns its plain-text result ("" when none), its
// stdout and its error.
func run(t *testing.T, s *Session, code string) (string, string, error) {
	t.Helper()
	var r recorder
	b, err := s.Execute(context.Background(), code, &r)
	res := ""
	if b != nil {
		res, _ = b.Data["text/plain"].(string)
	}
	return res, r.text("stdout"), err
}

// mustRun is run that fails the test on error.
func mustRun(t *testing.T, s *Session, code string) (string, string) {
	t.Helper()
	res, out, err := run(t, s, code)
	if err != nil {
		t.Fatalf("cell %q: %v (%#v)", code, err, err)
	}
	return res, out
}
