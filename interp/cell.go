package interp

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"reflect"
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
	s.uncertain = nil
	defer func() { s.uncertain = nil }()
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
				b := &ast.BlockStmt{Lbrace: root, List: []ast.Stmt{a}}
				prog, err := s.compile(b)
				if err != nil {
					if last {
						return err
					}
					left = append(left, pendingDecl{assign: a})
					continue
				}
				if err := s.execNode(b, prog); err != nil {
					return err
				}
			}
		}
	}
	s.pending = left
	return nil
}

// Line numbers of the interpreter's source encode the cell: line l of the
// session's n-th cell is line firstLine + (n mod cellsWrap)*lineBase + l.
// go/token allows lines up to 1<<30, so the cell number wraps around after
// cellsWrap cells (a long-lived kernel runs more), and a cell longer than
// lineBase lines reports positions past that in the next cell's numbers.
const (
	lineBase  = 10000
	firstLine = 100000000
	cellsWrap = 90000
)

// cellLine returns the interpreter's line number of line l of cell n.
func cellLine(n, l int) int { return firstLine + (n%cellsWrap)*lineBase + l }

// source assembles chunks into Go source whose //line comments give every
// chunk its position in cell number cell (see lineBase). The file name
// stays yaegi's default: yaegi looks imported packages up by the file name of
// the code that uses them.
func source(prefix string, cell int, code string, chunks []chunk, suffix string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, c := range chunks {
		fmt.Fprintf(&b, "\n//line %s:%d:%d\n", yaegi.DefaultSourceName, cellLine(cell, c.line), c.col)
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
	if !s.known[p] {
		// Not a package the interpreter has: a module's (modules.go).
		if err := s.importModule(p); err != nil {
			return err
		}
	}
	local := name
	if local == "" {
		local = packageName(p)
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
			// The variable's type leaves the parameter names out: yaegi
			// takes a name that is also a global variable for a
			// dependency of the declaration ("variable definition loop").
			typ := unnamedParams(d.Type)
			sig := nodeString(typ)
			if s.funcs[name] != sig || newFuncs[name] != "" {
				kept = append(kept, &ast.GenDecl{TokPos: d.Pos(), Tok: token.VAR, Specs: []ast.Spec{
					&ast.ValueSpec{Names: []*ast.Ident{ident(name, d.Name.Pos())}, Type: typ},
				}})
			}
			newFuncs[name] = sig
			s.cellDocs[name] = funcHeader(d) + docText(d.Doc)
			s.funcAt[s.yi.FileSet().Position(d.Body.Lbrace).String()] = name
			assigns = append(assigns, &ast.AssignStmt{
				Lhs: []ast.Expr{ident(name, d.Name.Pos())}, TokPos: d.Pos(), Tok: token.ASSIGN,
				Rhs: []ast.Expr{&ast.FuncLit{Type: d.Type, Body: d.Body}},
			})
		case *ast.GenDecl:
			if d.Tok == token.TYPE {
				s.noteTypes(d)
				s.versionTypes(d)
			}
			kept = append(kept, d)
		default:
			kept = append(kept, d)
		}
	}
	// Methods whose bodies use names that the cell's statements define
	// wait for them; the others are declared with the types (yaegi gets
	// conversions to a type wrong when its methods come in a later
	// compilation of the same cell).
	known := s.knownNames(f)
	for _, m := range methods {
		if undefinedIn(m, known) != nil {
			s.pending = append(s.pending, pendingDecl{method: m})
		} else {
			kept = append(kept, m)
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
	for _, a := range assigns {
		s.pending = append(s.pending, pendingDecl{assign: a})
	}
	return nil
}

// unnamedParams returns a copy of a function type without parameter and
// result names.
func unnamedParams(t *ast.FuncType) *ast.FuncType {
	strip := func(l *ast.FieldList) *ast.FieldList {
		if l == nil {
			return nil
		}
		out := &ast.FieldList{Opening: l.Opening, Closing: l.Closing}
		for _, f := range l.List {
			n := max(len(f.Names), 1)
			for range n {
				out.List = append(out.List, &ast.Field{Type: f.Type})
			}
		}
		return out
	}
	return &ast.FuncType{Func: t.Func, Params: strip(t.Params), Results: strip(t.Results)}
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
		return
	}
	s.methods[key] = true
	s.cellDocs[key] = funcHeader(d) + docText(d.Doc)
}

// noteTypes records the declarations and doc comments of a type
// declaration, for Inspect.
func (s *Session) noteTypes(d *ast.GenDecl) {
	for _, sp := range d.Specs {
		ts := sp.(*ast.TypeSpec)
		doc := ts.Doc
		if doc == nil && len(d.Specs) == 1 {
			doc = d.Doc
		}
		s.cellDocs[ts.Name.Name] = "type " + ts.Name.Name + " " + nodeString(ts.Type) + docText(doc)
	}
}

// funcHeader prints a function declaration without its body.
func funcHeader(d *ast.FuncDecl) string {
	return nodeString(&ast.FuncDecl{Recv: d.Recv, Name: d.Name, Type: d.Type})
}

// docText returns "\n\n" and the text of a doc comment, or "".
func docText(g *ast.CommentGroup) string {
	if t := strings.TrimSpace(g.Text()); t != "" {
		return "\n\n" + t
	}
	return ""
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
// results, operands) in the global frame for as long as the session lives,
// and gives a variable a new slot each time "x := e" runs again: a cell that
// makes a large tensor would keep every tensor it ever made. So statements
// run inside a function literal, whose frame goes away when it returns, and
// definitions assign to the variables they define from there (see define).
func (s *Session) runStmt(st ast.Stmt) error {
	switch st := st.(type) {
	case *ast.EmptyStmt:
		return nil
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE {
			var names []*ast.Ident
			for _, l := range st.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					_, err := s.run(s.block(st)) // let yaegi say what is wrong
					return err
				}
				names = append(names, id)
			}
			return s.define(st, names, nil, st.Rhs)
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
			if err := s.define(decl, vs.Names, vs.Type, vs.Values); err != nil {
				return err
			}
		}
		return nil
	}
	_, err := s.run(s.block(inFunc(st)))
	return err
}

