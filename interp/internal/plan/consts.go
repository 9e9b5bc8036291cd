package plan

import (
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// A constUser is a function or method of a cell that uses package-level
// constants: the interpreter compiles a constant's value into the code
// that uses it, so a constant declared again reaches such a function only
// when the function is declared again.
type constUser struct {
	cell   int
	src    string          // the declaration, doc comment included
	consts map[string]bool // the constants it uses
	method bool            // a method, which the interpreter cannot declare again
}

// recordConstUsers records the cell's functions and methods that use
// package-level constants, keyed by the function's name or "T.M" (see
// commitDecls), after the step that declares them.
func (g *gen) recordConstUsers(step int) {
	c, s := g.c, g.s
	record := func(key string, fd *ast.FuncDecl, method bool) {
		if fd.Body == nil || fd.Type.TypeParams != nil {
			return
		}
		consts, vars := map[string]bool{}, map[string]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				switch k := c.info.Uses[id].(type) {
				case *types.Const:
					if k.Pkg() != nil && k.Pkg().Path() == cellPath && k.Parent() == k.Pkg().Scope() {
						consts[k.Name()] = true
					}
				case *types.Var:
					if k.Pkg() != nil && k.Pkg().Path() == cellPath && k.Parent() == k.Pkg().Scope() {
						vars[strings.TrimPrefix(k.Name(), placeholderPrefix)] = true
					}
				}
			}
			return true
		})
		g.commitAfter(step, func() {
			for _, users := range s.varUsers {
				delete(users, key)
			}
			for v := range vars {
				if s.varUsers[v] == nil {
					s.varUsers[v] = map[string]int{}
				}
				s.varUsers[v][key] = c.n
			}
		})
		start := fd.Pos()
		if fd.Doc != nil {
			start = fd.Doc.Pos()
		}
		u := &constUser{cell: c.n, src: g.c.text[g.off(start):g.off(fd.End())], consts: consts, method: method}
		g.commitAfter(step, func() {
			if len(consts) == 0 {
				delete(s.constUsers, key)
				return
			}
			s.constUsers[key] = u
		})
	}
	for _, fd := range c.funcs {
		if _, inst := c.instDecls[fd]; inst {
			continue
		}
		switch fd.Name.Name {
		case "main", "init", "_":
			// main runs once, when it is declared: it cannot be declared
			// again without running again.
			continue
		}
		record(fd.Name.Name, fd, false)
	}
	for _, m := range c.methods {
		if _, inst := c.instDecls[m]; inst {
			continue
		}
		if name, _ := recvBase(m.Recv.List[0].Type); name != "" {
			record(name+"."+m.Name.Name, m, true)
		}
	}
	// Constants and types computed from constants: declared again, they
	// keep the value they were computed with.
	derived := func(kind, name string, nodes ...ast.Node) {
		consts := map[string]bool{}
		for _, n := range nodes {
			if n != nil {
				ast.Inspect(n, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						if k, ok := c.info.Uses[id].(*types.Const); ok && k.Pkg() != nil && k.Pkg().Path() == cellPath && k.Parent() == k.Pkg().Scope() && k.Name() != name {
							consts[k.Name()] = true
						}
					}
					return true
				})
			}
		}
		key := kind + " " + name
		g.commitAfter(step, func() {
			if len(consts) == 0 {
				delete(s.constUsers, key)
				return
			}
			s.constUsers[key] = &constUser{cell: c.n, consts: consts}
		})
	}
	for _, vs := range c.consts {
		for _, id := range vs.Names {
			var nodes []ast.Node
			for _, v := range vs.Values {
				nodes = append(nodes, v)
			}
			derived("constant", id.Name, append(nodes, vs.Type)...)
		}
	}
	for _, ts := range c.types {
		derived("type", ts.Name.Name, ts.Type)
	}
}

// staleConsts returns the functions of earlier cells that use a constant
// the checked cell c declares again with another value or type, and
// that c does not declare itself: their sources, to be declared again
// with the cell; the methods among them, which cannot be; the constants
// and types computed from them ("constant Area"); and the constants by
// name with the line of the cell that declares them.
func (s *Session) staleConsts(c *cell) (funcs, methods, derived, srcs []string, changed map[string]int) {
	changed = map[string]int{}
	for _, vs := range c.consts {
		for _, id := range vs.Names {
			now, _ := c.info.Defs[id].(*types.Const)
			e := s.entries[id.Name]
			if now == nil || e == nil || e.cell == c.n {
				continue
			}
			old, ok := e.obj.(*types.Const)
			if ok && types.Identical(old.Type(), now.Type()) && old.Val().Kind() == now.Val().Kind() && constant.Compare(old.Val(), token.EQL, now.Val()) {
				continue
			}
			changed[id.Name] = c.fset.Position(id.Pos()).Line
		}
	}
	if len(changed) == 0 {
		return nil, nil, nil, nil, nil
	}
	var keys []string
	for key := range s.constUsers {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		u := s.constUsers[key]
		uses := false
		for k := range u.consts {
			uses = uses || changed[k] > 0
		}
		if !uses {
			continue
		}
		if u.method {
			methods = append(methods, key)
			continue
		}
		if kind, name, ok := strings.Cut(key, " "); ok {
			// A constant or type computed from a constant.
			if e := s.entries[name]; !c.declared[name] && e != nil && e.cell == u.cell {
				derived = append(derived, kind+" "+name)
			}
			continue
		}
		if c.declared[key] {
			continue
		}
		if e := s.entries[key]; e == nil || e.cell != u.cell {
			continue
		}
		if _, ok := s.entries[key].obj.(*types.Func); !ok {
			continue
		}
		funcs = append(funcs, key)
		srcs = append(srcs, u.src)
	}
	return funcs, methods, derived, srcs, changed
}

