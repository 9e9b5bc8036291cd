package interp_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// The generator's parts: kinds of value, constructs that use a value of a
// kind (the families of issue 30: values stored in interfaces, loop
// variables captured, deferred calls, recovered panics, min and max,
// shifts, printing, context keys, nested panics, errors.Is), and the
// contexts a construct's statements run in. Each construct prints lines
// that start with its label and number ("ifacecopy#3:"), so that a line
// that differs names the construct it comes from.

// A valueKind is a kind of value a construct works on: a cell's struct, a
// cell's named basic type, a compiled type, an interface. Its templates
// hold {N}, the construct's number; lit holds {v}, an int expression; bump
// and show hold {x}, a variable of the type.
type valueKind struct {
	name    string
	imports []string
	decls   string // package-level declarations
	typ     string // the type
	lit     string // an expression of the type made from {v}
	bump    string // a statement that changes {x}
	show    string // a string expression that shows {x}
}

// valueKinds are the kinds of value of the generator. Each has a String
// method, so a value of each kind is a fmt.Stringer.
var valueKinds = []valueKind{
	{name: "struct", decls: `
type S{N} struct {
	A int
	B string
}

func (s S{N}) String() string { return fmt.Sprintf("S{%d %s}", s.A, s.B) }
`, typ: "S{N}", lit: `S{N}{A: {v}, B: "b"}`, bump: "{x}.A += 10", show: "{x}.String()"},
	{name: "named", decls: `
type K{N} int

func (k K{N}) String() string { return fmt.Sprintf("K%d", int(k)) }
`, typ: "K{N}", lit: "K{N}({v})", bump: "{x} += 10", show: "{x}.String()"},
	{name: "duration", imports: []string{"time"}, typ: "time.Duration",
		lit: "time.Duration({v}) * time.Millisecond", bump: "{x} += 10 * time.Millisecond", show: "{x}.String()"},
	{name: "point", imports: []string{"image"}, typ: "image.Point",
		lit: "image.Pt({v}, -({v}))", bump: "{x}.X += 10", show: "{x}.String()"},
	{name: "iface", decls: `
type I{N} interface{ String() string }

type V{N} struct{ A int }

func (v V{N}) String() string { return fmt.Sprintf("V%d", v.A) }
`, typ: "I{N}", lit: "I{N}(V{N}{{v}})", bump: "{x} = V{N}{{x}.(V{N}).A + 10}", show: "{x}.String()"},
}

// at returns k with {N} replaced by n.
func (k valueKind) at(n int) valueKind {
	r := strings.NewReplacer("{N}", strconv.Itoa(n))
	k.decls, k.typ, k.lit, k.bump, k.show = r.Replace(k.decls), r.Replace(k.typ), r.Replace(k.lit), r.Replace(k.bump), r.Replace(k.show)
	return k
}

// of returns an expression of k's type made from the int expression v.
func (k valueKind) of(v string) string { return strings.ReplaceAll(k.lit, "{v}", v) }

// change returns a statement that changes the variable x.
func (k valueKind) change(x string) string { return strings.ReplaceAll(k.bump, "{x}", x) }

// str returns a string expression that shows the variable x.
func (k valueKind) str(x string) string { return strings.ReplaceAll(k.show, "{x}", x) }

// A piece is one construct of a generated program, in its context.
type piece struct {
	label   string   // the construct's name, which starts its lines
	imports []string // the packages it uses
	decls   string   // its package-level declarations
	body    string   // its statements, in main
}

// A construct writes a piece's declarations and statements for the
// construct numbered n, with a value of kind k, drawing choices from r.
type construct struct {
	label string
	// kinds are the kinds of value it works on (valueKinds' names); nil
	// means every kind, and none that the construct brings its own types.
	kinds []string
	// known names the family whose fix is under way elsewhere,
	// when the cells are known to differ from Go on this construct.
	known string
	make  func(r *rand.Rand, n int, k valueKind) piece
}

