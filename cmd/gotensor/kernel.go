package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"

	"github.com/gotensor/gotensor/interp"
	"github.com/gotensor/gotensor/kernel"
	"github.com/gotensor/gotensor/protocol"
	"github.com/gotensor/gotensor/remote"
)

func runKernel(args []string, stdout, stderr io.Writer) int {
	// The session points fd 1 and os.Stderr at the notebook to catch what
	// compiled code writes there; the log keeps the terminal's stderr, and
	// fd 2 stays there too, so that a Go runtime fatal error (which ends
	// the process) writes its reason and stacks to the log.
	logFile := dupStderr()
	logger := slog.New(slog.NewTextHandler(logFile, &slog.HandlerOptions{Level: logLevel()})).With("pid", os.Getpid())

	fs := newFlagSet("kernel", "-f CONNECTION_FILE | --remote [--cuda auto|on|off]", stderr)
	connFile := fs.String("f", "", "the connection `file` Jupyter wrote (kernel.json passes {connection_file})")
	remoteMode := fs.Bool("remote", false, "serve a launcher on another machine (gotensor slurm): read the connection from stdin, bind this machine's address toward the launcher, stop when the launcher is gone")
	cudaMode := fs.String("cuda", "off", "with --remote: auto runs the CUDA build beside this binary where this machine has a GPU, on insists on it")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if *connFile == "" && !*remoteMode {
		fmt.Fprintln(stderr, "gotensor kernel: missing -f CONNECTION_FILE; Jupyter starts the kernel (run 'gotensor install' first)")
		return 2
	}
	if *connFile != "" && *remoteMode {
		fmt.Fprintln(stderr, "gotensor kernel: use -f or --remote, not both: --remote reads the connection from its launcher on stdin")
		return 2
	}
	var conn *protocol.ConnectionInfo
	var node *remote.Node
	var err error
	if *remoteMode {
		if node, err = acceptRemote(*cudaMode); err == nil {
			conn = node.Conn
		}
	} else {
		conn, err = protocol.ReadConnectionFile(*connFile)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gotensor kernel: %v\n", err)
		return 1
	}

	lang := goLanguage{newSessionStart(interp.Options{CaptureStdio: true, Compile: true})}
	defer lang.start.close()

	// SIGTERM and SIGHUP end the kernel cleanly; the kernel package handles
	// SIGINT as an interrupt.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	if node != nil {
		ctx = node.Watch(ctx)
		defer releaseIfLost(node, logger)
	}
	logger.Info("gotensor kernel starting", "version", Version(), "connection_file", *connFile, "listen", conn.Endpoint(conn.ShellPort))
	restart, err := kernel.Run(ctx, kernel.Config{
		Conn:                  conn,
		Interp:                lang,
		Logger:                logger,
		Implementation:        "gotensor",
		ImplementationVersion: Version(),
		LanguageVersion:       strings.TrimPrefix(runtime.Version(), "go"),
		Banner:                banner(),
		HelpLinks: []kernel.HelpLink{
			{Text: "gotensor", URL: "https://github.com/gotensor/gotensor"},
			{Text: "Go standard library", URL: "https://pkg.go.dev/std"},
			{Text: "A Tour of Go", URL: "https://go.dev/tour/"},
			{Text: "Go language specification", URL: "https://go.dev/ref/spec"},
		},
		Ready: lang.start.begin,
	})
	if err != nil {
		logger.Error("kernel stopped", "err", err)
		return 1
	}
	logger.Info("gotensor kernel stopped", "restart", restart)
	return 0
}

// banner is the text a console front end shows when it connects.
func banner() string {
	return fmt.Sprintf("gotensor %s: Go %s in yaegi, with tensors; fmt and math are imported.",
		Version(), strings.TrimPrefix(runtime.Version(), "go"))
}

// logLevel reads the log level from $GOTENSOR_LOG: debug, info (the
// default), warn or error.
func logLevel() slog.Level {
	switch strings.ToLower(os.Getenv("GOTENSOR_LOG")) {
	case "debug":
		return slog.LevelDebug
	case "warn", "warning":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	}
	return slog.LevelInfo
}
