package plan

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// bodyName is the function the check source puts a cell's statements in.
const bodyName = "_gtcell"

// cell is one cell being planned: its source, the check source built from
// it, its syntax and, once checked, its types.
type cell struct {
	s      *Session
	n      int
	src    string
	lines  []int // offsets of the cell's line starts
	pieces []piece
	// text is the check source: the cell's pieces, imports first, then
	// declarations, then the statements in the body of func _gtcell,
	// each after a //line comment that gives its position in the cell.
	text     string
	pieceOff []int // where each piece starts in text (-1: dropped)
	fset     *token.FileSet
	tf       *token.File
	file     *ast.File

	imports []*ast.ImportSpec // the cell's own
	types   []*ast.TypeSpec
	consts  []*ast.ValueSpec
	vars    []*ast.ValueSpec // package-level: a pasted program's
	funcs   []*ast.FuncDecl  // functions, main and init included
	methods []*ast.FuncDecl
	body    *ast.FuncDecl // func _gtcell, the statements
	// earlier maps the methods declared on types of earlier cells to
	// the function that stands for them in the check (see asFunction).
	earlier map[*ast.FuncDecl]*ast.FuncDecl
	// declared holds the package-level names the cell declares.
	declared map[string]bool
	// names holds every identifier of the cell: the session's names the
	// checker may look up.
	names map[string]bool

	pkg     *types.Package
	info    *types.Info
	topVars map[string]*types.Var // the variables the statements define at the top
	// placeholders are the package-level variables that stand for
	// topVars in the bodies of the cell's functions (see check).
	placeholders map[string]*types.Var
	// added lists the methods added to earlier types while checking.
	added []*types.Func

	// inst holds the instances of generic code the cell uses that the
	// session lacks (see mono): their declarations are checked with the
	// cell, after its imports, each under a //line comment of its own.
	inst *mono
	// instDecls maps the declarations of instance code in the file to
	// what they are.
	instDecls map[ast.Decl]*instDecl
}