// constructs are the generator's constructs.
var constructs = []construct{
	{label: "ifacecopy", make: ifaceCopy},
	{label: "loopclosure", make: loopClosure},
	{label: "defercall", make: deferCall},
	{label: "recovered", make: recovered},
	{label: "nestedpanic", make: nestedPanic},
	{label: "minmax", kinds: []string{}, make: minMax},
	{label: "shift", kinds: []string{}, make: shift},
	{label: "errorsis", kinds: []string{}, make: errorsIs},
	{label: "printflat", kinds: []string{"struct", "named", "duration", "point"}, make: printFlat},
	{label: "printnested", kinds: []string{"struct", "named"}, make: printNested},
	{label: "ctxkey", make: ctxKey},
}

// fill replaces {N} with n and {T} with k's type in src.
func fill(src string, n int, k valueKind) string {
	return strings.NewReplacer("{N}", strconv.Itoa(n), "{T}", k.typ).Replace(src)
}

// ifaceCopy stores a value in interfaces (fmt.Stringer, a cell's
// interface, any) and in containers of them, then changes the variable:
// the stored copies keep the old value.
func ifaceCopy(r *rand.Rand, n int, k valueKind) piece {
	iface := []string{"fmt.Stringer", "Shower{N}"}[r.IntN(2)]
	src := fill(`x{N} := `+k.of(strconv.Itoa(1+r.IntN(9)))+`
var v{N} `+iface+` = x{N}
var a{N} any = x{N}
s{N} := []`+iface+`{x{N}}
m{N} := map[string]`+iface+`{"k": x{N}}
ch{N} := make(chan `+iface+`, 1)
ch{N} <- x{N}
st{N} := struct{ v `+iface+` }{x{N}}
`+k.change("x{N}")+`
fmt.Println("ifacecopy#{N}:", `+k.str("x{N}")+`, v{N}.String(), a{N}.(fmt.Stringer).String(), s{N}[0].String(), m{N}["k"].String(), (<-ch{N}).String(), st{N}.v.String())
`, n, k)
	return piece{decls: fill("\ntype Shower{N} interface{ String() string }\n", n, k), body: src}
}

// loopClosure captures the variables of a 3-clause or a range loop in
// closures called after the loop, with the body changing the variables
// after the capture (or not).
func loopClosure(r *rand.Rand, n int, k valueKind) piece {
	step, bump := []string{"", "i++\n"}[r.IntN(2)], []string{"", k.change("x") + "\n"}[r.IntN(2)]
	var loop string
	if r.IntN(2) == 0 {
		loop = fmt.Sprintf("for i := 0; i < %d; i++ {\nx := %s\n", 3+r.IntN(4), k.of("i"))
	} else {
		loop = fmt.Sprintf("for i, x := range []{T}{%s, %s, %s} {\n", k.of("1"), k.of("2"), k.of("3"))
	}
	return piece{body: fill(`var fs{N} []func() string
`+loop+`fs{N} = append(fs{N}, func() string { return fmt.Sprint(i, " ", `+k.str("x")+`) })
`+step+bump+`}
out{N} := ""
for _, f := range fs{N} {
	out{N} += f() + ";"
}
fmt.Println("loopclosure#{N}:", out{N})
`, n, k)}
}

// deferCall defers, in a loop, a method call whose argument is a call,
// and a function literal called with arguments: the arguments are
// evaluated when the defer statement runs.
func deferCall(r *rand.Rand, n int, k valueKind) piece {
	bump := []string{"", k.change("x") + "\n"}[r.IntN(2)]
	return piece{decls: fill(`
type recorder{N} struct{ out []string }

func (r *recorder{N}) note(s string) { r.out = append(r.out, s) }
`, n, k), body: fill(fmt.Sprintf(`rec{N} := &recorder{N}{}
func() {
	for i := 0; i < %d; i++ {
		x := %s
		defer rec{N}.note(fmt.Sprint("step", i, " ", %s))
		defer func(s string, j int) { rec{N}.note(fmt.Sprint(s, "/", j)) }(%s, i*10)
		%s
	}
}()
fmt.Println("defercall#{N}:", rec{N}.out)
`, 2+r.IntN(3), k.of("i"), k.str("x"), k.str("x"), bump), n, k)}
}

