package modules

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The tests fetch from a module proxy they write themselves (see
// fakeModules) into a module cache of their own, so that they run offline
// and leave the user's module cache alone. The modules of this test binary
// (yaegi) come from the user's module cache, where building the binary put
// them.
var (
	testCache string // the plugin cache the tests share
	realCache string // the user's module cache
)

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	if os.Getenv("GOTENSOR_MODULES_HELPER") != "" {
		return m.Run() // a child process of TestPluginCacheAcrossProcesses
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "modules tests: go env GOMODCACHE:", err)
		return 1
	}
	realCache = strings.TrimSpace(string(out))
	tmp, err := os.MkdirTemp("", "gotensor-modules-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	modcache := filepath.Join(tmp, "modcache")
	defer func() {
		// The module cache is read-only; the go command knows how to
		// remove it.
		c := exec.Command("go", "clean", "-modcache")
		c.Env = append(os.Environ(), "GOMODCACHE="+modcache)
		c.Run()
		os.RemoveAll(tmp)
	}()
	proxy := filepath.Join(tmp, "proxy")
	if err := writeProxy(proxy, fakeModules); err != nil {
		fmt.Fprintln(os.Stderr, "modules tests: writing the proxy:", err)
		return 1
	}
	testCache = filepath.Join(tmp, "cache")
	// The go command takes its settings from the process's environment,
	// as in the kernel.
	for k, v := range map[string]string{
		"GOPROXY":    "file://" + filepath.ToSlash(proxy) + ",file://" + filepath.ToSlash(filepath.Join(realCache, "cache", "download")),
		"GOMODCACHE": modcache,
		"GOSUMDB":    "off",
		"GOFLAGS":    "-mod=mod",
	} {
		os.Setenv(k, v)
	}
	return m.Run()
}

// newLoader returns a Loader on the test proxy that records into a file of
// its own and writes its progress into the returned buffer.
func newLoader(t *testing.T) (*Loader, *syncBuffer) {
	t.Helper()
	var out syncBuffer
	l := New(Config{
		CacheDir: testCache,
		Record:   filepath.Join(t.TempDir(), "gotensor.mod"),
		Progress: &out,
	})
	t.Cleanup(func() { l.Close() })
	return l, &out
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// call calls the function name of the package table t with args.
func call(t *testing.T, pkg *Package, name string, args ...any) any {
	t.Helper()
	table := pkg.Symbols[pkg.Path+"/"+pathBase(pkg.Path)]
	f, ok := table[name]
	if !ok {
		t.Fatalf("%s has no %s in its table (it has %v)", pkg.Path, name, keys(table))
	}
	in := make([]reflect.Value, len(args))
	for i, a := range args {
		in[i] = reflect.ValueOf(a)
	}
	return f.Call(in)[0].Interface()
}

func pathBase(p string) string { return p[strings.LastIndex(p, "/")+1:] }

func keys(m map[string]reflect.Value) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	slices.Sort(k)
	return k
}

