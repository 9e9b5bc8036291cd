package stdlib

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
)

// TestToolchain fails when the Go that runs the tests is not the release
// the tables were generated with.
func TestToolchain(t *testing.T) {
	if v := runtime.Version(); v != GoVersion && !strings.HasPrefix(v, GoVersion+".") {
		t.Errorf("the tables hold the library of %s, and this is %s: run go generate ./interp/internal/stdlib", GoVersion, v)
	}
}

// TestEveryPackage checks that every importable package of the standard
// library has a table, but those the generator skips on purpose.
func TestEveryPackage(t *testing.T) {
	out, err := exec.Command("go", "list", "std").Output()
	if err != nil {
		testenv.Missing(t, "go list std: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "vendor/") || strings.HasPrefix(p, "internal/") || strings.Contains(p, "/internal") {
			continue
		}
		if _, ok := Skipped[p]; ok && (p != "syscall" || !syscallTable[runtime.GOOS+"/"+runtime.GOARCH]) {
			continue
		}
		name := p[strings.LastIndexByte(p, '/')+1:]
		if p == "math/rand/v2" {
			name = "rand"
		}
		if _, ok := Symbols()[p+"/"+name]; !ok {
			t.Errorf("no table for %s: run go generate ./interp/internal/stdlib", p)
		}
	}
}

// syscallTable are the platforms with a table of syscall.
var syscallTable = map[string]bool{"linux/amd64": true, "linux/arm64": true}

// TestNewerThanYaegi checks names that Go added after the Go 1.22 tables
// inside yaegi, with their values.
func TestNewerThanYaegi(t *testing.T) {
	for _, c := range []struct{ pkg, name string }{
		{"strings/strings", "SplitSeq"},   // Go 1.24
		{"bytes/bytes", "Lines"},          // Go 1.24
		{"crypto/sha3/sha3", "Sum256"},    // Go 1.24
		{"os/os", "CopyFS"},               // Go 1.23
		{"structs/structs", "HostLayout"}, // Go 1.23
		{"os/exec/exec", "ErrWaitDelay"},  // in no yaegi table
	} {
		if v, ok := Symbols()[c.pkg][c.name]; !ok || !v.IsValid() {
			t.Errorf("%s.%s is missing", c.pkg, c.name)
		}
	}
	// Generic functions have no compiled value: the extractor leaves them
	// out.
	if _, ok := Symbols()["slices/slices"]["Sort"]; ok {
		t.Error("slices.Sort, a generic function, is in the table")
	}
}
