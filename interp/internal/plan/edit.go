package plan

import (
	"sort"
	"strings"
)

// edits are changes to the check source, made by byte offsets, which
// rendering applies to a span. The planner rewrites a cell this way rather
// than by printing a changed syntax tree: every token it leaves alone keeps
// its line (inserted text never holds a newline), so the //line comment
// before each piece keeps the interpreter's positions in the cell's terms.
type edits struct {
	list []edit
	seq  int
}

// edit replaces bytes [pos, end) with text; pos == end inserts.
type edit struct {
	pos, end int
	text     string
	// closing marks an insertion that ends a construct (a closing
	// parenthesis after an argument): at one offset, closings come before
	// openings, the innermost construct's first.
	closing bool
	seq     int
}

// insert inserts text at off, before what starts there.
func (e *edits) insert(off int, text string) { e.add(edit{pos: off, end: off, text: text}) }

// insertClosing inserts text at off, after what ends there.
func (e *edits) insertClosing(off int, text string) {
	e.add(edit{pos: off, end: off, text: text, closing: true})
}

// insertOutside inserts text at off as insertClosing does, but after
// every closing there, made before or after it: it ends a construct
// around all that ends at off (a statement rewritten once its parts
// are).
func (e *edits) insertOutside(off int, text string) {
	e.add(edit{pos: off, end: off, text: text, closing: true})
	e.list[len(e.list)-1].seq = -e.seq
}

// replace replaces bytes [pos, end) with text. Edits inside the span are
// dropped.
func (e *edits) replace(pos, end int, text string) { e.add(edit{pos: pos, end: end, text: text}) }

// take replaces bytes [pos, end) with text and returns what they render
// to, with the edits made so far inside them and at their ends
// (insertions at pos, closings at end), which it drops: the span's text
// moves elsewhere. A closing at pos ends what comes before; an insertion
// at end is of what follows.
func (e *edits) take(src string, pos, end int, text string) string {
	var in []edit
	kept := e.list[:0]
	for _, x := range e.list {
		if x.pos >= pos && x.end <= end && !(x.pos == pos && x.closing) && !(x.pos == end && !x.closing) {
			in = append(in, x)
			continue
		}
		kept = append(kept, x)
	}
	e.list = kept
	e.replace(pos, end, text)
	return renderList(src, pos, end, in, nil)
}

// replaceLines replaces bytes [pos, end) of src with text, which may
// hold newlines: as many as the replaced bytes do, so that lines stay
// where they are.
func (e *edits) replaceLines(src string, pos, end int, text string) {
	if strings.Count(text, "\n") != strings.Count(src[pos:end], "\n") {
		panic("plan: an edit must keep the lines")
	}
	e.seq++
	e.list = append(e.list, edit{pos: pos, end: end, text: text, seq: e.seq})
}

func (e *edits) add(x edit) {
	if strings.Contains(x.text, "\n") {
		panic("plan: an edit must not add a line")
	}
	e.seq++
	x.seq = e.seq
	e.list = append(e.list, x)
}

// render returns src[start:end] with the edits in the span applied.
// Insertions at end belong to the span only when they are closings.
func (e *edits) render(src string, start, end int) string {
	return e.renderAt(src, start, end, nil)
}

// renderAt is render that writes, after each edit that text of the span
// follows on the same line, the /*line*/ comment that at(offset) returns
// for the offset of src where that text starts: the interpreter's columns
// stay the cell's after an edit changed the length of the line.
func (e *edits) renderAt(src string, start, end int, at func(off int) string) string {
	var in []edit
	for _, x := range e.list {
		if x.pos < start || x.end > end || x.pos == end && !x.closing {
			continue
		}
		in = append(in, x)
	}
	return renderList(src, start, end, in, at)
}

// renderList is renderAt with the edits of the span in.
func renderList(src string, start, end int, in []edit, at func(off int) string) string {
	sort.SliceStable(in, func(i, j int) bool {
		a, b := in[i], in[j]
		if a.pos != b.pos {
			return a.pos < b.pos
		}
		if a.closing != b.closing {
			return a.closing
		}
		if a.closing {
			return a.seq > b.seq
		}
		if (a.pos == a.end) != (b.pos == b.end) {
			return a.pos == a.end // insertions before a replacement
		}
		return a.seq < b.seq
	})
	var b strings.Builder
	next := start
	for i, x := range in {
		if x.pos < next {
			continue // inside a replaced span
		}
		b.WriteString(src[next:x.pos])
		b.WriteString(x.text)
		next = x.end
		if at != nil && next < end && src[next] != '\n' && (i+1 == len(in) || in[i+1].pos > next) {
			b.WriteString(at(next))
		}
	}
	b.WriteString(src[next:end])
	return b.String()
}
