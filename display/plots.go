package display

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// A Series is one named line of a LinePlot: the points (X[i], Y[i]), or
// (i, Y[i]) when X is nil. Points with a NaN or infinite coordinate are
// skipped.
type Series struct {
	Name string    // legend entry; "" for none
	X    []float64 // x coordinates, or nil for 0, 1, 2, ...
	Y    []float64 // y coordinates
}

// Long series are drawn as the mean of each of lineBuckets consecutive
// buckets of points, over a shaded band from each bucket's minimum to its
// maximum: a noisy training loss shows its trend and its spread, and a
// redraw costs the same for a million points as for a thousand.
const (
	lineBuckets   = 400
	bandThreshold = 2 * lineBuckets
)

// LinePlot returns a line plot of the series, in order, each in its own
// colour with a legend entry when named. A series of more than 800 points
// is drawn as the means of 400 buckets of consecutive points over a light
// band from each bucket's minimum to its maximum. It returns a *plot.Plot: show it
// with Show or Plot, or customise it first (axis labels, scales, more
// plotters).
//
//	p := display.LinePlot("loss",
//		display.Series{Name: "train", Y: trainLoss},
//		display.Series{Name: "test", X: epochsX, Y: testLoss})
//	p.X.Label.Text = "step"
//	display.Show(p)
func LinePlot(title string, series ...Series) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	p.X.Tick.Marker, p.Y.Tick.Marker = NiceTicks{}, NiceTicks{}
	for i, s := range series {
		xys := seriesPoints(s)
		if len(xys) == 0 {
			continue
		}
		clr := plotutil.Color(i)
		if len(xys) == 1 {
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				continue
			}
			sc.GlyphStyle.Color = clr
			sc.GlyphStyle.Shape = draw.CircleGlyph{}
			p.Add(sc)
			if s.Name != "" {
				p.Legend.Add(s.Name, sc)
			}
			continue
		}
		if len(xys) > bandThreshold {
			mean, band := bucketize(xys, lineBuckets)
			if poly, err := plotter.NewPolygon(band); err == nil {
				r, g, b, _ := clr.RGBA()
				poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 70}
				poly.LineStyle.Width = 0
				p.Add(poly)
			}
			xys = mean
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			continue
		}
		l.LineStyle.Color = clr
		l.LineStyle.Width = vg.Points(1.5)
		p.Add(l)
		if s.Name != "" {
			p.Legend.Add(s.Name, l)
		}
	}
	return p
}

// seriesPoints returns the finite points of s.
func seriesPoints(s Series) plotter.XYs {
	n := len(s.Y)
	if s.X != nil {
		n = min(n, len(s.X))
	}
	xy := make(plotter.XYs, 0, n)
	for i := 0; i < n; i++ {
		x := float64(i)
		if s.X != nil {
			x = s.X[i]
		}
		y := s.Y[i]
		if finite(x) && finite(y) {
			xy = append(xy, plotter.XY{X: x, Y: y})
		}
	}
	return xy
}

