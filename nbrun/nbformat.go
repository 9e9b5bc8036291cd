package nbrun

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Cell types.
const (
	CodeCell     = "code"
	MarkdownCell = "markdown"
	RawCell      = "raw"
)

// Output types.
const (
	StreamOutput        = "stream"
	DisplayDataOutput   = "display_data"
	ExecuteResultOutput = "execute_result"
	ErrorOutput         = "error"
)

// Notebook is a Jupyter notebook in nbformat 4.
type Notebook struct {
	// Metadata is the notebook's metadata: kernelspec, language_info and
	// whatever else front ends and tools stored there, kept as read.
	Metadata map[string]any
	Cells    []*Cell
}

// Cell is one cell of a notebook.
type Cell struct {
	ID       string // unique in the notebook; Read gives every cell one
	Type     string // CodeCell, MarkdownCell or RawCell
	Source   string
	Metadata map[string]any

	// Attachments are the files a markdown or raw cell embeds, by name:
	// name → MIME type → base64 data. Nil for code cells.
	Attachments map[string]any

	// ExecutionCount is the code cell's "In [n]" number; 0 when the cell
	// has not run (null in the file).
	ExecutionCount int
	// Outputs is what the code cell produced when it last ran.
	Outputs []*Output
}

// Output is one output of a code cell.
type Output struct {
	Type string // StreamOutput, DisplayDataOutput, ExecuteResultOutput or ErrorOutput

	// Stream outputs: the stream name ("stdout" or "stderr") and its text.
	Name, Text string

	// Display data and execute results: the MIME bundle (text types as
	// strings) and its metadata.
	Data     map[string]any
	Metadata map[string]any
	// ExecutionCount is an execute_result's "Out[n]" number.
	ExecutionCount int

	// Errors: the error's name, message and the lines shown to the user.
	EName, EValue string
	Traceback     []string
}

// Read reads a notebook in nbformat 4 (any minor version). Cells without
// an id, or with an id another cell already has, get a fresh one, so that
// the notebook can be written as nbformat 4.5.
func Read(r io.Reader) (*Notebook, error) {
	var raw struct {
		Cells         []json.RawMessage `json:"cells"`
		Metadata      map[string]any    `json:"metadata"`
		NBFormat      int               `json:"nbformat"`
		NBFormatMinor int               `json:"nbformat_minor"`
	}
	if err := decode(r, &raw); err != nil {
		return nil, fmt.Errorf("notebook: not a notebook: %w", err)
	}
	if raw.NBFormat != 4 {
		return nil, fmt.Errorf("notebook: nbformat %d is not supported: convert it to nbformat 4 with `jupyter nbconvert --to notebook --nbformat 4`", raw.NBFormat)
	}
	nb := &Notebook{Metadata: raw.Metadata}
	if nb.Metadata == nil {
		nb.Metadata = map[string]any{}
	}
	seen := map[string]bool{}
	for i, rc := range raw.Cells {
		c, err := readCell(rc)
		if err != nil {
			return nil, fmt.Errorf("notebook: cell %d: %w", i+1, err)
		}
		if !validID().MatchString(c.ID) || seen[c.ID] {
			c.ID = newCellID(seen)
		}
		seen[c.ID] = true
		nb.Cells = append(nb.Cells, c)
	}
	return nb, nil
}

// ReadFile reads the notebook in the named file.
func ReadFile(name string) (*Notebook, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("notebook: %w", err)
	}
	defer f.Close()
	nb, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, name)
	}
	return nb, nil
}

