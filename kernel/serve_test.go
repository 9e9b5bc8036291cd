package kernel

import (
	"context"
	"flag"
	"log/slog"
	"os"
	"testing"

	"github.com/gotensor/gotensor/protocol"
)

var connectionFile = flag.String("connection-file", "", "serve the fake interpreter on this connection file until shutdown_request (used by testdata/conformance.py)")

// TestServeConnectionFile runs Run with the fake interpreter as a real
// kernel process that jupyter_client can start, so that
// testdata/conformance.py can check the wire protocol with
// jupyter_kernel_test. Without -connection-file it is skipped.
func TestServeConnectionFile(t *testing.T) {
	if *connectionFile == "" {
		t.Skip("needs -connection-file; see testdata/conformance.py")
	}
	conn, err := protocol.ReadConnectionFile(*connectionFile)
	if err != nil {
		t.Fatal(err)
	}
	restart, err := Run(context.Background(), Config{
		Conn: conn, Interp: fakeInterp{},
		Logger:         slog.New(slog.NewTextHandler(os.Stderr, nil)),
		Implementation: "gotensor-fake", LanguageVersion: "1.26",
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("shut down, restart=%v", restart)
}
