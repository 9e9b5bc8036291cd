package plan

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// cgen generates the Go package of a compiled cell (see compiled.go) from
// the cell's check source, by edits, as gen does for the interpreter.
type cgen struct {
	c  *cell
	s  *Session
	ed edits

	// imports holds the packages the cell's code names: path → name;
	// used counts the uses of each that the file keeps. own holds the
	// imports of the generated code: path → a name of its own (a path
	// may be in both, under two names).
	imports map[string]string
	used    map[string]int
	own     map[string]string
	// cells holds the earlier compiled cells the file uses: their cell
	// package → the name the file imports them under.
	cells map[*types.Package]string
	// inject holds the interpreted session objects the cell uses, with
	// the name of the variable that points at them (see Compiled.Inject).
	inject map[types.Object]string
	// reuse holds the cell's functions and top-level variables that take
	// the slot of a session object of the same name and type.
	reuse map[types.Object]bool
	// deep holds the function bodies that check their stack (see
	// mayRecurse).
	deep map[*ast.BlockStmt]string
	// skip holds identifiers rewritten with their parent.
	skip map[*ast.Ident]bool
	// local holds the uses of top-level variables that a loop works on
	// local copies of, with the copy's name; writeBack holds, for the
	// bodies of those loops, what writes the copies back (see localize).
	local     map[*ast.Ident]string
	writeBack map[*ast.BlockStmt]string

	// why is set when the cell cannot be compiled: the reason, for a
	// fallback to the interpreter.
	why   string
	whyAt token.Pos

	// ꞏpre's statements, in the order they run: the function slots, the
	// package-level variables' zero values, their initializers, init.
	preSlots, preZero, preInit, preInits strings.Builder
	header                               strings.Builder // declarations after the cell's
	seq                                  int
	result                               bool // the last statement is the cell's value
}

// failf records that the cell cannot be compiled, and why.
func (g *cgen) failf(pos token.Pos, format string, args ...any) {
	if g.why == "" {
		g.why, g.whyAt = fmt.Sprintf(format, args...), pos
	}
}

func (g *cgen) off(pos token.Pos) int { return g.c.tf.Offset(pos) }

// text renders a node with the edits made so far.
func (g *cgen) text(n ast.Node) string {
	return g.ed.render(g.c.text, g.off(n.Pos()), g.off(n.End()))
}

// substitute replaces node n, as rendered with its edits, with f of that
// text: the edits inside n go, since the replacement holds them.
func (g *cgen) substitute(n ast.Node, f func(inner string) string) {
	start, end := g.off(n.Pos()), g.off(n.End())
	inner := g.ed.render(g.c.text, start, end)
	kept := g.ed.list[:0]
	for _, x := range g.ed.list {
		if x.pos < start || x.end > end || x.pos == end && !x.closing {
			kept = append(kept, x)
		}
	}
	g.ed.list = kept
	text := f(inner)
	// The replacement keeps the span's lines, so that the positions after
	// it stay the cell's: the newlines it lacks (those between the parts
	// it rearranged) go after its first bracket, where Go inserts no
	// semicolon.
	want, have := strings.Count(g.c.text[start:end], "\n"), strings.Count(text, "\n")
	if have > want {
		g.failf(n.Pos(), "internal error: a rewrite added lines; please report it")
		return
	}
	if have < want {
		if i := strings.IndexAny(text, "({"); i >= 0 {
			text = text[:i+1] + strings.Repeat("\n", want-have) + text[i+1:]
		} else {
			g.failf(n.Pos(), "internal error: a rewrite lost lines; please report it")
			return
		}
	}
	g.ed.replaceLines(g.c.text, start, end, text)
}

func (g *cgen) fresh(prefix string) string {
	g.seq++
	return prefix + strconv.Itoa(g.seq)
}

// importName returns the name the file imports the package at path under,
// adding the import (under a name of its own when the cell does not import
// it) and counting a use.
func (g *cgen) importName(path, want string) string {
	if n, ok := g.own[path]; ok {
		return n
	}
	taken := map[string]bool{}
	for _, n := range g.own {
		taken[n] = true
	}
	n := want
	for i := 2; taken[n]; i++ {
		n = want + strconv.Itoa(i)
	}
	g.own[path] = n
	return n
}

// cellName returns the name the file imports an earlier compiled cell's
// package under.
func (g *cgen) cellName(pkg *types.Package) string {
	if n, ok := g.cells[pkg]; ok {
		return n
	}
	path, _ := compiledPath(pkg)
	n := g.importName(path, "ꞏc")
	g.cells[pkg] = n
	return n
}

// ns returns the namespace value of an earlier compiled cell: the methods
// of its Gtꞏ reach its variables, slots and fields.
func (g *cgen) ns(pkg *types.Package) string { return g.cellName(pkg) + "." + cNamespace + "{}" }

// earlier reports whether obj is a package-level object of an earlier
// cell, and whether that cell ran compiled.
func (g *cgen) earlier(obj types.Object) (isEarlier, compiled bool) {
	pkg := obj.Pkg()
	if pkg == nil || pkg.Path() != cellPath || pkg == g.c.pkg {
		return false, false
	}
	// A session name is an entry; a variable that the session keeps for
	// a top-level variable of the statements is in no package scope (the
	// scope of the first check that inserts it becomes its parent).
	if !g.s.isEntry(obj) && obj.Parent() != pkg.Scope() {
		return false, false
	}
	if v, ok := obj.(*types.Var); ok && v.IsField() {
		return false, false
	}
	_, compiled = compiledPath(pkg)
	return true, compiled
}

