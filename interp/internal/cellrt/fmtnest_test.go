package cellrt

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"
)

// shapeOf returns the shape the planner would give a compiled type t: its
// composites walked, its types with fmt methods viewed as themselves.
func shapeOf(t reflect.Type, depth int) *Shape {
	if depth > 4 || t == reflect.TypeFor[[]byte]() {
		return nil
	}
	if depth > 0 && (&nestPrinter{}).usesMethods(t) || t.Kind() != reflect.Pointer && (&nestPrinter{sharpV: true}).usesMethods(t) {
		return ShapeView(t.String(), func(v any) any { return v })
	}
	switch t.Kind() {
	case reflect.Struct:
		var names []string
		var parts []*Shape
		for i := range t.NumField() {
			names = append(names, t.Field(i).Name)
			parts = append(parts, shapeOf(t.Field(i).Type, depth+1))
		}
		return ShapeStruct(t.String(), names, parts...)
	case reflect.Slice, reflect.Array:
		return ShapeElem(t.String(), shapeOf(t.Elem(), depth+1))
	case reflect.Pointer:
		if depth > 0 {
			return nil
		}
		return ShapeElem(t.String(), shapeOf(t.Elem(), depth+1))
	case reflect.Map:
		return ShapeMap(t.String(), shapeOf(t.Key(), depth+1), shapeOf(t.Elem(), depth+1))
	case reflect.Interface:
		return ShapeAny(func(v any) any { return v })
	}
	return nil
}

type nestPoint struct {
	X, Y int
	name string
	d    time.Duration
}

type nestStr int

func (n nestStr) String() string { return fmt.Sprintf("S%d", int(n)) }

type nestPanic int

func (n nestPanic) String() string { panic("boom") }

type nestGo struct{ A int }

func (n nestGo) GoString() string { return "GO!" }

type nestFormat int

func (n nestFormat) Format(s fmt.State, verb rune) { fmt.Fprintf(s, "F(%c)", verb) }

type nestAll struct {
	P     nestPoint
	S     []nestStr
	M     map[nestStr]float64
	K     map[[2]int]string
	E     error
	Any   any
	Ptr   *nestPoint
	NilP  *nestPoint
	Bytes []byte
	Arr   [3]uint8
	G     nestGo
	F     nestFormat
	Nil   []int
	Iface fmt.Stringer
	str   nestStr
	Bool  map[bool]int
	Fl    map[float64]int
	C     complex128
}

// TestNestMatchesFmt checks that Nest prints compiled values as fmt does,
// for every verb and flag.
func TestNestMatchesFmt(t *testing.T) {
	p := &nestPoint{1, 2, "p", time.Second}
	all := nestAll{
		P: nestPoint{3, -4, "q", 2}, S: []nestStr{1, 2}, M: map[nestStr]float64{2: 1.5, 1: -2},
		K: map[[2]int]string{{2, 1}: "b", {1, 9}: "a"}, E: errors.New("oops"), Any: nestStr(7),
		Ptr: p, Bytes: []byte("hi"), Arr: [3]uint8{1, 2, 255}, G: nestGo{1}, F: 3,
		Iface: nestStr(4), str: 5, Bool: map[bool]int{true: 1, false: 0},
		Fl: map[float64]int{math.NaN(): 1, -1: 2, math.Inf(1): 3}, C: 1 + 2i,
	}
	values := []any{
		nestPoint{1, 2, "a", 3}, p, []nestPoint{{1, 2, "a", 3}}, map[string][]int{"b": {1}, "a": nil},
		all, &all, []*nestPoint{p, nil}, [2]nestStr{1, 2}, map[nestStr]nestStr{3: 4, 1: 2},
		[]any{1, "x", nil, nestStr(1)}, map[any]int{"b": 1, 2: 2, "a": 3}, []byte("bytes"),
		struct{ A []string }{[]string{"x y", ""}}, []float64{1.5, math.Inf(-1)},
		// fmt prints the rest of its argument without the width after
		// a method panics: no widths here.
		[]nestPanic{1}, map[string]nestPanic{"a": 2},
	}
	formats := []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%6v", "%-6v|", "%08.3f", "%t", "% x", "%#x", "%.1s", "%q"}
	for _, v := range values {
		s := shapeOf(reflect.TypeOf(v), 0)
		for _, f := range formats {
			if _, panics := v.([]nestPanic); panics && f != "%v" {
				continue
			}
			want := fmt.Sprintf(f, v)
			got := fmt.Sprintf(f, Nest(v, s))
			if got != want {
				t.Errorf("Sprintf(%q, %T):\n got %s\nwant %s", f, v, got, want)
			}
		}
	}
}