// parse builds the check source of the cell and parses it.
func (c *cell) parse() error {
	c.lines = lineStarts(c.src)
	c.pieces = splitCell(c.src)
	// A cell with a package clause is a Go file (a pasted program): its
	// var declarations are package-level, initialized in dependency order.
	program := false
	for _, p := range c.pieces {
		program = program || p.kind == piecePackage
	}
	for i, p := range c.pieces {
		if program && p.kind == pieceStmt && p.first == token.VAR {
			c.pieces[i].kind = pieceDecl
		}
	}
	c.pieceOff = make([]int, len(c.pieces))
	used := identNames(c.src)
	var b strings.Builder
	b.WriteString("package main\n")
	var decls []*instDecl
	if c.inst != nil {
		decls = c.inst.decls()
	}
	if len(c.s.imports) > 0 || len(decls) > 0 {
		// The session's imports that the cell may use: the others would
		// cost the checker their import and an "unused" error.
		names := make([]string, 0, len(c.s.imports))
		for name := range c.s.imports {
			// Instance code may call the runtime's compiled instances.
			if used[name] || name == "." || name == rtName && len(decls) > 0 && c.inst.runtime {
				names = append(names, name)
			}
		}
		sort.Strings(names)
		b.WriteString("import (\n")
		for _, name := range names {
			fmt.Fprintf(&b, "\t%s %q\n", name, c.s.imports[name])
		}
		if len(decls) > 0 {
			// The imports instance code uses.
			paths := make([]string, 0, len(c.inst.hidden))
			for p := range c.inst.hidden {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			for _, p := range paths {
				fmt.Fprintf(&b, "\t%s %q\n", c.inst.hidden[p], p)
			}
		}
		b.WriteString(")\n")
	}
	emit := func(kinds ...pieceKind) {
		for i, p := range c.pieces {
			for _, k := range kinds {
				if p.kind == k {
					fmt.Fprintf(&b, "//line cell:%d:%d\n", p.line, p.col)
					c.pieceOff[i] = b.Len()
					b.WriteString(c.src[p.start:p.end])
					b.WriteString("\n")
				}
			}
		}
	}
	for i := range c.pieceOff {
		c.pieceOff[i] = -1
	}
	emit(pieceImport)
	// Instance code, each declaration under a //line comment naming it
	// (see errorAt).
	instStart := b.Len()
	for k, d := range decls {
		fmt.Fprintf(&b, "//line %s%d:%d:%d\n%s\n", instFileName, k, max(d.line, 1), max(d.col, 1), d.text)
	}
	instEnd := b.Len()
	emit(pieceDecl)
	b.WriteString("func " + bodyName + "() {\n")
	emit(pieceStmt)
	// The body's end is the cell's, for "found '}'" at a cell's last
	// line.
	endLine, endCol := c.lineCol(len(c.src))
	fmt.Fprintf(&b, "//line cell:%d:%d\n}\n", endLine, endCol)
	c.text = b.String()

	c.fset = token.NewFileSet()
	f, err := parser.ParseFile(c.fset, "", c.text, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		var list scanner.ErrorList
		if e, ok := err.(scanner.ErrorList); ok {
			list = e
		}
		var out ErrorList
		for _, e := range list {
			out = append(out, c.errorAt(e.Pos, e.Msg))
			if len(out) == 10 {
				break
			}
		}
		if len(out) == 0 {
			out = ErrorList{{Cell: c.n, Msg: err.Error()}}
		}
		return out
	}
	c.file = f
	c.tf = c.fset.File(f.Package)
	c.dedupeImports()
	c.declared = map[string]bool{}
	c.instDecls = map[ast.Decl]*instDecl{}
	for _, d := range f.Decls {
		if off := c.tf.Offset(d.Pos()); off >= instStart && off < instEnd {
			if k := len(c.instDecls); k < len(decls) {
				c.instDecls[d] = decls[k]
			}
			continue
		}
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.ImportSpec:
					if c.inCell(sp.Pos()) {
						c.imports = append(c.imports, sp)
					}
				case *ast.TypeSpec:
					c.types = append(c.types, sp)
					c.declared[sp.Name.Name] = true
				case *ast.ValueSpec:
					if d.Tok == token.VAR {
						c.vars = append(c.vars, sp)
					} else {
						c.consts = append(c.consts, sp)
					}
					for _, n := range sp.Names {
						c.declared[n.Name] = true
					}
				}
			}
		case *ast.FuncDecl:
			switch {
			case d.Name.Name == bodyName && d.Recv == nil && !c.inCell(d.Pos()):
				c.body = d
			case d.Recv != nil:
				c.methods = append(c.methods, d)
			default:
				c.funcs = append(c.funcs, d)
				if d.Name.Name != "init" {
					c.declared[d.Name.Name] = true
				}
			}
		}
	}
	for _, sp := range c.imports {
		c.declared[importName(sp, c.s.u)] = true
	}
	if len(c.instDecls) != len(decls) {
		return ErrorList{{Cell: c.n, Msg: fmt.Sprintf("internal error: %d declarations of instance code, %d expected; please report it", len(c.instDecls), len(decls))}}
	}
	c.names = map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			c.names[id.Name] = true
		}
		return true
	})
	return nil
}

// dedupeImports drops imports that an earlier one of the same name makes
// again (importing twice is harmless in a notebook), and the session's
// imports whose name a cell's import takes.
func (c *cell) dedupeImports() {
	cellNames := map[string]bool{}
	for _, d := range c.file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			for _, sp := range g.Specs {
				if sp := sp.(*ast.ImportSpec); c.inCell(sp.Pos()) {
					cellNames[importName(sp, c.s.u)] = true
				}
			}
		}
	}
	// A name the cell declares at package level takes the place of a
	// session import of that name.
	for _, d := range c.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				cellNames[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					cellNames[sp.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						cellNames[n.Name] = true
					}
				}
			}
		}
	}
	seen := map[string]string{}
	for _, d := range c.file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		kept := g.Specs[:0]
		for _, sp := range g.Specs {
			is := sp.(*ast.ImportSpec)
			name := importName(is, c.s.u)
			path, _ := strconv.Unquote(is.Path.Value)
			if !c.inCell(is.Pos()) && cellNames[name] {
				continue // the cell's import or declaration of the name
			}
			if name != "_" && name != "." {
				if _, dup := seen[name]; dup && seen[name] == path {
					continue
				}
				seen[name] = path
			}
			kept = append(kept, sp)
		}
		g.Specs = kept
	}
}

// identNames returns the identifiers of src.
func identNames(src string) map[string]bool {
	fset := token.NewFileSet()
	var sc scanner.Scanner
	sc.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	names := map[string]bool{}
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			return names
		}
		if tok == token.IDENT {
			names[lit] = true
		}
	}
}

// importName returns the name an import declares.
func importName(sp *ast.ImportSpec, u *Universe) string {
	if sp.Name != nil {
		return sp.Name.Name
	}
	p, _ := strconv.Unquote(sp.Path.Value)
	return u.Name(p)
}

