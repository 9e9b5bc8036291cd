package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"image/png"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
)

// fakeBinary writes an executable file standing in for the gotensor binary.
func fakeBinary(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "gotensor")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return exe
}

func readSpec(t *testing.T, dir string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("kernel.json is not JSON: %v\n%s", err, b)
	}
	return m
}

func TestInstallPrefixWritesKernelJSON(t *testing.T) {
	exe := fakeBinary(t)
	prefix := t.TempDir()
	dir, err := Install(Options{Location: Prefix, Prefix: prefix, Executable: exe})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(prefix, "share", "jupyter", "kernels", "gotensor"); dir != want {
		t.Errorf("dir = %s, want %s", dir, want)
	}
	// The kernelspec format of the Jupyter client documentation.
	want := map[string]any{
		"argv":           []any{exe, "kernel", "-f", "{connection_file}"},
		"display_name":   "Go (gotensor)",
		"language":       "go",
		"interrupt_mode": "message",
		"metadata":       map[string]any{"debugger": true},
	}
	if got := readSpec(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("kernel.json = %v, want %v", got, want)
	}
	for _, f := range []string{"logo-32x32.png", "logo-64x64.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
}

func TestInstallNameAndDisplayName(t *testing.T) {
	prefix := t.TempDir()
	dir, err := Install(Options{Location: Prefix, Prefix: prefix, Executable: fakeBinary(t), Name: "GoTensor-Dev", DisplayName: "Go dev"})
	if err != nil {
		t.Fatal(err)
	}
	// Jupyter lower-cases kernelspec names.
	if filepath.Base(dir) != "gotensor-dev" {
		t.Errorf("dir = %s, want base gotensor-dev", dir)
	}
	if got := readSpec(t, dir)["display_name"]; got != "Go dev" {
		t.Errorf("display_name = %v, want Go dev", got)
	}
}

func TestInstallRelativeExecutableMadeAbsolute(t *testing.T) {
	exe := fakeBinary(t)
	t.Chdir(filepath.Dir(exe))
	dir, err := Install(Options{Location: Prefix, Prefix: t.TempDir(), Executable: "gotensor"})
	if err != nil {
		t.Fatal(err)
	}
	argv := readSpec(t, dir)["argv"].([]any)
	if argv[0] != exe {
		t.Errorf("argv[0] = %v, want %s", argv[0], exe)
	}
}

func TestInstallRejects(t *testing.T) {
	exe := fakeBinary(t)
	goRun := filepath.Join(t.TempDir(), "go-build1234", "b001", "exe", "gotensor")
	if err := os.MkdirAll(filepath.Dir(goRun), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(goRun, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	notExec := filepath.Join(t.TempDir(), "gotensor")
	if err := os.WriteFile(notExec, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		opts Options
		want string
	}{
		{Options{Location: Prefix, Prefix: t.TempDir(), Executable: exe, Name: "go tensor"}, "kernel name"},
		{Options{Location: Prefix, Prefix: t.TempDir(), Executable: exe, Name: "a/b"}, "kernel name"},
		{Options{Location: Prefix, Executable: exe}, "--prefix needs a directory"},
		{Options{Location: Prefix, Prefix: t.TempDir(), Executable: goRun}, "go run"},
		{Options{Location: Prefix, Prefix: t.TempDir(), Executable: notExec}, "not an executable"},
		{Options{Location: Prefix, Prefix: t.TempDir(), Executable: filepath.Join(t.TempDir(), "missing")}, "no such file"},
	} {
		_, err := Install(tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "install: ") {
			t.Errorf("%d: err = %v, want an install: error containing %q", i, err, tc.want)
		}
	}
}

func TestUserDataDir(t *testing.T) {
	t.Setenv("HOME", "/home/gopher")
	t.Setenv("JUPYTER_DATA_DIR", "")
	t.Setenv("XDG_DATA_HOME", "")
	for i, tc := range []struct {
		data, xdg, want string
	}{
		{"", "", "/home/gopher/.local/share/jupyter"},
		{"", "/xdg", "/xdg/jupyter"},
		{"/jd", "/xdg", "/jd"},
	} {
		t.Setenv("JUPYTER_DATA_DIR", tc.data)
		t.Setenv("XDG_DATA_HOME", tc.xdg)
		got, err := UserDataDir()
		if err != nil || got != tc.want {
			t.Errorf("%d: UserDataDir() = %q, %v, want %q", i, got, err, tc.want)
		}
	}
}

func TestInstallUserHonoursJupyterDataDir(t *testing.T) {
	data := t.TempDir()
	t.Setenv("JUPYTER_DATA_DIR", data)
	dir, err := Install(Options{Executable: fakeBinary(t)})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(data, "kernels", "gotensor"); dir != want {
		t.Errorf("dir = %s, want %s", dir, want)
	}
}

func TestFindAndUninstallHonourJupyterPath(t *testing.T) {
	const name = "gotensor-test-find"
	t.Setenv("JUPYTER_DATA_DIR", t.TempDir())
	prefix := t.TempDir()
	dir, err := Install(Options{Location: Prefix, Prefix: prefix, Executable: fakeBinary(t), Name: name})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Find(name); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Find before JUPYTER_PATH: err = %v, want fs.ErrNotExist", err)
	}
	t.Setenv("JUPYTER_PATH", "/nonexistent"+string(filepath.ListSeparator)+filepath.Join(prefix, "share", "jupyter"))
	got, err := Find(name)
	if err != nil || got != dir {
		t.Fatalf("Find = %q, %v, want %q", got, err, dir)
	}
	removed, err := Uninstall(name)
	if err != nil || removed != dir {
		t.Fatalf("Uninstall = %q, %v, want %q", removed, err, dir)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s still exists after Uninstall: %v", dir, err)
	}
	if _, err := Uninstall(name); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("second Uninstall: err = %v, want fs.ErrNotExist", err)
	}
}

func TestSearchPathOrder(t *testing.T) {
	t.Setenv("JUPYTER_PATH", "/a"+string(filepath.ListSeparator)+"/b/")
	t.Setenv("JUPYTER_DATA_DIR", "/user")
	got := SearchPath()
	want := []string{"/a/kernels", "/b/kernels", "/user/kernels"}
	if len(got) < 5 || !reflect.DeepEqual(got[:3], want) {
		t.Errorf("SearchPath() = %v, want it to start with %v", got, want)
	}
	if got[len(got)-1] != "/usr/share/jupyter/kernels" {
		t.Errorf("SearchPath() = %v, want it to end with /usr/share/jupyter/kernels", got)
	}
}

func TestLogoPNG(t *testing.T) {
	for _, size := range []int{32, 64} {
		b, err := LogoPNG(size)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%d: not a PNG: %v", size, err)
		}
		if r := img.Bounds(); r.Dx() != size || r.Dy() != size {
			t.Errorf("%d: bounds %v", size, r)
		}
		rgba := func(x, y int) [4]uint32 {
			r, g, b, a := img.At(x, y).RGBA()
			return [4]uint32{r >> 8, g >> 8, b >> 8, a >> 8}
		}
		if got := rgba(0, 0); got[3] != 0 {
			t.Errorf("%d: corner %v, want transparent", size, got)
		}
		// Left edge, half-way down: the Go blue #00ADD8 background.
		if got := rgba(size/10, size/2); got != [4]uint32{0x00, 0xAD, 0xD8, 0xFF} {
			t.Errorf("%d: background %v, want #00ADD8", size, got)
		}
		// The centre cell of the grid is solid white.
		if got := rgba(size/2, size/2); got != [4]uint32{0xFF, 0xFF, 0xFF, 0xFF} {
			t.Errorf("%d: centre %v, want white", size, got)
		}
	}
	if _, err := LogoPNG(0); err == nil {
		t.Error("LogoPNG(0): no error")
	}
}

