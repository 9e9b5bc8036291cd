package interp

import (
	"fmt"
	"go/ast"

	"github.com/gotensor/gotensor/display"
)

// lastValueSrc is the function literal that runs a cell's last expression,
// _gtE, and hands its value to the session. A type declared in a cell is
// invisible to display.Render's type assertions (compiled code sees a
// wrapper of the value, without its methods), so the interpreter itself
// asks the value for its display methods and hands their results over too.
const lastValueSrc = `func() {
	_gtv := _gtE
	_gt.Result(_gtv)
	var _gtx any = _gtv
	if m, ok := _gtx.(interface{ HTML() string }); ok {
		_gt.Rich("text/html", m.HTML())
	}
	if m, ok := _gtx.(interface{ Markdown() string }); ok {
		_gt.Rich("text/markdown", m.Markdown())
	}
	if m, ok := _gtx.(interface{ SVG() string }); ok {
		_gt.Rich("image/svg+xml", m.SVG())
	}
	if m, ok := _gtx.(interface{ PNG() []byte }); ok {
		_gt.Rich("image/png", m.PNG())
	}
	if m, ok := _gtx.(interface{ String() string }); ok {
		_gt.Rich("text/plain", m.String())
	}
}()`

// lastValue returns the statement that runs x as the cell's last value
// (see lastValueSrc).
func (s *Session) lastValue(x ast.Expr) (ast.Stmt, error) {
	f, err := parseFile(s.yi.FileSet(), "package main\nfunc _() {\n"+lastValueSrc+"\n}")
	if err != nil {
		return nil, err
	}
	st := f.Decls[0].(*ast.FuncDecl).Body.List[0]
	ast.Inspect(st, func(n ast.Node) bool {
		if a, ok := n.(*ast.AssignStmt); ok {
			if id, ok := a.Rhs[0].(*ast.Ident); ok && id.Name == "_gtE" {
				a.Rhs[0] = x
				return false
			}
		}
		return true
	})
	return st, nil
}

// setRich receives the result of one of the last value's display methods.
func (s *Session) setRich(mime string, v any) {
	if s.rich == nil {
		s.rich = map[string]any{}
	}
	s.rich[mime] = v
}

// render returns the bundle of a cell's last value: display.Render's, or,
// for a value of a type with display methods that compiled code cannot see
// (declared in a cell), the bundle of what those methods returned.
func (s *Session) render(v any) display.Bundle {
	rich := s.rich
	s.rich = nil
	if _, ok := v.(display.Renderer); ok {
		return display.Render(v)
	}
	html, _ := rich["text/html"].(string)
	md, _ := rich["text/markdown"].(string)
	svg, _ := rich["image/svg+xml"].(string)
	png, _ := rich["image/png"].([]byte)
	if html == "" && md == "" && svg == "" && len(png) == 0 {
		b := display.Render(v)
		if text, ok := rich["text/plain"].(string); ok && len(b.Data) == 1 {
			// A String method compiled code may not see.
			b = display.Text(text)
		}
		return b
	}
	text, ok := rich["text/plain"].(string)
	if !ok {
		text = fmt.Sprintf("%v", v)
	}
	return display.FromMethods(html, md, svg, png, text)
}
