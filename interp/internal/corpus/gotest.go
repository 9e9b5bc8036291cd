package corpus

import (
	"errors"
	"fmt"
	"go/build"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// GoTestDirs are the folders of the Go distribution's test directory
// ($GOROOT/test) whose programs the go command's own test runs
// (cmd/internal/testdir), "." being the test directory itself.
var GoTestDirs = []string{".", "ken", "chan", "interface", "syntax", "dwarf", "fixedbugs", "codegen", "abi", "typeparam", "typeparam/mdempsky", "arenas", "simd", "internal/runtime/sys"}

// A Skipped is a program of a corpus that is not run, and why.
type Skipped struct {
	Name, Why string
}

// GoTestPrograms returns the programs of the Go distribution's test
// directory (dir, $GOROOT/test) that Go's test runner runs with its "run"
// action, in the folders named by dirs (GoTestDirs or some of them),
// sorted by name ("fixedbugs/issue1234"). A program's recipe is its first
// line that is not empty and not a build constraint, as the runner reads
// it. Want is the program's NAME.out file, or empty where it has none: the
// program's standard output and standard error together, and it must exit
// with status 0.
//
// A "run" program that a notebook cannot run as Go's runner does is
// skipped, with the reason: a recipe with flags or arguments
// ("run -gcflags=-l"), a build constraint this machine does not satisfy,
// or an import of an internal package of the standard library (only the
// distribution's own tests may import one).
func GoTestPrograms(dir string, dirs []string) ([]Program, []Skipped, error) {
	var progs []Program
	var skipped []Skipped
	for _, d := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, d, "*.go"))
		if err != nil {
			return nil, nil, err
		}
		for _, path := range files {
			src, err := os.ReadFile(path)
			if err != nil {
				return nil, nil, err
			}
			name := strings.TrimSuffix(filepath.ToSlash(filepath.Join(d, filepath.Base(path))), ".go")
			action, header := goTestRecipe(string(src))
			if f := strings.Fields(action); len(f) == 0 || f[0] != "run" {
				continue
			} else if len(f) > 1 {
				skipped = append(skipped, Skipped{name, "a recipe with flags or arguments: " + action})
				continue
			}
			if why := unsatisfied(header); why != "" {
				skipped = append(skipped, Skipped{name, "a build constraint this machine does not satisfy: " + why})
				continue
			}
			if imp := internalImport(string(src)); imp != "" {
				skipped = append(skipped, Skipped{name, "it imports " + imp + ", an internal package of the standard library"})
				continue
			}
			want, err := os.ReadFile(strings.TrimSuffix(path, ".go") + ".out")
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, nil, err
			}
			progs = append(progs, Program{Name: name, Path: path, Src: string(src), Want: string(want)})
		}
	}
	if len(progs) == 0 {
		return nil, nil, fmt.Errorf("corpus: no programs with a \"// run\" recipe in %s", dir)
	}
	slices.SortFunc(progs, func(a, b Program) int { return strings.Compare(a.Name, b.Name) })
	return progs, skipped, nil
}

// goTestRecipe returns the recipe of a program of Go's test directory, as
// Go's runner reads it (its first line that is not empty and not a build
// constraint, without "//"), and the file's header, the text before its
// package clause, where its build constraints are.
func goTestRecipe(src string) (action, header string) {
	for rest := src; action == "" && rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if constraint.IsGoBuild(line) || constraint.IsPlusBuild(line) {
			continue
		}
		action = strings.TrimSpace(strings.TrimPrefix(line, "//"))
	}
	header, _, _ = strings.Cut(src, "\npackage")
	return action, header
}

// unsatisfied returns the first build constraint line of header that this
// machine (its GOOS and GOARCH, the go command's release and tool tags,
// cgo) does not satisfy, or "".
func unsatisfied(header string) string {
	for _, line := range strings.Split(header, "\n") {
		expr, err := constraint.Parse(line)
		if err != nil {
			continue
		}
		if !expr.Eval(matchTag) {
			return line
		}
	}
	return ""
}

// matchTag reports whether a build tag holds on this machine.
func matchTag(tag string) bool {
	ctx := build.Default
	switch {
	case tag == runtime.GOOS || tag == runtime.GOARCH || tag == runtime.Compiler:
		return true
	case tag == "unix":
		return slices.Contains([]string{"aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "linux", "netbsd", "openbsd", "solaris"}, runtime.GOOS)
	case tag == "cgo":
		return ctx.CgoEnabled
	}
	return slices.Contains(ctx.ReleaseTags, tag) || slices.Contains(ctx.ToolTags, tag)
}

// internalImport returns the first import of src whose path has an
// "internal" element, or "".
func internalImport(src string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ImportsOnly)
	if err != nil {
		return ""
	}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if slices.Contains(strings.Split(path, "/"), "internal") {
			return path
		}
	}
	return ""
}