// wantError checks that err is an *Error of kind k whose message holds
// each of want.
func wantError(t *testing.T, err error, k Kind, want ...string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v (%T), want a *modules.Error of kind %v", err, err, k)
	}
	t.Logf("%v", err)
	if e.Kind != k {
		t.Fatalf("error kind = %v, want %v; error:\n%v", e.Kind, k, err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error does not say %q:\n%v", w, err)
		}
	}
	if strings.Contains(err.Error(), "GOPATH") {
		t.Errorf("error speaks of GOPATH:\n%v", err)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGet gets a module at a pinned version, calls its package through the
// symbol table, and finds the version recorded.
func TestGet(t *testing.T) {
	l, out := newLoader(t)
	pkgs, err := l.Get(context.Background(), []string{"example.com/hello@v1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 {
		t.Fatalf("Get returned %d packages, want 1", len(pkgs))
	}
	pkg := pkgs[0]
	if pkg.Path != "example.com/hello" || pkg.Module.Path != "example.com/hello" || pkg.Module.Version != "v1.0.0" {
		t.Errorf("package %s from %s, want example.com/hello from example.com/hello@v1.0.0", pkg.Path, pkg.Module)
	}
	if got := call(t, pkg, "Greet", "ada"); got != "hello, ADA from v1.0.0" {
		t.Errorf("Greet(ada) = %q, want %q", got, "hello, ADA from v1.0.0")
	}
	if want := []string{"Map", "Pair"}; !slices.Equal(pkg.Generic, want) {
		t.Errorf("Generic = %v, want %v", pkg.Generic, want)
	}
	table := pkg.Symbols["example.com/hello/hello"]
	for _, name := range []string{"Version", "Calls", "Greeter", "_Greeter"} {
		if _, ok := table[name]; !ok {
			t.Errorf("the table has no %s (it has %v)", name, keys(table))
		}
	}
	if rec := readFile(t, l.RecordFile()); !strings.Contains(rec, "require example.com/hello v1.0.0") {
		t.Errorf("the record file does not require example.com/hello v1.0.0:\n%s", rec)
	}
	if !strings.Contains(out.String(), "go: added example.com/hello v1.0.0") {
		t.Errorf("progress does not say what it took:\n%s", out)
	}

	// Getting it again loads nothing new; another version cannot join.
	again, err := l.Get(context.Background(), []string{"example.com/hello@v1.0.0"})
	if err != nil || again[0] != pkg {
		t.Errorf("Get again = %v, %v; want the package loaded before", again, err)
	}
	_, err = l.Get(context.Background(), []string{"example.com/hello@v1.1.0"})
	wantError(t, err, Clash, "already loaded example.com/hello from example.com/hello@v1.0.0", "restart the kernel")
	if rec := readFile(t, l.RecordFile()); strings.Contains(rec, "v1.1.0") {
		t.Errorf("the record file took the version that failed:\n%s", rec)
	}
}

// TestImportSubpackage imports a package of a module Get took: its
// dependency (the module's root package) is the one loaded already.
func TestImportSubpackage(t *testing.T) {
	l, _ := newLoader(t)
	ctx := context.Background()
	if _, err := l.Get(ctx, []string{"example.com/manual@v1.0.0"}); err != nil {
		t.Fatal(err)
	}
	l.SetAutoget(false) // the module is the session's: no fetch needed
	sub, err := l.Import(ctx, "example.com/manual/sub")
	if err != nil {
		t.Fatal(err)
	}
	if got := call(t, sub, "Twice", "bo"); got != "hello, BO from v1.0.0; hello, BO from v1.0.0" {
		t.Errorf("Twice(bo) = %q", got)
	}
	// Both plugins share example.com/manual: the calls through sub.Twice
	// count in the variable the root package's table shows.
	root, err := l.Import(ctx, "example.com/manual")
	if err != nil {
		t.Fatal(err)
	}
	calls := root.Symbols["example.com/manual/manual"]["Calls"]
	if n := calls.Interface().(int); n != 2 {
		t.Errorf("manual.Calls = %d after two calls through sub, want 2 (one package, not two copies)", n)
	}
}

// TestAutoget imports packages of modules the session has not fetched:
// the latest version, or the one the record file names.
func TestAutoget(t *testing.T) {
	l, out := newLoader(t)
	ctx := context.Background()
	pkg, err := l.Import(ctx, "example.com/auto")
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Module.Version != "v1.2.0" {
		t.Errorf("autoget took %s, want the latest, v1.2.0", pkg.Module)
	}
	for _, want := range []string{"autoget: go get example.com/auto (the latest version", "imported example.com/auto from example.com/auto@v1.2.0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("progress does not say %q:\n%s", want, out)
		}
	}
	if rec := readFile(t, l.RecordFile()); !strings.Contains(rec, "require example.com/auto v1.2.0") {
		t.Errorf("the record file does not require example.com/auto v1.2.0:\n%s", rec)
	}

	// A record file written elsewhere pins example.com/pinned to v1.0.0.
	l2, out2 := newLoader(t)
	if err := os.WriteFile(l2.RecordFile(), []byte("module notebooks\n\ngo 1.21\n\nrequire example.com/pinned v1.0.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg, err = l2.Import(ctx, "example.com/pinned/sub")
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Module.Version != "v1.0.0" {
		t.Errorf("autoget took %s, want the recorded v1.0.0", pkg.Module)
	}
	if !strings.Contains(out2.String(), "go get example.com/pinned@v1.0.0 (the version "+l2.RecordFile()+" records") {
		t.Errorf("progress does not name the record file:\n%s", out2)
	}

	// With autoget off, an unknown import says what to run.
	l3, _ := newLoader(t)
	l3.SetAutoget(false)
	_, err = l3.Import(ctx, "example.com/unfetched/sub")
	wantError(t, err, NoAutoget, "%go get example.com/unfetched/sub", "%go autoget on")
}

// TestModuleWithoutRootPackage gets a module that has packages only below
// its root: it is recorded, and importing a package of it takes its version.
func TestModuleWithoutRootPackage(t *testing.T) {
	l, out := newLoader(t)
	ctx := context.Background()
	pkgs, err := l.Get(ctx, []string{"example.com/noroot@v1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 0 {
		t.Errorf("Get loaded %v, want no package", pkgs)
	}
	if !strings.Contains(out.String(), "example.com/noroot@v1.0.0 has no package at its root") {
		t.Errorf("progress does not say there is no package to load:\n%s", out)
	}
	l.SetAutoget(false)
	leaf, err := l.Import(ctx, "example.com/noroot/leaf")
	if err != nil {
		t.Fatal(err)
	}
	if got := call(t, leaf, "Leaf"); got != 7 {
		t.Errorf("Leaf() = %v, want 7", got)
	}
}

// TestErrors checks that each way of failing says why and what to do.
func TestErrors(t *testing.T) {
	ctx := context.Background()
	l, _ := newLoader(t)
	offline, _ := newLoader(t)
	goOffline := func() func() {
		saved := os.Getenv("GOPROXY")
		os.Setenv("GOPROXY", "http://127.0.0.1:1")
		return func() { os.Setenv("GOPROXY", saved) }
	}
	cases := []struct {
		name string
		do   func() error
		kind Kind
		want []string
	}{
		{"no such module", func() error { _, err := l.Get(ctx, []string{"example.com/nosuch@v1.0.0"}); return err },
			NotFound, []string{"example.com/nosuch@v1.0.0: no such module", "go list -m -versions"}},
		{"no such version", func() error { _, err := l.Get(ctx, []string{"example.com/hello@v9.9.9"}); return err },
			NotFound, []string{"no such module, version or package"}},
		{"no such package", func() error { _, err := l.Import(ctx, "example.com/nosuch/pkg"); return err },
			NotFound, []string{"example.com/nosuch/pkg"}},
		{"offline", func() error {
			defer goOffline()()
			_, err := offline.Get(ctx, []string{"example.com/auto@v1.0.0"})
			return err
		},
			Offline, []string{"module proxy or the checksum database cannot be reached (GOPROXY=http://127.0.0.1:1)", "%go get example.com/auto@VERSION", "cache/download/example.com/auto/@v"}},
		{"version clash", func() error { _, err := l.Get(ctx, []string{"example.com/clash@v1.0.0"}); return err },
			Clash, []string{"it needs github.com/traefik/yaegi v0.99.0, but the kernel has github.com/traefik/yaegi v0.16.1", "go list -m -versions"}},
		{"cgo", func() error { _, err := l.Get(ctx, []string{"example.com/cgofail@v1.0.0"}); return err },
			Cgo, []string{"it calls C (cgo, in example.com/cgofail)", "gotensor_no_such_header.h", "install the C compiler"}},
		{"command", func() error { _, err := l.Get(ctx, []string{"example.com/cmd@v1.0.0"}); return err },
			Command, []string{"!go run example.com/cmd@v1.0.0"}},
		{"standard library", func() error { _, err := l.Import(ctx, "plugin"); return err },
			Std, []string{"plugin", "standard library of the Go that built the kernel"}},
		{"not a module path", func() error { _, err := l.Get(ctx, []string{"no/such/pkg"}); return err },
			Std, []string{"module paths start with a domain name"}},
		{"flag", func() error { _, err := l.Get(ctx, []string{"-u", "example.com/hello"}); return err },
			Other, []string{"flags are not supported"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantError(t, c.do(), c.kind, c.want...) })
	}
	// Nothing that failed is recorded.
	if b, err := os.ReadFile(l.RecordFile()); err == nil && strings.Contains(string(b), "require") {
		t.Errorf("failures were recorded:\n%s", b)
	}
}

// TestOfflineFromCache gets a module without a version while the proxy is
// out of reach: the module cache answers with the version fetched before.
func TestOfflineFromCache(t *testing.T) {
	ctx := context.Background()
	l, _ := newLoader(t)
	if _, err := l.Get(ctx, []string{"example.com/cached@v1.0.0"}); err != nil {
		t.Fatal(err)
	}
	offline, out := newLoader(t)
	t.Setenv("GOPROXY", "http://127.0.0.1:1")
	pkgs, err := offline.Get(ctx, []string{"example.com/cached"})
	if err != nil {
		t.Fatal(err)
	}
	if pkgs[0].Module.Version != "v1.0.0" {
		t.Errorf("offline get took %s, want the cached v1.0.0", pkgs[0].Module)
	}
	if !strings.Contains(out.String(), "out of reach: took example.com/cached@v1.0.0 from the module cache") {
		t.Errorf("progress does not say it worked from the module cache:\n%s", out)
	}
}

// TestPluginCacheAcrossProcesses loads in a new process a package an
// earlier process compiled: the plugin comes from the cache, unbuilt.
func TestPluginCacheAcrossProcesses(t *testing.T) {
	if os.Getenv("GOTENSOR_MODULES_HELPER") != "" {
		t.Skip("in the helper process")
	}
	l, _ := newLoader(t)
	if _, err := l.Get(context.Background(), []string{"example.com/hello@v1.0.0"}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperLoad$", "-test.v")
	cmd.Env = append(os.Environ(), "GOTENSOR_MODULES_HELPER=1", "GOTENSOR_TEST_CACHE="+testCache)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper process: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "helper: hello, X from v1.0.0 built=false") {
		t.Errorf("the second process did not load the cached plugin:\n%s", out)
	}
}

// TestHelperLoad runs in the child process of TestPluginCacheAcrossProcesses.
func TestHelperLoad(t *testing.T) {
	if os.Getenv("GOTENSOR_MODULES_HELPER") == "" {
		t.Skip("runs as a child of TestPluginCacheAcrossProcesses")
	}
	l := New(Config{CacheDir: os.Getenv("GOTENSOR_TEST_CACHE")})
	defer l.Close()
	pkgs, err := l.Get(context.Background(), []string{"example.com/hello@v1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("helper: %s built=%v\n", call(t, pkgs[0], "Greet", "x"), pkgs[0].Built)
}

// TestHost reads build information as the kernel's would be.
func TestHost(t *testing.T) {
	l, _ := newLoader(t)
	if _, err := l.Recorded(context.Background()); err != nil { // runs the go command once
		t.Fatal(err)
	}
	h := thisHost()
	if h.noPlugins != "" {
		t.Fatalf("this test binary cannot load plugins: %s", h.noPlugins)
	}
	if h.yaegi != "v0.16.1" {
		t.Errorf("yaegi version = %q, want v0.16.1", h.yaegi)
	}
	if !slices.ContainsFunc(h.flags, func(f string) bool { return strings.HasPrefix(f, "-trimpath=") }) {
		t.Errorf("flags %v do not say whether to trim paths", h.flags)
	}
}

// TestBuildModCache finds the module cache this test binary was compiled
// from: the go command's, since go test built it.
func TestBuildModCache(t *testing.T) {
	h := thisHost()
	if h.trimpath {
		t.Skip("built with -trimpath: no file names to read")
	}
	if h.modcache != realCache {
		t.Errorf("the binary's module cache = %q, want %q", h.modcache, realCache)
	}
}
