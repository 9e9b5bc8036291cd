package plan

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strings"
)

// findOldSlots finds the session variables that the statements use before
// the cell defines a variable of the same name with another type: the new
// declaration takes the name, so those uses go through a pointer taken
// before it (see captureBlock).
func (g *gen) findOldSlots() {
	g.oldSlots = map[types.Object]string{}
	for name, v := range g.c.topVars {
		e, ok := g.s.entries[name]
		if !ok {
			continue
		}
		old, isVar := e.obj.(*types.Var)
		if !isVar || types.Identical(old.Type(), v.Type()) {
			continue
		}
		used := false
		ast.Inspect(g.c.body.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && g.c.info.Uses[id] == old {
				used = true
			}
			return !used
		})
		if used {
			g.oldSlots[old] = g.fresh("_gtold")
		}
	}
}

// captureBlock returns the block that takes the pointers of findOldSlots.
func (g *gen) captureBlock() string {
	if len(g.oldSlots) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("package main\nfunc _() {\n")
	objs := make([]types.Object, 0, len(g.oldSlots))
	for obj := range g.oldSlots {
		objs = append(objs, obj)
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].Name() < objs[j].Name() })
	for _, obj := range objs {
		fmt.Fprintf(&b, "%s := &%s\n", g.oldSlots[obj], g.yname(obj))
	}
	b.WriteString("}\n")
	return b.String()
}

// reusesVar reports whether a top-level variable of the cell takes the slot
// of a session variable of the same name and identical type.
func (g *gen) reusesVar(v *types.Var) bool {
	e, ok := g.s.entries[v.Name()]
	if !ok {
		return false
	}
	old, ok := e.obj.(*types.Var)
	return ok && types.Identical(old.Type(), v.Type())
}

// reusesFunc reports whether a function of the cell takes the variable of
// a session function of the same name and identical signature.
func (g *gen) reusesFunc(f *types.Func) bool {
	e, ok := g.s.entries[f.Name()]
	if !ok {
		return false
	}
	old, ok := e.obj.(*types.Func)
	if !ok {
		return false
	}
	if _, compiled := compiledPath(old.Pkg()); compiled {
		// The interpreter declares its own (the debugger's, see
		// Interpret): compiled code keeps calling the compiled one.
		return false
	}
	return old.Type().(*types.Signature).TypeParams() == nil && types.Identical(old.Type(), f.Type())
}

// skipMethod reports whether a method declaration on an earlier type
// redefines a method the type has: the interpreter keeps a method's first
// definition, so the cell warns and leaves it out (or, when the signature
// changed, refuses the cell).
func (g *gen) skipMethod(m *ast.FuncDecl) bool {
	fn, ok := g.c.earlier[m]
	if !ok {
		return false
	}
	name, _ := recvBase(m.Recv.List[0].Type)
	tn := g.s.entries[name].obj.(*types.TypeName)
	cell, had := g.s.methods[tn][m.Name.Name]
	if !had {
		return false
	}
	newSig, _ := g.c.info.Defs[fn.Name].(*types.Func)
	obj, _, _ := types.LookupFieldOrMethod(tn.Type(), true, tn.Pkg(), m.Name.Name)
	if old, ok := obj.(*types.Func); ok && newSig != nil {
		want := methodFrom(tn.Type().(*types.Named), m.Name, newSig.Type().(*types.Signature))
		if !types.Identical(old.Type(), want.Type()) {
			g.errorf(m.Name.Pos(), "method %s.%s was declared in cell %d with another signature, and the interpreter cannot change a method: declare type %s again, with its methods, in one cell", name, m.Name.Name, cell, name)
			return true
		}
	}
	g.p.Warnings = append(g.p.Warnings, fmt.Sprintf("method %s.%s is already defined and keeps its first definition; run the cell that declares type %s again together with the new method", name, m.Name.Name, name))
	return true
}

// warnStaleVarUsers warns at v, a variable the cell declares again
// with another type than old's, when functions or methods of earlier
// cells that the cell does not declare again use it: they keep using the
// old variable, which the interpreter compiled them with.
func (g *gen) warnStaleVarUsers(name string, old types.Object, v *types.Var) {
	ov, ok := old.(*types.Var)
	if !ok || types.Identical(ov.Type(), v.Type()) {
		return
	}
	declared := map[string]bool{}
	for _, fd := range g.c.funcs {
		declared[fd.Name.Name] = true
	}
	for _, m := range g.c.methods {
		if base, _ := recvBase(m.Recv.List[0].Type); base != "" {
			declared[base+"."+m.Name.Name] = true
		}
	}
	var users []string
	for key, cell := range g.s.varUsers[name] {
		if cell < g.c.n && !declared[key] {
			users = append(users, key)
		}
	}
	if len(users) == 0 {
		return
	}
	sort.Strings(users)
	g.warnf(v.Pos(), "%s declared again with type %s (it had type %s): %s of earlier cells keep using the %s they were compiled with; run the cells that declare them again, or give the new variable another name",
		name, types.TypeString(v.Type(), cellQualifier), types.TypeString(ov.Type(), cellQualifier), strings.Join(users, ", "), name)
}