// define runs st, the definition "names := values" or the declaration
// "var names typ = values", in a way that neither keeps its values in
// yaegi's global frame nor gives a variable that already has the type st
// gives it a new slot:
//
//	func() { _gtv0, _gtv1 := values; x, y = _gtv0, _gtv1 }()
//
// Variables that do not exist yet, or whose type changes, are declared
// first by compiling st without running it. Reusing the slot also means
// that functions compiled before see the new value, as in a notebook.
func (s *Session) define(st ast.Stmt, names []*ast.Ident, typ ast.Expr, values []ast.Expr) error {
	pos := st.Pos()
	globals := s.yaegiGlobals()
	tmps := make([]*ast.Ident, len(names))
	var lhs, rhs []ast.Expr
	var probe []ast.Stmt
	for i, n := range names {
		if n.Name == "_" {
			tmps[i] = ident("_", n.Pos())
			continue
		}
		tmps[i] = ident("_gtv"+strconv.Itoa(i), n.Pos())
		lhs = append(lhs, n)
		rhs = append(rhs, tmps[i])
		if _, ok := globals[n.Name]; ok {
			// _gtpI := &_gtvI; _gtpI = &x: compiles only when the types
			// are identical.
			p := ident("_gtp"+strconv.Itoa(i), pos)
			probe = append(probe,
				&ast.AssignStmt{Lhs: []ast.Expr{p}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{&ast.UnaryExpr{OpPos: pos, Op: token.AND, X: tmps[i]}}},
				&ast.AssignStmt{Lhs: []ast.Expr{p}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{&ast.UnaryExpr{OpPos: pos, Op: token.AND, X: n}}},
				&ast.AssignStmt{Lhs: []ast.Expr{ident("_", pos)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{p}})
		}
	}
	var decl ast.Stmt
	if _, isVar := st.(*ast.DeclStmt); isVar {
		decl = &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Specs: []ast.Spec{
			&ast.ValueSpec{Names: tmps, Type: typ, Values: values}}}}
	} else {
		var l []ast.Expr
		for _, t := range tmps {
			l = append(l, t)
		}
		decl = &ast.AssignStmt{Lhs: l, TokPos: pos, Tok: token.DEFINE, Rhs: values}
	}
	reuse := false
	if len(probe) > 0 {
		_, err := s.compile(s.block(funcLit(pos, append([]ast.Stmt{decl}, probe...)...)))
		reuse = err == nil
	}
	// Declare the variables that need a slot.
	fresh := make([]*ast.Ident, len(names))
	anyFresh := false
	for i, n := range names {
		fresh[i] = n
		if _, ok := globals[n.Name]; n.Name == "_" || (ok && reuse) {
			fresh[i] = ident("_", n.Pos())
			continue
		}
		anyFresh = true
	}
	if anyFresh {
		_, isVar := st.(*ast.DeclStmt)
		if !reuse && assignsToSelf(lhs, values) {
			return s.defineViaTemps(pos, names, typ, values, isVar)
		}
		if err := s.declare(pos, fresh, typ, values, isVar); err != nil {
			return err
		}
	}
	body := []ast.Stmt{decl}
	if len(lhs) > 0 {
		body = append(body, &ast.AssignStmt{Lhs: lhs, TokPos: pos, Tok: token.ASSIGN, Rhs: rhs})
	}
	_, err := s.run(s.block(funcLit(pos, body...)))
	return err
}

