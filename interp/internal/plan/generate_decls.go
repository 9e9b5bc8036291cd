package plan

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// declFile returns the file of the cell's declarations: its types (a
// redefined one under its versioned name, with the user's name made an
// alias of it), constants, methods, generic functions, and the session
// variables for its functions and top-level variables that need a new
// declaration.
func (g *gen) declFile(inst instFile) (string, []string) {
	c := g.c
	// Types and constants first, then methods, then code, then the
	// variables: in one file, yaegi still gets some orders wrong (a
	// generic function before the types it uses; a function variable
	// before a function of the same type assigned to a named function
	// type; a method declared after a function that takes its method
	// value).
	var types_, methods, vars, code strings.Builder
	types_.WriteString(inst.types)
	methods.WriteString(inst.methods)
	code.WriteString(inst.funcs)
	var names []string
	var own []ast.Decl // the cell's declarations, not instance code
	for _, d := range c.file.Decls {
		if _, ok := c.instDecls[d]; !ok {
			own = append(own, d)
		}
	}
	g.explicitConsts(own)
	for _, d := range typesFirstUsed(own) {
		if d.Tok == token.CONST {
			g.piece(&types_, d)
			for _, sp := range d.Specs {
				for _, id := range sp.(*ast.ValueSpec).Names {
					names = append(names, id.Name)
				}
			}
			continue
		}
		keep := g.plainTypes(d)
		if len(keep) == len(d.Specs) {
			g.piece(&types_, d)
		} else {
			for _, ts := range keep {
				types_.WriteString(g.lineOf(ts.Pos()))
				types_.WriteString("type " + g.ed.render(c.text, g.off(ts.Pos()), g.off(ts.End())) + "\n")
			}
		}
		for _, ts := range keep {
			names = append(names, ts.Name.Name)
			if v, ok := g.ynames[c.info.Defs[ts.Name]]; ok && !g.collided[c.info.Defs[ts.Name]] {
				fmt.Fprintf(&types_, "type %s = %s\n", ts.Name.Name, v)
			}
		}
	}
	for _, d := range c.file.Decls {
		if _, ok := c.instDecls[d]; ok {
			continue
		}
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.VAR {
				g.piece(&code, d) // package-level initializers call functions
				for _, sp := range d.Specs {
					for _, id := range sp.(*ast.ValueSpec).Names {
						names = append(names, id.Name)
					}
				}
			}
		case *ast.FuncDecl:
			switch {
			case d == c.body || d.Name.Name == "_" || g.generic(d):
			case d.Recv != nil:
				if !g.skipMethod(d) {
					g.piece(&methods, d)
				}
			default:
				if d.Type.TypeParams != nil {
					names = append(names, d.Name.Name)
				}
				g.piece(&code, d)
			}
		}
	}
	// Functions are variables (see runBlock).
	for _, fd := range c.funcs {
		obj, _ := c.info.Defs[fd.Name].(*types.Func)
		if obj == nil || fd.Type.TypeParams != nil || fd.Name.Name == "init" || fd.Name.Name == "_" {
			continue
		}
		if g.reusesFunc(obj) {
			continue
		}
		t, ok := g.typeSrc(obj.Type())
		if !ok {
			g.errorf(fd.Name.Pos(), "cannot declare function %s: its signature has a type the interpreter cannot name", fd.Name.Name)
			continue
		}
		fmt.Fprintf(&vars, "var %s %s\n", g.yname(obj), t)
		names = append(names, fd.Name.Name)
	}
	for _, name := range g.topVarOrder() {
		v := c.topVars[name]
		if g.reusesVar(v) {
			continue
		}
		if t, ok := g.typeSrc(v.Type()); ok {
			fmt.Fprintf(&vars, "var %s %s\n", g.yname(v), t)
			names = append(names, name)
		}
	}
	src := types_.String() + methods.String() + code.String() + vars.String()
	if src == "" {
		return "", nil
	}
	return "package main\n" + src, names
}

// generic reports whether a function or method of the cell is generic
// code, which the interpreter never sees (see mono); the prelude's stay
// as they are.
func (g *gen) generic(fd *ast.FuncDecl) bool {
	if g.s.prelude0 {
		return false
	}
	if fd.Recv != nil {
		_, generic := recvBase(fd.Recv.List[0].Type)
		return generic
	}
	return fd.Type.TypeParams != nil
}

// plainTypes returns the type specs of a declaration that the
// interpreter is given: not generic types, nor constraint interfaces
// (~int | ~float64), which only generic code uses.
func (g *gen) plainTypes(d *ast.GenDecl) []*ast.TypeSpec {
	var keep []*ast.TypeSpec
	for _, sp := range d.Specs {
		ts := sp.(*ast.TypeSpec)
		if !g.s.prelude0 && ts.TypeParams != nil {
			continue
		}
		if obj, ok := g.c.info.Defs[ts.Name].(*types.TypeName); ok && !g.s.prelude0 {
			if iface, ok := obj.Type().Underlying().(*types.Interface); ok && !iface.IsMethodSet() {
				continue
			}
		}
		keep = append(keep, ts)
	}
	return keep
}