// Write writes nb in nbformat 4.5 as Jupyter does: keys sorted, one-space
// indent, text split into lines.
func Write(w io.Writer, nb *Notebook) error {
	cells := make([]any, len(nb.Cells))
	seen := map[string]bool{}
	for i, c := range nb.Cells {
		id := c.ID
		if !validID().MatchString(id) || seen[id] {
			id = newCellID(seen)
		}
		seen[id] = true
		m, err := c.toJSON(id)
		if err != nil {
			return fmt.Errorf("notebook: cell %d: %w", i+1, err)
		}
		cells[i] = m
	}
	meta := nb.Metadata
	if meta == nil {
		meta = map[string]any{}
	}
	doc := map[string]any{
		"cells":          cells,
		"metadata":       meta,
		"nbformat":       4,
		"nbformat_minor": 5,
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("notebook: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// WriteFile writes nb to the named file, replacing it only once the whole
// notebook is written.
func WriteFile(name string, nb *Notebook) error {
	return writeFileAtomic(name, func(w io.Writer) error { return Write(w, nb) })
}

// writeFileAtomic writes a temporary file next to name with write and
// renames it to name.
func writeFileAtomic(name string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return fmt.Errorf("notebook: %w", err)
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("notebook: writing %s: %w", name, err)
	}
	return nil
}

// decode decodes JSON keeping numbers as written.
func decode(r io.Reader, v any) error {
	d := json.NewDecoder(r)
	d.UseNumber()
	return d.Decode(v)
}

// validID is nbformat 4.5's cell id pattern, compiled on first use (the
// kernel links this package and does not use it).
var validID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`) })

// newCellID returns a random 8-hex-digit id not in seen, as nbformat makes
// them.
func newCellID(seen map[string]bool) string {
	for {
		var b [4]byte
		rand.Read(b[:])
		if id := hex.EncodeToString(b[:]); !seen[id] {
			return id
		}
	}
}

type rawCell struct {
	ID             string            `json:"id"`
	CellType       string            `json:"cell_type"`
	Source         json.RawMessage   `json:"source"`
	Metadata       map[string]any    `json:"metadata"`
	Attachments    map[string]any    `json:"attachments"`
	ExecutionCount *int              `json:"execution_count"`
	Outputs        []json.RawMessage `json:"outputs"`
}

func readCell(data []byte) (*Cell, error) {
	var rc rawCell
	if err := decode(bytes.NewReader(data), &rc); err != nil {
		return nil, err
	}
	switch rc.CellType {
	case CodeCell, MarkdownCell, RawCell:
	default:
		return nil, fmt.Errorf("unknown cell_type %q: want code, markdown or raw", rc.CellType)
	}
	src, err := multiline(rc.Source)
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	c := &Cell{ID: rc.ID, Type: rc.CellType, Source: src, Metadata: rc.Metadata}
	if c.Metadata == nil {
		c.Metadata = map[string]any{}
	}
	if c.Type != CodeCell {
		c.Attachments = rc.Attachments
		return c, nil
	}
	if rc.ExecutionCount != nil {
		c.ExecutionCount = *rc.ExecutionCount
	}
	for j, ro := range rc.Outputs {
		o, err := readOutput(ro)
		if err != nil {
			return nil, fmt.Errorf("output %d: %w", j+1, err)
		}
		c.Outputs = append(c.Outputs, o)
	}
	return c, nil
}

type rawOutput struct {
	OutputType     string                     `json:"output_type"`
	Name           string                     `json:"name"`
	Text           json.RawMessage            `json:"text"`
	Data           map[string]json.RawMessage `json:"data"`
	Metadata       map[string]any             `json:"metadata"`
	ExecutionCount *int                       `json:"execution_count"`
	EName          string                     `json:"ename"`
	EValue         string                     `json:"evalue"`
	Traceback      []string                   `json:"traceback"`
}

func readOutput(data []byte) (*Output, error) {
	var ro rawOutput
	if err := decode(bytes.NewReader(data), &ro); err != nil {
		return nil, err
	}
	o := &Output{Type: ro.OutputType}
	switch ro.OutputType {
	case StreamOutput:
		text, err := multiline(ro.Text)
		if err != nil {
			return nil, fmt.Errorf("text: %w", err)
		}
		o.Name, o.Text = ro.Name, text
	case DisplayDataOutput, ExecuteResultOutput:
		o.Metadata = ro.Metadata
		if ro.ExecutionCount != nil {
			o.ExecutionCount = *ro.ExecutionCount
		}
		o.Data = map[string]any{}
		for mime, v := range ro.Data {
			if isJSONMime(mime) {
				var x any
				if err := decode(bytes.NewReader(v), &x); err != nil {
					return nil, fmt.Errorf("data %s: %w", mime, err)
				}
				o.Data[mime] = x
				continue
			}
			s, err := multiline(v)
			if err != nil {
				return nil, fmt.Errorf("data %s: %w", mime, err)
			}
			o.Data[mime] = s
		}
	case ErrorOutput:
		o.EName, o.EValue, o.Traceback = ro.EName, ro.EValue, ro.Traceback
	default:
		return nil, fmt.Errorf("unknown output_type %q", ro.OutputType)
	}
	return o, nil
}

// multiline decodes nbformat's multiline string: a string or a list of
// strings to join.
func multiline(data json.RawMessage) (string, error) {
	if len(data) == 0 || string(data) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err == nil {
		return s, nil
	}
	var lines []string
	if err := json.Unmarshal(data, &lines); err != nil {
		return "", fmt.Errorf("want a string or a list of strings")
	}
	return strings.Join(lines, ""), nil
}

// splitsLines reports whether nbformat writes a value of this MIME type as a
// list of lines: text types, JavaScript and SVG do; base64 images and JSON
// stay whole, as Jupyter writes them.
func splitsLines(mime string) bool {
	return strings.HasPrefix(mime, "text/") || mime == "application/javascript" || mime == "image/svg+xml"
}

// splitLines splits s into lines that keep their "\n", as Jupyter writes
// multiline strings.
func splitLines(s string) []string {
	lines := []string{}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// isJSONMime reports whether values of the MIME type are JSON, not text.
func isJSONMime(mime string) bool {
	return mime == "application/json" || strings.HasSuffix(mime, "+json")
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func (c *Cell) toJSON(id string) (map[string]any, error) {
	m := map[string]any{
		"id":        id,
		"cell_type": c.Type,
		"metadata":  orEmpty(c.Metadata),
		"source":    splitLines(c.Source),
	}
	switch c.Type {
	case CodeCell:
		m["execution_count"] = countOrNull(c.ExecutionCount)
		outs := make([]any, 0, len(c.Outputs))
		for j, o := range c.Outputs {
			om, err := o.toJSON()
			if err != nil {
				return nil, fmt.Errorf("output %d: %w", j+1, err)
			}
			outs = append(outs, om)
		}
		m["outputs"] = outs
	case MarkdownCell, RawCell:
		if len(c.Attachments) > 0 {
			m["attachments"] = c.Attachments
		}
	default:
		return nil, fmt.Errorf("unknown cell type %q: want code, markdown or raw", c.Type)
	}
	return m, nil
}

func countOrNull(n int) any {
	if n <= 0 {
		return nil
	}
	return n
}

func (o *Output) toJSON() (map[string]any, error) {
	m := map[string]any{"output_type": o.Type}
	switch o.Type {
	case StreamOutput:
		name := o.Name
		if name == "" {
			name = "stdout"
		}
		m["name"] = name
		m["text"] = splitLines(o.Text)
	case DisplayDataOutput, ExecuteResultOutput:
		data := map[string]any{}
		for mime, v := range o.Data {
			if s, ok := v.(string); ok && splitsLines(mime) {
				data[mime] = splitLines(s)
				continue
			}
			data[mime] = v
		}
		m["data"] = data
		m["metadata"] = orEmpty(o.Metadata)
		if o.Type == ExecuteResultOutput {
			m["execution_count"] = countOrNull(o.ExecutionCount)
		}
	case ErrorOutput:
		tb := o.Traceback
		if tb == nil {
			tb = []string{}
		}
		m["ename"], m["evalue"], m["traceback"] = o.EName, o.EValue, tb
	default:
		return nil, fmt.Errorf("unknown output type %q", o.Type)
	}
	return m, nil
}
