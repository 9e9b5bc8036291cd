package interp

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"path"
	"strconv"
	"strings"

	yaegi "github.com/traefik/yaegi/interp"

	"github.com/gotensor/gotensor/display"
)

// runCell runs a cell: its magic lines, if any, and its Go code.
func (s *Session) runCell(code string) (*display.Bundle, error) {
	for _, line := range strings.Split(code, "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "%") || strings.HasPrefix(l, "!") {
			return s.runMagics(code)
		}
	}
	return s.runGo(code)
}

// runGo runs Go code in the order a reader expects: its imports first,
// then its declarations (types, constants, functions and methods, which may
// refer to each other in any order), then its statements and variable
// declarations one by one, in the order written. Functions and methods whose
// bodies use variables that the statements define are compiled as soon as
// those variables exist. A last expression statement of one value becomes
// the result.
func (s *Session) runGo(code string) (*display.Bundle, error) {
	file := s.cells
	chunks := splitCell(code)
	var decls, stmts []chunk
	for _, c := range chunks {
		switch c.kind {
		case chunkImport:
			if err := s.runImport(file, code, c); err != nil {
				return nil, err
			}
		case chunkDecl, chunkFunc:
			decls = append(decls, c)
		default:
			stmts = append(stmts, c)
		}
	}
	s.pending = nil
	if len(decls) > 0 {
		if err := s.runDecls(file, code, decls); err != nil {
			s.pending = nil
			return nil, err
		}
	}
	if len(stmts) == 0 {
		return nil, s.runPending(true)
	}
	b, err := s.runStmts(file, code, stmts)
	s.pending = nil
	return b, err
}

// pendingDecl is a function or method of the running cell that waits for
// the variables its body uses.
type pendingDecl struct {
	assign ast.Stmt      // "f = func(...) {...}" for a top-level function
	method *ast.FuncDecl // a method declaration
}

// runPending compiles the cell's waiting methods and assigns its functions
// to their variables. Methods whose bodies name what does not exist yet,
// and functions that fail to compile, keep waiting; with last set, they are
// compiled anyway and a failure is an error.
func (s *Session) runPending(last bool) error {
	if len(s.pending) == 0 {
		return nil
	}
	root := s.root
	var left []pendingDecl
	var assigns []ast.Stmt
	for _, p := range s.pending {
		switch {
		case p.method != nil && !last && s.undefinedIn(p.method) != nil:
			left = append(left, p)
		case p.method != nil:
			f := &ast.File{Package: root, Name: ident("main", root), Decls: []ast.Decl{p.method}}
			if _, err := s.run(f); err != nil {
				return err
			}
		default:
			assigns = append(assigns, p.assign)
		}
	}
	if len(assigns) > 0 {
		if _, err := s.run(&ast.BlockStmt{Lbrace: root, List: assigns}); err != nil {
			for _, a := range assigns {
				prog, err := s.compile(&ast.BlockStmt{Lbrace: root, List: []ast.Stmt{a}})
				if err != nil {
					if last {
						return err
					}
					left = append(left, pendingDecl{assign: a})
					continue
				}
				if err := s.exec(prog); err != nil {
					return err
				}
			}
		}
	}
	s.pending = left
	return nil
}

// lineBase spaces the line numbers of successive cells: line l of the
// session's n-th cell is line n*lineBase+l of the interpreter's source.
const lineBase = 1000000

// source assembles chunks into Go source whose //line comments give every
// chunk its position in cell number cell (see lineBase). The file name
// stays yaegi's default: yaegi looks imported packages up by the file name of
// the code that uses them.
func source(prefix string, cell int, code string, chunks []chunk, suffix string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, c := range chunks {
		fmt.Fprintf(&b, "\n//line %s:%d:%d\n", yaegi.DefaultSourceName, cell*lineBase+c.line, c.col)
		b.WriteString(code[c.start:c.end])
		b.WriteString("\n")
	}
	b.WriteString(suffix)
	return b.String()
}

// parse parses src under yaegi's default file name, which is the scope that
// session imports live in.
func (s *Session) parse(src string) (*ast.File, error) {
	f, err := parseFile(s.yi.FileSet(), src)
	if err != nil {
		return nil, s.compileError(err)
	}
	return f, nil
}

// parseFile parses src as yaegi's default source file.
func parseFile(fset *token.FileSet, src string) (*ast.File, error) {
	return parser.ParseFile(fset, yaegi.DefaultSourceName, src, parser.ParseComments)
}

