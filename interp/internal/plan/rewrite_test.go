package plan

import (
	"testing"
)

// TestRewrites checks the code generated for the Go constructs the
// interpreter lacks or gets wrong, and for the session's hooks. Each case
// is one cell after "n := 4\nvar n64 int64 = 3\nfunc gen(k int) func(func(int) bool) {...}".
func TestRewrites(t *testing.T) {
	const setup = "n := 4\nvar n64 int64 = 3\nfunc gen(k int) func(func(int) bool) { return func(yield func(int) bool) { for i := 0; i < k; i++ { if !yield(i) { return } } } }\ntype S int\nfunc (s S) String() string { return \"S\" }\ntype E struct{ msg string }\nfunc (e *E) Error() string { return e.msg }\nimport \"errors\"\nimport \"os\"\nimport \"log\""
	cases := []struct {
		name, src string
		has       []string
		hasNot    []string
	}{
		{"range over an int constant", "sum := 0\nfor i := range 5 { sum += i }",
			[]string{"for _gti1, _gtn2 := int(0), int(5); _gti1 < _gtn2; _gti1++ { i := _gti1; if _gtStop != 0 { _gt.Stop() }; sum += i }"}, nil},
		{"range over an int64 variable, no key", "for range n64 { }",
			[]string{"for _gti1, _gtn2 := int64(0), int64(n64); _gti1 < _gtn2; _gti1++ { if _gtStop"}, nil},
		{"range over an int, assigning", "var i int\nfor i = range n { }",
			[]string{"_gti1++ { i = _gti1;"}, nil},
		{"range over a string gives byte offsets", "for i, r := range \"héllo\" { fmt.Print(i, r) }",
			[]string{"for _gts1, _gtk2 := \"héllo\", 0; _gtk2 < len(_gts1); { _gtr4, _gtw3 := _gt.DecodeRune(string(_gts1[_gtk2:])); i := _gtk2; r := _gtr4; _ = _gtr4; _gtk2 += _gtw3;"}, nil},
		{"range over a string without its index is left alone", "for _, r := range \"abc\" { fmt.Print(r) }",
			[]string{"for _, r := range \"abc\" {"}, nil},
		{"range over a function: break, continue", "sum := 0\nfor v := range gen(10) { if v == 5 { break }; if v%2 == 0 { continue }; sum += v }",
			[]string{"for _gtctl1 := 0; _gtctl1 == 0; _gtctl1 = -1 { gen(10)(func(v int) bool { if _gtStop != 0 { _gt.Stop() }; if v == 5 { return false }; if v%2 == 0 { return true }; sum += v ; return true }) }"}, nil},
		{"range over a function: return from the function", "func first(k int) int { for v := range gen(k) { if v > 2 { return v * 10 } }; return -1 }",
			[]string{"var _gtctl1_r0 int;", "{ _gtctl1_r0 = v * 10; _gtctl1 = 1; return false }", "if _gtctl1 == 1 { _gtDepth--; return _gtctl1_r0 }; }; _gtDepth--; return -1 }"}, nil},
		{"range over a function: labels, nested", "outer:\nfor i := 0; i < 3; i++ {\n\tfor v := range gen(3) {\n\t\tfor w := range gen(3) {\n\t\t\tif w == 1 { continue outer }\n\t\t\t_ = v\n\t\t}\n\t}\n}",
			[]string{"{ _gtctl2 = 2; return false }", "if _gtctl2 == 2 { { _gtctl1 = 2; return false } };", "if _gtctl1 == 2 { continue outer };"}, nil},
		{"per-iteration loop variables when a closure captures them", "var fs []func() int\nfor i := 0; i < 3; i++ { fs = append(fs, func() int { return i }) }",
			[]string{"for _gtloop1_i := 0; _gtloop1_i < 3; _gtloop1_i++ { if _gtStop != 0 { _gt.Stop() }; i := _gtloop1_i;", "; _gtloop1_i = i; }",
				"fs = append(fs, func(i int) func() int { return func() int { return i } }(i))"}, nil},
		{"closures handed to compiled code get their iteration's variables", "import \"sync\"\nvar wg sync.WaitGroup\nfor _, w := range []string{\"a\", \"b\"} { k := len(w); wg.Go(func() { fmt.Println(w, k) }) }\nfor i := 0; i < 2; i++ { defer func() { i++ }() }",
			[]string{"wg.Go(func(w string, k int) func() { return func() { fmt.Println(w, k) } }(w, k))", "defer func() { i++ }()"}, nil},
		{"calls of a cell's generic functions call their instances", "func Map[T, U any](xs []T, f func(T) U) []U { var out []U; for _, x := range xs { out = append(out, f(x)) }; return out }\nMap([]int{1, 2}, func(i int) string { return fmt.Sprint(i) })\nMap[int]([]int{3}, func(i int) S { return S(i) })",
			[]string{"func Mapꞏintꞏstring(xs []int, f func(int) string) []string {", "func MapꞏintꞏS(xs []int, f func(int) S) []S {",
				"Mapꞏintꞏstring([]int{1, 2}, func", "_gtres := MapꞏintꞏS([]int{3}, func"}, []string{"[T, U any]"}},
		{"a cell's module among a library function's variadic interface arguments", "type Block struct{}\nfunc (b *Block) Forward(x *tensor.Tensor) *tensor.Tensor { return x }\nfunc (b *Block) Parameters() []*tensor.Tensor { return nil }\nm := nn.NewSequential(nn.NewReLU(), &Block{})",
			[]string{"nn.NewSequential([]nn.Module{nn.NewReLU(), &Block{}}...)"}, nil},
		{"a function as a value is its declared function", "type Op func(int) int\nfunc double(x int) int { return x * 2 }\nops := []Op{double}\nf := double\ng := func() Op { return double }\n_ = double(1)",
			[]string{"ops = []Op{_gtf2_double}", "f = _gtf2_double", "return _gtf2_double", "_ = double(1)"}, nil},
		{"new of a value (Go 1.26)", "p := new(42)\nq := new(int)",
			[]string{"p = func(_gtv int) *int { return &_gtv }(42)", "q = new(int)"}, nil},
		{"no copies when nothing captures", "t := 0\nfor i := 0; i < 3; i++ { t += i }",
			[]string{"for i := 0; i < 3; i++ {"}, []string{"_gtloop"}},
		{"range variables copied when captured", "var fs []func() int\nfor _, v := range []int{1, 2} { fs = append(fs, func() int { return v }) }",
			[]string{"{ if _gtStop != 0 { _gt.Stop() }; v := v;"}, nil},
		{"continue copies back", "var ps []*int\nfor i := 0; i < 3; i++ { if i == 1 { continue }; ps = append(ps, &i) }",
			[]string{"{ _gtloop1_i = i; continue }"}, nil},
		{"min and max are instances of the prelude's", "a, b := 7, 4.5\nmin(a, 3) + int(max(b, 9))",
			[]string{"_gtMinꞏint(a, 3)", "_gtMaxꞏfloat64(b, 9)", "func _gtMinꞏint(x int, ys ...int) int {"}, []string{"_gtMin["}},
		{"constant min and max", "const c = max(1, 2.5, 2)\nvar f float32 = min(3, 1)",
			[]string{"const c = 2.5", "f = float32(1)"}, nil},
		{"clear, print, println", "m := map[int]int{}\nclear(m)\nprint(1)\nprintln(\"x\", 2.5)",
			[]string{"_gt.Clear(m)", "_gt.Print(1)", "_gt.Println(\"x\", 2.5)"}, nil},
		{"loops and functions check the interrupt flag and count their depth", "func f(k int) int { if k == 0 { return 0 }; return f(k-1) + 1 }\nfor { break }",
			[]string{"_f(k int) int { _gtDepth++; if _gtDepth > _gtLimit { _gt.Enter(\"f\") }; if k == 0 { _gtDepth--; return 0 }; { var _gtr0 int; _gtr0 = f(k-1) + 1; _gtDepth--; return _gtr0 } }",
				"for { if _gtStop != 0 { _gt.Stop() }; break }"}, nil},
		{"a function that calls only compiled code cannot recurse", "func g(x float64) float64 { return math.Sqrt(x) * 2 }",
			[]string{"_g(x float64) float64 { return math.Sqrt(x) * 2 }"}, []string{"_gtDepth"}},
		{"a function with defer restores the depth in a deferred call", "func h() (err error) { defer func() { recover() }(); h(); return nil }",
			[]string{"_h() (err error) { _gtd := _gtDepth; _gtDepth++; if _gtDepth > _gtLimit { _gt.Enter(\"h\") }; defer func() { _gtDepth = _gtd }();"}, nil},
		{"a method counts its depth under its type's name", "func (s S) Twice() string { return s.String() + s.String() }",
			[]string{"_gt.Enter(\"S.Twice\")"}, nil},
		{"go statements recover and report", "func work(a int, b ...string) {}\ngo work(1, \"x\", \"y\")\ngo func(k int) {}(3)",
			[]string{"go func(_gtf func(int, ...string), _gta0 int, _gta1 []string) { defer func() { if _gtr := recover(); _gtr != nil { _gt.GoPanic(_gtr) } }(); _gtf(_gta0, _gta1...) }(work, 1, []string{\"x\", \"y\"})",
				"go func(k int) { defer func() { if _gtr := recover(); _gtr != nil { _gt.GoPanic(_gtr) } }();}(3)"}, nil},
		{"os.Exit, log.Fatal and runtime.Goexit call the session's hooks", "import \"runtime\"\nif n > 10 { os.Exit(3) }\nexit := os.Exit\n_ = exit\nlog.Fatalf(\"x %d\", 1)\nl := log.Default()\nl.Fatal(\"y\")\nruntime.Goexit()",
			[]string{"_gt.Exit(3)", "exit = _gt.Exit", "_gt.Fatalf(log.Printf)(\"x %d\", 1)", "_gt.Fatal(func(_gtv ...any) { l.Print(_gtv...) })(\"y\")", "_gt.Goexit()"}, nil},
		{"fmt arguments of cell types with fmt methods", "var s S = 1\nfmt.Printf(\"%v %T %d\\n\", s, s, s)\nfmt.Println(s, 2)",
			[]string{"fmt.Printf(\"%v %s %d\\n\", func(_gtx S) any { return _gt.Fmt(_gtx, _gtx.String, nil, nil, nil) }(s), func(any) string { return \"main.S\" }(s), func(_gtx S) any",
				"fmt.Println(func(_gtx S) any { return _gt.Fmt(_gtx, _gtx.String, nil, nil, nil) }(s), 2)"}, nil},
		{"a value whose pointer has the fmt methods is printed without them", "type Q struct{ A int }\nfunc (q *Q) String() string { return \"Q\" }\nq := Q{1}\nfmt.Println(q, &q)",
			[]string{"fmt.Println(func(_gtx Q) any { return _gt.Fmt(_gtx, nil, nil, nil, nil) }(q), func(_gtx *Q) any { return _gt.Fmt(_gtx, _gtx.String, nil, nil, nil) }(&q))"}, nil},
		{"%T, %+v and %#v of a cell's struct", "type point struct{ x, y int }\np := point{1, 2}\nfmt.Printf(\"%v %+v %#v %T\\n\", p, p, &p, p)",
			[]string{"fmt.Printf(\"%v %+v %#v %s\\n\", p, func(_gtx point) any { return _gt.Describe(_gtx, \"main.point\", \"x\", \"y\") }(p), func(_gtx *point) any { return _gt.Describe(_gtx, \"main.point\", \"x\", \"y\") }(&p), func(any) string { return \"main.point\" }(p))"}, nil},
		{"errors.Is and errors.As on cell errors", "var err error = &E{\"x\"}\nvar target *E\nok := errors.Is(err, err) && errors.As(err, &target)",
			[]string{"_gt.ErrorsIsWith(err, err, _gtErr) && _gt.ErrorsAs(err, func(_gte any) bool { _gtv, _gtok := _gte.(*E); if _gtok { *(&target) = _gtv }; return _gtok }, _gtErr)"}, nil},
		{"the last value with display methods", "S(2)",
			[]string{"_gtres := S(2); _gt.Result(_gtres, _gt.Fmt(_gtres, _gtres.String, nil, nil, nil), nil, nil, nil, nil)"}, nil},
		{"top-level defer and goto stay in the cell's function", "defer fmt.Println(\"done\")\nk := 0\nagain:\nk++\nif k < 3 { goto again }",
			[]string{"defer fmt.Println(\"done\")", "again:\nk++"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t)
			run(t, s, 1, setup)
			p := run(t, s, 2, c.src)
			checkSource(t, p, c.has, c.hasNot)
		})
	}
}

