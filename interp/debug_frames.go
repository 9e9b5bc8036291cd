package interp

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/gotensor/gotensor/interp/internal/plan"
	"github.com/gotensor/gotensor/kernel"
)

// The stack frames of a stopped thread, at the cells' lines.

// debugFrame is a stack frame shown to the front end.
type debugFrame struct {
	gid    int
	frame  *yaegi.DebugFrame // nil for a panic's frames
	cell   int
	line   int
	name   string
	source string
}

// cellName strips the planner's names off a function's: _gtf3_f is the
// cell's f, _gtmain its main, init the cell's statements.
func cellName(name string) string {
	name = bodyName.ReplaceAllString(name, "")
	switch name {
	case "_gtmain":
		return "main"
	case "init", "<init>":
		return "<cell>"
	}
	return name
}

func (d *debugger) stackTrace(args map[string]any) (map[string]any, error) {
	g := kernel.IntArg(args, "threadId")
	d.mu.Lock()
	defer d.mu.Unlock()
	st, ok := d.stops[g]
	if !ok {
		return nil, fmt.Errorf("thread %d is not stopped", g)
	}
	var frames []*debugFrame
	if st.evt != nil {
		for _, f := range st.evt.Frames(0, st.evt.FrameDepth()) {
			pos := f.Position()
			cell, line, ok := plan.Position(pos.Line)
			if !ok {
				continue // the planner's code around the cell
			}
			frames = append(frames, &debugFrame{gid: g, frame: f, cell: cell, line: line, name: cellName(f.Name()), source: d.cellPath(cell)})
		}
		if n := len(frames); g == 1 && (n == 0 || frames[n-1].name != "<cell>") {
			// A function called through its variable runs in a frame
			// whose parent is where the function value was made, not its
			// caller: the cell's statement that runs stands for the rest.
			if line := *d.s.intr.line; line > 0 {
				cell := d.s.cells % plan.CellsWrap
				frames = append(frames, &debugFrame{gid: g, cell: cell, line: line, name: "<cell>", source: d.cellPath(cell)})
			}
		}
	} else {
		frames = d.panicFrames(g)
	}
	out := []map[string]any{}
	for _, f := range frames {
		d.nextID++
		d.frames[d.nextID] = f
		m := map[string]any{"id": d.nextID, "name": f.name, "line": f.line, "column": 1}
		if f.source != "" {
			m["source"] = map[string]any{"path": f.source, "name": filepath.Base(f.source)}
		}
		out = append(out, m)
	}
	return map[string]any{"stackFrames": out, "totalFrames": len(out)}, nil
}

// panicFrames returns the frames of a panic: the cell's statement and the
// functions it went through, as the panic's traceback names them. d.mu is
// held.
func (d *debugger) panicFrames(g int) []*debugFrame {
	var out []*debugFrame
	d.s.traceMu.Lock()
	trace := append([]string(nil), d.s.trace...)
	d.s.traceMu.Unlock()
	for _, l := range trace {
		m := panicLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		name := cellName(strings.TrimPrefix(m[2], "main."))
		var cell, line int
		if name == "<cell>" {
			// The function the cell's statements run in: the statement
			// is the one the planner's _gtLine names.
			cell, line = d.s.cells%plan.CellsWrap, *d.s.intr.line
		} else {
			pos := cellPos.FindStringSubmatch(m[1])
			if pos == nil {
				continue
			}
			gl, _ := strconv.Atoi(pos[1])
			var ok bool
			if cell, line, ok = plan.Position(gl); !ok {
				continue
			}
		}
		if n := len(out); n > 0 && out[n-1].name == name && out[n-1].line == line {
			continue
		}
		out = append(out, &debugFrame{gid: g, cell: cell, line: line, name: name, source: d.cellPath(cell)})
	}
	return out
}
