package plan

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// Compiled cells.
//
// With Config.Compile set (the kernel found a Go toolchain), a cell that
// declares functions, methods or types, or that loops at its top level,
// is not planned for the interpreter: its plan holds the Go source of a
// package (Plan.Compiled), which the executor compiles with the Go
// toolchain into a plugin, opens, and runs. Its functions, methods and
// loops run at compiled speed, and what it declares stays in the session:
//
//   - The package is `package main`, so that fmt's %T and %v print a cell's
//     types as Go prints them (main.Point). Its import path is the
//     executor's (a hash of the source), and later compiled cells import it
//     to use what it declares.
//   - Go gives a package no access to another's unexported names, and a
//     package main with exported functions or variables cannot be linked
//     into another plugin (the compiler writes a plugin table for each).
//     So every package-level function and variable of the cell is declared
//     under an unexported name of its own (ꞏf_name, ꞏv_name), and the
//     package exports only types and constants: an alias of each of its
//     types (Tꞏname), each constant (Cꞏname), and a type Gtꞏ whose methods
//     give the other packages pointers to its variables (Vꞏname) and to
//     its function slots (Sꞏname), and the unexported fields of its struct
//     types (Aꞏtypeꞏfield). Unexported methods of the cells' types are
//     declared under an exported name (Mꞏname), so that a type of a later
//     cell can implement a cell's interface and call them. These methods
//     are small and the compiler inlines them: a later cell's loop reads
//     an earlier cell's variable or field as fast as its own.
//   - Functions are called through their slot, a variable holding the
//     function, so that a function declared again later (with the same
//     signature) is what the functions compiled before call, as in
//     interpreted cells. Generic functions have no slot: later cells
//     call the version they were compiled against.
//   - The cell's statements are the body of one function, Run, whose
//     top-level variables are package-level variables, so that later
//     cells see them. Package-level var declarations (a pasted program's)
//     are initialized by Run in Go's order, then init functions run, the
//     statements, and func main; re-running the same cell runs them again.
//   - Every loop checks the cell's stop flag (the interrupt, and widgets'
//     callbacks: see native.Hooks), and every function that calls a
//     function or method of a cell, or a function value, checks its
//     goroutine's stack against native.MaxStack, so that runaway
//     recursion ends the cell and not the process. go statements recover
//     their goroutine's panic; os.Exit, log.Fatal, time.Sleep, print,
//     println and fmt's printing to standard output go through the
//     session's hooks.
//   - The interpreter's variables the cell uses are reached through
//     pointers that the executor sets before Run (Compiled.Inject).
//
// After a compiled cell commits, later cells see its declarations as
// they see any cell's: the checker takes them for the session's, and an
// interpreted cell spells them as the plugin's symbols (_gtc2.Vꞏx), which
// the executor gives the interpreter. An interpreted cell cannot reach
// unexported fields and methods of a compiled type, nor instantiate a
// compiled generic function or type: a cell that does is compiled.
//
// What the compiled package cannot do falls back to the interpreter when
// it can (a variable of a type that no Go source outside its package can
// name, a function that only the interpreter has), with the reason in
// Compiled's place: Plan.Interpreted.

// compiledMark is the name of a constant that marks the package of a cell
// that ran compiled: its value is the package's import path.
const compiledMark = "ꞏcompiled"

// compiledPath returns the import path of the compiled package that pkg,
// a cell's package, ran as, and false for a cell that ran interpreted or a
// package of another kind.
func compiledPath(pkg *types.Package) (string, bool) {
	if pkg == nil || pkg.Path() != cellPath {
		return "", false
	}
	c, ok := pkg.Scope().Lookup(compiledMark).(*types.Const)
	if !ok {
		return "", false
	}
	return constant.StringVal(c.Val()), true
}

// markCompiled marks pkg as the package of a cell that ran compiled as the
// package at path.
func markCompiled(pkg *types.Package, path string) {
	pkg.Scope().Insert(types.NewConst(token.NoPos, pkg, compiledMark, types.Typ[types.UntypedString], constant.MakeString(path)))
}

