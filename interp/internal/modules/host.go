package modules

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/traefik/yaegi/extract"
)

// host describes the running binary: what a plugin must agree with to load
// into it. A plugin and the binary that opens it must share the toolchain
// and, for every package both contain, the same source at the same version
// compiled with the same flags; the runtime refuses a plugin otherwise
// ("plugin was built with a different version of package ...").
type host struct {
	goVersion string            // runtime.Version(): "go1.26.8"
	flags     []string          // go build flags to repeat: -trimpath=true, -tags=cuda
	env       []string          // environment to repeat: GOARCH=amd64, CGO_CFLAGS=...
	trimpath  bool              // built with -trimpath: no absolute paths in the binary
	deps      map[string]Module // the modules linked into the binary, by path
	main      string            // the binary's main module ("" when unknown)
	yaegi     string            // the version of yaegi linked in (the table format)
	noPlugins string            // why this binary cannot open plugins; "" when it can
	listed    bool              // deps came from the main module's build list (see hostDeps)
	// modcache is the module cache the binary's dependencies were
	// compiled from, as the file names it holds say ("" with -trimpath).
	modcache string
}

var (
	hostOnce sync.Once
	hostInfo *host
)

// thisHost returns the description of the running binary, read once from
// its build information.
func thisHost() *host {
	hostOnce.Do(func() {
		bi, ok := debug.ReadBuildInfo()
		hostInfo = newHost(bi, ok)
	})
	return hostInfo
}

// mirroredFlags are the build flags recorded in a binary's build
// information that change the compiled code of the packages a plugin
// shares with it.
var mirroredFlags = []string{"-asan", "-asmflags", "-gcflags", "-msan", "-race", "-tags", "-trimpath"}

// newHost reads bi, the build information of the running binary.
func newHost(bi *debug.BuildInfo, ok bool) *host {
	h := &host{goVersion: runtime.Version(), deps: map[string]Module{}}
	switch runtime.GOOS {
	case "linux", "darwin", "freebsd":
	default:
		h.noPlugins = "Go plugins do not work on " + runtime.GOOS
	}
	if !ok {
		if h.noPlugins == "" {
			h.noPlugins = "the kernel binary carries no build information (was it built with go build?)"
		}
		return h
	}
	h.main = bi.Main.Path
	for _, d := range bi.Deps {
		m := Module{Path: d.Path, Version: d.Version}
		if d.Replace != nil {
			m.Replace = &Module{Path: d.Replace.Path, Version: d.Replace.Version}
		}
		h.deps[d.Path] = m
		if d.Path == "github.com/traefik/yaegi" {
			h.yaegi = d.Version
		}
	}
	arch := "GO" + strings.ToUpper(runtime.GOARCH) // GOAMD64, GOARM64...
	cgo := false
	for _, s := range bi.Settings {
		switch {
		case slices.Contains(mirroredFlags, s.Key):
			h.flags = append(h.flags, s.Key+"="+s.Value)
			if s.Key == "-trimpath" {
				h.trimpath = s.Value == "true"
			}
		case s.Key == "CGO_ENABLED":
			cgo = s.Value == "1"
		case strings.HasPrefix(s.Key, "CGO_"), s.Key == "GOOS", s.Key == "GOARCH", s.Key == "GOEXPERIMENT", s.Key == arch:
			h.env = append(h.env, s.Key+"="+s.Value)
		case s.Key == "-buildmode" && s.Value != "exe" && s.Value != "pie" && h.noPlugins == "":
			h.noPlugins = fmt.Sprintf("the kernel binary was built with -buildmode=%s", s.Value)
		}
	}
	if !slices.ContainsFunc(h.flags, func(f string) bool { return strings.HasPrefix(f, "-trimpath=") }) {
		h.flags = append(h.flags, "-trimpath=false")
	}
	if !h.trimpath {
		h.modcache = buildModCache()
	}
	if !cgo && h.noPlugins == "" {
		h.noPlugins = "the kernel binary was built with CGO_ENABLED=0, and Go plugins need cgo"
	}
	return h
}

// pin is a module version the process is bound to: linked into the binary,
// or loaded with a plugin. A package of another version of the module
// cannot join the process.
type pin struct {
	version string
	by      string // "the kernel", or the import path whose plugin loaded it
}

// registry is what the process has loaded. Loaded code cannot be unloaded,
// so the registry belongs to the process and every session in it shares it.
var registry struct {
	sync.Mutex
	pins map[string]pin      // module path → the version bound to the process
	pkgs map[string]*Package // import path → the package loaded
}

// pinsLocked returns the process's pins, starting with the modules linked
// into the binary. registry must be locked.
func pinsLocked() map[string]pin {
	if registry.pins == nil {
		registry.pins = map[string]pin{}
		registry.pkgs = map[string]*Package{}
		for p, m := range thisHost().deps {
			registry.pins[p] = pin{version: m.Version, by: "the kernel"}
		}
	}
	return registry.pins
}

var depsMu sync.Mutex

// hostDeps fills in the binary's modules when its build information lists
// none, as in `go test` binaries: they are the modules of the package in the
// working directory and of its dependencies, tests included, when that
// package belongs to the binary's main module (go test runs a test binary
// in its package's directory).
func hostDeps(ctx context.Context, g *goCmd) error {
	h := thisHost()
	depsMu.Lock()
	defer depsMu.Unlock()
	if len(h.deps) > 0 || h.main == "" || h.listed {
		return nil
	}
	const format = "{{with .Module}}{{if .Main}}main {{.Path}}{{else}}{{.Path}} {{.Version}}{{with .Replace}} {{.Path}} {{.Version}}{{end}}{{end}}{{end}}"
	out, err := g.run(ctx, "", nil, "list", "-mod=readonly", "-deps", "-test", "-f", format, ".")
	h.listed = true
	if err != nil || !slices.Contains(lines(out), "main "+h.main) {
		return nil // not inside the main module: nothing more to learn
	}
	registry.Lock()
	defer registry.Unlock()
	for _, l := range lines(out) {
		f := strings.Fields(l)
		if len(f) < 2 || f[0] == "main" {
			continue
		}
		m := Module{Path: f[0], Version: f[1]}
		if len(f) >= 4 {
			m.Replace = &Module{Path: f[2], Version: f[3]}
		}
		h.deps[m.Path] = m
		if m.Path == "github.com/traefik/yaegi" {
			h.yaegi = m.Version
		}
		if registry.pins != nil {
			if _, ok := registry.pins[m.Path]; !ok {
				registry.pins[m.Path] = pin{version: m.Version, by: "the kernel"}
			}
		}
	}
	return nil
}

// buildModCache returns the module cache the running binary's dependencies
// were compiled from: the directory above yaegi's source, whose file names
// the binary keeps unless it was built with -trimpath.
func buildModCache() string {
	f := runtime.FuncForPC(reflect.ValueOf(extract.GetMinor).Pointer())
	if f == nil {
		return ""
	}
	file, _ := f.FileLine(f.Entry())
	dir, _, ok := strings.Cut(filepath.ToSlash(file), "/github.com/traefik/yaegi@")
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	return filepath.FromSlash(dir)
}