// typesFirstUsed returns the type and constant declarations of decls, each
// after the declarations of the cell's types and constants it mentions,
// else in source order (a cycle keeps its order): yaegi declares "type T1
// T" before "type T struct{...}" in a way that loses T's fields where a
// function type mentions T1 (func() T1).
func typesFirstUsed(decls []ast.Decl) []*ast.GenDecl {
	var list []*ast.GenDecl
	declaredBy := map[string]int{}
	for _, d := range decls {
		if g, ok := d.(*ast.GenDecl); ok && (g.Tok == token.TYPE || g.Tok == token.CONST) {
			for _, sp := range g.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					declaredBy[sp.Name.Name] = len(list)
				case *ast.ValueSpec:
					for _, id := range sp.Names {
						declaredBy[id.Name] = len(list)
					}
				}
			}
			list = append(list, g)
		}
	}
	uses := make([]map[int]bool, len(list))
	for i, g := range list {
		uses[i] = map[int]bool{}
		ast.Inspect(g, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if j, ok := declaredBy[id.Name]; ok && j != i {
					uses[i][j] = true
				}
			}
			return true
		})
	}
	out := make([]*ast.GenDecl, 0, len(list))
	done := make([]bool, len(list))
	for len(out) < len(list) {
		next := -1
		for i := range list {
			if done[i] {
				continue
			}
			ready := true
			for j := range uses[i] {
				ready = ready && done[j]
			}
			if ready {
				next = i
				break
			}
		}
		if next < 0 { // a cycle: the first left, in source order
			for i := range list {
				if !done[i] {
					next = i
					break
				}
			}
		}
		done[next] = true
		out = append(out, list[next])
	}
	return out
}

// topVarOrder returns the names of the top-level variables in source
// order.
func (g *gen) topVarOrder() []string {
	names := make([]string, 0, len(g.c.topVars))
	for name := range g.c.topVars {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return g.c.topVars[names[i]].Pos() < g.c.topVars[names[j]].Pos() })
	return names
}

// declareBlock returns the block that declares, by compiling their
// definitions without running them, the top-level variables whose types
// have no name in Go source.
func (g *gen) declareBlock() string {
	var b strings.Builder
	done := map[ast.Stmt]bool{}
	for _, name := range g.topVarOrder() {
		v := g.c.topVars[name]
		if g.reusesVar(v) {
			continue
		}
		if _, ok := g.typeSrc(v.Type()); ok {
			continue
		}
		st := g.definingStmt(v)
		if st == nil || done[st] {
			continue
		}
		done[st] = true
		g.example(&b, st)
	}
	if b.Len() == 0 {
		return ""
	}
	return "package main\nfunc _() {\n" + b.String() + "}\n"
}

// definingStmt returns the top-level statement that defines v.
func (g *gen) definingStmt(v *types.Var) ast.Stmt {
	for _, st := range g.c.body.Body.List {
		for _, id := range definedIdents(st) {
			if g.c.info.Defs[id] == v {
				return st
			}
		}
	}
	return nil
}

// example writes a definition of the variables of st in their own
// words, "x := e", for the interpreter to compile without running.
func (g *gen) example(b *strings.Builder, st ast.Stmt) {
	switch st := st.(type) {
	case *ast.AssignStmt:
		var lhs, rhs []string
		for _, l := range st.Lhs {
			lhs = append(lhs, g.definedName(l.(*ast.Ident)))
		}
		for _, r := range st.Rhs {
			rhs = append(rhs, g.text(r))
		}
		b.WriteString(g.lineOf(st.Pos()))
		fmt.Fprintf(b, "%s := %s\n", strings.Join(lhs, ", "), strings.Join(rhs, ", "))
	case *ast.DeclStmt:
		for _, sp := range st.Decl.(*ast.GenDecl).Specs {
			vs := sp.(*ast.ValueSpec)
			var names, vals []string
			for _, id := range vs.Names {
				names = append(names, g.definedName(id))
			}
			for _, v := range vs.Values {
				vals = append(vals, g.text(v))
			}
			b.WriteString(g.lineOf(vs.Pos()))
			if len(vals) > 0 {
				fmt.Fprintf(b, "%s := %s\n", strings.Join(names, ", "), strings.Join(vals, ", "))
			}
		}
	}
}

// definedName returns the interpreter's name of the variable a
// top-level statement defines (or assigns) by id.
func (g *gen) definedName(id *ast.Ident) string {
	if obj := g.c.info.Defs[id]; obj != nil {
		return g.yname(obj)
	}
	if obj := g.c.info.Uses[id]; obj != nil {
		return g.yname(obj)
	}
	return id.Name
}
