package plan

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// Values of a cell's types handed to compiled code as an any.
//
// yaegi gives compiled code a value of a cell's type, converted to an
// empty interface at the call, as the interpreter's own value: a Temp
// float64 is a bare float64, a struct is the interpreter's struct (its
// unexported fields exported with an X first, its embedded fields fields
// like others), and neither has the type's methods. Compiled code that
// looks for methods by reflection (log/slog's Stringer and TextMarshaler,
// encoding/gob's GobEncoder, database/sql's Valuer, a module's own
// interfaces) does not find them, and a value that a container hands back
// is the bare one: a type assertion takes it for a float64. Passed as an
// interface value the interpreter made (any(t)), a value of a type with
// methods is the interpreter's wrapper, which compiled code cannot read but
// which comes back as the cell's value.
//
// compiledAnyCall gives the containers of the standard library (storeCalls)
// the interpreter's interface value, so that what they hand back keeps its
// type, and warns at a call of other compiled code that would see a cell's
// value differently from Go (fmt, log, errors, encoding/json, encoding/xml
// and the template packages have rewrites of their own; see call).

// storeCalls are the compiled functions and methods that keep a value
// given as an any and hand it back unchanged, with the indexes of those
// arguments; they never compare the value, so the interpreter's interface
// value (which compares by identity) is safe there. Keys and the old
// values of CompareAndSwap are compared, so they are not listed.
var storeCalls = map[string][]int{
	"container/list.List.PushBack":     {0},
	"container/list.List.PushFront":    {0},
	"container/list.List.InsertBefore": {0},
	"container/list.List.InsertAfter":  {0},
	"container/heap.Push":              {1},
	"sync.Map.Store":                   {1},
	"sync.Map.LoadOrStore":             {1},
	"sync.Map.Swap":                    {1},
	"sync.Pool.Put":                    {0},
	"sync/atomic.Value.Store":          {0},
	"sync/atomic.Value.Swap":           {0},
	"context.WithValue":                {2},
}

// storeGetters are the compiled functions and methods that hand back
// what a store call (storeCalls) kept, as their first result.
var storeGetters = map[string]bool{
	"container/heap.Pop":     true,
	"container/heap.Remove":  true,
	"sync.Pool.Get":          true,
	"sync/atomic.Value.Load": true,
	"sync/atomic.Value.Swap": true,
	"context.Context.Value":  true,
}

// storeGetter reports whether call calls one of storeGetters, whose
// result may be the interpreter's interface value of a cell's type (see
// keepResult).
func (g *gen) storeGetter(call *ast.CallExpr) bool {
	fn := g.calledFunc(call)
	return fn != nil && fn.Pkg() != nil && storeGetters[funcKey(fn)]
}

// anyExempt are the compiled functions and methods, and whole packages,
// whose any arguments are read as Go reads a cell's value (sort.Slice
// swaps elements, reflect.DeepEqual compares the interpreter's values of
// both sides alike, a context key is only compared), or are not values
// (runtime.SetFinalizer).
var anyExempt = map[string]bool{
	"sort.Slice":            true,
	"sort.SliceStable":      true,
	"sort.SliceIsSorted":    true,
	"reflect.DeepEqual":     true,
	"runtime.KeepAlive":     true,
	"runtime.SetFinalizer":  true,
	"context.Context.Value": true, // see contextValue
	"context.WithValue":     true, // the key (see contextKey); its value is a store (storeCalls)
	"encoding/binary":       true, // fields in order, no methods, no names
	"fmt":                   true, // see fmtArgs
	"log":                   true,
	"errors":                true,
	"encoding/json":         true, // see reflectCall
	"encoding/xml":          true,
	"text/template":         true,
	"html/template":         true,
	"unsafe":                true,
}

// ownPrefix is the path prefix of the kernel's own packages (tensor, nn,
// display, ...), whose functions read a cell's values as fmt does.
const ownPrefix = "github.com/gotensor/gotensor/"

// funcKey returns the name by which storeCalls and anyExempt list fn, of a
// compiled package: "sync.Map.Store", "container/heap.Push".
func funcKey(fn *types.Func) string {
	path := fn.Pkg().Path()
	r := fn.Type().(*types.Signature).Recv()
	if r == nil {
		return path + "." + fn.Name()
	}
	t := r.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return path + "." + n.Obj().Name() + "." + fn.Name()
	}
	return path + "." + fn.Name()
}