// compile generates the cell's package, or reports why it cannot.
func (s *Session) compile(c *cell) (*Compiled, map[types.Object]bool, bool, string, token.Pos) {
	g := &cgen{c: c, s: s, imports: map[string]string{}, used: map[string]int{}, own: map[string]string{}, cells: map[*types.Package]string{},
		inject: map[types.Object]string{}, reuse: map[types.Object]bool{}, deep: map[*ast.BlockStmt]string{},
		skip: map[*ast.Ident]bool{}, local: map[*ast.Ident]string{}, writeBack: map[*ast.BlockStmt]string{}}
	g.importName(NativePath, cNative)
	g.importName("sync/atomic", cAtomic)
	g.importName("reflect", cReflect)
	if len(c.earlier) > 0 {
		for m := range c.earlier {
			name, _ := recvBase(m.Recv.List[0].Type)
			g.failf(m.Name.Pos(), "method %s of %s, a type of an earlier cell: a compiled type cannot gain methods; declare %s in the cell that declares %s", m.Name.Name, name, m.Name.Name, name)
		}
		return nil, nil, false, g.why, g.whyAt
	}
	for _, d := range c.file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			for _, sp := range gd.Specs {
				is := sp.(*ast.ImportSpec)
				path, _ := strconv.Unquote(is.Path.Value)
				switch importName(is, s.u) {
				case ".":
					g.failf(is.Pos(), "a dot import (import . %q)", path)
				case "_":
					g.imports[path] = "_"
					g.used[path]++
				}
				if !isStd(path) && !strings.HasPrefix(path, ModulePath+"/") && g.c.inCell(is.Pos()) {
					// A module's package is in the interpreter's
					// tables, not compiled for plugins here.
					g.failf(is.Pos(), "an import of %s, a module's package", path)
				}
			}
			g.blank(gd)
		}
	}
	g.findReuse()
	g.rewrite()
	if g.why != "" {
		return nil, nil, false, g.why, g.whyAt
	}
	src := g.assemble()
	if g.why != "" {
		return nil, nil, false, g.why, g.whyAt
	}
	cp := &Compiled{Source: src, Inject: map[string]string{}}
	seen := map[string]bool{}
	for path := range g.imports {
		if g.used[path] > 0 || g.imports[path] == "_" {
			seen[path] = true
		}
	}
	for path := range g.own {
		seen[path] = true
	}
	for path := range seen {
		cp.Imports = append(cp.Imports, path)
	}
	sort.Strings(cp.Imports)
	for pkg := range g.cells {
		path, _ := compiledPath(pkg)
		cp.Cells = append(cp.Cells, path)
	}
	sort.Strings(cp.Cells)
	for obj, name := range g.inject {
		yn := s.yname[obj]
		if yn == "" {
			yn = obj.Name()
		}
		cp.Inject[name] = "&" + yn
	}
	return cp, g.reuse, true, "", token.NoPos
}

// isStd reports whether path is a standard library package's.
func isStd(path string) bool {
	if path == "C" {
		return false
	}
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// blank replaces a declaration with spaces, keeping its lines.
func (g *cgen) blank(n ast.Node) {
	start, end := g.off(n.Pos()), g.off(n.End())
	text := g.c.text[start:end]
	g.ed.replaceLines(g.c.text, start, end, strings.Repeat("\n", strings.Count(text, "\n")))
}

// findReuse finds the cell's functions and top-level variables that take
// the place of a session object of the same name and identical type: the
// cell assigns its slot (functions compiled before see the new value), as
// interpreted cells do.
func (g *cgen) findReuse() {
	for _, fd := range g.c.funcs {
		f, _ := g.c.info.Defs[fd.Name].(*types.Func)
		if f == nil || isGenericFunc(f) || fd.Name.Name == "init" || fd.Name.Name == "main" {
			continue
		}
		if e, ok := g.s.entries[f.Name()]; ok {
			if old, ok := e.obj.(*types.Func); ok && !isGenericFunc(old) && types.Identical(old.Type(), f.Type()) {
				g.reuse[f] = true
			}
		}
	}
	for name, v := range g.c.topVars {
		if e, ok := g.s.entries[name]; ok {
			if old, ok := e.obj.(*types.Var); ok && types.Identical(old.Type(), v.Type()) {
				g.reuse[v] = true
			}
		}
	}
}

// topVar returns the top-level variable of the statements that obj
// stands for (itself, or a placeholder in a function), or nil.
func (g *cgen) topVar(obj types.Object) *types.Var {
	v, ok := obj.(*types.Var)
	if !ok {
		return nil
	}
	if name, ok := strings.CutPrefix(v.Name(), placeholderPrefix); ok {
		return g.c.topVars[name]
	}
	if tv := g.c.topVars[v.Name()]; tv == v {
		return tv
	}
	return nil
}

// session returns the session object a reused function or variable of
// the cell takes the slot of.
func (g *cgen) session(obj types.Object) types.Object { return g.s.entries[obj.Name()].obj }

// spell returns how the file writes a use of obj, a package-level object
// of a cell or a top-level variable of the statements; "" for one that
// keeps its name.
func (g *cgen) spell(obj types.Object, pos token.Pos) string {
	if v := g.topVar(obj); v != nil {
		if g.reuse[v] {
			return g.spellEarlier(g.session(v), pos)
		}
		return cVar + v.Name()
	}
	pkg := obj.Pkg()
	if pkg == g.c.pkg && obj.Parent() == pkg.Scope() {
		switch o := obj.(type) {
		case *types.Func:
			if isGenericFunc(o) {
				return cGeneric + o.Name()
			}
			if g.reuse[o] {
				return g.spellEarlier(g.session(o), pos)
			}
			return cSlot + o.Name()
		case *types.Var:
			return cVar + o.Name()
		}
		return ""
	}
	if isEarlier, _ := g.earlier(obj); isEarlier {
		return g.spellEarlier(obj, pos)
	}
	return ""
}

// spellEarlier writes a use of obj, a package-level object of an earlier
// cell.
func (g *cgen) spellEarlier(obj types.Object, pos token.Pos) string {
	_, compiled := g.earlier(obj)
	if !compiled {
		switch o := obj.(type) {
		case *types.Const:
			return g.constValue(o, pos)
		case *types.Var, *types.Func:
			if f, ok := o.(*types.Func); ok && isGenericFunc(f) {
				g.failf(pos, "%s is generic code of an interpreted cell", o.Name())
				return o.Name()
			}
			t, ok := g.typeSrc(o.Type())
			if !ok {
				g.failf(pos, "%s has a type that a compiled cell cannot name (%s)", o.Name(), o.Type())
				return o.Name()
			}
			// The interpreter keeps a cell's function in a variable,
			// as its variables: the cell gets a pointer to either.
			return "(*" + g.injected(obj, "*"+t) + ")"
		case *types.TypeName:
			g.failf(pos, "%s is a type of a cell that ran interpreted", o.Name())
			return o.Name()
		}
		return obj.Name()
	}
	pkg := obj.Pkg()
	switch o := obj.(type) {
	case *types.TypeName:
		return g.cellName(pkg) + "." + cAlias + o.Name()
	case *types.Const:
		return g.cellName(pkg) + "." + cConst + o.Name()
	case *types.Func:
		if isGenericFunc(o) {
			return g.cellName(pkg) + "." + cGeneric + o.Name()
		}
		return "(*" + g.ns(pkg) + "." + cSlotAcc + o.Name() + "())"
	case *types.Var:
		return "(*" + g.ns(pkg) + "." + cVarAcc + o.Name() + "())"
	}
	return obj.Name()
}

// injected returns the name of the variable of type t that the executor
// points at obj, an interpreted variable or function.
func (g *cgen) injected(obj types.Object, t string) string {
	if n, ok := g.inject[obj]; ok {
		return n
	}
	n := cInject + obj.Name()
	g.inject[obj] = n
	fmt.Fprintf(&g.header, "var %s %s\n", n, t)
	return n
}

// constValue writes the value of constant k as Go source: a typed
// constant converted to its type.
func (g *cgen) constValue(k *types.Const, pos token.Pos) string {
	v := constLiteral(k.Val())
	if b, ok := k.Type().(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		return v
	}
	t, ok := g.typeSrc(k.Type())
	if !ok {
		g.failf(pos, "constant %s has a type a compiled cell cannot name", k.Name())
		return k.Name()
	}
	return t + "(" + v + ")"
}

// constLiteral writes a constant value as a Go constant expression.
func constLiteral(v constant.Value) string {
	switch v.Kind() {
	case constant.String:
		return strconv.Quote(constant.StringVal(v))
	case constant.Float:
		s := v.ExactString()
		if num, den, ok := strings.Cut(s, "/"); ok {
			return "(" + num + ".0/" + den + ")"
		}
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s
	case constant.Complex:
		return "complex(" + constLiteral(constant.Real(v)) + ", " + constLiteral(constant.Imag(v)) + ")"
	}
	return v.ExactString()
}

// methodName returns the name a method is declared and called under in
// compiled cells: an unexported method of a cell's type gets an exported
// name, so that other cells' packages can call it and implement an
// interface that has it.
func methodName(m types.Object) string {
	// Blank methods (a type may declare several) keep their name: no
	// code can call them.
	if !m.Exported() && m.Name() != "_" && m.Pkg() != nil && m.Pkg().Path() == cellPath {
		return cMethod + m.Name()
	}
	return m.Name()
}

// rewrite walks the cell's declarations and statements, making the edits.
func (g *cgen) rewrite() {
	c := g.c
	for _, d := range c.file.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			if d.Tok == token.VAR {
				g.walk(d)
				g.packageVars(d)
				continue
			}
			g.walk(d)
		case *ast.FuncDecl:
			if d == c.body {
				g.body(d)
				continue
			}
			g.funcDecl(d)
		}
	}
}

