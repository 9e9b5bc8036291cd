package plan

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
	"strings"
)

// A view of a cell's value for compiled encoding/xml.
//
// xml.Marshal, xml.MarshalIndent, (*xml.Encoder).Encode and EncodeElement
// of a value whose type a cell declared would see the interpreter's
// struct (see reflectCall): a struct without a name (xml names an element
// by its type's name, and fails), unexported fields, embedded structs as
// fields, no MarshalXML or MarshalText methods. xmlViewCall rewrites the
// argument into a view that compiled xml marshals as Go marshals the
// original, as jsonViewCall does for json: each cell struct becomes an
// anonymous struct of the fields Go writes (see xmlFields) with their
// tags, the element's name made explicit (_gt.XMLNamed names the
// element of a value given to Marshal as Go does); a MarshalXML or
// MarshalText method is handed to xml as a compiled Marshaler that calls
// it as xml writes (_gt.XMLMarshaler, _gt.XMLText), one with a pointer
// receiver where Go's encoder reaches the value through a pointer or a
// slice. Fields of one name, a method on an attribute, character data or
// a comment, and maps keep the refusal.

// xmlMarshalCalls are the calls whose argument xmlViewCall rewrites.
var xmlMarshalCalls = map[string]bool{
	"encoding/xml.Marshal":               true,
	"encoding/xml.MarshalIndent":         true,
	"encoding/xml.Encoder.Encode":        true,
	"encoding/xml.Encoder.EncodeElement": true,
}

// xmlViewCall rewrites arg, the value an xml marshalling call (key)
// writes, into its view, and reports whether it did.
func (g *gen) xmlViewCall(key string, call *ast.CallExpr, arg ast.Expr, t types.Type) bool {
	if !xmlMarshalCalls[key] {
		return false
	}
	pkg, ok := g.calledPkg(call)
	if !ok {
		return false
	}
	v := xmlViewer{jsonViewer: jsonViewer{g: g, funcs: map[viewKey]string{}}, xml: pkg}
	// A start element given to EncodeElement names the element.
	src, ok := v.view("_gtxv", t, key != "encoding/xml.Encoder.EncodeElement", false)
	g.viewAdvice = v.advice
	if !ok || src == "_gtxv" {
		return false
	}
	g.ed.insert(g.off(arg.Pos()), "func() any { "+v.vars.String()+v.defs.String()+"_gtxv := (")
	g.ed.insertClosing(g.off(arg.End()), "); return "+src+" }()")
	return true
}

// An xmlViewer writes the source of xml views; it names things as a
// jsonViewer does.
type xmlViewer struct {
	jsonViewer
	xml string // the cell's name of encoding/xml
}

// holdsCellType reports whether a value of type t holds a type declared
// in a cell.
func holdsCellType(t types.Type) bool {
	found := false
	firstCellType(t, func(*types.Named) bool { found = true; return true })
	return found
}

