package plan

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// keyLiterals gives field names to the unkeyed struct literals of types
// from earlier cells that have unexported fields, and reports whether it
// did: go/types takes each cell for a package of its own and refuses
// "implicit assignment to unexported field", which in a notebook are the
// fields of one package.
func (c *cell) keyLiterals(errs ErrorList) bool {
	found := false
	for _, e := range errs {
		if strings.HasPrefix(e.Msg, "implicit assignment to unexported field") {
			found = true
		}
	}
	if !found {
		return false
	}
	changed := false
	ast.Inspect(c.file, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok || len(lit.Elts) == 0 {
			return true
		}
		if _, keyed := lit.Elts[0].(*ast.KeyValueExpr); keyed {
			return true
		}
		t := c.info.Types[lit].Type
		if t == nil {
			return true
		}
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		named, ok := types.Unalias(t).(*types.Named)
		if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != cellPath || named.Obj().Pkg() == c.pkg {
			return true
		}
		st, ok := named.Underlying().(*types.Struct)
		if !ok || st.NumFields() < len(lit.Elts) {
			return true
		}
		for i, e := range lit.Elts {
			lit.Elts[i] = &ast.KeyValueExpr{Key: &ast.Ident{Name: st.Field(i).Name(), NamePos: e.Pos()}, Colon: e.Pos(), Value: e}
		}
		changed = true
		return true
	})
	return changed
}

// asFunction returns the function that stands for method m in the check
// when m's receiver is a type of an earlier cell, else nil.
func (c *cell) asFunction(m *ast.FuncDecl) *ast.FuncDecl {
	if len(m.Recv.List) != 1 {
		return nil
	}
	if _, ok := c.instDecls[m]; ok {
		return nil
	}
	name, generic := recvBase(m.Recv.List[0].Type)
	if name == "" || generic || c.declared[name] {
		return nil
	}
	e, ok := c.s.entries[name]
	if !ok {
		return nil
	}
	if _, ok := e.obj.(*types.TypeName); !ok {
		return nil
	}
	recv := *m.Recv.List[0]
	if len(recv.Names) == 0 {
		recv.Names = []*ast.Ident{{Name: "_", NamePos: recv.Type.Pos()}}
	}
	params := &ast.FieldList{Opening: m.Type.Params.Opening, Closing: m.Type.Params.Closing}
	params.List = append([]*ast.Field{&recv}, m.Type.Params.List...)
	return &ast.FuncDecl{
		Doc:  m.Doc,
		Name: &ast.Ident{Name: "_gtmethod_" + name + "_" + m.Name.Name, NamePos: m.Name.NamePos},
		Type: &ast.FuncType{Func: m.Type.Func, Params: params, Results: m.Type.Results},
		Body: m.Body,
	}
}

// recvBase returns the name of a receiver's base type and whether it has
// type parameters.
func recvBase(t ast.Expr) (string, bool) {
	t = ast.Unparen(t)
	if s, ok := t.(*ast.StarExpr); ok {
		t = ast.Unparen(s.X)
	}
	switch x := t.(type) {
	case *ast.Ident:
		return x.Name, false
	case *ast.IndexExpr:
		id, _ := x.X.(*ast.Ident)
		if id != nil {
			return id.Name, true
		}
	case *ast.IndexListExpr:
		id, _ := x.X.(*ast.Ident)
		if id != nil {
			return id.Name, true
		}
	}
	return "", false
}

// parenEarlierTypes writes the type B of each declaration "type A B" in
// decls, B a type of the scope (an earlier cell's), as (B), the same
// type, and returns the function that puts B back: go/types looks for a
// cycle of such declarations through those of its own check, which do
// not hold B, and fails.
func parenEarlierTypes(decls []ast.Decl, scope *types.Scope) (restore func()) {
	var direct []*ast.TypeSpec
	for _, d := range decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, sp := range gd.Specs {
				if ts := sp.(*ast.TypeSpec); ts.TypeParams == nil {
					if id, ok := ts.Type.(*ast.Ident); ok && scope.Lookup(id.Name) != nil {
						ts.Type = &ast.ParenExpr{Lparen: id.Pos(), X: id, Rparen: id.End()}
						direct = append(direct, ts)
					}
				}
			}
		}
	}
	return func() {
		for _, ts := range direct {
			ts.Type = ts.Type.(*ast.ParenExpr).X
		}
	}
}

// needsNewMethods reports whether errs include a use of a method the cell
// declares on an earlier type, which the type does not have yet.
func (c *cell) needsNewMethods(errs ErrorList) bool {
	for _, e := range errs {
		for m := range c.earlier {
			if strings.Contains(e.Msg, "has no field or method "+m.Name.Name) {
				return true
			}
		}
	}
	return false
}

// addEarlierMethods adds the methods the cell declares on earlier types to
// those types, with the signatures the last check found. go/types cannot
// take a method back: if the cell is not run, the method stays (see
// Commit).
func (c *cell) addEarlierMethods() {
	for m, fn := range c.earlier {
		f, _ := c.info.Defs[fn.Name].(*types.Func)
		if f == nil {
			continue
		}
		name, _ := recvBase(m.Recv.List[0].Type)
		tn := c.s.entries[name].obj.(*types.TypeName)
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		method := methodFrom(named, m.Name, f.Type().(*types.Signature))
		if obj, _, _ := types.LookupFieldOrMethod(named, true, tn.Pkg(), m.Name.Name); obj == nil {
			named.AddMethod(method)
			c.added = append(c.added, method)
		}
	}
}

// methodFrom makes the method of named that function sig (its receiver
// first) stands for.
func methodFrom(named *types.Named, name *ast.Ident, sig *types.Signature) *types.Func {
	params := make([]*types.Var, 0, sig.Params().Len()-1)
	for i := 1; i < sig.Params().Len(); i++ {
		params = append(params, sig.Params().At(i))
	}
	recv := sig.Params().At(0)
	msig := types.NewSignatureType(recv, nil, nil, types.NewTuple(params...), sig.Results(), sig.Variadic())
	return types.NewFunc(name.Pos(), named.Obj().Pkg(), name.Name, msig)
}