// bucketize splits xy into n buckets of consecutive points and returns
// each bucket's mean point, and the band polygon through each bucket's
// largest Y (left to right) and smallest Y (right to left), at the
// bucket's mean X.
func bucketize(xy plotter.XYs, n int) (mean, band plotter.XYs) {
	mean = make(plotter.XYs, n)
	band = make(plotter.XYs, 2*n)
	for b := 0; b < n; b++ {
		lo, hi := b*len(xy)/n, (b+1)*len(xy)/n
		var sx, sy float64
		ymin, ymax := math.Inf(1), math.Inf(-1)
		for _, p := range xy[lo:hi] {
			sx += p.X
			sy += p.Y
			ymin, ymax = min(ymin, p.Y), max(ymax, p.Y)
		}
		k := float64(hi - lo)
		mean[b] = plotter.XY{X: sx / k, Y: sy / k}
		band[b] = plotter.XY{X: sx / k, Y: ymax}
		band[2*n-1-b] = plotter.XY{X: sx / k, Y: ymin}
	}
	return mean, band
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// Histogram returns a histogram of x's values in bins equal-width bins
// (bins <= 0 picks the square root of the count, between 10 and 100), with
// the count, mean and standard deviation in its title. NaN and infinite
// values are left out. x may live on any device.
//
//	display.Show(display.Histogram(model.Parameters()[0], 50))
func Histogram(x *tensor.Tensor, bins int) *plot.Plot {
	var vals plotter.Values
	for _, v := range hostFloat64s(x) {
		if finite(v) {
			vals = append(vals, v)
		}
	}
	p := plot.New()
	p.X.Label.Text = "value"
	p.Y.Label.Text = "count"
	p.X.Tick.Marker, p.Y.Tick.Marker = NiceTicks{}, NiceTicks{}
	if len(vals) == 0 {
		p.Title.Text = "histogram: no finite values"
		return p
	}
	if bins <= 0 {
		bins = min(100, max(10, int(math.Sqrt(float64(len(vals))))))
	}
	mean, sd := meanStd(vals)
	p.Title.Text = fmt.Sprintf("n=%d  mean=%.4g  std=%.4g", len(vals), mean, sd)
	h, err := plotter.NewHist(vals, bins)
	if err != nil {
		p.Title.Text = "histogram: " + err.Error()
		return p
	}
	h.FillColor = plotutil.Color(0)
	h.LineStyle.Color = color.White
	h.LineStyle.Width = vg.Points(0.5)
	p.Add(h)
	return p
}

// meanStd returns the mean and the unbiased standard deviation of v.
func meanStd(v []float64) (mean, sd float64) {
	for _, f := range v {
		mean += f
	}
	mean /= float64(len(v))
	if len(v) < 2 {
		return mean, 0
	}
	var ss float64
	for _, f := range v {
		ss += (f - mean) * (f - mean)
	}
	return mean, math.Sqrt(ss / float64(len(v)-1))
}

// hostFloat64s copies x's items to the host as float64s.
func hostFloat64s(x *tensor.Tensor) []float64 {
	x = detached(x)
	if x.Device() != tensor.CPU {
		x = x.CPU()
	}
	return x.Float64s()
}

// ConfusionCounts returns the n×n confusion matrix of class predictions:
// counts[t][p] is the number of items of true class t predicted as p. pred
// is [N] class indices, or [N,n] scores (logits or probabilities) whose
// Argmax(1) is taken; truth is [N] class indices. n <= 0 takes the largest
// class seen plus one.
//
//	c := display.ConfusionCounts(model.Forward(x), y, 10)
//
// ConfusionCounts panics with a *tensor.ShapeError when the shapes differ
// and a *tensor.IndexError for a class outside [0, n).
func ConfusionCounts(pred, truth *tensor.Tensor, n int) [][]int {
	if pred.Dim() == 2 {
		pred = pred.Argmax(1)
	}
	if pred.Dim() != 1 || truth.Dim() != 1 || pred.Numel() != truth.Numel() {
		panic(&tensor.ShapeError{Op: "display.ConfusionCounts", Shapes: [][]int{pred.Shape(), truth.Shape()},
			Msg: fmt.Sprintf("predictions %s and labels %s do not pair up", shapeString(pred.Shape()), shapeString(truth.Shape())),
			Fix: "pass predictions [N] (or scores [N,classes]) and labels [N]"})
	}
	p, t := hostInt64s(pred), hostInt64s(truth)
	if n <= 0 {
		for i := range p {
			n = max(n, int(p[i])+1, int(t[i])+1)
		}
	}
	counts := make([][]int, n)
	for i := range counts {
		counts[i] = make([]int, n)
	}
	for i := range p {
		for _, c := range []int64{p[i], t[i]} {
			if c < 0 || c >= int64(n) {
				panic(&tensor.IndexError{Op: "display.ConfusionCounts", Index: int(c), Size: n,
					Msg: fmt.Sprintf("class %d at item %d is outside [0, %d)", c, i, n),
					Fix: "pass the number of classes as n"})
			}
		}
		counts[t[i]][p[i]]++
	}
	return counts
}

// hostInt64s copies x's items to the host as int64s.
func hostInt64s(x *tensor.Tensor) []int64 {
	x = detached(x)
	if x.Device() != tensor.CPU {
		x = x.CPU()
	}
	return x.Int64s()
}

// ConfusionMatrix returns a heat map of ConfusionCounts(pred, truth, n):
// true classes down (0 at the top), predicted classes across, each cell
// shaded by its count and labelled with it, and the accuracy in the title.
// Arguments and panics are those of ConfusionCounts.
//
//	logits := model.Forward(test.Images)
//	display.Show(display.ConfusionMatrix(logits, test.Labels, 10))
func ConfusionMatrix(pred, truth *tensor.Tensor, n int) *plot.Plot {
	counts := ConfusionCounts(pred, truth, n)
	n = len(counts)
	total, right := 0, 0
	for i, row := range counts {
		for j, c := range row {
			total += c
			if i == j {
				right += c
			}
		}
	}
	p := plot.New()
	p.Title.Text = "confusion matrix"
	if total > 0 {
		p.Title.Text = fmt.Sprintf("confusion matrix: accuracy %.2f%% of %d", 100*float64(right)/float64(total), total)
	}
	p.X.Label.Text = "predicted"
	p.Y.Label.Text = "true"
	p.Y.Scale = plot.InvertedScale{Normalizer: plot.LinearScale{}}
	ticks := make(plot.ConstantTicks, n)
	for i := range ticks {
		ticks[i] = plot.Tick{Value: float64(i), Label: strconv.Itoa(i)}
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = ticks, ticks
	p.X.Padding, p.Y.Padding = 0, 0
	p.Add(&confusionCells{counts: counts})
	return p
}

// confusionCells draws a confusion matrix: a plot.Plotter and
// plot.DataRanger.
type confusionCells struct {
	counts [][]int
}

// DataRange covers the cells: [-0.5, n-0.5] on both axes.
func (m *confusionCells) DataRange() (xmin, xmax, ymin, ymax float64) {
	n := float64(len(m.counts))
	return -0.5, n - 0.5, -0.5, n - 0.5
}

// Plot draws the cells, shaded from white (0) to dark blue (the largest
// count), square-root scaled so that rare confusions stay visible.
func (m *confusionCells) Plot(c draw.Canvas, plt *plot.Plot) {
	n := len(m.counts)
	most := 0
	for _, row := range m.counts {
		for _, v := range row {
			most = max(most, v)
		}
	}
	trX, trY := plt.Transforms(&c)
	sty := plt.X.Tick.Label
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	switch {
	case n <= 12:
		sty.Font.Size = vg.Points(10)
	case n <= 24:
		sty.Font.Size = vg.Points(7)
	default:
		sty.Font.Size = 0 // too many cells for counts
	}
	for i, row := range m.counts {
		for j, v := range row {
			t := 0.0
			if most > 0 {
				t = math.Sqrt(float64(v) / float64(most))
			}
			x0, x1 := trX(float64(j)-0.5), trX(float64(j)+0.5)
			y0, y1 := trY(float64(i)-0.5), trY(float64(i)+0.5)
			c.FillPolygon(heatColor(t), []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
			if sty.Font.Size > 0 {
				sty.Color = color.Gray{Y: 30}
				if t > 0.6 {
					sty.Color = color.White
				}
				c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, strconv.Itoa(v))
			}
		}
	}
}

// heatColor interpolates from near-white (t=0) to dark blue (t=1).
func heatColor(t float64) color.RGBA {
	lerp := func(a, b float64) uint8 { return uint8(a + (b-a)*t + 0.5) }
	return color.RGBA{R: lerp(247, 8), G: lerp(251, 48), B: lerp(255, 107), A: 255}
}

// NiceTicks is a plot.Ticker that puts about five labelled ticks at round
// values (1, 2 or 5 times a power of ten) with the fewest digits that tell
// them apart, and unlabelled ticks between. The plot helpers use it on
// their linear axes.
//
//	p.Y.Tick.Marker = display.NiceTicks{}
type NiceTicks struct{}

// Ticks returns the ticks between lo and hi.
func (NiceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || !finite(lo) || !finite(hi) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 4, 64)}}
	}
	raw := (hi - lo) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{2, 5, 10} {
		if raw/mag > m*0.7 {
			step = m * mag
		}
	}
	minor := step / 5
	if step/mag == 2 || step/mag == 20 {
		minor = step / 4
	}
	prec := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	var ticks []plot.Tick
	for i := math.Ceil(lo / minor); i*minor <= hi+minor*1e-9; i++ {
		v := i * minor
		t := plot.Tick{Value: v}
		if k := v / step; math.Abs(k-math.Round(k)) < 1e-6 {
			t.Value = math.Round(k) * step
			if math.Abs(t.Value) < step*1e-6 {
				t.Value = 0
			}
			t.Label = strconv.FormatFloat(t.Value, 'f', prec, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}
