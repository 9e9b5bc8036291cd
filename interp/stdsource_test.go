package interp

import (
	"runtime"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
	"github.com/gotensor/gotensor/interp/internal/stdsrc"
)

// TestWithoutGo runs the standard library's generic code in a session on
// a machine without Go, as a kernel copied to a GPU server or a container
// is: $GOROOT is an empty folder and no go command is on $PATH. The kernel
// reads slices, maps and iter from the copy it embeds. The expected values
// are what go run prints for the same code.
func TestWithoutGo(t *testing.T) {
	if fsys, _ := stdsrc.FS(); fsys == nil {
		testenv.Missing(t, "the kernel embeds no standard-library source: go generate ./interp/internal/stdsrc")
	}
	t.Setenv("GOROOT", t.TempDir())
	t.Setenv("PATH", t.TempDir())
	if from := GenericSource(); !strings.HasPrefix(from, "embedded in the kernel ("+runtime.Version()) {
		t.Errorf("GenericSource() = %q, want the embedded copy", from)
	}
	s := newSession(t)
	for _, c := range []struct{ code, result, stdout string }{
		{"import (\"iter\"; \"maps\"; \"slices\")", "", ""},
		{"xs := []int{3, 1, 2}\nslices.Sort(xs)\nxs", "[1 2 3]", ""},
		{"slices.Sorted(maps.Keys(map[string]int{\"b\": 1, \"a\": 2, \"c\": 3}))", "[a b c]", ""},
		{"func count(n int) iter.Seq[int] {\n\treturn func(yield func(int) bool) {\n\t\tfor i := range n {\n\t\t\tif !yield(i * i) {\n\t\t\t\treturn\n\t\t\t}\n\t\t}\n\t}\n}\nfor v := range count(4) { fmt.Print(v, \" \") }", "", "0 1 4 9 "},
		{"slices.Collect(count(3))", "[0 1 4]", ""},
		{"fmt.Println(slices.Max(xs), slices.Index(xs, 2))", "", "3 1\n"},
	} {
		res, out, err := run(t, s, c.code)
		if err != nil || res != c.result || out != c.stdout {
			t.Errorf("cell %q: got %q, stdout %q, error %v; want %q, stdout %q", c.code, res, out, err, c.result, c.stdout)
		}
	}
}
