package plan

import "testing"

// TestConvertedResults checks that a return of one call's several results
// that converts one to an interface assigns them to variables first (see
// convertedResults), and that other returns stay as written. interp's
// TestGocompat (iface/call_results_returned_as_iface) runs them against
// go run.
func TestConvertedResults(t *testing.T) {
	testRewrites(t, []rewriteCase{
		{"a compiled call's results returned as a cell's interface", "import \"os\"\ntype Closer interface{ Close() error }\nfunc open(p string) (Closer, error) { return os.Open(p) }",
			[]string{"{ _gtc1, _gtc2 := os.Open(p); return _gtc1, _gtc2 }"}, nil},
		{"results of the same types, and several values", "import \"os\"\nfunc open(p string) (*os.File, error) { return os.Open(p) }\nfunc two() (any, int) { return 1, 2 }",
			[]string{"return os.Open(p)", "return 1, 2"}, []string{"_gtc"}},
	})
}
