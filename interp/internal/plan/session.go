package plan

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"sync"
)

// Config configures a Session.
type Config struct {
	// Universe holds the compiled packages cells may import. It must hold
	// the runtime package (RuntimePath) too: generated code calls it.
	Universe *Universe

	// Preimport lists the import paths cells use without importing them.
	Preimport []string

	// RuntimePath is the import path, as the interpreter knows it, of the
	// compiled helpers generated code calls (package cellrt). Empty means
	// DefaultRuntimePath.
	RuntimePath string

	// SourceName is the file name the //line comments of generated code
	// give: the interpreter looks a file's imports up by its name, so it
	// must be the name the executor compiles steps under. Empty means
	// "_.go", yaegi's default.
	SourceName string

	// NoDepthCheck leaves the call-depth counter out of function bodies
	// (see Prelude): runaway recursion then ends the process as in Go.
	NoDepthCheck bool

	// Compile plans the cells worth compiling as Go packages for the Go
	// toolchain (see Plan.Compiled and compiled.go), when the executor
	// can build and open them.
	Compile bool
}

// DefaultRuntimePath is the import path of the runtime helpers when
// Config.RuntimePath is empty.
const DefaultRuntimePath = "gotensor.internal/cell"

// cellPath is the import path of the packages cells are checked in.
const cellPath = "main"

// A Session is the typed model of a notebook session: the declarations
// that live (imports, types with their methods, functions, variables,
// constants), each a go/types object with the cell it came from. It plans
// each new cell against them. A Session plans one cell at a time; lookups
// (Lookup, Members, ...) may run while a planned cell executes.
type Session struct {
	cfg Config
	u   *Universe

	mu      sync.RWMutex
	imports map[string]string // name in cells → import path
	// imported holds the names the interpreter has imported a package
	// under, with the last package's path: it never forgets one, so a
	// cell's package-level name that has one is declared under a name of
	// its own (see gen.nameTypes).
	imported map[string]string
	hidden   map[string]string // import path → name of the planner's own import
	entries  map[string]*entry // the session's names
	// yname holds the interpreter's name of objects whose name there is
	// not their own: versioned types, main.
	yname map[types.Object]string
	// unprintable holds old versions of types that no name reaches in
	// the interpreter any more.
	unprintable map[*types.TypeName]bool
	versions    map[string]int // how many times a type name was declared
	// typeAt holds where each type a cell declared is declared: "cell 3,
	// line 2" (see sameNamedTypes).
	typeAt  map[*types.TypeName]string
	methods map[*types.TypeName]map[string]int // committed methods → cell
	seq     int                                // fresh names
	prelude *Plan
	// bodies hold the names cells' functions are declared under.
	bodies map[types.Object]string
	// recovers holds the cells' functions whose bodies call recover (see
	// deferDirect).
	recovers map[types.Object]bool
	// sources hold the declarations (without bodies) of the functions,
	// types and methods ("T.M") cells declared, for Inspect.
	sources map[string]string
	// constUsers hold the cells' functions and methods that use
	// package-level constants, by name ("f", "T.M"; see consts.go).
	constUsers map[string]*constUser
	// varUsers hold, by variable, the cells' functions and methods (by
	// name or "T.M") that use the session's variable of that name, and
	// the cell that declared each (see recordConstUsers).
	varUsers map[string]map[string]int

	// The monomorphizer's state (see mono): the cells' generic
	// declarations with their sources, by object; the instances made
	// (key → name) and their names; the objects instance code declares,
	// by name, for the checks of later cells; the keys of the cells'
	// objects (see objKey).
	generics  map[types.Object]*source
	instances map[string]string
	instNames map[string]bool
	generated map[string]types.Object
	goNames   map[string]string // instance's name → Go's name of the type (see gen.goTypeName)
	keys      map[types.Object]string
	planID    int  // numbers the plans, for objKey
	debug     bool // planning for the debugger (see Debug)
	// localKey gives the key of a type declared in a function of the cell
	// being checked (see cell.localKey), while a cell is planned.
	localKey func(*types.TypeName) string
	prelude0 bool // planning the prelude: its generic functions stay generic
	// asserts are the interfaces that functions of cells test values
	// for, with the cells' types they know (see assertIface).
	asserts []assertSite
	// tplOn says that a cell imported text/template or html/template:
	// cells register the views of their types (see templateVars);
	// tplStale names the types of earlier cells that the last cell
	// declared methods on, whose views it could not register.
	tplOn    bool
	tplStale []string

	// cimports names the compiled cells' packages for the interpreter:
	// import path → name (see compiledImport).
	cimports map[string]string
	// ctypes holds the source of the compiled cells' types and methods,
	// by type name (see withTypes).
	ctypes map[string]*compiledType
}