// runImport imports the packages of an import declaration, skipping those
// the session already has under the same name.
func (s *Session) runImport(file int, code string, c chunk) error {
	f, err := s.parse(source("package main", file, code, []chunk{c}, ""))
	if err != nil {
		return err
	}
	for _, spec := range f.Imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		name := ""
		if spec.Name != nil {
			name = spec.Name.Name
		}
		if err := s.importPath(name, p); err != nil {
			pos := s.yi.FileSet().Position(spec.Pos())
			msg := fmt.Sprintf("%s:%d:%d: cannot import %q: %v", pos.Filename, pos.Line, pos.Column, p, err)
			return s.compileError(fmt.Errorf("%s", msg))
		}
	}
	return nil
}

// importPath imports p as name ("" for the package's own name).
func (s *Session) importPath(name, p string) error {
	local := name
	if local == "" {
		local = path.Base(p)
	}
	if local != "_" && local != "." && s.imports[local] == p {
		return nil
	}
	src := "import " + name + " " + strconv.Quote(p)
	if _, err := s.yi.Eval(src); err != nil {
		return err
	}
	if local != "_" && local != "." {
		s.imports[local] = p
	}
	return nil
}

// runDecls declares the cell's types, constants, variables, functions and
// methods.
//
// A top-level function f becomes a variable of its function type, assigned
// after the declarations: "var f func(...)" then "f = func(...) {...}".
// Redefining f assigns the variable again, so functions compiled earlier
// call the new definition (yaegi binds a function declaration once).
//
// A redefined type T is declared under a fresh name, T_gt2, and T becomes an
// alias of it: methods declared with it attach to the new definition, and
// values made before keep the old one.
func (s *Session) runDecls(file int, code string, decls []chunk) error {
	f, err := s.parse(source("package main", file, code, decls, ""))
	if err != nil {
		return err
	}
	s.root = f.Package
	r := s.rewriter()
	r.rewrite(f)
	var assigns []ast.Stmt
	var methods []*ast.FuncDecl
	var kept []ast.Decl
	newFuncs := map[string]string{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil {
				s.noteMethod(f, d)
				methods = append(methods, d)
				continue
			}
			if d.Type.TypeParams != nil || name == "main" || name == "init" || name == "_" {
				kept = append(kept, d)
				continue
			}
			sig := nodeString(d.Type)
			if s.funcs[name] != sig || newFuncs[name] != "" {
				kept = append(kept, &ast.GenDecl{TokPos: d.Pos(), Tok: token.VAR, Specs: []ast.Spec{
					&ast.ValueSpec{Names: []*ast.Ident{ident(name, d.Name.Pos())}, Type: d.Type},
				}})
			}
			newFuncs[name] = sig
			s.funcAt[s.yi.FileSet().Position(d.Body.Lbrace).String()] = name
			assigns = append(assigns, &ast.AssignStmt{
				Lhs: []ast.Expr{ident(name, d.Name.Pos())}, TokPos: d.Pos(), Tok: token.ASSIGN,
				Rhs: []ast.Expr{&ast.FuncLit{Type: d.Type, Body: d.Body}},
			})
		case *ast.GenDecl:
			if d.Tok == token.TYPE {
				s.versionTypes(d)
			}
			kept = append(kept, d)
		default:
			kept = append(kept, d)
		}
	}
	f.Decls = kept
	if len(kept) > 0 {
		if _, err := s.run(f); err != nil {
			return err
		}
	}
	for name, sig := range newFuncs {
		s.funcs[name] = sig
	}
	// Methods whose bodies use names that the cell's statements define
	// wait for them; the others are declared now, together, so that they
	// may call each other.
	var now []ast.Decl
	for _, m := range methods {
		if s.undefinedIn(m) != nil {
			s.pending = append(s.pending, pendingDecl{method: m})
		} else {
			now = append(now, m)
		}
	}
	if len(now) > 0 {
		if _, err := s.run(&ast.File{Package: f.Package, Name: f.Name, Decls: now}); err != nil {
			return err
		}
	}
	for _, a := range assigns {
		s.pending = append(s.pending, pendingDecl{assign: a})
	}
	return nil
}

// noteMethod records a method declaration and warns when it redefines a
// method of a type that this cell does not redefine: yaegi keeps the first
// definition of a method.
func (s *Session) noteMethod(f *ast.File, d *ast.FuncDecl) {
	if len(d.Recv.List) == 0 {
		return
	}
	t := d.Recv.List[0].Type
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	id, ok := t.(*ast.Ident)
	if !ok {
		return
	}
	key := id.Name + "." + d.Name.Name
	if s.methods[key] && !declaresType(f, id.Name) {
		fmt.Fprintf(s.stderr, "interp: warning: method %s is already defined and keeps its first definition; run the cell that declares type %s again together with the new method\n", key, id.Name)
	}
	s.methods[key] = true
}

