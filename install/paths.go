package install

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Location names a family of kernelspec directories, as the flags of
// `jupyter kernelspec install` do.
type Location int

const (
	// User is the current user's Jupyter data directory (--user).
	User Location = iota
	// SysPrefix is the share/jupyter directory of the Python environment
	// that runs Jupyter (--sys-prefix); /usr for Debian's packages.
	SysPrefix
	// Prefix is the share/jupyter directory below Options.Prefix (--prefix).
	Prefix
)

// String returns the command-line flag that selects l.
func (l Location) String() string {
	switch l {
	case User:
		return "--user"
	case SysPrefix:
		return "--sys-prefix"
	case Prefix:
		return "--prefix"
	}
	return fmt.Sprintf("Location(%d)", int(l))
}

// UserDataDir returns the current user's Jupyter data directory:
// $JUPYTER_DATA_DIR when set, else $XDG_DATA_HOME/jupyter, else
// ~/.local/share/jupyter, as jupyter_core computes it on Linux.
func UserDataDir() (string, error) {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return filepath.Abs(d)
	}
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		return filepath.Join(x, "jupyter"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("install: no home directory for the user kernelspec (set JUPYTER_DATA_DIR or use --prefix): %w", err)
	}
	return filepath.Join(home, ".local", "share", "jupyter"), nil
}

// SysPrefixDir returns the Python sys.prefix of the environment that runs
// Jupyter: the interpreter named in the `jupyter` script on PATH, else
// /usr/bin/python3. It returns /usr when neither answers, which is right for
// Debian's packaged Jupyter.
func SysPrefixDir() string {
	var pythons []string
	if j, err := exec.LookPath("jupyter"); err == nil {
		if py := shebangInterpreter(j); py != "" {
			pythons = append(pythons, py)
		}
	}
	pythons = append(pythons, "/usr/bin/python3")
	for _, py := range pythons {
		if p := pythonPrefix(py); p != "" {
			return p
		}
	}
	return "/usr"
}

// shebangInterpreter returns the program that the #! line of the script at
// path runs, resolving "/usr/bin/env NAME" through PATH; "" when there is none.
func shebangInterpreter(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "#!") {
		return ""
	}
	fields := strings.Fields(strings.TrimPrefix(line, "#!"))
	if len(fields) == 0 {
		return ""
	}
	prog := fields[0]
	if filepath.Base(prog) == "env" {
		if len(fields) < 2 {
			return ""
		}
		p, err := exec.LookPath(fields[1])
		if err != nil {
			return ""
		}
		prog = p
	}
	if !strings.Contains(filepath.Base(prog), "python") {
		return ""
	}
	return prog
}

// pythonPrefix runs py to print its sys.prefix; "" when that fails.
func pythonPrefix(py string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, py, "-c", "import sys; print(sys.prefix)").Output()
	if err != nil {
		return ""
	}
	p := string(bytes.TrimSpace(out))
	if !filepath.IsAbs(p) {
		return ""
	}
	return p
}

// KernelsDir returns the "kernels" directory that a Location selects.
// prefix is used only with Prefix, where it must not be empty.
func KernelsDir(loc Location, prefix string) (string, error) {
	switch loc {
	case User:
		d, err := UserDataDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(d, "kernels"), nil
	case SysPrefix:
		return filepath.Join(SysPrefixDir(), "share", "jupyter", "kernels"), nil
	case Prefix:
		if prefix == "" {
			return "", errors.New("install: --prefix needs a directory, e.g. --prefix /opt/jupyter")
		}
		abs, err := filepath.Abs(prefix)
		if err != nil {
			return "", fmt.Errorf("install: prefix %q: %w", prefix, err)
		}
		return filepath.Join(abs, "share", "jupyter", "kernels"), nil
	}
	return "", fmt.Errorf("install: unknown location %v", loc)
}

// SearchPath returns the "kernels" directories Jupyter searches, highest
// priority first: each entry of $JUPYTER_PATH, the user data directory, the
// Python environment's share/jupyter unless it is a system one, then
// /usr/local/share/jupyter and /usr/share/jupyter. Duplicates are removed.
func SearchPath() []string {
	var roots []string
	if jp := os.Getenv("JUPYTER_PATH"); jp != "" {
		for _, p := range filepath.SplitList(jp) {
			if p != "" {
				roots = append(roots, p)
			}
		}
	}
	if d, err := UserDataDir(); err == nil {
		roots = append(roots, d)
	}
	system := []string{"/usr/local/share/jupyter", "/usr/share/jupyter"}
	if env := filepath.Join(SysPrefixDir(), "share", "jupyter"); !slices.Contains(system, env) {
		roots = append(roots, env)
	}
	roots = append(roots, system...)
	seen := make(map[string]bool)
	var dirs []string
	for _, r := range roots {
		d := filepath.Join(filepath.Clean(r), "kernels")
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs
}
