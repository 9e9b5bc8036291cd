package kernel

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestKernelKnowsNoLanguage checks xeus's split: the kernel core imports
// the wire protocol and nothing of the Go session, display or tensor
// library; the session (package interp) implements the Interpreter
// interface and imports the kernel, not the other way round.
func TestKernelKnowsNoLanguage(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(p, "github.com/gotensor/gotensor/") && p != "github.com/gotensor/gotensor/protocol" {
				t.Errorf("%s imports %s: the kernel may import only protocol of this module", f, p)
			}
		}
	}
}
