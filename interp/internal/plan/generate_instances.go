package plan

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// instFile is the cell's instance code for the interpreter: its types,
// methods and the rest (constants, variables, functions), and the names
// it declares.
type instFile struct {
	types, methods, funcs string
	names                 []string
}

// src returns the whole file, or "".
func (f instFile) src() string {
	if f.types+f.methods+f.funcs == "" {
		return ""
	}
	return "package main\n" + f.types + f.methods + f.funcs
}

// instanceFile returns the cell's instance code. A declaration from a
// cell keeps that cell's positions.
func (g *gen) instanceFile() instFile {
	c := g.c
	var t, m, o strings.Builder
	var names []string
	for _, d := range c.file.Decls {
		id, ok := c.instDecls[d]
		if !ok {
			continue
		}
		w := &o
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			w = &t
		} else if id.method {
			w = &m
		}
		if id.cell >= 0 {
			w.WriteString(g.s.lineDirective(id.cell, id.line, id.col))
		} else {
			fmt.Fprintf(w, "//line %s:1:1\n", g.s.cfg.SourceName)
		}
		w.WriteString(g.ed.render(c.text, g.off(d.Pos()), g.off(d.End())))
		w.WriteString("\n")
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					names = append(names, sp.Name.Name)
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						names = append(names, n.Name)
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil {
				names = append(names, d.Name.Name)
			}
		}
	}
	return instFile{types: t.String(), methods: m.String(), funcs: o.String(), names: names}
}

// instObjects returns the package-level objects the cell's instance code
// declares.
func (g *gen) instObjects() map[types.Object]bool {
	objs := map[types.Object]bool{}
	for d := range g.c.instDecls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					objs[g.c.info.Defs[sp.Name]] = true
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						objs[g.c.info.Defs[n]] = true
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil {
				objs[g.c.info.Defs[d.Name]] = true
			}
		}
	}
	return objs
}

// instancesUseCell reports whether the cell's instance code uses what the
// cell declares (Stack[P] with the cell's P, a generic function of the
// cell calling another function of it).
func (g *gen) instancesUseCell() bool {
	c := g.c
	own := g.instObjects()
	uses := false
	for d := range c.instDecls {
		ast.Inspect(d, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if obj := c.info.Uses[id]; obj != nil && obj.Pkg() == c.pkg && obj.Parent() == c.pkg.Scope() && !own[obj] {
					uses = true
				}
			}
			return !uses
		})
	}
	return uses
}

// commitInstances makes the plan's instances the session's once step has
// run: later cells reuse them.
func (g *gen) commitInstances(step int) {
	s, m := g.s, g.c.inst
	objs := map[string]types.Object{}
	for obj := range g.instObjects() {
		if obj != nil {
			objs[obj.Name()] = obj
		}
	}
	g.commitAfter(step, func() {
		for _, inst := range m.insts {
			s.instances[inst.key] = inst.name
			s.instNames[inst.name] = true
			if inst.goName != "" {
				s.goNames[inst.name] = inst.goName
			}
		}
		for name, obj := range objs {
			s.generated[name] = obj
		}
	})
}
