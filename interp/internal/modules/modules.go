package modules

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// Module is a module at a version, as the go command names it.
type Module struct {
	Path    string
	Version string
	Replace *Module `json:",omitempty"` // what replaces it, if anything
}

func (m Module) String() string { return m.Path + "@" + m.Version }

// Package is a package made importable: its symbol table, in the form
// yaegi's Interpreter.Use takes, and where it came from.
type Package struct {
	Path    string // import path
	Name    string // package name: what an import without a name binds
	Module  Module // the module that provides it
	Symbols map[string]map[string]reflect.Value
	// Generic lists the package's exported generic functions and types:
	// yaegi's tables cannot hold them, so cells do not see them.
	Generic []string
	Plugin  string // the plugin file it was loaded from
	Built   bool   // whether this load compiled the plugin (else it was cached)
}

// Config configures a Loader.
type Config struct {
	// CacheDir keeps the compiled plugins, by package, dependency
	// versions, toolchain and build flags. "" means "gotensor/modules" in
	// os.UserCacheDir, or $GOTENSOR_CACHE/modules when that is set.
	CacheDir string

	// Record is the file (go.mod syntax) where the modules added through
	// the Loader are written down with their versions, and where an
	// import looks first for the version to take. "" records nothing.
	Record string

	// Progress receives what the go command and the Loader say as they
	// work: "go: added github.com/google/uuid v1.6.0". nil discards it.
	Progress io.Writer
}

// A Loader makes modules importable for one notebook session: it resolves
// and fetches them with the go command, compiles each imported package
// with its symbol table into a plugin, and opens the plugin in the running
// process. Its methods run one at a time.
type Loader struct {
	cfg     Config
	mu      sync.Mutex
	autoget bool
	g       *goCmd // nil until the first use
	work    string // the work module's directory (see ensure)
}

// workModule is the module path of the work module.
const workModule = "gotensor.local/session"

// New returns a Loader with autoget on. It starts no command: the go
// command runs on the first Get or Import of a package not loaded yet.
func New(cfg Config) *Loader {
	if cfg.CacheDir == "" {
		if d := os.Getenv("GOTENSOR_CACHE"); d != "" {
			cfg.CacheDir = filepath.Join(d, "modules")
		} else if d, err := os.UserCacheDir(); err == nil {
			cfg.CacheDir = filepath.Join(d, "gotensor", "modules")
		} else {
			cfg.CacheDir = filepath.Join(os.TempDir(), "gotensor-modules")
		}
	}
	return &Loader{cfg: cfg, autoget: true}
}

// SetAutoget turns autoget on or off: with it on, Import fetches the module
// of a package that is not loaded yet.
func (l *Loader) SetAutoget(on bool) {
	l.mu.Lock()
	l.autoget = on
	l.mu.Unlock()
}

// Autoget reports whether autoget is on.
func (l *Loader) Autoget() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.autoget
}

// RecordFile returns the path of the record file ("" when none).
func (l *Loader) RecordFile() string { return l.cfg.Record }

// Close removes the Loader's work module. Loaded packages stay loaded.
func (l *Loader) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.work == "" {
		return nil
	}
	err := os.RemoveAll(l.work)
	l.work = ""
	return err
}

func (l *Loader) progress() io.Writer {
	if l.cfg.Progress == nil {
		return io.Discard
	}
	return l.cfg.Progress
}

// Loaded returns the packages the process has loaded, by import path.
func Loaded() []*Package {
	registry.Lock()
	defer registry.Unlock()
	pkgs := make([]*Package, 0, len(registry.pkgs))
	for _, p := range registry.pkgs {
		pkgs = append(pkgs, p)
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Path < pkgs[j].Path })
	return pkgs
}

// Find returns package p if the process has loaded it, else nil.
func Find(p string) *Package { return loaded(p) }

// loaded returns package p if the process has loaded it.
func loaded(p string) *Package {
	registry.Lock()
	defer registry.Unlock()
	pinsLocked()
	return registry.pkgs[p]
}

