// Command gotensor is the Jupyter kernel for Go with a tensor library.
//
// Usage:
//
//	gotensor install [--user | --sys-prefix | --prefix DIR] [--name N] [--display-name S]
//	gotensor uninstall [--name N]
//	gotensor install --slurm [--partition P] [--gpus N] [--time T] [...]
//	gotensor kernel -f CONNECTION_FILE
//	gotensor slurm -f CONNECTION_FILE [--partition P] [--gpus N] [--time T] [...]
//	gotensor data mnist|fashion-mnist|fortunes [--dir D]
//	gotensor run NOTEBOOK.ipynb [-o OUT.ipynb] [--html OUT.html]
//	gotensor lab [--port N] [--no-browser] [DIR]
//	gotensor warm
//	gotensor version
//	gotensor help
//
// Install once, then pick "Go (gotensor)" in JupyterLab or Notebook; Jupyter
// runs `gotensor kernel` itself. Where no JupyterLab is installed,
// `gotensor lab` assembles one and starts it. On a Slurm cluster,
// `gotensor install --slurm` adds "Go (gotensor) on Slurm", whose
// launcher (`gotensor slurm`) runs the kernel on a node Slurm allocates.
package main

import (
	"fmt"
	"io"
	"os"
)

// A command is one subcommand: run gets the arguments after its name and
// returns the exit status.
type command struct {
	name, summary string
	run           func(args []string, stdout, stderr io.Writer) int
}

// commands lists the subcommands in the order help shows them.
var commands []command

func init() {
	commands = []command{
		{"install", "install the kernelspec so that Jupyter finds the kernel", runInstall},
		{"uninstall", "remove the kernelspec", runUninstall},
		{"kernel", "run the kernel (Jupyter starts this)", runKernel},
		{"slurm", "run the kernel on a node that Slurm allocates (Jupyter starts this)", runSlurm},
		{"data", "fetch a data set (mnist, fashion-mnist, fortunes)", runData},
		{"run", "execute a notebook without Jupyter and write the executed copy", runRun},
		{"lab", "start JupyterLab on 127.0.0.1 with the kernel", runLab},
		{"warm", "compile, once per machine, what compiled cells link", runWarm},
		{"version", "print the version", runVersion},
		{"help", "show this help", runHelp},
	}
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run dispatches args to a subcommand and returns the exit status: 0 on
// success, 1 when the command failed, 2 for a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		return runHelp(nil, stdout, stderr)
	case "-version", "--version":
		return runVersion(nil, stdout, stderr)
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "gotensor: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}
