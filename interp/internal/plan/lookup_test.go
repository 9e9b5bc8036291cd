package plan

import (
	"fmt"
	"go/types"
	"strings"
	"testing"
)

func TestLookups(t *testing.T) {
	s := newSession(t)
	run(t, s, 1, "type Point struct{ X, y float64 }\nfunc (p Point) Norm() float64 { return math.Hypot(p.X, p.y) }\nfunc (p *Point) Scale(k float64) { p.X *= k; p.y *= k }\np := Point{3, 4}\nx := tensor.Ones(2, 3)\nfunc add(a, b int) int { return a + b }")

	names := func(ms []Member) string {
		var s []string
		for _, m := range ms {
			s = append(s, m.Name)
		}
		return strings.Join(s, " ")
	}
	ms, err := s.Members("", "p")
	if err != nil || names(ms) != "Norm Scale X y" {
		t.Errorf("Members(p) = %q, %v", names(ms), err)
	}
	// A value of the cell being typed, and a chain.
	ms, err = s.Members("q := &p", "q")
	if err != nil || names(ms) != "Norm Scale X y" {
		t.Errorf("Members(q) of the cell = %q, %v", names(ms), err)
	}
	ms, err = s.Members("", "x.T()")
	if err != nil || !strings.Contains(" "+names(ms)+" ", " MatMul ") {
		t.Errorf("Members(x.T()) = %q, %v", names(ms), err)
	}
	ms, err = s.Members("", "strings")
	if err == nil {
		t.Errorf("strings is not imported, yet Members gave %q", names(ms))
	}
	ms, err = s.Members("", "math")
	if err != nil || !strings.Contains(" "+names(ms)+" ", " Hypot ") {
		t.Errorf("Members(math) = %v, %v", len(ms), err)
	}
	for _, m := range ms {
		if m.Name == "Hypot" && m.String() != "func Hypot(float64, float64) float64" {
			t.Errorf("Hypot described as %q", m.String())
		}
	}
	for _, m := range members(types.NewPointer(s.Lookup("Point").Type())) {
		if m.Name == "Scale" && m.String() != "func (*Point) Scale(k float64)" {
			t.Errorf("Scale described as %q", m.String())
		}
	}

	tv, err := s.TypeOf("", "p.Norm() * 2")
	if err != nil || tv.Type.String() != "float64" {
		t.Errorf("TypeOf = %v, %v", tv.Type, err)
	}

	cases := []struct {
		code string
		want string
	}{
		{"add(1, ", "add func(a int, b int) int 1"},
		{"fmt.Println(add(", "add func(a int, b int) int 0"},
		{"x.Reshape(2, add(1, 2), ", "x.Reshape func(...int) *github.com/gotensor/gotensor/tensorlib/tensor.Tensor 2"},
		{"p.Scale(", "p.Scale func(k float64) 0"},
		{"y := 1\nadd(y, ", "add func(a int, b int) int 1"},
		{"add(1, 2)", ""},
	}
	for i, c := range cases {
		got := ""
		if call, ok := s.CallAt(c.code, len(c.code)); ok {
			got = fmt.Sprintf("%s %s %d", call.Func, call.Signature, call.Arg)
		}
		if got != c.want {
			t.Errorf("case %d %q: got %q, want %q", i, c.code, got, c.want)
		}
	}
}