// localKey returns the key of a type the cell declares in a function (see
// Session.objKey): where it is in the cell, the same in every check of
// the cell.
func (c *cell) localKey(tn *types.TypeName) string {
	return fmt.Sprintf("local%d.%s", c.cellOffset(c.tf.Offset(tn.Pos())), tn.Name())
}

// inCell reports whether pos is in the cell's own text, not in what the
// check source adds around it.
func (c *cell) inCell(pos token.Pos) bool {
	return c.pieceAt(c.tf.Offset(pos)) >= 0
}

// pieceAt returns the piece that holds offset off of the check source, or
// -1.
func (c *cell) pieceAt(off int) int {
	for i, p := range c.pieces {
		if o := c.pieceOff[i]; o >= 0 && off >= o && off <= o+p.end-p.start {
			return i
		}
	}
	return -1
}

// cellOffset returns the offset in the cell of offset off of the check
// source, or -1.
func (c *cell) cellOffset(off int) int {
	i := c.pieceAt(off)
	if i < 0 {
		return -1
	}
	return c.pieces[i].start + off - c.pieceOff[i]
}

// lineCol returns the cell line and column (1-based, in bytes) of offset
// off of the cell.
func (c *cell) lineCol(off int) (int, int) {
	i := sort.Search(len(c.lines), func(i int) bool { return c.lines[i] > off }) - 1
	return i + 1, off - c.lines[i] + 1
}

// lineStarts returns the offsets at which the lines of src start.
func lineStarts(src string) []int {
	l := []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			l = append(l, i+1)
		}
	}
	return l
}

// errorAt makes an Error at a position of the check source.
func (c *cell) errorAt(pos token.Position, msg string) Error {
	e := Error{Cell: c.n, Msg: msg}
	if pos.Filename == "cell" {
		e.Line, e.Col = pos.Line, pos.Column
	}
	if k, err := strconv.Atoi(strings.TrimPrefix(pos.Filename, instFileName)); err == nil && strings.HasPrefix(pos.Filename, instFileName) && c.inst != nil {
		if decls := c.inst.decls(); k < len(decls) {
			d := decls[k]
			where := fmt.Sprintf("%s:%d", d.file, pos.Line)
			if d.cell >= 0 {
				where = fmt.Sprintf("declared in cell %d, line %d", d.cell, pos.Line)
			}
			e.Msg = fmt.Sprintf("cannot instantiate %s (%s): %s", d.inst.desc, where, msg)
		}
	}
	return e
}

