package interp

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/gotensor/gotensor/kernel"
)

// eventLog is an Output that records streams and displays in one sequence.
type eventLog struct {
	recorder
	mu     sync.Mutex
	events []string
}

func (l *eventLog) Stream(name, text string) {
	l.mu.Lock()
	l.events = append(l.events, name+":"+text)
	l.mu.Unlock()
}

func (l *eventLog) Display(b kernel.Bundle, id string, update bool) {
	l.mu.Lock()
	l.events = append(l.events, "display:"+b.Data["text/html"].(string))
	l.mu.Unlock()
}

// TestOutputOrder checks that rich output appears after the text printed
// before it, although streams are batched.
func TestOutputOrder(t *testing.T) {
	s := newSession(t)
	var l eventLog
	_, err := s.Execute(context.Background(), `fmt.Println("before")
display.HTML("<b>rich</b>")
fmt.Println("after")`, &l)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(l.events, "|")
	if want := "stdout:before\n|display:<b>rich</b>|stdout:after\n"; got != want {
		t.Errorf("events %q, want %q", got, want)
	}
}