// compiledName returns how a message names fn: "container/list's
// (*List).PushBack", "log/slog.Info".
func compiledName(fn *types.Func) string {
	path := fn.Pkg().Path()
	r := fn.Type().(*types.Signature).Recv()
	if r == nil {
		return path + "." + fn.Name()
	}
	recv := types.TypeString(r.Type(), func(*types.Package) string { return "" })
	if strings.HasPrefix(recv, "*") {
		recv = "(" + recv + ")"
	}
	return path + "'s " + recv + "." + fn.Name()
}

// compiledAnyCall rewrites, or warns about, the arguments of a call of
// compiled code (fn) that it takes as an empty interface and whose type a
// cell declared (see the comment above).
func (g *gen) compiledAnyCall(call *ast.CallExpr, fn *types.Func) {
	path := fn.Pkg().Path()
	if path == cellPath || instantiated(fn) || strings.HasPrefix(path, ownPrefix) {
		return
	}
	key := funcKey(fn)
	if key == "reflect.DeepEqual" {
		g.deepEqual(call)
		return
	}
	stores := storeCalls[key]
	exempt := stores == nil && (anyExempt[key] || anyExempt[path])
	sig := fn.Type().(*types.Signature)
	for i, a := range call.Args {
		p := paramType(sig, i, call.Ellipsis.IsValid())
		if p == nil {
			continue
		}
		tv := g.c.info.Types[a]
		if tv.Type == nil || tv.IsNil() || tv.IsType() {
			continue
		}
		if i == contextKeyArg(key) {
			g.contextKey(a)
			continue
		}
		if stores == nil && g.compiledIfaceArg(a, tv.Type, p, fn) || exempt {
			// An exempt function reads a value of a cell's type as Go
			// does when its static type is the cell's, not inside an
			// interface (reflect.DeepEqual compares the wrapper).
			continue
		}
		if iface, ok := p.Underlying().(*types.Interface); !ok || !iface.Empty() || types.IsInterface(tv.Type) {
			continue
		}
		if stores != nil {
			if !containsInt(stores, i) {
				continue
			}
			if g.boxed(a) {
				// The interpreter's interface value comes back as the
				// cell's value.
				continue
			}
			if t, under := bareHeld(tv.Type); t != "" && g.firstAnyWarning(compiledName(fn), tv.Type) {
				g.warnf(a.Pos(), "%s keeps a %s, a type declared in a cell, as the interpreter's %s: what it hands back cannot be told from a %s (a type assertion takes either); keep such values in a slice, a map or a struct of the cell's",
					compiledName(fn), t, under, under)
			}
			continue
		}
		if why := compiledAnyProblem(tv.Type, path); why != "" && g.firstAnyWarning(compiledName(fn), tv.Type) {
			g.warnf(a.Pos(), "%s, compiled code, gets a %s: %s", compiledName(fn), types.TypeString(tv.Type, cellQualifier), why)
		}
	}
}

// contextKeyArg returns the index of the argument of the compiled
// function key (see funcKey) that is a context's key, or -1 (see
// contextValue for the method Value).
func contextKeyArg(key string) int {
	if key == "context.WithValue" {
		return 1
	}
	return -1
}

