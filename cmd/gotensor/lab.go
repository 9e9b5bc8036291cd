package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/gotensor/gotensor/install"
	"github.com/gotensor/gotensor/lab"
)

// labPython is the Python that runs the server: Debian's, which has
// python3-jupyterlab-server and python3-jupyter-server.
var labPython = "/usr/bin/python3"

// runLab starts JupyterLab on 127.0.0.1 serving a directory:
//
//	gotensor lab [--port N] [--no-browser] [DIR]
//
// It installs the kernelspec ($GOTENSOR_KERNEL_NAME, default gotensor) for
// the user when Jupyter finds none of that name, assembles the front end
// (package lab) when it is not built yet, starts Debian's jupyterlab_server
// with it, prints the URL with its token and opens a browser. It runs
// until interrupted; Ctrl-C stops the server and its kernels.
func runLab(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("lab", "[--port N] [--no-browser] [DIR]", stderr)
	port := fs.Int("port", 8888, "serve on port `N` of 127.0.0.1, or the next free one after it; 0 picks any free port")
	noBrowser := fs.Bool("no-browser", false, "do not open a browser; only print the URL")
	var dir string
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		dir, args = args[0], args[1:] // the directory may come before the flags
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	rest := fs.Args()
	if dir == "" && len(rest) > 0 {
		dir, rest = rest[0], rest[1:]
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "gotensor lab: unexpected argument %q\n", rest[0])
		fs.Usage()
		return 2
	}
	if *port < 0 || *port > 65535 {
		fmt.Fprintf(stderr, "gotensor lab: --port %d is not a port number (0 to 65535)\n", *port)
		return 2
	}
	if dir == "" {
		dir = "."
	}
	root, err := filepath.Abs(dir)
	if err == nil {
		var st os.FileInfo
		if st, err = os.Stat(root); err == nil && !st.IsDir() {
			err = fmt.Errorf("%s is not a directory", root)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "gotensor lab: %v\n", err)
		return 1
	}

	if err := labServerInstalled(); err != nil {
		fmt.Fprintf(stderr, "gotensor lab: %v\n", err)
		return 1
	}
	if err := labKernelspec(stdout); err != nil {
		fmt.Fprintf(stderr, "gotensor lab: %v\n", err)
		return 1
	}
	build, err := lab.Dir()
	if err == nil {
		err = lab.Assemble(build, stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gotensor lab: %v\n", err)
		return 1
	}
	p, err := freePort(*port)
	if err != nil {
		fmt.Fprintf(stderr, "gotensor lab: %v\n", err)
		return 1
	}
	token, err := newToken()
	if err != nil {
		fmt.Fprintf(stderr, "gotensor lab: %v\n", err)
		return 1
	}

	serverArgs := []string{
		filepath.Join(build, "gotensor_lab.py"),
		"--ServerApp.ip=127.0.0.1",
		"--ServerApp.port=" + strconv.Itoa(p),
		"--ServerApp.port_retries=0",
		"--ServerApp.root_dir=" + root,
		"--ServerApp.open_browser=False",
	}
	if os.Geteuid() == 0 {
		serverArgs = append(serverArgs, "--ServerApp.allow_root=True")
	}
	server := exec.Command(labPython, serverArgs...)
	// The token goes through the environment, out of sight of ps.
	server.Env = append(os.Environ(), "JUPYTER_TOKEN="+token, "PYDEVD_DISABLE_FILE_VALIDATION=1")
	server.Stdout, server.Stderr = stderr, stderr
	if err := server.Start(); err != nil {
		fmt.Fprintf(stderr, "gotensor lab: starting the server: %v\n", err)
		return 1
	}
	done := make(chan error, 1)
	go func() { done <- server.Wait() }()

	base := fmt.Sprintf("http://127.0.0.1:%d", p)
	if err := waitReady(base, token, done); err != nil {
		server.Process.Kill()
		fmt.Fprintf(stderr, "gotensor lab: %v\n", err)
		return 1
	}
	url := base + "/lab?token=" + token
	fmt.Fprintf(stdout, "JupyterLab %s is serving %s with the kernel %q. To use it, open this URL in a browser:\n\n    %s\n\nCtrl-C stops it.\n",
		lab.Version, root, kernelName(), url)
	if !*noBrowser {
		openBrowser(url, stderr)
	}

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	select {
	case err := <-done:
		if err != nil {
			fmt.Fprintf(stderr, "gotensor lab: the server stopped: %v\n", err)
			return 1
		}
		return 0
	case <-sigs:
	}
	// jupyter_server shuts its kernels down on SIGTERM.
	server.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		server.Process.Kill()
		<-done
	}
	return 130
}