// interpretedCell reports whether pkg is the package of a cell the
// interpreter ran: its types are the interpreter's, with the workarounds
// that the rewrites give them. A compiled cell's types are compiled.
func interpretedCell(pkg *types.Package) bool {
	if pkg == nil || pkg.Path() != cellPath {
		return false
	}
	_, compiled := compiledPath(pkg)
	return !compiled
}

// Compiled is the Go package that a compiled cell runs as (see Plan).
type Compiled struct {
	// Source is the package's only file.
	Source string

	// Imports are the import paths the file imports: packages, and
	// earlier compiled cells (see Cells).
	Imports []string

	// Cells are the import paths of the earlier compiled cells the
	// package imports; they are in Imports too.
	Cells []string

	// Inject maps a variable of the package to the interpreter expression
	// whose value the executor sets it to before Run: the address of an
	// interpreted variable (&x), or an interpreted function (f).
	Inject map[string]string

	// Path is the import path the executor compiled the package under;
	// it sets Path before Commit, which records it for later cells.
	Path string

	// Steps are the interpreter's steps that import what the cell
	// imported (StepImport), for later interpreted cells: the executor
	// runs them after the cell.
	Steps []Step

	// Redefined maps the types the cell declares again to the import
	// path of the compiled cell that declared them before ("" when it ran
	// interpreted): the same cell run again is the same package, and its
	// types the same types.
	Redefined map[string]string
}

// Table keys and names of compiled cell packages. A cell's names cannot
// start with ꞏ (U+A78F, a letter no keyboard writes), so these cannot
// collide with them.
const (
	cNamespace = "Gtꞏ"      // the type whose methods reach variables, slots and fields
	cAlias     = "Tꞏ"       // alias of a type
	cConst     = "Cꞏ"       // a constant
	cGeneric   = "Gꞏ"       // a generic function
	cVarAcc    = "Vꞏ"       // method: pointer to a variable
	cSlotAcc   = "Sꞏ"       // method: pointer to a function slot
	cFieldAcc  = "Aꞏ"       // method: pointer to an unexported field: Aꞏtypeꞏfield
	cMethod    = "Mꞏ"       // an unexported method's exported name
	cVar       = "ꞏv_"      // a package-level variable
	cFunc      = "ꞏf_"      // a function's declaration
	cSlot      = "ꞏs_"      // a function's slot
	cInject    = "ꞏp_"      // a pointer to an interpreter variable, or its function
	cHooks     = "ꞏh"       // *native.Hooks
	cStop      = "ꞏstop"    // the stop flag
	cStopAt    = "ꞏstopAt"  // a package variable holding &ꞏstop (see stopLocal)
	cStopLocal = "ꞏsp"      // a function's local copy of ꞏstopAt
	cRun       = "ꞏrun"     // the statements
	cPre       = "ꞏpre"     // what runs before them
	cNative    = "ꞏnative"  // the runtime's package name
	cAtomic    = "ꞏatomic"  // sync/atomic
	cReflect   = "ꞏreflect" // reflect
	cConstPkg  = "ꞏconstant"
	cTokenPkg  = "ꞏtoken"
)

// CompiledFile is the file name that a compiled cell's positions give,
// with the cell's own lines: the cell's number is not in its source, so
// that the same cell run again (in this session or a restarted one) is
// the same package, which the executor's cache has built. The executor
// knows which cell ran a package last.
const CompiledFile = "cell.go"

// NativePath is the import path of package native, the runtime that
// compiled cells call.
const NativePath = "github.com/gotensor/gotensor/interp/internal/native"