// declaresType reports whether f declares type name.
func declaresType(f *ast.File, name string) bool {
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
			for _, sp := range g.Specs {
				if sp.(*ast.TypeSpec).Name.Name == name {
					return true
				}
			}
		}
	}
	return false
}

// versionTypes renames the redefined types of a type declaration and makes
// their names aliases of the new versions.
func (s *Session) versionTypes(d *ast.GenDecl) {
	var aliases []ast.Spec
	for _, sp := range d.Specs {
		ts := sp.(*ast.TypeSpec)
		name := ts.Name.Name
		if ts.Assign.IsValid() || ts.TypeParams != nil || name == "_" {
			continue
		}
		n := s.types[name]
		s.types[name] = n + 1
		if n == 0 {
			continue
		}
		for key := range s.methods {
			if strings.HasPrefix(key, name+".") {
				delete(s.methods, key) // the new version has no methods yet
			}
		}
		version := name + "_gt" + strconv.Itoa(n+1)
		pos := ts.Name.Pos()
		ts.Name = ident(version, pos)
		aliases = append(aliases, &ast.TypeSpec{Name: ident(name, pos), Assign: pos, Type: ident(version, pos)})
		fmt.Fprintf(s.stderr, "interp: warning: type %s is redefined; values made before this cell keep the old definition and its methods\n", name)
	}
	d.Specs = append(d.Specs, aliases...)
	if len(d.Specs) > 1 && !d.Lparen.IsValid() {
		d.Lparen, d.Rparen = d.Pos(), d.Pos()
	}
}

// runStmts runs the cell's statements one at a time, so that a panic points
// at its statement; a last expression statement yielding one value becomes
// the cell's result.
func (s *Session) runStmts(file int, code string, stmts []chunk) (*display.Bundle, error) {
	f, err := s.parse(source("package main\nfunc _() {", file, code, stmts, "}"))
	if err != nil {
		return nil, err
	}
	s.root = f.Package
	body := f.Decls[len(f.Decls)-1].(*ast.FuncDecl).Body
	r := s.rewriter()
	r.rewrite(body)
	list := body.List
	s.result, s.hasResult = nil, false
	for i, st := range list {
		if err := s.runPending(false); err != nil {
			return nil, err
		}
		s.stmtPos = s.yi.FileSet().Position(st.Pos())
		if es, ok := st.(*ast.ExprStmt); ok && i == len(list)-1 {
			b, err := s.runLast(es)
			if err == nil {
				err = s.runPending(true)
			}
			return b, err
		}
		if err := s.runStmt(st); err != nil {
			return nil, err
		}
	}
	return nil, s.runPending(true)
}

// runStmt runs one top-level statement of a cell.
//
// yaegi keeps the temporary values of code compiled at the top level (call
// results, operands) in the global frame for as long as the session lives:
// a cell that makes a large tensor would keep every tensor it ever made. So
// a statement runs inside a function literal, whose frame goes away when
// it returns, and "x := e" (or "var x = e") is compiled without being run,
// which declares x with the type of e, and then runs as "x = e" inside a
// function literal.
func (s *Session) runStmt(st ast.Stmt) error {
	switch st := st.(type) {
	case *ast.EmptyStmt:
		return nil
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE {
			if !assignsToSelf(st.Lhs, st.Rhs) {
				return s.define(st, st.Lhs, st.Rhs)
			}
			_, err := s.run(s.block(st)) // yaegi's own definition
			return err
		}
	case *ast.DeclStmt:
		g, ok := st.Decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			_, err := s.run(s.block(st))
			return err
		}
		for _, sp := range g.Specs {
			vs := sp.(*ast.ValueSpec)
			decl := &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: g.TokPos, Tok: token.VAR, Specs: []ast.Spec{vs}}}
			var lhs []ast.Expr
			for _, n := range vs.Names {
				lhs = append(lhs, n)
			}
			var err error
			if len(vs.Values) == 0 || assignsToSelf(lhs, vs.Values) {
				_, err = s.run(s.block(decl))
			} else {
				err = s.define(decl, lhs, vs.Values)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	_, err := s.run(s.block(inFunc(st)))
	return err
}

// define declares the variables of decl, a definition or a var
// declaration of lhs from rhs, without running it, then runs "lhs = rhs"
// in a function literal (see runStmt).
func (s *Session) define(decl ast.Stmt, lhs, rhs []ast.Expr) error {
	if _, err := s.compile(s.block(decl)); err != nil {
		return err
	}
	assign := &ast.AssignStmt{Lhs: lhs, TokPos: decl.Pos(), Tok: token.ASSIGN, Rhs: rhs}
	_, err := s.run(s.block(inFunc(assign)))
	return err
}

