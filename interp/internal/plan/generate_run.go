package plan

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"
)

// dispatchFile returns the file that assigns dispatch, the dispatch
// functions a cell that declares types or methods makes (see
// dispatchVars), or "". It is a step of its own, before the run block,
// which the executor keeps nothing of once it ran (Step.Internal): each
// such cell makes the functions again for all the session's types, and a
// run block is kept for the debugger's breakpoints, so a session of n such
// cells kept n² of them (a gigabyte at 200 cells).
func dispatchFile(dispatch string) string {
	if dispatch == "" {
		return ""
	}
	return "package main\nfunc init() {\n" + dispatch + "}\n"
}

// runBlock returns the file that runs the cell: one function, init, which
// the interpreter runs once when the file runs. Its frame goes away when
// the cell ends (the interpreter keeps what top-level code computes for
// the session's life), and it adds nothing to the interpreter's global
// frame, which yaegi copies whole each time a compilation adds to it and
// each time top-level code makes a closure: a cell's fixed cost does not
// grow with the session. It gives the cell's functions' variables their declared functions (a
// function kept in a variable is one that later redefinitions reach; the
// body is a declared function, as yaegi compiles function literals
// differently), runs the statements in order (their top-level
// definitions assign session variables) with the init functions after
// the declarations that come first (see declaresVars), and main. Under
// the debugger it first makes its goroutine the session's.
func (g *gen) runBlock() string {
	c := g.c
	var b strings.Builder
	b.WriteString(g.templateVars())
	for _, fd := range c.funcs {
		if body, ok := g.bodies[fd]; ok && fd.Name.Name != "init" {
			fmt.Fprintf(&b, "%s = %s\n", g.yname(c.info.Defs[fd.Name]), body)
		}
	}
	inits := func() {
		for _, fd := range c.funcs {
			if body, ok := g.bodies[fd]; ok && fd.Name.Name == "init" {
				fmt.Fprintf(&b, "%s()\n", body)
			}
		}
	}
	// Go initializes a package's variables before its init functions
	// run: in a cell without a package clause, the variables its
	// declarations and definitions make before its first other statement
	// are those.
	vars := 0
	for _, st := range c.body.Body.List {
		if !declaresVars(st) {
			break
		}
		vars++
	}
	for i, st := range c.body.Body.List {
		if i == vars {
			inits()
		}
		if co := c.cellOffset(g.off(st.Pos())); co >= 0 {
			line, _ := c.lineCol(co)
			fmt.Fprintf(&b, "%s = %d\n", lineName, line)
		}
		g.piece(&b, st)
	}
	if vars == len(c.body.Body.List) {
		inits()
	}
	if g.p.Main {
		for _, fd := range c.funcs {
			if g.ynames[c.info.Defs[fd.Name]] == "_gtmain" {
				line, _ := c.lineCol(max(c.cellOffset(g.off(fd.Pos())), 0))
				fmt.Fprintf(&b, "%s = %d\n", lineName, line)
			}
		}
		b.WriteString("_gtmain()\n")
	}
	if b.Len() == 0 {
		return ""
	}
	// The goroutine that runs the cell is the session's (see
	// cellrt.Runtime.GoStart): the executor binds its own, and yaegi's
	// debugger runs a cell's step in one it starts itself, which the step
	// binds first. On init's line: the cell's lines keep their numbers.
	start := ""
	if g.s.debug {
		start = "defer " + rtName + ".GoStart()()"
	}
	return "package main\nfunc init() { " + start + "\n" + b.String() + "}\n"
}

// declaresVars reports whether st, a top-level statement of a cell
// without a package clause, only declares: var, const and type
// declarations, and definitions with :=.
func declaresVars(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.DeclStmt:
		return true
	case *ast.AssignStmt:
		return st.Tok == token.DEFINE
	}
	return false
}