// entry is one name of the session.
type entry struct {
	obj  types.Object
	cell int
}

// New returns a session with no cells run, whose prelude (see Prelude)
// is declared.
func New(cfg Config) (*Session, error) {
	if cfg.Universe == nil {
		return nil, fmt.Errorf("plan: Config.Universe is nil")
	}
	if cfg.RuntimePath == "" {
		cfg.RuntimePath = DefaultRuntimePath
	}
	if cfg.SourceName == "" {
		cfg.SourceName = "_.go"
	}
	if !cfg.Universe.Has(cfg.RuntimePath) {
		return nil, fmt.Errorf("plan: the universe has no runtime package %q: add cellrt's symbols to it", cfg.RuntimePath)
	}
	for _, p := range cfg.Preimport {
		if !cfg.Universe.Has(p) {
			return nil, fmt.Errorf("plan: cannot pre-import %q: the universe has no such package", p)
		}
	}
	s := &Session{cfg: cfg, u: cfg.Universe}
	if err := s.Reset(); err != nil {
		return nil, err
	}
	return s, nil
}

// Reset forgets every cell: the session is as New made it.
func (s *Session) Reset() error {
	s.mu.Lock()
	s.imports = map[string]string{}
	s.imported = map[string]string{}
	s.hidden = map[string]string{}
	s.entries = map[string]*entry{}
	s.yname = map[types.Object]string{}
	s.unprintable = map[*types.TypeName]bool{}
	s.versions = map[string]int{}
	s.typeAt = map[*types.TypeName]string{}
	s.methods = map[*types.TypeName]map[string]int{}
	s.sources = map[string]string{}
	s.constUsers = map[string]*constUser{}
	s.varUsers = map[string]map[string]int{}
	s.bodies = map[types.Object]string{}
	s.recovers = map[types.Object]bool{}
	s.generics = map[types.Object]*source{}
	s.instances = map[string]string{}
	s.instNames = map[string]bool{}
	s.generated = map[string]types.Object{}
	s.goNames = map[string]string{}
	s.keys = map[types.Object]string{}
	s.seq = 0
	s.asserts = nil
	s.tplOn, s.tplStale = false, nil
	s.cimports = map[string]string{}
	s.ctypes = map[string]*compiledType{}
	s.prelude0 = true
	s.mu.Unlock()
	p, err := s.Plan(0, s.preludeSrc())
	s.prelude0 = false
	if err != nil {
		return fmt.Errorf("plan: the prelude does not compile: %v", err)
	}
	s.Commit(p, len(p.Steps))
	s.prelude = p
	for _, path := range s.cfg.Preimport {
		if _, err := s.u.Import(path); err != nil {
			return fmt.Errorf("plan: pre-importing %s: %v", path, err)
		}
		s.imports[s.u.Name(path)] = path
		s.imported[s.u.Name(path)] = path
	}
	return nil
}

// Names of the prelude, the interpreted half of the runtime.
const (
	rtName    = "_gt"      // the runtime package's name in cells
	stopName  = "_gtStop"  // int32, non-zero when the cell is interrupted
	depthName = "_gtDepth" // int, the depth of interpreted calls
	limitName = "_gtLimit" // int, the depth at which _gt.Enter is called
	lineName  = "_gtLine"  // int, the cell line of the top-level statement running
	fmtName   = "_gtFmt"   // func(any) any: fmt's view of the cell's types (see fmtDispatch)
	errName   = "_gtErr"   // cellrt.CellErrorMethods: the cell's errors' methods (see errorMethods)
	typeName  = "_gtType"  // func(any) string: Go's name of a cell type's value (see typeDispatch)
	minName   = "_gtMin"
	maxName   = "_gtMax"
	minFName  = "_gtMinF" // min of floats: -0 is less than +0
	maxFName  = "_gtMaxF"
)

