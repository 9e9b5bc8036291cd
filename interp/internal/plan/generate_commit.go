package plan

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// commitDecls records the cell's declarations in the plan and how Commit
// applies them: imports and hidden imports are done; the rest become the
// session's when the file of declarations (and the block that declares
// variables by example) has run.
func (g *gen) commitDecls(fileStep, declareStep int) {
	c, s := g.c, g.s
	at := func(pos token.Pos) int {
		line, _ := c.lineCol(max(c.cellOffset(g.off(pos)), 0))
		return line
	}
	step := fileStep
	if step < 0 {
		step = len(g.p.Steps) - 1
	}
	g.recordConstUsers(step)
	src := func(n ast.Node) string { return strings.TrimSpace(g.c.text[g.off(n.Pos()):g.off(n.End())]) }
	for _, ts := range c.types {
		obj, _ := c.info.Defs[ts.Name].(*types.TypeName)
		if obj == nil || ts.Name.Name == "_" {
			continue
		}
		name := ts.Name.Name
		_, redef := s.entries[name]
		yn, versioned := g.ynames[obj]
		g.p.Decls = append(g.p.Decls, Decl{Kind: DeclType, Name: name, Type: obj.Type(), Redefines: redef, Line: at(ts.Pos()), Interp: yn})
		doc := ts.Doc
		if doc == nil && len(c.types) > 0 {
			doc = typeDoc(c.file, ts)
		}
		decl := "type " + src(ts) + docText(doc)
		g.commitAfter(step, func() {
			if old, ok := s.entries[name]; ok {
				if tn, ok := old.obj.(*types.TypeName); ok {
					if _, has := s.yname[tn]; !has {
						s.unprintable[tn] = true
					}
				}
			}
			s.entries[name] = &entry{obj: obj, cell: c.n}
			s.noteTypeAt(c, obj)
			s.sources[name] = decl
			delete(s.imports, name)
			s.versions[name]++
			if versioned {
				s.yname[obj] = yn
			}
		})
	}
	for kind, specs := range map[DeclKind][]*ast.ValueSpec{DeclConst: c.consts, DeclVar: c.vars} {
		for _, vs := range specs {
			for _, id := range vs.Names {
				obj := c.info.Defs[id]
				if obj == nil || id.Name == "_" {
					continue
				}
				_, redef := s.entries[id.Name]
				g.p.Decls = append(g.p.Decls, Decl{Kind: kind, Name: id.Name, Type: obj.Type(), Redefines: redef, Line: at(id.Pos()), Interp: g.ynames[obj]})
				g.commitObject(step, id.Name, obj)
			}
		}
	}
	for _, fd := range c.funcs {
		obj, _ := c.info.Defs[fd.Name].(*types.Func)
		if obj == nil || fd.Name.Name == "init" || fd.Name.Name == "_" {
			continue
		}
		name := fd.Name.Name
		old, redef := s.entries[name]
		reuse := g.reusesFunc(obj)
		g.p.Decls = append(g.p.Decls, Decl{Kind: DeclFunc, Name: name, Type: obj.Type(), Reuse: reuse,
			Redefines: redef && !(reuse || old == nil), Line: at(fd.Pos()), Interp: g.ynames[obj]})
		header := strings.TrimSpace(g.c.text[g.off(fd.Pos()):g.off(fd.Type.End())])
		yn, renamed := g.ynames[obj]
		body := g.bodies[fd]
		recovers := callsRecover(fd.Body)
		g.commitAfter(step, func() {
			s.entries[name] = &entry{obj: obj, cell: c.n}
			if body != "" {
				s.bodies[obj] = body
			}
			if recovers {
				s.recovers[obj] = true
			} else {
				delete(s.recovers, obj)
			}
			s.sources[name] = header + docText(fd.Doc)
			delete(s.imports, name)
			if renamed {
				s.yname[obj] = yn
			}
		})
	}
	for _, m := range c.methods {
		name, _ := recvBase(m.Recv.List[0].Type)
		var tn *types.TypeName
		if fn, ok := c.earlier[m]; ok {
			tn, _ = s.entries[name].obj.(*types.TypeName)
			f, _ := c.info.Defs[fn.Name].(*types.Func)
			if tn == nil || f == nil {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok {
				continue
			}
			if _, had := s.methods[tn][m.Name.Name]; had {
				continue // skipped (see skipMethod)
			}
			method := methodFrom(named, m.Name, f.Type().(*types.Signature))
			g.commitAfter(step, func() { named.AddMethod(method) })
		} else {
			obj := c.info.Defs[m.Name]
			if obj == nil {
				continue
			}
			if recv := obj.Type().(*types.Signature).Recv(); recv != nil {
				t := recv.Type()
				if p, ok := t.(*types.Pointer); ok {
					t = p.Elem()
				}
				if n, ok := t.(*types.Named); ok {
					tn = n.Origin().Obj()
				}
			}
		}
		if tn == nil {
			continue
		}
		key := name + "." + m.Name.Name
		tag := m.Name.Name == nameTag // the planner's, not the user's
		if !tag {
			g.p.Decls = append(g.p.Decls, Decl{Kind: DeclMethod, Name: key, Line: at(m.Pos())})
		}
		header := strings.TrimSpace(g.c.text[g.off(m.Pos()):g.off(m.Type.End())])
		mname := m.Name.Name
		g.commitAfter(step, func() {
			if s.methods[tn] == nil {
				s.methods[tn] = map[string]int{}
			}
			s.methods[tn][mname] = c.n
			if !tag {
				s.sources[key] = header + docText(m.Doc)
			}
		})
	}
	for _, name := range g.topVarOrder() {
		v := c.topVars[name]
		old, redef := s.entries[name]
		reuse := g.reusesVar(v)
		_, printable := g.typeSrc(v.Type())
		vstep := step
		if !printable && !reuse {
			vstep = declareStep
		}
		yn, renamed := g.ynames[v]
		g.p.Decls = append(g.p.Decls, Decl{Kind: DeclVar, Name: name, Type: v.Type(), Reuse: reuse,
			Redefines: redef && !reuse && old != nil, ByExample: !printable && !reuse, Line: at(v.Pos()), Interp: yn})
		if reuse {
			continue
		}
		if redef && old != nil {
			g.warnStaleVarUsers(name, old.obj, v)
		}
		nv := types.NewVar(v.Pos(), c.pkg, name, v.Type())
		g.commitAfter(vstep, func() {
			s.entries[name] = &entry{obj: nv, cell: c.n}
			delete(s.imports, name)
			if renamed {
				s.yname[nv] = yn
			}
		})
	}
	g.commitGenerics(step)
	sort.SliceStable(g.p.Decls, func(i, j int) bool { return g.p.Decls[i].Line < g.p.Decls[j].Line })
}

// commitGenerics keeps, once step has run, the cell's generic
// declarations with its source (later cells instantiate them), and the
// keys of its types and functions (see Session.objKey).
func (g *gen) commitGenerics(step int) {
	c, s := g.c, g.s
	keys := map[types.Object]string{}
	for _, ts := range c.types {
		if obj := c.info.Defs[ts.Name]; obj != nil {
			keys[obj] = s.objKey(obj)
		}
	}
	for _, fd := range c.funcs {
		if obj := c.info.Defs[fd.Name]; obj != nil {
			keys[obj] = s.objKey(obj)
		}
	}
	// The prelude's generic functions too: min and max are instances of
	// its _gtMin and _gtMax.
	src := c.source()
	g.commitAfter(step, func() {
		for obj, k := range keys {
			s.keys[obj] = k
		}
		if src != nil {
			for obj := range src.decls {
				s.generics[obj] = src
			}
		}
	})
}

// commitObject makes obj the session's name once step has run.
func (g *gen) commitObject(step int, name string, obj types.Object) {
	s, cell := g.s, g.c.n
	yn, renamed := g.ynames[obj]
	g.commitAfter(step, func() {
		s.entries[name] = &entry{obj: obj, cell: cell}
		delete(s.imports, name)
		if renamed {
			s.yname[obj] = yn
		}
	})
}

// typeDoc returns the doc comment of the declaration of one type spec
// ts (type T ..., not in parentheses), or nil.
func typeDoc(f *ast.File, ts *ast.TypeSpec) *ast.CommentGroup {
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && len(g.Specs) == 1 && g.Specs[0] == ts {
			return g.Doc
		}
	}
	return nil
}

// docText returns "\n\n" and the text of a doc comment, or "".
func docText(g *ast.CommentGroup) string {
	if t := strings.TrimSpace(g.Text()); t != "" {
		return "\n\n" + t
	}
	return ""
}
