package interp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gotensor/gotensor/interp/internal/modules"
	"github.com/gotensor/gotensor/kernel"
)

// Modules in cells: `%go get`, an import of a package no module of the
// session provides yet (autoget), `%go list`, `%go mod` and `%go autoget`.
// The work is interp/internal/modules'; this file connects it to the
// session.

// goHelp is the part of %help about modules.
const goHelp = `  %go get MODULE[@VERSION] ...  fetch modules and load their packages (any Go module;
                    compiled, at native speed); an import of a package not loaded yet
                    does the same by itself (autoget)
  %go list          the modules this directory's notebooks added, and the packages loaded
  %go mod           show the file that records them (gotensor.mod), to re-run elsewhere
  %go autoget on|off  fetch the module of an unknown import, or not
`

// newModules returns the session's module loader; it records into
// opts.ModFile, $GOTENSOR_MODFILE, or gotensor.mod in the working directory.
func newModules(opts Options, s *Session) *modules.Loader {
	rec := opts.ModFile
	if rec == "" {
		rec = os.Getenv("GOTENSOR_MODFILE")
	}
	if rec == "" {
		if wd, err := os.Getwd(); err == nil {
			rec = filepath.Join(wd, "gotensor.mod")
		}
	}
	return modules.New(modules.Config{Record: rec, Progress: s.stdout})
}

// fetchImports makes the packages a cell imports that no table of the
// session holds importable: an import of a package of any Go module
// fetches its module and loads the package (autoget, as GoNB's %autoget),
// before the planner checks the cell.
func (s *Session) fetchImports(ctx context.Context, code string) error {
	for _, imp := range s.plan.CellImports(code) {
		if s.u.Has(imp.Path) {
			continue
		}
		pkg, err := s.mods.Import(ctx, imp.Path)
		if err == nil {
			err = s.load(pkg)
		}
		if err != nil {
			err = moduleError(err)
			if e, ok := err.(*kernel.Error); ok {
				return e
			}
			msg := fmt.Sprintf("cell line %d:%d: cannot import %q: %v", imp.Line, imp.Col, imp.Path, err)
			return &kernel.Error{Name: "CompileError", Value: msg, Traceback: strings.Split(msg, "\n")}
		}
	}
	return nil
}

// load gives a module's package to the interpreter and to the planner.
func (s *Session) load(pkg *modules.Package) error {
	if err := s.yi.Use(pkg.Symbols); err != nil {
		return err
	}
	s.u.Add(pkg.Symbols)
	return nil
}

// moduleError drops the query from a modules error: the caller names it.
func moduleError(err error) error {
	var e *modules.Error
	if errors.As(err, &e) {
		return errors.New(e.Explain())
	}
	if errors.Is(err, context.Canceled) {
		return interruptedError()
	}
	return err
}

// goMagic runs `%go get|list|mod|autoget`.
func (s *Session) goMagic(ctx context.Context, args string) error {
	sub, rest, _ := strings.Cut(args, " ")
	rest = strings.TrimSpace(rest)
	switch sub {
	case "get":
		queries := strings.Fields(rest)
		if len(queries) == 0 {
			return magicError("%%go get: name a module, with a version or not: %%go get github.com/google/uuid@v1.6.0")
		}
		pkgs, err := s.mods.Get(ctx, queries)
		for _, pkg := range pkgs {
			if uerr := s.load(pkg); uerr != nil && err == nil {
				err = uerr
			}
			fmt.Fprintf(s.stdout, "%s %s: import %q\n", pkg.Module.Path, pkg.Module.Version, pkg.Path)
		}
		if err != nil {
			return goMagicError("get", err)
		}
		for _, q := range queries {
			if !strings.Contains(q, "@") && len(pkgs) > 0 {
				fmt.Fprintf(s.stdout, "(%s took the latest version; write %%go get MODULE@VERSION to take the same one everywhere)\n", q)
			}
		}
	case "list":
		rec, err := s.mods.Recorded(ctx)
		if err != nil {
			return goMagicError("list", err)
		}
		fmt.Fprintf(s.stdout, "recorded in %s:\n", s.mods.RecordFile())
		for _, m := range rec {
			fmt.Fprintf(s.stdout, "  %s %s\n", m.Path, m.Version)
		}
		if len(rec) == 0 {
			fmt.Fprintln(s.stdout, "  nothing yet")
		}
		fmt.Fprintln(s.stdout, "loaded in this kernel:")
		for _, pkg := range modules.Loaded() {
			fmt.Fprintf(s.stdout, "  %-40s %s %s\n", pkg.Path, pkg.Module.Path, pkg.Module.Version)
		}
		fmt.Fprintf(s.stdout, "autoget: %s\n", onOff(s.mods.Autoget()))
	case "mod":
		b, err := os.ReadFile(s.mods.RecordFile())
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(s.stdout, "%s: no modules recorded yet; %%go get and imports of modules add them\n", s.mods.RecordFile())
			return nil
		} else if err != nil {
			return magicError("%%go mod: %v", err)
		}
		fmt.Fprintf(s.stdout, "%s:\n%s", s.mods.RecordFile(), b)
	case "autoget":
		switch rest {
		case "on", "off":
			s.mods.SetAutoget(rest == "on")
		case "":
		default:
			return magicError("%%go autoget: say on or off, not %q", rest)
		}
		fmt.Fprintf(s.stdout, "autoget: %s\n", onOff(s.mods.Autoget()))
	default:
		return magicError("%%go %s: unknown; %%go get, %%go list, %%go mod and %%go autoget work here, and !go %s runs the go command in the shell", sub, args)
	}
	return nil
}

// goMagicError turns what the loader returned into the cell's error.
func goMagicError(sub string, err error) error {
	if errors.Is(err, context.Canceled) {
		return interruptedError()
	}
	lines := strings.Split("%go "+sub+": "+err.Error(), "\n")
	return &kernel.Error{Name: "ModuleError", Value: lines[0], Traceback: lines}
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}