// TestNestBase checks that a value of a type declared on a compiled named
// type prints as its underlying value.
func TestNestBase(t *testing.T) {
	v := []time.Duration{1500 * time.Millisecond}
	got := fmt.Sprint(Nest(v, ShapeElem("[]main.Ticks", ShapeBase("main.Ticks"))))
	if want := "[1500000000]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// plainP is a struct without methods that fmtDispatchP formats as
// methodP, a struct of the same fields with a String method: as a cell's
// struct type reaches compiled code, and its fmt dispatch.
type plainP struct{ N int }

type methodP struct{ N int }

func (p methodP) String() string { return fmt.Sprintf("P%d", p.N) }

func fmtDispatchP(v any) any {
	switch p := v.(type) {
	case plainP:
		return Fmt(p, func() string { return methodP(p).String() }, nil, nil, nil)
	case *plainP:
		return Fmt(p, func() string { return methodP(*p).String() }, nil, nil, nil)
	}
	return v
}

// TestFmtAnyElements checks that FmtAny formats the structs in slices,
// arrays and maps of a type the dispatch does not know (an unnamed
// composite of a cell's struct type inside an interface) as fmt formats
// the same composites of a type with the methods.
func TestFmtAnyElements(t *testing.T) {
	cases := []struct{ plain, withMethods any }{
		{[]plainP{{1}, {2}}, []methodP{{1}, {2}}},
		{[2]plainP{{3}}, [2]methodP{{3}}},
		{map[string]plainP{"a": {4}}, map[string]methodP{"a": {4}}},
		{map[int][]plainP{1: {{5}}, 2: nil}, map[int][]methodP{1: {{5}}, 2: nil}},
		{[]*plainP{{6}}, []*methodP{{6}}},
		{[][]plainP{{{7}}, {}}, [][]methodP{{{7}}, {}}},
		{[]int{1}, []int{1}},
		{[]plainP{}, []methodP{}},
	}
	for _, c := range cases {
		for _, verb := range []string{"%v", "%+v", "%s"} {
			got := fmt.Sprintf(verb, FmtAny(c.plain, fmtDispatchP))
			want := fmt.Sprintf(verb, c.withMethods)
			if got != want {
				t.Errorf("%s of %#v: got %q, want %q", verb, c.plain, got, want)
			}
		}
	}
}

// nnInner and nnOuter stand for a cell's struct types, whose interpreter
// values are of unnamed struct types of the same fields.
type nnInner struct {
	A int
	b string
}

type nnOuter struct {
	In  nnInner
	Ins []nnInner
	P   *nnInner
	Any any
}

// TestNestNames checks that a value of an unnamed struct type printed
// through NestNames with the shape of a named one, which holds an
// interface, prints as fmt prints a value of the named type.
func TestNestNames(t *testing.T) {
	type inner = struct {
		A int
		b string
	}
	named := nnOuter{In: nnInner{1, "x"}, Ins: []nnInner{{2, "y"}}, Any: nnInner{3, "z"}}
	bare := struct {
		In  inner
		Ins []inner
		P   *inner
		Any any
	}{In: inner{1, "x"}, Ins: []inner{{2, "y"}}, Any: inner{3, "z"}}
	in := ShapeStruct("cellrt.nnInner", []string{"A", "b"}, nil, nil)
	view := func(v any) any {
		if x, ok := v.(inner); ok {
			return NestNames(x, in)
		}
		return v
	}
	s := ShapeStruct("cellrt.nnOuter", []string{"In", "Ins", "P", "Any"},
		in, ShapeElem("[]cellrt.nnInner", in), ShapeElem("*cellrt.nnInner", nil), ShapeAny(view))
	for _, f := range []string{"%+v", "%#v", "%v", "%d", "%s", "%6v|"} {
		want := fmt.Sprintf(f, named)
		if got := fmt.Sprintf(f, NestNames(bare, s)); got != want {
			t.Errorf("Sprintf(%q):\n got %s\nwant %s", f, got, want)
		}
	}
}
