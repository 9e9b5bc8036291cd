package nbrun

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"regexp"
	"strings"
	"sync"
)

// WriteHTML writes nb as a standalone HTML page that needs no network to
// view: code cells with their source and outputs, markdown cells rendered
// (headings, paragraphs, lists, code, emphasis, links, images; raw HTML in
// markdown is shown as text), raw cells as text. Of each output it shows
// the richest form: HTML inline, images as data: URIs, markdown rendered,
// other text preformatted. title is the page's title.
func WriteHTML(w io.Writer, nb *Notebook, title string) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>%s</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", html.EscapeString(title), pageCSS)
	for _, c := range nb.Cells {
		switch c.Type {
		case CodeCell:
			writeCodeCell(&b, c)
		case MarkdownCell:
			b.WriteString("<div class=\"cell markdown\">\n")
			b.WriteString(renderMarkdown(c.Source, c.Attachments))
			b.WriteString("</div>\n")
		default:
			fmt.Fprintf(&b, "<div class=\"cell raw\"><pre>%s</pre></div>\n", html.EscapeString(c.Source))
		}
	}
	b.WriteString("</main>\n</body>\n</html>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// WriteHTMLFile writes nb as a standalone HTML page to the named file,
// titled with the file's base name.
func WriteHTMLFile(name string, nb *Notebook) error {
	title := strings.TrimSuffix(baseName(name), ".html")
	return writeFileAtomic(name, func(w io.Writer) error { return WriteHTML(w, nb, title) })
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

const pageCSS = `body { margin: 0; background: #fff; color: #1a1a1a; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 980px; margin: 0 auto; padding: 24px 16px 64px; }
.cell { margin: 14px 0; }
.code { display: grid; grid-template-columns: 64px 1fr; column-gap: 8px; }
.prompt { color: #555; font: 12px/1.6 ui-monospace, Menlo, Consolas, monospace; text-align: right; padding-top: 6px; }
.prompt.out { color: #a33; }
pre, code { font: 13px/1.45 ui-monospace, Menlo, Consolas, monospace; }
pre { margin: 0; white-space: pre-wrap; word-wrap: break-word; }
.source { background: #f5f5f7; border: 1px solid #e0e0e0; border-radius: 4px; padding: 6px 8px; }
.output { padding: 4px 8px; overflow-x: auto; }
.output img { max-width: 100%; }
.stderr { background: #fff0f0; }
.error pre { color: #a00; }
.markdown { padding: 0 8px 0 72px; }
.markdown pre { background: #f5f5f7; padding: 6px 8px; border-radius: 4px; }
.markdown code { background: #f5f5f7; padding: 0 3px; border-radius: 3px; }
.markdown pre code { padding: 0; }
.raw pre { color: #555; padding-left: 72px; }
table { border-collapse: collapse; }
th, td { padding: 2px 8px; border: 1px solid #ddd; text-align: right; }
`

func writeCodeCell(b *bytes.Buffer, c *Cell) {
	in := "[ ]"
	if c.ExecutionCount > 0 {
		in = fmt.Sprintf("[%d]", c.ExecutionCount)
	}
	fmt.Fprintf(b, "<div class=\"cell code\">\n<div class=\"prompt\">In %s:</div><pre class=\"source\"><code class=\"language-go\">%s</code></pre>\n",
		in, html.EscapeString(c.Source))
	for _, o := range c.Outputs {
		prompt := ""
		if o.Type == ExecuteResultOutput && o.ExecutionCount > 0 {
			prompt = fmt.Sprintf("Out[%d]:", o.ExecutionCount)
		}
		fmt.Fprintf(b, "<div class=\"prompt out\">%s</div>", prompt)
		writeOutput(b, o)
	}
	b.WriteString("</div>\n")
}

func writeOutput(b *bytes.Buffer, o *Output) {
	switch o.Type {
	case StreamOutput:
		fmt.Fprintf(b, "<div class=\"output stream %s\"><pre>%s</pre></div>\n", html.EscapeString(o.Name), html.EscapeString(terminalText(o.Text)))
	case ErrorOutput:
		tb := o.Traceback
		if len(tb) == 0 {
			tb = []string{o.EName + ": " + o.EValue}
		}
		fmt.Fprintf(b, "<div class=\"output error\"><pre>%s</pre></div>\n", html.EscapeString(stripANSI(strings.Join(tb, "\n"))))
	default:
		b.WriteString("<div class=\"output\">")
		writeBundle(b, o.Data, o.Metadata)
		b.WriteString("</div>\n")
	}
}

// writeBundle writes the richest representation of a MIME bundle.
func writeBundle(b *bytes.Buffer, data, meta map[string]any) {
	str := func(mime string) (string, bool) {
		s, ok := data[mime].(string)
		return s, ok
	}
	if s, ok := str("text/html"); ok {
		b.WriteString(s)
		return
	}
	for _, mime := range []string{"image/png", "image/jpeg", "image/gif", "image/svg+xml"} {
		s, ok := str(mime)
		if !ok {
			continue
		}
		var b64 string
		if mime == "image/svg+xml" {
			b64 = base64.StdEncoding.EncodeToString([]byte(s))
		} else {
			b64 = strings.Join(strings.Fields(s), "") // base64 may be split into lines
		}
		fmt.Fprintf(b, "<img src=\"data:%s;base64,%s\"%s alt=\"\">", mime, b64, imageSize(meta, mime))
		return
	}
	if s, ok := str("text/markdown"); ok {
		b.WriteString(renderMarkdown(s, nil))
		return
	}
	if s, ok := str("text/latex"); ok {
		fmt.Fprintf(b, "<pre>%s</pre>", html.EscapeString(s))
		return
	}
	if v, ok := data["application/json"]; ok {
		j, _ := json.MarshalIndent(v, "", "  ")
		fmt.Fprintf(b, "<pre>%s</pre>", html.EscapeString(string(j)))
		return
	}
	if s, ok := str("text/plain"); ok {
		fmt.Fprintf(b, "<pre>%s</pre>", html.EscapeString(stripANSI(s)))
	}
}

// imageSize returns width and height attributes from an image's metadata.
func imageSize(meta map[string]any, mime string) string {
	m, ok := meta[mime].(map[string]any)
	if !ok {
		return ""
	}
	var attrs string
	for _, k := range []string{"width", "height"} {
		switch v := m[k].(type) {
		case json.Number:
			attrs += fmt.Sprintf(" %s=\"%s\"", k, html.EscapeString(v.String()))
		case int, int64, float64:
			attrs += fmt.Sprintf(" %s=\"%v\"", k, v)
		}
	}
	return attrs
}

var ansiRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("\x1b\\[[0-9;?]*[A-Za-z]") })

// stripANSI removes terminal escape sequences (colors).
func stripANSI(s string) string { return ansiRE().ReplaceAllString(s, "") }

// terminalText returns what a terminal shows for s: a carriage return
// starts its line over (progress printed with "\r"), and escape sequences
// are dropped.
func terminalText(s string) string {
	s = stripANSI(s)
	if !strings.Contains(s, "\r") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		l = strings.TrimRight(l, "\r") // overwritten only by text that follows
		if j := strings.LastIndexByte(l, '\r'); j >= 0 {
			l = l[j+1:]
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}
