package corpus

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain serves the children of TestRun: each runner does what its name
// says with the source it is given.
func TestMain(m *testing.M) {
	ServeChild(map[string]Runner{
		"bare": Bare,
		"print": func(src string, stdout, stderr *os.File) error {
			_, err := stdout.WriteString(src)
			return err
		},
		"error": func(src string, stdout, stderr *os.File) error { return errors.New(src) },
		"exit":  func(src string, stdout, stderr *os.File) error { os.Exit(3); return nil },
		"hang":  func(src string, stdout, stderr *os.File) error { select {} },
		"dir": func(src string, stdout, stderr *os.File) error {
			wd, _ := os.Getwd()
			_, err := stdout.WriteString(filepath.Base(wd) + " " + filepath.Base(os.TempDir()))
			return err
		},
	})
	os.Exit(m.Run())
}

func TestRun(t *testing.T) {
	jobs := []Job{
		{Name: "print", Mode: "print", Src: "hello\n"},
		{Name: "print-other", Mode: "print", Src: "bye\n"},
		{Name: "error", Mode: "error", Src: "1:1: undefined: x"},
		{Name: "exit", Mode: "exit"},
		{Name: "hang", Mode: "hang", Timeout: 200 * time.Millisecond},
		{Name: "bare", Mode: "bare", Src: "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(6 * 7) }\n"},
		{Name: "bare-error", Mode: "bare", Src: "package main\n\nfunc main() { undefinedName() }\n"},
	}
	results, err := Run(context.Background(), jobs, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		outcome Outcome
		why     string
	}{
		{Pass, ""},
		{Fail, ""},
		{Error, "1:1: undefined: x"},
		{Exit, "exit status 3: "},
		{Timeout, "still running after 200ms"},
		{Pass, ""},
		{Error, "undefined: undefinedName"},
	}
	expected := map[string]string{"print": "hello", "print-other": "hello", "bare": "42"}
	for i, r := range results {
		if got := r.Outcome(expected[r.Name], SameTrimmed); got != want[i].outcome {
			t.Errorf("%s: outcome %s, want %s (%+v)", r.Name, got, want[i].outcome, r)
		}
		if got := r.Why(); !strings.Contains(got, want[i].why) {
			t.Errorf("%s: why %q, want %q", r.Name, got, want[i].why)
		}
	}
}

// TestRunDirectory checks that a child runs in a fresh directory that is
// also its TMPDIR, removed afterwards.
func TestRunDirectory(t *testing.T) {
	results, err := Run(context.Background(), []Job{{Name: "dir", Mode: "dir"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	wd, tmp, _ := strings.Cut(results[0].Stdout, " ")
	if !strings.HasPrefix(wd, "corpus-") || wd != tmp {
		t.Errorf("child's directory %q and TMPDIR %q: want the same fresh corpus-* directory", wd, tmp)
	}
	if _, err := os.Stat(filepath.Join(os.TempDir(), wd)); !os.IsNotExist(err) {
		t.Errorf("the child's directory %s is still there: %v", wd, err)
	}
}

func TestCellSource(t *testing.T) {
	src := "// Doc.\npackage main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(main2())\n}\n\nfunc main2() int { return 1 }\n"
	cases := []struct{ main, want string }{
		{"", "// Doc.\n\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(main2())\n}\n\nfunc main2() int { return 1 }\n"},
		{"run", "// Doc.\n\n\nimport \"fmt\"\n\nfunc run() {\n\tfmt.Println(main2())\n}\n\nfunc main2() int { return 1 }\nrun()\n"},
	}
	for _, c := range cases {
		got, err := CellSource(src, c.main)
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("CellSource(src, %q) =\n%s\nwant\n%s", c.main, got, c.want)
		}
	}
	// Without func main there is nothing to call.
	got, err := CellSource("package p\n\nvar X = 1", "run")
	if err != nil || got != "\n\nvar X = 1" {
		t.Errorf("CellSource without main = %q, %v", got, err)
	}
}

// TestYaegiPrograms reads the Output comments the way yaegi's own test
// does, from programs written here.
func TestYaegiPrograms(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"plain.go":  "package main\n\nfunc main() { println(1) }\n\n// Output:\n// 1\n// two\n",
		"gopath.go": "package main\n\nfunc main() {}\n\n// GOPATH:testdata/p\n// Output:\n// x\n",
		"error.go":  "package main\n\nfunc main() { x }\n\n// Error:\n// undefined: x\n",
		"inside.go": "package main\n\n// Output:\n// not last\nfunc main() {}\n\n// the end\n",
	}
	if err := os.Mkdir(filepath.Join(dir, "_test"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, "_test", name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	progs, err := YaegiPrograms(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range progs {
		got[p.Name] = p.Want
	}
	want := map[string]string{"gopath": "x\n", "plain": "1\ntwo\n"}
	if len(got) != len(want) || got["gopath"] != want["gopath"] || got["plain"] != want["plain"] {
		t.Errorf("YaegiPrograms = %q, want %q", got, want)
	}
}

func TestSameTrimmed(t *testing.T) {
	if !SameTrimmed("\n a\nb \n", "a\nb") || SameTrimmed("a\n\nb", "a\nb") {
		t.Error("SameTrimmed must ignore white space at both ends only")
	}
}