// cellName returns the name under which the interpreter finds name, an
// object of a compiled cell of kind obj, in that cell's table.
func tableKey(obj types.Object) string {
	switch o := obj.(type) {
	case *types.TypeName:
		return cAlias + o.Name()
	case *types.Const:
		return cConst + o.Name()
	case *types.Func:
		if isGenericFunc(o) {
			return cGeneric + o.Name()
		}
		return cSlotAcc + o.Name()
	case *types.Var:
		return cVarAcc + o.Name()
	}
	return obj.Name()
}

// isGenericFunc reports whether f has type parameters.
func isGenericFunc(f *types.Func) bool {
	sig, ok := f.Type().(*types.Signature)
	return ok && sig.TypeParams() != nil
}

// wantsCompile reports whether a cell is worth compiling: it declares a
// function, a method or a type, or loops at its top level. Glue (1+1,
// calls of the library, a print) runs in the interpreter, which starts
// at once; the decision depends on the cell's text alone, so a notebook
// runs the same way every time.
func (c *cell) wantsCompile() bool {
	if len(c.funcs) > 0 || len(c.methods) > 0 || len(c.types) > 0 {
		return true
	}
	if c.body == nil {
		return false
	}
	for _, st := range c.body.Body.List {
		for {
			l, ok := st.(*ast.LabeledStmt)
			if !ok {
				break
			}
			st = l.Stmt
		}
		switch st.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		}
	}
	return false
}

// needsCompile returns, for a cell the interpreter could otherwise run, a
// construct that only compiled code can do with the compiled cells'
// declarations: a use of an unexported field or method of a compiled
// type, a composite literal of a compiled struct type with unexported
// fields, an instance of a compiled generic function or type. It returns
// "" when there is none.
func (c *cell) needsCompile() (string, token.Pos) {
	var why string
	var at token.Pos
	compiled := func(pkg *types.Package) bool {
		_, ok := compiledPath(pkg)
		return ok
	}
	ast.Inspect(c.file, func(n ast.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if sel, ok := c.info.Selections[n]; ok && !sel.Obj().Exported() && compiled(sel.Obj().Pkg()) {
				why, at = "the unexported "+selKind(sel)+" "+sel.Obj().Name()+" of a type compiled in an earlier cell", n.Sel.Pos()
			}
			if sel, ok := c.info.Selections[n]; ok && sel.Kind() == types.FieldVal {
				for _, f := range fieldPath(sel) {
					if !f.Exported() && compiled(f.Pkg()) {
						why, at = "the unexported field "+f.Name()+" of a type compiled in an earlier cell", n.Sel.Pos()
					}
				}
			}
		case *ast.CompositeLit:
			if st, named := structOf(c.info.Types[n].Type); st != nil && named != nil && compiled(named.Obj().Pkg()) {
				for i := 0; i < st.NumFields(); i++ {
					if !st.Field(i).Exported() {
						why, at = "a literal of "+named.Obj().Name()+", a struct type with unexported fields compiled in an earlier cell", n.Pos()
						break
					}
				}
			}
		case *ast.Ident:
			if inst, ok := c.info.Instances[n]; ok && inst.TypeArgs.Len() > 0 {
				if obj := c.info.Uses[n]; obj != nil && compiled(obj.Pkg()) {
					why, at = "an instance of "+obj.Name()+", generic code compiled in an earlier cell", n.Pos()
				}
			}
		}
		return true
	})
	return why, at
}

// selKind names what a selection selects.
func selKind(sel *types.Selection) string {
	if sel.Kind() == types.FieldVal {
		return "field"
	}
	return "method"
}

// fieldPath returns the fields a field selection goes through, the
// embedded ones and the selected one, in order.
func fieldPath(sel *types.Selection) []*types.Var {
	var path []*types.Var
	t := sel.Recv()
	for _, i := range sel.Index() {
		st, _ := structOf(t)
		if st == nil || i >= st.NumFields() {
			return path
		}
		f := st.Field(i)
		path = append(path, f)
		t = f.Type()
	}
	return path
}

