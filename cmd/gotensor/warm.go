package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/gotensor/gotensor/interp"
)

// runWarm compiles what compiled cells link, once per machine: a session's
// first compiled cell then answers in about a second instead of a minute.
func runWarm(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: gotensor warm")
		return 2
	}
	start := time.Now()
	fmt.Fprintln(stdout, "gotensor warm: compiling the standard library and gotensor's packages for compiled cells (once per machine and Go release; a minute or two the first time)")
	if err := interp.WarmCompiledCells(context.Background()); err != nil {
		fmt.Fprintf(stderr, "gotensor warm: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "gotensor warm: done in %.1f s\n", time.Since(start).Seconds())
	return 0
}
