package interp

import (
	"go/scanner"
	"go/token"
)

// chunkKind classifies one top-level piece of a cell.
type chunkKind int

const (
	chunkStmt   chunkKind = iota // a statement, run in order
	chunkImport                  // an import declaration
	chunkDecl                    // a type or const declaration
	chunkVar                     // a var declaration, run in order like a statement
	chunkFunc                    // a function or method declaration
)

// chunk is one top-level statement or declaration of a cell: the byte range
// [start, end) of the cell's text and where it starts in the cell's own
// numbering (1-based line and column).
type chunk struct {
	kind       chunkKind
	start, end int
	line, col  int
}

// scanned is one token of a cell.
type scanned struct {
	pos token.Pos
	tok token.Token
}

// splitCell cuts a cell into its top-level statements and declarations.
// It only tokenizes: syntax errors inside a chunk are left for the parser,
// which reports them with the cell's positions.
func splitCell(src string) []chunk {
	fset := token.NewFileSet()
	file := fset.AddFile("cell", -1, len(src))
	var s scanner.Scanner
	s.Init(file, []byte(src), nil, scanner.ScanComments)

	var chunks []chunk
	var cur []scanned
	depth := 0
	header := false // in the header of a for, if or switch: its semicolons are its own
	// The comment lines right before a chunk start it, so that a
	// declaration keeps its doc comment.
	docStart, docEnd := token.NoPos, 0 // the first comment of the group, the line after its end
	lastLine := 0                      // the line of the last token
	flush := func(end int) {
		if len(cur) == 0 {
			return
		}
		p := fset.Position(cur[0].pos)
		c := chunk{kind: classify(cur), start: p.Offset, end: end, line: p.Line, col: p.Column}
		if docStart.IsValid() && docEnd == p.Line {
			d := fset.Position(docStart)
			c.start, c.line, c.col = d.Offset, d.Line, d.Column
		}
		chunks = append(chunks, c)
		cur = cur[:0]
		docStart = token.NoPos
	}
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			flush(len(src))
			break
		}
		if t == token.COMMENT {
			if p := fset.Position(pos); len(cur) == 0 && depth == 0 && p.Line != lastLine {
				if !docStart.IsValid() || docEnd != p.Line {
					docStart = pos
				}
				docEnd = fset.Position(pos+token.Pos(len(lit))).Line + 1
			}
			continue
		}
		if t != token.SEMICOLON || lit != "\n" {
			lastLine = fset.Position(pos).Line
		}
		switch t {
		case token.FOR, token.IF, token.SWITCH:
			if depth == 0 {
				header = true
			}
		case token.LBRACE:
			if depth == 0 {
				header = false
			}
			depth++
		case token.LPAREN, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			depth--
		case token.SEMICOLON:
			if depth <= 0 && (!header || lit == "\n") {
				flush(fset.Position(pos).Offset)
				continue
			}
		}
		cur = append(cur, scanned{pos, t})
	}
	return chunks
}

// classify tells a declaration from a statement by its first tokens. A
// function literal called as a statement, "func(x int) {...}(1)", is a
// statement; "func (r T) M()" is a method declaration.
func classify(toks []scanned) chunkKind {
	first := func(i int) token.Token {
		if i < len(toks) {
			return toks[i].tok
		}
		return token.EOF
	}
	switch first(0) {
	case token.IMPORT:
		return chunkImport
	case token.TYPE, token.CONST:
		return chunkDecl
	case token.VAR:
		return chunkVar
	case token.FUNC:
		switch first(1) {
		case token.IDENT:
			return chunkFunc
		case token.LPAREN:
			// Skip the parenthesized list; a method has a name and a "(" or
			// "[" after its receiver.
			depth := 0
			for i := 1; i < len(toks); i++ {
				switch first(i) {
				case token.LPAREN:
					depth++
				case token.RPAREN:
					depth--
					if depth == 0 {
						if first(i+1) == token.IDENT && (first(i+2) == token.LPAREN || first(i+2) == token.LBRACK) {
							return chunkFunc
						}
						return chunkStmt
					}
				}
			}
		}
	}
	return chunkStmt
}
