package interp

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/kernel"
)

func TestMagics(t *testing.T) {
	s := newSession(t)
	dir := t.TempDir()
	wd, _ := os.Getwd()
	t.Cleanup(func() { os.Chdir(wd) })
	t.Setenv("GOTENSOR_TEST_VAR", "")
	cases := []struct {
		code   string
		result string
		stdout *regexp.Regexp
	}{
		{"%time x := 6 * 7", "", regexp.MustCompile(`^Wall time: [0-9.]+ (ns|µs|ms|s)\n$`)},
		{"%%time\ny := x + 1\ny", "43", regexp.MustCompile(`^Wall time: `)},
		{"%timeit y * 2", "", regexp.MustCompile(`^[0-9.]+ (ns|µs|ms) ± [0-9.]+ (ns|µs|ms) per loop \(mean ± std. dev. of 5 runs, \d+ loops each\)\n$`)},
		{"%who", "", regexp.MustCompile(`(?m)^x +int +42\n^y +int +43\n$`)},
		{"%env GOTENSOR_TEST_VAR=hello", "", regexp.MustCompile(`^env: GOTENSOR_TEST_VAR=hello\n$`)},
		{"%env GOTENSOR_TEST_VAR", "", regexp.MustCompile(`^hello\n$`)},
		{"%cd " + dir, "", regexp.MustCompile(`^` + regexp.QuoteMeta(dir) + `\n$`)},
		{"!echo one; echo two", "", regexp.MustCompile(`^one\ntwo\n$`)},
		{"!pwd", "", regexp.MustCompile(`^` + regexp.QuoteMeta(dir) + `\n$`)},
		{"%help", "", regexp.MustCompile(`%timeit`)},
		{"z := 1\n%time z++\nz", "2", regexp.MustCompile(`^Wall time`)},
		{"%reset", "", regexp.MustCompile(`^$`)},
		{"%who", "", regexp.MustCompile(`^no variables\n$`)},
		{"fmt.Sprint(math.Sqrt(4))", "2", regexp.MustCompile(`^$`)},
	}
	for i, c := range cases {
		res, out := mustRun(t, s, c.code)
		if res != c.result || !c.stdout.MatchString(out) {
			t.Errorf("case %d %q: got %q stdout %q, want %q stdout =~ %s", i, c.code, res, out, c.result, c.stdout)
		}
	}
	if _, err := os.Stat(filepath.Join(dir)); err != nil {
		t.Error(err)
	}
	_, _, err := run(t, s, "%nosuch")
	if e, ok := err.(*kernel.Error); !ok || !strings.Contains(e.Value, "unknown magic %nosuch") {
		t.Errorf("unknown magic: got %v", err)
	}
}

// TestWhoTensors checks that %who gives a tensor's shape, dtype, device and
// data size.
func TestWhoTensors(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, "w := tensor.Zeros(1000, 1000)\nidx := tensor.FromInt64s([]int64{1, 2, 3}, 3)\nvar none *tensor.Tensor\nk := 7\nd := tensor.Ones(2, 2).AsType(tensor.Float64)")
	_, out := mustRun(t, s, "%who")
	want := []string{
		`(?m)^d +\*tensor\.Tensor +\[2 2\] float64 cpu 32 B$`,
		`(?m)^idx +\*tensor\.Tensor +\[3\] int64 cpu 24 B$`,
		`(?m)^k +int +7$`,
		`(?m)^none +\*tensor\.Tensor +<nil>$`,
		`(?m)^w +\*tensor\.Tensor +\[1000 1000\] float32 cpu 3\.8 MiB$`,
	}
	for _, w := range want {
		if !regexp.MustCompile(w).MatchString(out) {
			t.Errorf("%%who:\n%s\nwant a line matching %s", out, w)
		}
	}
}
