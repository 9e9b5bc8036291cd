package nbrun

import (
	"errors"
	"sync"
	"time"

	"github.com/gotensor/gotensor/kernel"
)

// A Collector turns what running cells produce into nbformat outputs, as a
// Jupyter front end does with the kernel's messages. It implements
// kernel.Output for the cell that is running (set with Begin) and takes the
// cell's last value and error with Result and Error.
//
// It follows Jupyter's rules: text written to a stream right after text on
// the same stream extends that output; a display with an id that an earlier
// output has (in this cell or an earlier one) replaces that output's data
// in place when it is an update; ClearOutput(false) clears the cell's
// outputs at once and ClearOutput(true) when the next output arrives.
//
// Live outputs (display.NewProgress, display.NewLivePlot) may redraw after
// their cell ended; the Collector applies such updates until Close. A
// Collector is safe for concurrent use.
type Collector struct {
	mu         sync.Mutex
	cell       *Cell // receiving outputs; nil between cells
	clearNext  bool  // ClearOutput(true) waits for the next output
	ids        map[string][]*Output
	closed     bool
	lastUpdate time.Time // of the latest display with an id
}

var _ kernel.Output = (*Collector)(nil)

// NewCollector returns a Collector with no cell.
func NewCollector() *Collector {
	return &Collector{ids: map[string][]*Output{}}
}

// Begin makes c collect into cell, a code cell, whose outputs it clears, and
// sets the cell's execution count to n.
func (c *Collector) Begin(cell *Cell, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropIDsLocked(cell.Outputs)
	cell.Outputs = nil
	cell.ExecutionCount = n
	c.cell = cell
	c.clearNext = false
}

// End stops collecting into the current cell. Later updates of its
// displays still apply.
func (c *Collector) End() {
	c.mu.Lock()
	c.cell = nil
	c.clearNext = false
	c.mu.Unlock()
}

// Close stops c: from now on it ignores everything, so that the notebook
// can be written while live outputs of finished cells still redraw.
func (c *Collector) Close() {
	c.mu.Lock()
	c.closed = true
	c.cell = nil
	c.mu.Unlock()
}

// Stream appends text to the cell's output on the named stream, extending
// the last output when it is text on the same stream.
func (c *Collector) Stream(name, text string) {
	if text == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.cell == nil {
		return
	}
	c.clearIfWaitingLocked()
	outs := c.cell.Outputs
	if n := len(outs); n > 0 && outs[n-1].Type == StreamOutput && outs[n-1].Name == name {
		outs[n-1].Text += text
		return
	}
	c.cell.Outputs = append(outs, &Output{Type: StreamOutput, Name: name, Text: text})
}

// Display adds b to the cell's outputs as display_data. With update set, it
// instead replaces the data of every output shown earlier with the display
// id, wherever it is, and adds nothing; an update of an id never shown is
// dropped, as Jupyter front ends do.
func (c *Collector) Display(b kernel.Bundle, id string, update bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	if id != "" {
		c.lastUpdate = time.Now()
	}
	if update && id != "" {
		for _, o := range c.ids[id] {
			o.Data, o.Metadata = copyMap(b.Data), copyMap(b.Metadata)
		}
		return
	}
	if c.cell == nil {
		return
	}
	c.clearIfWaitingLocked()
	o := &Output{Type: DisplayDataOutput, Data: copyMap(b.Data), Metadata: copyMap(b.Metadata)}
	c.cell.Outputs = append(c.cell.Outputs, o)
	if id != "" {
		c.ids[id] = append(c.ids[id], o)
	}
}

// ClearOutput clears the cell's outputs, at once or, with wait set, when the
// next output arrives (updates of displays do not count).
func (c *Collector) ClearOutput(wait bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.cell == nil {
		return
	}
	if wait {
		c.clearNext = true
		return
	}
	c.clearLocked()
}

// Input fails: a notebook run has nobody to answer input requests.
func (c *Collector) Input(prompt string, password bool) (string, error) {
	return "", errors.New("notebook: a cell asked for input, but a notebook run has no one to answer: give the value in the cell instead")
}

// Result adds the cell's last value as an execute_result with the cell's
// execution count. A nil b adds nothing.
func (c *Collector) Result(b *kernel.Bundle) {
	if b == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.cell == nil {
		return
	}
	c.clearIfWaitingLocked()
	c.cell.Outputs = append(c.cell.Outputs, &Output{
		Type:           ExecuteResultOutput,
		Data:           copyMap(b.Data),
		Metadata:       copyMap(b.Metadata),
		ExecutionCount: c.cell.ExecutionCount,
	})
}

// Error adds the cell's error.
func (c *Collector) Error(e *kernel.Error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.cell == nil {
		return
	}
	c.clearIfWaitingLocked()
	tb := append([]string{}, e.Traceback...)
	c.cell.Outputs = append(c.cell.Outputs, &Output{Type: ErrorOutput, EName: e.Name, EValue: e.Value, Traceback: tb})
}

// LastDisplayUpdate returns when a display with an id was last shown or
// updated, or the zero time.
func (c *Collector) LastDisplayUpdate() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lastUpdate
}

func (c *Collector) clearIfWaitingLocked() {
	if c.clearNext {
		c.clearNext = false
		c.clearLocked()
	}
}

func (c *Collector) clearLocked() {
	c.dropIDsLocked(c.cell.Outputs)
	c.cell.Outputs = nil
}

// dropIDsLocked forgets the display ids of outs, which leave the notebook.
func (c *Collector) dropIDsLocked(outs []*Output) {
	gone := map[*Output]bool{}
	for _, o := range outs {
		gone[o] = true
	}
	for id, list := range c.ids {
		kept := list[:0]
		for _, o := range list {
			if !gone[o] {
				kept = append(kept, o)
			}
		}
		if len(kept) == 0 {
			delete(c.ids, id)
		} else {
			c.ids[id] = kept
		}
	}
}

// copyMap copies m's top level, so that a publisher that reuses its maps
// cannot change an output after the fact.
func copyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	cp := make(map[string]any, len(m))
	for k, v := range m {
		cp[k] = v
	}
	return cp
}