// funcDecl rewrites a function or method declaration.
func (g *cgen) funcDecl(fd *ast.FuncDecl) {
	obj, _ := g.c.info.Defs[fd.Name].(*types.Func)
	if obj == nil {
		return
	}
	g.skip[fd.Name] = true
	if fd.Recv == nil {
		switch {
		case fd.Name.Name == "init":
			name := g.fresh("ꞏinit")
			g.ed.replace(g.off(fd.Name.Pos()), g.off(fd.Name.End()), name)
			fmt.Fprintf(&g.preInits, "\t%s()\n", name)
		case fd.Name.Name == "main" && fd.Type.TypeParams == nil:
			g.ed.replace(g.off(fd.Name.Pos()), g.off(fd.Name.End()), cFunc+"main")
		case isGenericFunc(obj):
			g.ed.replace(g.off(fd.Name.Pos()), g.off(fd.Name.End()), cGeneric+obj.Name())
		case fd.Name.Name == "_":
		default:
			g.ed.replace(g.off(fd.Name.Pos()), g.off(fd.Name.End()), cFunc+obj.Name())
			g.slot(fd, obj)
		}
	} else if n := methodName(obj); n != obj.Name() {
		g.ed.replace(g.off(fd.Name.Pos()), g.off(fd.Name.End()), n)
	}
	if fd.Body != nil {
		g.stopLocal(fd.Body)
		g.funcBody(fd.Body, fd.Name.Name)
		g.walk(fd)
	}
}

// slot declares the slot of function f (or assigns the session's), which
// calls go through.
func (g *cgen) slot(fd *ast.FuncDecl, f *types.Func) {
	if g.reuse[f] {
		fmt.Fprintf(&g.preSlots, "\t%s = %s\n", g.spellEarlier(g.session(f), fd.Pos()), cFunc+f.Name())
		return
	}
	t, ok := g.typeSrc(f.Type())
	if !ok {
		g.failf(fd.Pos(), "the signature of %s names a type a compiled cell cannot write", f.Name())
		return
	}
	fmt.Fprintf(&g.header, "var %s %s\n", cSlot+f.Name(), t)
	fmt.Fprintf(&g.header, "func (%s) %s() *%s { return &%s }\n", cNamespace, cSlotAcc+f.Name(), t, cSlot+f.Name())
	fmt.Fprintf(&g.preSlots, "\t%s = %s\n", cSlot+f.Name(), cFunc+f.Name())
}

// packageVars moves a package-level var declaration's initializers (a
// pasted program's) into ꞏpre, in Go's initialization order: re-running
// the cell runs them again.
func (g *cgen) packageVars(d *ast.GenDecl) {
	for _, sp := range d.Specs {
		vs := sp.(*ast.ValueSpec)
		for _, id := range vs.Names {
			v, _ := g.c.info.Defs[id].(*types.Var)
			if v == nil || id.Name == "_" {
				continue
			}
			t, ok := g.typeSrc(v.Type())
			if !ok {
				g.failf(id.Pos(), "variable %s has a type a compiled cell cannot write (%s)", id.Name, v.Type())
				return
			}
			fmt.Fprintf(&g.header, "var %s %s\n", cVar+v.Name(), t)
			fmt.Fprintf(&g.header, "func (%s) %s() *%s { return &%s }\n", cNamespace, cVarAcc+v.Name(), t, cVar+v.Name())
			// A variable without an initializer is zero each run.
			fmt.Fprintf(&g.preZero, "\t%s = *new(%s)\n", cVar+v.Name(), t)
		}
		if vs.Type != nil {
			g.dropUses(vs.Type) // the header writes the type
		}
	}
	g.blank(d)
}

// dropUses uncounts the uses of packages in n, code that the file does not
// keep.
func (g *cgen) dropUses(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if pn, ok := g.c.info.Uses[id].(*types.PkgName); ok {
				g.used[pn.Imported().Path()]--
			}
		}
		return true
	})
}

