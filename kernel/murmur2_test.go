package kernel

import (
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
)

// TestMurmur2 checks the hash that names cells against ipykernel's.
func TestMurmur2(t *testing.T) {
	codes := []string{"", "a", "ab", "abc", "abcd", "func f(a int) int {\n\treturn a\n}", "é ü 世界 x := 1"}
	script := "import json,sys\nfrom ipykernel.compiler import murmur2_x86\nfor c in json.load(sys.stdin): print(murmur2_x86(c, 0xC70F6907))\n"
	cmd := exec.Command("/usr/bin/python3", "-c", script)
	in, _ := json.Marshal(codes)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		testenv.Missing(t, "python3 with ipykernel (scripts/setup.sh installs python3-ipykernel): %v", err)
	}
	want := strings.Fields(string(out))
	for i, code := range codes {
		if got := strconv.FormatUint(uint64(murmur2([]byte(code), debugHashSeed)), 10); got != want[i] {
			t.Errorf("murmur2(%q) = %s, ipykernel %s", code, got, want[i])
		}
	}
}