// TestJupyterListsKernelspec asks Jupyter itself where the kernelspec is.
func TestJupyterListsKernelspec(t *testing.T) {
	jupyter := "/usr/bin/jupyter"
	if _, err := os.Stat(jupyter); err != nil {
		testenv.Missing(t, "no /usr/bin/jupyter (scripts/setup.sh installs it)")
	}
	if err := exec.Command(jupyter, "kernelspec", "--help").Run(); err != nil {
		testenv.Missing(t, "jupyter kernelspec unavailable (Debian package jupyter-client; scripts/setup.sh installs it)")
	}
	data := t.TempDir()
	t.Setenv("JUPYTER_DATA_DIR", data)
	exe := fakeBinary(t)
	dir, err := Install(Options{Executable: exe, Name: "gotensor-test-list"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(jupyter, "kernelspec", "list", "--json").Output()
	if err != nil {
		t.Fatalf("jupyter kernelspec list: %v", err)
	}
	var list struct {
		Kernelspecs map[string]struct {
			ResourceDir string     `json:"resource_dir"`
			Spec        KernelSpec `json:"spec"`
		} `json:"kernelspecs"`
	}
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatalf("jupyter kernelspec list --json: %v\n%s", err, out)
	}
	ks, ok := list.Kernelspecs["gotensor-test-list"]
	if !ok {
		t.Fatalf("jupyter does not list gotensor-test-list:\n%s", out)
	}
	if ks.ResourceDir != dir {
		t.Errorf("resource_dir = %s, want %s", ks.ResourceDir, dir)
	}
	wantArgv := []string{exe, "kernel", "-f", "{connection_file}"}
	if !reflect.DeepEqual(ks.Spec.Argv, wantArgv) || ks.Spec.Language != "go" || ks.Spec.InterruptMode != "message" {
		t.Errorf("spec = %+v, want argv %v, language go, interrupt_mode message", ks.Spec, wantArgv)
	}
}
