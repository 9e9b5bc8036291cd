// Values of a cell's types with String, Error, Format and GoString
// methods nested in struct fields, slice and array elements, map keys and
// values and behind a pointer, printed with every verb fmt gives them
// (issue: nested fmt methods).
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

type Level int

func (l Level) String() string { return [...]string{"L", "M", "H"}[l] }

type Entry struct {
	Name string
	L    Level
}

type Code int

func (c Code) Error() string { return fmt.Sprintf("code %d", int(c)) }

type Hex int

func (h Hex) Format(s fmt.State, verb rune) { fmt.Fprintf(s, "hex(%c:%x)", verb, int(h)) }

type Go struct{ N int }

func (g Go) GoString() string { return fmt.Sprintf("Go<%d>", g.N) }

type Bad int

func (b Bad) String() string { panic("bad " + fmt.Sprint(int(b))) }

type PS struct{ N int }

func (p *PS) String() string { return fmt.Sprintf("PS%d", p.N) }

type inner struct {
	l Level
	L Level
}

type All struct {
	E    Entry
	Ls   []Level
	Arr  [2]Level
	M    map[Level]Code
	H    Hex
	G    Go
	P    *PS
	V    PS
	In   inner
	Any  any
	Errs []error
}

type Tree struct {
	L    Level
	Kids []Tree
}

func main() {
	e := Entry{"a", 0}
	fmt.Println(e, []Level{1, 2}, map[string]Level{"x": 2})
	fmt.Printf("%v %+v %#v\n", e, e, e)
	ls := []Entry{e, {"b", 2}}
	fmt.Println(ls)
	fmt.Println(fmt.Sprint(&e))
	fmt.Printf("%s|%q|%x|%X|%d|%5v|%-4s|\n", ls, ls, ls, ls, ls, ls, ls)
	fmt.Printf("%#v\n", ls)
	fmt.Printf("%v %+v\n", &ls, &e)
	m := map[Level]Entry{2: {"z", 1}, 0: {"y", 2}, 1: e}
	fmt.Println(m)
	fmt.Printf("%+v|%#v\n", m, map[Level]string{1: "a", 0: "b"})
	var nilm map[string]Level
	var nils []Level
	fmt.Printf("%v %v %#v %#v\n", nilm, nils, nilm, nils)
	a := All{
		E: e, Ls: []Level{2}, Arr: [2]Level{1, 2}, M: map[Level]Code{1: 7, 0: 3},
		H: 255, G: Go{4}, P: nil, V: PS{5}, In: inner{1, 2}, Any: Level(1),
		Errs: []error{Code(9), errors.New("plain"), nil},
	}
	fmt.Println(a)
	fmt.Printf("%+v\n", a)
	fmt.Printf("%d\n", a.M)
	fmt.Printf("%#v\n", []Go{{1}, {2}})
	fmt.Println([]Bad{1}, map[string]Bad{"k": 2})
	t := Tree{2, []Tree{{1, nil}, {0, []Tree{{2, nil}}}}}
	fmt.Println(t)
	fmt.Printf("%+v\n", t)
	s := fmt.Sprintf("%v", []*PS{nil})
	fmt.Println(s)
	fmt.Fprintln(os.Stdout, [][]Level{{0, 1}, {2}})
	fmt.Println(fmt.Errorf("wrap %v: %w", ls, Code(3)))
	var sb strings.Builder
	fmt.Fprint(&sb, [1]Entry{e})
	fmt.Println(sb.String())
	var x any = e
	fmt.Println(x, []any{e, Level(2)})
	args := []any{e, Level(1)}
	fmt.Println(args...)
	show(e, Level(2))
}

func show(args ...any) { fmt.Printf("%v %v\n", args...) }
