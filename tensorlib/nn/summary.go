package nn

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// A ModelSummary lists a model's layers with their output shapes and
// parameter counts. Summary makes one; it prints as an aligned table
// (String) and shows as an HTML table in a notebook (HTML).
type ModelSummary struct {
	Rows            []SummaryRow
	InputShape      []int // nil when no forward pass ran
	OutputShape     []int // the model's output shape, nil when unknown
	TotalParams     int   // elements in all parameters
	TrainableParams int   // elements in parameters that require grad
	Err             error // the error the forward pass stopped with, or nil
}

// A SummaryRow is one module of a ModelSummary.
type SummaryRow struct {
	Name        string // the module's path in StateDict names: "0", "features.2"
	Depth       int    // nesting depth, 0 for the model's direct children
	Layer       string // the module's repr, first line only for containers
	OutputShape []int  // nil when unknown
	Params      int    // elements in the module's parameters, children included
}

// Summary describes m: every sub-module (Children) with its
// parameter count and, when inputShape is given, the output shape of a
// forward pass on zeros of that shape (Int64 when the first layer is an
// Embedding). The pass runs without gradients and with Dropout and
// BatchNorm in evaluation mode (restored afterwards), on the device of m's
// first parameter. Output shapes are known for the layers of Sequentials;
// the children of other containers show only their parameter counts. A
// forward pass that panics with a tensor error stops the shapes there and
// is reported in Err.
//
//	nn.Summary(model, 1, 1, 28, 28) // a [1 1 28 28] input
func Summary(m Forwarder, inputShape ...int) *ModelSummary {
	s := &ModelSummary{}
	for _, p := range Parameters(m) {
		s.TotalParams += p.Numel()
		if p.RequiresGrad() {
			s.TrainableParams += p.Numel()
		}
	}
	var x *tensor.Tensor
	if len(inputShape) > 0 {
		s.InputShape = append([]int(nil), inputShape...)
		x = tensor.Zeros(inputShape...)
		if _, ok := firstLeaf(m).(*Embedding); ok {
			x = x.AsType(tensor.Int64)
		}
		if ps := Parameters(m); len(ps) > 0 {
			x = x.To(ps[0].Device())
		}
	}
	restore := evalModes(m)
	defer restore()
	tensor.NoGrad(func() {
		y := s.walk(m, "", 0, x)
		if y != nil {
			s.OutputShape = y.Shape()
		}
	})
	return s
}

// walk adds rows for m's children and returns m's output on x (nil when
// x is nil or the pass failed).
func (s *ModelSummary) walk(m Forwarder, prefix string, depth int, x *tensor.Tensor) *tensor.Tensor {
	_, sequential := m.(*Sequential)
	children := Children(m)
	if len(children) == 0 {
		return s.forward(m, x)
	}
	var y *tensor.Tensor
	if !sequential {
		// The order children run in is unknown: run the whole module.
		y = s.forward(m, x)
		x = nil
	}
	for _, ch := range children {
		if ch.Module == nil {
			continue // a tensor of m's own
		}
		row := len(s.Rows)
		s.Rows = append(s.Rows, SummaryRow{Name: prefix + ch.Name, Depth: depth,
			Layer: firstLine(describe(ch.Module)), Params: NumParameters(ch.Module)})
		x = s.walk(ch.Module, prefix+ch.Name+".", depth+1, x)
		if x != nil {
			s.Rows[row].OutputShape = x.Shape()
		}
	}
	if sequential {
		y = x
	}
	return y
}

func (s *ModelSummary) forward(m Forwarder, x *tensor.Tensor) *tensor.Tensor {
	if x == nil || s.Err != nil {
		return nil
	}
	var y *tensor.Tensor
	if err := tensor.Try(func() { y = m.Forward(x) }); err != nil {
		s.Err = err
		return nil
	}
	return y
}

// firstLeaf returns the module that first receives the input, following
// the first child of Sequentials.
func firstLeaf(m Forwarder) Forwarder {
	for {
		s, ok := m.(*Sequential)
		if !ok || len(s.Layers) == 0 {
			return m
		}
		m = s.Layers[0]
	}
}

// evalModes puts the Dropout and BatchNorm layers in m (those
// SetTraining reaches) in evaluation mode and returns a function that
// restores their modes.
func evalModes(m Forwarder) func() {
	var restore []func()
	visitLayers(m, func(l layer) {
		var mode *bool
		switch l := l.(type) {
		case *Dropout:
			mode = &l.Training
		case *BatchNorm:
			mode = &l.Training
		default:
			return
		}
		old := *mode
		*mode = false
		restore = append(restore, func() { *mode = old })
	})
	return func() {
		for _, f := range restore {
			f()
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSuffix(s[:i], "(")
	}
	return s
}

func shapeString(shape []int) string {
	if shape == nil {
		return "-"
	}
	return fmt.Sprint(shape)
}

// thousands formats n with comma separators: 203,530.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func (s *ModelSummary) cells() [][3]string {
	out := make([][3]string, len(s.Rows))
	for i, r := range s.Rows {
		out[i] = [3]string{strings.Repeat("  ", r.Depth) + "(" + r.Name + ") " + r.Layer, shapeString(r.OutputShape), thousands(r.Params)}
	}
	return out
}

func (s *ModelSummary) footer() []string {
	lines := []string{}
	if s.InputShape != nil {
		lines = append(lines, "Input shape: "+fmt.Sprint(s.InputShape), "Output shape: "+shapeString(s.OutputShape))
	}
	lines = append(lines, "Total params: "+thousands(s.TotalParams), "Trainable params: "+thousands(s.TrainableParams))
	if s.Err != nil {
		lines = append(lines, "Forward pass failed: "+s.Err.Error())
	}
	return lines
}

// String returns the summary as an aligned text table.
func (s *ModelSummary) String() string {
	head := [3]string{"Layer", "Output Shape", "Param #"}
	rows := s.cells()
	w := [3]int{len(head[0]), len(head[1]), len(head[2])}
	for _, r := range rows {
		for i := range r {
			w[i] = max(w[i], len(r[i]))
		}
	}
	total := w[0] + w[1] + w[2] + 4
	var b strings.Builder
	line := func(r [3]string) {
		fmt.Fprintf(&b, "%-*s  %-*s  %*s\n", w[0], r[0], w[1], r[1], w[2], r[2])
	}
	line(head)
	b.WriteString(strings.Repeat("=", total) + "\n")
	for _, r := range rows {
		line(r)
	}
	b.WriteString(strings.Repeat("=", total) + "\n")
	b.WriteString(strings.Join(s.footer(), "\n"))
	return b.String()
}

// HTML returns the summary as an HTML table, for notebooks.
func (s *ModelSummary) HTML() string {
	var b strings.Builder
	b.WriteString("<table>\n<thead><tr><th style=\"text-align:left\">Layer</th><th style=\"text-align:left\">Output Shape</th><th style=\"text-align:right\">Param #</th></tr></thead>\n<tbody>\n")
	for i, r := range s.cells() {
		pad := 0.5 + 1.5*float64(s.Rows[i].Depth)
		fmt.Fprintf(&b, "<tr><td style=\"text-align:left;padding-left:%.1fem\"><code>%s</code></td><td style=\"text-align:left\">%s</td><td style=\"text-align:right\">%s</td></tr>\n",
			pad, html.EscapeString(strings.TrimSpace(r[0])), html.EscapeString(r[1]), r[2])
	}
	b.WriteString("</tbody>\n</table>\n<p>")
	b.WriteString(html.EscapeString(strings.Join(s.footer(), " · ")))
	b.WriteString("</p>")
	return b.String()
}
