// Command gen writes archive/stdsrc.zip: the non-test Go files, for every
// platform (each file some platform's default build includes), of the standard-library packages that declare exported
// generic functions or types, copied from the source tree of the Go
// toolchain that runs it, with a VERSION file naming that toolchain.
//
// Run it through go generate ./interp/internal/stdsrc, which sets
// $GOROOT to the toolchain's root. It leaves the archive untouched when
// its contents would not change.
package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
)

// excluded lists the packages with exported generics that are left out,
// and why.
var excluded = map[string]string{
	// 3.5 MB of source (1.2 MB in the archive) for one generic function,
	// AddCleanup, whose body uses internal/abi: the interpreter cannot
	// run it whatever the source.
	"runtime": "AddCleanup cannot be instantiated by the interpreter",
}

// maybeGeneric matches a line that may start an exported generic
// declaration; files without one are not parsed.
var maybeGeneric = regexp.MustCompile(`(?m)^(func|type|\t) ?[A-Z]\w*\[`)

func main() {
	log.SetFlags(0)
	log.SetPrefix("stdsrc/gen: ")
	goroot, version, err := toolchain()
	if err != nil {
		log.Fatal(err)
	}
	src := filepath.Join(goroot, "src")
	pkgs, err := genericPackages(src)
	if err != nil {
		log.Fatal(err)
	}
	if len(pkgs) == 0 || pkgs["slices"] == nil {
		log.Fatalf("no generic packages found under %s: is it the source tree of a Go toolchain?", src)
	}
	b, err := archive(pkgs, version)
	if err != nil {
		log.Fatal(err)
	}
	out := filepath.Join("archive", "stdsrc.zip")
	if old, err := os.ReadFile(out); err == nil && bytes.Equal(old, b) {
		return
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		log.Fatal(err)
	}
}

// toolchain returns the root and version of the Go toolchain: $GOROOT as
// go generate sets it, else what `go env` says.
func toolchain() (goroot, version string, err error) {
	out, err := exec.Command("go", "env", "GOROOT", "GOVERSION").Output()
	if err != nil {
		return "", "", fmt.Errorf("go env GOROOT GOVERSION: %v (run it with go generate ./interp/internal/stdsrc)", err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return "", "", fmt.Errorf("go env GOROOT GOVERSION printed %q", out)
	}
	goroot, version = f[0], f[1]
	if r := os.Getenv("GOROOT"); r != "" {
		goroot = r
	}
	return goroot, version, nil
}

// genericPackages returns, by import path, the non-test Go files (name →
// contents) of the packages under src that declare an exported generic
// function or type; internal, vendor, cmd and testdata folders are
// skipped, with the excluded packages.
func genericPackages(src string) (map[string]map[string][]byte, error) {
	pkgs := map[string]map[string][]byte{}
	err := filepath.WalkDir(src, func(dir string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(src, dir)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		for _, elem := range strings.Split(rel, "/") {
			if elem == "internal" || elem == "testdata" || elem == "vendor" || strings.HasPrefix(elem, ".") || strings.HasPrefix(elem, "_") {
				return filepath.SkipDir
			}
		}
		if rel == "cmd" {
			return filepath.SkipDir
		}
		if _, ok := excluded[rel]; ok {
			return nil
		}
		files, generic, err := readPackage(dir)
		if err != nil {
			return err
		}
		if generic {
			pkgs[rel] = files
		}
		return nil
	})
	return pkgs, err
}

// readPackage reads the non-test Go files of dir and reports whether one
// of them declares an exported generic function or type.
func readPackage(dir string) (files map[string][]byte, generic bool, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, false, err
	}
	files = map[string][]byte{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, false, err
		}
		if !buildable(b) {
			continue
		}
		files[name] = b
		if !generic && maybeGeneric.Match(b) {
			generic = declaresGeneric(name, b)
		}
	}
	return files, generic, nil
}

// buildable reports whether some platform's build includes the file with
// the toolchain's default experiments: a file behind a GOEXPERIMENT that
// is off (encoding/json/v2, arena) is left out.
func buildable(b []byte) bool {
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			return true
		}
		if !constraint.IsGoBuild(line) {
			continue
		}
		expr, err := constraint.Parse(line)
		if err != nil {
			return true
		}
		// The experiments are fixed; every other tag may be set or not.
		var free []string
		seen := map[string]bool{}
		expr.Eval(func(tag string) bool {
			if !strings.HasPrefix(tag, "goexperiment.") && !seen[tag] {
				seen[tag] = true
				free = append(free, tag)
			}
			return false
		})
		if len(free) > 16 {
			return true
		}
		for set := 0; set < 1<<len(free); set++ {
			if expr.Eval(func(tag string) bool {
				if strings.HasPrefix(tag, "goexperiment.") {
					return slices.Contains(build.Default.ToolTags, tag)
				}
				return set&(1<<slices.Index(free, tag)) != 0
			}) {
				return true
			}
		}
		return false
	}
	return true
}

// declaresGeneric reports whether the file declares an exported generic
// function or type (a package other than main).
func declaresGeneric(name string, b []byte) bool {
	f, err := parser.ParseFile(token.NewFileSet(), name, b, parser.SkipObjectResolution)
	if err != nil || f.Name.Name == "main" {
		return false
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Type.TypeParams != nil && d.Name.IsExported() {
				return true
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok && ts.TypeParams != nil && ts.Name.IsExported() {
					return true
				}
			}
		}
	}
	return false
}

// archive returns the zip of the packages' files, under their import
// paths, and of the VERSION file: deflated, in sorted order and with a
// fixed time, so that the same toolchain gives the same bytes.
func archive(pkgs map[string]map[string][]byte, version string) ([]byte, error) {
	var paths []string
	contents := map[string][]byte{"VERSION": []byte(version + "\n")}
	for p, files := range pkgs {
		for name, b := range files {
			contents[p+"/"+name] = b
		}
	}
	for p := range contents {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, p := range paths {
		f, err := w.CreateHeader(&zip.FileHeader{Name: p, Method: zip.Deflate, Modified: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			return nil, err
		}
		if _, err := f.Write(contents[p]); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
