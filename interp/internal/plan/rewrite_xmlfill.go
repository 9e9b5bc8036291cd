package plan

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
	"strings"
)

// A fill of a cell's value by compiled encoding/xml.
//
// xml.Unmarshal(data, p), dec.Decode(p) and dec.DecodeElement(p, start),
// where *p holds a struct type that a cell declared with unexported or
// embedded fields, would fill yaegi's struct (see reflectCall).
// xmlFillCall rewrites the call into one of a function that copies *p
// into a view (for each such struct an anonymous struct of the fields Go
// fills, see xmlFields, under their tags with the elements' names made
// explicit; slices, arrays and pointers of views), lets compiled xml fill
// the view as Go fills *p (it sets what the document holds and leaves
// the rest), and copies the view back into *p, leaving the fields Go does
// not fill alone. A field (or the value) of a type with an UnmarshalXML,
// UnmarshalXMLAttr or UnmarshalText method is a compiled
// _gt.XMLUnmarshaler, XMLAttrUnmarshaler or TextUnmarshaler in the view,
// whose method calls the cell's method of the field itself. The call's
// arguments are evaluated where they are. Such a type in a slice or
// behind a pointer (xml makes new values of it), an unexported embedded
// pointer and fields of one name at one depth keep the refusal. A
// recursive type's view holds, where the type is in itself, a
// _gt.XMLUnmarshaler that decodes the element into a new view.

// xmlFillCalls are the calls that xmlFillCall rewrites, with the number
// of their arguments.
var xmlFillCalls = map[string]int{
	"encoding/xml.Unmarshal":             2,
	"encoding/xml.Decoder.Decode":        1,
	"encoding/xml.Decoder.DecodeElement": 2,
}

// xmlFillCall rewrites a call (key) that fills p of type t, and reports
// whether it did.
func (g *gen) xmlFillCall(key string, call *ast.CallExpr, t types.Type) bool {
	nargs, ok := xmlFillCalls[key]
	if !ok || len(call.Args) != nargs || call.Ellipsis.IsValid() {
		return false
	}
	pkg, ok := g.calledPkg(call)
	if !ok {
		return false
	}
	ps, ok := g.typeSrc(t)
	if !ok {
		return false
	}
	f := xmlFiller{g: g, xml: pkg, conv: map[fillKey][2]string{}, busy: map[types.Type]bool{}}
	var body func(decode string) string
	if p, isPtr := t.(*types.Pointer); isPtr {
		to, from, _, ok := f.convs(p.Elem(), "")
		if !ok {
			return false
		}
		body = func(decode string) string {
			return f.vars.String() + f.defs.String() + "if _gtxp == nil { return " + fmt.Sprintf(decode, "_gtxp") + " }; _gtxv := " + to + "(_gtxp); " +
				"_gte := " + fmt.Sprintf(decode, "&_gtxv") + "; " + from + "(_gtxv, _gtxp); return _gte }("
		}
	} else if types.IsInterface(t) {
		// An interface holds a pointer whose type the planner does not
		// know: one to a session's type (or a slice of it) that needs a
		// view is filled through one.
		var cases []string // the type's source, to and from
		for _, tn := range g.cellTypeNames() {
			for _, et := range []types.Type{tn.Type(), types.NewSlice(tn.Type())} {
				pt := types.NewPointer(et)
				if why, _ := reflectProblem(pt, "encoding/xml", true); why == "" || !types.AssignableTo(pt, t) {
					continue
				}
				pts, ok := g.typeSrc(pt)
				if !ok {
					continue
				}
				if to, from, _, ok := f.convs(et, ""); ok {
					cases = append(cases, pts, to, from)
				}
			}
		}
		if len(cases) == 0 {
			return false
		}
		body = func(decode string) string {
			var b strings.Builder
			b.WriteString(f.vars.String() + f.defs.String() + "_gtt := " + rtName + ".CellType(_gtxp); ")
			for i := 0; i < len(cases); i += 3 {
				fmt.Fprintf(&b, "if %s { if _gtx, _gtok := _gtxp.(%s); _gtok && _gtx != nil { _gtxv := %s(_gtx); _gte := %s; %s(_gtxv, _gtx); return _gte } }; ",
					cellType{cases[i], true}.cond(), cases[i], cases[i+1], fmt.Sprintf(decode, "&_gtxv"), cases[i+2])
			}
			return b.String() + "return " + fmt.Sprintf(decode, "_gtxp") + " }("
		}
	} else {
		return false
	}
	if key == "encoding/xml.Unmarshal" {
		g.ed.replace(g.off(call.Pos()), g.off(call.Args[0].Pos()), "func(_gtxd []byte, _gtxp "+ps+") error { "+body(pkg+".Unmarshal(_gtxd, %s)"))
		return true
	}
	// dec.Decode(p) becomes func(dec, p) error { ... }(dec, p), and
	// DecodeElement likewise.
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	dt, ok := g.typeSrc(g.c.info.Types[sel.X].Type)
	if !ok {
		return false
	}
	if key == "encoding/xml.Decoder.Decode" {
		g.ed.insert(g.off(call.Pos()), "func(_gtxdec "+dt+", _gtxp "+ps+") error { "+body("_gtxdec.Decode(%s)"))
	} else {
		g.ed.insert(g.off(call.Pos()), "func(_gtxdec "+dt+", _gtxp "+ps+", _gtxs *"+pkg+".StartElement) error { "+body("_gtxdec.DecodeElement(%s, _gtxs)"))
	}
	g.ed.replace(g.off(sel.X.End()), g.off(call.Args[0].Pos()), ", ")
	return true
}

