// Package plan decides what a notebook cell means before any of it runs.
//
// A Universe gives go/types the compiled packages a session can call, built
// from the same yaegi symbol tables the interpreter uses, so the planner and
// the interpreter cannot disagree about a package.
package plan
