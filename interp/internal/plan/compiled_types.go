package plan

import (
	"go/types"
	"strconv"
	"strings"
)

// ModulePath is the module of gotensor's own packages, which compiled
// cells import as the kernel has them compiled.
const ModulePath = "github.com/gotensor/gotensor"

// typeSrc writes t as Go source in the compiled cell's file, and false
// when the file cannot write it: an unexported type of another package, a
// type of a cell that ran interpreted, a struct with another package's
// unexported fields, a type declared in a function.
func (g *cgen) typeSrc(t types.Type) (string, bool) {
	own := make(map[string]string, len(g.own))
	for p, n := range g.own {
		own[p] = n
	}
	cells := make(map[*types.Package]string, len(g.cells))
	for p, n := range g.cells {
		cells[p] = n
	}
	w := &ctypeWriter{g: g, ok: true}
	w.typ(t)
	if !w.ok {
		g.own, g.cells = own, cells // the imports it added are not needed after all
	}
	return w.b.String(), w.ok
}

// ctypeWriter writes types for a compiled cell's file.
type ctypeWriter struct {
	g  *cgen
	b  strings.Builder
	ok bool
}

func (w *ctypeWriter) s(s string) { w.b.WriteString(s) }

func (w *ctypeWriter) typ(t types.Type) {
	switch t := t.(type) {
	case *types.Basic:
		if t.Info()&types.IsUntyped != 0 {
			if t.Kind() == types.UntypedNil {
				w.ok = false
				return
			}
			t = types.Default(t).(*types.Basic)
		}
		if t.Kind() == types.UnsafePointer {
			w.s(w.g.importName("unsafe", "ꞏunsafe") + ".Pointer")
			return
		}
		w.s(t.Name())
	case *types.Alias:
		if t.Obj().Pkg() == nil {
			w.s(t.Obj().Name()) // any
			return
		}
		w.typ(types.Unalias(t))
	case *types.Named:
		w.named(t)
	case *types.Pointer:
		w.s("*")
		w.typ(t.Elem())
	case *types.Slice:
		w.s("[]")
		w.typ(t.Elem())
	case *types.Array:
		w.s("[" + strconv.FormatInt(t.Len(), 10) + "]")
		w.typ(t.Elem())
	case *types.Map:
		w.s("map[")
		w.typ(t.Key())
		w.s("]")
		w.typ(t.Elem())
	case *types.Chan:
		switch t.Dir() {
		case types.SendOnly:
			w.s("chan<- ")
		case types.RecvOnly:
			w.s("<-chan ")
		default:
			w.s("chan ")
			if c, ok := t.Elem().(*types.Chan); ok && c.Dir() == types.RecvOnly {
				w.s("(")
				w.typ(c)
				w.s(")")
				return
			}
		}
		w.typ(t.Elem())
	case *types.Signature:
		w.s("func")
		w.signature(t)
	case *types.Struct:
		w.s("struct{")
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			if i > 0 {
				w.s("; ")
			}
			if !f.Exported() && f.Pkg() != w.g.c.pkg {
				w.ok = false // another package's unexported field: another type here
			}
			if !f.Embedded() {
				w.s(f.Name() + " ")
			}
			w.typ(f.Type())
			if tag := t.Tag(i); tag != "" {
				w.s(" " + strconv.Quote(tag))
			}
		}
		w.s("}")
	case *types.Interface:
		if t.Empty() {
			w.s("interface{}")
			return
		}
		w.s("interface{")
		n := 0
		for i := 0; i < t.NumEmbeddeds(); i++ {
			if n++; n > 1 {
				w.s("; ")
			}
			w.typ(t.EmbeddedType(i))
		}
		for i := 0; i < t.NumExplicitMethods(); i++ {
			m := t.ExplicitMethod(i)
			if !m.Exported() && (m.Pkg() == nil || m.Pkg().Path() != cellPath) {
				w.ok = false
			}
			if n++; n > 1 {
				w.s("; ")
			}
			w.s(methodName(m))
			w.signature(m.Type().(*types.Signature))
		}
		w.s("}")
	case *types.Union:
		for i := 0; i < t.Len(); i++ {
			if i > 0 {
				w.s(" | ")
			}
			if t.Term(i).Tilde() {
				w.s("~")
			}
			w.typ(t.Term(i).Type())
		}
	case *types.TypeParam:
		w.s(t.Obj().Name())
	default:
		w.ok = false
	}
}

// named writes a named type: predeclared, of a package, of this cell, of
// an earlier compiled cell (its alias), with its type arguments.
func (w *ctypeWriter) named(t *types.Named) {
	obj := t.Origin().Obj()
	pkg := obj.Pkg()
	switch {
	case pkg == nil:
		w.s(obj.Name()) // error, comparable
	case pkg == w.g.c.pkg:
		if localType(obj) {
			w.ok = false
		}
		w.s(obj.Name())
	case pkg.Path() == cellPath:
		if _, compiled := compiledPath(pkg); !compiled || localType(obj) {
			w.ok = false
		}
		w.s(w.g.cellName(pkg) + "." + cAlias + obj.Name())
	case !obj.Exported():
		w.ok = false
		w.s(obj.Name())
	default:
		w.s(w.g.importName(pkg.Path(), "ꞏ"+pkg.Name()) + "." + obj.Name())
	}
	if args := t.TypeArgs(); args.Len() > 0 {
		w.s("[")
		for i := 0; i < args.Len(); i++ {
			if i > 0 {
				w.s(", ")
			}
			w.typ(args.At(i))
		}
		w.s("]")
	}
}

// signature writes a function's parameters and results, without names.
func (w *ctypeWriter) signature(sig *types.Signature) {
	w.s("(")
	for i := 0; i < sig.Params().Len(); i++ {
		if i > 0 {
			w.s(", ")
		}
		t := sig.Params().At(i).Type()
		if sig.Variadic() && i == sig.Params().Len()-1 {
			w.s("...")
			t = t.(*types.Slice).Elem()
		}
		w.typ(t)
	}
	w.s(")")
	switch n := sig.Results().Len(); n {
	case 0:
	case 1:
		w.s(" ")
		w.typ(sig.Results().At(0).Type())
	default:
		w.s(" (")
		for i := 0; i < n; i++ {
			if i > 0 {
				w.s(", ")
			}
			w.typ(sig.Results().At(i).Type())
		}
		w.s(")")
	}
}
