package display

import (
	"encoding/xml"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

func TestPlotBundle(t *testing.T) {
	p := LinePlot("loss", Series{Name: "train", Y: []float64{3, 2, 1.5, 1.2, 1}})
	b := PlotBundle(p)
	img := decodePNG(t, b)
	// Drawn at 192 dpi: twice the 600x360 CSS pixels the metadata asks for.
	if r := img.Bounds(); r.Dx() != 1200 || r.Dy() != 720 {
		t.Fatalf("plot image %v, want 1200x720", r)
	}
	if w, h := pngMeta(t, b); w != 600 || h != 360 {
		t.Errorf("metadata %dx%d, want 600x360", w, h)
	}
	if got := b.Data["text/plain"]; got != `<plot "loss">` {
		t.Errorf("text/plain %q", got)
	}
	if got := rgb(img, 2, 2); got != [3]uint8{255, 255, 255} {
		t.Errorf("corner pixel %v, want white", got)
	}
	// The line is drawn in the first series colour.
	r0, g0, b0, _ := plotutil.Color(0).RGBA()
	want := [3]uint8{uint8(r0 >> 8), uint8(g0 >> 8), uint8(b0 >> 8)}
	n := 0
	for y := 0; y < 720; y++ {
		for x := 0; x < 1200; x++ {
			if rgb(img, x, y) == want {
				n++
			}
		}
	}
	if n < 500 {
		t.Errorf("%d pixels of the series colour %v, want a drawn line", n, want)
	}
	if !reflect.DeepEqual(Render(p), b) {
		t.Errorf("Render(*plot.Plot) differs from PlotBundle")
	}

	old := PlotWidth
	PlotWidth = 300
	defer func() { PlotWidth = old }()
	if w, _ := pngMeta(t, PlotBundle(p)); w != 300 {
		t.Errorf("PlotWidth 300: metadata width %d", w)
	}
}

func TestPlotSVGBundle(t *testing.T) {
	b := PlotSVGBundle(LinePlot("acc", Series{Y: []float64{0.5, 0.9}}))
	s, _ := b.Data["image/svg+xml"].(string)
	d := xml.NewDecoder(strings.NewReader(s))
	var root struct {
		XMLName xml.Name
		Width   string `xml:"width,attr"`
	}
	if err := d.Decode(&root); err != nil {
		t.Fatalf("SVG does not parse: %v", err)
	}
	if root.XMLName.Local != "svg" || !strings.Contains(s, "acc") {
		t.Errorf("SVG root %q, title present %v", root.XMLName.Local, strings.Contains(s, "acc"))
	}
	if Render((*plot.Plot)(nil)).Data["text/plain"] != "<nil plot>" {
		t.Errorf("nil plot")
	}
}

func TestSeriesPoints(t *testing.T) {
	// NaN and infinite points are skipped; nil X counts from 0.
	got := seriesPoints(Series{Y: []float64{1, math.NaN(), 3, math.Inf(1)}})
	want := plotter.XYs{{X: 0, Y: 1}, {X: 2, Y: 3}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("points %v, want %v", got, want)
	}
	// Buckets of [5 1 9 3 4] and [2 8 0 7 6] at x 0..4 and 5..9: means
	// (2, 4.4) and (7, 4.6); band up through maxima 9, 8 and back through
	// minima 0, 1.
	ys := []float64{5, 1, 9, 3, 4, 2, 8, 0, 7, 6}
	var xy plotter.XYs
	for i, y := range ys {
		xy = append(xy, plotter.XY{X: float64(i), Y: y})
	}
	mean, band := bucketize(xy, 2)
	want = plotter.XYs{{X: 2, Y: 4.4}, {X: 7, Y: 4.6}}
	if !reflect.DeepEqual(mean, want) {
		t.Errorf("means %v, want %v", mean, want)
	}
	want = plotter.XYs{{X: 2, Y: 9}, {X: 7, Y: 8}, {X: 7, Y: 0}, {X: 2, Y: 1}}
	if !reflect.DeepEqual(band, want) {
		t.Errorf("band %v, want %v", band, want)
	}
}

func TestNiceTicks(t *testing.T) {
	labels := func(lo, hi float64) []string {
		var out []string
		for _, tk := range (NiceTicks{}).Ticks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	for _, c := range []struct {
		lo, hi float64
		want   []string
	}{
		{0, 2.9, []string{"0.0", "0.5", "1.0", "1.5", "2.0", "2.5"}},
		{0, 2999, []string{"0", "500", "1000", "1500", "2000", "2500"}},
		{-0.02, 0.07, []string{"-0.02", "0.00", "0.02", "0.04", "0.06"}},
		{1, 1, []string{"1"}},
	} {
		if got := labels(c.lo, c.hi); !reflect.DeepEqual(got, c.want) {
			t.Errorf("ticks of [%g, %g] %q, want %q", c.lo, c.hi, got, c.want)
		}
	}
}

func TestHistogram(t *testing.T) {
	// Mean 2.5 and unbiased std sqrt(5/3) = 1.291 of 1..4; NaN left out.
	x := tensor.FromFloat64s([]float64{1, 2, math.NaN(), 3, 4}, 5)
	p := Histogram(x, 4)
	if want := "n=4  mean=2.5  std=1.291"; p.Title.Text != want {
		t.Errorf("title %q, want %q", p.Title.Text, want)
	}
	decodePNG(t, PlotBundle(p))
	if p := Histogram(tensor.FromFloat64s([]float64{math.NaN()}, 1), 0); !strings.Contains(p.Title.Text, "no finite values") {
		t.Errorf("title of an all-NaN histogram %q", p.Title.Text)
	}
}

func TestConfusion(t *testing.T) {
	pred := tensor.FromInt64s([]int64{0, 1, 1, 2, 2, 2}, 6)
	truth := tensor.FromInt64s([]int64{0, 1, 2, 2, 2, 0}, 6)
	want := [][]int{
		{1, 0, 1},
		{0, 1, 0},
		{0, 1, 2},
	}
	if got := ConfusionCounts(pred, truth, 3); !reflect.DeepEqual(got, want) {
		t.Errorf("counts %v, want %v", got, want)
	}
	if got := ConfusionCounts(pred, truth, 0); !reflect.DeepEqual(got, want) {
		t.Errorf("counts with n inferred %v, want %v", got, want)
	}
	// Scores [N, classes] are reduced with Argmax(1).
	scores := tensor.FromFloat32s([]float32{
		9, 0, 0, 0, 9, 0, 0, 9, 0, 0, 0, 9, 0, 0, 9, 0, 0, 9}, 6, 3)
	if got := ConfusionCounts(scores, truth, 3); !reflect.DeepEqual(got, want) {
		t.Errorf("counts from scores %v, want %v", got, want)
	}
	p := ConfusionMatrix(pred, truth, 3)
	if want := "confusion matrix: accuracy 66.67% of 6"; p.Title.Text != want {
		t.Errorf("title %q, want %q", p.Title.Text, want)
	}
	// The cell of the largest count (2) has the darkest colour.
	img := decodePNG(t, PlotBundle(p))
	dark := heatColor(1)
	n := 0
	for y := 0; y < img.Bounds().Dy(); y++ {
		for x := 0; x < img.Bounds().Dx(); x++ {
			if rgb(img, x, y) == [3]uint8{dark.R, dark.G, dark.B} {
				n++
			}
		}
	}
	if n < 10000 {
		t.Errorf("%d pixels of the darkest cell colour, want a whole cell", n)
	}

	r := mustPanic(t, func() { ConfusionCounts(pred, truth, 2) })
	var ie *tensor.IndexError
	if err, ok := r.(error); !ok || !errors.As(err, &ie) {
		t.Errorf("class 2 with n=2: panic %v, want *tensor.IndexError", r)
	}
	r = mustPanic(t, func() { ConfusionCounts(pred, truth.Narrow(0, 0, 5), 3) })
	var se *tensor.ShapeError
	if err, ok := r.(error); !ok || !errors.As(err, &se) {
		t.Errorf("6 predictions, 5 labels: panic %v, want *tensor.ShapeError", r)
	}
}
