package plan

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Compiled code that looks at a cell's types by reflection.
//
// yaegi gives compiled code a struct type of its own for a struct type
// declared in a cell: an unexported field is an exported one named with
// an X first (secret is Xsecret), an embedded field is a field like
// another, and the type has none of its methods. encoding/json and
// encoding/xml would write, or fill, what Go would not, and call no
// MarshalJSON, UnmarshalJSON, MarshalXML or MarshalText method; a
// template cannot call a method; xml cannot name an element by the
// struct's type. json's and xml's calls get a view of the value that
// compiled code writes, or fills, as Go would (see jsonViewCall,
// jsonFillCall, xmlViewCall, xmlFillCall), and a template's Execute one
// that it reads as Go would (see templateCall). Where a call would still
// differ from Go, the cell is refused with a message at the call that
// says why and what to write instead.

// reflectCalls are the functions and methods of encoding/json and
// encoding/xml that look at a value by reflection, with the index of the
// value's argument and whether they fill it.
var reflectCalls = map[string]struct {
	arg  int
	fill bool
}{
	"encoding/json.Marshal":              {0, false},
	"encoding/json.MarshalIndent":        {0, false},
	"encoding/json.Unmarshal":            {1, true},
	"encoding/json.Encoder.Encode":       {0, false},
	"encoding/json.Decoder.Decode":       {0, true},
	"encoding/xml.Marshal":               {0, false},
	"encoding/xml.MarshalIndent":         {0, false},
	"encoding/xml.Unmarshal":             {1, true},
	"encoding/xml.Encoder.Encode":        {0, false},
	"encoding/xml.Decoder.Decode":        {0, true},
	"encoding/xml.Encoder.EncodeElement": {0, false},
	"encoding/xml.Decoder.DecodeElement": {0, true},
}

// codecMethods are the methods by which a type marshals or unmarshals
// itself, per package.
var codecMethods = map[string][]string{
	"encoding/json": {"MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText"},
	"encoding/xml":  {"MarshalXML", "UnmarshalXML", "MarshalXMLAttr", "UnmarshalXMLAttr", "MarshalText", "UnmarshalText"},
}

// reflectCall checks a call of compiled code that looks at its argument
// by reflection (fn, of package path) and refuses, or warns about, one
// whose argument's type a cell declared in a way the compiled code would
// see wrongly.
func (g *gen) reflectCall(call *ast.CallExpr, fn *types.Func, path string) {
	key := path + "." + fn.Name()
	if r := fn.Type().(*types.Signature).Recv(); r != nil {
		t := r.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := t.(*types.Named)
		if !ok {
			return
		}
		key = path + "." + n.Obj().Name() + "." + fn.Name()
	}
	if path == "text/template" || path == "html/template" {
		if fn.Name() == "Execute" || fn.Name() == "ExecuteTemplate" {
			g.templateCall(call, fn)
		}
		return
	}
	rc, ok := reflectCalls[key]
	if !ok || rc.arg >= len(call.Args) {
		return
	}
	arg := call.Args[rc.arg]
	t := g.c.info.Types[arg].Type
	if t == nil {
		return
	}
	why, at := reflectProblem(t, path, rc.fill)
	if why == "" && path == "encoding/xml" && !rc.fill && holdsCellType(t) {
		// xml names an element by its value's type, which it does not
		// see.
		why, at = "xml names an element by its type, and the interpreter's struct has no name", types.TypeString(t, cellQualifier)
	}
	g.viewAdvice = ""
	if !rc.fill && (g.jsonViewCall(key, call, arg, t) || g.xmlViewCall(key, call, arg, t)) {
		// A view is made where the value's type, or the type of a value
		// in an interface in it, needs one.
		return
	}
	if why == "" {
		if rc.fill && path == "encoding/json" && holdsCellStruct(t) {
			g.jsonFillCall(key, call, t) // for Go's errors
		}
		if rc.fill && types.IsInterface(t) {
			// A pointer to a cell's value in it.
			if path == "encoding/json" {
				g.jsonFillCall(key, call, t)
			} else {
				g.xmlFillCall(key, call, t)
			}
		}
		return
	}
	pkg := path[strings.LastIndex(path, "/")+1:]
	advice := reflectAdvice(pkg, rc.fill)
	if rc.fill {
		ok, a := g.xmlFillCall(key, call, t), ""
		if path == "encoding/json" {
			ok, a = g.jsonFillCall(key, call, t)
		}
		if ok {
			return
		}
		if a != "" {
			advice = a
		}
	}
	if g.viewAdvice != "" {
		advice = g.viewAdvice
	}
	name := pkg + "." + fn.Name()
	if r := fn.Type().(*types.Signature).Recv(); r != nil {
		name = fmt.Sprintf("(*%s.%s).%s", pkg, strings.TrimPrefix(types.TypeString(r.Type(), nil), "*"+path+"."), fn.Name())
	}
	g.errorf(call.Pos(), "%s of %s cannot be done as Go does it: %s is a type declared in a cell, and %s (compiled code sees the interpreter's struct, without the type's methods); %s",
		name, types.TypeString(t, cellQualifier), at, why, advice)
}

