package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeNotebook writes an nbformat 4.4 notebook of code cells to dir.
func writeNotebook(t *testing.T, dir, name string, sources ...string) string {
	t.Helper()
	var cells []map[string]any
	for _, s := range sources {
		cells = append(cells, map[string]any{"cell_type": "code", "metadata": map[string]any{}, "source": s, "outputs": []any{}, "execution_count": nil})
	}
	b, err := json.Marshal(map[string]any{"cells": cells, "metadata": map[string]any{}, "nbformat": 4, "nbformat_minor": 4})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// readOutputs returns the executed notebook's cells.
func readCells(t *testing.T, path string) []struct {
	ExecutionCount *int             `json:"execution_count"`
	Outputs        []map[string]any `json:"outputs"`
} {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			ExecutionCount *int             `json:"execution_count"`
			Outputs        []map[string]any `json:"outputs"`
		} `json:"cells"`
		NBFormatMinor int `json:"nbformat_minor"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatal(err)
	}
	if nb.NBFormatMinor != 5 {
		t.Errorf("%s: nbformat_minor %d, want 5", path, nb.NBFormatMinor)
	}
	return nb.Cells
}

func TestRunNotebook(t *testing.T) {
	dir := t.TempDir()
	// The cells run in the notebook's directory: the file lands there.
	nbPath := writeNotebook(t, dir, "ok.ipynb",
		"import \"os\"\nos.WriteFile(\"made.txt\", []byte(\"hi\"), 0o644)\nfmt.Println(\"sum\", 2+3)",
		"7 * 6")
	before, _ := os.ReadFile(nbPath)
	htmlPath := filepath.Join(dir, "ok.html")
	code, stdout, stderr := runCmd(t, "run", nbPath, "--html", htmlPath)
	if code != 0 {
		t.Fatalf("run = %d, stderr:\n%s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("run wrote to stdout: %q", stdout)
	}
	for _, want := range []string{"[1/2] cell 1 ...\nsum 5\n", "Out[2]: 42", "wrote " + filepath.Join(dir, "ok.executed.ipynb")} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if after, _ := os.ReadFile(nbPath); string(after) != string(before) {
		t.Error("run changed the notebook it ran")
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err != nil {
		t.Errorf("the cell did not run in the notebook's directory: %v", err)
	}
	cells := readCells(t, filepath.Join(dir, "ok.executed.ipynb"))
	if len(cells) != 2 || cells[0].ExecutionCount == nil || *cells[0].ExecutionCount != 1 {
		t.Fatalf("executed cells %+v", cells)
	}
	if o := cells[0].Outputs; len(o) != 1 || o[0]["output_type"] != "stream" || strings.Join(toStrings(o[0]["text"]), "") != "sum 5\n" {
		t.Errorf("cell 1 outputs %v", o)
	}
	if o := cells[1].Outputs; len(o) != 1 || o[0]["output_type"] != "execute_result" || o[0]["execution_count"] != 2.0 {
		t.Errorf("cell 2 outputs %v", o)
	}
	page, err := os.ReadFile(htmlPath)
	if err != nil || !strings.Contains(string(page), "<pre>42</pre>") {
		t.Errorf("HTML page (%v) lacks the result:\n%s", err, page)
	}
}

func TestRunNotebookError(t *testing.T) {
	dir := t.TempDir()
	nbPath := writeNotebook(t, dir, "bad.ipynb",
		`fmt.Println("first")`,
		`panic("the model diverged")`,
		`fmt.Println("never")`)
	out := filepath.Join(dir, "out", "..", "bad-run.ipynb")
	code, _, stderr := runCmd(t, "run", "-o", out, nbPath)
	if code != 1 {
		t.Fatalf("run = %d, want 1; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{"[2/3] cell 2 ... failed after", "cell 2 failed:", "the model diverged"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "never") || strings.Contains(stderr, "[3/3]") {
		t.Errorf("the cell after the error ran:\n%s", stderr)
	}
	cells := readCells(t, filepath.Join(dir, "bad-run.ipynb"))
	if o := cells[1].Outputs; len(o) != 1 || o[0]["output_type"] != "error" || !strings.Contains(o[0]["evalue"].(string), "the model diverged") {
		t.Errorf("failed cell outputs %v", o)
	}
	if cells[2].ExecutionCount != nil || len(cells[2].Outputs) != 0 {
		t.Errorf("cell 3 ran: %+v", cells[2])
	}
}

func TestRunUsage(t *testing.T) {
	dir := t.TempDir()
	nbPath := writeNotebook(t, dir, "a.ipynb", "1")
	for i, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run"}, 2, "missing the notebook"},
		{[]string{"run", nbPath, "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"run", "-o", nbPath, nbPath}, 2, "would overwrite the notebook"},
		{[]string{"run", filepath.Join(dir, "none.ipynb")}, 1, "no such file"},
	} {
		code, _, stderr := runCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%d: gotensor %v = %d, stderr %q; want %d and %q", i, tc.args, code, stderr, tc.code, tc.want)
		}
	}
}

func toStrings(v any) []string {
	var ss []string
	switch v := v.(type) {
	case string:
		ss = append(ss, v)
	case []any:
		for _, s := range v {
			ss = append(ss, s.(string))
		}
	}
	return ss
}

// TestRunOptions checks gotensor run's --allow-errors (every cell runs,
// exit status 1 at the end), --timeout and -p NAME VALUE (papermill's
// parameters, after the cell tagged "parameters").
func TestRunOptions(t *testing.T) {
	dir := t.TempDir()
	nbPath := writeNotebook(t, dir, "opts.ipynb",
		"epochs := 2\nname := \"base\"",
		`panic("bad")`,
		`for {}`,
		`fmt.Println(epochs, name)`)
	b, _ := os.ReadFile(nbPath)
	var nb map[string]any
	json.Unmarshal(b, &nb)
	nb["cells"].([]any)[0].(map[string]any)["metadata"] = map[string]any{"tags": []any{"parameters"}}
	b, _ = json.Marshal(nb)
	os.WriteFile(nbPath, b, 0o644)

	out := filepath.Join(dir, "opts-run.ipynb")
	code, _, stderr := runCmd(t, "run", nbPath, "-o", out, "--allow-errors", "--timeout", "0.5", "-p", "epochs", "7", "-p", "name", "tuned")
	if code != 1 || !strings.Contains(stderr, "2 of its cells failed") || !strings.Contains(stderr, "CellTimeoutError") {
		t.Fatalf("run = %d, stderr:\n%s", code, stderr)
	}
	cells := readCells(t, out)
	if len(cells) != 5 {
		t.Fatalf("%d cells, want 5 (the injected one)", len(cells))
	}
	if o := cells[4].Outputs; len(o) != 1 || strings.Join(toStrings(o[0]["text"]), "") != "7 tuned\n" {
		t.Errorf("last cell outputs %v", o)
	}
	for i, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", nbPath, "-p", "x"}, "-p needs a NAME and a VALUE"},
		{[]string{"run", nbPath, "--timeout", "soon"}, "not a positive duration"},
	} {
		if code, _, stderr := runCmd(t, tc.args...); code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%d: %v = %d, stderr %q", i, tc.args, code, stderr)
		}
	}
}
