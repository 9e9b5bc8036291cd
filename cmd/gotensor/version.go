package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/gotensor/gotensor/interp"
)

// version is set at link time with -ldflags "-X main.version=v1.2.3"; when
// empty, the module version the go command recorded is used.
var version string

// buildFeatures lists the optional parts this binary was built with
// ("cuda"); `gotensor version` prints them.
var buildFeatures []string

// Version returns gotensor's version: the link-time version, else the main
// module's version from the build information ("(devel)" for a plain
// checkout build, a pseudo-version for a VCS build).
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", "", stderr)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	fmt.Fprintf(stdout, "gotensor %s %s %s/%s", Version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	for _, f := range buildFeatures {
		fmt.Fprintf(stdout, " %s", f)
	}
	fmt.Fprintln(stdout)
	fmt.Fprintf(stdout, "standard library's generic source: %s\n", interp.GenericSource())
	return 0
}
