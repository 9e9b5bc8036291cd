package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// DefaultName is the kernelspec name used when Options.Name is empty.
const DefaultName = "gotensor"

// DefaultDisplayName is the launcher title used when Options.DisplayName is
// empty.
const DefaultDisplayName = "Go (gotensor)"

// KernelSpec is the content of kernel.json, as Jupyter's kernelspec format
// defines it.
type KernelSpec struct {
	// Argv starts the kernel; Jupyter replaces {connection_file} with the
	// path of the connection file it wrote.
	Argv        []string `json:"argv"`
	DisplayName string   `json:"display_name"`
	Language    string   `json:"language"`
	// InterruptMode is "message": Jupyter interrupts with an
	// interrupt_request on the control channel rather than SIGINT.
	InterruptMode string            `json:"interrupt_mode"`
	Env           map[string]string `json:"env,omitempty"`
	Metadata      map[string]any    `json:"metadata"`
}

// Options says what Install writes and where.
type Options struct {
	Name        string   // kernelspec name; DefaultName when empty
	DisplayName string   // launcher title; DefaultDisplayName when empty
	Location    Location // User (the default), SysPrefix or Prefix
	Prefix      string   // the directory for Location Prefix
	// Executable is the gotensor binary that kernel.json runs. Empty means
	// the running program (os.Executable). It is made absolute.
	Executable string
	// Args are the subcommand and flags that kernel.json runs Executable
	// with, before "-f {connection_file}": nil means "kernel", the kernel
	// itself; {"slurm", "--partition=gpu"} is a launcher.
	Args []string
}

// validName matches the kernelspec names Jupyter accepts.
var validName = regexp.MustCompile(`^[a-z0-9._-]+$`)

// checkName lower-cases name, as Jupyter does, and rejects names Jupyter
// would not find.
func checkName(name string) (string, error) {
	if name == "" {
		return DefaultName, nil
	}
	n := strings.ToLower(name)
	if !validName.MatchString(n) {
		return "", fmt.Errorf("install: kernel name %q: use only letters, digits, '.', '_' and '-'", name)
	}
	return n, nil
}

// Spec returns the kernel.json content for the gotensor binary at exe.
func Spec(exe, displayName string) KernelSpec {
	if displayName == "" {
		displayName = DefaultDisplayName
	}
	return KernelSpec{
		Argv:          []string{exe, "kernel", "-f", "{connection_file}"},
		DisplayName:   displayName,
		Language:      "go",
		InterruptMode: "message",
		Metadata:      map[string]any{"debugger": true},
	}
}

// executable returns the absolute path of the gotensor binary to install,
// refusing the throw-away binaries of `go run`.
func executable(exe string) (string, error) {
	if exe == "" {
		var err error
		exe, err = os.Executable()
		if err != nil {
			return "", fmt.Errorf("install: cannot find the running binary: %w", err)
		}
	}
	abs, err := filepath.Abs(exe)
	if err != nil {
		return "", fmt.Errorf("install: binary %q: %w", exe, err)
	}
	if strings.Contains(abs, string(filepath.Separator)+"go-build") {
		return "", fmt.Errorf("install: %s is a temporary binary of `go run` that disappears when it exits; build one first: go build -o bin/gotensor ./cmd/gotensor && bin/gotensor install", abs)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("install: binary: %w", err)
	}
	if fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("install: %s is not an executable file", abs)
	}
	return abs, nil
}

// Install writes the kernelspec that opts describes and returns its
// directory. An existing kernelspec of the same name at that place is
// replaced.
func Install(opts Options) (string, error) {
	name, err := checkName(opts.Name)
	if err != nil {
		return "", err
	}
	exe, err := executable(opts.Executable)
	if err != nil {
		return "", err
	}
	kernels, err := KernelsDir(opts.Location, opts.Prefix)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(kernels, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrPermission) && opts.Location != User {
			return "", fmt.Errorf("install: %w (run as root, or install with --user)", err)
		}
		return "", fmt.Errorf("install: %w", err)
	}
	spec := Spec(exe, opts.DisplayName)
	if opts.Args != nil {
		spec.Argv = append(append([]string{exe}, opts.Args...), "-f", "{connection_file}")
	}
	js, err := json.MarshalIndent(spec, "", " ")
	if err != nil {
		return "", fmt.Errorf("install: encoding kernel.json: %w", err)
	}
	files := map[string][]byte{"kernel.json": append(js, '\n')}
	for _, size := range []int{32, 64} {
		png, err := LogoPNG(size)
		if err != nil {
			return "", err
		}
		files[fmt.Sprintf("logo-%dx%d.png", size, size)] = png
	}
	for file, data := range files {
		if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
			return "", fmt.Errorf("install: %w", err)
		}
	}
	return dir, nil
}

// Find returns the directory of the kernelspec named name that Jupyter would
// use: the first match in SearchPath. It returns an error wrapping
// fs.ErrNotExist when there is none.
func Find(name string) (string, error) {
	n, err := checkName(name)
	if err != nil {
		return "", err
	}
	for _, kernels := range SearchPath() {
		dir := filepath.Join(kernels, n)
		if _, err := os.Stat(filepath.Join(dir, "kernel.json")); err == nil {
			return dir, nil
		}
	}
	return "", fmt.Errorf("install: no kernelspec %q in %s: %w", n, strings.Join(SearchPath(), ", "), fs.ErrNotExist)
}

// Uninstall removes the kernelspec named name that Jupyter would use (see
// Find) and returns the removed directory. Run it again to remove a copy
// that was shadowed by the first.
func Uninstall(name string) (string, error) {
	dir, err := Find(name)
	if err != nil {
		return "", err
	}
	if err := os.RemoveAll(dir); err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return "", fmt.Errorf("install: %w (run as root to remove a system kernelspec)", err)
		}
		return "", fmt.Errorf("install: %w", err)
	}
	return dir, nil
}
