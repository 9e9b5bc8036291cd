package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestChooseExecutable(t *testing.T) {
	dir := t.TempDir()
	cpu, gpu := filepath.Join(dir, "gotensor"), filepath.Join(dir, "gotensor-cuda")
	lone := filepath.Join(t.TempDir(), "gotensor")         // no CUDA build beside it
	loneGPU := filepath.Join(t.TempDir(), "gotensor-cuda") // no default build beside it
	for _, p := range []string{cpu, gpu, lone, loneGPU} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	old := hasGPU
	t.Cleanup(func() { hasGPU = old })
	for i, c := range []struct {
		exe      string
		mode     CUDAMode
		gpu      bool
		want     string
		wantCUDA bool
		err      string
	}{
		{cpu, CUDAAuto, true, gpu, true, ""},
		{cpu, CUDAAuto, false, cpu, false, ""},
		{lone, CUDAAuto, true, lone, false, ""},
		{cpu, CUDAOn, false, gpu, true, ""},
		{lone, CUDAOn, true, "", false, "go build -tags cuda -o " + lone + "-cuda ./cmd/gotensor"},
		{cpu, CUDAOff, true, cpu, false, ""},
		{gpu, CUDAAuto, false, gpu, true, ""},
		{gpu, CUDAOff, true, cpu, false, ""},
		{loneGPU, CUDAOff, true, "", false, "no default build"},
	} {
		hasGPU = func() bool { return c.gpu }
		got, isCUDA, err := ChooseExecutable(c.exe, c.mode)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("case %d: error %v, want one containing %q", i, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want || isCUDA != c.wantCUDA {
			t.Errorf("case %d: ChooseExecutable(%s, %d) = %s, %v, %v; want %s, %v", i, c.exe, c.mode, got, isCUDA, err, c.want, c.wantCUDA)
		}
	}
}