// Recorded returns the modules the record file holds.
func (l *Loader) Recorded(ctx context.Context) ([]Module, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.ensure(ctx); err != nil {
		return nil, err
	}
	return l.readRecord(ctx)
}

// Get runs `go get` for queries (MODULE, MODULE@VERSION, PACKAGE,
// PACKAGE@VERSION, as the go command takes them), records the modules it
// took, and loads each query that names a package. It returns the packages
// loaded; a query that names a module with no package at its root is only
// fetched and recorded (import its packages).
func (l *Loader) Get(ctx context.Context, queries []string) ([]*Package, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, q := range queries {
		if strings.HasPrefix(q, "-") {
			return nil, &Error{Kind: Other, Query: q, Reason: "flags are not supported here",
				Fix: "name modules or packages, with a version or not: %go get github.com/google/uuid@v1.6.0"}
		}
		if isStd(strings.SplitN(q, "@", 2)[0]) {
			return nil, stdError(q)
		}
	}
	if err := l.ensure(ctx); err != nil {
		return nil, err
	}
	undo, err := l.goGet(ctx, queries, strings.Join(queries, " "))
	if err != nil {
		return nil, err
	}
	pkgs, err := l.getPackages(ctx, queries)
	if err != nil {
		undo()
	}
	return pkgs, err
}

// getPackages loads and records what queries name, once `go get` took them.
func (l *Loader) getPackages(ctx context.Context, queries []string) ([]*Package, error) {
	var pkgs []*Package
	for _, q := range queries {
		path, _, _ := strings.Cut(q, "@")
		lp, err := l.list(ctx, path, false)
		if err != nil {
			return pkgs, l.goError(q, err)
		}
		p := lp[0]
		if p.Module == nil || (p.Error != nil && p.Name == "") {
			// A module with no package at its root: take its version.
			m, err := l.module(ctx, path)
			if err != nil {
				return pkgs, err
			}
			if err := l.record(ctx, m); err != nil {
				return pkgs, err
			}
			fmt.Fprintf(l.progress(), "modules: %s has no package at its root; import its packages (autoget takes this version)\n", m)
			continue
		}
		pkg := loaded(path)
		if pkg == nil {
			if pkg, err = l.load(ctx, path); err != nil {
				return pkgs, err
			}
		} else if pkg.Module.Version != p.Module.Version {
			return pkgs, &Error{Kind: Clash, Query: q, Reason: fmt.Sprintf("this kernel has already loaded %s from %s", path, pkg.Module),
				Fix: "a loaded package cannot be replaced: restart the kernel to use another version"}
		}
		if err := l.record(ctx, pkg.Module); err != nil {
			return pkgs, err
		}
		pkgs = append(pkgs, pkg)
	}
	return pkgs, nil
}

