package kernel

import (
	"reflect"
	"testing"
)

// The expected results are SQLite's GLOB operator, which IPython's history
// search uses, computed with Python's sqlite3 module:
//
//	sqlite3.connect(":memory:").execute("select ? GLOB ?", (input, pattern))
func TestGlobRegexp(t *testing.T) {
	for _, tc := range []struct {
		pattern, input string
		want           bool
	}{
		{"a*", "abc", true},
		{"a*", "xabc", false},
		{"*b*", "abc", true},
		{"a?c", "abc", true},
		{"a?c", "ac", false},
		{"[ab]*", "bcd", true},
		{"[^ab]*", "bcd", false},
		{"[^ab]*", "cd", true},
		{"[a-c]x", "bx", true},
		{"[a-c]x", "dx", false},
		{"[]]", "]", true},
		{"[^]]", "a", true},
		{"[a-]", "-", true},
		{"a[", "a[", false},
		{"*.go", "main.go", true},
		{"A*", "abc", false},
		{"x*", "x\ny", true},
		{"(", "(", true},
		{"a.c", "abc", false},
		{"*", "", true},
		{`[\]`, `\`, true},
		{"fmt.Print*", "fmt.Println(x)", true},
	} {
		re, err := globRegexp(tc.pattern)
		if err != nil {
			t.Errorf("globRegexp(%q): %v", tc.pattern, err)
			continue
		}
		if got := re.MatchString(tc.input); got != tc.want {
			t.Errorf("%q GLOB %q = %v, want %v (regexp %s)", tc.input, tc.pattern, got, tc.want, re)
		}
	}
}

func TestQueryHistoryRange(t *testing.T) {
	var hist []historyEntry
	for i := 1; i <= 5; i++ {
		hist = append(hist, historyEntry{line: i})
	}
	ip := func(v int) *int { return &v }
	lines := func(es []historyEntry) []int {
		var l []int
		for _, e := range es {
			l = append(l, e.line)
		}
		return l
	}
	// Expected values follow IPython's HistoryManager._get_range_session:
	// lines 1..n, stop exclusive, negative start and stop from the end.
	for _, tc := range []struct {
		req  historyRequest
		want []int
	}{
		{historyRequest{HistAccessType: "range", Start: 1}, []int{1, 2, 3, 4, 5}},
		{historyRequest{HistAccessType: "range", Start: 2, Stop: ip(4)}, []int{2, 3}},
		{historyRequest{HistAccessType: "range", Start: -2}, []int{4, 5}},
		{historyRequest{HistAccessType: "range", Start: 0, Stop: ip(-3)}, []int{1, 2}},
		{historyRequest{HistAccessType: "range", Start: 4, Stop: ip(99)}, []int{4, 5}},
		{historyRequest{HistAccessType: "range", Start: 4, Stop: ip(2)}, nil},
		{historyRequest{HistAccessType: "range", Session: -1, Start: 1}, nil},
		{historyRequest{HistAccessType: "tail", N: ip(2)}, []int{4, 5}},
		{historyRequest{HistAccessType: "tail", N: ip(0)}, nil},
		{historyRequest{HistAccessType: "tail"}, []int{1, 2, 3, 4, 5}},
	} {
		got, err := queryHistory(hist, tc.req)
		if err != nil {
			t.Errorf("%+v: %v", tc.req, err)
		}
		if !reflect.DeepEqual(lines(got), tc.want) {
			t.Errorf("%+v = %v, want %v", tc.req, lines(got), tc.want)
		}
	}
	if _, err := queryHistory(hist, historyRequest{HistAccessType: "all"}); err == nil {
		t.Error("unknown hist_access_type accepted")
	}
}