// initOrder writes the package-level variables' initializers into ꞏpre, in
// the order go/types found.
func (g *cgen) initOrder() {
	inCell := map[*ast.GenDecl]bool{}
	for _, d := range g.c.file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			inCell[gd] = true
		}
	}
	if len(inCell) == 0 {
		return
	}
	for _, in := range g.c.info.InitOrder {
		var lhs []string
		for _, v := range in.Lhs {
			if v.Name() == "_" {
				lhs = append(lhs, "_")
			} else {
				lhs = append(lhs, cVar+v.Name())
			}
		}
		pos := g.c.fset.Position(in.Rhs.Pos())
		fmt.Fprintf(&g.preInit, "\t%s%s = %s\n", g.lineComment(pos), strings.Join(lhs, ", "), g.text(in.Rhs))
	}
}

// lineComment returns the /*line*/ comment that gives the code after it
// the position of pos, a position of the check source.
func (g *cgen) lineComment(pos token.Position) string {
	if pos.Filename != "cell" {
		return ""
	}
	return fmt.Sprintf("/*line %s:%d:%d*/", CompiledFile, pos.Line, pos.Column)
}

// body rewrites the statements: the body of ꞏrun, whose top-level
// definitions assign the package's variables.
func (g *cgen) body(fd *ast.FuncDecl) {
	b := fd.Body
	list := b.List
	for _, st := range list {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				g.ed.replace(g.off(st.TokPos), g.off(st.TokPos)+2, "=")
			}
		}
	}
	g.stopLocal(b)
	g.funcBody(b, "")
	g.localize(b)
	g.walk(b)
	for _, st := range list {
		if ds, ok := st.(*ast.DeclStmt); ok {
			if gd, ok := ds.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				g.varStmt(ds, gd)
			}
		}
	}
	if n := len(list); n > 0 {
		if es, ok := list[n-1].(*ast.ExprStmt); ok && g.hasValue(es.X) {
			g.result = true
			g.ed.insert(g.off(es.X.Pos()), "ꞏv, ꞏok = ")
			g.ed.insertClosing(g.off(es.X.End()), ", true")
		}
	}
	// The header: ꞏrun with named results, its prologue first.
	g.ed.replace(g.off(fd.Type.Func), g.off(fd.Type.End()), "func "+cRun+"() (ꞏv any, ꞏok bool)")
	g.ed.insert(g.off(b.Lbrace)+1, " "+cPre+"();")
	for _, f := range g.c.funcs {
		if f.Name.Name == "main" && f.Recv == nil && f.Type.TypeParams == nil {
			g.ed.insert(g.off(b.Rbrace), "; "+cFunc+"main(); ")
		}
	}
	g.ed.insert(g.off(b.Rbrace), "; return; ")
}

// hasValue reports whether expression statement x has exactly one value:
// the cell's result.
func (g *cgen) hasValue(x ast.Expr) bool {
	tv, ok := g.c.info.Types[x]
	if !ok || tv.IsVoid() || tv.IsType() {
		return false
	}
	if _, tuple := tv.Type.(*types.Tuple); tuple {
		return false
	}
	if tv.IsBuiltin() {
		return false
	}
	if b, ok := tv.Type.(*types.Basic); ok && b.Kind() == types.UntypedNil {
		return false
	}
	return true
}

// varStmt turns a var declaration at the statements' top level into the
// assignments of the package's variables.
func (g *cgen) varStmt(ds *ast.DeclStmt, gd *ast.GenDecl) {
	var parts []string
	for _, sp := range gd.Specs {
		vs := sp.(*ast.ValueSpec)
		var lhs []string
		for _, id := range vs.Names {
			if id.Name == "_" {
				lhs = append(lhs, "_")
				continue
			}
			if s := g.spell(g.c.info.Defs[id], id.Pos()); s != "" {
				lhs = append(lhs, s)
			} else {
				lhs = append(lhs, id.Name)
			}
		}
		var rhs []string
		switch {
		case len(vs.Values) > 0:
			for _, v := range vs.Values {
				rhs = append(rhs, g.text(v))
			}
			if vs.Type != nil {
				g.dropUses(vs.Type)
			}
		default:
			t := "*new(" + g.text(vs.Type) + ")"
			for range vs.Names {
				rhs = append(rhs, t)
			}
		}
		parts = append(parts, strings.Join(lhs, ", ")+" = "+strings.Join(rhs, ", "))
	}
	start, end := g.off(ds.Pos()), g.off(ds.End())
	text := strings.Join(parts, "; ")
	// Keep the lines of the declaration.
	n := max(strings.Count(g.c.text[start:end], "\n")-strings.Count(text, "\n"), 0)
	kept := g.ed.list[:0]
	for _, x := range g.ed.list {
		if x.pos < start || x.end > end || x.pos == end && !x.closing {
			kept = append(kept, x)
		}
	}
	g.ed.list = kept
	g.ed.replaceLines(g.c.text, start, end, text+strings.Repeat("\n", n))
}

// walk rewrites the identifiers, selectors, calls, literals, loops and go
// statements of n, children before parents.
func (g *cgen) walk(n ast.Node) {
	var stack []ast.Node
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			g.exit(top, stack)
			return true
		}
		g.enter(n)
		stack = append(stack, n)
		return true
	})
}

// enter handles a node before its children: loop checks, stack checks,
// identifiers that a parent rewrites.
func (g *cgen) enter(n ast.Node) {
	switch n := n.(type) {
	case *ast.ForStmt:
		g.loopCheck(n.Body)
	case *ast.RangeStmt:
		g.loopCheck(n.Body)
	case *ast.FuncLit:
		g.stopLocal(n.Body)
		g.funcBody(n.Body, "func literal")
	case *ast.SelectorExpr:
		g.skip[n.Sel] = true
	case *ast.BranchStmt:
		// A goto may jump back and make a loop.
		if n.Tok == token.GOTO {
			g.ed.insert(g.off(n.Pos()), g.stopCheck()+" ")
		}
	case *ast.KeyValueExpr:
		// A struct literal's field key.
		if id, ok := n.Key.(*ast.Ident); ok {
			if v, ok := g.c.info.Uses[id].(*types.Var); ok && v.IsField() {
				g.skip[id] = true
			}
		}
	}
}

// stopCheck is the check of the cell's stop flag, through the pointer
// that stopLocal gives the enclosing function.
func (g *cgen) stopCheck() string {
	return "if " + cAtomic + ".LoadInt32(" + cStopLocal + ") != 0 { " + cHooks + ".Stop() };"
}

