package plan

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"sort"
	"strconv"
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
	// called holds the parallel assignments whose values parallelAssign
	// made the results of one call.
	called map[*ast.AssignStmt]bool
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
	dispatch := dispatchFile(g.dispatchVars())
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
	if dispatch != "" {
		addStep(Step{Kind: StepFile, Src: dispatch, Internal: true})
	}
	if run != "" {
		addStep(Step{Kind: StepFile, Src: run, Transient: !funcLiteral.MatchString(run)})
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

// funcLiteral matches what may begin a function literal in generated
// code (a cell's own, or a go statement's, which the planner writes as
// one): "func(" or "func (". The run block's own "func init()" does not
// match; a match in a string or comment only keeps a step it need not.
var funcLiteral = regexp.MustCompile(`\bfunc\s*\(`)

// commitAfter applies f at Commit when step has run.
func (g *gen) commitAfter(step int, f func()) {
	g.commits = append(g.commits, commitAt{step, f})
}