// An xmlFiller writes the views of xmlFillCall: per type T, its view type
// V and two functions, to of type func(T) V and from of type func(V, *T),
// declared in vars and defined in defs.
type xmlFiller struct {
	g    *gen
	xml  string
	n    int
	conv map[fillKey][2]string
	// fresh counts the slices and pointers the view being written is
	// in, whose values xml may make.
	fresh int
	// busy holds the types whose views are being written: a recursive
	// type has none.
	busy       map[types.Type]bool
	vars, defs strings.Builder
}

// A fillKey is a type filled as a field of a mode (see xmlField).
type fillKey struct {
	t    types.Type
	mode string
}

// unmarshaler returns the compiled type that stands for a value of type t
// in a field of mode in a view, which calls t's method, and the method;
// "" where t has none that xml calls there.
func unmarshaler(t types.Type, mode string) (wrapper, method string) {
	pt := types.NewPointer(t)
	switch {
	case mode == "attr" && hasMethod(pt, "UnmarshalXMLAttr"):
		return "XMLAttrUnmarshaler", "UnmarshalXMLAttr"
	case mode == "" && hasMethod(pt, "UnmarshalXML"):
		return "XMLUnmarshaler", "UnmarshalXML"
	case (mode == "" || mode == "attr" || mode == "chardata" || mode == "cdata") && hasMethod(pt, "UnmarshalText"):
		return "TextUnmarshaler", "UnmarshalText"
	}
	return "", ""
}

// collector returns what unmarshaler does for t, or for the elements of
// t, a slice or pointer (xml makes a new element, or the value pointed
// to, for each value it decodes: the compiled type's method appends one,
// or allocates it), with the element type; "" where there is none.
func collector(t types.Type, mode string) (wrapper, method string, elem types.Type) {
	if _, named := t.(*types.Named); named {
		if w, m := unmarshaler(t, mode); w != "" {
			return w, m, nil
		}
	}
	var e types.Type
	switch u := t.Underlying().(type) {
	case *types.Slice:
		e = u.Elem()
	case *types.Pointer:
		e = u.Elem()
	default:
		return "", "", nil
	}
	if _, named := e.(*types.Named); !named {
		return "", "", nil
	}
	if _, isByte := e.Underlying().(*types.Basic); isByte && types.Identical(e.Underlying(), types.Typ[types.Byte]) {
		return "", "", nil
	}
	w, m := unmarshaler(e, mode)
	return w, m, e
}

