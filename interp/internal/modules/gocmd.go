package modules

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	pathpkg "path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// goCmd runs the go command the way a person's shell would (GOPROXY,
// GOFLAGS, GOMODCACHE, GONOSUMDB... come from the process's environment,
// which %env changes), plus what a plugin needs to match the kernel binary:
// its toolchain (GOTOOLCHAIN), cgo and its CGO_* flags, GOOS/GOARCH and the
// architecture level.
type goCmd struct {
	path   string   // the go binary
	forced []string // added to the environment of every run

	// From `go env`, read by refresh.
	goroot, modcache, proxy, version string
}

// newGoCmd finds the go command and reads its settings.
func newGoCmd(ctx context.Context, h *host) (*goCmd, error) {
	g, err := findGoCmd(h)
	if err != nil {
		return nil, err
	}
	return g, g.refresh(ctx)
}

// findGoCmd finds the go command for h, without running it.
func findGoCmd(h *host) (*goCmd, error) {
	path, err := exec.LookPath("go")
	if err != nil {
		// A kernel started from a desktop launcher may not have Go on its
		// PATH: try the toolchain that built the kernel.
		if root := runtime.GOROOT(); root != "" {
			if p := filepath.Join(root, "bin", "go"); isFile(p) {
				path, err = p, nil
			}
		}
	}
	if err != nil {
		return nil, &Error{Kind: Unsupported, Query: "go", Reason: "the go command is not on PATH",
			Fix: fmt.Sprintf("install Go %s (https://go.dev/dl/) and put its bin directory on the kernel's PATH, then restart the kernel", strings.TrimPrefix(h.goVersion, "go"))}
	}
	forced := append([]string{"GO111MODULE=on", "GOWORK=off", "CGO_ENABLED=1"}, h.env...)
	if strings.HasPrefix(h.goVersion, "go1.") && !strings.Contains(h.goVersion, " ") {
		// The plugin must be compiled by the kernel's own toolchain;
		// the go command fetches it when it is another version.
		forced = append(forced, "GOTOOLCHAIN="+h.goVersion)
	}
	return &goCmd{path: path, forced: forced}, nil
}

// refresh reads the go command's settings again: %env may have changed
// them since.
func (g *goCmd) refresh(ctx context.Context) error {
	out, err := g.run(ctx, "", nil, "env", "GOROOT", "GOMODCACHE", "GOPROXY", "GOVERSION")
	if err != nil {
		return err
	}
	f := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(f) != 4 {
		return fmt.Errorf("modules: go env: unexpected output %q", out)
	}
	g.goroot, g.modcache, g.proxy, g.version = f[0], f[1], f[2], f[3]
	return nil
}

// cmdError is a go command that failed: its arguments and what it wrote to
// standard error.
type cmdError struct {
	args   []string
	stderr string
	err    error
}

func (e *cmdError) Error() string {
	msg := strings.TrimSpace(e.stderr)
	if msg == "" {
		msg = e.err.Error()
	}
	return "go " + strings.Join(e.args, " ") + ": " + msg
}

// run runs `go args...` in dir (the process's directory when "") and returns its standard output. The
// lines it writes to standard error go to progress as they come (when not
// nil) and, when it fails, into the returned *cmdError.
func (g *goCmd) run(ctx context.Context, dir string, progress io.Writer, args ...string) ([]byte, error) {
	return g.runEnv(ctx, dir, nil, progress, args...)
}

// runEnv is run with env added to the environment.
func (g *goCmd) runEnv(ctx context.Context, dir string, env []string, progress io.Writer, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, g.path, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), g.forced...), env...)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr := &lineWriter{progress: progress}
	cmd.Stderr = stderr
	err := cmd.Run()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, &cmdError{args: args, stderr: stderr.String(), err: err}
	}
	return stdout.Bytes(), nil
}