// kernelName is the kernelspec the notebooks run on.
func kernelName() string {
	if n := os.Getenv("GOTENSOR_KERNEL_NAME"); n != "" {
		return n
	}
	return install.DefaultName
}

// labServerInstalled checks that Debian's jupyterlab_server is there.
func labServerInstalled() error {
	out, err := exec.Command(labPython, "-c", "import jupyter_server, jupyterlab_server").CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s cannot import jupyterlab_server (%v: %s): install Debian's python3-jupyterlab-server "+
			"and python3-jupyter-server (scripts/setup-lab.sh does)", labPython, err, lastLine(out))
	}
	return nil
}

// labKernelspec installs the kernelspec for the user, running this binary,
// when Jupyter finds none of that name.
func labKernelspec(stdout io.Writer) error {
	name := kernelName()
	if _, err := install.Find(name); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	exe, _, err := install.ChooseExecutable(installExecutable, install.CUDAAuto)
	if err != nil {
		return err
	}
	dir, err := install.Install(install.Options{Name: name, Executable: exe, Location: install.User})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "installed kernelspec %s in %s\n", name, dir)
	return nil
}

// lastLine returns the last non-empty line of out, trimmed.
func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// freePort returns port when 127.0.0.1 has it free, else the first free
// one of the 50 after it, as Jupyter looks; port 0 means any free port.
func freePort(port int) (int, error) {
	last := port + 50
	if port == 0 || last > 65535 {
		last = 65535
	}
	for p := port; p <= last; p++ {
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			if port == 0 {
				return 0, fmt.Errorf("no free port on 127.0.0.1: %w", err)
			}
			continue
		}
		got := l.Addr().(*net.TCPAddr).Port
		l.Close()
		return got, nil
	}
	return 0, fmt.Errorf("ports %d to %d of 127.0.0.1 are all taken: choose another with --port", port, last)
}

// newToken returns a random token like Jupyter's: 48 hexadecimal digits.
func newToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making a token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// waitReady waits until the server at base answers its status API, or
// fails when the server exits or does not answer within a minute.
func waitReady(base, token string, done <-chan error) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := &http.Client{Timeout: 5 * time.Second}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/api/status", nil)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "token "+token)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case err := <-done:
			return fmt.Errorf("the JupyterLab server exited before it answered (%v); its log is above", err)
		case <-ctx.Done():
			return fmt.Errorf("the JupyterLab server did not answer on %s within a minute; its log is above", base)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// openBrowser opens url with $BROWSER or the desktop's opener, and says so
// when there is none or it fails (on a machine without a display).
func openBrowser(url string, stderr io.Writer) {
	var cands []string
	if b := os.Getenv("BROWSER"); b != "" {
		cands = append(cands, b)
	}
	cands = append(cands, "xdg-open", "sensible-browser", "x-www-browser", "open")
	for _, c := range cands {
		path, err := exec.LookPath(c)
		if err != nil {
			continue
		}
		cmd := exec.Command(path, url)
		if err := cmd.Start(); err != nil {
			continue
		}
		go func() {
			if err := cmd.Wait(); err != nil {
				fmt.Fprintf(stderr, "gotensor lab: %s could not open a browser (%v): open the URL above yourself\n", c, err)
			}
		}()
		return
	}
	fmt.Fprintln(stderr, "gotensor lab: no browser found: open the URL above yourself")
}