// contextValue reports whether call calls the method Value of a
// context.Context (whose *types.Func has no package: compiledAnyCall
// does not see it).
func (g *gen) contextValue(call *ast.CallExpr) bool {
	f, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || f.Sel.Name != "Value" || len(call.Args) != 1 {
		return false
	}
	sel, ok := g.c.info.Selections[f]
	if !ok || sel.Kind() != types.MethodVal {
		return false
	}
	n, ok := types.Unalias(sel.Recv()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// contextKey passes a, a context's key of a cell's type or of an
// interface type, through _gt.ContextKey, which makes it a key that only
// a key of the same type and value equals: the interpreter's value of a
// cell's type ctxKey string is a string to compiled code.
func (g *gen) contextKey(a ast.Expr) {
	t := g.c.info.Types[a].Type
	typ := ""
	switch {
	case t == nil || g.c.info.Types[a].IsNil():
		return
	case types.IsInterface(t):
	case isCellType(t) && !isInstance(t):
		if _, isPtr := t.(*types.Pointer); isPtr {
			return // compared by address, as Go does
		}
		typ = g.goTypeName(t)
	default:
		return
	}
	g.ed.insert(g.off(a.Pos()), rtName+".ContextKey(")
	g.ed.insertClosing(g.off(a.End()), ", "+strconv.Quote(typ)+", "+typeName+")")
}

// deepEqual rewrites a call of reflect.DeepEqual into _gt.DeepEqual,
// which compares the interpreter's wrappers of a cell's values in
// interfaces by what they hold, and gives it an argument of a cell's
// type that the interpreter would hand over bare (a Celsius, as a
// float64) in its wrapper, as a value of it inside an interface is.
func (g *gen) deepEqual(call *ast.CallExpr) {
	if len(call.Args) != 2 || call.Ellipsis.IsValid() {
		return
	}
	g.ed.replace(g.off(call.Fun.Pos()), g.off(call.Fun.End()), rtName+".DeepEqual")
	for _, a := range call.Args {
		g.boxed(a)
	}
}

// boxed gives a, an argument of compiled code of a cell's type that the
// interpreter hands over bare (see bareWithMethods), as the interpreter's
// interface value of it, and reports whether it did. A function's result
// is handed on bare: the conversion around it keeps the wrapper.
func (g *gen) boxed(a ast.Expr) bool {
	t := g.c.info.Types[a].Type
	if t == nil || !bareWithMethods(t) {
		return false
	}
	ts, ok := g.typeSrc(t)
	if !ok {
		return false
	}
	g.ed.insert(g.off(a.Pos()), "any("+throughVar(ts, "any"))
	g.ed.insertClosing(g.off(a.End()), "))")
	return true
}

// compiledIfaceArg passes a, an argument of interface type t given to
// compiled code (fn) as the empty interface p, or a slice of interfaces
// given with ... as the variadic p, through _gt.Compiled or
// _gt.CompiledSlice, which warn when it holds the interpreter's wrapper of
// a cell's value; it reports whether a is such an argument.
func (g *gen) compiledIfaceArg(a ast.Expr, t, p types.Type, fn *types.Func) bool {
	check := "Compiled"
	if s, ok := p.(*types.Slice); ok {
		if e, ok := t.Underlying().(*types.Slice); !ok || !types.IsInterface(e.Elem()) || !types.Identical(e.Elem(), s.Elem()) {
			return false
		}
		p, check = s.Elem(), "CompiledSlice"
	} else if !types.IsInterface(t) {
		return false
	}
	if iface, ok := p.Underlying().(*types.Interface); !ok || !iface.Empty() {
		return false
	}
	msg := fmt.Sprintf("%s, compiled code, gets a %%s, a type declared in a cell, inside an interface: it is given the interpreter's value, which has neither the type's name nor its methods (a String or MarshalText it would look for), and has unexported fields exported; pass what it needs yourself (the result of a method, or a value of a compiled type)",
		compiledName(fn))
	at := g.c.errorAt(g.c.fset.Position(a.Pos()), msg).Error()
	g.ed.insert(g.off(a.Pos()), rtName+"."+check+"(")
	g.ed.insertClosing(g.off(a.End()), ", "+strconv.Quote(at)+")")
	return true
}

// firstAnyWarning reports whether no warning of compiledAnyCall in this
// cell named fn with t yet, and records that one does.
func (g *gen) firstAnyWarning(fn string, t types.Type) bool {
	key := fn + " " + types.TypeString(t, nil)
	if g.anyWarned[key] {
		return false
	}
	if g.anyWarned == nil {
		g.anyWarned = map[string]bool{}
	}
	g.anyWarned[key] = true
	return true
}

// paramType returns the type of the parameter that argument i of a call
// of sig is passed as (the element of a variadic parameter, unless the
// call passes a slice with ...), or nil.
func paramType(sig *types.Signature, i int, spread bool) types.Type {
	n := sig.Params().Len()
	if n == 0 {
		return nil
	}
	if sig.Variadic() && i >= n-1 {
		last := sig.Params().At(n - 1).Type()
		if spread {
			return last
		}
		return last.(*types.Slice).Elem()
	}
	if i >= n {
		return nil
	}
	return sig.Params().At(i).Type()
}

func containsInt(list []int, i int) bool {
	for _, x := range list {
		if x == i {
			return true
		}
	}
	return false
}

// bareWithMethods reports whether t is a type a cell declared, not a
// struct, with methods on its values: yaegi hands it to compiled code as
// a bare value of its underlying type, but an interface value of it as
// its wrapper.
func bareWithMethods(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || !isCellType(n) || isInstance(n) {
		return false
	}
	switch n.Underlying().(type) {
	case *types.Struct, *types.Interface:
		return false
	}
	return types.NewMethodSet(n).Len() > 0
}

// bareHeld returns the name of the first type a cell declared, not a
// struct, that a value of type t is or holds outside structs (through
// pointers, slices, arrays and maps), and its underlying type's name,
// which compiled code sees instead; "" when none.
func bareHeld(t types.Type) (name, under string) {
	found := elemsHeld(t, true, func(t types.Type) bool {
		n, ok := types.Unalias(t).(*types.Named)
		if !ok || !isCellType(n) || isInstance(n) || structLike(n) {
			return false
		}
		name, under = types.TypeString(n, cellQualifier), types.TypeString(n.Underlying(), cellQualifier)
		return true
	})
	if found && name != types.TypeString(t, cellQualifier) {
		under = strings.Replace(types.TypeString(t, cellQualifier), name, under, 1)
		name = types.TypeString(t, cellQualifier)
	}
	return name, under
}

// compiledAnyProblem returns what compiled code of package path, given a
// value of type t as an any, would see differently from Go, with what to
// write instead, or "": the methods of a cell's types it holds (in its
// fields and elements too) that compiled code of path may look for (see
// lookedFor), the unexported and embedded fields of its structs, and, for
// reflect, any type of a cell's (whose name reflect would give as the
// interpreter's).
func compiledAnyProblem(t types.Type, path string) string {
	var methods []string
	var at, field string
	var named *types.Named
	anyHeld(t, true, func(t types.Type) bool {
		n, ok := types.Unalias(t).(*types.Named)
		if !ok || !isCellType(n) || isInstance(n) {
			return false
		}
		if named == nil {
			named = n
		}
		if methods == nil {
			ms := methodNames(n, path)
			if len(ms) > 0 {
				methods, at = ms, types.TypeString(n, cellQualifier)
			}
		}
		if st, ok := n.Underlying().(*types.Struct); ok && field == "" {
			if why := structProblem(st, false); why != "" {
				field = types.TypeString(n, cellQualifier) + ": " + why
			}
		}
		return false
	})
	fieldNote := ""
	if field != "" {
		fieldNote = "it sees the interpreter's struct of " + field
	}
	switch {
	case methods != nil:
		noun := "method " + methods[0]
		if len(methods) > 1 {
			noun = "methods " + strings.Join(methods, ", ")
		}
		s := fmt.Sprintf("it would not find the %s of %s, a type declared in a cell (compiled code is given the interpreter's value, without them)", noun, at)
		if name, under := bareHeld(t); under != "" {
			s += ", and it sees a " + name + " as a " + under
		}
		if fieldNote != "" {
			s += "; " + fieldNote
		}
		return s + "; pass what it needs yourself (the result of the method, or a value of a compiled type)"
	case field != "":
		return fieldNote + "; convert the value to a struct whose fields are all exported and not embedded (or a map) first"
	case named != nil && isModulePath(path):
		if name, under := bareHeld(t); under != "" {
			return fmt.Sprintf("it sees a %s, a type declared in a cell, as a %s, and a value it hands back cannot be told from a %s; keep such values in a slice, a map or a struct of the cell's", name, under, under)
		}
	case named != nil && path == "reflect":
		return fmt.Sprintf("reflect sees %s, a type declared in a cell, as the interpreter's type, without its name and methods (fmt's %%T gives Go's name)", types.TypeString(named, cellQualifier))
	}
	return ""
}

// lookedFor are the methods by which the standard library's compiled
// code finds what a value given as an any can do (fmt.Stringer, error,
// encoding.TextMarshaler, gob.GobEncoder, slog.LogValuer, driver.Valuer,
// sql.Scanner, ...).
var lookedFor = map[string]bool{
	"String": true, "Error": true, "Format": true, "GoString": true,
	"MarshalText": true, "UnmarshalText": true, "AppendText": true,
	"MarshalBinary": true, "UnmarshalBinary": true, "AppendBinary": true,
	"MarshalJSON": true, "UnmarshalJSON": true, "GobEncode": true, "GobDecode": true,
	"LogValue": true, "Value": true, "Scan": true, "Unwrap": true, "Is": true, "As": true,
}

// isModulePath reports whether path is a package of a module, not of the
// standard library (its first element has a dot: github.com/...).
func isModulePath(path string) bool {
	return strings.Contains(strings.Split(path, "/")[0], ".")
}

// lookedForIn are the methods that packages of the standard library with
// a narrower interest than lookedFor's look for.
var lookedForIn = map[string]map[string]bool{
	"encoding/gob": {"GobEncode": true, "GobDecode": true, "MarshalBinary": true, "UnmarshalBinary": true},
	"database/sql": {"Value": true, "Scan": true},
}

// methodNames returns the sorted names of the methods of n and of *n that
// compiled code of package path may look for: those of lookedForIn or
// lookedFor in the standard library, any in reflect and in a module's
// packages.
func methodNames(n *types.Named, path string) []string {
	var out []string
	ms := types.NewMethodSet(types.NewPointer(n))
	anyMethod := path == "reflect" || isModulePath(path)
	want := lookedFor
	if w, ok := lookedForIn[path]; ok {
		want = w
	}
	for i := range ms.Len() {
		if name := ms.At(i).Obj().Name(); name != nameTag && (anyMethod || want[name]) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
