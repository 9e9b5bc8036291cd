package data

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
)

func TestFetchLoadFortunes(t *testing.T) {
	src := t.TempDir()
	for name, body := range map[string]string{
		"b": "second\n%\n", "a": "first cookie\n%\nno newline", "a.dat": "binary", "a.u8": "link",
	} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := debianFortunesDir
	debianFortunesDir = src
	defer func() { debianFortunesDir = old }()
	dir := filepath.Join(t.TempDir(), "f")
	if _, err := LoadFortunes(dir); err == nil || !strings.Contains(err.Error(), "gotensor data fortunes") {
		t.Errorf("missing file: error %v, want one naming `gotensor data fortunes`", err)
	}
	if err := FetchFortunes(dir); err != nil {
		t.Fatal(err)
	}
	text, err := LoadFortunes(dir)
	if want := "first cookie\n%\nno newline\nsecond\n%\n"; err != nil || text != want {
		t.Errorf("LoadFortunes = %q, %v; want %q", text, err, want)
	}
	debianFortunesDir = filepath.Join(src, "absent")
	if err := FetchFortunes(filepath.Join(t.TempDir(), "g")); err == nil || !strings.Contains(err.Error(), "apt-get install fortunes") {
		t.Errorf("no package: error %v, want one saying how to install it", err)
	}
}

// TestFortunesFromDebian reads the installed package, when it is there.
func TestFortunesFromDebian(t *testing.T) {
	if _, err := os.Stat(filepath.Join(debianFortunesDir, "fortunes")); err != nil {
		testenv.Missing(t, "Debian's fortunes package is not installed (scripts/setup.sh installs it)")
	}
	dir := t.TempDir()
	if err := FetchFortunes(dir); err != nil {
		t.Fatal(err)
	}
	text, err := LoadFortunes(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(text) < 1<<20 || !strings.Contains(text, "\n%\n") {
		t.Errorf("%d bytes of fortunes, want over 1 MB of cookies separated by %%", len(text))
	}
}

func TestCharVocab(t *testing.T) {
	v := NewCharVocab("hello, wörld")
	if v.Size() != 10 { // " ", ",", "d", "e", "h", "l", "o", "r", "w", "ö"
		t.Errorf("size %d, want 10", v.Size())
	}
	if got := v.Encode("hello").Int64s(); !slices.Equal(got, []int64{4, 3, 5, 5, 6}) {
		t.Errorf("Encode(hello) = %v, want [4 3 5 5 6]", got)
	}
	if got := v.Decode(v.Encode("wörld, hello")); got != "wörld, hello" {
		t.Errorf("round trip gives %q", got)
	}
	if v.Char(9) != "ö" || v.Char(10) != "" {
		t.Errorf("Char(9) = %q, Char(10) = %q", v.Char(9), v.Char(10))
	}
	defer func() {
		if recover() == nil {
			t.Error("encoding a character outside the vocabulary did not panic")
		}
	}()
	v.Encode("x")
}
