// Package testenv is for tests that need something this machine may lack:
// a program (PyTorch, NumPy, npm, the go command, Jupyter), a library
// (OpenBLAS) or data (MNIST). Without it such a test skips and says what
// to install; with GOTENSOR_REQUIRE_TOOLS=1, which scripts/test.sh sets
// after scripts/setup.sh has installed everything, the skip is a failure,
// so that CI cannot pass by skipping. The Python tests (tests/conftest.py)
// read the same variable.
package testenv

import (
	"os"
	"testing"
)

// RequireEnv is the environment variable that turns a missing tool into a
// test failure when it is "1".
const RequireEnv = "GOTENSOR_REQUIRE_TOOLS"

// Required reports whether a missing tool fails the tests.
func Required() bool { return os.Getenv(RequireEnv) == "1" }

// Missing reports that something the test needs is missing, in words that
// say how to get it: it skips the test, or fails it when Required.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if Required() {
		t.Fatalf("missing ("+RequireEnv+"=1): "+format, args...)
	}
	t.Skipf(format, args...)
}
