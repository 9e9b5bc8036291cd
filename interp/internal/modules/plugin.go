package modules

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"plugin"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/traefik/yaegi/extract"
)

// tableFormat names the layout of the plugins this package builds; change
// it when that layout changes, so that old plugins are not loaded.
const tableFormat = "gotensor-modules-1"

// listed is a package as `go list -json` describes it.
type listed struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Standard   bool
	Module     *Module
	Error      *struct{ Err string }
	DepsErrors []*struct{ Err string }
}

// list describes package p and, with deps, everything it imports, p last,
// as the work module resolves them.
func (l *Loader) list(ctx context.Context, p string, deps bool) ([]listed, error) {
	args := []string{"list", "-e", "-mod=mod", "-json=ImportPath,Name,Dir,GoFiles,CgoFiles,Standard,Module,Error,DepsErrors"}
	if deps {
		args = append(args, "-deps")
	}
	out, err := l.g.run(ctx, l.work, nil, append(args, "--", p)...)
	if err != nil {
		return nil, err
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var lp listed
		if err := dec.Decode(&lp); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("modules: go list %s: %v", p, err)
		}
		pkgs = append(pkgs, lp)
	}
	if len(pkgs) == 0 || pkgs[len(pkgs)-1].ImportPath != p {
		return nil, fmt.Errorf("modules: go list %s: the package is missing from its output", p)
	}
	return pkgs, nil
}

// load makes package p importable: it opens the plugin that holds p's
// symbol table, building it first unless a plugin for the same package,
// dependency versions, toolchain and flags is in the cache.
func (l *Loader) load(ctx context.Context, p string) (*Package, error) {
	pkgs, err := l.list(ctx, p, true)
	if err != nil {
		return nil, l.goError(p, err)
	}
	target := pkgs[len(pkgs)-1]
	if target.Error != nil {
		kind := Other
		if target.Module == nil {
			kind = NotFound
		}
		return nil, &Error{Kind: kind, Query: p, Reason: "the go command cannot load the package", Detail: target.Error.Err}
	}
	if target.Name == "main" {
		return nil, &Error{Kind: Command, Query: p, Reason: "it is a command (package main), not a package to import",
			Fix: fmt.Sprintf("run it from a cell with !go run %s@%s, or install it with !go install %s@%s", p, target.Module.Version, p, target.Module.Version)}
	}
	h := thisHost()
	if h.noPlugins != "" {
		return nil, &Error{Kind: Unsupported, Query: p, Reason: "this kernel cannot load compiled packages: " + h.noPlugins,
			Fix: "build the kernel on Linux or macOS with cgo (the default when a C compiler is installed): go build -o bin/gotensor ./cmd/gotensor"}
	}
	closure, cgo, err := l.closure(p, pkgs)
	if err != nil {
		return nil, err
	}
	key := l.key(p, closure)
	so := filepath.Join(l.cfg.CacheDir, "plugins", key+".so")
	built := false
	if !isFile(so) {
		// Write every requirement of p into the work module's go.mod:
		// the extractor's go commands read it as it is (-mod=readonly).
		if _, err := l.g.run(ctx, l.work, nil, "get", p+"@"+target.Module.Version); err != nil {
			return nil, l.goError(p, err)
		}
		start := time.Now()
		fmt.Fprintf(l.progress(), "modules: compiling %s from %s (once: later sessions load it from %s)\n", p, target.Module, filepath.Dir(so))
		if err := l.build(ctx, target, so, cgo); err != nil {
			return nil, err
		}
		fmt.Fprintf(l.progress(), "modules: compiled %s in %.1f s\n", p, time.Since(start).Seconds())
		built = true
	}
	syms, err := open(so)
	if err != nil {
		return nil, l.openError(p, err)
	}
	pkg := &Package{Path: p, Name: target.Name, Module: *target.Module, Symbols: syms, Built: built, Plugin: so, Generic: genericNames(target)}
	if len(pkg.Generic) > 0 {
		fmt.Fprintf(l.progress(), "modules: note: cells cannot use the generic functions and types of %s (%s): yaegi's symbol tables hold no generics\n", p, strings.Join(abbreviate(pkg.Generic, 8), ", "))
	}
	registry.Lock()
	pins := pinsLocked()
	for _, m := range closure {
		if _, ok := pins[m.Path]; !ok {
			pins[m.Path] = pin{version: m.Version, by: p}
		}
	}
	registry.pkgs[p] = pkg
	registry.Unlock()
	return pkg, nil
}