// Import returns package p, loading it when the process has not yet. With
// autoget on, a package no module of the session provides is fetched first:
// at the version the record file names for its module, else at the latest
// version, as `go get` picks it.
func (l *Loader) Import(ctx context.Context, p string) (*Package, error) {
	if pkg := loaded(p); pkg != nil {
		return pkg, nil
	}
	if isStd(p) {
		return nil, stdError(p)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.ensure(ctx); err != nil {
		return nil, err
	}
	// Does a module of the work module provide p? (The go command itself,
	// asked about p, would fetch what is missing.)
	req, err := l.readModFile(ctx, filepath.Join(l.work, "go.mod"))
	if err != nil {
		return nil, err
	}
	undo := func() {}
	if _, ok := provider(req, p); !ok {
		if undo, err = l.autogetFor(ctx, p); err != nil {
			return nil, err
		}
	}
	pkg, err := l.load(ctx, p)
	if err == nil {
		err = l.record(ctx, pkg.Module)
	}
	if err != nil {
		undo()
		return nil, err
	}
	fmt.Fprintf(l.progress(), "modules: imported %s from %s\n", p, pkg.Module)
	return pkg, nil
}

// autogetFor fetches the module that provides p, when autoget is on: at
// the version the record file names for it, else at the latest version.
func (l *Loader) autogetFor(ctx context.Context, p string) (undo func(), err error) {
	if !l.autoget {
		return nil, &Error{Kind: NoAutoget, Query: p, Reason: "no module of this session provides it, and autoget is off",
			Fix: fmt.Sprintf("fetch it with %%go get %s (or %%go get %s@VERSION), or turn autoget on with %%go autoget on", p, p)}
	}
	rec, err := l.readRecord(ctx)
	if err != nil {
		return nil, err
	}
	q, note := p, "the latest version"
	if m, ok := provider(rec, p); ok {
		q, note = m.Path+"@"+m.Version, "the version "+l.cfg.Record+" records"
	}
	fmt.Fprintf(l.progress(), "modules: autoget: go get %s (%s; %%go autoget off turns this off)\n", q, note)
	return l.goGet(ctx, []string{q}, p)
}

// ensure finds the go command and writes the work module: a go.mod that
// requires every module the process is bound to, at its version, so that
// the go command resolves new modules against them.
func (l *Loader) ensure(ctx context.Context) error {
	if l.g == nil {
		g, err := newGoCmd(ctx, thisHost())
		if err != nil {
			return err
		}
		l.g = g
	} else if err := l.g.refresh(ctx); err != nil {
		return err
	}
	if err := hostDeps(ctx, l.g); err != nil {
		return err
	}
	if l.work != "" {
		return nil
	}
	if err := os.MkdirAll(l.cfg.CacheDir, 0o755); err != nil {
		return fmt.Errorf("modules: %v", err)
	}
	dir, err := os.MkdirTemp("", "gotensor-work-")
	if err != nil {
		return fmt.Errorf("modules: %v", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "module %s\n\ngo %s\n", workModule, strings.TrimPrefix(l.g.version, "go"))
	h := thisHost()
	registry.Lock()
	pins := pinsLocked()
	paths := make([]string, 0, len(pins))
	for p := range pins {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Fprintf(&b, "require %s %s\n", p, pins[p].version)
		if r := h.deps[p].Replace; r != nil {
			fmt.Fprintf(&b, "replace %s => %s %s\n", p, r.Path, r.Version)
		}
	}
	registry.Unlock()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(b.String()), 0o644); err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("modules: %v", err)
	}
	// The checksums verified before: without them, the go command asks
	// the checksum database about every module again.
	if sum, err := os.ReadFile(filepath.Join(l.cfg.CacheDir, "go.sum")); err == nil {
		os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
	}
	l.work = dir
	return nil
}

// keepSums adds the work module's checksums to those kept in the cache
// directory for the work modules of later sessions.
func (l *Loader) keepSums() {
	sum, err := os.ReadFile(filepath.Join(l.work, "go.sum"))
	if err != nil {
		return
	}
	kept := filepath.Join(l.cfg.CacheDir, "go.sum")
	old, _ := os.ReadFile(kept)
	set := map[string]bool{}
	for _, line := range strings.Split(string(old)+string(sum), "\n") {
		if strings.TrimSpace(line) != "" {
			set[line] = true
		}
	}
	all := make([]string, 0, len(set))
	for line := range set {
		all = append(all, line)
	}
	sort.Strings(all)
	tmp, err := os.CreateTemp(l.cfg.CacheDir, "go.sum-")
	if err != nil {
		return
	}
	_, err = tmp.WriteString(strings.Join(all, "\n") + "\n")
	if cerr := tmp.Close(); err == nil && cerr == nil {
		os.Rename(tmp.Name(), kept)
	} else {
		os.Remove(tmp.Name())
	}
}

