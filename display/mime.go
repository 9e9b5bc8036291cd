package display

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"image/png"
	"strings"
)

// HTML publishes s as an HTML output.
//
//	display.HTML("<b>bold</b> text")
func HTML(s string) { publish(HTMLBundle(s), "", false) }

// HTMLBundle returns the bundle HTML publishes: "text/html" s, and its text
// with tags removed as "text/plain".
func HTMLBundle(s string) Bundle {
	return Bundle{Data: map[string]any{"text/html": s, "text/plain": htmlToText(s)}}
}

// Markdown publishes s as a Markdown output.
//
//	display.Markdown("# Results\nAccuracy: **98%**")
func Markdown(s string) { publish(MarkdownBundle(s), "", false) }

// MarkdownBundle returns the bundle Markdown publishes: "text/markdown" s,
// and s again as "text/plain".
func MarkdownBundle(s string) Bundle {
	return Bundle{Data: map[string]any{"text/markdown": s, "text/plain": s}}
}

// Latex publishes s as a LaTeX output, typeset by the front end (MathJax).
// An s without math delimiters ($, $$, \[, \( or \begin) is wrapped in $$ and
// shown as display math.
//
//	display.Latex(`\sigma(x) = \frac{1}{1 + e^{-x}}`)
func Latex(s string) { publish(LatexBundle(s), "", false) }

// LatexBundle returns the bundle Latex publishes: "text/latex" with the
// delimited formula, and s as "text/plain".
func LatexBundle(s string) Bundle {
	return Bundle{Data: map[string]any{"text/latex": delimitLatex(s), "text/plain": s}}
}

func delimitLatex(s string) string {
	t := strings.TrimSpace(s)
	for _, p := range []string{"$", `\[`, `\(`, `\begin`} {
		if strings.HasPrefix(t, p) {
			return s
		}
	}
	return "$$" + t + "$$"
}

// PNG publishes b, the bytes of a PNG file, as an image.
//
//	b, _ := os.ReadFile("digits.png")
//	display.PNG(b)
func PNG(b []byte) { publish(PNGBundle(b), "", false) }

// PNGBundle returns the bundle PNG publishes: "image/png" with b in base64,
// its width and height as metadata when b decodes as PNG, and a short
// "text/plain" description.
func PNGBundle(b []byte) Bundle {
	out := Bundle{Data: map[string]any{"image/png": base64.StdEncoding.EncodeToString(b)}}
	if c, err := png.DecodeConfig(bytes.NewReader(b)); err == nil {
		out = out.withMeta("image/png", map[string]any{"width": c.Width, "height": c.Height})
		return out.with("text/plain", fmt.Sprintf("<PNG image %dx%d>", c.Width, c.Height))
	}
	return out.with("text/plain", fmt.Sprintf("<PNG image, %d bytes>", len(b)))
}

// SVG publishes s, an SVG document, as an image.
//
//	display.SVG(`<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><circle cx="10" cy="10" r="8"/></svg>`)
func SVG(s string) { publish(SVGBundle(s), "", false) }

// SVGBundle returns the bundle SVG publishes: "image/svg+xml" s, the same
// image as an HTML <img> with a data: URI, and a short "text/plain"
// description. The HTML form is for front ends that sanitise inline SVG
// away (nbconvert before 7.2 blanks it); the image looks the same in both.
func SVGBundle(s string) Bundle {
	img := `<img src="data:image/svg+xml;base64,` + base64.StdEncoding.EncodeToString([]byte(s)) + `" alt="SVG image"/>`
	return Bundle{Data: map[string]any{"image/svg+xml": s, "text/html": img, "text/plain": "<SVG image>"}}
}

// JSON publishes v, encoded with encoding/json, as "application/json": the
// front end shows it as a collapsible tree.
//
//	display.JSON(map[string]any{"lr": 1e-3, "layers": []int{784, 256, 10}})
func JSON(v any) { publish(JSONBundle(v), "", false) }

// JSONBundle returns the bundle JSON publishes: v's JSON as a decoded JSON
// value under "application/json" and as indented text under "text/plain".
// When v cannot be encoded, it returns an error bundle saying why.
func JSONBundle(v any) Bundle {
	raw, err := json.Marshal(v)
	if err != nil {
		return ErrorBundle(fmt.Errorf("display: JSON: cannot encode a %T: %v", v, err))
	}
	var decoded any
	if err := json.Unmarshal(raw, &decoded); err != nil {
		return ErrorBundle(fmt.Errorf("display: JSON: %v", err))
	}
	var ind bytes.Buffer
	json.Indent(&ind, raw, "", "  ")
	return Bundle{Data: map[string]any{"application/json": decoded, "text/plain": ind.String()}}
}

// escape escapes s for HTML text and attribute values.
func escape(s string) string { return html.EscapeString(s) }

// unescape decodes HTML entities in s.
func unescape(s string) string { return html.UnescapeString(s) }
