package plan

import (
	"fmt"
	"testing"
)

func TestSplitCell(t *testing.T) {
	cases := []struct {
		src  string
		want []string // kind and text of each piece
	}{
		{"x := 1\ny := 2", []string{"stmt x := 1", "stmt y := 2"}},
		{"import \"fmt\"\nfunc f() {}\nfmt.Println(f)", []string{"import import \"fmt\"", "decl func f() {}", "stmt fmt.Println(f)"}},
		{"// doc\ntype T int\n\nconst k = 1", []string{"decl // doc\ntype T int", "decl const k = 1"}},
		{"func (t T) M() {}\nfunc(x int) {}(1)\nfunc (T) N()", []string{"decl func (t T) M() {}", "stmt func(x int) {}(1)", "decl func (T) N()"}},
		{"for i := 0; i < 3; i++ {\n\tx++\n}\nif a := f(); a > 0 { }", []string{"stmt for i := 0; i < 3; i++ {\n\tx++\n}", "stmt if a := f(); a > 0 { }"}},
		{"package main\nvar v = []int{\n\t1,\n\t2,\n}", []string{"package package main", "stmt var v = []int{\n\t1,\n\t2,\n}"}},
		{"a := 1; b := 2", []string{"stmt a := 1", "stmt b := 2"}},
		{"switch x {\ncase 1:\n\tf()\n}", []string{"stmt switch x {\ncase 1:\n\tf()\n}"}},
		{"", nil},
		{"// only a comment", nil},
	}
	kinds := map[pieceKind]string{pieceStmt: "stmt", pieceImport: "import", pieceDecl: "decl", piecePackage: "package"}
	for i, c := range cases {
		var got []string
		for _, p := range splitCell(c.src) {
			got = append(got, kinds[p.kind]+" "+c.src[p.start:p.end])
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("case %d %q:\ngot  %q\nwant %q", i, c.src, got, c.want)
		}
	}
	// Positions are the cell's own.
	ps := splitCell("x := 1\n\n  y := 2")
	if ps[1].line != 3 || ps[1].col != 3 {
		t.Errorf("second piece at %d:%d, want 3:3", ps[1].line, ps[1].col)
	}
}
