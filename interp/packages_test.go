package interp

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"strings"
	"testing"
)

// TestStdlibOfThisGo checks that cells see the standard library of the Go
// that built the kernel, not the Go 1.22 tables inside yaegi: functions
// added since, full syscall and os/exec, and unsafe.
func TestStdlibOfThisGo(t *testing.T) {
	cases := []struct{ name, code, want string }{
		// Go 1.24. A cell cannot range over the iterator yet (yaegi has no
		// range-over-func), but it can call it.
		{"strings.SplitSeq", `import "strings"
strings.SplitSeq("a,b,c", ",")(func(s string) bool { fmt.Println(s); return true })`, "a\nb\nc\n"},
		{"bytes.Lines", `import "bytes"
bytes.Lines([]byte("x\ny\n"))(func(l []byte) bool { fmt.Printf("%q ", l); return true })`, `"x\n" "y\n" `},
		// Go 1.24's crypto packages.
		{"crypto/sha3", `import (
	"crypto/sha3"
	"encoding/hex"
)
sum := sha3.Sum256([]byte("abc"))
fmt.Println(hex.EncodeToString(sum[:]))`, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532\n"},
		{"crypto/mlkem", `import "crypto/mlkem"
fmt.Println(mlkem.SharedKeySize, mlkem.EncapsulationKeySize768)`, "32 1184\n"}, // FIPS 203
		// Generic functions are not in the tables: crypto/pbkdf2.Key is
		// generic since Go 1.24.
		{"generic", `import "crypto/pbkdf2"
fmt.Println(pbkdf2.Key != nil)`, ""},
		// Go 1.23.
		{"structs", `import "structs"
var h structs.HostLayout
fmt.Printf("%T\n", h)`, "structs.HostLayout\n"},
		// What yaegi's restricted and unrestricted tables left out.
		{"os/exec", `import "os/exec"
fmt.Println(exec.ErrWaitDelay)`, "exec: WaitDelay expired before I/O complete\n"},
		{"syscall", `import "syscall"
fmt.Println(syscall.O_RDONLY, syscall.SIGINT)`, "0 interrupt\n"},
		{"unsafe", `import "unsafe"
fmt.Println(unsafe.Sizeof(int64(0)))`, "8\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t)
			_, out, err := run(t, s, c.code)
			if c.want == "" {
				if err == nil || !strings.Contains(err.Error(), "Key") {
					t.Errorf("%s: got %v, want an error about pbkdf2.Key", c.name, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if out != c.want {
				t.Errorf("%s: stdout %q, want %q", c.name, out, c.want)
			}
		})
	}
}

// TestLogFatalEndsTheCell checks that log.Fatal in a cell ends the cell as
// it ends a Go program, its message on standard error and "exit status 1",
// and the session lives on.
func TestLogFatalEndsTheCell(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, `x := 41`)
	var r recorder
	_, err := s.Execute(t.Context(), "import \"log\"\nlog.SetFlags(0)\nlog.Fatal(\"boom\")", &r)
	if err == nil || !strings.Contains(err.Error(), "exit status 1") || r.text("stderr") != "boom\n" {
		t.Errorf("log.Fatal: got %v, stderr %q; want exit status 1 after boom", err, r.text("stderr"))
	}
	if res, _ := mustRun(t, s, `x + 1`); res != "42" {
		t.Errorf("after log.Fatal, x + 1 = %q, want 42", res)
	}
}

// TestGonumInCell imports gonum/mat in a cell: the determinant of
// [[1 2] [3 4]] is 1·4 − 2·3 = −2.
func TestGonumInCell(t *testing.T) {
	s := newSession(t)
	_, out := mustRun(t, s, `import "gonum.org/v1/gonum/mat"
a := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
fmt.Printf("%.12f\n", mat.Det(a))`)
	if out != "-2.000000000000\n" {
		t.Errorf("mat.Det: stdout %q, want -2.000000000000", out)
	}
	// Not pre-imported: a session that did not import it does not know it.
	if _, _, err := run(t, newSession(t), `mat.Det(nil)`); err == nil {
		t.Error("mat is known to a session that did not import it")
	}
}

// TestGonumPlotInCell builds a histogram with gonum/plot in a cell and
// shows it with display.Plot: the bundle holds a PNG of the plot's size.
func TestGonumPlotInCell(t *testing.T) {
	s := newSession(t)
	var r recorder
	code := `import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)
p := plot.New()
p.Title.Text = "weights"
h, err := plotter.NewHist(plotter.Values{1, 2, 2, 3, 3, 3, 4, 4, 5}, 5)
if err != nil {
	panic(err)
}
p.Add(h)
display.Plot(p)`
	if _, err := s.Execute(t.Context(), code, &r); err != nil {
		t.Fatalf("cell: %v", err)
	}
	if len(r.displays) != 1 {
		t.Fatalf("%d displays, want 1", len(r.displays))
	}
	data, ok := r.displays[0].Data["image/png"].(string)
	if !ok {
		t.Fatalf("the display has no image/png: %v", keys(r.displays[0].Data))
	}
	b, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the image/png is not a PNG: %v", err)
	}
	if w := img.Bounds().Dx(); w < 100 {
		t.Errorf("the PNG is %d pixels wide", w)
	}
	if text, _ := r.displays[0].Data["text/plain"].(string); !strings.Contains(text, "weights") {
		t.Errorf("text/plain %q does not name the plot", text)
	}
}

// TestGonumDocs checks that Shift-Tab shows gonum's doc comments.
func TestGonumDocs(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, `import "gonum.org/v1/gonum/mat"`)
	code := "mat.Det"
	in := s.Inspect(code, len(code), 0)
	text, _ := in.Data.Data["text/plain"].(string)
	if !in.Found || !strings.Contains(text, "Det returns the determinant of the square matrix a") {
		t.Errorf("Inspect(%q) = %v, %q; want mat.Det's doc comment", code, in.Found, text)
	}
}

func keys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// BenchmarkNew measures a session's start: loading the symbol tables (the
// standard library, gotensor's and gonum's packages) and the pre-imports.
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		s, err := New(Options{})
		if err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}
