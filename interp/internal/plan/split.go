package plan

import (
	"go/scanner"
	"go/token"
)

// pieceKind is what a top-level piece of a cell is.
type pieceKind int

const (
	pieceStmt    pieceKind = iota // a statement, or a var declaration: runs in order
	pieceImport                   // an import declaration
	pieceDecl                     // a type, const, func or method declaration
	piecePackage                  // a package clause (a pasted program's): dropped
)

// piece is one top-level import, declaration or statement of a cell: bytes
// [start, end) of the cell, which begin at line:col of the cell (1-based).
// A declaration's doc comment belongs to it.
type piece struct {
	kind       pieceKind
	first      token.Token // its first token
	start, end int
	line, col  int
}

// splitCell cuts a cell into its top-level pieces. It only scans tokens:
// a piece ends at a semicolon (written or automatic) outside brackets,
// except the semicolons in the header of a for, if or switch statement.
// Syntax errors are left for the parser, which reports them at the cell's
// positions.
func splitCell(src string) []piece {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(file, []byte(src), nil, scanner.ScanComments)

	var pieces []piece
	var toks []token.Token // tokens of the piece being read
	first := -1            // offset of its first token
	doc := -1              // offset of a comment group that ends on the line before a piece
	docEnd := 0            // the line after that group
	depth, lastLine := 0, 0
	inHeader := false
	end := func(at int) {
		if first < 0 {
			return
		}
		start := first
		if doc >= 0 && docEnd == file.Line(file.Pos(first)) {
			start = doc
		}
		p := file.Position(file.Pos(start))
		pieces = append(pieces, piece{kind: kindOf(toks), first: toks[0], start: start, end: at, line: p.Line, col: p.Column})
		toks, first, doc = toks[:0], -1, -1
	}
	for {
		pos, tok, lit := sc.Scan()
		off := file.Offset(pos)
		if tok == token.EOF {
			end(len(src))
			return pieces
		}
		line := file.Line(pos)
		if tok == token.COMMENT {
			if first < 0 && depth == 0 && line != lastLine {
				if doc < 0 || docEnd != line {
					doc = off
				}
				docEnd = file.Line(pos+token.Pos(len(lit))) + 1
			}
			continue
		}
		if tok != token.SEMICOLON || lit != "\n" {
			lastLine = line
		}
		switch tok {
		case token.FOR, token.IF, token.SWITCH, token.SELECT:
			inHeader = inHeader || depth == 0
		case token.LBRACE:
			if depth == 0 {
				inHeader = false
			}
			depth++
		case token.LPAREN, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			depth--
		case token.SEMICOLON:
			if depth <= 0 && (!inHeader || lit == "\n") {
				end(off)
				continue
			}
		}
		if first < 0 {
			first = off
		}
		toks = append(toks, tok)
	}
}

// kindOf tells a declaration from a statement by its first tokens. A
// function literal called as a statement, "func(x int) {...}(1)", is a
// statement; "func (r T) M()" is a method.
func kindOf(toks []token.Token) pieceKind {
	at := func(i int) token.Token {
		if i < len(toks) {
			return toks[i]
		}
		return token.EOF
	}
	switch at(0) {
	case token.PACKAGE:
		return piecePackage
	case token.IMPORT:
		return pieceImport
	case token.TYPE, token.CONST:
		return pieceDecl
	case token.FUNC:
		if at(1) == token.IDENT {
			return pieceDecl
		}
		if at(1) != token.LPAREN {
			return pieceStmt
		}
		// After the parenthesized list, a method has its name and then
		// "(" or "[".
		depth := 0
		for i := 1; i < len(toks); i++ {
			switch toks[i] {
			case token.LPAREN:
				depth++
			case token.RPAREN:
				if depth--; depth == 0 {
					if at(i+1) == token.IDENT && (at(i+2) == token.LPAREN || at(i+2) == token.LBRACK) {
						return pieceDecl
					}
					return pieceStmt
				}
			}
		}
	}
	return pieceStmt
}