// goGet runs `go get queries` in the work module. When the module proxy is
// out of reach it tries again with the module cache as the only proxy, so
// that what was fetched once works offline. On failure the work module is
// left as it was; on success, undo puts it back.
func (l *Loader) goGet(ctx context.Context, queries []string, what string) (undo func(), err error) {
	gomod := filepath.Join(l.work, "go.mod")
	gosum := filepath.Join(l.work, "go.sum")
	mod, _ := os.ReadFile(gomod)
	sum, _ := os.ReadFile(gosum)
	undo = func() {
		os.WriteFile(gomod, mod, 0o644)
		os.WriteFile(gosum, sum, 0o644)
	}
	progress := &goProgress{w: l.progress()}
	args := append([]string{"get"}, queries...)
	_, err = l.g.run(ctx, l.work, progress, args...)
	if err == nil {
		l.keepSums()
		return undo, nil
	}
	undo()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if failureKind(err) == Offline {
		if offline, ok := l.g.fromCache(queries); ok {
			if _, err2 := l.g.runEnv(ctx, l.work, l.g.cacheProxy(), progress, append([]string{"get"}, offline...)...); err2 == nil {
				fmt.Fprintf(l.progress(), "modules: the module proxy (GOPROXY=%s) is out of reach: took %s from the module cache\n", l.g.proxy, strings.Join(offline, " "))
				return undo, nil
			}
			undo()
		}
	}
	return nil, l.goError(what, err)
}

// goProgress passes on the go command's lines that say what it fetches and
// takes; the rest goes into errors.
type goProgress struct{ w io.Writer }

func (p *goProgress) Write(b []byte) (int, error) {
	for _, line := range strings.SplitAfter(string(b), "\n") {
		for _, prefix := range []string{"go: downloading ", "go: added ", "go: upgraded ", "go: downgraded ", "go: finding ", "go: found "} {
			if strings.HasPrefix(line, prefix) {
				io.WriteString(p.w, line)
				break
			}
		}
	}
	return len(b), nil
}

// module returns the module at path as the work module selects it.
func (l *Loader) module(ctx context.Context, path string) (Module, error) {
	out, err := l.g.run(ctx, l.work, nil, "list", "-mod=mod", "-m", "-f", "{{.Path}} {{.Version}}", path)
	if err != nil {
		return Module{}, l.goError(path, err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return Module{}, &Error{Kind: NotFound, Query: path, Reason: "neither a package nor a module of this session"}
	}
	return Module{Path: f[0], Version: f[1]}, nil
}

// goError turns a failed go command about query into an *Error.
func (l *Loader) goError(query string, err error) error {
	if err == context.Canceled || err == context.DeadlineExceeded {
		return err
	}
	if _, ok := err.(*Error); ok {
		return err
	}
	e := &Error{Kind: failureKind(err), Query: query, Detail: stderrOf(err)}
	mod, _, _ := strings.Cut(query, "@")
	switch e.Kind {
	case Offline:
		e.Reason = fmt.Sprintf("the module proxy or the checksum database cannot be reached (GOPROXY=%s), and the module cache holds no version that answers", l.g.proxy)
		e.Fix = fmt.Sprintf("connect to the network and run the cell again. Offline, name a version in the module cache: %%go get %s@VERSION "+
			"(!ls %s lists the cached versions)", mod, filepath.Join(l.g.modcache, "cache", "download", mod, "@v"))
	case NotFound:
		e.Reason = "no such module, version or package"
		e.Fix = "check the path and the version; `!go list -m -versions MODULE` lists a module's versions"
	default:
		e.Reason = "the go command failed"
	}
	return e
}

// isStd reports whether p is a standard library path (or no module path
// at all): its first element has no dot.
func isStd(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return !strings.Contains(first, ".")
}

func stdError(p string) error {
	return &Error{Kind: Std, Query: p,
		Reason: "not a standard library package cells can use, and not a module path (module paths start with a domain name, as github.com/google/uuid does)",
		Fix:    "check the spelling; cells have the standard library of the Go that built the kernel, except the packages an interpreter cannot load (plugin, which needs cgo; the toolchain's internal packages)"}
}
