package interp

import (
	"regexp"
	"slices"
	"strings"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/gotensor/gotensor/interp/internal/plan"
)

// The debugger's record of the cells and steps that ran, and the source
// paths the front end names cells by.

// A recordedCell is a Go cell the session ran: the front end names its
// positions by its code's hash.
type recordedCell struct {
	n    int // the cell's number, as plan.Position gives it
	code string
}

// A recordedStep is a compiled step that ran.
type recordedStep struct {
	n         int
	prog      *yaegi.Program
	transient bool // its code cannot run once the cell ended (plan.Step.Transient)
}

// recordCell remembers the code of Go cell n. It and recordStep are what
// a cell pays for the debugger when no front end is attached: appends to
// slices, no allocation but their growth.
func (d *debugger) recordCell(n int, code string) {
	d.mu.Lock()
	d.cells = append(d.cells, recordedCell{n % plan.CellsWrap, code})
	delete(d.paths, n%plan.CellsWrap)
	d.mu.Unlock()
}

// recordStep remembers a compiled step of cell n that runs: breakpoints on
// the cell's lines are set on its steps. A transient step is forgotten
// when the cell ends (see forgetTransient).
func (d *debugger) recordStep(n int, src string, prog *yaegi.Program, transient bool) {
	d.mu.Lock()
	d.ran = append(d.ran, recordedStep{n % plan.CellsWrap, prog, transient})
	if strings.Contains(src, " = _gtf") {
		for _, m := range funcBind.FindAllStringSubmatch(src, -1) {
			d.binds[m[1]] = m[2]
		}
		if !d.s.dbgOn.Load() {
			d.rebind = true
		}
	}
	d.mu.Unlock()
}

// forgetTransient forgets the transient steps of cell n, which has ended:
// no breakpoint can stop in them any more, and keeping them kept their code
// (about 10 KB a cell such as 1+1) for the session's life.
func (d *debugger) forgetTransient(n int) {
	n %= plan.CellsWrap
	d.mu.Lock()
	d.ran = slices.DeleteFunc(d.ran, func(st recordedStep) bool { return st.n == n && st.transient })
	d.mu.Unlock()
}

// funcBind matches the planner's binding of a cell's function to its
// body: "f = _gtf3_f".
var funcBind = regexp.MustCompile(`(?m)^(\w+) = (_gtf\d+_\w+)$`)

// cellPath returns the source path of cell n; d.mu is held.
func (d *debugger) cellPath(n int) string {
	if p, ok := d.paths[n]; ok {
		return p
	}
	i := len(d.cells) - 1
	for i >= 0 && d.cells[i].n != n {
		i--
	}
	if i < 0 {
		return ""
	}
	if d.a == nil {
		return ""
	}
	p := d.a.SourcePath(d.cells[i].code)
	d.paths[n] = p
	return p
}