// loopCheck makes a loop body check the stop flag first, writing back the
// local copies of top-level variables it works on (see localize) before
// the cell may end.
func (g *cgen) loopCheck(body *ast.BlockStmt) {
	if wb, ok := g.writeBack[body]; ok {
		g.ed.insert(g.off(body.Lbrace)+1, " if "+cAtomic+".LoadInt32("+cStopLocal+") != 0 { "+wb+" };")
		return
	}
	g.ed.insert(g.off(body.Lbrace)+1, " "+g.stopCheck())
}

// stopLocal starts a function body whose loops or gotos check the stop
// flag with a local pointer to the flag, which those checks load through.
// A plugin reaches a package variable through its global offset table,
// and the compiler folds a local set to &ꞏstop back into that address:
// each iteration would load the table's entry, then the flag. A pointer
// loaded from a variable (ꞏstopAt) stays in a register, so that the
// check is one load, a test and a branch the processor predicts. It is
// declared first, where no goto can jump over it.
func (g *cgen) stopLocal(body *ast.BlockStmt) {
	if body == nil || !checksStop(body) {
		return
	}
	g.ed.insert(g.off(body.Lbrace)+1, " "+cStopLocal+" := "+cStopAt+";")
}

// checksStop reports whether a function body has a loop or a goto of its
// own (not one of a function literal's, which has its own pointer).
func checksStop(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			found = true
		case *ast.BranchStmt:
			found = found || n.Tok == token.GOTO
		}
		return !found
	})
	return found
}

// funcBody makes a function body that may recurse check its goroutine's
// stack first.
func (g *cgen) funcBody(body *ast.BlockStmt, name string) {
	if body == nil || !g.mayRecurse(body) {
		return
	}
	if name == "" {
		return // the statements: run once
	}
	g.ed.insert(g.off(body.Lbrace)+1, " if "+cNative+".Deep() { "+cHooks+".Deep("+strconv.Quote(name)+") };")
}

// mayRecurse reports whether a function body calls what may call it back:
// a function or method of a cell, a function value or an interface's
// method. Calls of packages' functions and methods do not count (the
// standard library's sort.Slice calls back, but not without bound).
func (g *cgen) mayRecurse(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if tv, ok := g.c.info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
			return true
		}
		switch f := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			switch obj := g.c.info.Uses[f].(type) {
			case *types.Func:
				found = obj.Pkg() != nil && obj.Pkg().Path() == cellPath
			case *types.Var:
				found = true
			}
		case *ast.SelectorExpr:
			if sel, ok := g.c.info.Selections[f]; ok {
				switch sel.Kind() {
				case types.MethodVal, types.MethodExpr:
					m := sel.Obj()
					found = m.Pkg() != nil && m.Pkg().Path() == cellPath || types.IsInterface(sel.Recv())
				case types.FieldVal:
					found = true // a function-valued field
				}
			} else if obj, ok := g.c.info.Uses[f.Sel].(*types.Var); ok && obj != nil {
				found = true // a package's function variable
			}
		default:
			found = true
		}
		return !found
	})
	return found
}

// exit handles a node after its children.
func (g *cgen) exit(n ast.Node, stack []ast.Node) {
	switch n := n.(type) {
	case *ast.Ident:
		if !g.skip[n] {
			g.ident(n)
		}
	case *ast.SelectorExpr:
		g.selector(n)
	case *ast.CallExpr:
		g.call(n)
	case *ast.CompositeLit:
		g.literal(n, stack)
	case *ast.GoStmt:
		g.goStmt(n)
	case *ast.Field:
		g.interfaceMethod(n, stack)
	}
}

// interfaceMethod renames an interface's unexported method (see
// methodName).
func (g *cgen) interfaceMethod(f *ast.Field, stack []ast.Node) {
	if len(stack) < 2 {
		return
	}
	if _, ok := stack[len(stack)-2].(*ast.InterfaceType); !ok {
		return
	}
	for _, id := range f.Names {
		if obj := g.c.info.Defs[id]; obj != nil {
			if n := methodName(obj); n != obj.Name() {
				g.ed.replace(g.off(id.Pos()), g.off(id.End()), n)
			}
		}
	}
}

// ident rewrites an identifier that names a package-level object of a
// cell, a top-level variable of the statements, or a builtin the session
// provides.
func (g *cgen) ident(id *ast.Ident) {
	obj := g.c.info.Uses[id]
	if obj == nil {
		obj = g.c.info.Defs[id]
	}
	if obj == nil || id.Name == "_" {
		return
	}
	if l, ok := g.local[id]; ok {
		g.ed.replace(g.off(id.Pos()), g.off(id.End()), l)
		return
	}
	if pn, ok := obj.(*types.PkgName); ok {
		path := pn.Imported().Path()
		if n, ok := g.imports[path]; ok && n != id.Name {
			g.failf(id.Pos(), "%s imported under two names", path)
		}
		g.imports[path] = id.Name
		g.used[path]++
		return
	}
	if b, ok := obj.(*types.Builtin); ok {
		switch b.Name() {
		case "print":
			g.ed.replace(g.off(id.Pos()), g.off(id.End()), cHooks+".Print")
		case "println":
			g.ed.replace(g.off(id.Pos()), g.off(id.End()), cHooks+".Println")
		}
		return
	}
	if tn, ok := obj.(*types.TypeName); ok && tn.Pkg() == g.c.pkg {
		return
	}
	if s := g.spell(obj, id.Pos()); s != "" {
		g.ed.replace(g.off(id.Pos()), g.off(id.End()), s)
	}
}

// hooked are the functions of packages that a compiled cell calls through
// the session's hooks, with the expression that stands for each.
var hooked = map[string]string{
	"os.Exit":     cHooks + ".Exit",
	"time.Sleep":  cHooks + ".Sleep",
	"fmt.Print":   cHooks + ".FmtPrint",
	"fmt.Println": cHooks + ".FmtPrintln",
	"fmt.Printf":  cHooks + ".FmtPrintf",
	"log.Fatal":   cHooks + ".LogFatal",
	"log.Fatalf":  cHooks + ".LogFatalf",
	"log.Fatalln": cHooks + ".LogFatalln",
}