// structOf returns the struct type t is (or points to), and the named
// type that declares it, if any.
func structOf(t types.Type) (*types.Struct, *types.Named) {
	if t == nil {
		return nil, nil
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, _ := types.Unalias(t).(*types.Named)
	st, _ := t.Underlying().(*types.Struct)
	return st, named
}

// compiledImport returns the name under which interpreted cells import the
// compiled package at path (its symbol table), choosing one the first time.
func (s *Session) compiledImport(path string) string {
	if name, ok := s.cimports[path]; ok {
		return name
	}
	name := "_gtc" + strconv.Itoa(len(s.cimports)+1)
	s.cimports[path] = name
	return name
}

// CompiledImports returns the compiled cells' packages the interpreter
// must have imported, by the name interpreted cells spell them with:
// import path → name, in no order.
func (s *Session) CompiledImports() map[string]string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m := make(map[string]string, len(s.cimports))
	for p, n := range s.cimports {
		m[p] = n
	}
	return m
}

// commitCompiled records what a compiled cell declared once it ran: the
// session's names point at the objects of its check, whose package is
// marked as compiled at path, and the interpreter's names of them are the
// plugin's symbols.
func (s *Session) commitCompiled(c *cell, p *Plan, reuse map[types.Object]bool) {
	path := p.Compiled.Path
	markCompiled(c.pkg, path)
	s.recordTypes(c)
	imp := s.compiledImport(path)
	name := func(obj types.Object) {
		s.yname[obj] = imp + "." + tableKey(obj)
		if v, ok := obj.(*types.Var); ok && !v.IsField() {
			// A pointer in the table: yaegi takes a compiled package's
			// variable of a basic type for a constant.
			s.yname[obj] = "(*" + s.yname[obj] + ")"
		}
	}
	src := func(from, to token.Pos) string {
		return strings.TrimSpace(c.text[c.tf.Offset(from):c.tf.Offset(to)])
	}
	// The declarations without bodies, for Inspect (Shift-Tab).
	for _, ts := range c.types {
		doc := ts.Doc
		if doc == nil {
			doc = typeDoc(c.file, ts)
		}
		s.sources[ts.Name.Name] = "type " + src(ts.Pos(), ts.End()) + docText(doc)
	}
	for _, fd := range c.funcs {
		s.sources[fd.Name.Name] = src(fd.Pos(), fd.Type.End()) + docText(fd.Doc)
	}
	for _, m := range c.methods {
		recv, _ := recvBase(m.Recv.List[0].Type)
		s.sources[recv+"."+m.Name.Name] = src(m.Pos(), m.Type.End()) + docText(m.Doc)
	}
	for _, d := range c.types {
		if obj, ok := c.info.Defs[d.Name].(*types.TypeName); ok && d.Name.Name != "_" {
			if old, ok := s.entries[obj.Name()]; ok {
				if tn, ok := old.obj.(*types.TypeName); ok {
					if _, has := s.yname[tn]; !has {
						s.unprintable[tn] = true
					}
				}
			}
			s.entries[obj.Name()] = &entry{obj: obj, cell: c.n}
			s.noteTypeAt(c, obj)
			delete(s.imports, obj.Name())
			s.versions[obj.Name()]++
			name(obj)
		}
	}
	for _, specs := range [][]*ast.ValueSpec{c.consts, c.vars} {
		for _, vs := range specs {
			for _, id := range vs.Names {
				if obj := c.info.Defs[id]; obj != nil && id.Name != "_" {
					s.entries[id.Name] = &entry{obj: obj, cell: c.n}
					delete(s.imports, id.Name)
					name(obj)
				}
			}
		}
	}
	for _, fd := range c.funcs {
		obj, _ := c.info.Defs[fd.Name].(*types.Func)
		if obj == nil || fd.Name.Name == "init" || fd.Name.Name == "_" || fd.Name.Name == "main" && fd.Recv == nil && fd.Type.TypeParams == nil {
			continue
		}
		if reuse[obj] {
			continue // the cell assigned the slot of the session's function
		}
		s.entries[obj.Name()] = &entry{obj: obj, cell: c.n}
		delete(s.imports, obj.Name())
		name(obj)
	}
	for _, m := range c.methods {
		obj, _ := c.info.Defs[m.Name].(*types.Func)
		if obj == nil {
			continue
		}
		recv := obj.Type().(*types.Signature).Recv()
		if recv == nil {
			continue
		}
		t := recv.Type()
		if ptr, ok := t.(*types.Pointer); ok {
			t = ptr.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			tn := n.Origin().Obj()
			if s.methods[tn] == nil {
				s.methods[tn] = map[string]int{}
			}
			s.methods[tn][m.Name.Name] = c.n
		}
	}
	names := make([]string, 0, len(c.topVars))
	for n := range c.topVars {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := c.topVars[n]
		if reuse[v] {
			continue
		}
		nv := types.NewVar(v.Pos(), c.pkg, n, v.Type())
		s.entries[n] = &entry{obj: nv, cell: c.n}
		delete(s.imports, n)
		name(nv)
	}
}