// declare declares the global variables names (blank ones excepted) with
// the types that "names := values" or "var names typ = values" would give
// them, by compiling that without running it.
func (s *Session) declare(pos token.Pos, names []*ast.Ident, typ ast.Expr, values []ast.Expr, isVar bool) error {
	var sts []ast.Stmt
	values = append([]ast.Expr(nil), values...)
	for i, v := range values {
		if c, ok := v.(*ast.CallExpr); ok && len(c.Args) > 0 {
			if id, ok := c.Fun.(*ast.Ident); ok && (id.Name == minName || id.Name == maxName) {
				// yaegi cannot define a variable from a generic call at
				// the top level; min and max have the type of their
				// first argument (see rewriter.builtin).
				values[i] = c.Args[0]
			}
		}
	}
	if commaOK(names, values) {
		// yaegi v0.16.1 panics on "v, ok := m[k]" at the top level:
		// declare "v := m[k]" and "ok := false" instead.
		for i, v := range []ast.Expr{values[0], ident("false", pos)} {
			if names[i].Name != "_" {
				sts = append(sts, &ast.AssignStmt{Lhs: []ast.Expr{names[i]}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{v}})
			}
		}
	} else if isVar {
		sts = append(sts, &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Specs: []ast.Spec{
			&ast.ValueSpec{Names: names, Type: typ, Values: values}}}})
	} else {
		var l []ast.Expr
		for _, n := range names {
			l = append(l, n)
		}
		sts = append(sts, &ast.AssignStmt{Lhs: l, TokPos: pos, Tok: token.DEFINE, Rhs: values})
	}
	_, err := s.compile(s.block(sts...))
	return err
}

// commaOK reports whether "names := values" is a comma-ok form: a map
// index, a type assertion or a channel receive giving two values.
func commaOK(names []*ast.Ident, values []ast.Expr) bool {
	if len(names) != 2 || len(values) != 1 {
		return false
	}
	switch v := ast.Unparen(values[0]).(type) {
	case *ast.IndexExpr, *ast.TypeAssertExpr:
		return true
	case *ast.UnaryExpr:
		return v.Op == token.ARROW
	}
	return false
}

