package plan

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"
)

// The types of TestJSONFields, as Go source for go/types and as the test's
// own types for encoding/json.
const jsonFieldsSrc = `package p

type A struct{ Name string; X int }
type B struct{ Name string; Y int }
type T struct{ Name string ` + "`json:\"X\"`" + ` }
type Level int
type level int
type inner struct{ In int; Deep }
type Deep struct{ Name string; D int }

type Tie struct{ A; B }
type Shallow struct{ A; Name string }
type Tagged struct{ A; T }
type Twice struct{ Deep; W struct{ Deep } }
type X1 struct{ Deep }
type X2 struct{ Deep }
type Two struct{ X1; X2; K int }
type Ptr struct{ *A; Z int ` + "`json:\"-\"`" + ` }
type Mixed struct{ Level; level; inner; Q int ` + "`json:\"q!#\"`" + `; R int ` + "`json:\"r,omitempty\"`" + `; s int }
`

// checkPackage type-checks src, a package without imports.
func checkPackage(t *testing.T, src string) *types.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := new(types.Config).Check("p", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

// TestJSONFields checks the fields jsonFields finds, in order, against the
// keys encoding/json writes for the same types: embedded structs
// promoted, the shallower or tagged field of a name winning, ties left
// out, embedded pointers followed, unexported embedded structs promoted
// and unexported non-struct ones left out.
func TestJSONFields(t *testing.T) {
	pkg := checkPackage(t, jsonFieldsSrc)
	type (
		A struct {
			Name string
			X    int
		}
		B struct {
			Name string
			Y    int
		}
		T struct {
			Name string `json:"X"`
		}
		Level int
		level int
		Deep  struct {
			Name string
			D    int
		}
		inner struct {
			In int
			Deep
		}
		Tie struct {
			A
			B
		}
		Shallow struct {
			A
			Name string
		}
		Tagged struct {
			A
			T
		}
		Twice struct {
			Deep
			W struct{ Deep }
		}
		X1  struct{ Deep }
		X2  struct{ Deep }
		Two struct {
			X1
			X2
			K int
		}
		Ptr struct {
			*A
			Z int `json:"-"`
		}
		Mixed struct {
			Level
			level
			inner
			Q int `json:"q!#"`
			R int `json:"r,omitempty"`
			s int
		}
	)
	_ = Mixed{}.s
	cases := []struct {
		name string
		v    any
	}{
		{"Tie", Tie{}},
		{"Shallow", Shallow{}},
		{"Tagged", Tagged{}},
		{"Twice", Twice{}},
		{"Ptr", Ptr{A: &A{}}},
		{"Two", Two{}},
		{"Mixed", Mixed{R: 1}},
	}
	for _, c := range cases {
		st := pkg.Scope().Lookup(c.name).Type().Underlying().(*types.Struct)
		var got []string
		for _, f := range jsonFields(st) {
			got = append(got, f.name)
		}
		b, err := json.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		var want []string
		dec.Token()
		for dec.More() {
			k, _ := dec.Token()
			want = append(want, k.(string))
			var skip json.RawMessage
			dec.Decode(&skip)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: jsonFields gives %q, encoding/json writes %q (%s)", c.name, got, want, b)
		}
	}
}
