package interp

import (
	"reflect"
	"unsafe"

	yaegi "github.com/traefik/yaegi/interp"
)

// forgetRoot drops prog from the files the interpreter keeps for its
// debugger's breakpoints by file (Interpreter.roots), which this session's
// debugger does not use: it sets breakpoints on the programs it records
// itself (debugger.recordStep). Without it, every step of every cell
// stays in memory for the session's life, whether or not anything still
// refers to its code: about 10 KB a `1+1`, and the dispatch functions of
// each cell that declares types (see plan.Step.Internal). Code still in
// use (declared functions, closures a cell made) keeps its own nodes.
//
// It reads yaegi v0.16.1's fields (Interpreter.roots, Program.root) and
// leaves the interpreter as it is when they differ.
func forgetRoot(yi *yaegi.Interpreter, prog *yaegi.Program) {
	root := reflect.ValueOf(prog).Elem().FieldByName("root")
	roots := reflect.ValueOf(yi).Elem().FieldByName("roots")
	if !root.IsValid() || root.Kind() != reflect.Pointer || !roots.IsValid() ||
		roots.Kind() != reflect.Slice || roots.Type().Elem() != root.Type() {
		return
	}
	list := (*[]unsafe.Pointer)(unsafe.Pointer(roots.UnsafeAddr()))
	r := root.UnsafePointer()
	for i := len(*list) - 1; i >= 0; i-- {
		if (*list)[i] == r {
			copy((*list)[i:], (*list)[i+1:])
			(*list)[len(*list)-1] = nil
			*list = (*list)[:len(*list)-1]
			return
		}
	}
}

// packageScopeChildren returns the list of child scopes of the
// interpreter's scope of package main, to which yaegi adds the scope of
// every function it compiles there (a cell's init, its function
// literals, its declared functions), or nil. yaegi only appends to it, and
// reads it only to list a stopped frame's variables, from the scopes of
// the frame's own function; so the scopes added while a step compiled can
// be dropped from it once it compiled, or each would keep its function's
// code for the session's life (the code still in use keeps its scopes).
//
// It reads yaegi v0.16.1's fields (Interpreter.scopes, scope.child) and
// returns nil when they differ.
func packageScopeChildren(yi *yaegi.Interpreter) *[]unsafe.Pointer {
	scopes := reflect.ValueOf(yi).Elem().FieldByName("scopes")
	if !scopes.IsValid() || scopes.Kind() != reflect.Map || scopes.Type().Key().Kind() != reflect.String {
		return nil
	}
	sc := scopes.MapIndex(reflect.ValueOf("main"))
	if !sc.IsValid() || sc.Kind() != reflect.Pointer || sc.IsNil() || sc.Type().Elem().Kind() != reflect.Struct {
		return nil
	}
	child, ok := sc.Type().Elem().FieldByName("child")
	if !ok || child.Type != reflect.SliceOf(sc.Type()) {
		return nil
	}
	return (*[]unsafe.Pointer)(unsafe.Add(sc.UnsafePointer(), child.Offset))
}

// dropScopesAfter truncates the list of package main's child scopes to
// its first n (see packageScopeChildren).
func dropScopesAfter(kids *[]unsafe.Pointer, n int) {
	if kids == nil || n < 0 || n > len(*kids) {
		return
	}
	clear((*kids)[n:])
	*kids = (*kids)[:n]
}
