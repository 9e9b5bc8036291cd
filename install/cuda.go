package install

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// CUDASuffix ends the name of gotensor's CUDA build, which sits beside the
// default one: bin/gotensor-cuda next to bin/gotensor. Build it on a
// machine with the CUDA toolkit:
//
//	go build -tags cuda -o bin/gotensor-cuda ./cmd/gotensor
const CUDASuffix = "-cuda"

// A CUDAMode says whether kernel.json runs gotensor's CUDA build.
type CUDAMode int

const (
	// CUDAAuto runs the CUDA build when it sits beside the binary and
	// this machine has a GPU (GPUPresent).
	CUDAAuto CUDAMode = iota
	// CUDAOn runs the CUDA build, GPU or not (--cuda).
	CUDAOn
	// CUDAOff runs the default build (--cpu).
	CUDAOff
)

// hasGPU is GPUPresent; tests replace it.
var hasGPU = GPUPresent

// GPUPresent reports whether this machine has an NVIDIA GPU and driver: a
// GPU's device node (/dev/nvidia0, /dev/nvidia1 ...) exists, or
// `nvidia-smi -L` lists a GPU. The control device /dev/nvidiactl alone does
// not count: it can exist without a GPU. The CUDA build must run only
// where a GPU is, since the CUDA library it links exits the process when
// it finds none.
func GPUPresent() bool {
	if nodes, _ := filepath.Glob("/dev/nvidia[0-9]*"); len(nodes) > 0 {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "nvidia-smi", "-L").Output()
	return err == nil && strings.Contains(string(out), "GPU")
}

// ChooseExecutable returns the gotensor binary that kernel.json should run,
// given the binary exe (empty: the running one) and mode, and whether it is
// the CUDA build. In CUDAAuto mode that is exe's CUDA build (exe's name +
// CUDASuffix, in exe's directory) when it exists and GPUPresent, else exe;
// CUDAOn insists on the CUDA build and CUDAOff on the default one, and
// each says how to build the one that is missing. A binary whose name ends
// in CUDASuffix is itself the CUDA build.
func ChooseExecutable(exe string, mode CUDAMode) (path string, cuda bool, err error) {
	if exe == "" {
		if exe, err = os.Executable(); err != nil {
			return "", false, fmt.Errorf("install: cannot find the running binary: %w", err)
		}
	}
	dir, base := filepath.Split(exe)
	if strings.HasSuffix(base, CUDASuffix) {
		cpu := filepath.Join(dir, strings.TrimSuffix(base, CUDASuffix))
		if mode != CUDAOff {
			return exe, true, nil
		}
		if !isExecutable(cpu) {
			return "", false, fmt.Errorf("install: --cpu: no default build %s beside %s; build it: go build -o %s ./cmd/gotensor", cpu, exe, cpu)
		}
		return cpu, false, nil
	}
	gpu := exe + CUDASuffix
	switch mode {
	case CUDAOff:
		return exe, false, nil
	case CUDAOn:
		if !isExecutable(gpu) {
			return "", false, fmt.Errorf("install: --cuda: no CUDA build %s beside %s; build it on a machine with the CUDA toolkit: go build -tags cuda -o %s ./cmd/gotensor", gpu, exe, gpu)
		}
		return gpu, true, nil
	}
	if isExecutable(gpu) && hasGPU() {
		return gpu, true, nil
	}
	return exe, false, nil
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode().Perm()&0o111 != 0
}