// runtimePanics are statements that panic at run time with a value of
// kind x's type around: index and slice bounds, a nil map, a nil
// pointer, a division by zero, a failed type assertion.
var runtimePanics = []string{
	"xs := []{T}{LIT}\ni := len(xs) + 2\n_ = xs[i]\n",
	"xs := []{T}{LIT}\ni := len(xs) + 2\n_ = xs[1:i]\n",
	"var m map[string]{T}\nm[\"k\"] = LIT\n",
	"var p *{T}\nfmt.Println(SHOWP)\n",
	"d := 0\nfmt.Println(len([]{T}{LIT}) / d)\n",
	"var a any = LIT\n_ = a.(int)\n",
}

// recovered recovers a run-time panic and tells its dynamic type, whether
// it is a runtime.Error and an error, its message (up to the index, which
// the interpreter does not know), and whether errors.As finds a
// runtime.Error in an error that wraps it.
func recovered(r *rand.Rand, n int, k valueKind) piece {
	p := strings.NewReplacer("LIT", k.of("1"), "SHOWP", k.str("(*p)")).Replace(runtimePanics[r.IntN(len(runtimePanics))])
	return piece{imports: []string{"errors", "runtime", "strings"}, body: fill(`func() {
	defer func() {
		r := recover()
		_, isRT := r.(runtime.Error)
		err, isErr := r.(error)
		msg, as := "", false
		if isErr {
			msg, _, _ = strings.Cut(err.Error(), " [")
			var re runtime.Error
			as = errors.As(fmt.Errorf("wrapped: %w", err), &re)
		}
		fmt.Printf("recovered#{N}: %T %v %v %q %v\n", r, isRT, isErr, msg, as)
	}()
`+p+`}()
`, n, k)}
}

// nestedPanic panics in a deferred function while panicking, or recovers
// and panics again: an earlier deferred recover sees the last panic.
func nestedPanic(r *rand.Rand, n int, k valueKind) piece {
	second := []string{
		`x := ` + k.of("2") + "\n\t\tpanic(\"second \" + " + k.str("x") + ")",
		"r := recover()\n\t\tpanic(fmt.Sprint(\"again: \", r))",
	}[r.IntN(2)]
	return piece{body: fill(`func() {
	defer func() { fmt.Println("nestedpanic#{N}:", recover()) }()
	defer func() {
		`+second+`
	}()
	panic(`+k.of("1")+`)
}()
`, n, k)}
}

// minMax takes min and max of negative and positive zeros, NaN and
// ordinary values, of float64 or a cell's float type.
func minMax(r *rand.Rand, n int, k valueKind) piece {
	typ := []string{"float64", "F{N}"}[r.IntN(2)]
	return piece{imports: []string{"math"}, decls: fill("\ntype F{N} float64\n", n, k), body: fill(strings.ReplaceAll(`negz{N} := TYP(math.Copysign(0, -1))
z{N} := TYP(0)
fmt.Println("minmax#{N}:", math.Signbit(float64(min(z{N}, negz{N}))), math.Signbit(float64(min(negz{N}, z{N}))),
	math.Signbit(float64(max(negz{N}, z{N}))), math.Signbit(float64(max(z{N}, negz{N}))),
	math.IsNaN(float64(max(z{N}, TYP(math.NaN())))), min(TYP(2.5), z{N}+1, TYP(-1)), max(z{N}, TYP(7)))
`, "TYP", typ), n, k)}
}

// shift shifts constants by a variable count into unsigned types, a
// cell's unsigned type, time.Duration, and in a String method that fmt
// calls.
func shift(r *rand.Rand, n int, k valueKind) piece {
	under := []string{"uint8", "uint16", "uint32", "uint"}[r.IntN(4)]
	return piece{imports: []string{"time"}, decls: fill(`
type U{N} `+under+`

type Bits{N} uint16

func (b Bits{N}) String() string {
	i := int(b) % 9
	var m Bits{N} = 1 << i
	return fmt.Sprintf("bits(%d)", uint16(m))
}
`, n, k), body: fill(fmt.Sprintf(`s{N} := %d
var u{N} U{N} = 1 << s{N}
var w{N} uint32 = 1 << s{N}
var d{N} time.Duration = 1 << s{N}
fmt.Println("shift#{N}:", u{N}, w{N}, d{N}, U{N}(3)<<s{N}, uint8(1)<<(s{N}+5), Bits{N}(s{N}+1))
`, r.IntN(12)), n, k)}
}

