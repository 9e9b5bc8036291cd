package interp

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/traefik/yaegi/stdlib/generic"

	"github.com/gotensor/gotensor/interp/internal/plan"
	"github.com/gotensor/gotensor/interp/internal/stdsrc"
)

// stdSource returns where sessions read the standard library's generic
// code (slices.Sort, maps.Keys, iter.Seq ...), which symbol tables cannot
// hold, with the note the planner adds to compile errors when what it
// reads lacks something (see plan.StdSource), and a description of it for
// GenericSource. The first of these that is there wins:
//
//  1. the copy the kernel embeds (package stdsrc), when it comes from
//     the Go release that built the kernel;
//  2. the Go toolchain's source under goroot;
//  3. the embedded copy of another Go release (the kernel was built
//     without regenerating it);
//  4. yaegi's Go 1.22 copies of cmp, maps and slices.
func stdSource(goroot string) (source func(path string) []string, note, from string) {
	embedded, version := stdsrc.FS()
	if embedded != nil && version == runtime.Version() {
		return plan.FSSource(embedded), "", fmt.Sprintf("embedded in the kernel (%s, %d KB)", version, stdsrc.Size()/1024)
	}
	if goroot != "" && plan.HasStd(os.DirFS(filepath.Join(goroot, "src"))) {
		return plan.GOROOTSource(goroot), "", "the Go toolchain's source under " + goroot
	}
	if embedded != nil {
		return plan.FSSource(embedded), "", fmt.Sprintf("embedded in the kernel (%s, not the kernel's %s: run go generate ./interp/internal/stdsrc before building)", version, runtime.Version())
	}
	source, note = plan.StdSource(goroot, generic.Sources[:])
	return source, note, "none: the interpreter's Go 1.22 copies of cmp, maps and slices (build the kernel with make build, or install Go)"
}

// GenericSource says where this kernel's sessions read the standard
// library's generic code (slices, maps, iter, cmp, errors.AsType,
// atomic.Pointer ...) from: the copy embedded in the binary, the Go
// toolchain's source under $GOROOT, or, without either, yaegi's older
// copies of cmp, maps and slices. `gotensor version` prints it.
func GenericSource() string {
	_, _, from := stdSource(goroot())
	return from
}