// lineWriter keeps what a command writes and passes each complete line on
// to progress.
type lineWriter struct {
	mu       sync.Mutex
	all      bytes.Buffer
	partial  []byte
	progress io.Writer
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.all.Write(p)
	if w.progress == nil {
		return len(p), nil
	}
	w.partial = append(w.partial, p...)
	if i := bytes.LastIndexByte(w.partial, '\n'); i >= 0 {
		w.progress.Write(w.partial[:i+1])
		w.partial = append(w.partial[:0], w.partial[i+1:]...)
	}
	return len(p), nil
}

func (w *lineWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.all.String()
}

// offlineSigns and notFoundSigns are what the go command and module proxies
// say when the network is out of reach, and when a module, version or
// package does not exist. The go command is a separate program: its words
// are the only account of why it failed.
var (
	offlineSigns = []string{
		"dial tcp", "no such host", "connection refused", "network is unreachable",
		"i/o timeout", "TLS handshake timeout", "server misbehaving", "proxyconnect",
		"lookup disabled by GOPROXY=off", "disabled by GOFLAGS=-mod=",
		"connection reset", "temporary failure in name resolution",
	}
	notFoundSigns = []string{
		"404 Not Found", "410 Gone", "not available", "no such file or directory",
		"unknown revision", "no matching versions", "invalid version",
		"malformed module path", "cannot find module providing package",
		"does not contain package", "module not found",
		"is not a package path", "repository not found",
	}
)

// failureKind tells from a failed go command whether the network was out of
// reach (Offline) or what was asked does not exist (NotFound).
func failureKind(err error) Kind {
	var ce *cmdError
	if !errors.As(err, &ce) {
		return Other
	}
	for _, s := range offlineSigns {
		if strings.Contains(ce.stderr, s) {
			return Offline
		}
	}
	for _, s := range notFoundSigns {
		if strings.Contains(ce.stderr, s) {
			return NotFound
		}
	}
	return Other
}

// stderrOf returns what a failed go command wrote, or the error's text.
func stderrOf(err error) string {
	var ce *cmdError
	if errors.As(err, &ce) && strings.TrimSpace(ce.stderr) != "" {
		return strings.TrimSpace(ce.stderr)
	}
	return err.Error()
}

// cacheProxy returns the environment that makes the go command take
// modules from the module cache only: the cache's download directory is laid
// out as a module proxy of the versions fetched before.
func (g *goCmd) cacheProxy() []string {
	return []string{
		"GOPROXY=file://" + filepath.ToSlash(filepath.Join(g.modcache, "cache", "download")),
		"GOSUMDB=off", // what is in the cache was verified when it was fetched
	}
}

// fromCache rewrites queries for the module cache: a query without a
// version takes the newest version whose source the cache holds (the
// cache's version lists also name versions it has only the go.mod of).
// It reports false when the cache holds no version of a query's module.
func (g *goCmd) fromCache(queries []string) ([]string, bool) {
	out := make([]string, len(queries))
	for i, q := range queries {
		path, version, _ := strings.Cut(q, "@")
		if version != "" && version != "latest" && version != "upgrade" {
			out[i] = q
			continue
		}
		m, ok := g.newestCached(path)
		if !ok {
			return nil, false
		}
		out[i] = path + "@" + m.Version
	}
	return out, true
}

// newestCached returns the newest version with source in the module cache
// of the module that provides path: path itself or one of its parents.
func (g *goCmd) newestCached(path string) (Module, bool) {
	for p := path; p != "." && p != "/"; p = pathpkg.Dir(p) {
		esc, err := module.EscapePath(p)
		if err != nil {
			continue
		}
		zips, _ := filepath.Glob(filepath.Join(g.modcache, "cache", "download", filepath.FromSlash(esc), "@v", "*.zip"))
		best := ""
		for _, z := range zips {
			v, err := module.UnescapeVersion(strings.TrimSuffix(filepath.Base(z), ".zip"))
			if err == nil && semver.IsValid(v) && (best == "" || semver.Compare(v, best) > 0) {
				best = v
			}
		}
		if best != "" {
			return Module{Path: p, Version: best}, true
		}
	}
	return Module{}, false
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// lines splits the output of a go command into its non-empty lines.
func lines(out []byte) []string {
	var l []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if t := strings.TrimSpace(sc.Text()); t != "" {
			l = append(l, t)
		}
	}
	return l
}
