package display

import (
	"errors"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
	"gonum.org/v1/plot"
)

func TestHeatMap(t *testing.T) {
	// A lower-triangular attention pattern with a masked (-Inf) cell.
	x := tensor.FromFloat64s([]float64{
		1, 0, 0,
		0.5, 0.5, 0,
		0.2, 0.3, -1 / zero(),
	}, 3, 3)
	tokens := []string{"the", "cat", "sat"}
	p := HeatMap(x, TickLabels(tokens, tokens), AxisLabels("key", "query"))
	if p.X.Label.Text != "key" || p.Y.Label.Text != "query" {
		t.Errorf("axis labels %q, %q", p.X.Label.Text, p.Y.Label.Text)
	}
	for _, ax := range []plot.Axis{p.X, p.Y} {
		ticks := ax.Tick.Marker.Ticks(0, 2)
		if len(ticks) != 3 || ticks[0].Label != "the" || ticks[2].Label != "sat" || ticks[2].Value != 2 {
			t.Errorf("ticks %v, want the tokens at 0, 1, 2", ticks)
		}
	}
	img := decodePNG(t, PlotBundle(p))
	count := func(c [3]uint8) int {
		n := 0
		for y := 0; y < img.Bounds().Dy(); y++ {
			for x := 0; x < img.Bounds().Dx(); x++ {
				if rgb(img, x, y) == c {
					n++
				}
			}
		}
		return n
	}
	dark, light := heatColor(1), heatColor(0)
	grey := [3]uint8{masked.R, masked.G, masked.B}
	// One cell of the maximum (1), three of the minimum (0), one masked.
	nDark, nLight, nGrey := count([3]uint8{dark.R, dark.G, dark.B}), count([3]uint8{light.R, light.G, light.B}), count(grey)
	if nGrey < 5000 || nDark < nGrey*9/10 || nDark > nGrey*11/10 || nLight < nGrey*27/10 || nLight > nGrey*33/10 {
		t.Errorf("pixels: %d darkest, %d lightest, %d masked; want one, three and one whole cells", nDark, nLight, nGrey)
	}
	// The colour bar holds the middle of the scale, which no cell has.
	mid := heatColor(32.5 / 64)
	if count([3]uint8{mid.R, mid.G, mid.B}) == 0 {
		t.Error("no colour bar")
	}
	// Numbered axes by default; the range can be fixed.
	q := HeatMap(tensor.Rand(4, 30), ColorRange(0, 1))
	if ticks := q.X.Tick.Marker.Ticks(0, 29); len(ticks) != 10 || ticks[1].Label != "3" {
		t.Errorf("numbered ticks %v", ticks)
	}
	var se *tensor.ShapeError
	if err, ok := mustPanic(t, func() { HeatMap(tensor.Zeros(2, 2, 2)) }).(error); !ok || !errors.As(err, &se) {
		t.Error("a 3-D tensor did not panic with a ShapeError")
	}
	if err, ok := mustPanic(t, func() { HeatMap(x, TickLabels(tokens[:2], nil)) }).(error); !ok || !errors.As(err, &se) {
		t.Error("two labels for three columns did not panic with a ShapeError")
	}
}

func zero() float64 { return 0 }