// TestRefused checks the Go constructs the planner cannot run yet: each is
// a compile error that names the feature and the way around it.
func TestRefused(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "func gen(yield func(int) bool) { yield(1) }")
	cases := []struct{ src, want string }{
		{"for v := range gen { defer fmt.Println(v) }", "cell line 1:22: defer in the body of a range over a function is not supported yet: move the body into a function"},
		{"for v := range gen { if v > 0 { goto end } }\nend:", "cell line 1:33: goto in the body of a range over a function is not supported yet"},
	}
	for i, c := range cases {
		_, err := s.Plan(i+2, c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("case %d %q: got %v, want %q", i, c.src, err, c.want)
		}
	}
}

func TestArgVerbs(t *testing.T) {
	cases := map[string]string{
		"%v %T %d":      "map[0:[{v 1}] 1:[{T 4}] 2:[{d 7}]]",
		"%[2]d %[1]s":   "map[0:[{s 10}] 1:[{d 4}]]",
		"%*d %.*f %%":   "map[0:[{* 1}] 1:[{d 2}] 2:[{* 6}] 3:[{f 7}]]",
		"%-10.3q|%+#v":  "map[0:[{q 6}] 1:[{+#v 11}]]",
		"%v %+v %#[1]v": "map[0:[{v 1} {#v 12}] 1:[{+v 5}]]",
	}
	for f, want := range cases {
		if got := sprint(argVerbs(f)); got != want {
			t.Errorf("%q: got %s, want %s", f, got, want)
		}
	}
}
