package plan

import (
	"go/types"
	"strconv"
	"strings"
)

// typeSrc returns Go source that the interpreter resolves to type t in
// the session's files, and false when there is none: an unexported type of
// a compiled package, an instance of a compiled generic type, an old
// version of a type that no name reaches any more. Packages are named by
// the session's imports, or by an import the plan adds (see gen.qualify).
func (g *gen) typeSrc(t types.Type) (string, bool) {
	before := make(map[string]bool, len(g.hidden))
	for p := range g.hidden {
		before[p] = true
	}
	src, ok := typeSource(g, t)
	if !ok {
		for p := range g.hidden {
			if !before[p] {
				delete(g.hidden, p) // not needed after all
			}
		}
	}
	return src, ok
}

// A namer names packages and named types for typeSource.
type namer interface {
	// qualify names a package.
	qualify(pkg *types.Package) (string, bool)
	// typeName names a type declared in a cell.
	typeName(obj *types.TypeName) (string, bool)
	// instance names an instance of a generic type (see mono).
	instance(t *types.Named) (string, bool)
	// unexported names an unexported type of a package.
	unexported(obj *types.TypeName) (string, bool)
}

// typeSource returns Go source for t, with names from n, and whether
// every part of t has a name there.
func typeSource(n namer, t types.Type) (string, bool) {
	w := typeWriter{n: n, ok: true}
	w.typ(t)
	return w.b.String(), w.ok
}

// localType reports whether a type is declared in a function.
func localType(obj *types.TypeName) bool {
	return obj.Parent() != nil && obj.Parent().Parent() != types.Universe
}

type typeWriter struct {
	b  strings.Builder
	n  namer
	ok bool
	// canon writes byte and rune as uint8 and int32 (see
	// Session.instKey).
	canon bool
}

// qualify writes the name of a package.
func (w *typeWriter) qualify(pkg *types.Package) {
	name, ok := w.n.qualify(pkg)
	if !ok {
		w.ok = false
	}
	w.s(name)
}

func (w *typeWriter) s(s string) { w.b.WriteString(s) }

func (w *typeWriter) typ(t types.Type) {
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
			w.qualify(types.Unsafe)
			w.s(".Pointer")
			return
		}
		if w.canon {
			t = types.Typ[t.Kind()]
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
			if !f.Exported() && f.Pkg() != nil && f.Pkg().Path() != cellPath {
				w.ok = false
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
			if !m.Exported() && m.Pkg() != nil && m.Pkg().Path() != cellPath {
				w.ok = false
			}
			if n++; n > 1 {
				w.s("; ")
			}
			w.s(m.Name())
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
	case *types.Tuple:
		w.ok = false
	default:
		w.ok = false
	}
}

// named writes a named type: a predeclared one, one of a compiled package,
// one a cell declared, or one local to a function.
func (w *typeWriter) named(t *types.Named) {
	obj := t.Obj()
	var name string
	ok := true
	switch {
	case obj.Pkg() == nil:
		name = obj.Name() // error, comparable
	case t.TypeArgs().Len() > 0:
		name, ok = w.n.instance(t)
	case obj.Pkg().Path() == cellPath:
		name, ok = w.n.typeName(obj)
	case !obj.Exported() || strings.Contains(obj.Name(), "["):
		name, ok = w.n.unexported(obj)
	default:
		w.qualify(obj.Pkg())
		name = "." + obj.Name()
	}
	if !ok {
		w.ok = false
	}
	w.s(name)
}

// signature writes a function's parameters and results, without names.
func (w *typeWriter) signature(sig *types.Signature) {
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
