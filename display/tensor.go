package display

import (
	"strconv"
	"strings"

	"github.com/gotensor/gotensor/internal/textform"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// TensorBundle returns the bundle of a tensor: "text/html" with a header
// (shape, dtype, device, requires_grad, and grad_fn for results of tracked
// ops) over a table of its values — a 1-D tensor as one row, a 2-D
// tensor as a matrix, a higher-rank tensor as its 2-D slices labelled
// [i, j, :, :] — and "text/plain" with x.String(), PyTorch's text form.
// Tensors of more than 1000 elements are summarised like the text form:
// 3 items at each end of every long dimension, with … ⋮ between. Values are
// formatted as the text form formats them.
//
// A tensor on an accelerator is displayed without a manual .CPU(): only the
// shown items are copied to the host. Render and Show use TensorBundle for
// *tensor.Tensor values.
//
//	b := display.TensorBundle(tensor.Eye(3))
func TensorBundle(x *tensor.Tensor) Bundle {
	if x == nil {
		return Text("<nil>")
	}
	return Bundle{Data: map[string]any{
		"text/plain": x.String(),
		"text/html":  tensorHTML(x),
	}}
}

// tensorStyle's selectors outrank JupyterLab's own table rules.
const tensorStyle = `<style>` +
	`div.gt-tensor{font-family:var(--jp-code-font-family,monospace);font-size:var(--jp-code-font-size,12px);overflow-x:auto}` +
	`div.gt-tensor .gt-h{margin:0 0 4px}` +
	`div.gt-tensor .gt-k{opacity:.6}` +
	`div.gt-tensor .gt-s{opacity:.7;margin:6px 0 2px}` +
	`div.gt-tensor table.gt-t{border-collapse:collapse;table-layout:auto;margin:0;font-size:inherit}` +
	`div.gt-tensor table.gt-t td,div.gt-tensor table.gt-t th{padding:1px 8px;border:none;text-align:right;white-space:nowrap}` +
	`div.gt-tensor table.gt-t th{opacity:.5;font-weight:normal}` +
	`div.gt-tensor table.gt-t tbody tr:nth-child(odd){background:rgba(127,127,127,.1)}` +
	`div.gt-tensor table.gt-t tbody tr:nth-child(even){background:transparent}` +
	`</style>`

// tensorHTML renders x as a well-formed XHTML fragment.
func tensorHTML(x *tensor.Tensor) string {
	var b strings.Builder
	b.WriteString(`<div class="gt-tensor">`)
	b.WriteString(tensorStyle)
	shape := x.Shape()
	summarize := x.Numel() > textform.Threshold
	b.WriteString(`<div class="gt-h">`)
	b.WriteString(`<span class="gt-k">shape</span> ` + escape(shapeString(shape)))
	b.WriteString(` · <span class="gt-k">dtype</span> ` + escape(x.DType().String()))
	b.WriteString(` · <span class="gt-k">device</span> ` + escape(x.Device().String()))
	if g, ok := any(x).(interface{ RequiresGrad() bool }); ok {
		b.WriteString(` · <span class="gt-k">requires_grad</span> ` + strconv.FormatBool(g.RequiresGrad()))
	}
	if g, ok := any(x).(interface{ GradFn() string }); ok && g.GradFn() != "" {
		b.WriteString(` · <span class="gt-k">grad_fn</span> ` + escape(g.GradFn()))
	}
	if summarize {
		b.WriteString(` · <span class="gt-k">summarised</span>`)
	}
	b.WriteString(`</div>`)
	if x.Numel() == 0 {
		b.WriteString(`<div class="gt-s">(empty)</div></div>`)
		return b.String()
	}
	v := shownValues(x, summarize)
	if len(shape) == 0 {
		b.WriteString(`<table class="gt-t"><tbody><tr><td>` + escape(v.text[0]) + `</td></tr></tbody></table></div>`)
		return b.String()
	}
	if len(shape) == 1 {
		v.matrix(&b, nil, 0, 0)
		b.WriteString(`</div>`)
		return b.String()
	}
	v.slices(&b, 0, 0, nil)
	b.WriteString(`</div>`)
	return b.String()
}

// detached returns x without autograd history, when the tensor package
// tracks it, so that cutting out the shown items records no graph.
func detached(x *tensor.Tensor) *tensor.Tensor {
	if d, ok := any(x).(interface{ Detach() *tensor.Tensor }); ok {
		return d.Detach()
	}
	return x
}

// shapeString formats a shape as "[2, 3]".
func shapeString(shape []int) string {
	parts := make([]string, len(shape))
	for i, s := range shape {
		parts[i] = strconv.Itoa(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// shown holds the formatted items of a tensor that are displayed: a
// row-major block of shape sub, whose position p along dim d stands for
// index idx[d][p] of the tensor, with an ellipsis after position gap[d]
// (-1 for none).
type shown struct {
	idx     [][]int
	gap     []int
	sub     []int
	strides []int
	text    []string
}

// shownValues gathers and formats the displayed items of x. When
// summarising, the edge items of each long dimension are cut out on x's
// device, so only they travel to the host.
func shownValues(x *tensor.Tensor, summarize bool) *shown {
	shape := x.Shape()
	s := &shown{idx: make([][]int, len(shape)), gap: make([]int, len(shape))}
	sub := detached(x)
	for d, n := range shape {
		s.gap[d] = -1
		for p, i := range textform.Shown(n, summarize) {
			if i < 0 {
				s.gap[d] = p - 1
				continue
			}
			s.idx[d] = append(s.idx[d], i)
		}
		if s.gap[d] >= 0 {
			k := textform.EdgeItems
			sub = tensor.Cat(d, sub.Narrow(d, 0, k), sub.Narrow(d, n-k, k))
		}
	}
	if sub.Device() != tensor.CPU {
		sub = sub.CPU()
	}
	s.sub = sub.Shape()
	s.strides = make([]int, len(s.sub))
	st := 1
	for d := len(s.sub) - 1; d >= 0; d-- {
		s.strides[d] = st
		st *= s.sub[d]
	}
	s.text = formatValues(sub)
	return s
}

// formatValues formats a CPU tensor's items in row-major order as the
// tensor's text form does (package textform's rules).
func formatValues(x *tensor.Tensor) []string {
	var out []string
	switch x.DType() {
	case tensor.Int64:
		for _, n := range x.Int64s() {
			out = append(out, strconv.FormatInt(n, 10))
		}
	case tensor.Bool:
		for _, b := range x.Bools() {
			out = append(out, textform.Bool(b))
		}
	default:
		v := x.Float64s()
		f := textform.ForValues(v)
		for _, x := range v {
			out = append(out, f.Format(x))
		}
	}
	return out
}

// slices writes the 2-D slices of dims d and beyond, for the leading
// indices lead chosen so far, starting at flat offset off.
func (s *shown) slices(b *strings.Builder, d, off int, lead []int) {
	nd := len(s.sub)
	if d == nd-2 {
		if nd > 2 {
			label := make([]string, 0, nd)
			for _, i := range lead {
				label = append(label, strconv.Itoa(i))
			}
			label = append(label, ":", ":")
			b.WriteString(`<div class="gt-s">[` + strings.Join(label, ", ") + `]</div>`)
		}
		s.matrix(b, lead, d, off)
		return
	}
	for p, i := range s.idx[d] {
		s.slices(b, d+1, off+p*s.strides[d], append(lead[:len(lead):len(lead)], i))
		if p == s.gap[d] {
			b.WriteString(`<div class="gt-s">⋮</div>`)
		}
	}
}

// matrix writes the table of the last one or two dims, from dim d on, at
// flat offset off.
func (s *shown) matrix(b *strings.Builder, lead []int, d, off int) {
	nd := len(s.sub)
	cols, colGap := s.idx[nd-1], s.gap[nd-1]
	rows, rowGap, rowStride := []int{-1}, -1, 0
	if nd-d == 2 {
		rows, rowGap, rowStride = s.idx[d], s.gap[d], s.strides[d]
	}
	b.WriteString(`<table class="gt-t"><thead><tr>`)
	if rowStride != 0 {
		b.WriteString(`<th></th>`)
	}
	for p, j := range cols {
		b.WriteString(`<th>` + strconv.Itoa(j) + `</th>`)
		if p == colGap {
			b.WriteString(`<th>…</th>`)
		}
	}
	b.WriteString(`</tr></thead><tbody>`)
	for rp, i := range rows {
		b.WriteString(`<tr>`)
		if rowStride != 0 {
			b.WriteString(`<th>` + strconv.Itoa(i) + `</th>`)
		}
		base := off + rp*rowStride
		for p := range cols {
			b.WriteString(`<td>` + escape(s.text[base+p]) + `</td>`)
			if p == colGap {
				b.WriteString(`<td>…</td>`)
			}
		}
		b.WriteString(`</tr>`)
		if rp == rowGap {
			b.WriteString(`<tr><th>⋮</th>`)
			for p := range cols {
				b.WriteString(`<td>⋮</td>`)
				if p == colGap {
					b.WriteString(`<td>⋱</td>`)
				}
			}
			b.WriteString(`</tr>`)
		}
	}
	b.WriteString(`</tbody></table>`)
}