// selector rewrites a selector: a package's function that the session
// hooks, an unexported method of a cell's type, a field of an earlier
// compiled cell's type that its package does not export.
func (g *cgen) selector(sel *ast.SelectorExpr) {
	info := g.c.info
	if id, ok := sel.X.(*ast.Ident); ok {
		if _, isPkg := info.Uses[id].(*types.PkgName); isPkg {
			obj := info.Uses[sel.Sel]
			if obj != nil && obj.Pkg() != nil {
				if h, ok := hooked[obj.Pkg().Path()+"."+obj.Name()]; ok {
					g.substitute(sel, func(string) string { return h })
					g.used[obj.Pkg().Path()]--
				}
			}
			return
		}
	}
	s, ok := info.Selections[sel]
	if !ok {
		return
	}
	switch s.Kind() {
	case types.MethodVal, types.MethodExpr:
		if n := methodName(s.Obj()); n != s.Obj().Name() {
			g.ed.replace(g.off(sel.Sel.Pos()), g.off(sel.Sel.End()), n)
		}
	case types.FieldVal:
		g.field(sel, s)
	}
}

// field rewrites a field selection through fields that an earlier
// compiled cell's package does not export: each such step calls the
// accessor of the package that declares the field, which gives a pointer
// to it. The result is addressable where the selection is.
func (g *cgen) field(sel *ast.SelectorExpr, s *types.Selection) {
	path := fieldPath(s)
	needs := false
	for _, f := range path {
		if g.foreignField(f) {
			needs = true
		}
	}
	if !needs {
		return
	}
	addressable := g.c.info.Types[sel.X].Addressable()
	x := g.text(sel.X)
	g.substitute(sel, func(string) string {
		cur, t := "("+x+")", s.Recv()
		for _, f := range path {
			_, isPtr := t.Underlying().(*types.Pointer)
			if !g.foreignField(f) {
				cur = "(" + cur + "." + f.Name() + ")"
				addressable = addressable || isPtr
				t = f.Type()
				continue
			}
			_, named := structOf(t)
			if named == nil || named.TypeArgs().Len() > 0 {
				g.failf(sel.Pos(), "the field %s of a generic type compiled in an earlier cell", f.Name())
				return cur
			}
			var ptr string
			switch {
			case isPtr:
				ptr = cur
			case addressable:
				ptr = "(&" + cur + ")"
			default:
				// A value that is not addressable: the accessor reads a
				// copy.
				ts := g.mustType(t)
				ptr = "(func(ꞏx " + ts + ") *" + ts + " { return &ꞏx }(" + cur + "))"
			}
			cur = "(*" + g.ns(named.Obj().Pkg()) + "." + cFieldAcc + named.Obj().Name() + "ꞏ" + f.Name() + "(" + ptr + "))"
			addressable = true
			t = f.Type()
		}
		return cur
	})
}

// mustType writes t, recording a failure when it cannot.
func (g *cgen) mustType(t types.Type) string {
	s, ok := g.typeSrc(t)
	if !ok {
		g.failf(token.NoPos, "a compiled cell cannot write the type %s", t)
	}
	return s
}

// foreignField reports whether field f is one that the file must reach
// through its package's accessor: an unexported field of an earlier
// compiled cell's type.
func (g *cgen) foreignField(f *types.Var) bool {
	if f.Exported() || f.Pkg() == g.c.pkg {
		return false
	}
	_, ok := compiledPath(f.Pkg())
	return ok
}

// literal rewrites a composite literal of an earlier compiled cell's
// struct type that has unexported fields: a function literal makes the
// value and sets its fields through the accessors.
func (g *cgen) literal(lit *ast.CompositeLit, stack []ast.Node) {
	t := g.c.info.Types[lit].Type
	if t == nil {
		return
	}
	st, named := structOf(t)
	if st == nil || named == nil || types.IsInterface(t) {
		return
	}
	// An element of a literal of pointers, &T{} elided, has type *T.
	ptrType, elided := t.Underlying().(*types.Pointer)
	if elided {
		t = ptrType.Elem()
	}
	foreign := false
	for i := 0; i < st.NumFields(); i++ {
		if g.foreignField(st.Field(i)) {
			foreign = true
		}
	}
	if !foreign {
		return
	}
	tsrc := g.mustType(t)
	// &T{...} becomes a pointer made by the function literal.
	var addr *ast.UnaryExpr
	if len(stack) > 0 {
		if u, ok := stack[len(stack)-1].(*ast.UnaryExpr); ok && u.Op == token.AND && ast.Unparen(u.X) == lit {
			addr = u
		}
	}
	var sets []string
	for i, e := range lit.Elts {
		var f *types.Var
		val := e
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			name := kv.Key.(*ast.Ident).Name
			for j := 0; j < st.NumFields(); j++ {
				if st.Field(j).Name() == name {
					f = st.Field(j)
				}
			}
			val = kv.Value
		} else if i < st.NumFields() {
			f = st.Field(i)
		}
		if f == nil {
			continue
		}
		target := "ꞏx." + f.Name()
		if g.foreignField(f) {
			target = "*" + g.ns(named.Obj().Pkg()) + "." + cFieldAcc + named.Obj().Name() + "ꞏ" + f.Name() + "(ꞏx)"
		}
		sets = append(sets, target+" = "+g.text(val))
	}
	body := strings.Join(sets, "; ")
	if elided {
		g.substitute(lit, func(string) string {
			return "(func() *" + tsrc + " { ꞏx := new(" + tsrc + "); " + body + "; return ꞏx }())"
		})
		return
	}
	if addr != nil {
		g.substitute(addr, func(string) string {
			return "(func() *" + tsrc + " { ꞏx := new(" + tsrc + "); " + body + "; return ꞏx }())"
		})
		return
	}
	g.substitute(lit, func(string) string {
		return "(func() " + tsrc + " { ꞏx := new(" + tsrc + "); " + body + "; return *ꞏx }())"
	})
}

// call rewrites the Fatal methods of a *log.Logger, which end the cell
// through the session's hooks.
func (g *cgen) call(call *ast.CallExpr) {
	f, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	if fn, ok := g.c.info.Uses[f.Sel].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == widgetsPath {
		g.adopt(call, fn)
		return
	}
	s, ok := g.c.info.Selections[f]
	if !ok || s.Kind() != types.MethodVal {
		return
	}
	m := s.Obj()
	if m.Pkg() == nil || m.Pkg().Path() != "log" || !strings.HasPrefix(m.Name(), "Fatal") {
		return
	}
	print := strings.Replace(m.Name(), "Fatal", "Print", 1)
	x := g.text(f.X)
	g.substitute(call, func(string) string {
		var args []string
		for _, a := range call.Args {
			args = append(args, g.text(a))
		}
		dots := ""
		if call.Ellipsis.IsValid() {
			dots = "..."
		}
		return "func() { (" + x + ")." + print + "(" + strings.Join(args, ", ") + dots + "); " + cHooks + ".Exit(1) }()"
	})
}

