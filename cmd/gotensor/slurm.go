package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/gotensor/gotensor/protocol"
	"github.com/gotensor/gotensor/remote"
	"github.com/gotensor/gotensor/remote/slurm"
)

// runSlurm is the launcher that a "Go (gotensor) on Slurm" kernelspec
// runs in place of the kernel:
//
//	gotensor slurm -f CONNECTION_FILE [--partition P] [--gpus N] [--time T] ...
//
// It asks Slurm for an allocation with srun, runs `gotensor kernel
// --remote` on the node it gets, and forwards the connection file's five
// ports there until the kernel ends. SIGINT interrupts the kernel; SIGTERM
// and SIGHUP cancel the job. Its log (the job id, the queue wait, why a
// kernel could not start) goes to stderr, which Jupyter's server shows.
func runSlurm(args []string, stdout, stderr io.Writer) int {
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: logLevel()})).With("launcher", "slurm", "pid", os.Getpid())
	fs := newFlagSet("slurm", "-f CONNECTION_FILE [--partition P] [--gpus N] [--time T] [--cpus N] [--mem M] [...]", stderr)
	connFile := fs.String("f", "", "the connection `file` Jupyter wrote (kernel.json passes {connection_file})")
	var o slurm.Options
	o.AddFlags(fs)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if *connFile == "" {
		fmt.Fprintln(stderr, "gotensor slurm: missing -f CONNECTION_FILE; Jupyter starts the launcher (run 'gotensor install --slurm' first)")
		return 2
	}
	if err := o.Validate(); err != nil {
		fmt.Fprintf(stderr, "gotensor %v\n", err)
		return 2
	}
	conn, err := protocol.ReadConnectionFile(*connFile)
	if err != nil {
		fmt.Fprintf(stderr, "gotensor slurm: %v\n", err)
		return 1
	}
	if o.Binary == "" {
		exe, err := os.Executable()
		if err == nil {
			exe, err = filepath.EvalSymlinks(exe)
		}
		if err != nil {
			fmt.Fprintf(stderr, "gotensor slurm: cannot find this binary's path for the nodes (give it with --node-binary): %v\n", err)
			return 1
		}
		o.Binary = exe
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)

	logger.Info("gotensor slurm starting", "version", Version(), "connection_file", *connFile, "node_binary", o.Binary)
	err = remote.Launch(ctx, remote.Config{
		Conn:       conn,
		Starter:    slurm.NewStarter(o, logger, stderr),
		Node:       o.Node(),
		Log:        logger,
		Interrupts: interrupts,
	})
	if err != nil {
		logger.Error("gotensor slurm stopped", "err", err)
		fmt.Fprintf(stderr, "gotensor slurm: %v\n", err)
		return 1
	}
	logger.Info("gotensor slurm stopped")
	return 0
}
