package plan

import (
	"strings"
	"testing"
)

// TestNameTags checks which of a cell's types get the method that names
// their values in interfaces, and the warning for such values as keys of
// a map with interface keys.
func TestNameTags(t *testing.T) {
	s := newSession(t)
	p := run(t, s, 1, "type Celsius float64\ntype Levels []int\ntype Names map[string]bool\ntype P struct{ X int }\ntype I interface{ M() }\ntype A = int\ntype G[T any] []T\ntype F func()\ntype PP *P\nfunc local() { type L int; _ = L(1) }")
	code := dump(p)
	for _, name := range []string{"Celsius", "Levels", "Names", "F"} {
		if !strings.Contains(code, "func ("+name+") _gtNamed() {}") {
			t.Errorf("%s lacks its name tag:\n%s", name, code)
		}
	}
	for _, name := range []string{"P", "I", "A", "G", "PP", "L"} {
		if strings.Contains(code, "func ("+name+") _gtNamed") {
			t.Errorf("%s has a name tag:\n%s", name, code)
		}
	}
	for _, d := range p.Decls {
		if strings.Contains(d.Name, "_gt") {
			t.Errorf("declaration %q shown to the user", d.Name)
		}
	}
	p = run(t, s, 2, "m := map[any]int{Celsius(1): 1}\nm[Celsius(2)] = 2\nm[P{1}] = 3\nm[1.5] = 4\nbyC := map[Celsius]int{}\nbyC[Celsius(1)] = 1")
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "cell line 1:18: a Celsius as a key of a map[any]int") {
		t.Errorf("warnings %q, want one for the Celsius keys of m", p.Warnings)
	}
}