// goStmt gives a goroutine that the cell starts a recover of its own: its
// panic is reported and ends neither the cell nor the process. The
// function and its arguments are evaluated where the statement is, as Go
// evaluates them.
func (g *cgen) goStmt(st *ast.GoStmt) {
	call := st.Call
	var names, vals, args []string
	fun := g.text(call.Fun)
	tv := g.c.info.Types[call.Fun]
	_, generic := g.c.info.Instances[calleeIdent(call.Fun)]
	if !tv.IsBuiltin() && !generic {
		names = append(names, "ꞏgf")
		vals = append(vals, fun)
		fun = "ꞏgf"
	}
	for i, a := range call.Args {
		atv := g.c.info.Types[a]
		if atv.Value != nil || atv.IsNil() {
			args = append(args, g.text(a)) // a constant: no evaluation to keep
			continue
		}
		if tuple, ok := atv.Type.(*types.Tuple); ok && len(call.Args) == 1 {
			var ns []string
			for j := 0; j < tuple.Len(); j++ {
				ns = append(ns, "ꞏga"+strconv.Itoa(j))
			}
			names = append(names, strings.Join(ns, ", "))
			vals = append(vals, g.text(a))
			args = append(args, ns...)
			continue
		}
		n := "ꞏga" + strconv.Itoa(i)
		names = append(names, n)
		vals = append(vals, g.text(a))
		args = append(args, n)
	}
	dots := ""
	if call.Ellipsis.IsValid() {
		dots = "..."
	}
	g.substitute(st, func(string) string {
		def := ""
		if len(names) > 0 {
			def = strings.Join(names, ", ") + " := " + strings.Join(vals, ", ") + "; "
		}
		return "{ " + def + "go func() { defer " + cHooks + ".GoStart()(); defer " + cHooks + ".Recover(); " + fun + "(" + strings.Join(args, ", ") + dots + ") }() }"
	})
}

// lineRE matches the check source's //line comments.
var lineRE = regexp.MustCompile(`//line cell:(\d+):(\d+)`)

// assemble writes the package's file: the imports, the cell's rewritten
// declarations and statements, and what the package adds: the variables,
// accessors, aliases, ꞏpre and the registration.
func (g *cgen) assemble() string {
	c := g.c
	g.initOrder()
	// The types' aliases, the constants' exported names, and the
	// accessors of unexported fields.
	for _, ts := range c.types {
		obj, _ := c.info.Defs[ts.Name].(*types.TypeName)
		if obj == nil || ts.Name.Name == "_" {
			continue
		}
		if ts.TypeParams != nil {
			params := g.text(ts.TypeParams)
			var names []string
			for _, f := range ts.TypeParams.List {
				for _, n := range f.Names {
					names = append(names, n.Name)
				}
			}
			fmt.Fprintf(&g.header, "type %s%s = %s[%s]\n", cAlias+obj.Name(), params, obj.Name(), strings.Join(names, ", "))
		} else {
			fmt.Fprintf(&g.header, "type %s = %s\n", cAlias+obj.Name(), obj.Name())
		}
		if st, ok := obj.Type().Underlying().(*types.Struct); ok && ts.TypeParams == nil && !obj.IsAlias() {
			for i := 0; i < st.NumFields(); i++ {
				f := st.Field(i)
				if f.Exported() || f.Name() == "_" || f.Pkg() != c.pkg {
					continue // a field of another package's struct (type T time.Time) is not this cell's
				}
				t, ok := g.typeSrc(f.Type())
				if !ok {
					continue // another package's type: no later cell can use the field
				}
				fmt.Fprintf(&g.header, "func (%s) %s(ꞏx *%s) *%s { return &ꞏx.%s }\n", cNamespace, cFieldAcc+obj.Name()+"ꞏ"+f.Name(), obj.Name(), t, f.Name())
			}
		}
	}
	for _, vs := range c.consts {
		for _, id := range vs.Names {
			if id.Name != "_" {
				fmt.Fprintf(&g.header, "const %s = %s\n", cConst+id.Name, id.Name)
			}
		}
	}
	// The statements' top-level variables.
	var tops []string
	for name := range c.topVars {
		tops = append(tops, name)
	}
	sort.Strings(tops)
	for _, name := range tops {
		v := c.topVars[name]
		if g.reuse[v] {
			continue
		}
		t, ok := g.typeSrc(v.Type())
		if !ok {
			g.failf(v.Pos(), "variable %s has a type a compiled cell cannot write (%s)", name, v.Type())
			return ""
		}
		fmt.Fprintf(&g.header, "var %s %s\n", cVar+name, t)
		fmt.Fprintf(&g.header, "func (%s) %s() *%s { return &%s }\n", cNamespace, cVarAcc+name, t, cVar+name)
	}

	body := g.ed.render(c.text, strings.Index(c.text, "\n")+1, len(c.text))
	body = lineRE.ReplaceAllStringFunc(body, func(m string) string {
		sub := lineRE.FindStringSubmatch(m)
		l, _ := strconv.Atoi(sub[1])
		return fmt.Sprintf("//line %s:%d:%s", CompiledFile, l, sub[2])
	})
	if g.why != "" {
		return ""
	}

	// The symbol table and the injected variables, before the imports:
	// constants may need go/constant.
	var table strings.Builder
	table.WriteString("func init() {\n\t" + cNative + ".Register(&" + cNative + ".Cell{Run: " + cRun + ", Stop: &" + cStop + ", Hooks: &" + cHooks + ",\n\t\tSymbols: map[string]" + cReflect + ".Value{\n")
	g.symbols(&table, tops)
	table.WriteString("\t\t},\n\t\tInject: map[string]" + cReflect + ".Value{\n")
	var inj []string
	for _, n := range g.inject {
		inj = append(inj, n)
	}
	sort.Strings(inj)
	for _, n := range inj {
		fmt.Fprintf(&table, "\t\t\t%q: %s.ValueOf(&%s).Elem(),\n", n, cReflect, n)
	}
	table.WriteString("\t\t},\n\t})\n}\n\n")

	var b strings.Builder
	b.WriteString("// Code generated by gotensor for a notebook cell. DO NOT EDIT.\n\npackage main\n\nimport (\n")
	var lines []string
	for p, n := range g.imports {
		if g.used[p] > 0 || n == "_" {
			lines = append(lines, fmt.Sprintf("\t%s %q\n", n, p))
		}
	}
	for p, n := range g.own {
		lines = append(lines, fmt.Sprintf("\t%s %q\n", n, p))
	}
	sort.Strings(lines)
	b.WriteString(strings.Join(lines, ""))
	b.WriteString(")\n\n")
	fmt.Fprintf(&b, "type %s struct{}\n\n", cNamespace)
	fmt.Fprintf(&b, "var %s int32\nvar %s = &%s\nvar %s *%s.Hooks\n\n", cStop, cStopAt, cStop, cHooks, cNative)
	b.WriteString(g.header.String())
	fmt.Fprintf(&b, "\nfunc %s() {\n%s%s%s%s}\n\n", cPre, g.preSlots.String(), g.preZero.String(), g.preInit.String(), g.preInits.String())
	b.WriteString(table.String())
	// sync/atomic is used by the loops' checks, if the cell has loops.
	fmt.Fprintf(&b, "var _ = %s.LoadInt32\n\n", cAtomic)
	b.WriteString(body)
	b.WriteString("\n")
	return b.String()
}

