package nbrun

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteMatchesNbformat checks that reading and writing a notebook that
// nbformat's own writer produced gives the same bytes.
func TestWriteMatchesNbformat(t *testing.T) {
	want, err := os.ReadFile("testdata/tiny.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	nb, err := Read(bytes.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := Write(&got, nb); err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("written notebook differs from nbformat's:\n%s", got.String())
	}
}

func TestReadOlderMinor(t *testing.T) {
	const src = `{"nbformat": 4, "nbformat_minor": 2, "metadata": {"n": 12345678901234567890},
	"cells": [
	 {"cell_type": "code", "metadata": {}, "source": "a := 1\nb := 2\n", "execution_count": 3,
	  "outputs": [{"output_type": "stream", "name": "stdout", "text": ["x\n", "y"]},
	              {"output_type": "execute_result", "execution_count": 3, "metadata": {},
	               "data": {"text/plain": ["1\n", "2"], "application/json": {"k": [1, 2]}}}]},
	 {"cell_type": "markdown", "metadata": {}, "source": ["# T\n", "text"]},
	 {"cell_type": "raw", "id": "same", "metadata": {}, "source": ""},
	 {"cell_type": "raw", "id": "same", "metadata": {}, "source": ""}
	]}`
	nb, err := Read(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	c := nb.Cells[0]
	if c.Source != "a := 1\nb := 2\n" || c.ExecutionCount != 3 || len(c.Outputs) != 2 {
		t.Fatalf("code cell = %+v", c)
	}
	if o := c.Outputs[0]; o.Type != StreamOutput || o.Name != "stdout" || o.Text != "x\ny" {
		t.Errorf("stream output = %+v", o)
	}
	if o := c.Outputs[1]; o.Data["text/plain"] != "1\n2" || o.ExecutionCount != 3 {
		t.Errorf("execute_result = %+v", o)
	}
	if nb.Cells[1].Source != "# T\ntext" {
		t.Errorf("markdown source = %q", nb.Cells[1].Source)
	}
	seen := map[string]bool{}
	for i, c := range nb.Cells {
		if !validID().MatchString(c.ID) || seen[c.ID] {
			t.Errorf("cell %d: id %q is not a fresh valid id", i, c.ID)
		}
		seen[c.ID] = true
	}
	var out bytes.Buffer
	if err := Write(&out, nb); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{
		`"nbformat_minor": 5`,
		`"n": 12345678901234567890`, // numbers kept as written
		"\"source\": [\n    \"a := 1\\n\",\n    \"b := 2\\n\"\n   ]",
		"\"application/json\": {\n       \"k\": [\n        1,\n        2\n       ]",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("written notebook lacks %q:\n%s", want, s)
		}
	}
	validate(t, out.Bytes())
}

func TestReadErrors(t *testing.T) {
	for i, tc := range []struct{ src, want string }{
		{`{"nbformat": 3, "worksheets": []}`, "nbformat 3 is not supported"},
		{`not json`, "not a notebook"},
		{`{"nbformat": 4, "cells": [{"cell_type": "python", "source": ""}]}`, `cell 1: unknown cell_type "python"`},
		{`{"nbformat": 4, "cells": [{"cell_type": "code", "source": 7}]}`, "cell 1: source: want a string or a list of strings"},
		{`{"nbformat": 4, "cells": [{"cell_type": "code", "source": "", "outputs": [{"output_type": "pager"}]}]}`, `output 1: unknown output_type "pager"`},
	} {
		_, err := Read(strings.NewReader(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "notebook: ") {
			t.Errorf("%d: Read error %v; want one with %q", i, err, tc.want)
		}
	}
}

func TestWriteFile(t *testing.T) {
	nb := &Notebook{Cells: []*Cell{{Type: CodeCell, Source: "1"}}}
	name := filepath.Join(t.TempDir(), "a.ipynb")
	if err := WriteFile(name, nb); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Cells) != 1 || back.Cells[0].Source != "1" || back.Cells[0].ID == "" {
		t.Errorf("read back %+v", back.Cells[0])
	}
	entries, _ := os.ReadDir(filepath.Dir(name))
	if len(entries) != 1 {
		t.Errorf("WriteFile left %d files, want 1", len(entries))
	}
}

// validate checks a notebook against nbformat's JSON schema with Debian's
// Python, when it is installed.
func validate(t *testing.T, nb []byte) {
	t.Helper()
	const py = "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Log("no /usr/bin/python3: notebook not validated")
		return
	}
	if exec.Command(py, "-c", "import nbformat").Run() != nil {
		t.Log("no python3-nbformat: notebook not validated")
		return
	}
	cmd := exec.Command(py, "-c", "import sys, nbformat; nbformat.validate(nbformat.reads(sys.stdin.read(), as_version=nbformat.NO_CONVERT))")
	cmd.Stdin = bytes.NewReader(nb)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("nbformat.validate: %v\n%s", err, out)
	}
}

// TestWriteSplitsTextOnly checks nbformat's rule (nbformat/v4/rwbase.py,
// _split_mimebundle): text types and SVG are written as lists of lines,
// base64 images as one string.
func TestWriteSplitsTextOnly(t *testing.T) {
	nb := &Notebook{Cells: []*Cell{{ID: "a", Type: CodeCell, Outputs: []*Output{{
		Type: DisplayDataOutput,
		Data: map[string]any{
			"image/png":     "iVBORw0KGgo=\nAAAA",
			"image/svg+xml": "<svg>\n</svg>",
			"text/plain":    "one\ntwo",
		},
	}}}}}
	var buf bytes.Buffer
	if err := Write(&buf, nb); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cells []struct {
			Outputs []struct {
				Data map[string]any `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	data := doc.Cells[0].Outputs[0].Data
	if _, ok := data["image/png"].(string); !ok {
		t.Errorf("image/png written as %T, want one string", data["image/png"])
	}
	for _, mime := range []string{"image/svg+xml", "text/plain"} {
		if l, ok := data[mime].([]any); !ok || len(l) != 2 {
			t.Errorf("%s written as %#v, want two lines", mime, data[mime])
		}
	}
}
