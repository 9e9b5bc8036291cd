package plan

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Plan plans cell number n, whose source is src, against the session:
// it parses and type-checks the whole cell and returns its compile errors
// (an ErrorList, in the Go compiler's words, at the cell's positions) or
// the steps that run it. Nothing changes in the session until Commit.
//
// The one exception: a cell that calls a method it declares on a type of
// an earlier cell adds the method to the type while it is checked, and
// go/types cannot take it back; if the cell is then not run, the session
// believes the type has the method.
func (s *Session) Plan(n int, src string) (*Plan, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.plan(n, src, true)
}

// plan plans a cell. With stale set, a cell that declares a constant
// again with another value also declares again the functions of earlier
// cells that use it, so that they see the new value, as Go would: the
// interpreter compiles a constant's value into the code that uses it.
// Likewise a cell that declares a type implementing an interface that
// functions of earlier cells test values for declares those functions
// again (see staleAsserts).
// When they cannot be (they no longer check with the session's names), and
// for methods, the cell warns instead.
func (s *Session) plan(n int, src string, stale bool) (*Plan, error) {
	s.planID++
	if s.cfg.Compile && !s.prelude0 {
		src = s.withTypes(src)
	}
	c := &cell{s: s, n: n, src: src}
	if err := c.parse(); err != nil {
		return nil, err
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	var interpreted string
	if s.cfg.Compile && !s.prelude0 {
		p, reason, err := s.planCompiled(c)
		if p != nil || err != nil {
			return p, err
		}
		interpreted = reason
	}
	if tags := c.nameTags(); tags != "" {
		src += tags
		c = &cell{s: s, n: n, src: src}
		if err := c.parse(); err != nil {
			return nil, err
		}
		if err := c.check(); err != nil {
			return nil, err
		}
	}
	if stale {
		funcs, methods, derived, srcs, changed := s.staleConsts(c)
		afuncs, asrcs := s.staleAsserts(c)
		for i, f := range afuncs {
			if !slices.Contains(funcs, f) {
				funcs, srcs = append(funcs, f), append(srcs, asrcs[i])
			}
		}
		if len(funcs) > 0 || len(changed) > 0 {
			return s.planStale(n, src, funcs, methods, derived, srcs, changed)
		}
	}
	s.localKey = c.localKey
	defer func() { s.localKey = nil }()
	g := &gen{c: c, s: s, p: &Plan{Cell: n}, ynames: map[types.Object]string{}, hidden: map[string]string{},
		bodies: map[*ast.FuncDecl]string{}, callee: map[*ast.Ident]bool{}, collided: map[types.Object]bool{}}
	if !s.prelude0 {
		// The instances of generic code the cell uses, checked with it
		// (see mono).
		m := newMono(s, c)
		if err := m.run(); err != nil {
			return nil, err
		}
		if len(m.insts) > 0 {
			c = &cell{s: s, n: n, src: src, inst: m}
			if err := c.parse(); err != nil {
				return nil, err
			}
			if err := c.check(); err != nil {
				return nil, err
			}
			s.localKey = c.localKey
			g.c = c
			for p, name := range m.newHidden() {
				g.hidden[p] = name
			}
		}
	}
	p, err := g.plan()
	if p != nil && interpreted != "" {
		p.Interpreted = interpreted
		p.Warnings = append(p.Warnings, "this cell runs in the interpreter (slower than compiled Go): "+interpreted)
	}
	return p, err
}

// Commit applies a plan to the session once the executor has run its
// first ran steps (all of them: len(p.Steps)): the names declared by the
// steps that ran become the session's. A cell that stopped half way (a
// panic in its statements) keeps what its declaration steps declared.
func (s *Session) Commit(p *Plan, ran int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.commit != nil {
		p.commit(ran)
		p.commit = nil
	}
}

// gen generates the plan of a checked cell.
type gen struct {
	c  *cell
	s  *Session
	p  *Plan
	ed edits

	// ynames are the interpreter's names of the cell's objects where they
	// are not their own: versioned types, main.
	ynames map[types.Object]string
	// hidden are the imports the plan adds (path → name) so that
	// generated code can spell a type.
	hidden map[string]string
	// oldSlots name pointers to session variables that the statements use
	// before the cell declares a variable of the same name and another
	// type (see capture).
	oldSlots map[types.Object]string
	// viaPointer holds the uses of loop variables that a function literal
	// writes and reaches through a pointer its wrapper takes (see
	// bindLoopVars): each is spelled (*name).
	viaPointer map[*ast.Ident]string
	// bodies are the names the cell's functions are declared under (see
	// rewrite).
	bodies map[*ast.FuncDecl]string
	// pendingRecover holds the calls of recover in deferred function
	// literals that see the panics of later deferred literals (see
	// deferPanics).
	pendingRecover map[*ast.CallExpr]bool
	// callee holds the identifiers called as functions.
	callee map[*ast.Ident]bool
	// collided holds the cell's objects named apart from a session
	// import of the same name.
	collided map[types.Object]bool
	// initializer is set while package-level variables' initializers are
	// rewritten.
	initializer bool
	// discard holds the calls of go and defer statements, whose results
	// are discarded.
	discard map[*ast.CallExpr]bool
	// viewAdvice, when set, says what to write instead of a json or xml
	// call that no view could be made for (see reflectCall).
	viewAdvice string
	// anyWarned holds the compiled functions and types that a warning of
	// compiledAnyCall named, so that each pair is named once a cell.
	anyWarned map[string]bool
	// compiledArgs is set while the arguments of a call of compiled code
	// are converted (see warnUnnamedInAny).
	compiledArgs bool
	// viewed holds the composite literals that a view spells (see
	// viewedLits).
	viewed map[*ast.CompositeLit]bool
	// direct holds the callees of deferred calls that name a function's
	// declaration (see deferDirect).
	direct []*ast.Ident
	// noDepth is set while a package's instance code is rewritten: its
	// functions count no depth.
	noDepth bool

	commits []commitAt
	errs    ErrorList
	seq     int
}

// commitAt applies one declaration once the step it belongs to has run.
type commitAt struct {
	step  int
	apply func()
}

// fresh returns a name for generated code, unique in the cell.
func (g *gen) fresh(prefix string) string {
	g.seq++
	return prefix + strconv.Itoa(g.seq)
}

// off returns the check-source offset of pos.
func (g *gen) off(pos token.Pos) int { return g.c.tf.Offset(pos) }

// text returns the check source of a node, with the edits made so far in
// it applied.
func (g *gen) text(n ast.Node) string {
	return g.ed.render(g.c.text, g.off(n.Pos()), g.off(n.End()))
}

// qualify returns the name that generated code uses for a package: the
// session's import, the cell's, or one the plan adds.
func (g *gen) qualify(pkg *types.Package) (string, bool) {
	if !g.s.u.Has(pkg.Path()) {
		return pkg.Name(), false // the interpreter cannot import it
	}
	return g.pkgName(pkg), true
}

// pkgName returns the name that generated code uses for a package.
func (g *gen) pkgName(pkg *types.Package) string {
	path := pkg.Path()
	for name, p := range g.s.imports {
		if p == path && name != "_" && name != "." {
			return name
		}
	}
	for _, sp := range g.c.imports {
		if p, _ := strconv.Unquote(sp.Path.Value); p == path {
			if name := importName(sp, g.s.u); name != "_" && name != "." {
				return name
			}
		}
	}
	if name, ok := g.s.hidden[path]; ok {
		return name
	}
	if name, ok := g.hidden[path]; ok {
		return name
	}
	name := "_gtp_" + pkg.Name() + strconv.Itoa(len(g.s.hidden)+len(g.hidden)+1)
	g.hidden[path] = name
	return name
}

// typeName returns the interpreter's name of a type declared in a cell,
// and false for an old version no name reaches.
func (g *gen) typeName(obj *types.TypeName) (string, bool) {
	if name, ok := g.hoisted(obj); ok {
		return name, true
	}
	if localType(obj) {
		return obj.Name(), true // declared in a function: in scope where it is used
	}
	if n, ok := g.ynames[obj]; ok {
		return n, true
	}
	if g.s.unprintable[obj] {
		return obj.Name(), false
	}
	if n, ok := g.s.yname[obj]; ok {
		return n, true
	}
	// The cell redefines the name: an earlier version without a version
	// name of its own is out of reach.
	if g.c.declared[obj.Name()] && g.s.isEntry(obj) {
		return obj.Name(), false
	}
	return obj.Name(), true
}

// instance returns the interpreter's name of an instance of a generic
// type: the instance the plan or an earlier cell made.
func (g *gen) instance(t *types.Named) (string, bool) { return g.s.instanceName(t, g.c.inst) }

// unexported reports that generated code cannot name an unexported type
// of a compiled package.
func (g *gen) unexported(obj *types.TypeName) (string, bool) { return obj.Name(), false }

// yname returns the interpreter's name of a session or cell object.
func (g *gen) yname(obj types.Object) string {
	if n, ok := g.ynames[obj]; ok {
		return n
	}
	if n, ok := g.s.yname[obj]; ok {
		return n
	}
	return obj.Name()
}

// errorf records a compile error at pos: a Go construct the planner
// cannot run.
func (g *gen) errorf(pos token.Pos, format string, args ...any) {
	p := g.c.fset.Position(pos)
	g.errs = append(g.errs, g.c.errorAt(p, fmt.Sprintf(format, args...)))
}

// plan generates the cell's steps.
func (g *gen) plan() (*Plan, error) {
	c := g.c
	g.nameTypes()
	g.findOldSlots()
	g.rewrite()
	if len(g.errs) > 0 {
		return nil, g.errs
	}

	var steps []Step
	addStep := func(st Step) int {
		steps = append(steps, st)
		return len(steps) - 1
	}

	// Imports.
	for _, sp := range c.imports {
		path, _ := strconv.Unquote(sp.Path.Value)
		name := importName(sp, g.s.u)
		if g.s.imports[name] == path {
			continue // imported before
		}
		// The interpreter keeps an import that a cell's name took (see
		// nameTypes): the cell takes the name back.
		again := g.s.imported[name] == path
		imp := &Import{Name: name, Path: path}
		src := "import " + strconv.Quote(path)
		if sp.Name != nil {
			src = "import " + sp.Name.Name + " " + strconv.Quote(path)
		}
		line, _ := c.lineCol(c.cellOffset(g.off(sp.Pos())))
		g.p.Decls = append(g.p.Decls, Decl{Kind: DeclImport, Name: name, Line: line})
		i := -1 // a package the interpreter has only as source: every use is instantiated
		if (path == "unsafe" || g.s.u.InTables(path)) && !again {
			i = addStep(Step{Kind: StepImport, Src: src, Import: imp, Declares: []string{name}})
		}
		g.commitAfter(i, func() {
			if name == "_" {
				return
			}
			delete(g.s.entries, name)
			g.s.imports[name] = path
			if name != "." {
				g.s.imported[name] = path
			}
		})
	}

	// The instances' file and the file of declarations, built first so
	// that they can add imports. Instance code that uses the cell's own
	// declarations goes in the cell's file: yaegi orders the
	// declarations of one file.
	inst := g.instanceFile()
	merge := inst.src() != "" && g.instancesUseCell()
	var file string
	var fileDecls []string
	if merge {
		file, fileDecls = g.declFile(inst)
	} else {
		file, fileDecls = g.declFile(instFile{})
	}
	run := g.runBlock()
	declare := g.declareBlock()
	if len(g.errs) > 0 {
		return nil, g.errs
	}

	paths := make([]string, 0, len(g.hidden))
	for p := range g.hidden {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, path := range paths {
		name := g.hidden[path]
		i := addStep(Step{Kind: StepImport, Src: "import " + name + " " + strconv.Quote(path),
			Import: &Import{Name: name, Path: path, Hidden: true}})
		g.commitAfter(i, func() { g.s.hidden[path] = name })
	}
	if capture := g.captureBlock(); capture != "" {
		addStep(Step{Kind: StepBlock, Src: capture})
	}
	instStep := -1
	if inst.src() != "" && !merge {
		instStep = addStep(Step{Kind: StepInstantiate, Src: inst.src(), Declares: inst.names})
	}
	fileStep := -1
	if file != "" {
		fileStep = addStep(Step{Kind: StepFile, Src: file, Declares: fileDecls})
	}
	if merge {
		instStep = fileStep
	}
	if c.inst != nil {
		g.commitInstances(instStep)
	}
	declareStep := fileStep
	if declare != "" {
		declareStep = addStep(Step{Kind: StepDeclare, Src: declare})
	}
	if run != "" {
		addStep(Step{Kind: StepFile, Src: run})
	}
	g.p.Steps = steps
	g.commitDecls(fileStep, declareStep)

	commits := g.commits
	g.p.commit = func(ran int) {
		for _, ca := range commits {
			if ca.step < ran {
				ca.apply()
			}
		}
	}
	return g.p, nil
}

// commitAfter applies f at Commit when step has run.
func (g *gen) commitAfter(step int, f func()) {
	g.commits = append(g.commits, commitAt{step, f})
}

// nameTypes gives the cell's redefined types their versioned names, and
// the cell's package-level names and top-level variables that the
// interpreter has as an import names of their own (see collide).
func (g *gen) nameTypes() {
	for _, ts := range g.c.types {
		name := ts.Name.Name
		obj, _ := g.c.info.Defs[ts.Name].(*types.TypeName)
		if obj == nil || name == "_" || ts.Assign.IsValid() || ts.TypeParams != nil {
			continue
		}
		e, ok := g.s.entries[name]
		if !ok {
			continue
		}
		if _, isType := e.obj.(*types.TypeName); !isType {
			continue
		}
		if g.importName(name) {
			g.ynames[obj] = g.s.fresh(name + "_gt")
			g.collided[obj] = true
		} else {
			v := g.s.versions[name] + 1
			g.ynames[obj] = name + "_gt" + strconv.Itoa(v)
		}
		g.p.Warnings = append(g.p.Warnings, fmt.Sprintf("type %s is redefined; values made before this cell keep the old definition and its methods", name))
	}
	// A package-level name of the cell that the interpreter has as an
	// import is declared under a name of its own: the interpreter cannot
	// forget an import, nor declare a name of the same scope beside it.
	collide := func(id *ast.Ident) {
		if obj := g.c.info.Defs[id]; obj != nil && g.ynames[obj] == "" && g.importName(id.Name) {
			g.ynames[obj] = g.s.fresh(id.Name + "_gt")
			g.collided[obj] = true
		}
	}
	for _, ts := range g.c.types {
		collide(ts.Name)
	}
	for _, vs := range append(append([]*ast.ValueSpec{}, g.c.consts...), g.c.vars...) {
		for _, id := range vs.Names {
			collide(id)
		}
	}
	for _, fd := range g.c.funcs {
		collide(fd.Name)
	}
	// So is a top-level variable of the statements; one that takes the
	// place of a session variable of that name keeps its name in the
	// interpreter.
	for name, v := range g.c.topVars {
		if !g.importName(name) {
			continue
		}
		if e, ok := g.s.entries[name]; ok {
			if yn, ok := g.s.yname[e.obj]; ok {
				if _, isVar := e.obj.(*types.Var); isVar {
					g.ynames[v] = yn
					continue
				}
			}
		}
		g.ynames[v] = g.s.fresh(name + "_gt")
	}
	for _, fd := range g.c.funcs {
		if fd.Name.Name == "main" && fd.Type.TypeParams == nil {
			if obj := g.c.info.Defs[fd.Name]; obj != nil {
				g.ynames[obj] = "_gtmain"
				g.p.Main = true
			}
		}
	}
}

// importName reports whether the interpreter has, or the cell gives it,
// an import of that name.
func (g *gen) importName(name string) bool {
	if _, ok := g.s.imported[name]; ok {
		return true
	}
	for _, sp := range g.c.imports {
		if importName(sp, g.s.u) == name {
			return true
		}
	}
	return false
}

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

// piece writes the check-source span of n, edited, after a //line comment
// with its position in the cell.
func (g *gen) piece(b *strings.Builder, n ast.Node) {
	g.span(b, g.off(n.Pos()), g.off(n.End()))
}

// span writes bytes [start, end) of the check source, edited, after a
// //line comment with its position in the cell.
func (g *gen) span(b *strings.Builder, start, end int) {
	if co := g.c.cellOffset(start); co >= 0 {
		line, col := g.c.lineCol(co)
		b.WriteString(g.s.lineDirective(g.c.n, line, col))
	}
	b.WriteString(g.ed.renderAt(g.c.text, start, end, g.inlineLine))
	b.WriteString("\n")
}

// inlineLine returns the /*line*/ comment that gives the text at offset
// off of the check source its cell position, or "".
func (g *gen) inlineLine(off int) string {
	co := g.c.cellOffset(off)
	if co < 0 {
		return ""
	}
	line, col := g.c.lineCol(co)
	return fmt.Sprintf("/*line %s:%d:%d*/", g.s.cfg.SourceName, genLine(g.c.n, line), col)
}

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

// lineOf returns the //line comment for the cell position of pos.
func (g *gen) lineOf(pos token.Pos) string {
	co := g.c.cellOffset(g.off(pos))
	if co < 0 {
		return ""
	}
	line, col := g.c.lineCol(co)
	return g.s.lineDirective(g.c.n, line, col)
}

// runBlock returns the file that runs the cell: one function, init, which
// the interpreter runs once when the file runs. Its frame goes away when
// the cell ends (the interpreter keeps what top-level code computes for
// the session's life), and it adds nothing to the interpreter's global
// frame, which yaegi copies whole each time a compilation adds to it and
// each time top-level code makes a closure: a cell's fixed cost does not
// grow with the session. It gives the cell's functions' variables their declared functions (a
// function kept in a variable is one that later redefinitions reach; the
// body is a declared function, as yaegi compiles function literals
// differently), runs the statements in order (their top-level
// definitions assign session variables) with the init functions after
// the declarations that come first (see declaresVars), and main.
func (g *gen) runBlock() string {
	c := g.c
	var b strings.Builder
	b.WriteString(g.dispatchVars())
	b.WriteString(g.templateVars())
	for _, fd := range c.funcs {
		if body, ok := g.bodies[fd]; ok && fd.Name.Name != "init" {
			fmt.Fprintf(&b, "%s = %s\n", g.yname(c.info.Defs[fd.Name]), body)
		}
	}
	inits := func() {
		for _, fd := range c.funcs {
			if body, ok := g.bodies[fd]; ok && fd.Name.Name == "init" {
				fmt.Fprintf(&b, "%s()\n", body)
			}
		}
	}
	// Go initializes a package's variables before its init functions
	// run: in a cell without a package clause, the variables its
	// declarations and definitions make before its first other statement
	// are those.
	vars := 0
	for _, st := range c.body.Body.List {
		if !declaresVars(st) {
			break
		}
		vars++
	}
	for i, st := range c.body.Body.List {
		if i == vars {
			inits()
		}
		if co := c.cellOffset(g.off(st.Pos())); co >= 0 {
			line, _ := c.lineCol(co)
			fmt.Fprintf(&b, "%s = %d\n", lineName, line)
		}
		g.piece(&b, st)
	}
	if vars == len(c.body.Body.List) {
		inits()
	}
	if g.p.Main {
		for _, fd := range c.funcs {
			if g.ynames[c.info.Defs[fd.Name]] == "_gtmain" {
				line, _ := c.lineCol(max(c.cellOffset(g.off(fd.Pos())), 0))
				fmt.Fprintf(&b, "%s = %d\n", lineName, line)
			}
		}
		b.WriteString("_gtmain()\n")
	}
	if b.Len() == 0 {
		return ""
	}
	return "package main\nfunc init() {\n" + b.String() + "}\n"
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

// declaresVars reports whether st, a top-level statement of a cell
// without a package clause, only declares: var, const and type
// declarations, and definitions with :=.
func declaresVars(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.DeclStmt:
		return true
	case *ast.AssignStmt:
		return st.Tok == token.DEFINE
	}
	return false
}

// commitDecls records the cell's declarations in the plan and how Commit
// applies them: imports and hidden imports are done; the rest become the
// session's when the file of declarations (and the block that declares
// variables by example) has run.
func (g *gen) commitDecls(fileStep, declareStep int) {
	c, s := g.c, g.s
	at := func(pos token.Pos) int {
		line, _ := c.lineCol(max(c.cellOffset(g.off(pos)), 0))
		return line
	}
	step := fileStep
	if step < 0 {
		step = len(g.p.Steps) - 1
	}
	g.recordConstUsers(step)
	src := func(n ast.Node) string { return strings.TrimSpace(g.c.text[g.off(n.Pos()):g.off(n.End())]) }
	for _, ts := range c.types {
		obj, _ := c.info.Defs[ts.Name].(*types.TypeName)
		if obj == nil || ts.Name.Name == "_" {
			continue
		}
		name := ts.Name.Name
		_, redef := s.entries[name]
		yn, versioned := g.ynames[obj]
		g.p.Decls = append(g.p.Decls, Decl{Kind: DeclType, Name: name, Type: obj.Type(), Redefines: redef, Line: at(ts.Pos()), Interp: yn})
		doc := ts.Doc
		if doc == nil && len(c.types) > 0 {
			doc = typeDoc(c.file, ts)
		}
		decl := "type " + src(ts) + docText(doc)
		g.commitAfter(step, func() {
			if old, ok := s.entries[name]; ok {
				if tn, ok := old.obj.(*types.TypeName); ok {
					if _, has := s.yname[tn]; !has {
						s.unprintable[tn] = true
					}
				}
			}
			s.entries[name] = &entry{obj: obj, cell: c.n}
			s.noteTypeAt(c, obj)
			s.sources[name] = decl
			delete(s.imports, name)
			s.versions[name]++
			if versioned {
				s.yname[obj] = yn
			}
		})
	}
	for kind, specs := range map[DeclKind][]*ast.ValueSpec{DeclConst: c.consts, DeclVar: c.vars} {
		for _, vs := range specs {
			for _, id := range vs.Names {
				obj := c.info.Defs[id]
				if obj == nil || id.Name == "_" {
					continue
				}
				_, redef := s.entries[id.Name]
				g.p.Decls = append(g.p.Decls, Decl{Kind: kind, Name: id.Name, Type: obj.Type(), Redefines: redef, Line: at(id.Pos()), Interp: g.ynames[obj]})
				g.commitObject(step, id.Name, obj)
			}
		}
	}
	for _, fd := range c.funcs {
		obj, _ := c.info.Defs[fd.Name].(*types.Func)
		if obj == nil || fd.Name.Name == "init" || fd.Name.Name == "_" {
			continue
		}
		name := fd.Name.Name
		old, redef := s.entries[name]
		reuse := g.reusesFunc(obj)
		g.p.Decls = append(g.p.Decls, Decl{Kind: DeclFunc, Name: name, Type: obj.Type(), Reuse: reuse,
			Redefines: redef && !(reuse || old == nil), Line: at(fd.Pos()), Interp: g.ynames[obj]})
		header := strings.TrimSpace(g.c.text[g.off(fd.Pos()):g.off(fd.Type.End())])
		yn, renamed := g.ynames[obj]
		body := g.bodies[fd]
		recovers := callsRecover(fd.Body)
		g.commitAfter(step, func() {
			s.entries[name] = &entry{obj: obj, cell: c.n}
			if body != "" {
				s.bodies[obj] = body
			}
			if recovers {
				s.recovers[obj] = true
			} else {
				delete(s.recovers, obj)
			}
			s.sources[name] = header + docText(fd.Doc)
			delete(s.imports, name)
			if renamed {
				s.yname[obj] = yn
			}
		})
	}
	for _, m := range c.methods {
		name, _ := recvBase(m.Recv.List[0].Type)
		var tn *types.TypeName
		if fn, ok := c.earlier[m]; ok {
			tn, _ = s.entries[name].obj.(*types.TypeName)
			f, _ := c.info.Defs[fn.Name].(*types.Func)
			if tn == nil || f == nil {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok {
				continue
			}
			if _, had := s.methods[tn][m.Name.Name]; had {
				continue // skipped (see skipMethod)
			}
			method := methodFrom(named, m.Name, f.Type().(*types.Signature))
			g.commitAfter(step, func() { named.AddMethod(method) })
		} else {
			obj := c.info.Defs[m.Name]
			if obj == nil {
				continue
			}
			if recv := obj.Type().(*types.Signature).Recv(); recv != nil {
				t := recv.Type()
				if p, ok := t.(*types.Pointer); ok {
					t = p.Elem()
				}
				if n, ok := t.(*types.Named); ok {
					tn = n.Origin().Obj()
				}
			}
		}
		if tn == nil {
			continue
		}
		key := name + "." + m.Name.Name
		tag := m.Name.Name == nameTag // the planner's, not the user's
		if !tag {
			g.p.Decls = append(g.p.Decls, Decl{Kind: DeclMethod, Name: key, Line: at(m.Pos())})
		}
		header := strings.TrimSpace(g.c.text[g.off(m.Pos()):g.off(m.Type.End())])
		mname := m.Name.Name
		g.commitAfter(step, func() {
			if s.methods[tn] == nil {
				s.methods[tn] = map[string]int{}
			}
			s.methods[tn][mname] = c.n
			if !tag {
				s.sources[key] = header + docText(m.Doc)
			}
		})
	}
	for _, name := range g.topVarOrder() {
		v := c.topVars[name]
		old, redef := s.entries[name]
		reuse := g.reusesVar(v)
		_, printable := g.typeSrc(v.Type())
		vstep := step
		if !printable && !reuse {
			vstep = declareStep
		}
		yn, renamed := g.ynames[v]
		g.p.Decls = append(g.p.Decls, Decl{Kind: DeclVar, Name: name, Type: v.Type(), Reuse: reuse,
			Redefines: redef && !reuse && old != nil, ByExample: !printable && !reuse, Line: at(v.Pos()), Interp: yn})
		if reuse {
			continue
		}
		if redef && old != nil {
			g.warnStaleVarUsers(name, old.obj, v)
		}
		nv := types.NewVar(v.Pos(), c.pkg, name, v.Type())
		g.commitAfter(vstep, func() {
			s.entries[name] = &entry{obj: nv, cell: c.n}
			delete(s.imports, name)
			if renamed {
				s.yname[nv] = yn
			}
		})
	}
	g.commitGenerics(step)
	sort.SliceStable(g.p.Decls, func(i, j int) bool { return g.p.Decls[i].Line < g.p.Decls[j].Line })
}

// commitGenerics keeps, once step has run, the cell's generic
// declarations with its source (later cells instantiate them), and the
// keys of its types and functions (see Session.objKey).
func (g *gen) commitGenerics(step int) {
	c, s := g.c, g.s
	keys := map[types.Object]string{}
	for _, ts := range c.types {
		if obj := c.info.Defs[ts.Name]; obj != nil {
			keys[obj] = s.objKey(obj)
		}
	}
	for _, fd := range c.funcs {
		if obj := c.info.Defs[fd.Name]; obj != nil {
			keys[obj] = s.objKey(obj)
		}
	}
	// The prelude's generic functions too: min and max are instances of
	// its _gtMin and _gtMax.
	src := c.source()
	g.commitAfter(step, func() {
		for obj, k := range keys {
			s.keys[obj] = k
		}
		if src != nil {
			for obj := range src.decls {
				s.generics[obj] = src
			}
		}
	})
}

// commitObject makes obj the session's name once step has run.
func (g *gen) commitObject(step int, name string, obj types.Object) {
	s, cell := g.s, g.c.n
	yn, renamed := g.ynames[obj]
	g.commitAfter(step, func() {
		s.entries[name] = &entry{obj: obj, cell: cell}
		delete(s.imports, name)
		if renamed {
			s.yname[obj] = yn
		}
	})
}

// typeDoc returns the doc comment of the declaration of one type spec
// ts (type T ..., not in parentheses), or nil.
func typeDoc(f *ast.File, ts *ast.TypeSpec) *ast.CommentGroup {
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && len(g.Specs) == 1 && g.Specs[0] == ts {
			return g.Doc
		}
	}
	return nil
}

// docText returns "\n\n" and the text of a doc comment, or "".
func docText(g *ast.CommentGroup) string {
	if t := strings.TrimSpace(g.Text()); t != "" {
		return "\n\n" + t
	}
	return ""
}
