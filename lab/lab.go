// Package lab holds the JupyterLab front end that `gotensor lab` serves:
// the npm packages of JupyterLab's 3.6 line that make it (package.json,
// with package-lock.json pinning every package), the webpack build that
// bundles them (webpack.config.js, index.js) and the jupyterlab_server
// application that serves the bundle (gotensor_lab.py, templates/). They are
// embedded in the gotensor binary, so that `gotensor lab` can assemble the
// front end wherever the binary is; lab/assemble.sh, which does the work,
// also runs on its own (scripts/setup-lab.sh).
package lab

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
)

// Version is the JupyterLab release whose packages the front end is built
// from; it matches package.json's version.
const Version = "3.6.8"

// sources are the files lab/assemble.sh copies into the build directory.
//
//go:embed package.json package-lock.json webpack.config.js index.js templates/index.html gotensor_lab.py assemble.sh
var sources embed.FS

// ErrOffline is returned by Assemble when the front end has never been
// built in the directory and the npm registry cannot be reached.
var ErrOffline = errors.New("lab: the npm registry cannot be reached and no JupyterLab front end was built before")

// Dir returns the directory the front end is built in and served from:
// $GOTENSOR_LAB_DIR, else gotensor/lab in the user's cache directory
// (~/.cache/gotensor/lab on Linux), the default of lab/assemble.sh.
func Dir() (string, error) {
	if d := os.Getenv("GOTENSOR_LAB_DIR"); d != "" {
		return filepath.Abs(d)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("lab: no cache directory for the front end (set GOTENSOR_LAB_DIR): %w", err)
	}
	return filepath.Join(cache, "gotensor", "lab"), nil
}

// Assemble makes dir hold the built front end, as lab/assemble.sh does: it
// installs the pinned npm packages and runs webpack when the sources or the
// bundle changed, and does nothing otherwise. Its progress goes to stderr.
// It needs bash, node and npm.
func Assemble(dir string, stderr io.Writer) error {
	tmp, err := os.MkdirTemp("", "gotensor-lab-")
	if err != nil {
		return fmt.Errorf("lab: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := writeSources(tmp); err != nil {
		return err
	}
	cmd := exec.Command("bash", filepath.Join(tmp, "assemble.sh"), dir)
	cmd.Stdout, cmd.Stderr = stderr, stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &exit) && exit.ExitCode() == 3:
		return ErrOffline
	case errors.As(err, &exit):
		return fmt.Errorf("lab: assembling the JupyterLab front end in %s failed (its output is above)", dir)
	default:
		return fmt.Errorf("lab: running lab/assemble.sh: %w (is bash installed?)", err)
	}
}

// writeSources writes the embedded sources into dir.
func writeSources(dir string) error {
	return fs.WalkDir(sources, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := sources.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("lab: %w", err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			return fmt.Errorf("lab: %w", err)
		}
		return nil
	})
}