// closure returns the modules of p's non-standard dependencies (p's own
// included) and the packages among them that use cgo. It fails when a
// module's version differs from the one the process is bound to.
func (l *Loader) closure(p string, pkgs []listed) ([]Module, []string, error) {
	seen := map[string]Module{}
	var cgo []string
	for _, lp := range pkgs {
		if lp.Standard {
			continue
		}
		if lp.Error != nil {
			return nil, nil, &Error{Kind: Other, Query: p, Reason: fmt.Sprintf("its dependency %s does not load", lp.ImportPath), Detail: lp.Error.Err}
		}
		if len(lp.CgoFiles) > 0 {
			cgo = append(cgo, lp.ImportPath)
		}
		if lp.Module != nil {
			seen[lp.Module.Path] = *lp.Module
		}
	}
	h := thisHost()
	registry.Lock()
	pins := pinsLocked()
	var clash []string
	for _, m := range seen {
		if m.Path == h.main {
			clash = append(clash, fmt.Sprintf("%s is the kernel's own module; its packages are imported as they are compiled in", m.Path))
		} else if pn, ok := pins[m.Path]; ok && pn.version != m.Version {
			clash = append(clash, fmt.Sprintf("it needs %s %s, but %s has %s %s", m.Path, m.Version, pn.by, m.Path, pn.version))
		}
	}
	registry.Unlock()
	if len(clash) == 0 && !h.trimpath && h.modcache != "" && h.modcache != l.g.modcache {
		// The binary keeps the file names of what it compiled, and so
		// does the plugin: a package both hold must come from one place.
		var shared []string
		for _, m := range seen {
			if _, ok := h.deps[m.Path]; ok {
				shared = append(shared, m.Path)
			}
		}
		if len(shared) > 0 {
			sort.Strings(shared)
			return nil, nil, &Error{Kind: Clash, Query: p,
				Reason: fmt.Sprintf("it shares %s with the kernel, which was compiled from the module cache in %s, and this go command keeps modules in %s", strings.Join(shared, ", "), h.modcache, l.g.modcache),
				Fix:    fmt.Sprintf("point the go command at the kernel's module cache (%%env GOMODCACHE=%s) and import it again, or rebuild the kernel with -trimpath, which makes it independent of where modules are (go build -trimpath -o bin/gotensor ./cmd/gotensor)", h.modcache)}
		}
	}
	if len(clash) > 0 {
		sort.Strings(clash)
		return nil, nil, &Error{Kind: Clash, Query: p,
			Reason: "a module is already in this kernel at another version: " + strings.Join(clash, "; "),
			Fix: "a process holds one version of a package. Use a version of the module that agrees (`!go list -m -versions MODULE` lists them, then %go get MODULE@VERSION), " +
				"restart the kernel when an earlier import loaded the other version, or rebuild the kernel with the newer dependency (go get MODULE@VERSION in its source, then go build)"}
	}
	mods := make([]Module, 0, len(seen))
	for _, m := range seen {
		mods = append(mods, m)
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Path < mods[j].Path })
	return mods, cgo, nil
}

// key names the plugin of p built against closure: everything that decides
// the plugin's content and whether the kernel can load it.
func (l *Loader) key(p string, closure []Module) string {
	h := thisHost()
	k := sha256.New()
	fmt.Fprintln(k, tableFormat, h.yaegi, h.goVersion, p)
	for _, f := range append(slices.Clone(h.flags), h.env...) {
		fmt.Fprintln(k, f)
	}
	for _, m := range closure {
		fmt.Fprintln(k, m.Path, m.Version)
		if m.Replace != nil {
			fmt.Fprintln(k, "=>", m.Replace.Path, m.Replace.Version)
		}
	}
	if !h.trimpath {
		// The binary holds the absolute file names of what it compiled,
		// and so must the plugin.
		fmt.Fprintln(k, l.g.modcache)
	}
	return hex.EncodeToString(k.Sum(nil))[:24]
}

// build compiles the plugin that holds p's symbol table into so.
func (l *Loader) build(ctx context.Context, p listed, so string, cgo []string) error {
	if err := os.MkdirAll(filepath.Dir(so), 0o755); err != nil {
		return fmt.Errorf("modules: %v", err)
	}
	dir, err := os.MkdirTemp("", "gotensor-plugin-")
	if err != nil {
		return fmt.Errorf("modules: %v", err)
	}
	defer os.RemoveAll(dir)
	// The plugin's module: the work module's requirements under a name of
	// its own (two plugins of one main package path cannot both load).
	mod, err := os.ReadFile(filepath.Join(l.work, "go.mod"))
	if err != nil {
		return fmt.Errorf("modules: %v", err)
	}
	name := "gotensor.local/plugin/" + strings.TrimSuffix(filepath.Base(so), ".so")
	mod = bytes.Replace(mod, []byte("module "+workModule+"\n"), []byte("module "+name+"\n"), 1)
	sum, _ := os.ReadFile(filepath.Join(l.work, "go.sum"))
	table, err := extractTable(dir, l.g.goroot, p.ImportPath, mod, sum)
	if err != nil {
		// The extractor type-checks from source and hides what a C
		// compiler said: the go command's own build says it better.
		detail := err.Error()
		if _, berr := l.g.run(ctx, dir, nil, "build", "-mod=mod", p.ImportPath); berr != nil {
			detail = stderrOf(berr)
		}
		return buildError(p.ImportPath, "yaegi's extractor cannot make its symbol table", detail, cgo)
	}
	if err := os.WriteFile(filepath.Join(dir, "table.go"), table, 0o644); err != nil {
		return fmt.Errorf("modules: %v", err)
	}
	const main = "// Package main holds the yaegi symbol table of one package.\npackage main\n\nimport \"reflect\"\n\n// Symbols is the table, in the form yaegi's Interpreter.Use takes.\nvar Symbols = map[string]map[string]reflect.Value{}\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(main), 0o644); err != nil {
		return fmt.Errorf("modules: %v", err)
	}
	// Built beside its final name and renamed into place, so that a
	// kernel never opens half a plugin.
	f, err := os.CreateTemp(filepath.Dir(so), ".building-*.so")
	if err != nil {
		return fmt.Errorf("modules: %v", err)
	}
	f.Close()
	tmp := f.Name()
	defer os.Remove(tmp)
	args := append([]string{"build", "-buildmode=plugin", "-mod=mod"}, thisHost().flags...)
	if _, err := l.g.run(ctx, dir, nil, append(args, "-o", tmp, ".")...); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return buildError(p.ImportPath, "compiling it failed", stderrOf(err), cgo)
	}
	return os.Rename(tmp, so)
}