// constWarning returns the warning for constants declared again whose
// earlier users keep the old value: the methods (the interpreter cannot
// declare a method again), and the functions when they could not be
// declared again with the cell (why says what stopped them).
func constWarning(changed map[string]int, funcs, methods, derived []string, why string) []string {
	if len(changed) == 0 {
		return nil // functions declared again for a type (see staleAsserts)
	}
	var names []string
	for name := range changed {
		names = append(names, name)
	}
	sort.Strings(names)
	line := changed[names[0]]
	for _, n := range names {
		line = min(line, changed[n])
	}
	what := "constant " + names[0]
	if len(names) > 1 {
		what = "constants " + strings.Join(names, ", ")
	}
	var ws []string
	if len(funcs) > 0 {
		ws = append(ws, fmt.Sprintf("cell line %d: %s declared again with another value; the functions %s of earlier cells use the old value (declared again with this cell, they would not compile: %s): correct them and declare them again",
			line, what, strings.Join(funcs, ", "), why))
	}
	if len(methods) > 0 {
		ws = append(ws, fmt.Sprintf("cell line %d: %s declared again with another value; the methods %s of earlier cells keep the old value (the interpreter cannot change a method): run the cell that declares their type again",
			line, what, strings.Join(methods, ", ")))
	}
	if len(derived) > 0 {
		ws = append(ws, fmt.Sprintf("cell line %d: %s declared again with another value; the %s of earlier cells keep the value computed from the old one: declare them again",
			line, what, strings.Join(derived, ", ")))
	}
	return ws
}

// planStale plans a cell that declares constants again (changed) with
// the functions of earlier cells that use them (funcs, their sources
// srcs) declared again after its text: each that still checks with the
// session's names; the cell warns for the others, for methods, and for the
// constants and types of earlier cells computed from the old value.
func (s *Session) planStale(n int, src string, funcs, methods, derived, srcs []string, changed map[string]int) (*Plan, error) {
	if !strings.HasSuffix(src, "\n") {
		src += "\n"
	}
	with := func(srcs []string) string { return src + "\n" + strings.Join(srcs, "\n\n") + "\n" }
	if p, err := s.plan(n, with(srcs), false); err == nil || len(funcs) == 0 {
		if err == nil {
			p.Warnings = append(p.Warnings, constWarning(changed, nil, methods, derived, "")...)
		}
		return p, err
	}
	// Those that check, one at a time.
	var ok []string
	var stuck []string
	why := ""
	for i, f := range funcs {
		_, err := s.plan(n, with(srcs[i:i+1]), false)
		if err == nil {
			ok = append(ok, srcs[i])
			continue
		}
		stuck = append(stuck, f)
		if why == "" {
			var l ErrorList
			if errors.As(err, &l) && len(l) > 0 {
				why = l[0].Msg
			} else {
				why = err.Error()
			}
		}
	}
	p, err := s.plan(n, with(ok), false)
	if err != nil && len(ok) > 0 {
		stuck, why = funcs, err.Error()
		p, err = s.plan(n, src, false)
	}
	if err == nil {
		p.Warnings = append(p.Warnings, constWarning(changed, stuck, methods, derived, why)...)
	}
	return p, err
}

// explicitConsts writes the typed integer constants of decls (the cell's
// declarations, function bodies included) whose values use iota, by a
// value of their own or one repeated from the spec before, with their
// values: yaegi gives such a constant a value that compares unequal to
// its type's values (type Status int; const ( Idle Status = iota + 1;
// Busy ): a Status 2 was not == Busy, nor Busy == 2), where a constant
// written as Busy Status = 2 is right.
func (g *gen) explicitConsts(decls []ast.Decl) {
	for _, d := range decls {
		ast.Inspect(d, func(n ast.Node) bool {
			gd, ok := n.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				return true
			}
			iota := false
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				if len(vs.Values) > 0 {
					iota = usesIota(vs.Values)
				}
				if iota {
					g.explicitSpec(vs)
				}
			}
			return false
		})
	}
}

// usesIota reports whether the expressions mention iota.
func usesIota(list []ast.Expr) bool {
	found := false
	for _, e := range list {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == "iota" {
				found = true
			}
			return !found
		})
	}
	return found
}

// explicitSpec replaces a constant spec by one that gives its names
// their types and values, when they are typed integers of one type on
// one line.
func (g *gen) explicitSpec(vs *ast.ValueSpec) {
	c := g.c
	start, end := c.fset.Position(vs.Pos()), c.fset.Position(vs.End())
	if start.Line != end.Line {
		return
	}
	var typ types.Type
	vals := make([]string, len(vs.Names))
	for i, id := range vs.Names {
		k, ok := c.info.Defs[id].(*types.Const)
		if !ok || k.Val().Kind() != constant.Int {
			return
		}
		if b, ok := k.Type().(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			return // yaegi computes untyped constants right
		}
		if typ != nil && !types.Identical(typ, k.Type()) {
			return
		}
		typ, vals[i] = k.Type(), k.Val().ExactString()
	}
	ts, ok := g.typeSrc(typ)
	if !ok {
		return
	}
	names := make([]string, len(vs.Names))
	for i, id := range vs.Names {
		names[i] = g.text(id)
	}
	g.ed.replace(g.off(vs.Pos()), g.off(vs.End()), strings.Join(names, ", ")+" "+ts+" = "+strings.Join(vals, ", "))
}
