// Package cells builds compiled cells into Go plugins and opens them.
//
// The planner writes a cell worth compiling as the Go source of a package
// (plan.Compiled). A Builder compiles it with the Go toolchain that built
// the kernel (go tool compile and go tool link, as `go build
// -buildmode=plugin` runs them), under an import path made from a hash of
// everything that decides the result, caches the plugin in the user's
// cache directory, and opens it: the cell's package registers itself with
// package native, which hands the session its Cell.
//
// # Why the compiler and linker directly
//
// A cell's package is `package main`, so that fmt prints its types as Go
// prints a program's (main.Point), and later cells import it. The go
// command refuses to import a package main ("is a program, not an
// importable package"); the compiler does not. Driving the compiler and
// linker also skips the go command's loading of the module (about 0.3 s a
// cell on this project's 2-core machine).
//
// The packages a cell imports (the standard library, gotensor's library,
// package native) are compiled for dynamic linking by `go list
// -buildmode=plugin -export -deps`, run in the kernel's source: that is
// the go build cache's work, done once per machine and toolchain (about a
// minute the first time: scripts/setup.sh warms it), after which it
// answers in about a second. The kernel binary must have been built from
// that source with the same settings, or the runtime refuses the plugin
// ("plugin was built with a different version of package"); the builder
// says so.
//
// # What a cell's plugin costs
//
// Compiling a cell takes tens of milliseconds; linking the plugin, which
// goes through the system's linker (plugins need external linking), takes
// most of the time: about 0.4 s for a cell that imports fmt and math, more
// for one that imports the tensor library. A plugin built before (a
// re-run notebook, a restarted kernel) opens in milliseconds.
package cells

import (
	"bytes"
	"context"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"plugin"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gotensor/gotensor/interp/internal/modules"
	"github.com/gotensor/gotensor/interp/internal/native"
)

// format names the layout of what the builder caches; change it when
// generated code or the way it is built changes.
const format = "gotensor-cells-1"

// modulePath is the module of the kernel's own packages.
const modulePath = "github.com/gotensor/gotensor"

// nativePath is the import path of the runtime every cell imports.
const nativePath = modulePath + "/interp/internal/native"

// Unavailable is the error of New when this kernel cannot compile cells,
// with the reason and what to do.
type Unavailable struct {
	Reason, Fix string
}

func (e *Unavailable) Error() string {
	if e.Fix == "" {
		return "compiled cells are not available: " + e.Reason
	}
	return "compiled cells are not available: " + e.Reason + "; " + e.Fix
}

// CompileError is a cell's package that the Go compiler refused: the
// planner's generated code and Go disagree. The session runs the cell in
// the interpreter instead.
type CompileError struct {
	Output string // what the compiler wrote
}

func (e *CompileError) Error() string {
	return "the Go compiler refused the cell's package: " + e.Output
}

// Config configures a Builder.
type Config struct {
	// CacheDir holds the built plugins ("" means the user's cache
	// directory's gotensor/cells, or $GOTENSOR_CELLS_CACHE).
	CacheDir string

	// Salt goes into every import path the builder makes: sessions of one
	// process must not share a cell's package (it holds the cell's
	// variables), so each builder but a process's first gets its own.
	Salt string

	// Log receives one line per build with its timings, when not nil.
	Log io.Writer

	// Started, when not nil, is called with each go command the builder
	// has started, before it waits for it: tests check that the commands
	// of a closed session have ended.
	Started func(*exec.Cmd)
}

// A Builder builds and opens the compiled cells of one session.
type Builder struct {
	cfg     Config
	goPath  string
	env     []string
	tooldir string
	root    string   // the kernel's source: the module's directory
	lang    string   // -lang: the module's language version
	list    []string // go list flags: -buildmode=plugin and the kernel's build flags
	comp    []string // compile flags the kernel's build settings add (-race)
	link    []string // link flags likewise
	extld   string   // the C compiler that links plugins

	mu      sync.Mutex
	pkgs    map[string]*pkg     // packages compiled for plugins, by import path
	cells   map[string]*archive // cells built or opened, by import path
	opened  map[string]*native.Cell
	prepare chan struct{} // closed when Prepare is done
	prepErr error
}

