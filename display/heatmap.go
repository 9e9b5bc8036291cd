package display

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"github.com/gotensor/gotensor/tensorlib/tensor"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A HeatMapOption configures HeatMap.
type HeatMapOption func(*heatMapConfig)

type heatMapConfig struct {
	xTicks, yTicks []string
	xLabel, yLabel string
	lo, hi         float64
	hasRange       bool
}

// TickLabels names HeatMap's columns (x, across) and rows (y, down), such
// as the tokens of a sequence; nil leaves an axis numbered. A list whose
// length is not the number of columns (rows) panics in HeatMap.
func TickLabels(x, y []string) HeatMapOption {
	return func(c *heatMapConfig) { c.xTicks, c.yTicks = x, y }
}

// AxisLabels sets the titles of HeatMap's axes.
func AxisLabels(x, y string) HeatMapOption {
	return func(c *heatMapConfig) { c.xLabel, c.yLabel = x, y }
}

// ColorRange fixes the values of the lightest (lo) and darkest (hi)
// colour, instead of the tensor's minimum and maximum: ColorRange(0, 1)
// for probabilities. Values outside are clamped.
func ColorRange(lo, hi float64) HeatMapOption {
	return func(c *heatMapConfig) { c.lo, c.hi, c.hasRange = lo, hi, true }
}

// HeatMap returns a heat map of the 2-D tensor t (on any device): row 0 at
// the top, each cell shaded from light (the smallest value) to dark blue
// (the largest), with numbered or labelled axes and a colour bar on the
// right. NaN and infinite cells (masked attention) are grey. Set
// p.Title.Text for a title; show it with display.Show or display.Plot. It panics with a *tensor.ShapeError when t
// is not 2-D or a tick label list does not fit.
//
//	w := attn.Weights(x, x, nn.IsCausal()).Select(0, 0) // [T, T], averaged over the heads
//	display.Show(display.HeatMap(w, display.TickLabels(tokens, tokens), display.ColorRange(0, 1)))
func HeatMap(t *tensor.Tensor, opts ...HeatMapOption) *plot.Plot {
	if t.Dim() != 2 {
		panic(&tensor.ShapeError{Op: "display.HeatMap", Shapes: [][]int{t.Shape()},
			Msg: fmt.Sprintf("want a 2-D tensor, got shape %v", t.Shape()), Fix: "pick one matrix with Select, e.g. w.Select(0, 0)"})
	}
	var c heatMapConfig
	for _, o := range opts {
		o(&c)
	}
	rows, cols := t.Shape()[0], t.Shape()[1]
	for _, l := range []struct {
		labels []string
		n      int
		what   string
	}{{c.xTicks, cols, "columns"}, {c.yTicks, rows, "rows"}} {
		if l.labels != nil && len(l.labels) != l.n {
			panic(&tensor.ShapeError{Op: "display.HeatMap", Shapes: [][]int{t.Shape()},
				Msg: fmt.Sprintf("%d tick labels for %d %s", len(l.labels), l.n, l.what)})
		}
	}
	v := hostFloat64s(t)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range v {
		if finite(x) {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	if c.hasRange {
		lo, hi = c.lo, c.hi
	}
	if !(hi >= lo) { // no finite value
		lo, hi = 0, 1
	}
	p := plot.New()
	p.X.Label.Text, p.Y.Label.Text = c.xLabel, c.yLabel
	p.Y.Scale = plot.InvertedScale{Normalizer: plot.LinearScale{}}
	p.X.Tick.Marker = cellTicks(cols, c.xTicks)
	p.Y.Tick.Marker = cellTicks(rows, c.yTicks)
	p.X.Padding, p.Y.Padding = 0, 0
	p.Add(&heatCells{v: v, rows: rows, cols: cols, lo: lo, hi: hi})
	return p
}

// cellTicks labels the cells 0..n-1, with labels when given; with many
// cells and no labels, only about ten are numbered.
func cellTicks(n int, labels []string) plot.ConstantTicks {
	step := 1
	if labels == nil && n > 20 {
		step = (n + 9) / 10
	}
	var ticks plot.ConstantTicks
	for i := 0; i < n; i++ {
		switch {
		case labels != nil:
			ticks = append(ticks, plot.Tick{Value: float64(i), Label: labels[i]})
		case i%step == 0:
			ticks = append(ticks, plot.Tick{Value: float64(i), Label: strconv.Itoa(i)})
		}
	}
	return ticks
}

// heatCells draws HeatMap's cells and colour bar: a plot.Plotter and
// plot.DataRanger.
type heatCells struct {
	v          []float64
	rows, cols int
	lo, hi     float64
}

// barGap and barWidth place the colour bar right of the cells, in cell
// widths; barRoom leaves room for its labels.
const (
	barGap   = 0.4
	barWidth = 0.5
	barRoom  = 2.2
)

// DataRange covers the cells and, on the right, the colour bar.
func (m *heatCells) DataRange() (xmin, xmax, ymin, ymax float64) {
	bar := math.Max(1, float64(m.cols)/12) // the bar's scale: cell widths
	return -0.5, float64(m.cols) - 0.5 + bar*barRoom, -0.5, float64(m.rows) - 0.5
}

// shade maps a value to [0, 1] between lo and hi.
func (m *heatCells) shade(x float64) float64 {
	if m.hi == m.lo {
		return 0.5
	}
	return math.Min(1, math.Max(0, (x-m.lo)/(m.hi-m.lo)))
}

// masked is the colour of NaN and infinite cells.
var masked = color.RGBA{R: 200, G: 200, B: 200, A: 255}

// Plot draws the cells and the colour bar with its labels.
func (m *heatCells) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	rect := func(col color.Color, x0, x1, y0, y1 vg.Length) {
		c.FillPolygon(col, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	}
	for i := 0; i < m.rows; i++ {
		for j := 0; j < m.cols; j++ {
			x := m.v[i*m.cols+j]
			col := color.Color(masked)
			if finite(x) {
				col = heatColor(m.shade(x))
			}
			// Cells overlap by a hair so that no seam shows between them.
			rect(col, trX(float64(j)-0.5), trX(float64(j)+0.5)+0.3, trY(float64(i)-0.5), trY(float64(i)+0.5)-0.3)
		}
	}
	// The colour bar: from the lightest colour at the bottom to the
	// darkest at the top, over the cells' height.
	bar := math.Max(1, float64(m.cols)/12)
	bx0 := trX(float64(m.cols) - 0.5 + bar*barGap)
	bx1 := trX(float64(m.cols) - 0.5 + bar*(barGap+barWidth))
	top, bottom := trY(-0.5), trY(float64(m.rows)-0.5)
	const steps = 64
	for k := 0; k < steps; k++ {
		y0 := bottom + (top-bottom)*vg.Length(k)/steps
		y1 := bottom + (top-bottom)*vg.Length(k+1)/steps
		rect(heatColor((float64(k)+0.5)/steps), bx0, bx1, y0, y1+0.3)
	}
	sty := plt.Y.Tick.Label
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	for k := 0; k <= 4; k++ {
		f := float64(k) / 4
		y := bottom + (top-bottom)*vg.Length(f)
		label := strconv.FormatFloat(m.lo+(m.hi-m.lo)*f, 'g', 3, 64)
		c.StrokeLine2(draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)}, bx1, y, bx1+vg.Points(3), y)
		c.FillText(sty, vg.Point{X: bx1 + vg.Points(5), Y: y}, label)
	}
}
