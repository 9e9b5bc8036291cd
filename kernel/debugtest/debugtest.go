// Package debugtest drives a kernel's debugger as JupyterLab does, for
// the tests of the kernel's debug plumbing and of a language's debugger,
// as net/http/httptest serves tests of HTTP.
package debugtest

import (
	"encoding/json"
	"testing"

	"github.com/gotensor/gotensor/kernel"
)

// A Client sends Debug Adapter Protocol requests to an adapter, checks
// that each response answers its request, and collects the adapter's
// events in Events.
type Client struct {
	t       testing.TB
	adapter *kernel.DebugAdapter
	seq     int
	// Events receives the adapter's events, decoded, in the order sent.
	Events chan map[string]any
}

// NewClient returns a client of a, whose Events channel holds up to
// buffer events that no one has read yet.
func NewClient(t testing.TB, a *kernel.DebugAdapter, buffer int) *Client {
	return &Client{t: t, adapter: a, Events: make(chan map[string]any, buffer)}
}

// Seq is the sequence number of the last request sent.
func (c *Client) Seq() int { return c.seq }

// Request sends the request command with its arguments and returns the
// response, decoded. The test fails where the response is not the
// protocol's answer to it: type "response", the request's command and
// seq, and a body.
func (c *Client) Request(command string, args map[string]any) map[string]any {
	c.t.Helper()
	c.seq++
	b, err := json.Marshal(map[string]any{"type": "request", "seq": c.seq, "command": command, "arguments": args})
	if err != nil {
		c.t.Fatalf("%s: arguments %v cannot be JSON: %v", command, args, err)
	}
	out := c.adapter.Request(b, func(e []byte) {
		var m map[string]any
		if err := json.Unmarshal(e, &m); err != nil {
			c.t.Errorf("event is not JSON: %s", e)
		}
		c.Events <- m
	})
	var r map[string]any
	if err := json.Unmarshal(out, &r); err != nil {
		c.t.Fatalf("%s: response is not JSON: %s", command, out)
	}
	if r["type"] != "response" || r["command"] != command || r["request_seq"] != float64(c.seq) {
		c.t.Errorf("%s: response %v does not answer request %d", command, r, c.seq)
	}
	if _, ok := r["body"].(map[string]any); !ok {
		c.t.Errorf("%s: response %v has no body", command, r)
	}
	return r
}

// Body sends a request that must succeed and returns its response's
// body.
func (c *Client) Body(command string, args map[string]any) map[string]any {
	c.t.Helper()
	r := c.Request(command, args)
	if r["success"] != true {
		c.t.Fatalf("%s %v: %v", command, args, r)
	}
	body, _ := r["body"].(map[string]any)
	return body
}
