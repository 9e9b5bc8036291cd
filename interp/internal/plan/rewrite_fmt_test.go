package plan

import "testing"

// TestRewritesFmt checks the code generated for fmt's and log's arguments and the cell's last value.
func TestRewritesFmt(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"a cell's module among a library function's variadic interface arguments", "type Block struct{}\nfunc (b *Block) Forward(x *tensor.Tensor) *tensor.Tensor { return x }\nfunc (b *Block) Parameters() []*tensor.Tensor { return nil }\nm := nn.NewSequential(nn.NewReLU(), &Block{})",
			[]string{"nn.NewSequential([]nn.Forwarder{nn.NewReLU(), &Block{}}...)"}, nil},
		{"fmt arguments of cell types with fmt methods", "var s S = 1\nfmt.Printf(\"%v %T %d\\n\", s, s, s)\nfmt.Println(s, 2)",
			[]string{"fmt.Printf(\"%v %s %d\\n\", func(_gtx S) any { return _gt.Fmt(_gtx, _gtx.String, nil, nil, nil) }(s), func(any) string { return \"main.S\" }(s), func(_gtx S) any",
				"fmt.Println(func(_gtx S) any { return _gt.Fmt(_gtx, _gtx.String, nil, nil, nil) }(s), 2)"}, nil},
		{"a value whose pointer has the fmt methods is printed without them", "type Q struct{ A int }\nfunc (q *Q) String() string { return \"Q\" }\nq := Q{1}\nfmt.Println(q, &q)",
			[]string{"fmt.Println(func(_gtx Q) any { return _gt.Fmt(_gtx, nil, nil, nil, nil) }(q), func(_gtx *Q) any { return _gt.Fmt(_gtx, _gtx.String, nil, nil, nil) }(&q))"}, nil},
		{"%T, %+v and %#v of a cell's struct", "type point struct{ x, y int }\np := point{1, 2}\nfmt.Printf(\"%v %+v %#v %T\\n\", p, p, &p, p)",
			[]string{"fmt.Printf(\"%v %+v %#v %s\\n\", p, func(_gtx point) any { return _gt.Describe(_gtx, \"main.point\", \"x\", \"y\") }(p), func(_gtx *point) any { return _gt.Describe(_gtx, \"main.point\", \"x\", \"y\") }(&p), func(any) string { return \"main.point\" }(p))"}, nil},
		{"the last value with display methods", "S(2)",
			[]string{"_gtres := S(2); _gt.Result(_gtres, _gt.Fmt(_gtres, _gtres.String, nil, nil, nil), nil, nil, nil, nil)"}, nil},
		{"the last value without display methods", "type P struct{ X int }\np := P{1}\np",
			[]string{"_gtres := p; _gt.Value(_gtres)"}, []string{"_gt.Result("}},
	})
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
