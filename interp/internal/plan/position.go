package plan

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// localKey returns the key of a type the cell declares in a function (see
// Session.objKey): where it is in the cell, the same in every check of
// the cell.
func (c *cell) localKey(tn *types.TypeName) string {
	return fmt.Sprintf("local%d.%s", c.cellOffset(c.tf.Offset(tn.Pos())), tn.Name())
}

// inCell reports whether pos is in the cell's own text, not in what the
// check source adds around it.
func (c *cell) inCell(pos token.Pos) bool {
	return c.pieceAt(c.tf.Offset(pos)) >= 0
}

// pieceAt returns the piece that holds offset off of the check source, or
// -1.
func (c *cell) pieceAt(off int) int {
	for i, p := range c.pieces {
		if o := c.pieceOff[i]; o >= 0 && off >= o && off <= o+p.end-p.start {
			return i
		}
	}
	return -1
}

// cellOffset returns the offset in the cell of offset off of the check
// source, or -1.
func (c *cell) cellOffset(off int) int {
	i := c.pieceAt(off)
	if i < 0 {
		return -1
	}
	return c.pieces[i].start + off - c.pieceOff[i]
}

// lineCol returns the cell line and column (1-based, in bytes) of offset
// off of the cell.
func (c *cell) lineCol(off int) (int, int) {
	i := sort.Search(len(c.lines), func(i int) bool { return c.lines[i] > off }) - 1
	return i + 1, off - c.lines[i] + 1
}

// lineStarts returns the offsets at which the lines of src start.
func lineStarts(src string) []int {
	l := []int{0}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			l = append(l, i+1)
		}
	}
	return l
}

// piece writes the check-source span of n, edited, after a //line comment
// with its position in the cell.
func (g *gen) piece(b *strings.Builder, n ast.Node) {
	g.span(b, g.off(n.Pos()), g.off(n.End()))
}

// span writes bytes [start, end) of the check source, edited, after a
// //line comment with its position in the cell.
func (g *gen) span(b *strings.Builder, start, end int) {
	if co := g.c.cellOffset(start); co >= 0 {
		line, col := g.c.lineCol(co)
		b.WriteString(g.s.lineDirective(g.c.n, line, col))
	}
	b.WriteString(g.ed.renderAt(g.c.text, start, end, g.inlineLine))
	b.WriteString("\n")
}

// inlineLine returns the /*line*/ comment that gives the text at offset
// off of the check source its cell position, or "".
func (g *gen) inlineLine(off int) string {
	co := g.c.cellOffset(off)
	if co < 0 {
		return ""
	}
	line, col := g.c.lineCol(co)
	return fmt.Sprintf("/*line %s:%d:%d*/", g.s.cfg.SourceName, genLine(g.c.n, line), col)
}

// lineOf returns the //line comment for the cell position of pos.
func (g *gen) lineOf(pos token.Pos) string {
	co := g.c.cellOffset(g.off(pos))
	if co < 0 {
		return ""
	}
	line, col := g.c.lineCol(co)
	return g.s.lineDirective(g.c.n, line, col)
}