// view returns the source of an expression that compiled xml marshals as
// Go marshals x (source xs) of type t, and false when it cannot; top is
// whether xml names x's element by its type (x is the value given to
// Marshal, or an element of it), addr whether x is addressable (see
// jsonViewer.view).
func (v *xmlViewer) view(xs string, t types.Type, top, addr bool) (string, bool) {
	if why, _ := reflectProblem(t, "encoding/xml", false); why == "" && !(top && holdsCellType(t)) {
		if holdsInterface(t, 0) {
			// A value of a cell's type in an interface: named by its
			// type where it is not a field's (see XMLNamed).
			needs := func(t types.Type) bool { return holdsCellType(t) && !types.IsInterface(t) }
			if s := v.anyView(xs, needs, func(xs string, t types.Type) (string, bool) { return v.view(xs, t, true, false) }); s != "" {
				return s, true
			}
		}
		return xs, true
	}
	name := goTypeName(t)
	if n, ok := types.Unalias(t).(*types.Named); ok {
		name = n.Obj().Name()
	}
	if _, ok := t.Underlying().(*types.Pointer); !ok {
		pt := types.NewPointer(t)
		switch {
		case addr && hasMethod(pt, "MarshalXML") || hasMethod(t, "MarshalXML"):
			x := v.name()
			return "func() any { " + x + " := " + xs + "; return " + rtName + ".XMLMarshaler(func(_gte *" + v.xml + ".Encoder, _gts " + v.xml + ".StartElement) error { return " +
				x + ".MarshalXML(_gte, _gts) }, " + strconv.Quote(name) + ") }()", true
		case addr && hasMethod(pt, "MarshalText") || hasMethod(t, "MarshalText"):
			x := v.name()
			return "func() any { " + x + " := " + xs + "; return " + rtName + ".XMLText(func() ([]byte, error) { return " +
				x + ".MarshalText() }, " + strconv.Quote(name) + ") }()", true
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		src := u.Name() + "(" + xs + ")"
		if top {
			src = rtName + ".XMLNamed(" + src + ", " + v.xml + ".Name{}, " + v.xml + ".Name{}, " + strconv.Quote(name) + ")"
		}
		return src, true
	case *types.Pointer:
		s, ok := v.view("(*"+xs+")", u.Elem(), top, true)
		if !ok {
			return "", false
		}
		return "func() any { if " + xs + " == nil { return nil }; return " + s + " }()", true
	case *types.Slice, *types.Array:
		var elem types.Type
		if s, ok := u.(*types.Slice); ok {
			elem, addr = s.Elem(), true
		} else {
			elem = u.(*types.Array).Elem()
		}
		if b, ok := elem.Underlying().(*types.Basic); ok && b.Kind() == types.Uint8 {
			return "", false // bytes: xml writes them as text
		}
		r, i, e := v.name(), v.name(), v.name()
		s, ok := v.view(e, elem, top, addr)
		if !ok {
			return "", false
		}
		return "func() any { " + r + " := make([]any, len(" + xs + ")); for " + i + ", " + e + " := range " + xs +
			" { " + r + "[" + i + "] = " + s + " }; return " + r + " }()", true
	case *types.Struct:
		s, xmlName, ok := v.namedView(xs, t, u, addr)
		if !ok {
			return "", false
		}
		if top {
			tag, value := v.xml+".Name{}", v.xml+".Name{}"
			if xmlName != nil {
				ns, n := lookupXMLName(t)
				tag = v.xml + ".Name{Space: " + strconv.Quote(ns) + ", Local: " + strconv.Quote(n) + "}"
				value = xs + "." + xmlName.sel
				if len(xmlName.ptrs) > 0 {
					return "", false
				}
			}
			s = rtName + ".XMLNamed(" + s + ", " + tag + ", " + value + ", " + strconv.Quote(name) + ")"
		}
		return s, true
	}
	return "", false
}

// namedView returns structView's view of xs, for a named struct type t a
// call of a function that views t (a recursive type's calls itself).
func (v *xmlViewer) namedView(xs string, t types.Type, st *types.Struct, addr bool) (string, *xmlField, bool) {
	n, ok := t.(*types.Named)
	if !ok {
		return v.structView(xs, t, st, addr)
	}
	_, xmlName, ok := xmlFields(st)
	if !ok {
		return "", nil, false
	}
	addr = addr && pointerMarshaler(n) // one function where it is all one
	if f, ok := v.funcs[viewKey{n, addr}]; ok {
		return f + "(" + xs + ")", xmlName, true
	}
	ts, ok := v.g.typeSrc(n)
	if !ok {
		return "", nil, false
	}
	f, p := v.name(), v.name()
	v.funcs[viewKey{n, addr}] = f
	body, _, ok := v.structView(p, n, st, addr)
	if !ok {
		return "", nil, false
	}
	fmt.Fprintf(&v.vars, "var %s func(%s) any; ", f, ts)
	fmt.Fprintf(&v.defs, "%s = func(%s %s) any { return %s }; ", f, p, ts, body)
	return f + "(" + xs + ")", xmlName, true
}

// structView returns the view of a struct value xs of type t, and its
// XMLName field.
func (v *xmlViewer) structView(xs string, t types.Type, st *types.Struct, addr bool) (string, *xmlField, bool) {
	if a := localAlias(t); a != nil {
		v.advice = localAdvice(a)
		return "", nil, false
	}
	fields, xmlName, ok := xmlFields(st)
	if !ok {
		return "", nil, false
	}
	var decl, set strings.Builder
	r := v.name()
	if xmlName != nil {
		fmt.Fprintf(&decl, "XMLName %s.Name %s; ", v.xml, strconv.Quote(`xml:`+strconv.Quote(xmlName.tag)))
		if len(xmlName.ptrs) == 0 {
			fmt.Fprintf(&set, "%s.XMLName = %s.%s; ", r, xs, xmlName.sel)
		}
	}
	for i, f := range fields {
		fname := "F" + strconv.Itoa(i)
		sel := xs + "." + f.sel
		ft := f.f.Type()
		tag := strconv.Quote(`xml:` + strconv.Quote(f.tag))
		var cond []string
		for _, p := range f.ptrs {
			cond = append(cond, xs+"."+p.sel+" != nil")
		}
		var src string
		var ok bool
		if f.mode == "" || f.mode == "any" {
			src, ok = v.view(sel, ft, false, addr || len(f.ptrs) > 0)
		} else {
			src, ok = v.textView(sel, ft, f.mode, addr || len(f.ptrs) > 0)
		}
		if !ok {
			return "", nil, false
		}
		view := src != sel
		if f.omit && (view || len(cond) > 0) {
			cond = append(cond, "!("+emptyCond(sel, ft)+")")
		}
		switch {
		case !view && len(cond) == 0:
			ts, ok := v.g.typeSrc(ft)
			if !ok {
				return "", nil, false
			}
			fmt.Fprintf(&decl, "%s %s %s; ", fname, ts, tag)
			fmt.Fprintf(&set, "%s.%s = %s; ", r, fname, sel)
		case !view:
			// A pointer to the field, nil where Go leaves it out.
			ts, ok := v.g.typeSrc(ft)
			if !ok {
				return "", nil, false
			}
			fmt.Fprintf(&decl, "%s *%s %s; ", fname, ts, tag)
			fmt.Fprintf(&set, "if %s { %s.%s = &%s }; ", strings.Join(cond, " && "), r, fname, sel)
		default:
			s := src
			fmt.Fprintf(&decl, "%s any %s; ", fname, tag)
			if len(cond) == 0 {
				fmt.Fprintf(&set, "%s.%s = %s; ", r, fname, s)
			} else {
				fmt.Fprintf(&set, "if %s { %s.%s = %s }; ", strings.Join(cond, " && "), r, fname, s)
			}
		}
	}
	return "func() any { var " + r + " struct { " + decl.String() + "}; " + set.String() + "return " + r + " }()", xmlName, true
}

// textView returns the view of x (source xs) of type t, a field of mode
// attr, chardata, cdata, innerxml or comment: x where compiled xml writes
// it as Go does, its type's MarshalXMLAttr (an attribute) or MarshalText
// method (an attribute or character data) handed to xml as a compiled
// one, and false for another method.
func (v *xmlViewer) textView(xs string, t types.Type, mode string, addr bool) (string, bool) {
	if why, _ := reflectProblem(t, "encoding/xml", false); why == "" {
		return xs, true
	}
	has := func(m string) bool { return hasMethod(t, m) || addr && hasMethod(types.NewPointer(t), m) }
	x := v.name()
	switch {
	case mode == "attr" && has("MarshalXMLAttr"):
		return "func() any { " + x + " := " + xs + "; return " + rtName + ".XMLAttr(func(_gtn " + v.xml + ".Name) (" + v.xml + ".Attr, error) { return " +
			x + ".MarshalXMLAttr(_gtn) }) }()", true
	case mode == "attr" && has("MarshalText"):
		return "func() any { " + x + " := " + xs + "; return " + rtName + ".XMLAttr(func(_gtn " + v.xml + ".Name) (" + v.xml + ".Attr, error) { _gtb, _gte := " +
			x + ".MarshalText(); return " + v.xml + ".Attr{Name: _gtn, Value: string(_gtb)}, _gte }) }()", true
	case (mode == "chardata" || mode == "cdata") && has("MarshalText"):
		return "func() any { " + x + " := " + xs + "; return " + rtName + ".TextValue(func() ([]byte, error) { return " + x + ".MarshalText() }) }()", true
	}
	return "", false // a method xml would not call, or a type that holds one
}