// buildError explains a failed extraction or build of package p; cgo are
// the packages among its dependencies that call C.
func buildError(p, reason, detail string, cgo []string) error {
	e := &Error{Kind: Other, Query: p, Reason: reason, Detail: detail}
	switch {
	case len(cgo) > 0:
		e.Kind = Cgo
		e.Reason = fmt.Sprintf("it calls C (cgo, in %s), and compiling the C part failed", strings.Join(cgo, ", "))
		e.Fix = "install the C compiler and the C libraries and headers the package needs (its README names them; on Debian: apt-get install gcc and the -dev packages), then import it again"
	case strings.Contains(detail, "cgo") || strings.Contains(detail, "gcc"):
		e.Kind = Unsupported
		e.Reason = "compiling a plugin needs cgo and a C compiler, and the build could not use them"
		e.Fix = "install gcc (apt-get install gcc) and import it again"
	}
	return e
}

// extractMu serializes extractTable: yaegi's extractor reads the
// package through go/build's default context, whose directory it sets.
var extractMu sync.Mutex

// extractTable returns the source of the symbol table of package p, as
// yaegi's extractor writes it, resolved by the module in dir (written from
// mod and sum).
func extractTable(dir, goroot, p string, mod, sum []byte) ([]byte, error) {
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), mod, 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		return nil, err
	}
	extractMu.Lock()
	defer extractMu.Unlock()
	// The extractor imports from source with build.Default, which runs
	// `go list` in build.Default.Dir: the plugin's module.
	saved := build.Default
	build.Default.Dir = dir
	if goroot != "" {
		build.Default.GOROOT = goroot
	}
	defer func() { build.Default = saved }()
	var b bytes.Buffer
	e := extract.Extractor{Dest: "main"}
	if _, err := e.Extract(p, p, &b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

var openMu sync.Mutex

// open opens the plugin file so and returns its symbol table.
func open(so string) (map[string]map[string]reflect.Value, error) {
	openMu.Lock()
	defer openMu.Unlock()
	pl, err := plugin.Open(so)
	if err != nil {
		return nil, err
	}
	sym, err := pl.Lookup("Symbols")
	if err != nil {
		return nil, err
	}
	t, ok := sym.(*map[string]map[string]reflect.Value)
	if !ok {
		return nil, fmt.Errorf("modules: %s: Symbols is a %T, not a symbol table", so, sym)
	}
	return *t, nil
}

// openError explains why the runtime refused a plugin.
func (l *Loader) openError(p string, err error) error {
	h := thisHost()
	e := &Error{Kind: Other, Query: p, Reason: "the kernel cannot open its compiled plugin", Detail: err.Error()}
	if strings.Contains(err.Error(), "different version of package") {
		e.Kind = Clash
		e.Reason = "the kernel binary and the plugin compiled here disagree on a package they share"
		e.Fix = fmt.Sprintf("the kernel (%s, trimpath=%v) was built with another toolchain, other flags or a module cache at another path (this go command: %s, modules in %s). "+
			"Rebuild the kernel on this machine with the go command on its PATH (scripts/install.sh, or go build -o bin/gotensor ./cmd/gotensor) and restart it",
			h.goVersion, h.trimpath, l.g.version, l.g.modcache)
	}
	return e
}

// genericNames returns the exported generic functions and types of p:
// yaegi's tables cannot hold them, so cells do not see them.
func genericNames(p listed) []string {
	var names []string
	fset := token.NewFileSet()
	for _, f := range p.GoFiles {
		file, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() && d.Type.TypeParams != nil {
					names = append(names, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.IsExported() && ts.TypeParams != nil {
						names = append(names, ts.Name.Name)
					}
				}
			}
		}
	}
	sort.Strings(names)
	return names
}

// abbreviate returns the first n names, and how many more there are.
func abbreviate(names []string, n int) []string {
	if len(names) <= n {
		return names
	}
	return append(slices.Clone(names[:n]), fmt.Sprintf("and %d more", len(names)-n))
}