// check type-checks the cell against the session.
//
// The cell's statements are the body of a function, so they mean what
// they mean in a function body: a name defined at the top (x := 1) is a
// local of that body, seen by the statements after it. The cell's
// declarations are package-level: they may refer to each other in any
// order, and the statements see them wherever they are written.
//
// The functions and methods of the cell may use the variables its
// statements define at the top (they become session variables). Such a
// use is undefined at package level, so a second check renames it to a
// package-level placeholder of the variable's type (see placeholders).
//
// A method on a type from an earlier cell is checked as a function whose
// first parameter is the receiver: go/types cannot declare a method on a
// type it did not declare itself. When the cell uses such a method, it is
// added to the type and the cell is checked again.
func (c *cell) check() error {
	c.earlier = map[*ast.FuncDecl]*ast.FuncDecl{}
	var generic ErrorList
	for _, d := range c.file.Decls {
		m, ok := d.(*ast.FuncDecl)
		if !ok || m.Recv == nil || len(m.Recv.List) != 1 {
			continue
		}
		if _, inst := c.instDecls[m]; inst {
			continue
		}
		if name, isGeneric := recvBase(m.Recv.List[0].Type); isGeneric && !c.declared[name] {
			if _, ok := c.s.entries[name]; ok {
				generic = append(generic, c.errorAt(c.fset.Position(m.Name.Pos()),
					fmt.Sprintf("method %s of %s, a generic type of an earlier cell: the methods of a generic type are declared in the cell that declares the type; add %s to that cell and run it again", m.Name.Name, name, m.Name.Name)))
			}
		}
	}
	if len(generic) > 0 {
		return generic
	}
	for i, d := range c.file.Decls {
		if m, ok := d.(*ast.FuncDecl); ok && m.Recv != nil {
			if fn := c.asFunction(m); fn != nil {
				c.earlier[m] = fn
				c.file.Decls[i] = fn
			}
		}
	}
	defer func() {
		for m, fn := range c.earlier {
			for i, d := range c.file.Decls {
				if d == fn {
					c.file.Decls[i] = m
				}
			}
		}
	}()
	var renamed []*ast.Ident
	var errs ErrorList
	for range 4 {
		var err error
		errs, err = c.checkOnce(renamed)
		if err != nil {
			return err
		}
		c.findTopVars()
		again := false
		if r := c.usesOfTopVars(); len(r) != len(renamed) {
			renamed, again = r, true
		}
		if c.keyLiterals(errs) {
			again = true
		}
		if len(c.earlier) > 0 && len(c.added) == 0 && c.needsNewMethods(errs) {
			c.addEarlierMethods()
			again = len(c.added) > 0
		}
		if !again {
			break
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

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

// checkOnce type-checks the cell's file in a fresh package whose scope
// holds the session's names that the cell uses (less those it declares),
// and the
// placeholders of renamed: identifiers in function bodies that stand for
// top-level variables of the statements, renamed for the check only.
func (c *cell) checkOnce(renamed []*ast.Ident) (errs ErrorList, err error) {
	prev := c.pkg
	c.pkg = types.NewPackage(cellPath, "main")
	// Only the names the cell mentions can be looked up: a scope holding
	// those costs what the cell costs, not what the session does.
	scope := c.pkg.Scope()
	for name := range c.names {
		if e, ok := c.s.entries[name]; ok && !c.declared[name] {
			scope.Insert(e.obj)
		} else if obj, ok := c.s.generated[name]; ok {
			scope.Insert(obj) // instance code of an earlier cell
		}
	}
	c.placeholders = map[string]*types.Var{}
	var old []string
	var extra []ast.Decl
	for _, id := range renamed {
		if _, ok := c.placeholders[id.Name]; !ok {
			v := c.topVars[id.Name]
			if d := c.placeholderDecl(id.Name, v.Type(), prev); d != nil {
				extra = append(extra, d)
				c.placeholders[id.Name] = nil // declared by the check
			} else {
				p := types.NewVar(v.Pos(), c.pkg, placeholderPrefix+id.Name, v.Type())
				c.placeholders[id.Name] = p
				scope.Insert(p)
			}
		}
		old = append(old, id.Name)
		id.Name = placeholderPrefix + id.Name
	}
	decls := c.file.Decls
	c.file.Decls = append(decls[:len(decls):len(decls)], extra...)
	// The placeholders' types may name session types the cell does not.
	for _, d := range extra {
		ast.Inspect(d, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && !c.names[id.Name] {
				if e, ok := c.s.entries[id.Name]; ok && !c.declared[id.Name] {
					scope.Insert(e.obj)
				}
			}
			return true
		})
	}
	restore := parenEarlierTypes(decls, scope)
	defer func() {
		restore()
		for i, id := range renamed {
			id.Name = old[i]
		}
		c.file.Decls = decls
		for name, p := range c.placeholders {
			if p == nil {
				c.placeholders[name], _ = c.pkg.Scope().Lookup(placeholderPrefix + name).(*types.Var)
			}
		}
	}()
	c.info = newInfo()
	var list []types.Error
	conf := types.Config{
		Importer: c.s.u,
		Error:    func(err error) { list = append(list, err.(types.Error)) },
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = ErrorList{{Cell: c.n, Msg: fmt.Sprintf("internal error: the type checker failed on this cell (%v); please report it", r)}}
			}
		}()
		types.NewChecker(&conf, c.fset, c.pkg, c.info).Files([]*ast.File{c.file})
	}()
	if err != nil {
		return nil, err
	}
	c.pkg.SetName("")
	return c.filter(list), nil
}

// placeholderDecl returns the declaration of the placeholder of top-level
// variable name when its type, found by the previous check of the cell
// (in package prev), involves a type the cell declares: the next check
// declares that type anew, so the placeholder must name it in source.
// It returns nil when the type can be used as it is, or cannot be named.
func (c *cell) placeholderDecl(name string, t types.Type, prev *types.Package) ast.Decl {
	if prev == nil || !mentions(t, prev) {
		return nil
	}
	src, ok := typeSource(checkNamer{c, prev}, t)
	if !ok {
		return nil
	}
	expr, err := parser.ParseExprFrom(c.fset, "", src, 0)
	if err != nil {
		return nil
	}
	return &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{&ast.ValueSpec{
		Names: []*ast.Ident{{Name: placeholderPrefix + name, NamePos: expr.Pos()}}, Type: expr}}}
}

