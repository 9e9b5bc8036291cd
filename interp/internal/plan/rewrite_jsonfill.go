package plan

import (
	"fmt"
	"go/ast"
	"go/types"
	"strconv"
	"strings"
)

// A fill of a cell's value by compiled encoding/json.
//
// json.Unmarshal(data, p) and dec.Decode(p), where *p holds a type that
// a cell declared with unexported or embedded fields or an UnmarshalJSON
// or UnmarshalText method, would fill yaegi's struct (see reflectCall).
// jsonFillCall rewrites the call into one of a function that decodes the
// value a part at a time, as Go's decoder walks it: compiled json checks
// the whole text and splits it into json.RawMessages, and a fill
// function per type (made by a jsonFiller) decodes one:
//
//   - a struct into a view of pointers to the fields Go fills, under their
//     JSON names and options (see jsonFields), and the fields whose own
//     types need a fill as raw messages that their fill functions decode;
//   - a slice, array or map element by element, as Go's decoder grows
//     the slice, zeroes the rest of the array and sets the map's entries;
//   - a pointer, allocated where it is nil, set to nil by a null;
//   - a type with UnmarshalJSON by the method, one with UnmarshalText by
//     the method given the string.
//
// The decoding (a _gt.JSONDecoding) keeps Go's errors: a type error names
// the struct and the field path as Go does and the decoding goes on, a
// method's error stops it. The call's arguments are evaluated where they
// are (the call is one of a function literal), so go and defer
// statements are rewritten too. What the fill does not cover (a map key
// of a cell type, the ",string" option on a field that needs a fill, an
// embedded pointer to an unexported struct) keeps the refusal.

// jsonFillCall rewrites json.Unmarshal(data, p) or dec.Decode(p) (key),
// of p of type t, and reports whether it did; where it did not, advice
// may say what to write instead.
func (g *gen) jsonFillCall(key string, call *ast.CallExpr, t types.Type) (ok bool, advice string) {
	decode := key == "encoding/json.Decoder.Decode"
	if key != "encoding/json.Unmarshal" && !decode || call.Ellipsis.IsValid() {
		return false, ""
	}
	pkg, ok := g.calledPkg(call)
	if !ok {
		return false, ""
	}
	ps, ok := g.typeSrc(t)
	if !ok {
		return false, ""
	}
	f := jsonFiller{g: g, json: pkg, funcs: map[types.Type]string{}}
	var body string
	if p, isPtr := t.(*types.Pointer); isPtr {
		fill, ok := f.fill(p.Elem())
		if !ok {
			return false, f.advice
		}
		body = "_gtjc := " + rtName + ".NewJSONDecoding(%s); " + f.vars.String() + f.defs.String() +
			"if _gtjp == nil { return %s }; var _gtjraw " + pkg + ".RawMessage; if _gte := %s; _gte != nil { return _gte }; " +
			"return _gtjc.Err(" + fill + "(_gtjraw, _gtjp, \"\", \"\", %s)) }("
	} else if types.IsInterface(t) {
		// An interface holds a pointer whose type the planner does not
		// know: one of the session's types that needs a fill is filled
		// so, another value as compiled json fills it.
		var cases strings.Builder
		var targets []types.Type
		for _, tn := range g.cellTypeNames() {
			// The type, and a slice, a slice of pointers and a map of
			// it.
			et := tn.Type()
			targets = append(targets, et, types.NewSlice(et), types.NewSlice(types.NewPointer(et)), types.NewMap(types.Typ[types.String], et))
		}
		for _, et := range targets {
			pt := types.NewPointer(et)
			if !needsFill(pt) || !types.AssignableTo(pt, t) {
				continue
			}
			pts, ok := g.typeSrc(pt)
			if !ok {
				continue
			}
			fill, ok := f.fill(et)
			if !ok {
				continue
			}
			fmt.Fprintf(&cases, "if %s { if _gtx, _gtok := _gtjp.(%s); _gtok && _gtx != nil { var _gtjraw %s.RawMessage; if _gte := %%[3]s; _gte != nil { return _gte }; return _gtjc.Err(%s(_gtjraw, _gtx, \"\", \"\", %%[4]s)) } }; ",
				cellType{pts, true}.cond(), pts, pkg, fill)
		}
		if cases.Len() == 0 {
			return false, ""
		}
		body = "_gtjc := " + rtName + ".NewJSONDecoding(%[1]s); " + f.vars.String() + f.defs.String() + "_gtt := " + rtName + ".CellType(_gtjp); " +
			cases.String() + "return %[2]s }("
	} else {
		return false, ""
	}
	if decode {
		// dec.Decode(p) becomes func(dec, p) error { ... }(dec, p).
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || len(call.Args) != 1 {
			return false, ""
		}
		dt, ok := g.typeSrc(g.c.info.Types[sel.X].Type)
		if !ok {
			return false, ""
		}
		g.ed.insert(g.off(call.Pos()), "func(_gtjdec "+dt+", _gtjp "+ps+") error { "+
			fmt.Sprintf(body, "_gtjdec", "_gtjdec.Decode(_gtjp)", "_gtjdec.Decode(&_gtjraw)", "0"))
		g.ed.replace(g.off(sel.X.End()), g.off(call.Args[0].Pos()), ", ")
		return true, ""
	}
	if len(call.Args) != 2 {
		return false, ""
	}
	g.ed.replace(g.off(call.Pos()), g.off(call.Args[0].Pos()), "func(_gtjd []byte, _gtjp "+ps+") error { "+
		fmt.Sprintf(body, "nil", pkg+".Unmarshal(_gtjd, _gtjp)", pkg+".Unmarshal(_gtjd, &_gtjraw)", "_gtjc.Lead(_gtjd)"))
	return true, ""
}

