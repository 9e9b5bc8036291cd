package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstallCUDA installs with --cuda where the CUDA build sits beside the
// binary: kernel.json runs it. --cuda without it fails and says how to
// build it.
func TestInstallCUDA(t *testing.T) {
	exe := useFakeBinary(t)
	prefix := t.TempDir()
	code, _, stderr := runCmd(t, "install", "--prefix", prefix, "--cuda")
	if code != 1 || !strings.Contains(stderr, "go build -tags cuda") {
		t.Errorf("install --cuda without a CUDA build = %d, %q; want 1 and how to build it", code, stderr)
	}
	if err := os.WriteFile(exe+"-cuda", []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "install", "--prefix", prefix, "--cuda")
	if code != 0 || !strings.Contains(stdout, "CUDA build "+exe+"-cuda") {
		t.Fatalf("install --cuda = %d, %q, %q", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(prefix, "share", "jupyter", "kernels", "gotensor", "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"`+exe+`-cuda"`) {
		t.Errorf("kernel.json after install --cuda does not run %s-cuda:\n%s", exe, b)
	}
	if code, _, _ := runCmd(t, "install", "--prefix", prefix, "--cuda", "--cpu"); code != 2 {
		t.Errorf("install --cuda --cpu = %d, want 2", code)
	}
}
