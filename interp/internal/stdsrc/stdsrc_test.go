package stdsrc_test

import (
	"io/fs"
	"os"
	"path"
	"runtime"
	"slices"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
	"github.com/gotensor/gotensor/interp/internal/plan"
	"github.com/gotensor/gotensor/interp/internal/stdsrc"
)

// embedded returns the embedded source, or skips the test (fails it when
// GOTENSOR_REQUIRE_TOOLS=1) when the kernel was built without it.
func embedded(t *testing.T) (fs.FS, string) {
	t.Helper()
	fsys, version := stdsrc.FS()
	if fsys == nil {
		testenv.Missing(t, "the standard library's source was not generated: go generate ./interp/internal/stdsrc")
	}
	return fsys, version
}

// TestArchiveIsTheToolchains checks that the embedded source is the Go
// toolchain's, file for file, for each package it holds, as the planner
// reads it for this platform; that it holds the packages whose generic code
// cells use; and that it comes from the Go that builds the test.
func TestArchiveIsTheToolchains(t *testing.T) {
	fsys, version := embedded(t)
	if version != runtime.Version() {
		t.Fatalf("the embedded source is %s's, the toolchain is %s: run go generate ./interp/internal/stdsrc", version, runtime.Version())
	}
	goroot := runtime.GOROOT() //nolint:staticcheck // the toolchain that runs the test
	if !plan.HasStd(os.DirFS(goroot + "/src")) {
		t.Skipf("no Go source under %s to compare with", goroot)
	}
	fromZip, fromRoot := plan.FSSource(fsys), plan.GOROOTSource(goroot)
	entries, err := fs.Glob(fsys, "*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := fs.Glob(fsys, "*/*/*.go")
	var pkgs []string
	for _, e := range append(entries, more...) {
		if dir := path.Dir(e); !slices.Contains(pkgs, dir) {
			pkgs = append(pkgs, dir)
		}
	}
	for _, want := range []string{"cmp", "errors", "iter", "maps", "slices", "sync", "sync/atomic"} {
		if !slices.Contains(pkgs, want) {
			t.Errorf("the archive lacks %s (it holds %v)", want, pkgs)
		}
	}
	if slices.Contains(pkgs, "runtime") {
		t.Errorf("the archive holds runtime, which gen leaves out")
	}
	for _, p := range pkgs {
		a, b := fromZip(p), fromRoot(p)
		if len(a) == 0 || !slices.Equal(a, b) {
			t.Errorf("%s: %d files from the archive, %d under %s, or their contents differ", p, len(a), len(b), goroot)
		}
	}
}
