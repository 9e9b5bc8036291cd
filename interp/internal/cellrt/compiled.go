package cellrt

import (
	"fmt"
	"strings"
	"sync"
)

// Values of a cell's types that interpreted code hands to compiled code
// in an interface (see plan's compiledAnyCall): compiled code is given
// the interpreter's wrapper of a value of a type with methods, which it
// reads as a struct of pointers ({node:0xc000... value:{...}}), not as
// the value Go would give it. The planner cannot see what an interface
// holds; Compiled and CompiledSlice look when the call runs, and warn.

// warned holds the warnings Compiled has written, so that each is
// written once a session.
type warned struct {
	mu   sync.Mutex
	seen map[string]bool
}

// Compiled returns v, which interpreted code is about to give compiled
// code as an any; when v holds a value of a cell's type that compiled
// code would see as the interpreter's wrapper, it first writes warning
// (with %s replaced by the type's name) to standard error, once for each
// warning and type.
func (rt *Runtime) Compiled(v any, warning string) any {
	if t := CellType(v); t != "" {
		rt.warnOnce(strings.Replace(warning, "%s", strings.TrimPrefix(t, "main."), 1))
	}
	return v
}

// CompiledSlice is Compiled for each element of args, a slice handed to
// a compiled function's variadic parameter with args... .
func (rt *Runtime) CompiledSlice(args []any, warning string) []any {
	for _, v := range args {
		rt.Compiled(v, warning)
	}
	return args
}

func (rt *Runtime) warnOnce(msg string) {
	rt.warned.mu.Lock()
	first := !rt.warned.seen[msg]
	if rt.warned.seen == nil {
		rt.warned.seen = map[string]bool{}
	}
	rt.warned.seen[msg] = true
	rt.warned.mu.Unlock()
	if first {
		fmt.Fprintf(rt.stderr(), "interp: warning: %s\n", msg)
	}
}