// mentions reports whether t involves a named type of package pkg.
func mentions(t types.Type, pkg *types.Package) bool {
	found := false
	walkType(t, nil, func(t types.Type) bool {
		if n, ok := t.(*types.Named); ok && n.Obj().Pkg() == pkg {
			found = true
		}
		return !found
	})
	return found
}

// checkNamer names types as the cell's check source does: packages by
// its imports, the cell's types and the session's current ones by name.
type checkNamer struct {
	c    *cell
	prev *types.Package // the package of the previous check
}

func (n checkNamer) qualify(pkg *types.Package) (string, bool) {
	for _, sp := range n.c.file.Imports {
		if p, _ := strconv.Unquote(sp.Path.Value); p == pkg.Path() {
			if name := importName(sp, n.c.s.u); name != "_" && name != "." {
				return name, true
			}
		}
	}
	return "", false
}

func (n checkNamer) typeName(obj *types.TypeName) (string, bool) {
	name := obj.Name()
	if localType(obj) {
		return name, true
	}
	if obj.Pkg() == n.prev {
		return name, n.c.declared[name] || n.c.isInstType(obj)
	}
	return name, n.c.s.isEntry(obj) && !n.c.declared[name] || n.c.s.generated[name] == types.Object(obj)
}

func (n checkNamer) instance(t *types.Named) (string, bool) { return n.c.s.instanceName(t, n.c.inst) }

func (n checkNamer) unexported(obj *types.TypeName) (string, bool) { return obj.Name(), false }

// isInstType reports whether obj is a type that the cell's instance code
// declares.
func (c *cell) isInstType(obj *types.TypeName) bool {
	for d := range c.instDecls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
			for _, sp := range g.Specs {
				if sp.(*ast.TypeSpec).Name.Name == obj.Name() {
					return true
				}
			}
		}
	}
	return false
}

// placeholderPrefix starts the names of placeholders (see check).
const placeholderPrefix = "_gtvar_"

// filter keeps the errors Go reports for this cell, less those that are
// not errors in a notebook: unused imports (they serve later cells), unused
// variables defined at the top (they are session variables) and the last
// expression statement (it is the cell's value). At most ten are kept, in
// source order, as the compiler reports them.
func (c *cell) filter(list []types.Error) ErrorList {
	var last ast.Expr
	if n := len(c.body.Body.List); n > 0 {
		if es, ok := c.body.Body.List[n-1].(*ast.ExprStmt); ok {
			last = es.X
		}
	}
	top := map[token.Pos]bool{}
	for _, st := range c.body.Body.List {
		for _, id := range definedIdents(st) {
			top[id.Pos()] = true
		}
	}
	var out ErrorList
	seen := map[string]bool{}
	for _, e := range list {
		msg := e.Msg
		switch {
		case strings.HasSuffix(msg, "imported and not used") || strings.Contains(msg, "imported as ") && strings.HasSuffix(msg, "and not used"):
			continue
		case strings.HasPrefix(msg, "declared and not used") && top[e.Pos]:
			continue
		case last != nil && e.Pos == last.Pos() && strings.HasSuffix(msg, "is not used"):
			continue
		}
		msg = strings.ReplaceAll(msg, placeholderPrefix, "")
		msg += c.hiddenPackage(msg)
		msg += c.sameNamedTypes(e.Pos, msg)
		if note := c.s.u.SourceNote; note != "" && c.lacksSource(msg) {
			msg += " (" + note + ")"
		}
		er := c.errorAt(c.fset.Position(e.Pos), msg)
		if key := er.Error(); !seen[key] {
			seen[key] = true
			out = append(out, er)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Col < out[j].Col
	})
	if len(out) > 10 {
		out = out[:10]
	}
	return out
}

// hiddenPackage returns what to add to a compile error about a member of
// a variable, "data.MNIST undefined (type []int has no field or method
// MNIST)", where the variable took the name of a package the session
// imported that has the member: how to reach the package again; or "".
func (c *cell) hiddenPackage(msg string) string {
	sel, _, ok := strings.Cut(msg, " undefined (type ")
	if !ok {
		return ""
	}
	name, member, ok := strings.Cut(sel, ".")
	if !ok || !token.IsIdentifier(name) {
		return ""
	}
	path, ok := c.s.imported[name]
	for _, sp := range c.imports {
		if importName(sp, c.s.u) == name {
			path, _ = strconv.Unquote(sp.Path.Value)
			ok = true
		}
	}
	if !ok {
		return ""
	}
	pkg, err := c.s.u.Import(path)
	if err != nil || pkg.Scope().Lookup(member) == nil {
		return ""
	}
	return fmt.Sprintf(": variable %s hides package %s; import the package under another name (import %s2 %q) and write %s2.%s", name, name, name, path, name, member)
}

