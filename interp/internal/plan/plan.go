package plan

import (
	"fmt"
	"go/types"
	"strings"
)

// A Plan is everything the executor needs to run one cell: Go source pieces
// to hand to the interpreter in order, each compiled once, and what they
// declare. A Plan is made by Session.Plan and applied to the session's
// model by Session.Commit once its steps have run.
type Plan struct {
	// Cell is the cell's number, as passed to Session.Plan.
	Cell int

	// Steps are the pieces to compile and run, in order.
	Steps []Step

	// Result is the cell's last expression when it has exactly one value,
	// else nil. The generated code hands the value to the runtime's
	// Result function (see Prelude).
	Result *Result

	// Main reports whether the cell declares func main. Its call is the
	// last thing the cell's Run step does, after every statement: a pasted
	// program runs once.
	Main bool

	// Decls lists what the cell declares at the session's level, in
	// source order.
	Decls []Decl

	// Warnings are messages for the cell's standard error: things that
	// run, but not quite as a reader of the cell expects.
	Warnings []string

	// Compiled, when set, is the Go package the cell runs as, in place
	// of Steps (see Config.Compile): the executor compiles it, sets its
	// Path, runs it, and commits the plan with ran 1.
	Compiled *Compiled

	// Interpreted says why a cell worth compiling runs in the
	// interpreter, when it does.
	Interpreted string

	// Debug reports that the plan is for the interpreter's debugger
	// (Session.Debug): its steps are to run under the debugger, in a
	// goroutine of the debugger's that the run block makes the session's.
	// Other plans' steps run in the executor's goroutine, which the
	// executor makes the session's.
	Debug bool

	commit func(ran int) // applies the plan to the session (see Commit)
}

// StepKind says how the executor runs a Step.
type StepKind int

const (
	// StepImport imports one package: Src is `import name "path"`. The
	// step's Import says which. A cell's import of a package the
	// universe has only as source (iter) has no step: every use of it
	// is instantiated.
	StepImport StepKind = iota
	// StepFile is a Go file: compile it and run it. A file of
	// declarations (types, methods, constants, variables) initializes its
	// variables; the file that runs the cell's statements holds them in
	// func init, which running the file calls.
	StepFile
	// StepBlock is a Go file holding one function, _: compile the body of
	// _ as a top-level block (so that what it defines with := becomes a
	// session variable) and run it.
	StepBlock
	// StepDeclare is like StepBlock, but compile only: the definitions
	// in the block declare session variables whose types the planner
	// cannot spell in Go source (see Decl.ByExample), and nothing runs.
	StepDeclare
	// StepInstantiate is a Go file of the instances of generic code the
	// cell uses that the session lacks (see mono): plain declarations
	// under names of their own (slicesꞏSortꞏslice_intꞏint), with no
	// type parameter. Compile and run it as a StepFile; it comes before
	// the steps that use it. When the instances use what the cell
	// declares (Stack[P] of the cell's P), they are in the cell's
	// StepFile instead: yaegi orders the declarations of one file.
	StepInstantiate
)

func (k StepKind) String() string {
	switch k {
	case StepImport:
		return "import"
	case StepFile:
		return "file"
	case StepBlock:
		return "block"
	case StepDeclare:
		return "declare"
	case StepInstantiate:
		return "instantiate"
	}
	return fmt.Sprintf("StepKind(%d)", int(k))
}

// A Step is one piece of Go source for the interpreter. Its //line
// comments give every line its position in the cell (see Config.SourceName
// and Position).
type Step struct {
	Kind StepKind
	Src  string
	// Import is the package a StepImport imports.
	Import *Import
	// Declares lists the session-level names the step declares.
	Declares []string
	// Internal marks a step that holds none of the cell's code (the
	// planner's dispatch functions): no breakpoint can be set in it, and
	// the executor keeps nothing of it once it ran.
	Internal bool
	// Transient marks the file that runs the cell's statements when it
	// makes no function literal: none of its code can run once the cell
	// ended (declared functions are in other steps), so the executor need
	// keep nothing of it for breakpoints then.
	Transient bool
}

// Import is an import of a package under a name.
type Import struct {
	Name string // the name it is known by in cells ("fmt", or the name given)
	Path string
	// Hidden marks an import the planner adds so that generated code can
	// spell a type of the package; cells cannot see it.
	Hidden bool
}

// DeclKind is what a declared name is.
type DeclKind int

const (
	DeclVar DeclKind = iota
	DeclConst
	DeclType
	DeclFunc
	DeclMethod
	DeclImport
)

func (k DeclKind) String() string {
	return [...]string{"var", "const", "type", "func", "method", "import"}[k]
}

// A Decl is one name a cell declares at the session's level.
type Decl struct {
	Kind DeclKind
	Name string // "T.M" for a method
	// Type is the declared type (nil for an import).
	Type types.Type
	// Reuse reports, for a variable or function, that the session
	// already has one of the same name and identical type: the cell
	// assigns it instead of declaring a new one, so that functions
	// compiled earlier see the new value.
	Reuse bool
	// Redefines reports that the name existed before with another type
	// (or, for a type, at all).
	Redefines bool
	// ByExample reports a variable whose type cannot be written in Go
	// source (an unexported type of another package): a StepDeclare
	// declares it.
	ByExample bool
	// Line is the cell line of the declaration.
	Line int
	// Interp is the interpreter's name of the variable, constant, type or
	// function where it is not Name: a name of its own for a name that the
	// interpreter has as an import (data_gt3 for data), a redefined
	// type's version; "" otherwise.
	Interp string
}

// Result describes a cell's last value.
type Result struct {
	Type types.Type
	// Cell reports a type declared in a cell (or a pointer to one):
	// compiled code cannot see its methods, so the generated code passes
	// the display methods it has to the runtime's Result.
	Cell bool
	// Methods are the display methods of Type's method set that the
	// generated code passes: among String, Error, Format, GoString,
	// HTML, Markdown, SVG, PNG.
	Methods []string
}

// Error is a compile error of a cell, at a position in the cell.
type Error struct {
	Cell      int // the cell whose source it is in
	Line, Col int // 1-based, in the cell's own numbering
	Msg       string
}

func (e Error) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("cell line %d:%d: %s", e.Line, e.Col, e.Msg)
}

// ErrorList is the compile errors of a cell, in source order. Nothing of a
// cell that does not compile runs.
type ErrorList []Error

func (l ErrorList) Error() string {
	var s []string
	for _, e := range l {
		s = append(s, e.Error())
	}
	return strings.Join(s, "\n")
}
