// Package plan decides what a notebook cell means before any of it runs,
// and turns it into Go source that the yaegi interpreter runs as Go would.
// It does not import yaegi: an executor runs its plans.
//
// # The tour
//
//	rt := &cellrt.Runtime{...}                       // the compiled helpers, per session
//	u := plan.NewUniverse(stdlib.Symbols, symbols.Symbols, rt.Exports())
//	s, err := plan.New(plan.Config{Universe: u, Preimport: []string{"fmt", "math"}})
//	run(s.Prelude())                                 // once per interpreter
//	p, err := s.Plan(n, cellSource)                  // an ErrorList: nothing runs
//	ran := run(p)                                    // each Step, compiled once
//	s.Commit(p, ran)                                 // what ran is the session's
//
// A Universe gives go/types the compiled packages from the same symbol
// tables the interpreter is given, so the planner and the interpreter never
// disagree about a package, and no Go toolchain is needed at run time.
// Universe.Source adds what tables cannot hold: packages the interpreter
// runs from source, generic declarations.
//
// A Session holds the live declarations of the session as go/types
// objects. Each cell is checked in a fresh package whose scope holds the
// session's names that the cell mentions, so planning costs what the cell
// costs, however long the session.
//
// # What a cell means
//
// A cell mixes imports, declarations and statements in any order:
//
//   - Imports and declarations (types, constants, functions, methods) are
//     package-level: they may refer to each other in any order, and every
//     statement sees them, wherever they are written. A statement may call
//     a function declared below it.
//   - The statements, var declarations included, are the body of one
//     function and run in the order written, with a function body's
//     rules: a name defined at the top (x := 1) is seen by the statements
//     after it; x := 1 twice is an error ("no new variables"); a statement
//     before the definition sees the session's x, if any; defer runs when
//     the cell ends; goto and labels work across the cell.
//   - The variables the statements define at the top are session
//     variables. The cell's functions and methods may use them: they see
//     the variable itself, so a function called before the statement that
//     defines x sees x's zero value (or the session's earlier x of the
//     same type).
//   - A name declared again replaces the old one (notebook semantics, not
//     an error). A variable or function of the same type reuses its slot,
//     so functions compiled earlier see the new value; one of a new type is
//     a new declaration, and earlier functions keep the old one. A type
//     declared again is a new type under a versioned name (P_gt2) with P an
//     alias of it; values made before keep the old type and methods.
//     A constant declared again with another value declares again the
//     functions of earlier cells that use it (yaegi compiles a constant's
//     value into its users), after the cell's text; those that no longer
//     check, methods, and constants and types computed from it keep the
//     old value, with a warning (see consts.go).
//   - A method may be declared on a type of an earlier cell; values made
//     before get it. Declaring a method again alone keeps the first
//     definition (the interpreter cannot change a method), with a warning;
//     with another signature, it is an error.
//   - func main runs once, after the cell's statements; init functions
//     run before them; a package clause is dropped: a pasted program runs.
//     In a cell with a package clause (a Go file), var declarations are
//     package-level, initialized in dependency order.
//   - The last statement, when it is an expression with one value, is the
//     cell's result.
//
// A cell that does not type-check is refused whole, with the Go
// compiler's messages at the cell's line:column. So is a Go construct the
// planner cannot run yet, with a message that names it and the way
// around it (see Limits).
//
// # What the plan does about the interpreter
//
// Each rewrite is an edit of the cell's own text, so every line keeps its
// position (see edits); the //line comments give the interpreter's
// positions in the cell's terms (see Position):
//
//   - Statements run inside one function literal, whose frame goes when
//     the cell ends: yaegi keeps what top-level code computes for the
//     session's life. Their top-level definitions assign session
//     variables that a file of declarations declares by type (a type Go
//     source cannot name is declared by compiling its definition without
//     running it).
//   - A function is declared under a name of its own (_gtf3_f) and kept in
//     a variable (f) that the cell assigns: calls go through the
//     variable, which later redefinitions reach; main is _gtmain. A
//     function used as a value is its declared function.
//   - A name of the cell that the interpreter has as an import (data,
//     pre-imported, declared by a pasted program or by data := ...) is
//     declared under a name of its own (data_gt3), which every use
//     spells, in the cell's statements and functions and in later cells:
//     yaegi cannot forget an import, nor declare a name beside it. The
//     session keeps the cells' name (Session.InterpName gives the
//     interpreter's); importing the package again takes the name back.
//   - for i := range n, over strings (byte offsets), over functions
//     (break, continue, return and labels included), min, max, clear,
//     print, println, new(expr): rewritten into what yaegi runs.
//   - Loop variables live per iteration where a closure or & captures
//     them, and a closure in a loop takes its iteration's variables as
//     parameters (yaegi gives closures called later by compiled code the
//     frame as it is then); the literal of a go or defer statement takes
//     them as parameters of its own (yaegi makes its closure when the
//     call runs). A deferred literal in a loop that writes them is an
//     error.
//   - Loops and function bodies check the interrupt flag; function bodies
//     that call interpreted code count their depth, so runaway recursion
//     is an error before the Go stack limit.
//   - go statements recover and report their panics; os.Exit, log.Fatal*
//     and runtime.Goexit call the runtime's hooks.
//   - Generic code never reaches the interpreter: every instance a cell
//     uses (slices.Sort[[]int, int], a cell's Map[int, string],
//     atomic.Pointer[T]) is a plain copy of the declaration with the
//     type arguments in place of the type parameters, under a name of
//     its own, checked with the cell and rewritten like its code; the
//     session keeps the instances for later cells (see mono.go). The
//     standard library's generic code comes from Universe.Source: the
//     copy of the toolchain's source the kernel embeds, or the
//     toolchain's own (see FSSource, GOROOTSource).
//   - Type assertions on errors see through the wrappers compiled code
//     hands back for a cell's errors (_gt.Identity).
//   - Arguments of fmt's and log's printing functions whose type a cell
//     declared with String, Error, Format or GoString go through
//     cellrt.Fmt (compiled fmt sees no methods of such types); arguments
//     of interface type and []any go through _gt.FmtAny with the
//     session's dispatch _gtFmt, which each cell that declares types
//     assigns (see rewrite_fmtany.go). errors.Is, errors.As and
//     errors.Unwrap go through the runtime with _gtErr, the Unwrap and Is
//     methods of the cells' error types.
//   - Type assertions and type switches to interfaces with methods test
//     the cells' types that implement them first, by the interpreter's
//     name of a value's type, and panic, saying what to assert to, on a
//     compiled value that has the methods of an interface written in a
//     cell (yaegi cannot hold one in it); assertions to a cell's type,
//     or to a type that shares a cell type's representation (float64
//     for Temp float64), test the name too (see rewrite_iface.go). The
//     result of an interpreted call of interface type handed to compiled
//     code or asserted is a variable's first, which keeps the name; a
//     struct value that cannot be told from a cell type's warns (see
//     rewrite_conv.go). A cell's struct
//     value made into an error or another compiled interface, and a
//     cell's value returned as an any, are converted by generated code
//     (see rewrite_conv.go). == and != with an operand of interface type
//     go through the runtime's Equal, which compares the values inside
//     the interpreter's wrappers as Go does (see rewrite_equal.go).
//   - Each of a cell's named types that is not a struct gets a method,
//     _gtNamed, so that the interpreter names its values in interfaces
//     (see nametag.go); a conversion of a value of a type with methods
//     to an empty interface goes through a function literal, whose
//     parameter is each call's own (the interpreter's interface would
//     hold a loop's variable). Typed constants of iota expressions are
//     written with their values (see consts.go).
//   - Deferred calls: the variables their arguments read are copied at
//     the defer statement when the function assigns them later (yaegi
//     reads them when the call runs); a deferred call of a cell's
//     function that recovers names its declaration (see rewrite_defer.go);
//     a method value of a value receiver binds a copy (see rewrite.go).
//   - Compiled code given a cell's value as an any: the standard
//     library's containers get the interpreter's interface value, which
//     comes back as itself; other compiled code that would look for the
//     value's methods or fields warns at the call, or when it runs for a
//     value inside an interface; reflect.DeepEqual goes through the
//     runtime (see rewrite_compiledany.go).
//   - An assignment of several values of which one is an any (or nil for
//     an interface), and a top-level definition or var declaration of
//     several, assigns the results of a function literal's call instead
//     (yaegi's parallel assignment panics on them; see rewrite_assign.go).
//   - encoding/json and encoding/xml calls on values whose types cells
//     declared with unexported or embedded fields or codec methods are
//     refused (see rewrite_reflect.go); a template's Execute with data of a
//     cell type with methods, or of interfaces, gets a view of it whose
//     methods the rewritten template calls, and cells register the views
//     of their types for values in interfaces (see rewrite_template.go).
//
// # Limits
//
// Known gaps, each a compile error or a documented difference: defer and
// goto in the body of a range over a function; iter.Pull and iter.Pull2
// (the runtime's coroutines); generic code instantiated with a type
// declared inside a function; methods of a generic type declared in
// another cell than the type; instances made before a generic function
// is declared again keep its old code;
// %T, %+v and %#v of a struct type declared in a cell print the
// interpreter's representation; code of an earlier cell that asserts to
// an interface does not know the types declared later (the later cell
// warns); a value of a cell's non-struct type that compiled code hands
// back bare (a pointer to one kept by a container) is not recognized
// (the call warns); the As method of error types declared in cells is
// not followed by errors.As.
package plan
