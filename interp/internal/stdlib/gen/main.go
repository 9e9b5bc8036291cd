// Command gen writes the yaegi symbol tables of the standard library of the
// Go toolchain that runs it: one file per importable package, named after
// its import path. Run it through `go generate ./interp/internal/stdlib`.
//
// It extracts every package `go list std` names but the internal ones and
// those in skipped, with yaegi's extract package: generic functions and types
// are left out (a table holds compiled values, and a generic function has
// none until it is instantiated). syscall, whose constants and functions
// differ from one platform to the next, gets one file per platform in
// syscallPlatforms, each with its build constraint.
package main

import (
	"bytes"
	"fmt"
	"go/build"
	"go/format"
	"log"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/traefik/yaegi/extract"
	"golang.org/x/sync/errgroup"
)

// skipped are the standard-library packages that get no table, and why.
var skipped = map[string]string{
	"unsafe":       "the interpreter needs yaegi's own unsafe support (conversion hooks), not a table: the session loads github.com/traefik/yaegi/stdlib/unsafe",
	"runtime/cgo":  "it only supports cgo's linking and has nothing to call",
	"plugin":       "linking it turns on the linker's dynamic linking, which keeps every method of every type in the binary; whether the kernel loads plugins is issue 12's to decide",
	"time/tzdata":  "importing it embeds the time-zone database (450 KB) in the binary, which an import in a cell cannot do",
	"syscall":      "it differs by platform: it has tables for linux/amd64 and linux/arm64 only",
	"runtime/race": "it only has content in -race builds",
}

// syscallPlatforms are the platforms (GOOS/GOARCH) that get a table of
// package syscall.
var syscallPlatforms = []string{"linux/amd64", "linux/arm64"}

func main() {
	log.SetFlags(0)
	log.SetPrefix("stdlib/gen: ")
	pkgs, err := stdPackages()
	if err != nil {
		log.Fatal(err)
	}
	old, err := filepath.Glob("*_table.go")
	if err != nil {
		log.Fatal(err)
	}
	sys, _ := filepath.Glob("syscall_*.go")
	for _, f := range append(old, sys...) {
		if err := os.Remove(f); err != nil {
			log.Fatal(err)
		}
	}
	// Each package is read and type-checked from source, its dependencies
	// included: the packages go in parallel.
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, path := range pkgs {
		g.Go(func() error { return write(path, fileName(path), nil) })
	}
	if err := g.Wait(); err != nil {
		log.Fatal(err)
	}
	if err := writeInfo("generated.go"); err != nil {
		log.Fatal(err)
	}
	for _, p := range syscallPlatforms {
		goos, goarch, _ := strings.Cut(p, "/")
		// The extractor reads the package with go/build's default context.
		build.Default.GOOS, build.Default.GOARCH = goos, goarch
		// The file's name is a build constraint too.
		if err := write("syscall", "syscall_"+goos+"_"+goarch+".go", []string{goos, goarch}); err != nil {
			log.Fatal(err)
		}
	}
}

// fileName returns the file of an import path's table: "net/http" →
// "net_http_table.go". The suffix keeps a path that ends in a platform name
// from making the name a build constraint.
func fileName(path string) string {
	return strings.NewReplacer("/", "_", ".", "_").Replace(path) + "_table.go"
}

// write extracts path's table into file, with the build tags given.
func write(path, file string, tags []string) error {
	ext := extract.Extractor{Dest: "stdlib", Tag: tags}
	var buf bytes.Buffer
	if _, err := ext.Extract(path, "", &buf); err != nil {
		return fmt.Errorf("extracting %s: %v", path, err)
	}
	src, err := lazy(buf.Bytes())
	if err != nil {
		return fmt.Errorf("extracting %s: %v", path, err)
	}
	return os.WriteFile(file, src, 0o644)
}

// lazy turns the init function of a table the extractor wrote, which
// fills Symbols when the program starts, into one that registers a
// function filling symbols when Symbols is first called: building the
// tables of the whole library took milliseconds of every start of the
// kernel.
func lazy(src []byte) ([]byte, error) {
	const head = "func init() {\n"
	i := bytes.Index(src, []byte(head))
	if i < 0 {
		return nil, fmt.Errorf("no init function in the extracted table")
	}
	body := i + len(head)
	end := bytes.Index(src[body:], []byte("\n}\n"))
	if end < 0 {
		return nil, fmt.Errorf("the extracted table's init function does not end")
	}
	end += body
	var b bytes.Buffer
	b.Write(src[:body])
	b.WriteString("\ttables = append(tables, func() {\n")
	b.Write(bytes.ReplaceAll(src[body:end], []byte("\tSymbols["), []byte("\tsymbols[")))
	b.WriteString("\n\t})")
	b.Write(src[end:])
	return format.Source(b.Bytes())
}

// writeInfo records the Go release whose library the tables hold (they
// change with Go's minor version, not with its patch releases) and the
// packages skipped.
func writeInfo(file string) error {
	v := runtime.Version()
	if major, rest, ok := strings.Cut(v, "."); ok {
		minor, _, _ := strings.Cut(rest, ".")
		v = major + "." + minor
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by interp/internal/stdlib/gen. DO NOT EDIT.\n\npackage stdlib\n\n")
	b.WriteString("// GoVersion is the Go release whose standard library the tables hold.\n")
	fmt.Fprintf(&b, "const GoVersion = %q\n\n", v)
	b.WriteString("// Skipped are the standard-library packages that have no table here, and why.\n")
	b.WriteString("var Skipped = map[string]string{\n")
	for _, p := range slices.Sorted(maps.Keys(skipped)) {
		fmt.Fprintf(&b, "\t%q: %q,\n", p, skipped[p])
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return err
	}
	return os.WriteFile(file, src, 0o644)
}

// stdPackages lists the standard library's importable packages, less those
// in skipped.
func stdPackages() ([]string, error) {
	out, err := exec.Command("go", "list", "std").Output()
	if err != nil {
		return nil, fmt.Errorf("go list std: %v", err)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		internal := strings.HasPrefix(p, "internal/") || strings.Contains(p, "/internal/") || strings.HasSuffix(p, "/internal")
		if internal || strings.HasPrefix(p, "vendor/") || skipped[p] != "" {
			continue
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}