// planCompiled plans cell c, checked, as a compiled package when it is
// worth compiling (wantsCompile) or must be (needsCompile). It returns a
// nil plan, and why, for a cell the interpreter runs; an error for a cell
// that must be compiled and cannot be.
func (s *Session) planCompiled(c *cell) (*Plan, string, error) {
	need, needAt := c.needsCompile()
	if !c.wantsCompile() && need == "" {
		return nil, "", nil
	}
	cp, reuse, ok, why, at := s.compile(c)
	if !ok {
		if need != "" {
			e := c.errorAt(c.fset.Position(needAt), "this cell uses "+need+", which only compiled code can, and it cannot be compiled: "+why)
			return nil, "", ErrorList{e}
		}
		if at.IsValid() {
			p := c.fset.Position(at)
			if p.Filename == "cell" {
				why = fmt.Sprintf("%s (line %d)", why, p.Line)
			}
		}
		return nil, why, nil
	}
	p := &Plan{Cell: c.n, Compiled: cp}
	type imported struct{ name, path string }
	var imps []imported
	for _, sp := range c.imports {
		path, _ := strconv.Unquote(sp.Path.Value)
		name := importName(sp, s.u)
		if s.imports[name] == path || name == "_" {
			continue
		}
		imps = append(imps, imported{name, path})
		src := "import " + strconv.Quote(path)
		if sp.Name != nil {
			src = "import " + sp.Name.Name + " " + strconv.Quote(path)
		}
		if (path == "unsafe" || s.u.InTables(path)) && s.imported[name] != path && name != "." {
			cp.Steps = append(cp.Steps, Step{Kind: StepImport, Src: src, Import: &Import{Name: name, Path: path}, Declares: []string{name}})
		}
	}
	at2 := func(pos token.Pos) int {
		line, _ := c.lineCol(max(c.cellOffset(c.tf.Offset(pos)), 0))
		return line
	}
	for _, ts := range c.types {
		if obj := c.info.Defs[ts.Name]; obj != nil && ts.Name.Name != "_" {
			_, redef := s.entries[ts.Name.Name]
			p.Decls = append(p.Decls, Decl{Kind: DeclType, Name: ts.Name.Name, Type: obj.Type(), Redefines: redef, Line: at2(ts.Pos())})
		}
	}
	for _, fd := range c.funcs {
		if obj := c.info.Defs[fd.Name]; obj != nil && fd.Name.Name != "init" && fd.Name.Name != "_" {
			p.Decls = append(p.Decls, Decl{Kind: DeclFunc, Name: fd.Name.Name, Type: obj.Type(), Reuse: reuse[obj], Line: at2(fd.Pos())})
			if fd.Name.Name == "main" && fd.Type.TypeParams == nil {
				p.Main = true
			}
		}
	}
	for _, m := range c.methods {
		name, _ := recvBase(m.Recv.List[0].Type)
		p.Decls = append(p.Decls, Decl{Kind: DeclMethod, Name: name + "." + m.Name.Name, Line: at2(m.Pos())})
	}
	for kind, specs := range map[DeclKind][]*ast.ValueSpec{DeclConst: c.consts, DeclVar: c.vars} {
		for _, vs := range specs {
			for _, id := range vs.Names {
				if obj := c.info.Defs[id]; obj != nil && id.Name != "_" {
					p.Decls = append(p.Decls, Decl{Kind: kind, Name: id.Name, Type: obj.Type(), Line: at2(id.Pos())})
				}
			}
		}
	}
	for name, v := range c.topVars {
		p.Decls = append(p.Decls, Decl{Kind: DeclVar, Name: name, Type: v.Type(), Reuse: reuse[v], Line: at2(v.Pos())})
	}
	sort.SliceStable(p.Decls, func(i, j int) bool { return p.Decls[i].Line < p.Decls[j].Line })
	cp.Redefined = map[string]string{}
	for _, ts := range c.types {
		if e, ok := s.entries[ts.Name.Name]; ok && ts.Name.Name != "_" {
			if _, isType := e.obj.(*types.TypeName); isType {
				cp.Redefined[ts.Name.Name], _ = compiledPath(e.obj.Pkg())
			}
			p.Warnings = append(p.Warnings, fmt.Sprintf("type %s is redefined; values made before this cell keep the old definition and its methods", ts.Name.Name))
		}
	}
	p.commit = func(ran int) {
		if ran > 0 && cp.Path != "" {
			for _, imp := range imps {
				delete(s.entries, imp.name)
				s.imports[imp.name] = imp.path
				if imp.name != "." {
					s.imported[imp.name] = imp.path
				}
			}
			s.commitCompiled(c, p, reuse)
		}
	}
	return p, "", nil
}