// calledPkg returns the name generated code uses for the package of the
// function a call calls, and false when there is none.
func (g *gen) calledPkg(call *ast.CallExpr) (string, bool) {
	fn := g.calledFunc(call)
	if fn == nil || fn.Pkg() == nil {
		return "", false
	}
	return g.qualify(fn.Pkg())
}

// reflectAdvice says what to write instead of a call that reflectCall
// refuses.
func reflectAdvice(pkg string, fill bool) string {
	if fill {
		return "decode into a struct without unexported or embedded fields (or a map) and copy what you need, or call the type's own method"
	}
	return "convert the value to a struct whose fields are all exported and not embedded (or a map) first, or call the type's own method"
}

// cellQualifier writes a cell's types without a package.
func cellQualifier(p *types.Package) string {
	if p.Path() == cellPath {
		return ""
	}
	return p.Name()
}

// reflectProblem returns what compiled reflection by package path would
// do wrong with a value of type t, and the cell's type at fault; "" when
// nothing.
func reflectProblem(t types.Type, path string, fill bool) (why, at string) {
	firstCellType(t, func(n *types.Named) bool {
		why = codecProblem(n, path, fill)
		at = types.TypeString(n, cellQualifier)
		return why != ""
	})
	if why == "" {
		cellStructs(t, func(st *types.Struct) bool {
			why = structProblem(st, fill)
			at = types.TypeString(st, cellQualifier)
			return why != ""
		})
	}
	return why, at
}

// cellStructs calls f on the struct types without a name that a cell
// wrote, which a value of type t holds, until f reports true.
func cellStructs(t types.Type, f func(*types.Struct) bool) {
	valueTypes(t, func(t types.Type) bool {
		u, ok := t.(*types.Struct)
		if !ok || u.NumFields() == 0 {
			return false
		}
		pkg := u.Field(0).Pkg()
		return interpretedCell(pkg) && f(u)
	})
}

// codecProblem returns what encoding/json or encoding/xml (path) would
// do wrong with a value of n, a type declared in a cell, itself (not its
// fields' types), or "".
func codecProblem(n *types.Named, path string, fill bool) string {
	for _, m := range codecMethods[path] {
		if strings.HasPrefix(m, "Unmarshal") != fill {
			continue
		}
		for _, rt := range []types.Type{n, types.NewPointer(n)} {
			if obj, _, _ := types.LookupFieldOrMethod(rt, false, n.Obj().Pkg(), m); obj != nil {
				if _, isFunc := obj.(*types.Func); isFunc {
					return fmt.Sprintf("its %s method would not be called", m)
				}
			}
		}
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return ""
	}
	return structProblem(st, fill)
}

// structProblem returns what compiled reflection would do wrong with a
// struct a cell declared (its fields, not their types), or "".
func structProblem(st *types.Struct, fill bool) string {
	for i := range st.NumFields() {
		f := st.Field(i)
		switch {
		case f.Embedded() && st.NumFields() > 1:
			// yaegi marks an embedded field as such only when it is the
			// struct's one field.
			return fmt.Sprintf("its embedded field %s would not be flattened", f.Name())
		case !f.Exported() && f.Name() != "_" && fill:
			return fmt.Sprintf("its unexported field %s would be filled", f.Name())
		case !f.Exported() && f.Name() != "_":
			return fmt.Sprintf("its unexported field %s would be written as X%s", f.Name(), f.Name())
		}
	}
	return ""
}

// firstCellType calls f on the types declared in cells that a value of
// type t holds (t itself, and through pointers, slices, arrays, maps and
// struct fields) until f reports true.
func firstCellType(t types.Type, f func(*types.Named) bool) {
	anyHeld(t, true, func(t types.Type) bool {
		n, ok := types.Unalias(t).(*types.Named)
		return ok && interpretedCell(n.Obj().Pkg()) && f(n)
	})
}

// valueTypes calls f on the types that a value of type t holds (t
// itself, and through pointers, slices, arrays, maps, their keys included,
// and struct fields) until f reports true.
func valueTypes(t types.Type, f func(types.Type) bool) { anyHeld(t, true, f) }

// warnf adds a warning at a position of the cell.
func (g *gen) warnf(pos token.Pos, format string, args ...any) {
	p := g.c.fset.Position(pos)
	e := g.c.errorAt(p, fmt.Sprintf(format, args...))
	g.p.Warnings = append(g.p.Warnings, e.Error())
}
