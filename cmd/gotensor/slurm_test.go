package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstallSlurm writes the second kernelspec: kernel.json runs the
// launcher with the Slurm flags, under its own name and title, beside the
// local one. tests/test_slurm.py runs it on a real cluster.
func TestInstallSlurm(t *testing.T) {
	exe := useFakeBinary(t)
	// A CUDA build beside the binary: the launcher still runs the default
	// build (the login host may have no GPU); --cuda goes to the node.
	if err := os.WriteFile(exe+"-cuda", []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	prefix := t.TempDir()
	if code, _, stderr := runCmd(t, "install", "--prefix", prefix); code != 0 {
		t.Fatalf("install = %d: %s", code, stderr)
	}
	code, stdout, stderr := runCmd(t, "install", "--prefix", prefix, "--slurm", "--partition", "gpu", "--gpus=a100:1",
		"--time", "8:00:00", "--srun-arg=--reservation=class", "--srun-arg=--exclusive", "--cuda")
	if code != 0 {
		t.Fatalf("install --slurm = %d: %s", code, stderr)
	}
	kernels := filepath.Join(prefix, "share", "jupyter", "kernels")
	if !strings.Contains(stdout, filepath.Join(kernels, "gotensor-slurm")) {
		t.Errorf("install --slurm said %q", stdout)
	}
	var spec struct {
		Argv          []string `json:"argv"`
		DisplayName   string   `json:"display_name"`
		InterruptMode string   `json:"interrupt_mode"`
	}
	b, err := os.ReadFile(filepath.Join(kernels, "gotensor-slurm", "kernel.json"))
	if err == nil {
		err = json.Unmarshal(b, &spec)
	}
	if err != nil {
		t.Fatal(err)
	}
	want := []string{exe, "slurm", "--partition=gpu", "--gpus=a100:1", "--time=8:00:00",
		"--srun-arg=--reservation=class", "--srun-arg=--exclusive", "--node-cuda=on", "-f", "{connection_file}"}
	if strings.Join(spec.Argv, " ") != strings.Join(want, " ") || spec.DisplayName != "Go (gotensor) on Slurm" || spec.InterruptMode != "message" {
		t.Errorf("kernel.json = %s\nwant argv %q", b, want)
	}
	// The local kernelspec is still there, untouched.
	if b, err := os.ReadFile(filepath.Join(kernels, "gotensor", "kernel.json")); err != nil || !strings.Contains(string(b), `"kernel"`) {
		t.Errorf("the local kernelspec after install --slurm: %s, %v", b, err)
	}
	// The launcher's own flags parse what install wrote.
	if code, _, stderr := runCmd(t, append(append([]string{"slurm"}, spec.Argv[2:len(spec.Argv)-2]...), "-h")...); code != 0 {
		t.Errorf("gotensor slurm does not take install's flags %q: %s", spec.Argv[2:], stderr)
	}
}

func TestSlurmUsageErrors(t *testing.T) {
	useFakeBinary(t)
	prefix := t.TempDir()
	for i, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"install", "--prefix", prefix, "--partition", "gpu"}, "add --slurm"},
		{[]string{"install", "--prefix", prefix, "--slurm", "--node-cuda", "maybe"}, "--node-cuda"},
		{[]string{"slurm"}, "missing -f CONNECTION_FILE"},
		{[]string{"slurm", "-f", "x.json", "--srun-arg", "exclusive"}, "not an srun option"},
		{[]string{"kernel", "-f", "x.json", "--remote"}, "not both"},
	} {
		code, _, stderr := runCmd(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%d: gotensor %q = %d, %q; want 2 and %q", i, tc.args, code, stderr, tc.want)
		}
	}
}