// SetCompile turns compiled cells on or off (see Config.Compile): off when
// the executor finds it cannot build them.
func (s *Session) SetCompile(on bool) {
	s.mu.Lock()
	s.cfg.Compile = on
	s.mu.Unlock()
}

// Interpret plans a cell for the interpreter, as Plan does without
// Config.Compile: for a cell that the Go compiler refused.
func (s *Session) Interpret(n int, src string) (*Plan, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.interpret(n, src)
}

// Debug plans a cell for the interpreter's debugger, as Interpret does,
// with Plan.Debug set: yaegi's debugger runs each step in a goroutine of
// its own, which the cell's run block makes the session's first (see
// cellrt.Runtime.GoStart).
func (s *Session) Debug(n int, src string) (*Plan, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.debug = true
	defer func() { s.debug = false }()
	return s.interpret(n, src)
}

func (s *Session) interpret(n int, src string) (*Plan, error) {
	on := s.cfg.Compile
	s.cfg.Compile = false
	defer func() { s.cfg.Compile = on }()
	p, err := s.plan(n, src, true)
	if p != nil {
		p.Debug = s.debug
	}
	return p, err
}

// A compiled type's source: its declaration and its methods', which a
// later cell that declares a method on the type declares again with it
// (see withTypes).
type compiledType struct {
	decl    string
	methods map[string]string // method name → declaration
	order   []string          // method names, in the order declared
}

