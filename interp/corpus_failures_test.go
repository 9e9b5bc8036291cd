package interp_test

// The programs that bare yaegi runs and a cell does not, by cause. A
// program that starts to pass must leave its list and none may join one:
// TestYaegiCorpus and TestGoByExample fail until the lists say what the
// cells do. A cause that starts with "sometimes" marks programs that pass
// on some runs only.

// The causes of the failures.
const (
	causeVarStatement = "without a package clause, a var declaration is a statement of the cell, run in order as in a function body: a variable used before its declaration (var a = b; var b = 1), by a constant, or by a package-level function where a builtin has its name (var real = ...), is undefined or the builtin, as Go says of a function body"
	causeFuncTypeLoop = "yaegi: a function cannot be given to a named function type that a field of its own parameter's struct holds (type Ti func(*T) X; type T struct{ t Ti }) in a later compilation than the type's: cannot use type func(*main.T) main.X as type main.Ti; a pasted program assigns it in its package-level initializer, which works"
	causeFixedPort    = "sometimes: it listens on the fixed port 127.0.0.1:49153, which another run may hold"
)

// yaegiPastedFailures: yaegi's programs pasted into a cell as they are.
var yaegiPastedFailures = knownFailures{
	causeFixedPort: `issue-1330`,
}

// yaegiNoPackageFailures: yaegi's programs without their package clause.
var yaegiNoPackageFailures = knownFailures{
	causeVarStatement: `const24 issue-1173 struct38 var12 var13`,
	causeFuncTypeLoop: `struct44`,
	causeFixedPort:    `issue-1330`,
}

// yaegiRenamedFailures: yaegi's programs without their package clause,
// func main renamed and called.
var yaegiRenamedFailures = knownFailures{
	causeVarStatement: `const24 issue-1173 struct38 var12 var13`,
	causeFuncTypeLoop: `struct44`,
	causeFixedPort:    `issue-1330`,
}

// goByExamplePastedFailures: Go by Example's programs pasted as they are.
// Cells run all 52 (bare yaegi 40: the others call generic functions of
// the standard library, slices.Sort, maps.Keys, iter.Seq, errors.AsType).
var goByExamplePastedFailures = knownFailures{}

// goByExampleNoPackageFailures: Go by Example's programs without their
// package clause.
var goByExampleNoPackageFailures = knownFailures{}

// goByExampleRenamedFailures: Go by Example's programs without their package
// clause, func main renamed and called.
var goByExampleRenamedFailures = knownFailures{}

// yaegiCompiledFailures: yaegi's programs pasted into a cell that
// compiles (TestYaegiCorpusCompiled).
var yaegiCompiledFailures = knownFailures{}
