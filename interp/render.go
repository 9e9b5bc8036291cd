package interp

import (
	"fmt"
	"go/ast"
	"reflect"
	"strings"

	"github.com/gotensor/gotensor/display"
)

// displayMethods are the methods that give a value's rich output, with the
// MIME type of their result.
var displayMethods = []struct{ method, result, mime string }{
	{"HTML", "string", "text/html"},
	{"Markdown", "string", "text/markdown"},
	{"SVG", "string", "image/svg+xml"},
	{"PNG", "[]byte", "image/png"},
	{"String", "string", "text/plain"},
}

// lastName is the variable that holds a cell's last value while it is
// rendered.
const lastName = "_gtLast"

// richMethods hands the results of the display methods of the cell's last
// value, held in lastName, to setRich.
//
// A type declared in a cell is invisible to display.Render's type
// assertions (compiled code sees a wrapper of the value, without its
// methods), and yaegi v0.16.1 answers a type assertion of such a value to
// an interface with methods with false. So the interpreter is asked
// whether the value's static type has each display method that a cell
// declared, by compiling
//
//	func() { var _gtm string = _gtLast.HTML(); _gt.Rich("text/html", _gtm) }()
//
// which runs when it compiles.
//
// Values of compiled types are left to display.Render: yaegi's compiler
// does not check their method sets.
func (s *Session) richMethods(v reflect.Value) error {
	if typeKey(v.Type()) != "" {
		return nil
	}
	for _, m := range displayMethods {
		declared := false
		for key := range s.methods {
			if strings.HasSuffix(key, "."+m.method) {
				declared = true
				break
			}
		}
		if !declared {
			continue
		}
		call, err := s.stmts(fmt.Sprintf("var _gtm %s = %s.%s()\n%s.Rich(%q, _gtm)", m.result, lastName, m.method, rtName, m.mime))
		if err != nil {
			return err
		}
		prog, err := s.compile(s.block(funcLit(s.root, call...)))
		if err != nil {
			continue // no such method
		}
		if err := s.exec(prog); err != nil {
			return err
		}
	}
	return nil
}

// stmts parses statements.
func (s *Session) stmts(src string) ([]ast.Stmt, error) {
	f, err := parseFile(s.yi.FileSet(), "package main\nfunc _() {\n"+src+"\n}")
	if err != nil {
		return nil, err
	}
	return f.Decls[0].(*ast.FuncDecl).Body.List, nil
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