// defineViaTemps runs "names := values" where values use names and the
// definition changes their types, as in "t := t.Sum()": declaring t first
// would change what values mean. It defines fresh variables from values,
// then names from those, and clears the fresh ones.
func (s *Session) defineViaTemps(pos token.Pos, names []*ast.Ident, typ ast.Expr, values []ast.Expr, isVar bool) error {
	s.temps++
	tmps := make([]*ast.Ident, len(names))
	var vals []ast.Expr
	for i, n := range names {
		tmps[i] = ident("_", n.Pos())
		if n.Name != "_" {
			tmps[i] = ident(fmt.Sprintf("_gtt%d_%d", s.temps, i), n.Pos())
		}
		vals = append(vals, tmps[i])
	}
	var first, second ast.Stmt
	if isVar {
		first = &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{Names: tmps, Type: typ, Values: values}}}}
		second = &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{Names: names, Type: typ, Values: vals}}}}
	} else {
		var l, l2 []ast.Expr
		for i := range names {
			l = append(l, tmps[i])
			l2 = append(l2, names[i])
		}
		first = &ast.AssignStmt{Lhs: l, TokPos: pos, Tok: token.DEFINE, Rhs: values}
		second = &ast.AssignStmt{Lhs: l2, TokPos: pos, Tok: token.DEFINE, Rhs: vals}
	}
	if err := s.define(first, tmps, typ, values); err != nil {
		return err
	}
	var nonBlank []*ast.Ident
	var nbVals []ast.Expr
	for i, n := range names {
		if n.Name != "_" {
			nonBlank = append(nonBlank, n)
			nbVals = append(nbVals, vals[i])
		}
	}
	if isVar {
		second = &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{Names: nonBlank, Type: typ, Values: nbVals}}}}
	} else {
		var l []ast.Expr
		for _, n := range nonBlank {
			l = append(l, n)
		}
		second = &ast.AssignStmt{Lhs: l, TokPos: pos, Tok: token.DEFINE, Rhs: nbVals}
	}
	err := s.define(second, nonBlank, typ, nbVals)
	// Let the fresh variables go of their values.
	g := s.yaegiGlobals()
	for _, t := range tmps {
		if v, ok := g[t.Name]; ok && v.CanSet() {
			v.Set(reflect.Zero(v.Type()))
		}
	}
	return err
}

// assignsToSelf reports whether rhs mentions one of the names in lhs, as in
// "x := x.Sum()".
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
func inFunc(st ast.Stmt) ast.Stmt { return funcLit(st.Pos(), st) }

// funcLit returns "func() { sts }()", positioned at pos.
func funcLit(pos token.Pos, sts ...ast.Stmt) ast.Stmt {
	return &ast.ExprStmt{X: &ast.CallExpr{Lparen: pos, Rparen: pos, Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: sts},
	}}}
}

// runLast runs the cell's last expression statement and returns its value's
// bundle when it has exactly one value. The value goes through a variable,
// lastName, defined like any other (see define), so that the interpreter
// can be asked for its display methods (see richMethods).
func (s *Session) runLast(es *ast.ExprStmt) (*display.Bundle, error) {
	pos := es.Pos()
	probe := &ast.ExprStmt{X: &ast.CallExpr{Fun: sel(rtName, "Result", pos), Lparen: pos, Rparen: es.End(), Args: []ast.Expr{es.X}}}
	if _, err := s.compile(s.block(inFunc(probe))); err != nil {
		// No value, or several: run the statement as it is.
		if _, err := s.run(s.block(inFunc(es))); err != nil {
			return nil, err
		}
		return nil, nil
	}
	def := &ast.AssignStmt{Lhs: []ast.Expr{ident(lastName, pos)}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{es.X}}
	if _, err := s.compile(s.block(def)); err != nil {
		// yaegi cannot define some values at the top level (calls of
		// generic functions): hand the value over directly.
		s.result, s.hasResult = nil, false
		if _, err := s.run(s.block(inFunc(probe))); err != nil {
			return nil, err
		}
		x := s.result
		s.result, s.hasResult = nil, false
		b := s.render(x)
		return &b, nil
	}
	if err := s.define(def, []*ast.Ident{ident(lastName, pos)}, nil, def.Rhs); err != nil {
		return nil, err
	}
	v, ok := s.yaegiGlobals()[lastName]
	if !ok || !v.IsValid() {
		return nil, nil
	}
	defer func() {
		if v.CanSet() {
			v.Set(reflect.Zero(v.Type())) // let the value go
		}
		s.rich = nil
	}()
	s.rich = nil
	if err := s.richMethods(v); err != nil {
		return nil, err
	}
	var x any
	if v.CanInterface() {
		x = v.Interface()
	}
	b := s.render(x)
	return &b, nil
}

