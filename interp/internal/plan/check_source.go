package plan

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// parse builds the check source of the cell and parses it.
func (c *cell) parse() error {
	c.lines = lineStarts(c.src)
	c.pieces = splitCell(c.src)
	// A cell with a package clause is a Go file (a pasted program): its
	// var declarations are package-level, initialized in dependency order.
	program := false
	for _, p := range c.pieces {
		program = program || p.kind == piecePackage
	}
	for i, p := range c.pieces {
		if program && p.kind == pieceStmt && p.first == token.VAR {
			c.pieces[i].kind = pieceDecl
		}
	}
	c.pieceOff = make([]int, len(c.pieces))
	used := identNames(c.src)
	var b strings.Builder
	b.WriteString("package main\n")
	var decls []*instDecl
	if c.inst != nil {
		decls = c.inst.decls()
	}
	if len(c.s.imports) > 0 || len(decls) > 0 {
		// The session's imports that the cell may use: the others would
		// cost the checker their import and an "unused" error.
		names := make([]string, 0, len(c.s.imports))
		for name := range c.s.imports {
			// Instance code may call the runtime's compiled instances.
			if used[name] || name == "." || name == rtName && len(decls) > 0 && c.inst.runtime {
				names = append(names, name)
			}
		}
		sort.Strings(names)
		b.WriteString("import (\n")
		for _, name := range names {
			fmt.Fprintf(&b, "\t%s %q\n", name, c.s.imports[name])
		}
		if len(decls) > 0 {
			// The imports instance code uses.
			paths := make([]string, 0, len(c.inst.hidden))
			for p := range c.inst.hidden {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			for _, p := range paths {
				fmt.Fprintf(&b, "\t%s %q\n", c.inst.hidden[p], p)
			}
		}
		b.WriteString(")\n")
	}
	emit := func(kinds ...pieceKind) {
		for i, p := range c.pieces {
			for _, k := range kinds {
				if p.kind == k {
					fmt.Fprintf(&b, "//line cell:%d:%d\n", p.line, p.col)
					c.pieceOff[i] = b.Len()
					b.WriteString(c.src[p.start:p.end])
					b.WriteString("\n")
				}
			}
		}
	}
	for i := range c.pieceOff {
		c.pieceOff[i] = -1
	}
	emit(pieceImport)
	// Instance code, each declaration under a //line comment naming it
	// (see errorAt).
	instStart := b.Len()
	for k, d := range decls {
		fmt.Fprintf(&b, "//line %s%d:%d:%d\n%s\n", instFileName, k, max(d.line, 1), max(d.col, 1), d.text)
	}
	instEnd := b.Len()
	emit(pieceDecl)
	b.WriteString("func " + bodyName + "() {\n")
	emit(pieceStmt)
	// The body's end is the cell's, for "found '}'" at a cell's last
	// line.
	endLine, endCol := c.lineCol(len(c.src))
	fmt.Fprintf(&b, "//line cell:%d:%d\n}\n", endLine, endCol)
	c.text = b.String()

	c.fset = token.NewFileSet()
	f, err := parser.ParseFile(c.fset, "", c.text, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		var list scanner.ErrorList
		if e, ok := err.(scanner.ErrorList); ok {
			list = e
		}
		var out ErrorList
		for _, e := range list {
			out = append(out, c.errorAt(e.Pos, e.Msg))
			if len(out) == 10 {
				break
			}
		}
		if len(out) == 0 {
			out = ErrorList{{Cell: c.n, Msg: err.Error()}}
		}
		return out
	}
	c.file = f
	c.tf = c.fset.File(f.Package)
	c.dedupeImports()
	c.declared = map[string]bool{}
	c.instDecls = map[ast.Decl]*instDecl{}
	for _, d := range f.Decls {
		if off := c.tf.Offset(d.Pos()); off >= instStart && off < instEnd {
			if k := len(c.instDecls); k < len(decls) {
				c.instDecls[d] = decls[k]
			}
			continue
		}
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.ImportSpec:
					if c.inCell(sp.Pos()) {
						c.imports = append(c.imports, sp)
					}
				case *ast.TypeSpec:
					c.types = append(c.types, sp)
					c.declared[sp.Name.Name] = true
				case *ast.ValueSpec:
					if d.Tok == token.VAR {
						c.vars = append(c.vars, sp)
					} else {
						c.consts = append(c.consts, sp)
					}
					for _, n := range sp.Names {
						c.declared[n.Name] = true
					}
				}
			}
		case *ast.FuncDecl:
			switch {
			case d.Name.Name == bodyName && d.Recv == nil && !c.inCell(d.Pos()):
				c.body = d
			case d.Recv != nil:
				c.methods = append(c.methods, d)
			default:
				c.funcs = append(c.funcs, d)
				if d.Name.Name != "init" {
					c.declared[d.Name.Name] = true
				}
			}
		}
	}
	for _, sp := range c.imports {
		c.declared[importName(sp, c.s.u)] = true
	}
	if len(c.instDecls) != len(decls) {
		return ErrorList{{Cell: c.n, Msg: fmt.Sprintf("internal error: %d declarations of instance code, %d expected; please report it", len(c.instDecls), len(decls))}}
	}
	c.names = map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			c.names[id.Name] = true
		}
		return true
	})
	return nil
}

// dedupeImports drops imports that an earlier one of the same name makes
// again (importing twice is harmless in a notebook), and the session's
// imports whose name a cell's import takes.
func (c *cell) dedupeImports() {
	cellNames := map[string]bool{}
	for _, d := range c.file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			for _, sp := range g.Specs {
				if sp := sp.(*ast.ImportSpec); c.inCell(sp.Pos()) {
					cellNames[importName(sp, c.s.u)] = true
				}
			}
		}
	}
	// A name the cell declares at package level takes the place of a
	// session import of that name.
	for _, d := range c.file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				cellNames[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					cellNames[sp.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						cellNames[n.Name] = true
					}
				}
			}
		}
	}
	seen := map[string]string{}
	for _, d := range c.file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		kept := g.Specs[:0]
		for _, sp := range g.Specs {
			is := sp.(*ast.ImportSpec)
			name := importName(is, c.s.u)
			path, _ := strconv.Unquote(is.Path.Value)
			if !c.inCell(is.Pos()) && cellNames[name] {
				continue // the cell's import or declaration of the name
			}
			if name != "_" && name != "." {
				if _, dup := seen[name]; dup && seen[name] == path {
					continue
				}
				seen[name] = path
			}
			kept = append(kept, sp)
		}
		g.Specs = kept
	}
}

// identNames returns the identifiers of src.
func identNames(src string) map[string]bool {
	fset := token.NewFileSet()
	var sc scanner.Scanner
	sc.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	names := map[string]bool{}
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			return names
		}
		if tok == token.IDENT {
			names[lit] = true
		}
	}
}

// importName returns the name an import declares.
func importName(sp *ast.ImportSpec, u *Universe) string {
	if sp.Name != nil {
		return sp.Name.Name
	}
	p, _ := strconv.Unquote(sp.Path.Value)
	return u.Name(p)
}
