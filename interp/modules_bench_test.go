package interp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	yaegi "github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/gotensor/gotensor/interp/internal/modules"
)

// The benchmarks use go-humanize (one package, standard library only):
// scripts/setup.sh puts it in the module cache, and they run offline.
const benchPkg = "github.com/dustin/go-humanize"

// BenchmarkGoGet measures `%go get github.com/dustin/go-humanize@v1.0.1` in
// a fresh kernel process, as a notebook's first cell would run it:
//
//   - first: the plugin cache is empty, so the go command resolves the
//     module, yaegi's extractor writes its table and `go build
//     -buildmode=plugin` compiles it (the module cache and the Go build
//     cache are warm; on a new machine the first plugin also compiles the
//     standard library for dynamic linking once, which takes longer);
//   - second: the plugin the first run compiled is in the cache, as for a
//     restarted kernel or another notebook.
//
// ns/get is the time of the %go get cell alone, in the child process.
func BenchmarkGoGet(b *testing.B) {
	for _, name := range []string{"first", "second"} {
		b.Run(name, func(b *testing.B) {
			cache := b.TempDir()
			if name == "second" {
				goGetChild(b, cache)
			}
			var total time.Duration
			for i := 0; i < b.N; i++ {
				if name == "first" {
					b.StopTimer()
					cache = b.TempDir()
					b.StartTimer()
				}
				total += goGetChild(b, cache)
			}
			b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "ns/get")
		})
	}
}

// goGetChild runs TestGoGetChild in a child process with the plugin cache
// cache and returns how long its %go get took.
func goGetChild(b *testing.B, cache string) time.Duration {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestGoGetChild$", "-test.v")
	cmd.Env = append(os.Environ(), "GOTENSOR_GOGET_CHILD=1", "GOTENSOR_CACHE="+cache,
		"GOPROXY=off", "GOFLAGS=-mod=mod", "GOTENSOR_MODFILE="+filepath.Join(b.TempDir(), "gotensor.mod"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("child: %v\n%s", err, out)
	}
	_, after, ok := strings.Cut(string(out), "goget-ns: ")
	if !ok {
		b.Fatalf("child printed no time:\n%s", out)
	}
	ns, err := strconv.ParseInt(strings.Fields(after)[0], 10, 64)
	if err != nil {
		b.Fatal(err)
	}
	return time.Duration(ns)
}

// TestGoGetChild is the child process of BenchmarkGoGet.
func TestGoGetChild(t *testing.T) {
	if os.Getenv("GOTENSOR_GOGET_CHILD") == "" {
		t.Skip("the child process of BenchmarkGoGet")
	}
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	start := time.Now()
	mustRun(t, s, "%go get "+humanizeModule)
	d := time.Since(start)
	if res, _ := mustRun(t, s, "import \""+benchPkg+"\"\nhumanize.Comma(1234567)"); res != "1,234,567" {
		t.Fatalf("humanize.Comma(1234567) = %s", res)
	}
	fmt.Printf("goget-ns: %d\n", d.Nanoseconds())
}

// BenchmarkModuleCall measures one call of humanize.Comma(int64) string:
//
//   - compiled: Go calling the compiled function (from the plugin's table),
//     the cost without the interpreter;
//   - cell: a loop in a cell calling it, as %go get made it importable
//     (plugin; yaegi calls compiled code through reflection);
//   - cell-loop: the same loop in a cell without the call, to subtract;
//   - source: the same loop on a bare yaegi interpreter that interprets the
//     module's source (GOPATH layout over the module cache), the option
//     this package does not take.
func BenchmarkModuleCall(b *testing.B) {
	b.Setenv("GOTENSOR_CACHE", b.TempDir())
	b.Setenv("GOPROXY", "off")
	b.Setenv("GOFLAGS", "-mod=mod")
	s, err := New(Options{ModFile: filepath.Join(b.TempDir(), "gotensor.mod")})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Execute(context.Background(), "%go get "+humanizeModule, &recorder{}); err != nil {
		b.Fatal(err)
	}
	const loops = `import "github.com/dustin/go-humanize"
_benchCall := func(n int) {
	for i := 0; i < n; i++ {
		humanize.Comma(int64(i))
	}
}
_benchLoop := func(n int) {
	k := 0
	for i := 0; i < n; i++ {
		k += i
	}
}`
	if _, err := s.Execute(context.Background(), loops, &recorder{}); err != nil {
		b.Fatal(err)
	}
	g := s.globals()

	b.Run("compiled", func(b *testing.B) {
		pkg := modules.Find(benchPkg)
		comma := pkg.Symbols[benchPkg+"/humanize"]["Comma"].Interface().(func(int64) string)
		for i := 0; i < b.N; i++ {
			comma(int64(i))
		}
	})
	for _, name := range []string{"cell", "cell-loop"} {
		fn := g["_benchCall"]
		if name == "cell-loop" {
			fn = g["_benchLoop"]
		}
		b.Run(name, func(b *testing.B) {
			fn.Call([]reflect.Value{reflect.ValueOf(b.N)})
		})
	}
	b.Run("source", func(b *testing.B) {
		gopath := b.TempDir()
		dir := filepath.Join(gopath, "src", filepath.FromSlash(benchPkg))
		os.MkdirAll(filepath.Dir(dir), 0o755)
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", humanizeModule).Output()
		if err != nil {
			b.Fatal(err)
		}
		if err := os.Symlink(strings.TrimSpace(string(out)), dir); err != nil {
			b.Fatal(err)
		}
		yi := yaegi.New(yaegi.Options{GoPath: gopath})
		yi.Use(stdlib.Symbols)
		imp, body, _ := strings.Cut(loops, "\n") // bare yaegi takes them apart
		if _, err := yi.Eval(imp); err != nil {
			// What yaegi v0.16.1 says of go-humanize v1.0.1: "invalid
			// operation: mismatched types untyped float and untyped
			// float64".
			b.Skipf("yaegi cannot interpret %s: %v", humanizeModule, err)
		}
		if _, err := yi.Eval(body); err != nil {
			b.Fatal(err)
		}
		v, err := yi.Eval("_benchCall")
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		v.Call([]reflect.Value{reflect.ValueOf(b.N)})
	})
}
