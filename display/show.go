package display

import (
	"fmt"
	"image"
	"strings"

	"gonum.org/v1/plot"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Show publishes v as rich output in the running cell, in the
// representation Render picks for it.
//
//	display.Show(x)                       // a tensor: an HTML table
//	display.Show(display.LinePlot("loss", display.Series{Y: losses}))
//	display.Show(err)                     // an error, styled
func Show(v any) { publish(Render(v), "", false) }

// Renderer is implemented by values that render themselves as a bundle.
// Render and Show prefer it to every other representation.
type Renderer interface {
	Bundle() Bundle
}

// The methods Render looks for on compiled types. A notebook cell's own types
// are not seen through these: the interpreter calls their methods itself and
// passes the results to FromMethods.
type (
	htmler     interface{ HTML() string }
	markdowner interface{ Markdown() string }
	pnger      interface{ PNG() []byte }
	svger      interface{ SVG() string }
	latexer    interface{ Latex() string }
)

// Render returns the bundle that represents v, without publishing it. It
// picks, in order:
//
//   - v's own Bundle method (a Renderer), or v itself when it is a Bundle;
//   - a *tensor.Tensor: an HTML table with shape, dtype and device, and
//     PyTorch's text form (see TensorBundle);
//   - a *plot.Plot: a PNG image (see PlotBundle);
//   - an image.Image: a PNG image, scaled up when small (see ImageBundle);
//   - v's HTML() string, Markdown() string, SVG() string, PNG() []byte and
//     Latex() string methods, all that it has, in one bundle;
//   - an error: its message, styled as an error;
//   - anything else: its fmt %v text.
//
// Show(v) is publish(Render(v)); the kernel uses Render for a cell's Out[n].
//
//	b := display.Render(x)
//	html := b.Data["text/html"].(string)
func Render(v any) Bundle {
	switch v := v.(type) {
	case nil:
		return Text("<nil>")
	case Bundle:
		return v
	case *Bundle:
		if v == nil {
			return Text("<nil>")
		}
		return *v
	case Renderer:
		return v.Bundle()
	case *tensor.Tensor:
		return TensorBundle(v)
	case *plot.Plot:
		return PlotBundle(v)
	case image.Image:
		return imageBundle(v)
	}
	var html, md, svg, latex string
	var png []byte
	rich := false
	if h, ok := v.(htmler); ok {
		html, rich = h.HTML(), true
	}
	if m, ok := v.(markdowner); ok {
		md, rich = m.Markdown(), true
	}
	if s, ok := v.(svger); ok {
		svg, rich = s.SVG(), true
	}
	if p, ok := v.(pnger); ok {
		png, rich = p.PNG(), true
	}
	if l, ok := v.(latexer); ok {
		latex, rich = l.Latex(), true
	}
	if rich {
		b := FromMethods(html, md, svg, png, fmt.Sprintf("%v", v))
		if latex != "" {
			b = b.with("text/latex", delimitLatex(latex))
		}
		return b
	}
	if err, ok := v.(error); ok {
		return ErrorBundle(err)
	}
	return Text(fmt.Sprintf("%v", v))
}

// FromMethods builds the bundle of a value from the results of its display
// methods; empty results are left out. It is for the notebook interpreter:
// a type declared in a cell is invisible to Render's type assertions, so the
// interpreter calls the value's HTML, Markdown, SVG and PNG methods itself
// and hands their results here. text is the "text/plain" form (the value's
// %v text); when empty, the Markdown or a placeholder is used.
//
//	b := display.FromMethods(v.HTML(), "", "", nil, fmt.Sprint(v))
func FromMethods(html, markdown, svg string, png []byte, text string) Bundle {
	var b Bundle
	if html != "" {
		b = b.with("text/html", html)
	}
	if markdown != "" {
		b = b.with("text/markdown", markdown)
	}
	if svg != "" {
		b = mergeBundle(b, SVGBundle(svg))
	}
	if len(png) > 0 {
		b = mergeBundle(b, PNGBundle(png))
	}
	switch {
	case text != "":
	case markdown != "":
		text = markdown
	case html != "":
		text = htmlToText(html)
	default:
		text = "<rich output>"
	}
	return b.with("text/plain", text)
}

// mergeBundle adds src's data and metadata to dst where dst has none of
// that type, so a value's own representation wins over a derived one.
func mergeBundle(dst, src Bundle) Bundle {
	for k, v := range src.Data {
		if _, ok := dst.Data[k]; !ok {
			dst = dst.with(k, v)
		}
	}
	for k, v := range src.Metadata {
		if _, ok := dst.Metadata[k]; !ok {
			dst = dst.withMeta(k, v)
		}
	}
	return dst
}

// ErrorBundle renders err as a notebook shows an error: its message in the
// front end's error colour, with "text/plain" holding the message alone.
// Render uses it for error values.
//
//	display.Show(display.ErrorBundle(err))
func ErrorBundle(err error) Bundle {
	if err == nil {
		return Text("<nil>")
	}
	msg := err.Error()
	h := `<pre style="color:var(--jp-error-color1,#d32f2f);white-space:pre-wrap;margin:0">` + escape(msg) + `</pre>`
	return Bundle{Data: map[string]any{"text/plain": msg, "text/html": h}}
}

// htmlToText gives a rough plain-text form of an HTML fragment: tags
// dropped (and the contents of style and script elements), entities
// decoded, runs of blank space collapsed, cut at 1000 characters.
func htmlToText(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		s = s[i:]
		lower := strings.ToLower(s)
		skipped := false
		for _, tag := range []string{"style", "script"} {
			if strings.HasPrefix(lower, "<"+tag) {
				if j := strings.Index(lower, "</"+tag); j >= 0 {
					s = s[j+2:]
					skipped = true
				}
			}
		}
		j := strings.IndexByte(s, '>')
		if j < 0 {
			break
		}
		if !skipped {
			switch t := strings.ToLower(strings.Trim(s[1:j], "/ ")); {
			case t == "br", strings.HasPrefix(t, "p"), strings.HasPrefix(t, "div"), strings.HasPrefix(t, "tr"), strings.HasPrefix(t, "li"), strings.HasPrefix(t, "h"):
				b.WriteByte('\n')
			case strings.HasPrefix(t, "td"), strings.HasPrefix(t, "th"):
				b.WriteByte(' ')
			}
		}
		s = s[j+1:]
	}
	text := unescape(b.String())
	lines := strings.Split(text, "\n")
	out := lines[:0]
	for _, l := range lines {
		l = strings.Join(strings.Fields(l), " ")
		if l != "" {
			out = append(out, l)
		}
	}
	text = strings.Join(out, "\n")
	if r := []rune(text); len(r) > 1000 {
		text = string(r[:1000]) + "…"
	}
	return text
}