// symbols writes the cell's symbol table: its types, constants,
// variables and function slots, for the interpreter.
func (g *cgen) symbols(b *strings.Builder, tops []string) {
	c := g.c
	add := func(key, val string) { fmt.Fprintf(b, "\t\t\t%q: %s,\n", key, val) }
	for _, ts := range c.types {
		obj, _ := c.info.Defs[ts.Name].(*types.TypeName)
		if obj == nil || ts.Name.Name == "_" || ts.TypeParams != nil {
			continue
		}
		add(cAlias+obj.Name(), cReflect+".ValueOf((*"+obj.Name()+")(nil))")
	}
	for _, vs := range c.consts {
		for _, id := range vs.Names {
			k, _ := c.info.Defs[id].(*types.Const)
			if k == nil || id.Name == "_" {
				continue
			}
			if b, ok := k.Type().(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
				m := constMaker(k.Val())
				g.importName("go/constant", cConstPkg)
				if strings.Contains(m, cTokenPkg+".") {
					g.importName("go/token", cTokenPkg)
				}
				add(cConst+id.Name, cReflect+".ValueOf("+m+")")
			} else {
				add(cConst+id.Name, cReflect+".ValueOf("+id.Name+")")
			}
		}
	}
	// Variables as pointers: the interpreter takes a variable of a
	// compiled package of a basic type for a constant (see
	// Session.commitCompiled).
	for _, vs := range c.vars {
		for _, id := range vs.Names {
			if id.Name != "_" {
				add(cVarAcc+id.Name, cReflect+".ValueOf(&"+cVar+id.Name+")")
			}
		}
	}
	for _, fd := range c.funcs {
		f, _ := c.info.Defs[fd.Name].(*types.Func)
		if f == nil || isGenericFunc(f) || g.reuse[f] || fd.Name.Name == "init" || fd.Name.Name == "main" || fd.Name.Name == "_" {
			continue
		}
		add(cSlotAcc+f.Name(), cReflect+".ValueOf(&"+cSlot+f.Name()+").Elem()")
	}
	for _, name := range tops {
		if !g.reuse[c.topVars[name]] {
			add(cVarAcc+name, cReflect+".ValueOf(&"+cVar+name+")")
		}
	}
}

// constMaker writes Go source that makes the go/constant value v, for the
// interpreter's table of an untyped constant.
func constMaker(v constant.Value) string {
	switch v.Kind() {
	case constant.Bool:
		return cConstPkg + ".MakeBool(" + v.ExactString() + ")"
	case constant.String:
		return cConstPkg + ".MakeString(" + v.ExactString() + ")"
	case constant.Int:
		return cConstPkg + ".MakeFromLiteral(" + strconv.Quote(v.ExactString()) + ", " + cTokenPkg + ".INT, 0)"
	case constant.Float:
		s := v.ExactString()
		if num, den, ok := strings.Cut(s, "/"); ok {
			return cConstPkg + ".BinaryOp(" + cConstPkg + ".MakeFromLiteral(" + strconv.Quote(num) + ", " + cTokenPkg + ".INT, 0), " + cTokenPkg + ".QUO, " + cConstPkg + ".MakeFromLiteral(" + strconv.Quote(den) + ", " + cTokenPkg + ".INT, 0))"
		}
		return cConstPkg + ".MakeFromLiteral(" + strconv.Quote(s) + ", " + cTokenPkg + ".FLOAT, 0)"
	case constant.Complex:
		return cConstPkg + ".BinaryOp(" + constMaker(constant.Real(v)) + ", " + cTokenPkg + ".ADD, " + cConstPkg + ".MakeImag(" + constMaker(constant.Imag(v)) + "))"
	}
	return cConstPkg + ".MakeUnknown()"
}

// widgetsPath is the import path of package widgets.
const widgetsPath = ModulePath + "/widgets"

// adopt makes the widgets that a call of package widgets' function fn
// makes the session's (native.Hooks.Adopt): the interpreter's table binds
// its constructors to the session, compiled code calls them as they are.
func (g *cgen) adopt(call *ast.CallExpr, fn *types.Func) {
	pkg, err := g.s.u.Import(widgetsPath)
	if err != nil {
		return
	}
	wt, ok := pkg.Scope().Lookup("Widget").(*types.TypeName)
	if !ok {
		return
	}
	iface, ok := wt.Type().Underlying().(*types.Interface)
	if !ok {
		return
	}
	res := fn.Type().(*types.Signature).Results()
	var names, types_, adopts []string
	makes := false
	for i := 0; i < res.Len(); i++ {
		t := res.At(i).Type()
		ts, ok := g.typeSrc(t)
		if !ok {
			return
		}
		n := "ꞏr" + strconv.Itoa(i)
		names = append(names, n)
		types_ = append(types_, n+" "+ts)
		if types.Implements(t, iface) {
			makes = true
			adopts = append(adopts, cHooks+".Adopt("+n+")")
		}
	}
	if !makes {
		return
	}
	g.substitute(call, func(inner string) string {
		return "func() (" + strings.Join(types_, ", ") + ") { " + strings.Join(names, ", ") + " = " + inner + "; " + strings.Join(adopts, "; ") + "; return }()"
	})
}
