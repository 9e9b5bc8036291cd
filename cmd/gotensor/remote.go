package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"

	"github.com/gotensor/gotensor/install"
	"github.com/gotensor/gotensor/remote"
)

// acceptRemote starts the node side of `gotensor kernel --remote`: it
// first replaces this process with the CUDA build beside it when cudaMode
// ("auto", "on", "off") picks that build on this machine, then reads the
// launcher's handshake from stdin and writes the ready line (address and
// ports) to stdout.
func acceptRemote(cudaMode string) (*remote.Node, error) {
	mode := install.CUDAOff
	switch cudaMode {
	case "auto":
		mode = install.CUDAAuto
	case "on":
		mode = install.CUDAOn
	case "off":
	default:
		return nil, fmt.Errorf("--cuda %q: want auto, on or off", cudaMode)
	}
	self, err := os.Executable()
	if err == nil {
		self, err = filepath.EvalSymlinks(self)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot find this binary: %w", err)
	}
	exe, _, err := install.ChooseExecutable(self, mode)
	if err != nil {
		return nil, err
	}
	if exe != self {
		// The other build chooses itself for the same mode: no loop.
		args := append([]string{exe}, os.Args[1:]...)
		if err := syscall.Exec(exe, args, os.Environ()); err != nil {
			return nil, fmt.Errorf("running %s: %w", exe, err)
		}
	}
	return remote.Accept(os.Stdin, os.Stdout)
}

// releaseIfLost gives the machine back (the launcher's release command,
// scancel for Slurm) when the kernel stopped because its launcher is gone:
// a launcher that was killed together with its srun cannot do it.
func releaseIfLost(node *remote.Node, logger *slog.Logger) {
	why, lost := node.Lost()
	if !lost {
		return
	}
	logger.Warn("the launcher is gone: releasing this machine", "why", why)
	out, err := node.Release(context.Background())
	if err != nil {
		logger.Error("releasing this machine", "err", err, "output", out)
	}
}