// lacksSource reports whether a compile error is about a package the
// universe builds from source: "undefined: slices.Sort", "could not
// import iter".
func (c *cell) lacksSource(msg string) bool {
	if p, ok := strings.CutPrefix(msg, "could not import "); ok {
		p, _, _ = strings.Cut(p, " ")
		return genericPackages[p]
	}
	sel, ok := strings.CutPrefix(msg, "undefined: ")
	if !ok {
		return false
	}
	name, member, ok := strings.Cut(sel, ".")
	if !ok {
		return false
	}
	for _, sp := range c.file.Imports {
		if p, _ := strconv.Unquote(sp.Path.Value); importName(sp, c.s.u) == name {
			return genericPackages[p] || genericNames[p+"."+member]
		}
	}
	return false
}

// genericPackages are the standard packages whose code is all generic;
// genericNames the generic functions and types of other standard
// packages, from Go 1.21 on: the universe has them from source only.
var (
	genericPackages = map[string]bool{"cmp": true, "iter": true, "maps": true, "slices": true, "unique": true, "weak": true}
	genericNames    = map[string]bool{"errors.AsType": true, "sync/atomic.Pointer": true, "sync.OnceFunc": true,
		"sync.OnceValue": true, "sync.OnceValues": true, "reflect.TypeFor": true, "runtime.AddCleanup": true}
)

// definedIdents returns the identifiers a top-level statement of the cell
// defines: x and y of "x, y := ..." and "var x, y = ...".
func definedIdents(st ast.Stmt) []*ast.Ident {
	var ids []*ast.Ident
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE {
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					ids = append(ids, id)
				}
			}
		}
	case *ast.DeclStmt:
		if g, ok := st.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, sp := range g.Specs {
				for _, id := range sp.(*ast.ValueSpec).Names {
					if id.Name != "_" {
						ids = append(ids, id)
					}
				}
			}
		}
	}
	return ids
}

// findTopVars records the variables the statements define at the top.
func (c *cell) findTopVars() {
	c.topVars = map[string]*types.Var{}
	for _, st := range c.body.Body.List {
		for _, id := range definedIdents(st) {
			if v, ok := c.info.Defs[id].(*types.Var); ok {
				c.topVars[id.Name] = v
			}
		}
	}
}

// usesOfTopVars returns the identifiers in the bodies of the cell's
// functions and methods that mean a variable the statements define at the
// top: those that are undefined, or resolve to a session name, where a
// top-level variable of the cell has that name.
func (c *cell) usesOfTopVars() []*ast.Ident {
	if len(c.topVars) == 0 {
		return nil
	}
	var ids []*ast.Ident
	for _, d := range c.file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn == c.body || fn.Body == nil {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				ast.Inspect(n.X, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok {
						ids = c.appendTopUse(ids, id)
					}
					return true
				})
				return false
			case *ast.Ident:
				ids = c.appendTopUse(ids, n)
			}
			return true
		})
	}
	return ids
}

func (c *cell) appendTopUse(ids []*ast.Ident, id *ast.Ident) []*ast.Ident {
	name := strings.TrimPrefix(id.Name, placeholderPrefix)
	if _, ok := c.topVars[name]; !ok || c.info.Defs[id] != nil {
		return ids
	}
	obj := c.info.Uses[id]
	placeholder := obj != nil && obj.Parent() == c.pkg.Scope() && !c.declared[name]
	if obj == nil || placeholder || c.s.isEntry(obj) || c.sessionImport(obj) {
		return append(ids, id)
	}
	return ids
}

// sessionImport reports whether obj is a package the session imports
// under its name and the cell does not: a top-level variable of the
// statements of that name takes the name from it, in the cell's functions
// too.
func (c *cell) sessionImport(obj types.Object) bool {
	pn, ok := obj.(*types.PkgName)
	if !ok || c.s.imports[pn.Name()] != pn.Imported().Path() {
		return false
	}
	for _, sp := range c.imports {
		if importName(sp, c.s.u) == pn.Name() {
			return false
		}
	}
	return true
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