// errorsIs looks for comparable struct and named errors, wrapped with %w
// or joined, with errors.Is and errors.As.
func errorsIs(r *rand.Rand, n int, k valueKind) piece {
	wrap := []string{`fmt.Errorf("op: %w", E{N}{500, "server"})`, `errors.Join(errors.New("other"), E{N}{500, "server"})`}[r.IntN(2)]
	return piece{imports: []string{"errors"}, decls: fill(`
type E{N} struct {
	Code int
	Msg  string
}

func (e E{N}) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Msg) }

type Code{N} int

func (c Code{N}) Error() string { return fmt.Sprintf("code %d", int(c)) }
`, n, k), body: fill(`err{N} := `+wrap+`
var target{N} E{N}
code{N} := fmt.Errorf("ctx: %w", Code{N}(3))
var c{N} Code{N}
fmt.Println("errorsis#{N}:", errors.Is(err{N}, E{N}{500, "server"}), errors.Is(err{N}, E{N}{404, "server"}), errors.As(err{N}, &target{N}), target{N}.Code,
	errors.Is(code{N}, Code{N}(3)), errors.Is(code{N}, Code{N}(4)), errors.As(code{N}, &c{N}), int(c{N}), fmt.Sprintf("%q", err{N}.Error()))
`, n, k)}
}

// printFlat prints a value with %v, %s, %T and %#v: a top-level value of
// a cell's type, not one inside another.
func printFlat(r *rand.Rand, n int, k valueKind) piece {
	return piece{body: fill(`x{N} := `+k.of("4")+`
fmt.Printf("printflat#{N}: %v %s %T %#v %d\n", x{N}, x{N}, x{N}, x{N}, len(fmt.Sprint(x{N})))
`, n, k)}
}

// printNested prints values of a cell's types inside a slice and a
// struct with %#v, and a function's type with %T (family 7).
func printNested(r *rand.Rand, n int, k valueKind) piece {
	return piece{body: fill(`xs{N} := []{T}{`+k.of("1")+`}
f{N} := func(x {T}) {T} { return x }
fmt.Printf("printnested#{N}: %#v %T\n", xs{N}, f{N})
`, n, k)}
}

// ctxKey stores a value in a context under a key of a cell's named type
// and looks it up with that key and a plain string (family 8).
func ctxKey(r *rand.Rand, n int, k valueKind) piece {
	return piece{imports: []string{"context"}, decls: fill("\ntype ctxKey{N} string\n", n, k), body: fill(`ctx{N} := context.WithValue(context.Background(), ctxKey{N}("run"), `+k.of("5")+`)
fmt.Println("ctxkey#{N}:", ctx{N}.Value("run") == nil, ctx{N}.Value(ctxKey{N}("run")))
`, n, k)}
}

// A genContext is where a construct's statements run: its wrap returns the
// package-level declarations and main's statements that run body.
type genContext struct {
	name string
	wrap func(n int, body string) (decls, stmts string)
}

// contexts are the places a construct runs: the top level of a cell
// (main's body), a function, a closure, a loop body (run twice), a
// goroutine the cell waits for, a deferred call.
var contexts = []genContext{
	{"top", func(n int, body string) (string, string) { return "", body }},
	{"function", func(n int, body string) (string, string) {
		return fmt.Sprintf("\nfunc run%d() {\n%s}\n", n, body), fmt.Sprintf("run%d()\n", n)
	}},
	{"closure", func(n int, body string) (string, string) { return "", "func() {\n" + body + "}()\n" }},
	{"loop", func(n int, body string) (string, string) {
		return "", fmt.Sprintf("for it%d := 0; it%d < 2; it%d++ {\n%s}\n", n, n, n, body)
	}},
	{"goroutine", func(n int, body string) (string, string) {
		return "", fmt.Sprintf("done%d := make(chan struct{})\ngo func() {\ndefer close(done%d)\n%s}()\n<-done%d\n", n, n, body, n)
	}},
	{"deferred", func(n int, body string) (string, string) {
		return "", "func() {\ndefer func() {\n" + body + "}()\n}()\n"
	}},
}
