package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// runCmd runs gotensor with args in-process and returns its exit status and
// output.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// useFakeBinary makes install write kernel.json for a stand-in binary, since
// the test binary itself lives in a temporary build directory.
func useFakeBinary(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "gotensor")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := installExecutable
	installExecutable = exe
	t.Cleanup(func() { installExecutable = old })
	return exe
}

func TestUsageErrors(t *testing.T) {
	for i, tc := range []struct {
		args []string
		want string
	}{
		{nil, "Usage:"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"install", "--no-such-flag"}, "flag provided but not defined"},
		{[]string{"install", "--user", "--sys-prefix"}, "only one of"},
		{[]string{"install", "extra"}, `unexpected argument "extra"`},
		{[]string{"kernel"}, "missing -f CONNECTION_FILE"},
		{[]string{"help", "frobnicate"}, "unknown command"},
	} {
		code, _, stderr := runCmd(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%d: gotensor %v = %d, stderr %q; want 2 and %q", i, tc.args, code, stderr, tc.want)
		}
	}
}

func TestHelp(t *testing.T) {
	code, stdout, _ := runCmd(t, "help")
	if code != 0 {
		t.Fatalf("help = %d", code)
	}
	for _, name := range []string{"install", "uninstall", "kernel", "version"} {
		if !strings.Contains(stdout, "\t"+name) {
			t.Errorf("help does not list %s:\n%s", name, stdout)
		}
	}
	code, stdout, _ = runCmd(t, "help", "install")
	if code != 0 || !strings.Contains(stdout, "-sys-prefix") || !strings.Contains(stdout, "-display-name") {
		t.Errorf("help install = %d:\n%s", code, stdout)
	}
}

func TestVersion(t *testing.T) {
	code, stdout, _ := runCmd(t, "version")
	first, second, _ := strings.Cut(stdout, "\n")
	want := "gotensor " + Version() + " " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
	if code != 0 || first != want {
		t.Errorf("version = %d, %q; want 0, %q first", code, stdout, want)
	}
	// Where generic code comes from: the embedded copy, $GOROOT or none.
	from, ok := strings.CutPrefix(second, "standard library's generic source: ")
	if !ok || !strings.HasSuffix(from, "\n") || !(strings.HasPrefix(from, "embedded in the kernel ("+runtime.Version()+",") ||
		strings.HasPrefix(from, "the Go toolchain's source under /") || strings.HasPrefix(from, "none: ")) {
		t.Errorf("version's second line = %q", second)
	}
}

func TestInstallAndUninstall(t *testing.T) {
	exe := useFakeBinary(t)
	data := t.TempDir()
	t.Setenv("JUPYTER_DATA_DIR", data)
	t.Setenv("JUPYTER_PATH", "")
	code, stdout, stderr := runCmd(t, "install", "--name", "gotensor-cmd-test", "--display-name", "Go test")
	if code != 0 {
		t.Fatalf("install = %d: %s", code, stderr)
	}
	dir := filepath.Join(data, "kernels", "gotensor-cmd-test")
	if !strings.Contains(stdout, dir) {
		t.Errorf("install output %q does not name %s", stdout, dir)
	}
	b, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec struct {
		Argv        []string `json:"argv"`
		DisplayName string   `json:"display_name"`
	}
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatal(err)
	}
	if strings.Join(spec.Argv, " ") != exe+" kernel -f {connection_file}" || spec.DisplayName != "Go test" {
		t.Errorf("kernel.json = %s", b)
	}

	if code, _, stderr := runCmd(t, "uninstall", "--name", "gotensor-cmd-test"); code != 0 {
		t.Fatalf("uninstall = %d: %s", code, stderr)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s survived uninstall: %v", dir, err)
	}
	code, _, stderr = runCmd(t, "uninstall", "--name", "gotensor-cmd-test")
	if code != 1 || !strings.Contains(stderr, "no kernelspec") {
		t.Errorf("second uninstall = %d, %q; want 1 and no kernelspec", code, stderr)
	}
}

func TestInstallPrefix(t *testing.T) {
	useFakeBinary(t)
	prefix := t.TempDir()
	if code, _, stderr := runCmd(t, "install", "--prefix", prefix); code != 0 {
		t.Fatalf("install --prefix = %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(prefix, "share", "jupyter", "kernels", "gotensor", "logo-64x64.png")); err != nil {
		t.Error(err)
	}
}

func TestKernelBadConnectionFile(t *testing.T) {
	code, _, stderr := runCmd(t, "kernel", "-f", filepath.Join(t.TempDir(), "missing.json"))
	if code != 1 || !strings.HasPrefix(stderr, "gotensor kernel: ") {
		t.Errorf("kernel -f missing = %d, %q; want 1 and a gotensor kernel: message", code, stderr)
	}
}
