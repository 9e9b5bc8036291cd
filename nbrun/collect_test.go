package nbrun

import (
	"reflect"
	"testing"

	"github.com/gotensor/gotensor/kernel"
)

func text(s string) kernel.Bundle { return kernel.Bundle{Data: map[string]any{"text/plain": s}} }

// kinds lists outputs as "type:name-or-text/plain".
func kinds(outs []*Output) []string {
	var ks []string
	for _, o := range outs {
		switch o.Type {
		case StreamOutput:
			ks = append(ks, "stream:"+o.Name+":"+o.Text)
		case ErrorOutput:
			ks = append(ks, "error:"+o.EName)
		default:
			s, _ := o.Data["text/plain"].(string)
			ks = append(ks, o.Type+":"+s)
		}
	}
	return ks
}

func TestCollectorStreams(t *testing.T) {
	c := NewCollector()
	cell := &Cell{Type: CodeCell, Outputs: []*Output{{Type: StreamOutput, Name: "stdout", Text: "old"}}}
	c.Begin(cell, 4)
	c.Stream("stdout", "a")
	c.Stream("stdout", "b\n")
	c.Stream("stderr", "warn\n")
	c.Stream("stdout", "")
	c.Stream("stdout", "c\n")
	c.End()
	c.Stream("stdout", "between cells\n")
	want := []string{"stream:stdout:ab\n", "stream:stderr:warn\n", "stream:stdout:c\n"}
	if got := kinds(cell.Outputs); !reflect.DeepEqual(got, want) || cell.ExecutionCount != 4 {
		t.Errorf("outputs %q, count %d; want %q, 4", got, cell.ExecutionCount, want)
	}
}

func TestCollectorDisplayUpdates(t *testing.T) {
	c := NewCollector()
	first, second := &Cell{Type: CodeCell}, &Cell{Type: CodeCell}
	c.Begin(first, 1)
	c.Display(text("bar 0/3"), "p", false)
	c.Display(text("plain"), "", false)
	c.Display(text("bar 1/3"), "p", true)
	c.End()
	c.Display(text("bar 2/3"), "p", true) // a live output redrawn after its cell
	c.Begin(second, 2)
	c.Display(text("bar 3/3"), "p", true) // from the next cell: updates the first
	c.Display(text("ghost"), "never-shown", true)
	c.Result(&kernel.Bundle{Data: map[string]any{"text/plain": "42"}})
	c.End()
	if got, want := kinds(first.Outputs), []string{"display_data:bar 3/3", "display_data:plain"}; !reflect.DeepEqual(got, want) {
		t.Errorf("first cell %q; want %q", got, want)
	}
	if got, want := kinds(second.Outputs), []string{"execute_result:42"}; !reflect.DeepEqual(got, want) || second.Outputs[0].ExecutionCount != 2 {
		t.Errorf("second cell %q (count %d); want %q (count 2)", got, second.Outputs[0].ExecutionCount, want)
	}
	c.Close()
	c.Display(text("after close"), "p", true)
	if s := first.Outputs[0].Data["text/plain"]; s != "bar 3/3" {
		t.Errorf("an update after Close changed the output to %q", s)
	}
}

func TestCollectorClearOutput(t *testing.T) {
	c := NewCollector()
	cell := &Cell{Type: CodeCell}
	c.Begin(cell, 1)
	c.Stream("stdout", "one\n")
	c.Display(text("frame 1"), "f", false)
	c.ClearOutput(true)
	if len(cell.Outputs) != 2 {
		t.Fatalf("ClearOutput(true) cleared before the next output: %q", kinds(cell.Outputs))
	}
	c.Display(text("frame 1b"), "f", true) // an update is not a new output
	if got := kinds(cell.Outputs); len(got) != 2 || got[1] != "display_data:frame 1b" {
		t.Fatalf("after the update: %q", got)
	}
	c.Display(text("frame 2"), "", false)
	if got, want := kinds(cell.Outputs), []string{"display_data:frame 2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after the next output: %q; want %q", got, want)
	}
	c.Display(text("frame 1c"), "f", true) // its output was cleared
	c.Stream("stdout", "two\n")
	c.ClearOutput(false)
	if len(cell.Outputs) != 0 {
		t.Errorf("ClearOutput(false) left %q", kinds(cell.Outputs))
	}
	c.Error(&kernel.Error{Name: "E", Value: "v", Traceback: []string{"E: v"}})
	if got := kinds(cell.Outputs); !reflect.DeepEqual(got, []string{"error:E"}) {
		t.Errorf("after Error: %q", got)
	}
}

func TestCollectorInput(t *testing.T) {
	if _, err := NewCollector().Input("name? ", false); err == nil {
		t.Error("Input succeeded with no one to answer")
	}
}