// viewType returns the source of the view type of t in a field of mode,
// and false when there is none.
func (f *xmlFiller) viewType(t types.Type, mode string) (string, bool) {
	if why, _ := reflectProblem(t, "encoding/xml", true); why == "" {
		return f.g.typeSrc(t)
	}
	if r, _ := f.recursive(t); r != nil {
		// A recursive type's own view: decoded by the view's
		// functions, called from a compiled Unmarshaler.
		if mode != "" {
			return "", false
		}
		return rtName + ".XMLUnmarshaler", true
	}
	f.busy[t] = true
	defer delete(f.busy, t)
	if w, _, _ := collector(t, mode); w != "" && f.fresh == 0 {
		return rtName + "." + w, true
	}
	if _, ok := t.(*types.Named); ok {
		for _, m := range []string{"UnmarshalXML", "UnmarshalText", "UnmarshalXMLAttr"} {
			if hasMethod(types.NewPointer(t), m) {
				return "", false // not called there, or on a value xml makes
			}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		f.fresh++
		defer func() { f.fresh-- }()
		s, ok := f.viewType(u.Elem(), "")
		return "*" + s, ok
	case *types.Slice:
		f.fresh++
		defer func() { f.fresh-- }()
		s, ok := f.viewType(u.Elem(), "")
		return "[]" + s, ok
	case *types.Array:
		s, ok := f.viewType(u.Elem(), "")
		return "[" + strconv.FormatInt(u.Len(), 10) + "]" + s, ok
	case *types.Struct:
		if a := localAlias(t); a != nil {
			f.g.viewAdvice = localAdvice(a)
			return "", false
		}
		fields, xmlName, ok := xmlFields(u)
		if !ok {
			return "", false
		}
		var b strings.Builder
		b.WriteString("struct { ")
		if xmlName != nil {
			if len(xmlName.ptrs) > 0 {
				return "", false
			}
			fmt.Fprintf(&b, "XMLName %s.Name %s; ", f.xml, strconv.Quote(`xml:`+strconv.Quote(xmlName.tag)))
		}
		for i, xf := range fields {
			s, ok := f.viewType(xf.f.Type(), xf.mode)
			if !ok {
				return "", false
			}
			if len(xf.ptrs) > 0 {
				// Behind an embedded pointer: a pointer, which xml
				// allocates where the document has the field, as it
				// does the embedded pointers.
				if xf.mode == "innerxml" || xf.mode == "comment" {
					return "", false
				}
				for _, p := range xf.ptrs {
					if !p.exported {
						return "", false // xml cannot set it
					}
				}
				s = "*" + s
			}
			fmt.Fprintf(&b, "F%d %s %s; ", i, s, strconv.Quote(`xml:`+strconv.Quote(xf.tag)))
		}
		b.WriteString("}")
		return b.String(), true
	}
	return "", false
}

// convs returns the names of the functions that copy a value of type t,
// in a field of mode, into its view (given a pointer to it) and back, the
// view type's source, and false when t has no view.
func (f *xmlFiller) convs(t types.Type, mode string) (to, from, vs string, ok bool) {
	if r, how := f.recursive(t); r != nil {
		return f.recursiveConvs(t, r, how)
	}
	if w, _, _ := collector(t, mode); w == "" {
		mode = "" // one view for every mode
	}
	for k, c := range f.conv {
		if k.mode == mode && types.Identical(k.t, t) {
			vs, _ := f.viewType(t, mode)
			return c[0], c[1], vs, true
		}
	}
	vs, ok = f.viewType(t, mode)
	if !ok {
		return "", "", "", false
	}
	ts, ok := f.g.typeSrc(t)
	if !ok {
		return "", "", "", false
	}
	f.n++
	to, from = "_gtxt"+strconv.Itoa(f.n), "_gtxf"+strconv.Itoa(f.n)
	f.conv[fillKey{t, mode}] = [2]string{to, from}
	var toBody, fromBody string
	if why, _ := reflectProblem(t, "encoding/xml", true); why == "" {
		toBody, fromBody = "return *_gtx", "*_gtp = _gtv"
	} else if w, m, elem := collector(t, mode); w != "" {
		// The method fills the value itself (a new element of a
		// slice, what a pointer points to).
		params, args := "_gtd *"+f.xml+".Decoder, _gts "+f.xml+".StartElement", "_gtd, _gts"
		switch m {
		case "UnmarshalXMLAttr":
			params, args = "_gta "+f.xml+".Attr", "_gta"
		case "UnmarshalText":
			params, args = "_gtb []byte", "_gtb"
		}
		call := "return _gtx." + m + "(" + args + ")"
		if elem != nil {
			es, ok := f.g.typeSrc(elem)
			if !ok {
				return "", "", "", false
			}
			if _, isSlice := t.Underlying().(*types.Slice); isSlice {
				call = "var _gte " + es + "; _gterr := _gte." + m + "(" + args + "); if _gterr == nil { *_gtx = append(*_gtx, _gte) }; return _gterr"
			} else {
				call = "if *_gtx == nil { *_gtx = new(" + es + ") }; return (*_gtx)." + m + "(" + args + ")"
			}
		}
		toBody = "return " + vs + "{F: func(" + params + ") error { " + call + " }}"
	} else {
		f.busy[t] = true
		toBody, fromBody, ok = f.bodies(t, ts, vs)
		delete(f.busy, t)
		if !ok {
			return "", "", "", false
		}
	}
	fmt.Fprintf(&f.vars, "var %s func(*%s) %s; var %s func(%s, *%s); ", to, ts, vs, from, vs, ts)
	fmt.Fprintf(&f.defs, "%s = func(_gtx *%s) %s { %s }; %s = func(_gtv %s, _gtp *%s) { %s }; ", to, ts, vs, toBody, from, vs, ts, fromBody)
	return to, from, vs, true
}

// bodies returns the bodies of the functions that copy _gtx of type t
// (source ts) into its view (source vs), and _gtv back into *_gtp.
func (f *xmlFiller) bodies(t types.Type, ts, vs string) (to, from string, ok bool) {
	var et types.Type
	if c, isContainer := t.Underlying().(interface{ Elem() types.Type }); isContainer {
		et = c.Elem()
	}
	var eto, efrom string
	if et != nil {
		if _, isArray := t.Underlying().(*types.Array); !isArray {
			f.fresh++
			defer func() { f.fresh-- }()
		}
		if eto, efrom, _, ok = f.convs(et, ""); !ok {
			return "", "", false
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		es, ok := f.g.typeSrc(et)
		if !ok {
			return "", "", false
		}
		return "if *_gtx == nil { return nil }; _gtv := " + eto + "(*_gtx); return &_gtv",
			"if _gtv == nil { *_gtp = nil; return }; if *_gtp == nil { *_gtp = new(" + es + ") }; " + efrom + "(*_gtv, *_gtp)", true
	case *types.Slice:
		return "if *_gtx == nil { return nil }; _gtv := make(" + vs + ", len(*_gtx)); for _gti := range *_gtx { _gtv[_gti] = " + eto + "(&(*_gtx)[_gti]) }; return _gtv",
			"if _gtv == nil { *_gtp = nil; return }; _gts := *_gtp; if len(_gtv) > len(_gts) { _gts = append(_gts, make(" + ts + ", len(_gtv)-len(_gts))...) }; _gts = _gts[:len(_gtv)]; " +
				"for _gti := range _gtv { " + efrom + "(_gtv[_gti], &_gts[_gti]) }; *_gtp = _gts", true
	case *types.Array:
		return "var _gtv " + vs + "; for _gti := range *_gtx { _gtv[_gti] = " + eto + "(&(*_gtx)[_gti]) }; return _gtv",
			"for _gti := range _gtv { " + efrom + "(_gtv[_gti], &(*_gtp)[_gti]) }", true
	case *types.Struct:
		fields, xmlName, _ := xmlFields(u)
		var tb, fb strings.Builder
		tb.WriteString("var _gtv " + vs + "; ")
		if xmlName != nil {
			fmt.Fprintf(&tb, "_gtv.XMLName = _gtx.%s; ", xmlName.sel)
			fmt.Fprintf(&fb, "_gtp.%s = _gtv.XMLName; ", xmlName.sel)
		}
		for i, xf := range fields {
			to, from := "_gtx."+xf.sel, "_gtp.%[1]s = %[2]s; "
			if why, _ := reflectProblem(xf.f.Type(), "encoding/xml", true); why != "" {
				fto, ffrom, _, ok := f.convs(xf.f.Type(), xf.mode)
				if !ok {
					return "", "", false
				}
				to, from = fto+"(&_gtx."+xf.sel+")", ffrom+"(%[2]s, &_gtp.%[1]s); "
			}
			if len(xf.ptrs) == 0 {
				fmt.Fprintf(&tb, "_gtv.F%d = %s; ", i, to)
				fmt.Fprintf(&fb, from, xf.sel, fmt.Sprintf("_gtv.F%d", i))
				continue
			}
			// Behind embedded pointers: a pointer to a copy where they
			// are not nil; the copy back allocates them.
			var cond []string
			var alloc strings.Builder
			for _, p := range xf.ptrs {
				cond = append(cond, "_gtx."+p.sel+" != nil")
				es, ok := f.g.typeSrc(p.elem)
				if !ok {
					return "", "", false
				}
				fmt.Fprintf(&alloc, "if _gtp.%s == nil { _gtp.%s = new(%s) }; ", p.sel, p.sel, es)
			}
			fmt.Fprintf(&tb, "if %s { _gtc := %s; _gtv.F%d = &_gtc }; ", strings.Join(cond, " && "), to, i)
			fmt.Fprintf(&fb, "if _gtv.F%d != nil { %s%s}; ", i, alloc.String(), fmt.Sprintf(from, xf.sel, fmt.Sprintf("*_gtv.F%d", i)))
		}
		tb.WriteString("return _gtv")
		return tb.String(), fb.String(), true
	}
	return "", "", false
}

// recursive returns the type whose view is being written that t is, or
// is a slice of or a pointer to (how: "", "slice" or "ptr"), or nil.
func (f *xmlFiller) recursive(t types.Type) (r types.Type, how string) {
	if f.busy[t] {
		return t, ""
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		if f.busy[u.Elem()] {
			return u.Elem(), "slice"
		}
	case *types.Pointer:
		if f.busy[u.Elem()] {
			return u.Elem(), "ptr"
		}
	}
	return nil, ""
}

// recursiveConvs returns convs' functions for t, a value of r, whose view
// is being written, or a slice of or pointer to one (see recursive): a
// _gt.XMLUnmarshaler whose method decodes the element into r's view and
// copies it into the value (a new element of the slice, what the pointer
// points to, allocated).
func (f *xmlFiller) recursiveConvs(t, r types.Type, how string) (to, from, vs string, ok bool) {
	var rto, rfrom string
	for k, c := range f.conv {
		if k.mode == "" && types.Identical(k.t, r) {
			rto, rfrom = c[0], c[1]
		}
	}
	ts, ok := f.g.typeSrc(t)
	rs, rok := f.g.typeSrc(r)
	if rto == "" || !ok || !rok {
		return "", "", "", false
	}
	decode := func(p string) string {
		return "_gtw := " + rto + "(" + p + "); _gte := _gtd.DecodeElement(&_gtw, &_gts); " + rfrom + "(_gtw, " + p + "); "
	}
	var call string
	switch how {
	case "slice":
		call = "var _gtn " + rs + "; " + decode("&_gtn") + "if _gte == nil { *_gtx = append(*_gtx, _gtn) }; return _gte"
	case "ptr":
		call = "if *_gtx == nil { *_gtx = new(" + rs + ") }; " + decode("*_gtx") + "return _gte"
	default:
		call = decode("_gtx") + "return _gte"
	}
	vs = rtName + ".XMLUnmarshaler"
	f.n++
	to, from = "_gtxt"+strconv.Itoa(f.n), "_gtxf"+strconv.Itoa(f.n)
	fmt.Fprintf(&f.vars, "var %s func(*%s) %s; var %s func(%s, *%s); ", to, ts, vs, from, vs, ts)
	fmt.Fprintf(&f.defs, "%s = func(_gtx *%s) %s { return %s{F: func(_gtd *%s.Decoder, _gts %s.StartElement) error { %s }} }; %s = func(_gtv %s, _gtp *%s) {}; ",
		to, ts, vs, vs, f.xml, f.xml, call, from, vs, ts)
	return to, from, vs, true
}
