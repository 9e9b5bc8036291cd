package plan

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// interpEntry returns the session's name that the interpreter has under
// name, or nil.
func interpEntry(s *Session, name string) *entry {
	for n, e := range s.entries {
		if yn, ok := s.yname[e.obj]; ok && yn == name || !ok && n == name {
			return e
		}
	}
	return nil
}

// verify type-checks the generated steps of p against the session as the
// interpreter sees it, before p is committed: the names generated code
// uses (versioned types, functions as variables, main as _gtmain), the
// session's imports in every file, and what earlier steps of p declare.
// It returns the errors, or nil.
func verify(s *Session, p *Plan) error {
	fset := token.NewFileSet()
	var header strings.Builder
	header.WriteString("package main\nimport (\n")
	imports := map[string]string{}
	for name, path := range s.imported { // the interpreter forgets none
		imports[name] = path
	}
	for path, name := range s.hidden {
		imports[name] = path
	}
	for _, st := range p.Steps {
		if st.Kind == StepImport && st.Import.Name != "_" {
			imports[st.Import.Name] = st.Import.Path
		}
	}
	names := make([]string, 0, len(imports))
	for n := range imports {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&header, "\t%s %q\n", n, imports[n])
	}
	header.WriteString(")\n")

	var files []*ast.File
	pointers := map[string]types.Type{}
	add := func(src string) error {
		f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("%v\n%s", err, src)
		}
		files = append(files, f)
		return nil
	}
	for i, st := range p.Steps {
		body := strings.TrimPrefix(st.Src, "package main\n")
		switch st.Kind {
		case StepFile, StepInstantiate:
			if err := add(header.String() + body); err != nil {
				return err
			}
		case StepBlock, StepDeclare:
			// A block's definitions at its top are session variables:
			// declare them as such; the rest is a function body.
			f, err := parser.ParseFile(fset, "", st.Src, 0)
			if err != nil {
				return fmt.Errorf("%v\n%s", err, st.Src)
			}
			var b strings.Builder
			b.WriteString(header.String())
			fn := f.Decls[0].(*ast.FuncDecl)
			var rest []string
			for _, stmt := range fn.Body.List {
				text := st.Src[fset.Position(stmt.Pos()).Offset:fset.Position(stmt.End()).Offset]
				if a, ok := stmt.(*ast.AssignStmt); ok && a.Tok == token.DEFINE && len(a.Lhs) == 1 {
					// A pointer to a session variable, taken before the
					// variable's name is declared again.
					if u, ok := a.Rhs[0].(*ast.UnaryExpr); ok && u.Op == token.AND {
						if id, ok := u.X.(*ast.Ident); ok && interpEntry(s, id.Name) != nil {
							pointers[a.Lhs[0].(*ast.Ident).Name] = types.NewPointer(interpEntry(s, id.Name).obj.Type())
							continue
						}
					}
				}
				if a, ok := stmt.(*ast.AssignStmt); ok && a.Tok == token.DEFINE {
					b.WriteString("var " + strings.Replace(text, ":=", "=", 1) + "\n")
					continue
				}
				rest = append(rest, text)
			}
			fmt.Fprintf(&b, "func _gtstep%d() {\n%s\n}\n", i, strings.Join(rest, "\n"))
			if err := add(b.String()); err != nil {
				return err
			}
		}
	}
	// Names the files declare; methods on types they do not declare are
	// checked as functions (go/types cannot add them).
	declared := map[string]bool{}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						declared[sp.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range sp.Names {
							declared[n.Name] = true
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil {
					declared[d.Name.Name] = true
				}
			}
		}
	}
	for _, f := range files {
		for i, d := range f.Decls {
			m, ok := d.(*ast.FuncDecl)
			if !ok || m.Recv == nil {
				continue
			}
			if name, _ := recvBase(m.Recv.List[0].Type); !declared[name] {
				recv := *m.Recv.List[0]
				if len(recv.Names) == 0 {
					recv.Names = []*ast.Ident{ast.NewIdent("_")}
				}
				params := &ast.FieldList{List: append([]*ast.Field{&recv}, m.Type.Params.List...)}
				f.Decls[i] = &ast.FuncDecl{Name: ast.NewIdent("_gtmethod" + strconv.Itoa(i) + "_" + m.Name.Name),
					Type: &ast.FuncType{Params: params, Results: m.Type.Results}, Body: m.Body}
			}
		}
	}
	pkg := types.NewPackage(cellPath, "main")
	scope := pkg.Scope()
	insert := func(name string, obj types.Object) {
		if declared[name] || scope.Lookup(name) != nil {
			return
		}
		switch o := obj.(type) {
		case *types.Func:
			if o.Type().(*types.Signature).TypeParams() == nil {
				obj = types.NewVar(nopos, pkg, name, o.Type())
			}
		case *types.TypeName:
			if name != o.Name() {
				obj = types.NewTypeName(nopos, pkg, name, o.Type())
			}
		case *types.Var:
			if name != o.Name() {
				obj = types.NewVar(nopos, pkg, name, o.Type())
			}
		case *types.Const:
			if name != o.Name() {
				obj = types.NewConst(nopos, pkg, name, o.Type(), o.Val())
			}
		}
		scope.Insert(obj)
	}
	for name, t := range pointers {
		scope.Insert(types.NewVar(nopos, pkg, name, t))
	}
	for obj, name := range s.yname {
		insert(name, obj)
	}
	for name, obj := range s.generated {
		if !declared[name] {
			scope.Insert(obj)
		}
	}
	for name, e := range s.entries {
		if n, ok := s.yname[e.obj]; ok && n != name {
			// A versioned type has its name as an alias; a name that the
			// interpreter has as an import has none.
			if _, isType := e.obj.(*types.TypeName); !isType || s.imported[name] != "" {
				continue
			}
		}
		insert(name, e.obj)
	}
	var errs []string
	conf := types.Config{Importer: s.u, Error: func(err error) {
		e := err.(types.Error)
		// The planner keys the literals of types of earlier cells (see
		// cell.keyLiterals); the generated code need not.
		if !strings.HasSuffix(e.Msg, "not used") && !strings.HasPrefix(e.Msg, "declared and not used") &&
			!strings.HasPrefix(e.Msg, "implicit assignment to unexported field") {
			errs = append(errs, e.Error())
		}
	}}
	func() {
		defer func() {
			if r := recover(); r != nil {
				errs = append(errs, fmt.Sprint("type checker panic: ", r))
			}
		}()
		for _, f := range files {
			defer parenEarlierTypes(f.Decls, scope)()
		}
		types.NewChecker(&conf, fset, pkg, nil).Files(files)
	}()
	if len(errs) > 0 {
		return fmt.Errorf("generated code does not type-check:\n%s\n%s", strings.Join(errs, "\n"), dump(p))
	}
	return nil
}
