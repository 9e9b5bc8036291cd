package main

import (
	"flag"
	"fmt"
	"io"
)

func usage(w io.Writer) {
	fmt.Fprint(w, "gotensor is a Jupyter kernel for Go with a tensor library.\n\nUsage:\n\n\tgotensor <command> [arguments]\n\nCommands:\n\n")
	for _, c := range commands {
		fmt.Fprintf(w, "\t%-10s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun 'gotensor help <command>' for a command's flags.\n")
}

// runHelp prints the command list, or one command's flags.
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stdout)
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] && c.name != "help" {
			return c.run([]string{"-h"}, stdout, stdout)
		}
	}
	fmt.Fprintf(stderr, "gotensor help: unknown command %q\n", args[0])
	return 2
}

// newFlagSet returns a flag set for a subcommand that prints its usage line
// and flags to stderr and returns errors instead of exiting.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("gotensor "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: gotensor %s %s\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args into fs and returns the exit status to use when
// parsing ended the command: 0 after -h, 2 after a usage error, -1 to go on.
func parseFlags(fs *flag.FlagSet, args []string) int {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		fs.Usage()
		return 2
	}
	return -1
}
