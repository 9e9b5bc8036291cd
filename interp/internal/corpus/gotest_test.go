package corpus

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestGoTestPrograms reads a test directory laid out as Go's: the "run"
// programs are read with their .out file, those with flags, a build
// constraint this machine does not satisfy or an internal import are
// skipped with the reason, and other recipes are not programs.
func TestGoTestPrograms(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"hello.go":           "// run\n\npackage main\n\nfunc main() { println(\"hi\") }\n",
		"hello.out":          "hi\n",
		"quiet.go":           "//go:build linux || !linux\n\n// run\n\npackage main\n\nfunc main() {}\n",
		"flags.go":           "// run -gcflags=-l\n\npackage main\n\nfunc main() {}\n",
		"args.go":            "// run arg1\n\npackage main\n\nfunc main() {}\n",
		"aix.go":             "//go:build aix && !aix\n\n// run\n\npackage main\n\nfunc main() {}\n",
		"abi.go":             "// run\n\npackage main\n\nimport \"internal/abi\"\n\nfunc main() { _ = abi.FuncPCABI0 }\n",
		"errors.go":          "// errorcheck\n\npackage main\n",
		"later.go":           "// Copyright\n\n// run\n\npackage main\n",
		"fixedbugs/bug1.go":  "// run\n\npackage main\n\nfunc main() {}\n",
		"fixedbugs/bug2.go":  "// compile\n\npackage main\n",
		"notlisted/other.go": "// run\n\npackage main\n\nfunc main() {}\n",
	}
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	progs, skipped, err := GoTestPrograms(dir, []string{".", "fixedbugs"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range progs {
		got = append(got, p.Name+"="+p.Want)
	}
	if want := []string{"fixedbugs/bug1=", "hello=hi\n", "quiet="}; !reflect.DeepEqual(got, want) {
		t.Errorf("programs %q, want %q", got, want)
	}
	wantSkipped := []Skipped{
		{"abi", "it imports internal/abi, an internal package of the standard library"},
		{"aix", "a build constraint this machine does not satisfy: //go:build aix && !aix"},
		{"args", "a recipe with flags or arguments: run arg1"},
		{"flags", "a recipe with flags or arguments: run -gcflags=-l"},
	}
	if !reflect.DeepEqual(skipped, wantSkipped) {
		t.Errorf("skipped %q, want %q", skipped, wantSkipped)
	}
}
