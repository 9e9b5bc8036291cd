package modules

import (
	"context"
	"slices"
)

// Host is what a plugin built for the running binary must agree with (see
// "What must match" in the package doc), for other builders of plugins:
// the compiled cells.
type Host struct {
	GoVersion string   // runtime.Version()
	Flags     []string // go build flags to repeat: -trimpath=true, -tags=cuda, -race=true
	Env       []string // environment to set: GOTOOLCHAIN, CGO_ENABLED, CGO_* flags, GOARCH...
	Trimpath  bool     // built with -trimpath
	NoPlugins string   // why the binary cannot open plugins; "" when it can
}

// ThisHost describes the running binary.
func ThisHost() Host {
	h := thisHost()
	env := []string{"GO111MODULE=on", "GOWORK=off", "CGO_ENABLED=1"}
	env = append(env, h.env...)
	return Host{GoVersion: h.goVersion, Flags: slices.Clone(h.flags), Env: env, Trimpath: h.trimpath, NoPlugins: h.noPlugins}
}

// FindGoCommand is GoCommand without running it: the go command's path and
// environment, for a caller that may need no go command at all (a cell
// built before opens from its cache) and learns on its first use whether
// it works.
func FindGoCommand() (path string, env []string, err error) {
	g, err := findGoCmd(thisHost())
	if err != nil {
		return "", nil, err
	}
	return g.path, g.forced, nil
}

// GoCommand returns the go command that builds plugins for this binary: go
// on PATH, else the one of the toolchain that built it, with the
// environment that makes it use the binary's toolchain (GOTOOLCHAIN).
func GoCommand(ctx context.Context) (path string, env []string, err error) {
	h := thisHost()
	g, err := newGoCmd(ctx, h)
	if err != nil {
		return "", nil, err
	}
	return g.path, g.forced, nil
}
