package modules

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// recordHeader starts a new record file. The file is in go.mod syntax, so
// the go command reads and edits it (`go mod edit`), but it is not a Go
// module: its name keeps the go command from taking the directory for one.
const recordHeader = `// The Go modules that notebooks in this directory added with %%go get or by
// importing them, at the versions they took. gotensor writes this file; keep
// it beside the notebooks and they import the same versions on another
// machine. In a notebook, %%go mod shows it.
module notebooks

go %s
`

// readRecord returns the modules the record file requires; none when
// there is no record file.
func (l *Loader) readRecord(ctx context.Context) ([]Module, error) {
	if l.cfg.Record == "" {
		return nil, nil
	}
	if _, err := os.Stat(l.cfg.Record); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return l.readModFile(ctx, l.cfg.Record)
}

// readModFile returns the requirements of a file in go.mod syntax.
func (l *Loader) readModFile(ctx context.Context, path string) ([]Module, error) {
	out, err := l.g.run(ctx, "", nil, "mod", "edit", "-json", path)
	if err != nil {
		return nil, fmt.Errorf("modules: reading %s: %s", path, stderrOf(err))
	}
	var f struct{ Require []Module }
	if err := json.Unmarshal(out, &f); err != nil {
		return nil, fmt.Errorf("modules: reading %s: %v", path, err)
	}
	return f.Require, nil
}

// record writes m into the record file, creating the file when needed.
func (l *Loader) record(ctx context.Context, m Module) error {
	if l.cfg.Record == "" || m.Version == "" {
		return nil
	}
	if _, err := os.Stat(l.cfg.Record); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(l.cfg.Record), 0o755); err != nil {
			return fmt.Errorf("modules: recording %s: %v", m, err)
		}
		v := strings.TrimPrefix(l.g.version, "go")
		if err := os.WriteFile(l.cfg.Record, fmt.Appendf(nil, recordHeader, v), 0o644); err != nil {
			return fmt.Errorf("modules: recording %s: %v", m, err)
		}
	}
	if _, err := l.g.run(ctx, "", nil, "mod", "edit", "-require="+m.Path+"@"+m.Version, l.cfg.Record); err != nil {
		return fmt.Errorf("modules: recording %s in %s: %s", m, l.cfg.Record, stderrOf(err))
	}
	return nil
}

// provider returns the module of mods that provides import path p: the
// one with the longest path that is p or a parent of p.
func provider(mods []Module, p string) (Module, bool) {
	var best Module
	for _, m := range mods {
		if (p == m.Path || strings.HasPrefix(p, m.Path+"/")) && len(m.Path) > len(best.Path) {
			best = m
		}
	}
	return best, best.Path != ""
}
