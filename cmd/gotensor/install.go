package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/gotensor/gotensor/install"
	"github.com/gotensor/gotensor/remote/slurm"
)

// installExecutable is the binary that kernel.json runs; empty means the
// running one. Tests set it, since a test binary cannot be installed.
var installExecutable string

func runInstall(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("install", "[--user | --sys-prefix | --prefix DIR] [--name N] [--display-name S] [--cuda | --cpu] [--slurm [--partition P] [--gpus N] [--time T] ...]", stderr)
	user := fs.Bool("user", false, "install for the current user: $JUPYTER_DATA_DIR or ~/.local/share/jupyter (the default)")
	sysPrefix := fs.Bool("sys-prefix", false, "install into the Python environment that runs Jupyter (/usr on Debian; needs root)")
	prefix := fs.String("prefix", "", "install into `DIR`/share/jupyter/kernels")
	name := fs.String("name", install.DefaultName, "kernelspec `name`")
	displayName := fs.String("display-name", install.DefaultDisplayName, "`title` shown in Jupyter's launcher")
	cuda := fs.Bool("cuda", false, "run the CUDA build (gotensor-cuda beside this binary) even where no GPU is found; by default it runs where a GPU is present")
	cpu := fs.Bool("cpu", false, "run the default build, without CUDA, even where a GPU is present")
	slurmSpec := fs.Bool("slurm", false, "write the kernelspec \""+slurmDisplayName+"\" (name "+slurmName+"), whose kernel runs on a node that Slurm allocates, with the Slurm flags below")
	var so slurm.Options
	so.AddFlags(fs)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if code := slurmInstallFlags(fs, *slurmSpec, stderr); code >= 0 {
		return code
	}
	mode := install.CUDAAuto
	switch {
	case *cuda && *cpu:
		fmt.Fprintln(stderr, "gotensor install: use only one of --cuda and --cpu")
		return 2
	case *cuda:
		mode = install.CUDAOn
	case *cpu:
		mode = install.CUDAOff
	}
	if *slurmSpec {
		// The launcher runs where Jupyter does, GPU or not: the default
		// build; the node chooses its own (--node-cuda).
		switch mode {
		case install.CUDAOn:
			so.NodeCUDA = "on"
		case install.CUDAOff:
			so.NodeCUDA = "off"
		}
		mode = install.CUDAOff
	}
	exe, isCUDA, err := install.ChooseExecutable(installExecutable, mode)
	if err != nil {
		fmt.Fprintf(stderr, "gotensor %v\n", err)
		return 1
	}
	opts := install.Options{
		Name:        *name,
		DisplayName: *displayName,
		Executable:  exe,
		Location:    install.User,
	}
	if *slurmSpec {
		if err := setSlurmSpec(fs, &opts, so, stderr); err != nil {
			fmt.Fprintf(stderr, "gotensor install: %v\n", err)
			return 2
		}
	}
	chosen := 0
	if *user {
		chosen++
	}
	if *sysPrefix {
		opts.Location = install.SysPrefix
		chosen++
	}
	if *prefix != "" {
		opts.Location, opts.Prefix = install.Prefix, *prefix
		chosen++
	}
	if chosen > 1 {
		fmt.Fprintln(stderr, "gotensor install: use only one of --user, --sys-prefix and --prefix")
		return 2
	}
	dir, err := install.Install(opts)
	if err != nil {
		fmt.Fprintf(stderr, "gotensor %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "installed kernelspec %s in %s\n", filepath.Base(dir), dir)
	if isCUDA {
		fmt.Fprintf(stdout, "the kernel runs the CUDA build %s\n", exe)
	}
	return 0
}

func runUninstall(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("uninstall", "[--name N]", stderr)
	name := fs.String("name", install.DefaultName, "kernelspec `name`")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	dir, err := install.Uninstall(*name)
	if err != nil {
		fmt.Fprintf(stderr, "gotensor %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "removed kernelspec %s from %s\n", *name, dir)
	return 0
}