// withTypes returns src with, after it, the declarations of the compiled
// types that src declares methods on, and their methods that src does not
// declare again: a compiled type cannot gain methods, so the cell declares
// the type again with all of them (a new version, as a type declared
// again: values made before keep the old one, and the cell warns). It
// returns src when there is none.
func (s *Session) withTypes(src string) string {
	var extra []string
	seen := map[string]bool{}
	own := map[string]map[string]bool{} // type → methods src declares
	declared := map[string]bool{}       // types src declares
	for _, p := range splitCell(src) {
		if p.kind != pieceDecl {
			continue
		}
		text := src[p.start:p.end]
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+text, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil || len(d.Recv.List) != 1 {
					continue
				}
				name, _ := recvBase(d.Recv.List[0].Type)
				if own[name] == nil {
					own[name] = map[string]bool{}
				}
				own[name][d.Name.Name] = true
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					if ts, ok := sp.(*ast.TypeSpec); ok {
						declared[ts.Name.Name] = true
					}
				}
			}
		}
	}
	for name, methods := range own {
		ts, ok := s.ctypes[name]
		e, live := s.entries[name]
		if !ok || !live || declared[name] || seen[name] {
			continue
		}
		if _, isType := e.obj.(*types.TypeName); !isType {
			continue
		}
		if _, compiled := compiledPath(e.obj.Pkg()); !compiled {
			continue
		}
		seen[name] = true
		extra = append(extra, ts.decl)
		for _, m := range ts.order {
			if !methods[m] {
				extra = append(extra, ts.methods[m])
			}
		}
	}
	if len(extra) == 0 {
		return src
	}
	return src + "\n\n// Declared again with the methods above (a compiled type cannot gain methods):\n" + strings.Join(extra, "\n\n") + "\n"
}

// recordTypes keeps the source of the types and methods a compiled cell
// declared, for withTypes.
func (s *Session) recordTypes(c *cell) {
	text := func(n ast.Node, doc *ast.CommentGroup) string {
		start := n.Pos()
		if doc != nil {
			start = doc.Pos()
		}
		return strings.TrimSpace(c.text[c.tf.Offset(start):c.tf.Offset(n.End())])
	}
	for _, ts := range c.types {
		if ts.Name.Name == "_" {
			continue
		}
		doc := ts.Doc
		if doc == nil {
			doc = typeDoc(c.file, ts)
		}
		s.ctypes[ts.Name.Name] = &compiledType{decl: "type " + text(ts, nil), methods: map[string]string{}}
		if doc != nil {
			s.ctypes[ts.Name.Name].decl = strings.TrimSpace(doc.Text()) + "\n" + s.ctypes[ts.Name.Name].decl
			s.ctypes[ts.Name.Name].decl = commentLines(s.ctypes[ts.Name.Name].decl)
		}
	}
	for _, m := range c.methods {
		name, _ := recvBase(m.Recv.List[0].Type)
		ts, ok := s.ctypes[name]
		if !ok {
			continue
		}
		if _, had := ts.methods[m.Name.Name]; !had {
			ts.order = append(ts.order, m.Name.Name)
		}
		ts.methods[m.Name.Name] = text(m, m.Doc)
	}
}

// commentLines writes the lines of a doc comment's text, before the
// declaration's last line, as // comments.
func commentLines(s string) string {
	lines := strings.Split(s, "\n")
	for i := range lines[:len(lines)-1] {
		lines[i] = "// " + lines[i]
	}
	return strings.Join(lines, "\n")
}

// FunctionSources returns, for each function (not method, not generic) a
// cell's source declares, the source with everything but the cell's
// imports and that function blanked, lines kept: planned with Interpret
// under the cell's number, it declares the function again in the
// interpreter at the cell's lines, which the debugger can stop in.
func FunctionSources(src string) map[string]string {
	out := map[string]string{}
	pieces := splitCell(src)
	for i, p := range pieces {
		if p.kind != pieceDecl || p.first != token.FUNC {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+src[p.start:p.end], parser.SkipObjectResolution)
		if err != nil || len(f.Decls) != 1 {
			continue
		}
		fd, ok := f.Decls[0].(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Type.TypeParams != nil || fd.Name.Name == "main" || fd.Name.Name == "init" {
			continue
		}
		b := []byte(src)
		for j, q := range pieces {
			if j == i || q.kind == pieceImport {
				continue
			}
			for k := q.start; k < q.end; k++ {
				if b[k] != '\n' {
					b[k] = ' '
				}
			}
		}
		out[fd.Name.Name] = string(b)
	}
	return out
}
