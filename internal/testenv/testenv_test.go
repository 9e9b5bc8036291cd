package testenv

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMissing runs a test that calls Missing in a child process, with and
// without the variable, and reads how it ended.
func TestMissing(t *testing.T) {
	if os.Getenv("TESTENV_CHILD") == "1" {
		Missing(t, "no %s here", "frobnicator")
		return
	}
	for _, c := range []struct {
		require string
		fails   bool
		want    string
	}{
		{"", false, "--- SKIP: TestMissing"},
		{"0", false, "--- SKIP: TestMissing"},
		{"1", true, "missing (GOTENSOR_REQUIRE_TOOLS=1): no frobnicator here"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMissing$", "-test.v")
		cmd.Env = append(os.Environ(), "TESTENV_CHILD=1", RequireEnv+"="+c.require)
		out, err := cmd.CombinedOutput()
		if (err != nil) != c.fails || !strings.Contains(string(out), c.want) || !strings.Contains(string(out), "no frobnicator here") {
			t.Errorf("%s=%q: error %v, output:\n%s", RequireEnv, c.require, err, out)
		}
	}
}