// preludeSrc is the prelude as a cell. Its names all start with _gt:
// yaegi lets a generic function's type parameter meet a cell's type of the
// same name.
func (s *Session) preludeSrc() string {
	return `import ` + rtName + ` "` + s.cfg.RuntimePath + `"

var ` + stopName + ` int32
var ` + depthName + `, ` + limitName + ` int
var ` + lineName + ` int
var ` + fmtName + ` func(any) any
var ` + errName + ` func(any) (func() error, func() []error, func(error) bool)
var ` + typeName + ` func(any) string

type _gtOrdered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

func ` + minName + `[_gtT _gtOrdered](x _gtT, ys ..._gtT) _gtT {
	for _, y := range ys {
		if y < x || y != y {
			x = y
		}
	}
	return x
}

func ` + maxName + `[_gtT _gtOrdered](x _gtT, ys ..._gtT) _gtT {
	for _, y := range ys {
		if y > x || y != y {
			x = y
		}
	}
	return x
}

type _gtFloat interface{ ~float32 | ~float64 }

// The interpreter passes -0 as +0 to a parameter of an interpreted
// function called by name (it skips arguments equal to zero), not to a
// variadic one.

func ` + minFName + `[_gtT _gtFloat](xs ..._gtT) _gtT {
	x := xs[0]
	for _, y := range xs[1:] {
		if y < x || y != y || y == 0 && x == 0 && 1/y < 0 {
			x = y
		}
	}
	return x
}

func ` + maxFName + `[_gtT _gtFloat](xs ..._gtT) _gtT {
	x := xs[0]
	for _, y := range xs[1:] {
		if y > x || y != y || y == 0 && x == 0 && 1/x < 0 {
			x = y
		}
	}
	return x
}
`
}

// Prelude returns the plan of the session's prelude: what the executor
// runs in a fresh interpreter before the first cell (and after a reset).
// It imports the runtime package as _gt and declares the interpreted
// variables generated code uses:
//
//   - _gtStop int32: set it non-zero (through its address) to interrupt
//     the cell; every loop body checks it and calls _gt.Stop.
//   - _gtDepth, _gtLimit int: every function body that calls interpreted
//     code counts its depth in _gtDepth and calls _gt.Enter(name) when it
//     passes _gtLimit. Set _gtLimit to the recursion limit, and to -1
//     when interrupting, so that function calls stop too; set _gtDepth to
//     0 before each cell.
//   - _gtLine int: the cell line of the top-level statement running,
//     set before each (the interpreter's tracebacks give the line where
//     each function starts, not the line that panicked).
//   - _gtFmt and _gtErr: the methods of the session's types that
//     compiled fmt and errors cannot see, and _gtType, the names of the
//     session's types for %T, assigned by each cell that declares types
//     or methods and used by the code of every cell.
//   - _gtMin and _gtMax, the min and max builtins yaegi lacks, and
//     _gtMinF and _gtMaxF, those of floats (-0 is less than +0): cells
//     call their instances (_gtMinꞏint, see mono), never these.
func (s *Session) Prelude() *Plan { return s.prelude }

// Imports returns the session's imports: name in cells → import path.
func (s *Session) Imports() map[string]string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m := make(map[string]string, len(s.imports))
	for k, v := range s.imports {
		m[k] = v
	}
	return m
}

// Lookup returns the session-level object a cell's name refers to (a
// variable, constant, type or function declared by a cell), or nil.
func (s *Session) Lookup(name string) types.Object {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if e, ok := s.entries[name]; ok && !hiddenName(name) {
		return e.obj
	}
	return nil
}

// Names returns the names cells declared that are alive, sorted.
func (s *Session) Names() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var names []string
	for n := range s.entries {
		if !hiddenName(n) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}

// InterpName returns the name under which the interpreter has a name the
// cells declared: its own, or the one the planner gave it apart from a
// package the interpreter imported under the name (data_gt3 for a
// variable data that a cell declared in a session that pre-imports
// package data).
func (s *Session) InterpName(name string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if e, ok := s.entries[name]; ok {
		if yn, ok := s.yname[e.obj]; ok {
			return yn
		}
	}
	return name
}

// Source returns the declaration of a function, method ("T.M") or type a
// cell declared, without its body, as Inspect shows it; "" if none.
func (s *Session) Source(name string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.sources[name]
}

// isEntry reports whether obj is one of the session's names.
func (s *Session) isEntry(obj types.Object) bool {
	e, ok := s.entries[obj.Name()]
	return ok && e.obj == obj
}

