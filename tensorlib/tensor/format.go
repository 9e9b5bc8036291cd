package tensor

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gotensor/gotensor/internal/textform"
	"github.com/gotensor/gotensor/tensorlib/backend"
)

// printLineWidth is PyTorch's print option: lines wrap before 80 columns.
// The others, and the rules of what is shown and how floats are written,
// are package textform's, which display's HTML table follows too.
const printLineWidth = 80

// String formats x as PyTorch prints a tensor: values with 4 decimals (or
// "1." style when every value is whole, or scientific notation when the
// magnitudes span more than 1000x), tensors with more than 1000 elements
// summarised with their first and last 3 items per dim around "...", and a
// dtype suffix for Float64, BFloat16 and Float16 and a device suffix off
// the CPU.
//
//	tensor([[1.0000, 2.5000],
//	        [3.0000, 4.0000]])
func (x *Tensor) String() string {
	if x == nil {
		return "<nil>"
	}
	const prefix = "tensor("
	indent := len(prefix)
	var suffixes []string
	if x.Device() != CPU {
		suffixes = append(suffixes, "device='"+x.Device().String()+"'")
	}
	var body string
	if x.Numel() == 0 {
		if x.Dim() != 1 {
			suffixes = append(suffixes, "size="+pyTuple(x.layout.Shape))
		}
		if x.DType() != Float32 {
			suffixes = append(suffixes, "dtype="+x.DType().String())
		}
		body = "[]"
	} else {
		if x.DType().IsFloat() && x.DType() != Float32 {
			suffixes = append(suffixes, "dtype="+x.DType().String())
		}
		p := newPrinter(x)
		body = p.tensorStr(0, 0, indent)
	}
	switch {
	case x.node == nil:
	case x.node.IsLeaf():
		suffixes = append(suffixes, "requires_grad=True")
	default:
		suffixes = append(suffixes, "grad_fn=<"+x.node.Op()+"Backward>")
	}
	return addSuffixes(prefix+body, suffixes, indent)
}

func pyTuple(shape []int) string {
	parts := make([]string, len(shape))
	for i, s := range shape {
		parts[i] = strconv.Itoa(s)
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func addSuffixes(s string, suffixes []string, indent int) string {
	var b strings.Builder
	b.WriteString(s)
	lastLineLen := len(s) - strings.LastIndex(s, "\n") + 1
	for _, suf := range suffixes {
		if lastLineLen+len(suf)+2 > printLineWidth {
			b.WriteString(",\n" + strings.Repeat(" ", indent) + suf)
			lastLineLen = indent + len(suf)
		} else {
			b.WriteString(", " + suf)
			lastLineLen += len(suf) + 2
		}
	}
	b.WriteString(")")
	return b.String()
}

// printer formats the row-major host copy of a tensor.
type printer struct {
	shape     []int
	strides   []int
	summarize bool
	dtype     DType
	f         []float64
	i         []int64
	b         []bool
	width     int
	floats    textform.Floats
}

func newPrinter(x *Tensor) *printer {
	p := &printer{shape: x.Shape(), strides: backend.ContiguousStrides(x.layout.Shape), summarize: x.Numel() > textform.Threshold, dtype: x.DType(), width: 1}
	switch h := x.host().(type) {
	case []float32:
		p.f = make([]float64, len(h))
		for i, v := range h {
			p.f[i] = float64(v)
		}
	case []float64:
		p.f = h
	case []backend.BF16:
		p.f = make([]float64, len(h))
		for i, v := range h {
			p.f[i] = float64(v.Float32())
		}
	case []backend.F16:
		p.f = make([]float64, len(h))
		for i, v := range h {
			p.f[i] = float64(v.Float32())
		}
	case []int64:
		p.i = h
	case []bool:
		p.b = h
	}
	idx := p.shownIndices(0, 0, nil)
	if !p.dtype.IsFloat() {
		for _, i := range idx {
			p.width = max(p.width, len(p.raw(i)))
		}
		return p
	}
	var vals []float64
	for _, i := range idx {
		if v := p.f[i]; v != 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	p.floats = textform.ForValues(vals)
	for _, v := range vals {
		p.width = max(p.width, len(p.floats.Format(v)))
	}
	return p
}

// shownIndices lists the flat indices of the elements that will be
// printed (all of them unless summarising).
func (p *printer) shownIndices(dim, off int, acc []int) []int {
	if dim == len(p.shape) {
		return append(acc, off)
	}
	n := p.shape[dim]
	for _, i := range p.shownRange(n) {
		if i < 0 {
			continue
		}
		acc = p.shownIndices(dim+1, off+i*p.strides[dim], acc)
	}
	return acc
}

// shownRange returns the indices shown along a dim of size n, with -1 for
// the "..." in between.
func (p *printer) shownRange(n int) []int { return textform.Shown(n, p.summarize) }

// raw formats element i without padding.
func (p *printer) raw(i int) string {
	switch {
	case p.f != nil:
		return p.floats.Format(p.f[i])
	case p.i != nil:
		return strconv.FormatInt(p.i[i], 10)
	}
	return textform.Bool(p.b[i])
}

func (p *printer) elem(i int) string {
	s := p.raw(i)
	if pad := p.width - len(s); pad > 0 {
		s = strings.Repeat(" ", pad) + s
	}
	return s
}

func (p *printer) tensorStr(dim, off, indent int) string {
	nd := len(p.shape)
	if nd == 0 {
		return p.elem(0)
	}
	if dim == nd-1 {
		perLine := max(1, (printLineWidth-indent)/(p.width+2))
		var items []string
		for _, i := range p.shownRange(p.shape[dim]) {
			if i < 0 {
				items = append(items, " ...")
				continue
			}
			items = append(items, p.elem(off+i*p.strides[dim]))
		}
		var lines []string
		for i := 0; i < len(items); i += perLine {
			lines = append(lines, strings.Join(items[i:min(i+perLine, len(items))], ", "))
		}
		return "[" + strings.Join(lines, ",\n"+strings.Repeat(" ", indent+1)) + "]"
	}
	var slices []string
	for _, i := range p.shownRange(p.shape[dim]) {
		if i < 0 {
			slices = append(slices, "...")
			continue
		}
		slices = append(slices, p.tensorStr(dim+1, off+i*p.strides[dim], indent+1))
	}
	sep := "," + strings.Repeat("\n", nd-dim-1) + strings.Repeat(" ", indent+1)
	return "[" + strings.Join(slices, sep) + "]"
}

// GoString returns the same text as String, so %#v prints it too.
func (x *Tensor) GoString() string { return x.String() }

var _ fmt.Stringer = (*Tensor)(nil)
