package plan

import (
	"go/ast"
	"go/importer"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/traefik/yaegi/stdlib"

	"github.com/gotensor/gotensor/interp/internal/symbols"
)

// testUniverse is the universe a notebook session has: the standard
// library and gotensor's packages.
func testUniverse() *Universe { return NewUniverse(stdlib.Symbols, symbols.Symbols) }

// shape prints a type without parameter names, qualified by package path,
// so that types from two importers compare as text.
func shape(t types.Type) string {
	switch t := t.(type) {
	case *types.Signature:
		var b strings.Builder
		b.WriteString("func(")
		for i := 0; i < t.Params().Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			if t.Variadic() && i == t.Params().Len()-1 {
				b.WriteString("..." + shape(t.Params().At(i).Type().(*types.Slice).Elem()))
				continue
			}
			b.WriteString(shape(t.Params().At(i).Type()))
		}
		b.WriteString(")")
		for i := 0; i < t.Results().Len(); i++ {
			sep := ", "
			if i == 0 {
				sep = " "
			}
			b.WriteString(sep + shape(t.Results().At(i).Type()))
		}
		return b.String()
	case *types.Pointer:
		return "*" + shape(t.Elem())
	case *types.Slice:
		return "[]" + shape(t.Elem())
	case *types.Map:
		return "map[" + shape(t.Key()) + "]" + shape(t.Elem())
	}
	s := types.TypeString(types.Unalias(t), func(p *types.Package) string { return p.Path() })
	// reflect cannot tell byte from uint8 nor rune from int32.
	return byteRune.Replace(s)
}

var byteRune = strings.NewReplacer("byte", "uint8", "rune", "int32")

// TestUniverseMatchesSource compares every object that the universe builds
// from reflection with what the Go toolchain's source importer finds in
// the same packages: kind, type and, for named types, the method set.
func TestUniverseMatchesSource(t *testing.T) {
	if testing.Short() {
		t.Skip("the source importer is slow")
	}
	u := testUniverse()
	fset := token.NewFileSet()
	src := importer.ForCompiler(fset, "source", nil)
	for _, path := range []string{"fmt", "strings", "errors", "time", "bytes", "io", "os", "sort", "math/big",
		"github.com/gotensor/gotensor/tensorlib/tensor", "github.com/gotensor/gotensor/tensorlib/nn"} {
		ours, err := u.Import(path)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := src.Import(path)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, name := range ours.Scope().Names() {
			o, s := ours.Scope().Lookup(name), theirs.Scope().Lookup(name)
			if s == nil {
				t.Errorf("%s.%s: not in the package's source", path, name)
				continue
			}
			n++
			if ok, sk := kind(o), kind(s); ok != sk {
				t.Errorf("%s.%s: a %s, source says %s", path, name, ok, sk)
				continue
			}
			got, want := byteRune.Replace(shape(o.Type())), byteRune.Replace(shape(s.Type()))
			if got == "untyped int" && want == "untyped int32" {
				// yaegi's tables store rune constants as integers.
				continue
			}
			if got != want {
				t.Errorf("%s.%s: type %s, source says %s", path, name, got, want)
			}
			if tn, ok := o.(*types.TypeName); ok && !tn.IsAlias() {
				for _, ptr := range []bool{false, true} {
					got, want := methods(o.Type(), ptr), methods(s.Type(), ptr)
					if got != want {
						t.Errorf("%s.%s (pointer %v): methods\n%s\nsource says\n%s", path, name, ptr, got, want)
					}
				}
			}
			if c, ok := o.(*types.Const); ok && c.Val().ExactString() != s.(*types.Const).Val().ExactString() {
				t.Errorf("%s.%s = %s, source says %s", path, name, c.Val(), s.(*types.Const).Val())
			}
		}
		if n < 5 {
			t.Errorf("%s: only %d objects compared", path, n)
		}
	}
}

func kind(o types.Object) string {
	switch o := o.(type) {
	case *types.Const:
		if b, ok := o.Type().(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			return "untyped const"
		}
		return "const"
	case *types.TypeName:
		return "type"
	case *types.Var:
		return "var"
	case *types.Func:
		return "func"
	}
	return "?"
}

// methods lists the exported method set of t (or *t) with signatures.
func methods(t types.Type, ptr bool) string {
	if ptr {
		if types.IsInterface(t) {
			return ""
		}
		t = types.NewPointer(t)
	}
	ms := types.NewMethodSet(t)
	var b strings.Builder
	for i := 0; i < ms.Len(); i++ {
		f := ms.At(i).Obj()
		if f.Exported() {
			b.WriteString(f.Name() + " " + byteRune.Replace(shape(f.Type())) + "\n")
		}
	}
	return b.String()
}

// TestUniverseChecks type-checks ordinary code against the universe, with
// the compiler's error wording where it is wrong.
func TestUniverseChecks(t *testing.T) {
	cases := []struct{ src, err string }{
		{`import ("fmt"; "strings"; "os"; "io/fs"); var _ = fmt.Sprint(strings.NewReader("x").Len()); var _ fs.FileInfo; var _ = os.ErrNotExist`, ""},
		{`import "github.com/gotensor/gotensor/tensorlib/tensor"; var _ = tensor.Randn(3, 3).RequiresGrad_()`,
			"tensor.Randn(3, 3).RequiresGrad_ undefined (type *tensor.Tensor has no field or method RequiresGrad_)"},
		{`import "time"; var d time.Duration = time.Hour; var _ int = d`, "cannot use d (variable of int64 type time.Duration) as int value in variable declaration"},
		{`import "math"; var _ int8 = math.MaxInt16`, "cannot use math.MaxInt16 (untyped int constant 32767) as int8 value in variable declaration (overflows)"},
		{`import "bytes"; var b bytes.Buffer; var _ = b.buf`, "b.buf undefined (cannot refer to unexported field buf)"},
		{`import ("io"; "os"); var _ io.Writer = os.Stdout; var _ io.Reader = 3`, "cannot use 3 (constant of type int) as io.Reader value in variable declaration: int does not implement io.Reader (missing method Read)"},
		{`import "unsafe"; var x int; var _ = unsafe.Pointer(&x)`, ""},
		{`import ("testing"; "go/ast"); var t testing.T; var _ testing.TB = &t; var _ ast.Expr = &ast.BadExpr{}; var _ ast.Expr = ast.BadExpr{}`,
			"cannot use ast.BadExpr{} (value of struct type ast.BadExpr) as ast.Expr value in variable declaration: ast.BadExpr does not implement ast.Expr (method End has pointer receiver)"},
		{`import "no/such"`, "could not import no/such (package no/such is not available in this session (no compiled symbols for it))"},
	}
	for i, c := range cases {
		fset := token.NewFileSet()
		f := mustParse(t, fset, "package p; "+c.src)
		conf := types.Config{Importer: testUniverse()}
		var errs []string
		conf.Error = func(err error) { errs = append(errs, err.(types.Error).Msg) }
		conf.Check("p", fset, []*ast.File{f}, nil)
		got := strings.Join(errs, "; ")
		if got != c.err {
			t.Errorf("case %d: got %q, want %q", i, got, c.err)
		}
	}
}
