package main

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestLabUsage checks the errors gotensor lab reports before it starts
// anything. The browser tests (scripts/test-lab.sh) run the real thing.
func TestLabUsage(t *testing.T) {
	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--port", "70000"}, 2, "--port 70000 is not a port number"},
		{[]string{"--port", "-1"}, 2, "--port -1 is not a port number"},
		{[]string{"a", "b"}, 2, `unexpected argument "b"`},
		{[]string{"--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{file}, 1, file + " is not a directory"},
		{[]string{filepath.Join(t.TempDir(), "missing")}, 1, "no such file or directory"},
	} {
		code, _, stderr := runCmd(t, append([]string{"lab"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("gotensor lab %s: status %d, stderr %q; want status %d and %q", strings.Join(tc.args, " "), code, stderr, tc.code, tc.want)
		}
	}
	code, stdout, _ := runCmd(t, "help", "lab")
	if code != 0 || !strings.Contains(stdout, "usage: gotensor lab [--port N] [--no-browser] [DIR]") {
		t.Errorf("gotensor help lab: status %d, output %q", code, stdout)
	}
}

// TestFreePort checks that a taken port is passed over for the next free
// one, as Jupyter does, and that 0 gives some free port.
func TestFreePort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	taken := l.Addr().(*net.TCPAddr).Port
	if taken == 65535 {
		t.Skip("the system gave the last port")
	}
	got, err := freePort(taken)
	if err != nil {
		t.Fatal(err)
	}
	if got <= taken || got > taken+50 {
		t.Errorf("freePort(%d) = %d with %d taken; want a port after it", taken, got, taken)
	}
	l2, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(got))
	if err != nil {
		t.Errorf("freePort gave %d, which is not free: %v", got, err)
	} else {
		l2.Close()
	}
	any, err := freePort(0)
	if err != nil || any <= 0 {
		t.Errorf("freePort(0) = %d, %v", any, err)
	}
}

func TestNewToken(t *testing.T) {
	a, err := newToken()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := newToken()
	if !regexp.MustCompile(`^[0-9a-f]{48}$`).MatchString(a) || a == b {
		t.Errorf("tokens %q and %q: want two different strings of 48 hexadecimal digits", a, b)
	}
}
