package nbrun

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	gtext "github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// renderMarkdown renders the markdown of a notebook cell as HTML, as
// Jupyter does: CommonMark with GitHub's extensions (tables,
// strikethrough, autolinks, task lists), through goldmark. Raw HTML is
// left out (goldmark's safe default; Jupyter shows it sanitised) and
// links with a script scheme get no target. Images named
// "attachment:NAME" come from the cell's attachments, as data: URIs.
func renderMarkdown(src string, attachments map[string]any) string {
	md := goldmark.New(
		goldmark.WithExtensions(
			// extension.GFM, with table alignment as GitHub and Jupyter
			// write it (align="right").
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
			extension.Strikethrough, extension.Linkify, extension.TaskList),
		goldmark.WithParserOptions(parser.WithASTTransformers(
			util.Prioritized(attachmentImages(attachments), 100))),
		goldmark.WithRendererOptions(html.WithXHTML()),
	)
	var b bytes.Buffer
	if err := md.Convert([]byte(src), &b); err != nil {
		// goldmark's renderer fails only when its writer does, and a
		// bytes.Buffer does not.
		panic("nbrun: rendering markdown: " + err.Error())
	}
	return b.String()
}

// attachmentImages is the AST transformer that points images named
// "attachment:NAME" at the cell's attachment NAME, as a data: URI.
type attachmentImages map[string]any

// Transform rewrites the destinations of the document's attachment images.
func (att attachmentImages) Transform(doc *ast.Document, _ gtext.Reader, _ parser.Context) {
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if img, ok := n.(*ast.Image); ok && entering {
			if name, ok := strings.CutPrefix(string(img.Destination), "attachment:"); ok {
				if u := att.dataURI(name); u != "" {
					img.Destination = []byte(u)
				}
			}
		}
		return ast.WalkContinue, nil
	})
}

// dataURI returns attachment name's image as a data: URI, or "".
func (att attachmentImages) dataURI(name string) string {
	bundle, _ := att[name].(map[string]any)
	for mime, v := range bundle {
		if s, ok := v.(string); ok && strings.HasPrefix(mime, "image/") {
			return "data:" + mime + ";base64," + strings.Join(strings.Fields(s), "")
		}
	}
	return ""
}