// pkg is a package compiled for plugins, as go list gives it.
type pkg struct {
	Export string   // its archive
	Deps   []string // what it imports, directly or not
}

// archive is a compiled cell: its archive and the import paths of what it
// imports, directly or not.
type archive struct {
	file string
	deps []string
}

// builders counts the builders made in the process (see Config.Salt).
var builders struct {
	sync.Mutex
	n int
}

// New returns a Builder, or an *Unavailable error when this kernel cannot
// compile cells: no Go toolchain, a binary that cannot open plugins, no
// kernel source to compile the library's packages from.
func New(ctx context.Context, cfg Config) (*Builder, error) {
	h := modules.ThisHost()
	if h.NoPlugins != "" {
		return nil, &Unavailable{Reason: h.NoPlugins}
	}
	goPath, env, err := modules.FindGoCommand()
	if err != nil {
		return nil, &Unavailable{Reason: "no Go toolchain (the go command is not on the kernel's PATH)",
			Fix: fmt.Sprintf("install Go %s and put its bin directory on the kernel's PATH, then restart the kernel", strings.TrimPrefix(h.GoVersion, "go"))}
	}
	env = append(env, h.Env...)
	root, err := kernelSource()
	if err != nil {
		return nil, err
	}
	if cfg.CacheDir == "" {
		cfg.CacheDir = os.Getenv("GOTENSOR_CELLS_CACHE")
	}
	if cfg.CacheDir == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			dir = os.TempDir()
		}
		cfg.CacheDir = filepath.Join(dir, "gotensor", "cells")
	}
	if err := os.MkdirAll(cfg.CacheDir, 0o755); err != nil {
		return nil, &Unavailable{Reason: "cannot write its cache: " + err.Error()}
	}
	b := &Builder{cfg: cfg, goPath: goPath, env: env, root: root, pkgs: map[string]*pkg{}, cells: map[string]*archive{},
		opened: map[string]*native.Cell{}, extld: "gcc"}
	if cc := os.Getenv("CC"); cc != "" {
		b.extld = cc
	}
	if _, err := exec.LookPath(b.extld); err != nil {
		return nil, &Unavailable{Reason: "no C compiler (" + b.extld + "): Go links plugins with it", Fix: "install gcc (apt-get install gcc) and restart the kernel"}
	}
	// The system linker is most of a cell's build: mold, then gold, link
	// a plugin faster than ld.bfd (scripts/setup.sh installs mold).
	for _, ld := range []string{"mold", "gold"} {
		if _, err := exec.LookPath("ld." + ld); err == nil {
			b.link = append(b.link, "-extldflags=-fuse-ld="+ld)
			break
		}
	}
	b.lang = goLang(root)
	b.list = []string{"-buildmode=plugin"}
	for _, f := range h.Flags {
		name, val, _ := strings.Cut(f, "=")
		switch {
		case val == "false" || val == "":
		case name == "-race":
			b.list = append(b.list, "-race")
			b.comp = append(b.comp, "-race")
			b.link = append(b.link, "-race")
		case name == "-trimpath":
			b.list = append(b.list, "-trimpath")
		default:
			b.list = append(b.list, name+"="+val)
		}
	}
	if raceEnabled && !contains(b.list, "-race") {
		b.list = append(b.list, "-race")
		b.comp = append(b.comp, "-race")
		b.link = append(b.link, "-race")
	}
	builders.Lock()
	if builders.n > 0 && cfg.Salt == "" {
		b.cfg.Salt = fmt.Sprintf("session%d", builders.n+1)
	}
	builders.n++
	builders.Unlock()
	b.prepare = make(chan struct{})
	trimmed.Do(func() {
		go trim(cfg.CacheDir, cacheLimit(), time.Now().Add(-recentlyUsed))
	})
	return b, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// kernelSource returns the directory of the kernel's module source, from
