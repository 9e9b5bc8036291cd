package interp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/kernel"
)

// The modules these tests fetch, at pinned versions. scripts/setup.sh puts
// them in the module cache, and the tests run with GOPROXY=off: they need
// no network.
const (
	uuidModule     = "github.com/google/uuid@v1.6.0"
	statsModule    = "github.com/montanaflynn/stats@v0.7.1"
	humanizeModule = "github.com/dustin/go-humanize@v1.0.1"
)

// moduleSession returns a session that fetches modules from the module
// cache only, records them into record (a file of its own when ""), and
// compiles plugins into a cache of its own.
func moduleSession(t *testing.T, record string) *Session {
	t.Helper()
	t.Setenv("GOTENSOR_CACHE", t.TempDir())
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	if record == "" {
		record = filepath.Join(t.TempDir(), "gotensor.mod")
	}
	s, err := New(Options{ModFile: record})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// needModule fails the test with what to run when a module it needs is
// not in the module cache.
func needModule(t *testing.T, s *Session, modver string) {
	t.Helper()
	_, _, err := run(t, s, "%go get "+modver)
	if err != nil && strings.Contains(err.Error(), "cannot be reached") {
		t.Fatalf("%s is not in the module cache: run scripts/setup.sh (it runs go mod download %s)\n%v", modver, modver, err)
	}
	if err != nil {
		t.Fatalf("%%go get %s: %v", modver, err)
	}
}

// TestGoGetInCell fetches two modules with %go get in the middle of a
// session, uses them in cells, and finds the session's earlier state intact
// and the versions recorded.
func TestGoGetInCell(t *testing.T) {
	s := moduleSession(t, "")
	mustRun(t, s, "x := 41\nfunc twice(n int) int { return 2 * n }")

	_, out := mustRun(t, s, "%go get "+uuidModule)
	if !strings.Contains(out, `github.com/google/uuid v1.6.0: import "github.com/google/uuid"`) {
		t.Errorf("%%go get does not say what it loaded:\n%s", out)
	}
	// RFC 9562's name-based UUID (SHA-1) of "example.com" in the DNS
	// namespace, as Python's uuid.uuid5(uuid.NAMESPACE_DNS, "example.com").
	res, _ := mustRun(t, s, "import \"github.com/google/uuid\"\nuuid.NewSHA1(uuid.NameSpaceDNS, []byte(\"example.com\")).String()")
	if want := "cfbff0d1-9375-5685-968c-48ce8b15ae17"; res != want {
		t.Errorf("uuid.NewSHA1 = %s, want %s", res, want)
	}

	needModule(t, s, statsModule)
	res, _ = mustRun(t, s, `import "github.com/montanaflynn/stats"
m, _ := stats.Median([]float64{5, 1, 4, 2})
v, _ := stats.PopulationVariance([]float64{2, 4, 4, 4, 5, 5, 7, 9})
fmt.Sprint(m, " ", v)`)
	if res != "3 4" {
		t.Errorf("median and variance = %s, want 3 4", res)
	}

	if res, _ := mustRun(t, s, "twice(x + 1)"); res != "84" {
		t.Errorf("after %%go get, twice(x + 1) = %s, want 84", res)
	}
	_, out = mustRun(t, s, "%go mod")
	for _, want := range []string{"require (", "github.com/google/uuid v1.6.0", "github.com/montanaflynn/stats v0.7.1"} {
		if !strings.Contains(out, want) {
			t.Errorf("%%go mod does not show %q:\n%s", want, out)
		}
	}
	// %reset forgets the import, not the loaded package.
	mustRun(t, s, "%reset")
	res, _ = mustRun(t, s, "import \"github.com/google/uuid\"\nuuid.NameSpaceDNS.String()")
	if want := "6ba7b810-9dad-11d1-80b4-00c04fd430c8"; res != want {
		t.Errorf("after %%reset, uuid.NameSpaceDNS = %s, want %s", res, want)
	}
}

// TestAutogetInCell imports a package of a module the session has not
// fetched: the import fetches it, at the version the record file names,
// and says so.
func TestAutogetInCell(t *testing.T) {
	record := filepath.Join(t.TempDir(), "gotensor.mod")
	mod, ver, _ := strings.Cut(humanizeModule, "@")
	if err := os.WriteFile(record, []byte("module notebooks\n\ngo 1.21\n\nrequire "+mod+" "+ver+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := moduleSession(t, record)
	res, out, err := run(t, s, "import \"github.com/dustin/go-humanize\"\nhumanize.Bytes(82854982) + \" \" + humanize.Comma(834142)")
	if err != nil {
		t.Fatalf("%v\n(is %s in the module cache? scripts/setup.sh puts it there)", err, humanizeModule)
	}
	// The values humanize's README gives.
	if res != "83 MB 834,142" {
		t.Errorf("humanize = %s, want 83 MB 834,142", res)
	}
	for _, want := range []string{"autoget: go get github.com/dustin/go-humanize@v1.0.1", "imported github.com/dustin/go-humanize from github.com/dustin/go-humanize@v1.0.1"} {
		if !strings.Contains(out, want) {
			t.Errorf("the import does not say %q:\n%s", want, out)
		}
	}
	_, out = mustRun(t, s, "%go list")
	if !strings.Contains(out, "github.com/dustin/go-humanize v1.0.1") || !strings.Contains(out, "autoget: on") {
		t.Errorf("%%go list:\n%s", out)
	}
}

// TestModuleErrorsInCell checks that imports and %go get that cannot work
// say why and what to run, never yaegi's GOPATH message.
func TestModuleErrorsInCell(t *testing.T) {
	s := moduleSession(t, "")
	gomodcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	// A proxy that has none of the modules, then the module cache for the
	// kernel's own (whose go.mod sums are not checked: no network).
	t.Setenv("GOSUMDB", "off")
	emptyProxy := "file://" + filepath.ToSlash(t.TempDir()) + ",file://" + filepath.ToSlash(filepath.Join(strings.TrimSpace(string(gomodcache)), "cache", "download"))
	cases := []struct {
		code string
		env  string // GOPROXY for the case
		want []string
	}{
		{`import "github.com/gotensor/no-such-module"`, "off",
			[]string{`cell line 1:8: cannot import "github.com/gotensor/no-such-module"`, "the module proxy or the checksum database cannot be reached (GOPROXY=off)", "%go get github.com/gotensor/no-such-module@VERSION"}},
		{"%go get github.com/gotensor/no-such-module@v1.0.0", emptyProxy,
			[]string{"%go get: github.com/gotensor/no-such-module@v1.0.0: no such module, version or package", "go list -m -versions"}},
		// plugin is a standard package the tables leave out (stdlib.Skipped).
		{`import "plugin"`, "off",
			[]string{`cannot import "plugin"`, "not a standard library package cells can use"}},
		{"%go autoget off\nimport \"github.com/gotensor/no-such-module/x\"", "off",
			[]string{"autoget is off", "%go get github.com/gotensor/no-such-module/x", "%go autoget on"}},
		{"%go build", "off", []string{"%go build: unknown", "!go build"}},
	}
	for _, c := range cases {
		t.Setenv("GOPROXY", c.env)
		_, _, err := run(t, s, c.code)
		if err == nil {
			t.Errorf("%q: no error", c.code)
			continue
		}
		msg := strings.Join(err.(*kernel.Error).Traceback, "\n")
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%q: the error does not say %q:\n%s", c.code, w, msg)
			}
		}
		if strings.Contains(msg, "GOPATH") {
			t.Errorf("%q: the error speaks of GOPATH:\n%s", c.code, msg)
		}
	}
}

// TestStdImportsNeedNoModule imports standard packages, among them those
// yaegi compiles from source (cmp, slices): the module loader stays out.
func TestStdImportsNeedNoModule(t *testing.T) {
	record := filepath.Join(t.TempDir(), "gotensor.mod")
	s := moduleSession(t, record)
	res, out := mustRun(t, s, "import (\n\t\"cmp\"\n\t\"slices\"\n\t\"strings\"\n)\nfmt.Sprint(cmp.Compare(1, 2), slices.Contains([]int{1}, 1), strings.ToUpper(\"a\"))")
	if res != "-1 trueA" { // fmt.Sprint puts no space next to a string
		t.Errorf("got %s, want -1 trueA", res)
	}
	if strings.Contains(out, "modules:") {
		t.Errorf("the module loader spoke:\n%s", out)
	}
	if _, err := os.Stat(record); err == nil {
		t.Errorf("standard imports wrote %s", record)
	}
}
