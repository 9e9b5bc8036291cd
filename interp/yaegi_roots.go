package interp

import (
	"go/ast"
	"reflect"
	"slices"
	"unsafe"

	yaegi "github.com/traefik/yaegi/interp"
)

// What yaegi keeps of the code it compiled.
//
// yaegi keeps every function it compiles for the interpreter's life: the
// scope of each in its parent scope's children (package main's, for a
// cell's init and the function literals at its top level) and each file in
// Interpreter.roots, for its debugger's breakpoints by file. Both lists are
// only appended to. yaegi reads the children only to list a stopped
// frame's variables, from the scopes of the frame's own function, and
// this session's debugger sets breakpoints on the programs it records
// itself (debugger.recordStep), not by file. So compileStep compiles with
// compile, which drops both once a step compiled: code still in use
// (declared functions, closures a cell made) keeps its own nodes and
// scopes, and the rest can go. Without it a session kept every cell's
// code, about 10 KB a `1+1`, and every version of the dispatch functions
// that cells declaring types make again (see plan.Step.Internal): n² of
// them, 4.4 GB after 400 such cells.
//
// The functions here read yaegi v0.16.1's fields (Interpreter.roots,
// Interpreter.scopes, scope.child, Program.root) and leave the interpreter
// as it is when they differ.

// compile compiles n as yi.CompileAST does and drops what yaegi would keep
// of it beyond what the code itself holds on to.
func compile(yi *yaegi.Interpreter, n ast.Node) (*yaegi.Program, error) {
	before := -1
	if kids := packageScopeChildren(yi); kids != nil {
		before = len(*kids)
	}
	prog, err := yi.CompileAST(n)
	// The package's scope may have been made by this compilation.
	dropScopesAfter(packageScopeChildren(yi), before)
	if err != nil {
		return nil, err
	}
	forgetRoot(yi, prog)
	return prog, nil
}

// programRoot returns prog's root node (a pointer), or the zero Value when
// yaegi's Program has no such field.
func programRoot(prog *yaegi.Program) reflect.Value {
	root := reflect.ValueOf(prog).Elem().FieldByName("root")
	if !root.IsValid() || root.Kind() != reflect.Pointer || root.IsNil() {
		return reflect.Value{}
	}
	return root
}

// forgetRoot drops prog from Interpreter.roots.
func forgetRoot(yi *yaegi.Interpreter, prog *yaegi.Program) {
	root := programRoot(prog)
	roots := reflect.ValueOf(yi).Elem().FieldByName("roots")
	if !root.IsValid() || !roots.IsValid() || roots.Kind() != reflect.Slice || roots.Type().Elem() != root.Type() {
		return
	}
	list := (*[]unsafe.Pointer)(unsafe.Pointer(roots.UnsafeAddr()))
	r := root.UnsafePointer()
	for i := len(*list) - 1; i >= 0; i-- {
		if (*list)[i] == r {
			*list = slices.Delete(*list, i, i+1) // clears the freed slot
			return
		}
	}
}

// packageScopeChildren returns the list of child scopes of package main's
// scope, or nil (none yet, or other fields).
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

// dropScopesAfter truncates the children of package main's scope (kids,
// see packageScopeChildren) to their first n; n < 0 means none were
// there before.
func dropScopesAfter(kids *[]unsafe.Pointer, n int) {
	if kids == nil || n > len(*kids) {
		return
	}
	n = max(n, 0)
	clear((*kids)[n:])
	*kids = (*kids)[:n]
}