// rewriter returns a rewriter that knows the session's integer globals.
func (s *Session) rewriter() *rewriter {
	globals := s.yaegiGlobals()
	return &rewriter{ints: func(name string) bool {
		v, ok := globals[name]
		return ok && v.IsValid() && isIntKind(v)
	}, uncertain: func(r *ast.RangeStmt) {
		s.uncertain = append(s.uncertain, r)
	}}
}

// run compiles and executes n.
func (s *Session) run(n ast.Node) (any, error) {
	prog, err := s.compile(n)
	if err != nil {
		return nil, err
	}
	return nil, s.execNode(n, prog)
}

// execNode executes prog, compiled from n.
func (s *Session) execNode(n ast.Node, prog *yaegi.Program) error {
	err := s.exec(prog)
	var e *Error
	if errors.As(err, &e) && e.Name == "Error" && strings.Contains(e.Value, "definition loop") {
		// yaegi finds some ranges over integers wrong only when it
		// generates the code to run, before running anything: see
		// compile.
		if found := s.uncertainIn(n); len(found) > 0 {
			for _, r := range found {
				rangeInt(r)
			}
			if prog, err2 := s.compile1(n); err2 == nil {
				return s.exec(prog)
			}
		}
	}
	return err
}

// uncertainIn returns the range statements of n that may be over
// integers (see compile).
func (s *Session) uncertainIn(n ast.Node) []*ast.RangeStmt {
	if len(s.uncertain) == 0 {
		return nil
	}
	in := map[*ast.RangeStmt]bool{}
	for _, r := range s.uncertain {
		in[r] = true
	}
	var found []*ast.RangeStmt
	ast.Inspect(n, func(n ast.Node) bool {
		if r, ok := n.(*ast.RangeStmt); ok && in[r] {
			found = append(found, r)
		}
		return true
	})
	return found
}

// compile compiles n, turning yaegi's own panics into compile errors.
//
// yaegi v0.16.1 cannot range over an integer; the rewriter turns the
// ranges that are visibly over integers into ranges over slices, and keeps
// the ones it cannot tell (range c.N, range f()) in s.uncertain. When n
// fails to compile and holds some of those, they are rewritten too and n is
// compiled again; if that fails as well, they are put back and the first
// error is returned.
func (s *Session) compile(n ast.Node) (*yaegi.Program, error) {
	prog, err := s.compile1(n)
	if err == nil || len(s.uncertain) == 0 {
		return prog, err
	}
	found := s.uncertainIn(n)
	if len(found) == 0 {
		return prog, err
	}
	old := make([]ast.Expr, len(found))
	for i, r := range found {
		old[i] = r.X
		rangeInt(r)
	}
	prog2, err2 := s.compile1(n)
	if err2 != nil {
		for i, r := range found {
			r.X = old[i]
		}
		return nil, err
	}
	return prog2, nil
}

// compile1 compiles n once.
func (s *Session) compile1(n ast.Node) (prog *yaegi.Program, err error) {
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
		if isInterrupt(p.Value) || interrupting.Load() {
			return interruptedError()
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
