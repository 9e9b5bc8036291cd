package modules

import (
	"archive/zip"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// fakeModule is a module version the test proxy serves: its files, by
// path inside the module.
type fakeModule struct {
	path, version string
	files         map[string]string
}

// fakeModules are the modules of the tests. They import only the standard
// library, except where a test needs otherwise.
var fakeModules = []fakeModule{
	hello("example.com/hello", "v1.0.0"),
	hello("example.com/hello", "v1.1.0"),
	hello("example.com/auto", "v1.0.0"),
	hello("example.com/auto", "v1.2.0"),
	hello("example.com/pinned", "v1.0.0"),
	hello("example.com/pinned", "v1.1.0"),
	hello("example.com/manual", "v1.0.0"),
	hello("example.com/cached", "v1.0.0"),
	hello("example.com/cached", "v1.1.0"),
	{"example.com/noroot", "v1.0.0", map[string]string{
		"go.mod":       "module example.com/noroot\n\ngo 1.21\n",
		"leaf/leaf.go": "// Package leaf is the only package of its module.\npackage leaf\n\n// Leaf returns 7.\nfunc Leaf() int { return 7 }\n",
	}},
	{"example.com/cmd", "v1.0.0", map[string]string{
		"go.mod":  "module example.com/cmd\n\ngo 1.21\n",
		"main.go": "package main\n\nfunc main() {}\n",
	}},
	{"example.com/cgofail", "v1.0.0", map[string]string{
		"go.mod": "module example.com/cgofail\n\ngo 1.21\n",
		"c.go":   "package cgofail\n\n// #include <gotensor_no_such_header.h>\nimport \"C\"\n\n// F is never reached.\nfunc F() int { return 1 }\n",
	}},
	// clash needs a version of yaegi (linked into this test binary) that
	// differs from the binary's.
	{"example.com/clash", "v1.0.0", map[string]string{
		"go.mod":   "module example.com/clash\n\ngo 1.21\n\nrequire github.com/traefik/yaegi v0.99.0\n",
		"clash.go": "package clash\n\nimport \"github.com/traefik/yaegi/fake\"\n\n// F calls into the other yaegi.\nfunc F() int { return fake.F() }\n",
	}},
	{"github.com/traefik/yaegi", "v0.99.0", map[string]string{
		"go.mod":       "module github.com/traefik/yaegi\n\ngo 1.21\n",
		"fake/fake.go": "package fake\n\n// F returns 1.\nfunc F() int { return 1 }\n",
	}},
}

// hello is a small library whose functions say which version they are.
func hello(path, version string) fakeModule {
	name := path[strings.LastIndex(path, "/")+1:]
	src := fmt.Sprintf(`// Package %[1]s greets.
package %[1]s

import "strings"

// Version is the module's version.
const Version = %[2]q

// Calls counts the calls of Greet.
var Calls int

// Greet greets name.
func Greet(name string) string {
	Calls++
	return "hello, " + strings.ToUpper(name) + " from " + Version
}

// Map applies f to each element of xs: generic, so not in the table.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// Pair is generic too.
type Pair[K comparable, V any] struct {
	Key K
	Val V
}

// Greeter greets.
type Greeter interface{ Greet(string) string }
`, name, version)
	return fakeModule{path, version, map[string]string{
		"go.mod":          "module " + path + "\n\ngo 1.21\n",
		name + ".go":      src,
		"sub/sub.go":      fmt.Sprintf("// Package sub uses its parent.\npackage sub\n\nimport %q\n\n// Twice greets name twice.\nfunc Twice(name string) string { return %s.Greet(name) + \"; \" + %s.Greet(name) }\n", path, name, name),
		"cmd/tool/x.go":   "package main\n\nfunc main() {}\n",
		"internal/i/i.go": "package i\n",
	}}
}

// writeProxy writes the modules into dir laid out as a module proxy
// (GOPROXY=file://dir): list, .info, .mod and .zip for each version.
func writeProxy(dir string, mods []fakeModule) error {
	versions := map[string][]string{}
	for _, m := range mods {
		d := filepath.Join(dir, m.path, "@v")
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		versions[m.path] = append(versions[m.path], m.version)
		info := fmt.Sprintf(`{"Version":%q,"Time":"2024-01-01T00:00:00Z"}`, m.version)
		if err := os.WriteFile(filepath.Join(d, m.version+".info"), []byte(info), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, m.version+".mod"), []byte(m.files["go.mod"]), 0o644); err != nil {
			return err
		}
		f, err := os.Create(filepath.Join(d, m.version+".zip"))
		if err != nil {
			return err
		}
		z := zip.NewWriter(f)
		names := make([]string, 0, len(m.files))
		for n := range m.files {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			w, err := z.Create(m.path + "@" + m.version + "/" + n)
			if err != nil {
				return err
			}
			if _, err := w.Write([]byte(m.files[n])); err != nil {
				return err
			}
		}
		if err := z.Close(); err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	for p, vs := range versions {
		if err := os.WriteFile(filepath.Join(dir, p, "@v", "list"), []byte(strings.Join(vs, "\n")+"\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}