// objKey returns what identifies a generic declaration or a type in the
// session's instances, whatever its name there: a package's path and
// name, or the plan that declared it in a cell and its name (a type
// declared again is another type).
func (s *Session) objKey(obj types.Object) string {
	if obj.Pkg() == nil {
		return obj.Name()
	}
	if obj.Pkg().Path() != cellPath {
		return obj.Pkg().Path() + "." + obj.Name()
	}
	if k, ok := s.keys[obj]; ok {
		return k
	}
	if tn, ok := obj.(*types.TypeName); ok && localType(tn) {
		if s.localKey != nil {
			return s.localKey(tn)
		}
		return fmt.Sprintf("local%d.%s", obj.Pos(), obj.Name())
	}
	return fmt.Sprintf("p%d.%s", s.planID, obj.Name()) // the cell being planned
}

// instKey returns the key of the instance of generic obj with type
// arguments targs.
func (s *Session) instKey(obj types.Object, targs []types.Type) string {
	var b strings.Builder
	b.WriteString(s.objKey(obj))
	b.WriteString("[")
	for i, t := range targs {
		if i > 0 {
			b.WriteString(", ")
		}
		w := typeWriter{n: keyNamer{s}, ok: true, canon: true}
		w.typ(t)
		b.WriteString(w.b.String())
	}
	b.WriteString("]")
	return b.String()
}

// instanceName returns the interpreter's name of an instance of a generic
// type, made by m (the plan being made, or nil) or an earlier cell.
func (s *Session) instanceName(t *types.Named, m *mono) (string, bool) {
	key := s.instKey(t.Origin().Obj(), typeList(t.TypeArgs()))
	if m != nil {
		if inst, ok := m.byKey[key]; ok {
			return inst.name, true
		}
	}
	name, ok := s.instances[key]
	return name, ok
}

// keyNamer names types for keys: packages by path, the cells' types by
// objKey.
type keyNamer struct{ s *Session }

func (n keyNamer) qualify(pkg *types.Package) (string, bool) { return pkg.Path(), true }

func (n keyNamer) typeName(obj *types.TypeName) (string, bool) { return n.s.objKey(obj), true }

func (n keyNamer) instance(t *types.Named) (string, bool) {
	return n.s.instKey(t.Origin().Obj(), typeList(t.TypeArgs())), true
}

func (n keyNamer) unexported(obj *types.TypeName) (string, bool) {
	return obj.Pkg().Path() + "." + obj.Name(), true
}

// hiddenName reports whether a name is the planner's own.
func hiddenName(name string) bool { return strings.HasPrefix(name, "_gt") }

// Position converts a line number of generated code, as the interpreter
// reports it, back to the cell and its line. The cell number is modulo
// CellsWrap: compare it with n%CellsWrap. ok is false for a line that is
// not a cell's.
func Position(line int) (cell, cellLine int, ok bool) {
	if line < firstLine {
		return 0, 0, false
	}
	return (line - firstLine) / lineBase, (line - firstLine) % lineBase, true
}

// Line returns the line of generated code that is line l of the
// session's n-th cell, as the //line comments give it: the inverse of
// Position (a debugger sets breakpoints by it).
func Line(cell, l int) int { return genLine(cell, l) }

// Line numbers of generated code encode the cell: line l of the session's
// n-th cell is line firstLine + (n mod cellsWrap)*lineBase + l. go/token
// allows lines up to 1<<30, so the cell number wraps around after
// cellsWrap cells, and a cell longer than lineBase lines reports positions
// past that in the next cell's numbers.
const (
	lineBase  = 10000
	firstLine = 100000000
	cellsWrap = 90000
)

// CellsWrap is how many cells positions tell apart: the cell numbers
// Position returns wrap around after it.
const CellsWrap = cellsWrap

// genLine returns the generated line number of line l of cell n.
func genLine(n, l int) int { return firstLine + (n%cellsWrap)*lineBase + l }

// lineDirective returns the //line comment that puts the next line at
// line:col of cell n.
func (s *Session) lineDirective(n, line, col int) string {
	return fmt.Sprintf("//line %s:%d:%d\n", s.cfg.SourceName, genLine(n, line), col)
}

// fresh returns a new name with the given prefix.
func (s *Session) fresh(prefix string) string {
	s.seq++
	return fmt.Sprintf("%s%d", prefix, s.seq)
}

// nopos is a position for objects the planner makes.
const nopos = token.NoPos
