package nbrun

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// Parameter is a value given to a notebook run: papermill's -p NAME VALUE.
type Parameter struct {
	Name  string
	Value string
}

// The cell tags of papermill's convention.
const (
	// ParametersTag marks the cell that holds a notebook's parameters
	// with their default values.
	ParametersTag = "parameters"
	// InjectedTag marks the cell InjectParameters adds.
	InjectedTag = "injected-parameters"
)

// InjectParameters adds a code cell that sets params, as papermill does:
// right after the first cell tagged "parameters" (which holds the
// defaults), or at the top when there is none, tagged
// "injected-parameters" and replacing the cell a previous run injected.
//
// Each parameter becomes a Go assignment: NAME = VALUE when the
// parameters cell declares NAME, NAME := VALUE otherwise. VALUE is written
// as a Go literal: a number or true/false as it is, anything else quoted as
// a string; when the parameters cell gives NAME a string (a string literal
// or type string) the value is always quoted, so that -p run 42 sets a
// string "42". It returns an error for a name that is not a Go identifier.
func InjectParameters(nb *Notebook, params []Parameter) error {
	nb.Cells = slices.DeleteFunc(nb.Cells, func(c *Cell) bool { return hasTag(c, InjectedTag) })
	at := 0
	declared := map[string]bool{}
	strs := map[string]bool{}
	for i, c := range nb.Cells {
		if c.Type == CodeCell && hasTag(c, ParametersTag) {
			at = i + 1
			declared, strs = declarations(c.Source)
			break
		}
	}
	var b strings.Builder
	b.WriteString("// Parameters\n")
	for _, p := range params {
		if !token.IsIdentifier(p.Name) {
			return fmt.Errorf("nbrun: parameter %q is not a Go identifier", p.Name)
		}
		op := ":="
		if declared[p.Name] {
			op = "="
		}
		fmt.Fprintf(&b, "%s %s %s\n", p.Name, op, literal(p.Value, strs[p.Name]))
	}
	cell := &Cell{
		ID:       newCellID(cellIDs(nb)),
		Type:     CodeCell,
		Source:   strings.TrimSuffix(b.String(), "\n"),
		Metadata: map[string]any{"tags": []any{InjectedTag}},
	}
	nb.Cells = slices.Insert(nb.Cells, at, cell)
	return nil
}

// literal writes a parameter's value as a Go literal.
func literal(v string, isString bool) string {
	if !isString && (v == "true" || v == "false" || isNumber(v)) {
		return v
	}
	return strconv.Quote(v)
}

// isNumber reports whether v is a Go number literal, possibly negative.
func isNumber(v string) bool {
	e, err := parser.ParseExpr(v)
	if err != nil {
		return false
	}
	if u, ok := e.(*ast.UnaryExpr); ok && (u.Op == token.SUB || u.Op == token.ADD) {
		e = u.X
	}
	l, ok := e.(*ast.BasicLit)
	return ok && (l.Kind == token.INT || l.Kind == token.FLOAT)
}

// declarations returns the names a parameters cell declares (with := or
// var, at its top level) and those of them it gives a string.
func declarations(src string) (names, strs map[string]bool) {
	names, strs = map[string]bool{}, map[string]bool{}
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\nfunc _() {\n"+statements(src)+"\n}", 0)
	if err != nil {
		return names, strs
	}
	isString := func(e ast.Expr) bool {
		l, ok := e.(*ast.BasicLit)
		return ok && l.Kind == token.STRING
	}
	for _, st := range f.Decls[0].(*ast.FuncDecl).Body.List {
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok != token.DEFINE {
				continue
			}
			for i, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					names[id.Name] = true
					strs[id.Name] = len(st.Rhs) == len(st.Lhs) && isString(st.Rhs[i])
				}
			}
		case *ast.DeclStmt:
			g, ok := st.Decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, sp := range g.Specs {
				vs := sp.(*ast.ValueSpec)
				typ, _ := vs.Type.(*ast.Ident)
				for i, id := range vs.Names {
					names[id.Name] = true
					strs[id.Name] = typ != nil && typ.Name == "string" || i < len(vs.Values) && isString(vs.Values[i])
				}
			}
		}
	}
	return names, strs
}

// statements returns a cell's source without its imports and function
// declarations, which a cell may mix with its statements and a function
// body may not hold.
func statements(src string) string {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(file, []byte(src), nil, 0)
	out := []byte(src)
	blank := func(from, to int) {
		for i := from; i < to && i < len(out); i++ {
			if out[i] != '\n' {
				out[i] = ' '
			}
		}
	}
	depth := 0
	atStart := true // at the start of a top-level statement
	for {
		pos, tok, _ := sc.Scan()
		if tok == token.EOF {
			break
		}
		start := file.Offset(pos)
		switch {
		case depth == 0 && atStart && (tok == token.IMPORT || tok == token.FUNC):
			// Skip to the end of the declaration: the semicolon at depth 0
			// after its block or parenthesized list.
			d := 0
			end := len(src)
			for {
				p, t, _ := sc.Scan()
				if t == token.EOF {
					break
				}
				switch t {
				case token.LPAREN, token.LBRACE, token.LBRACK:
					d++
				case token.RPAREN, token.RBRACE, token.RBRACK:
					d--
				}
				if d == 0 && t == token.SEMICOLON {
					end = file.Offset(p)
					break
				}
			}
			blank(start, end)
			atStart = true
			continue
		case tok == token.LPAREN || tok == token.LBRACE || tok == token.LBRACK:
			depth++
		case tok == token.RPAREN || tok == token.RBRACE || tok == token.RBRACK:
			depth--
		}
		atStart = depth == 0 && tok == token.SEMICOLON
	}
	return string(out)
}

// hasTag reports whether c's metadata lists tag among its tags.
func hasTag(c *Cell, tag string) bool {
	tags, _ := c.Metadata["tags"].([]any)
	for _, t := range tags {
		if t == tag {
			return true
		}
	}
	return false
}

// cellIDs returns the ids of nb's cells.
func cellIDs(nb *Notebook) map[string]bool {
	ids := map[string]bool{}
	for _, c := range nb.Cells {
		ids[c.ID] = true
	}
	return ids
}