// the file names the binary keeps for this package.
func kernelSource() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	const suffix = "/interp/internal/cells/cells.go"
	if !ok || !filepath.IsAbs(file) || !strings.HasSuffix(filepath.ToSlash(file), suffix) {
		return "", &Unavailable{Reason: "the kernel was built with -trimpath, so it cannot tell where its source is",
			Fix: "build the kernel from its source without -trimpath (scripts/install.sh does)"}
	}
	root := filepath.FromSlash(strings.TrimSuffix(filepath.ToSlash(file), suffix))
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !bytes.HasPrefix(mod, []byte("module "+modulePath+"\n")) {
		return "", &Unavailable{Reason: "the kernel's source is no longer in " + root,
			Fix: "compiled cells compile the tensor library from the source the kernel was built from: rebuild the kernel where its source is (scripts/install.sh)"}
	}
	return root, nil
}

// goLang returns the language version of the module in root: "go1.26".
func goLang(root string) string {
	mod, _ := os.ReadFile(filepath.Join(root, "go.mod"))
	for _, l := range strings.Split(string(mod), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "go "); ok {
			parts := strings.Split(v, ".")
			if len(parts) >= 2 {
				return "go" + parts[0] + "." + parts[1]
			}
		}
	}
	return ""
}

// goCmd runs the go command in the kernel's source; at the lowest CPU
// priority when ctx comes from Preload.
func (b *Builder) goCmd(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, b.goPath, args...)
	cmd.Dir = b.root
	cmd.Env = append(os.Environ(), b.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	background := ctx.Value(backgroundKey{}) != nil
	if background {
		// Cancelling ctx ends the compilers it starts too.
		ownGroup(cmd)
	}
	err := cmd.Start()
	if err == nil {
		if background {
			// The compilers it starts inherit the priority.
			lowerPriority(cmd.Process.Pid)
		}
		if b.cfg.Started != nil {
			b.cfg.Started(cmd)
		}
		err = cmd.Wait()
	}
	out := stdout.Bytes()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("go %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// backgroundKey marks a context whose go commands run at the lowest CPU
// priority.
type backgroundKey struct{}

// Preload lists the packages every cell needs (the runtime, cgo) and
// those of paths, compiling them for plugins if the build cache lacks
// them: the first time on a machine, it compiles the standard library for
// dynamic linking (a minute or more). It is safe to call in a goroutine
// while the session starts; Build waits for it. Its go commands run at the
// lowest CPU priority (nice 19), so that on a machine of few cores they
// never slow the kernel's answers to the cells that run meanwhile.
// Cancelling ctx ends them (and the compilers they started) and makes
// Preload return: the session cancels it when it closes.
func (b *Builder) Preload(ctx context.Context, paths ...string) error {
	ctx = context.WithValue(ctx, backgroundKey{}, true)
	// The go command runs here first, not in New: a session whose cells
	// were all built before never needs it.
	out, err := b.goCmd(ctx, "env", "GOTOOLDIR")
	if err != nil {
		err = &Unavailable{Reason: "the go command fails: " + err.Error()}
	} else {
		b.tooldir = strings.TrimSpace(string(out))
		err = b.listMissing(ctx, append([]string{"runtime/cgo", nativePath}, paths...))
	}
	b.mu.Lock()
	b.prepErr = err
	b.mu.Unlock()
	close(b.prepare)
	return err
}

// listMissing lists the packages of paths that are not listed yet, with
// their dependencies.
func (b *Builder) listMissing(ctx context.Context, paths []string) error {
	b.mu.Lock()
	var missing []string
	for _, p := range paths {
		if _, ok := b.pkgs[p]; !ok {
			missing = append(missing, p)
		}
	}
	b.mu.Unlock()
	if len(missing) == 0 {
		return nil
	}
	args := append([]string{"list", "-e", "-export", "-deps", "-json=ImportPath,Export,Deps,Error"}, b.list...)
	out, err := b.goCmd(ctx, append(append(args, "--"), missing...)...)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		var lp struct {
			ImportPath, Export string
			Deps               []string
			Error              *struct{ Err string }
		}
		if err := dec.Decode(&lp); err == io.EOF {
			break
		} else if err != nil {
			return fmt.Errorf("go list: %v", err)
		}
		if lp.Error != nil {
			return fmt.Errorf("package %s: %s", lp.ImportPath, lp.Error.Err)
		}
		if lp.ImportPath == "unsafe" {
			lp.Export = ""
		}
		b.pkgs[lp.ImportPath] = &pkg{Export: lp.Export, Deps: lp.Deps}
	}
	return nil
}

// Build compiles a cell's package, whose file is src and which imports
// the packages and earlier cells in imports (cells are among them, by the
// import paths Build returned for them), into a plugin, unless the cache
// has it. It returns the package's import path and the plugin's file.
func (b *Builder) Build(ctx context.Context, src string, imports []string) (path, so string, err error) {
	// A cell built before by this kernel binary opens without asking the
	// go command anything: its plugin is keyed by the binary's build ID.
	quick := b.quickKey(src, imports)
	if quick != "" {
		if path, so, ok := b.cached(quick); ok {
			return path, so, nil
		}
	}
	select {
	case <-b.prepare:
	case <-ctx.Done():
		return "", "", ctx.Err()
	}
	b.mu.Lock()
	prepErr := b.prepErr
	b.mu.Unlock()
	var u *Unavailable
	if errors.As(prepErr, &u) {
		return "", "", prepErr
	}
	start := time.Now()
	var pkgs []string
	b.mu.Lock()
	for _, p := range imports {
		if _, cell := b.cells[p]; !cell {
			pkgs = append(pkgs, p)
		}
	}
	b.mu.Unlock()
	if err := b.listMissing(ctx, pkgs); err != nil {
		return "", "", err
	}
	listed := time.Since(start)

	b.mu.Lock()
	direct := map[string]string{} // import path → archive
	closure := map[string]bool{}
	add := func(p string) {
		if cell, ok := b.cells[p]; ok {
			direct[p] = cell.file
			for _, d := range cell.deps {
				closure[d] = true
			}
		} else if pk, ok := b.pkgs[p]; ok {
			direct[p] = pk.Export
			for _, d := range pk.Deps {
				closure[d] = true
			}
		}
		closure[p] = true
	}
	for _, p := range append(imports, nativePath, "runtime/cgo") {
		add(p)
	}
	var missing []string
	for p := range closure {
		if _, ok := b.cells[p]; !ok {
			if _, ok := b.pkgs[p]; !ok {
				missing = append(missing, p)
			}
		}
	}
	b.mu.Unlock()
	if err := b.listMissing(ctx, missing); err != nil {
		return "", "", err
	}

	// The import path is a hash of what decides the plugin.
	h := sha256.New()
	fmt.Fprintln(h, format, runtime.Version(), b.cfg.Salt, b.lang, b.list, b.comp, b.link)
	var names []string
	for p := range direct {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		fmt.Fprintln(h, p, direct[p])
	}
	h.Write([]byte(src))
	key := hex.EncodeToString(h.Sum(nil))[:24]
	if quick != "" {
		key = quick
	}
	path = "gotensor.cells/c" + key
	so = filepath.Join(b.cfg.CacheDir, key+".so")
	ar := filepath.Join(b.cfg.CacheDir, key+".a")

	deps := make([]string, 0, len(closure))
	for p := range closure {
		deps = append(deps, p)
	}
	sort.Strings(deps)
	if isFile(so) && isFile(ar) {
		used(b.cfg.CacheDir, key)
		if quick != "" {
			os.WriteFile(strings.TrimSuffix(so, ".so")+".deps", []byte(strings.Join(deps, "\n")), 0o644)
		}
		b.mu.Lock()
		b.cells[path] = &archive{file: ar, deps: deps}
		b.mu.Unlock()
		return path, so, nil
	}

	dir, err := os.MkdirTemp(b.cfg.CacheDir, ".build-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "cell.go")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		return "", "", err
	}
	var cfg bytes.Buffer
	for _, p := range names {
		if direct[p] != "" {
			fmt.Fprintf(&cfg, "packagefile %s=%s\n", p, direct[p])
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "importcfg"), cfg.Bytes(), 0o644); err != nil {
		return "", "", err
	}
	tmpAr := filepath.Join(dir, "cell.a")
	args := []string{"-o", tmpAr, "-p", path, "-complete", "-installsuffix", "dynlink", "-dynlink", "-nolocalimports",
		"-importcfg", filepath.Join(dir, "importcfg"), "-pack"}
	if b.lang != "" {
		args = append(args, "-lang="+b.lang)
	}
	args = append(append(args, b.comp...), file)
	if out, err := b.tool(ctx, dir, "compile", args...); err != nil {
		if ctx.Err() != nil {
			return "", "", ctx.Err()
		}
		return "", "", &CompileError{Output: strings.TrimSpace(out)}
	}
	compiled := time.Since(start)

	cfg.Reset()
	b.mu.Lock()
	for _, p := range deps {
		file := ""
		if cell, ok := b.cells[p]; ok {
			file = cell.file
			// An earlier cell this one links: used now, kept by trim.
			used(filepath.Dir(file), strings.TrimSuffix(filepath.Base(file), ".a"))
		} else if pk, ok := b.pkgs[p]; ok {
			file = pk.Export
		}
		if file != "" {
			fmt.Fprintf(&cfg, "packagefile %s=%s\n", p, file)
		}
	}
	b.mu.Unlock()
	if err := os.WriteFile(filepath.Join(dir, "importcfg.link"), cfg.Bytes(), 0o644); err != nil {
		return "", "", err
	}
	tmpSo := filepath.Join(dir, "cell.so")
	args = []string{"-o", tmpSo, "-importcfg", filepath.Join(dir, "importcfg.link"), "-installsuffix", "dynlink",
		"-pluginpath", path, "-buildmode=plugin", "-extld=" + b.extld, "-s", "-w"}
	args = append(append(args, b.link...), tmpAr)
	if out, err := b.tool(ctx, dir, "link", args...); err != nil {
		if ctx.Err() != nil {
			return "", "", ctx.Err()
		}
		return "", "", fmt.Errorf("cells: linking the cell's plugin failed: %s", strings.TrimSpace(out))
	}
	// Into place: the archive first, so that a plugin is never there
	// without it.
	if err := os.Rename(tmpAr, ar); err != nil {
		return "", "", err
	}
	if err := os.Rename(tmpSo, so); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(strings.TrimSuffix(so, ".so")+".deps", []byte(strings.Join(deps, "\n")), 0o644); err != nil {
		return "", "", err
	}
	if b.cfg.Log != nil {
		fmt.Fprintf(b.cfg.Log, "cells: built %s: list %.0f ms, compile %.0f ms, link %.0f ms\n", path, ms(listed), ms(compiled-listed), ms(time.Since(start)-compiled))
	}
	b.mu.Lock()
	b.cells[path] = &archive{file: ar, deps: deps}
	b.mu.Unlock()
	return path, so, nil
}

// quickKey returns the cache key of a cell built by this kernel binary
// from src with these imports, or "" when the binary's build ID cannot be
// read. The packages a plugin links must be those the binary holds, so
// the binary's build ID stands for all of them (the key Build computes
// otherwise hashes their archives, which takes the go command a second or
// two to list).
func (b *Builder) quickKey(src string, imports []string) string {
	id := hostBuildID()
	if id == "" {
		return ""
	}
	h := sha256.New()
	fmt.Fprintln(h, format, runtime.Version(), id, b.cfg.Salt, b.lang, b.list, b.comp, b.link)
	sorted := append([]string(nil), imports...)
	sort.Strings(sorted)
	fmt.Fprintln(h, sorted)
	h.Write([]byte(src))
	return "q" + hex.EncodeToString(h.Sum(nil))[:24]
}

// cached returns the import path and plugin of the cell built before
// under key, and records its archive for later cells that import it.
func (b *Builder) cached(key string) (path, so string, ok bool) {
	so = filepath.Join(b.cfg.CacheDir, key+".so")
	ar := filepath.Join(b.cfg.CacheDir, key+".a")
	deps, err := os.ReadFile(filepath.Join(b.cfg.CacheDir, key+".deps"))
	if err != nil || !isFile(so) || !isFile(ar) {
		return "", "", false
	}
	path = "gotensor.cells/c" + key
	used(b.cfg.CacheDir, key)
	b.mu.Lock()
	b.cells[path] = &archive{file: ar, deps: strings.Split(string(deps), "\n")}
	b.mu.Unlock()
	return path, so, true
}

var hostID struct {
	once sync.Once
	id   string
}

// hostBuildID returns the Go build ID of the running binary, or "". The
// linker writes it in an ELF note (.note.go.buildid) and, in other
// formats, as a marked string near the start of the file.
func hostBuildID() string {
	hostID.once.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			return
		}
		if f, err := elf.Open(exe); err == nil {
			defer f.Close()
			if sec := f.Section(".note.go.buildid"); sec != nil {
				// namesz, descsz, type, "Go\x00\x00", then the ID.
				if data, err := sec.Data(); err == nil && len(data) > 16 && string(data[12:16]) == "Go\x00\x00" {
					n := int(f.ByteOrder.Uint32(data[4:8]))
					if 16+n <= len(data) {
						hostID.id = string(data[16 : 16+n])
					}
				}
			}
			return
		}
		f, err := os.Open(exe)
		if err != nil {
			return
		}
		defer f.Close()
		head := make([]byte, 64<<10)
		n, _ := io.ReadFull(f, head)
		head = head[:n]
		const mark = "\xff Go build ID: \""
		i := bytes.Index(head, []byte(mark))
		if i < 0 {
			return
		}
		rest := head[i+len(mark):]
		if j := bytes.IndexByte(rest, '"'); j > 0 {
			hostID.id = string(rest[:j])
		}
	})
	return hostID.id
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// tool runs a tool of the toolchain in dir and returns what it wrote.
func (b *Builder) tool(ctx context.Context, dir, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(b.tooldir, name), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), b.env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

var openMu sync.Mutex

// Open opens the plugin of the cell at path, built into file so, and
// returns the cell it registers. A cell opened before is returned again:
// its package initializer does not run twice.
func (b *Builder) Open(path, so string) (*native.Cell, error) {
	openMu.Lock()
	defer openMu.Unlock()
	b.mu.Lock()
	c, ok := b.opened[path]
	b.mu.Unlock()
	if ok {
		return c, nil
	}
	if _, err := plugin.Open(so); err != nil {
		msg := err.Error()
		if strings.Contains(msg, "different version of package") {
			return nil, &Unavailable{Reason: "the kernel binary and the packages compiled from " + b.root + " disagree (" + msg + ")",
				Fix: "rebuild the kernel from this source with this toolchain (scripts/install.sh), then restart it"}
		}
		return nil, errors.New("cells: opening the cell's plugin: " + msg)
	}
	c = native.Opened()
	if c == nil {
		return nil, errors.New("cells: the cell's plugin registered no cell")
	}
	b.mu.Lock()
	b.opened[path] = c
	b.mu.Unlock()
	return c, nil
}