// assignsToSelf reports whether rhs mentions one of the names in lhs, as in
// "x := x.Sum()": declaring x first would change what rhs means.
func assignsToSelf(lhs, rhs []ast.Expr) bool {
	names := map[string]bool{}
	for _, l := range lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
			names[id.Name] = true
		}
	}
	found := false
	for _, r := range rhs {
		ast.Inspect(r, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				ast.Inspect(n.X, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok && names[id.Name] {
						found = true
					}
					return !found
				})
				return false
			case *ast.Ident:
				if names[n.Name] {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// block returns the top-level block that holds sts. It starts at the
// session's root, a position in the file's header: yaegi looks imports up
// by the file name of the root's position, which the //line comments would
// change.
func (s *Session) block(sts ...ast.Stmt) *ast.BlockStmt {
	return &ast.BlockStmt{Lbrace: s.root, List: sts}
}

// inFunc returns "func() { st }()", positioned at st.
func inFunc(st ast.Stmt) ast.Stmt {
	pos := st.Pos()
	return &ast.ExprStmt{X: &ast.CallExpr{Lparen: pos, Rparen: pos, Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: st.End(), List: []ast.Stmt{st}},
	}}}
}

// runLast runs the cell's last expression statement and returns its value's
// bundle when it has exactly one value.
func (s *Session) runLast(es *ast.ExprStmt) (*display.Bundle, error) {
	pos := es.Pos()
	probe := &ast.ExprStmt{X: &ast.CallExpr{Fun: sel(rtName, "Result", pos), Lparen: pos, Rparen: es.End(), Args: []ast.Expr{es.X}}}
	_, err := s.compile(s.block(inFunc(probe)))
	var prog *yaegi.Program
	if err == nil {
		var wrapped ast.Stmt
		if wrapped, err = s.lastValue(es.X); err == nil {
			prog, err = s.compile(s.block(wrapped))
		}
	}
	s.rich = nil
	if err != nil {
		// No value, or several: run the statement as it is.
		if _, err := s.run(s.block(inFunc(es))); err != nil {
			return nil, err
		}
		return nil, nil
	}
	if err := s.exec(prog); err != nil {
		return nil, err
	}
	if !s.hasResult {
		return nil, nil
	}
	v := s.result
	s.result, s.hasResult = nil, false
	b := s.render(v)
	return &b, nil
}

// rewriter returns a rewriter that knows the session's integer globals.
func (s *Session) rewriter() *rewriter {
	globals := s.yaegiGlobals()
	return &rewriter{ints: func(name string) bool {
		v, ok := globals[name]
		return ok && v.IsValid() && isIntKind(v)
	}}
}

// run compiles and executes n.
func (s *Session) run(n ast.Node) (any, error) {
	prog, err := s.compile(n)
	if err != nil {
		return nil, err
	}
	return nil, s.exec(prog)
}

// compile compiles n, turning yaegi's own panics into compile errors.
func (s *Session) compile(n ast.Node) (prog *yaegi.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			prog = nil
			err = &Error{
				Name:      "CompileError",
				Value:     fmt.Sprintf("the interpreter cannot compile this code (%v); see the README for Go features cells do not support", r),
				Traceback: []string{fmt.Sprintf("CompileError: the interpreter cannot compile this code (%v)", r)},
			}
		}
	}()
	prog, err = s.yi.CompileAST(n)
	if err != nil {
		if strings.Contains(err.Error(), "constant definition loop") {
			if id := s.undefinedIn(n); id != nil {
				p := s.yi.FileSet().Position(id.Pos())
				err = fmt.Errorf("%d:%d: undefined: %s", p.Line, p.Column, id.Name)
			}
		}
		return nil, s.compileError(err)
	}
	return prog, nil
}

// exec executes a compiled program and turns a panic into an *Error.
func (s *Session) exec(prog *yaegi.Program) error {
	s.traceMu.Lock()
	s.trace = s.trace[:0]
	s.traceMu.Unlock()
	_, err := s.yi.Execute(prog)
	if err == nil {
		return nil
	}
	if p, ok := err.(yaegi.Panic); ok {
		if _, stopped := p.Value.(interruptSignal); stopped || interrupting.Load() {
			return &Error{Name: "Interrupted", Value: "the cell was interrupted", Traceback: []string{"Interrupted: the cell was interrupted"}}
		}
		return s.panicError(p.Value)
	}
	return &Error{Name: "Error", Value: s.cellPositions(err.Error()), Traceback: []string{s.cellPositions(err.Error())}}
}

// nodeString prints an AST node as Go source.
func nodeString(n ast.Node) string {
	var b bytes.Buffer
	printer.Fprint(&b, token.NewFileSet(), n)
	return b.String()
}