// A jsonFiller writes the fill functions of a call: a function of type
// func(data []byte, p *T, st, path string) error per type T decodes data
// into *p, a part of the value in the struct named st at the field path
// path (for errors).
type jsonFiller struct {
	g    *gen
	json string // the cell's name of encoding/json
	n    int
	// funcs name the fill functions, declared in vars and defined in
	// defs (a recursive type's calls itself).
	funcs      map[types.Type]string
	vars, defs strings.Builder
	// advice, when set, says what to write instead of a call the
	// filler cannot make.
	advice string
}

// localAdvice says what to write instead of a decoding through a type
// declared in a function as another struct type (the alias of an
// UnmarshalJSON method), whose fields yaegi cannot select.
func localAdvice(t types.Type) string {
	return fmt.Sprintf("declare %s at the top level of a cell, not in a function (the interpreter cannot select the fields of a local type declared as another struct type)", types.TypeString(t, cellQualifier))
}

// localAlias returns t, when it is a struct type declared in a function as
// another struct type, or the first such type st embeds (through embedded
// structs and pointers), whose fields yaegi cannot select; nil where
// there is none.
func localAlias(t types.Type) types.Type {
	return localAliasIn(t, map[types.Type]bool{})
}

// localAliasIn is localAlias, seen holding the types walked (a struct may
// embed a pointer to itself).
func localAliasIn(t types.Type, seen map[types.Type]bool) types.Type {
	if localStruct(t) {
		return t
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || seen[t] {
		return nil
	}
	seen[t] = true
	for i := range st.NumFields() {
		if f := st.Field(i); f.Embedded() {
			ft := f.Type()
			if p, ok := ft.(*types.Pointer); ok {
				ft = p.Elem()
			}
			if a := localAliasIn(ft, seen); a != nil {
				return a
			}
		}
	}
	return nil
}

// localStruct reports whether t is a struct type declared in a function
// as another struct type (type alias Event): another type in scope has
// its struct.
func localStruct(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || !localType(n.Obj()) {
		return false
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for s := n.Obj().Parent(); s != nil; s = s.Parent() {
		for _, name := range s.Names() {
			if tn, ok := s.Lookup(name).(*types.TypeName); ok && tn != n.Obj() && tn.Type().Underlying() == types.Type(st) {
				return true
			}
		}
	}
	return false
}

// needsFill reports whether compiled json would fill a value of type t
// other than Go does, or name a cell's struct in its errors otherwise
// (yaegi's struct has no name: Go struct field .name).
func needsFill(t types.Type) bool {
	why, _ := reflectProblem(t, "encoding/json", true)
	return why != "" || holdsCellStruct(t)
}

// holdsCellStruct reports whether a value of type t holds a struct type
// declared in a cell.
func holdsCellStruct(t types.Type) bool {
	found := false
	firstCellType(t, func(n *types.Named) bool {
		_, found = n.Underlying().(*types.Struct)
		return found
	})
	return found
}

// fill returns the name of the fill function of t, and false when the
// filler cannot make one.
func (f *jsonFiller) fill(t types.Type) (string, bool) {
	for k, name := range f.funcs {
		if types.Identical(k, t) {
			return name, true
		}
	}
	if a := localAlias(t); a != nil {
		f.advice = localAdvice(a)
		return "", false
	}
	ts, ok := f.g.typeSrc(t)
	if !ok {
		return "", false
	}
	f.n++
	name := "_gtjf" + strconv.Itoa(f.n)
	f.funcs[t] = name
	body, ok := f.body(t, ts)
	if !ok {
		return "", false
	}
	fmt.Fprintf(&f.vars, "var %s func([]byte, *%s, string, string, int64) error; ", name, ts)
	fmt.Fprintf(&f.defs, "%s = func(_gtd []byte, _gtp *%s, _gtst, _gtpath string, _gtoff int64) error { %s }; ", name, ts, body)
	return name, true
}

// body returns the body of the fill function of t (source ts), which
// decodes _gtd into *_gtp.
func (f *jsonFiller) body(t types.Type, ts string) (string, bool) {
	if !needsFill(t) {
		// Compiled json fills it as Go does (the value of a map with
		// keys that need a fill).
		return "return _gtjc.Check(_gtjc.Unmarshal(_gtd, _gtp), _gtst, _gtpath, _gtoff)", true
	}
	pt := types.NewPointer(t)
	mismatch := "_gtjc.Mismatch(_gtd, _gtst, _gtpath, " + strconv.Quote(goTypeName(t)) + ", _gtoff); return nil"
	null := "return nil"
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Interface:
		null = "*_gtp = nil; return nil"
	}
	if hasMethod(pt, "UnmarshalJSON") {
		return "return _gtp.UnmarshalJSON(_gtd)", true
	}
	if hasMethod(pt, "UnmarshalText") {
		return "if _gtd[0] == '\"' { _gts, _gte := _gtjc.Unquote(_gtd); if _gte != nil { return _gte }; return _gtp.UnmarshalText(_gts) }; " +
			"if _gtd[0] == 'n' { " + null + " }; " + mismatch, true
	}
	// raws decodes the JSON of an array or object into _gtr of type rt.
	raws := func(rt string) string {
		return "var _gtr " + rt + "; if _gte := _gtjc.Check(_gtjc.Unmarshal(_gtd, &_gtr), _gtst, _gtpath, _gtoff); _gte != nil { return _gte }; "
	}
	raw := f.json + ".RawMessage"
	// ef fills an element of a pointer, slice, array or map.
	var ef string
	if c, ok := t.Underlying().(interface{ Elem() types.Type }); ok {
		if ef, ok = f.fill(c.Elem()); !ok {
			return "", false
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		es, ok := f.g.typeSrc(u.Elem())
		if !ok {
			return "", false
		}
		return "if _gtd[0] == 'n' { *_gtp = nil; return nil }; if *_gtp == nil { *_gtp = new(" + es + ") }; return " + ef + "(_gtd, *_gtp, _gtst, _gtpath, _gtoff)", true
	case *types.Slice:
		// Go's decoder grows the slice an element at a time, decoding
		// into the elements it had (up to its capacity).
		return "if _gtd[0] == 'n' { *_gtp = nil; return nil }; if _gtd[0] != '[' { " + mismatch + " }; " + raws("[]"+raw) +
			"_gto := _gtjc.Elems(_gtd, _gtoff); _gts := *_gtp; for _gti, _gtm := range _gtr { if _gti < cap(_gts) { _gts = _gts[:_gti+1] } else { _gts = append(_gts, make(" + ts + ", 1)...) }; *_gtp = _gts; " +
			"if _gte := " + ef + "(_gtm, &_gts[_gti], _gtst, _gtpath, _gto[_gti]); _gte != nil { return _gte } }; if len(_gtr) == 0 { *_gtp = make(" + ts + ", 0) }; return nil", true
	case *types.Array:
		return "if _gtd[0] == 'n' { return nil }; if _gtd[0] != '[' { " + mismatch + " }; " + raws("[]"+raw) +
			"_gto := _gtjc.Elems(_gtd, _gtoff); var _gtz " + ts + "; for _gti := 0; _gti < len(*_gtp); _gti++ { if _gti >= len(_gtr) { (*_gtp)[_gti] = _gtz[_gti]; continue }; " +
			"if _gte := " + ef + "(_gtr[_gti], &(*_gtp)[_gti], _gtst, _gtpath, _gto[_gti]); _gte != nil { return _gte } }; return nil", true
	case *types.Map:
		ks, ok := f.g.typeSrc(u.Key())
		if !ok {
			return "", false
		}
		// key makes the map's key of the entry's, _gtk.
		key := ""
		if _, named := u.Key().(*types.Named); named && hasMethod(types.NewPointer(u.Key()), "UnmarshalText") {
			// Go's decoder makes the key with its UnmarshalText, and
			// stops at its error.
			key = "var _gtkk " + ks + "; if _gte := _gtkk.UnmarshalText([]byte(_gtk)); _gte != nil { return _gte }; "
			ks = "string"
		} else if needsFill(u.Key()) {
			f.advice = fmt.Sprintf("decode into a map with string keys and convert each key to %s", types.TypeString(u.Key(), cellQualifier))
			return "", false
		}
		es, ok := f.g.typeSrc(u.Elem())
		if !ok {
			return "", false
		}
		// Go's decoder decodes each entry into a new value. An entry is
		// found in the text by its key, where it is a string.
		at, offs := "_gtoff", ""
		setEntry := "(*_gtp)[_gtk] = _gtv"
		if key != "" {
			setEntry = key + "(*_gtp)[_gtkk] = _gtv"
		}
		if b, ok := u.Key().Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 || key != "" {
			at, offs = "_gto[string(_gtk)]", "_gto := _gtjc.Members(_gtd, _gtoff); "
		}
		return "if _gtd[0] == 'n' { *_gtp = nil; return nil }; if _gtd[0] != '{' { " + mismatch + " }; " + raws("map["+ks+"]"+raw) +
			"if *_gtp == nil { *_gtp = make(" + ts + ") }; " + offs + "for _gtk, _gtm := range _gtr { var _gtv " + es + "; " +
			"if _gte := " + ef + "(_gtm, &_gtv, _gtst, _gtpath, " + at + "); _gte != nil { return _gte }; " + setEntry + " }; return nil", true
	case *types.Struct:
		return f.structBody(t, u, mismatch)
	}
	return "", false
}

// structBody returns the body of the fill function of a struct type t.
func (f *jsonFiller) structBody(t types.Type, st *types.Struct, mismatch string) (string, bool) {
	name := ""
	if n, ok := t.(*types.Named); ok {
		name = n.Obj().Name()
	}
	var decl, set, fix, after, promoted strings.Builder
	for i, jf := range jsonFields(st) {
		fname := "_gtr.F" + strconv.Itoa(i)
		sel := "_gtp." + jf.sel
		ft := jf.f.Type()
		// alloc allocates the embedded pointers the field is promoted
		// through; cond holds when none is nil.
		var alloc strings.Builder
		var cond []string
		for _, p := range jf.ptrs {
			if !p.exported {
				// Go's json cannot set it (but fills what it points to).
				fmt.Fprintf(&alloc, "if _gtp.%s == nil { _gtjc.Unsettable(%s, _gtoff) }; ", p.sel, strconv.Quote(goTypeName(p.elem)))
			} else {
				es, ok := f.g.typeSrc(p.elem)
				if !ok {
					return "", false
				}
				fmt.Fprintf(&alloc, "if _gtp.%s == nil { _gtp.%s = new(%s) }; ", p.sel, p.sel, es)
			}
			cond = append(cond, "_gtp."+p.sel+" != nil")
		}
		guard := func(s string) string {
			if len(cond) == 0 {
				return s
			}
			return alloc.String() + "if " + strings.Join(cond, " && ") + " { " + s + "}; "
		}
		tag := jf.name
		if jf.opts != "" {
			tag += "," + jf.opts
		}
		// Go's errors name a promoted field by its path.
		errName := jf.name
		if i := strings.LastIndex(jf.sel, "."); i >= 0 {
			errName = jf.sel[:i] + "." + jf.name
			fmt.Fprintf(&promoted, ", %s, %s", strconv.Quote(jf.name), strconv.Quote(errName))
		}
		if needsFill(ft) {
			if jf.hasOpt("string") && quotable(ft) {
				return "", false
			}
			ff, ok := f.fill(ft)
			if !ok {
				return "", false
			}
			fmt.Fprintf(&decl, "F%d %s.RawMessage %s; ", i, f.json, strconv.Quote(`json:`+strconv.Quote(jf.name)))
			fmt.Fprintf(&after, "if %s != nil { %s}; ", fname,
				guard(fmt.Sprintf("_gtvs, _gtos := _gtjc.Values(_gtd, _gtoff, %s); for _gti, _gtv := range _gtvs { if _gte := %s(_gtv, &%s, %s, %s.JSONPath(_gtpath, %s), _gtos[_gti]); _gte != nil { return _gte } }; ",
					strconv.Quote(jf.name), ff, sel, strconv.Quote(name), rtName, strconv.Quote(errName))))
			continue
		}
		fts, ok := f.g.typeSrc(ft)
		if !ok {
			return "", false
		}
		fmt.Fprintf(&decl, "F%d *%s %s; ", i, fts, strconv.Quote(`json:`+strconv.Quote(tag)))
		if len(cond) == 0 {
			fmt.Fprintf(&set, "%s = &%s; ", fname, sel)
		} else {
			fmt.Fprintf(&set, "if %s { %s = &%s }; ", strings.Join(cond, " && "), fname, sel)
		}
		// A null sets the view's pointer to nil, and a value after it
		// fills a new variable (as does a value where an embedded
		// pointer was nil).
		switch ft.Underlying().(type) {
		case *types.Pointer, *types.Slice, *types.Map, *types.Interface:
			if len(cond) == 0 {
				fmt.Fprintf(&fix, "if %s == nil { %s = nil }; ", fname, sel)
			} else {
				fmt.Fprintf(&fix, "if %s == nil && %s { %s = nil }; ", fname, strings.Join(cond, " && "), sel)
			}
		}
		if len(cond) == 0 {
			fmt.Fprintf(&fix, "if %s != nil && %s != &%s { %s = *%s }; ", fname, fname, sel, sel, fname)
		} else {
			fmt.Fprintf(&fix, "if %s != nil && (!(%s) || %s != &%s) { %s}; ", fname, strings.Join(cond, " && "), fname, sel, guard(sel+" = *"+fname+"; "))
		}
	}
	return "if _gtd[0] == 'n' { return nil }; if _gtd[0] != '{' { " + mismatch + " }; var _gtr struct { " + decl.String() + "}; " + set.String() +
		"if _gte := _gtjc.Check(_gtjc.Unmarshal(_gtd, &_gtr), " + strconv.Quote(name) + ", _gtpath, _gtoff" + promoted.String() + "); _gte != nil { return _gte }; " +
		fix.String() + after.String() + "return nil", true
}

// quotable reports whether json's ",string" option applies to a field of
// type t.
func quotable(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsBoolean|types.IsInteger|types.IsFloat|types.IsString) != 0
}
