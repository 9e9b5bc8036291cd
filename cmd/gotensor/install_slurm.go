package main

import (
	"flag"
	"fmt"
	"io"
	"os/exec"

	"github.com/gotensor/gotensor/install"
	"github.com/gotensor/gotensor/remote/slurm"
)

// The name and title of the kernelspec `gotensor install --slurm` writes,
// beside the local one.
const (
	slurmName        = "gotensor-slurm"
	slurmDisplayName = "Go (gotensor) on Slurm"
)

// slurmFlags are the flags of slurm.Options, which install takes only
// with --slurm.
var slurmFlags = func() map[string]bool {
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	new(slurm.Options).AddFlags(fs)
	names := make(map[string]bool)
	fs.VisitAll(func(f *flag.Flag) { names[f.Name] = true })
	return names
}()

// slurmInstallFlags checks install's Slurm flags: they need --slurm. It
// returns the exit status when they end the command, else -1.
func slurmInstallFlags(fs *flag.FlagSet, withSlurm bool, stderr io.Writer) int {
	code := -1
	fs.Visit(func(f *flag.Flag) {
		if slurmFlags[f.Name] && !withSlurm && code < 0 {
			fmt.Fprintf(stderr, "gotensor install: --%s is a Slurm option: add --slurm to write the Slurm kernelspec\n", f.Name)
			code = 2
		}
	})
	return code
}

// setSlurmSpec makes opts the Slurm kernelspec: kernel.json runs
// `gotensor slurm` with so's flags, under its own name and title unless
// --name or --display-name say otherwise.
func setSlurmSpec(fs *flag.FlagSet, opts *install.Options, so slurm.Options, stderr io.Writer) error {
	if err := so.Validate(); err != nil {
		return err
	}
	set := make(map[string]bool)
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["name"] {
		opts.Name = slurmName
	}
	if !set["display-name"] {
		opts.DisplayName = slurmDisplayName
	}
	opts.Args = append([]string{"slurm"}, so.Args()...)
	if _, err := exec.LookPath("srun"); err != nil {
		fmt.Fprintln(stderr, "gotensor install: warning: srun is not on PATH here; the Slurm kernel needs Slurm's client commands (srun, scancel, squeue, sinfo) where Jupyter runs")
	}
	return nil
}
