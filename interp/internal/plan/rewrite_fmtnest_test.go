package plan

import "testing"

// TestRewritesFmtNest checks the code generated for fmt's arguments whose
// types hold a cell's types with fmt methods, or declared on compiled
// named types.
func TestRewritesFmtNest(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"a cell's Stringer in a struct field and a slice", "type L int\nfunc (l L) String() string { return \"L\" }\ntype E struct{ N string; l L }\ne := E{}\nfmt.Println(e, []L{1})",
			[]string{"fmt.Println(_gt.Nest(e, _gt.ShapeStruct(\"main.E\", []string{\"N\", \"l\"}, nil, _gt.ShapeView(\"main.L\", func(_gtv any) any { _gtx := _gtv.(L); return _gt.Fmt(_gtx, _gtx.String, nil, nil, nil) }))), _gt.Nest([]L{1}, _gt.ShapeElem(\"[]main.L\", _gt.ShapeView("},
			nil},
		{"a cell's type on a compiled named type, alone and in a map", "import \"time\"\ntype Ticks time.Duration\nfmt.Println(Ticks(1), map[string]Ticks{})",
			[]string{"fmt.Println(int64(Ticks(1)), _gt.Nest(map[string]Ticks{}, _gt.ShapeMap(\"map[string]main.Ticks\", nil, _gt.ShapeBase(\"main.Ticks\"))))"},
			nil},
		{"%T and %p see the value itself", "type L int\nfunc (l L) String() string { return \"L\" }\nls := []L{1}\nfmt.Printf(\"%T %p\\n\", ls, ls)",
			[]string{"fmt.Printf(\"%s %p\\n\", func(any) string { return \"[]main.L\" }(ls), ls)"},
			[]string{"Nest(ls"}},
		{"a struct with no value that compiled fmt prints wrongly", "type P struct{ X int; y []string }\nfmt.Println(P{}, []P{})",
			[]string{"fmt.Println(P{}, []P{})"}, []string{"Nest(P{}", "Nest([]P{}"}},
	})
}
