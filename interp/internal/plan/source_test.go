package plan

import (
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/traefik/yaegi/stdlib"
	"github.com/traefik/yaegi/stdlib/generic"
	"github.com/traefik/yaegi/stdlib/unrestricted"

	"github.com/gotensor/gotensor/interp/internal/cellrt"
	"github.com/gotensor/gotensor/interp/internal/symbols"
)

// yaegiSources is the Universe.Source of the packages yaegi runs from its
// own embedded source: cmp, maps and slices (Go 1.22's, slices.go only).
func yaegiSources(path string) []string {
	for _, src := range generic.Sources {
		if strings.HasPrefix(strings.TrimSpace(src[strings.Index(src, "package "):]), "package "+path+"\n") {
			return []string{src}
		}
	}
	return nil
}

func sourceSession(t *testing.T, source func(string) []string) *Session {
	t.Helper()
	rt := &cellrt.Runtime{}
	u := NewUniverse(stdlib.Symbols, unrestricted.Symbols, symbols.Symbols, rt.Exports())
	u.Source = source
	s, err := New(Config{Universe: u, Preimport: []string{"fmt"}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestYaegiSourcePackages checks that the packages the interpreter runs
// from source are typed from that same source: what it has checks, what
// it lacks is a compile error.
func TestYaegiSourcePackages(t *testing.T) {
	s := sourceSession(t, yaegiSources)
	p := run(t, s, 1, "import (\"slices\"; \"maps\"; \"cmp\")\nxs := []int{3, 1, 2}\nm := maps.Clone(map[string]int{\"a\": 1})\n_ = cmp.Compare(1, 2)\nslices.Contains(xs, 2) && len(m) == 1")
	if p.Result == nil || p.Result.Type.String() != "bool" {
		t.Errorf("result %v", p.Result)
	}
	_, err := s.Plan(2, "slices.Sort(xs)")
	var list ErrorList
	if !errors.As(err, &list) || list[0].Msg != "undefined: slices.Sort" {
		t.Errorf("got %v, want slices.Sort undefined (yaegi's slices lacks it)", err)
	}
}

// TestGOROOTGenerics checks the generic declarations of the toolchain's
// standard library: whole packages the tables lack (slices, maps, iter),
// and generic types added to a package built from reflection
// (sync/atomic's Pointer[T]).
func TestGOROOTGenerics(t *testing.T) {
	s := sourceSession(t, GOROOTSource(runtime.GOROOT()))
	run(t, s, 1, "import (\"slices\"; \"maps\"; \"iter\"; \"sync/atomic\")\nxs := []int{3, 1, 2}\nslices.Sort(xs)\nvar seq iter.Seq[int] = slices.Values(xs)\nkeys := slices.Sorted(maps.Keys(map[string]int{\"b\": 1, \"a\": 2}))\nvar p atomic.Pointer[int]\np.Store(new(int))\nvar n atomic.Int64\nn.Add(1)\nfor i, v := range slices.All(xs) { _, _ = i, v }\n_ = seq")
	if o := s.Lookup("keys"); o == nil || o.Type().String() != "[]string" {
		t.Errorf("keys: %v", o)
	}
	if _, err := s.Plan(2, "p.Store(\"s\")"); err == nil || !strings.Contains(err.Error(), "cannot use \"s\"") {
		t.Errorf("got %v, want a type error", err)
	}
}

// TestStdSourceFallback checks the session without the toolchain's
// source: generic code comes from yaegi's copies of cmp, maps and slices,
// and what they lack is a compile error that says why.
func TestStdSourceFallback(t *testing.T) {
	if src, note := StdSource(runtime.GOROOT(), generic.Sources[:]); note != "" || len(src("slices")) < 3 {
		t.Errorf("with the toolchain: note %q, %d files of slices", note, len(src("slices")))
	}
	src, note := StdSource(t.TempDir(), generic.Sources[:])
	if !strings.Contains(note, "the Go toolchain's source is not under") {
		t.Errorf("note %q", note)
	}
	s := sourceSession(t, src)
	s.u.SourceNote = note
	p := run(t, s, 1, "import (\"cmp\"; \"maps\"; \"slices\")\nxs := []int{3, 1, 2}\nfmt.Println(slices.Contains(xs, 2), slices.Index(xs, 1), cmp.Compare(1, 2), maps.Clone(map[string]int{\"a\": 1}))")
	checkSource(t, p, []string{"_gt.InstSlicesContains_int(xs, 2)", "_gt.InstSlicesIndex_int(xs, 1)", "return _gt.CloneMap(m).(map[string]int)"}, nil)
	for _, c := range []struct{ src, want string }{
		{"slices.Sort(xs)", "undefined: slices.Sort (the Go toolchain's source is not under"},
		{"import \"iter\"", "could not import iter (package iter is not available in this session (no compiled symbols for it)) (the Go toolchain's source"},
		{"import \"errors\"\n_, _ = errors.AsType[error](nil)", "undefined: errors.AsType (the Go toolchain's source"},
	} {
		_, err := s.Plan(2, c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.src, err, c.want)
		}
	}
	if _, err := s.Plan(2, "import \"no/such\""); err == nil || strings.Contains(err.Error(), "toolchain") {
		t.Errorf("a package that does not exist: %v", err)
	}
}

// TestFSSource checks that a source tree other than $GOROOT (the copy the
// kernel embeds) gives a package's files as the go command builds them
// for this platform: no tests, no other platform's files, none behind a
// build constraint that is false here.
func TestFSSource(t *testing.T) {
	other := "windows"
	if runtime.GOOS == "windows" {
		other = "linux"
	}
	fsys := fstest.MapFS{
		"p/a.go":                      {Data: []byte("package p\n\nfunc A[T any](x T) T { return x }\n")},
		"p/a_test.go":                 {Data: []byte("package p\n")},
		"p/b_" + other + ".go":        {Data: []byte("package p\n\nvar B = 1\n")},
		"p/c.go":                      {Data: []byte("//go:build ignore\n\npackage p\n")},
		"p/d_" + runtime.GOOS + ".go": {Data: []byte("package p\n\nvar D = 1\n")},
		"p/sub/e.go":                  {Data: []byte("package sub\n")},
	}
	got := FSSource(fsys)("p")
	want := []string{string(fsys["p/a.go"].Data), string(fsys["p/d_"+runtime.GOOS+".go"].Data)}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := FSSource(fsys)("q"); got != nil {
		t.Errorf("a package that is not there: %q", got)
	}
	if HasStd(fsys) {
		t.Error("HasStd of a tree without slices")
	}
}
