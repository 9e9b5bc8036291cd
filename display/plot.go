package display

import (
	"bytes"
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// PlotWidth and PlotHeight are the process's size, in CSS pixels, at which
// Plot, PlotSVG and Show draw a *plot.Plot: the size of every plot that
// SetPlotSize has not sized. Setting them resizes later plots of every
// notebook session in the process; SetPlotSize, which sizes the plots of
// the session that calls it, is the way to resize them from a cell:
//
//	display.SetPlotSize(800, 400)
//
// Assigning them (display.PlotWidth, display.PlotHeight = 800, 400) works
// as before, for the whole process.
var (
	PlotWidth  = 600
	PlotHeight = 360
)

// plotDPI is the resolution of PNG plots: twice the CSS 96 dpi, so they stay
// sharp on high-density screens; the metadata asks front ends to show them
// at their size in CSS pixels (SetPlotSize).
const plotDPI = 192

// Plot publishes p, a gonum.org/v1/plot plot, as a PNG image of
// 600×360 CSS pixels (SetPlotSize changes it) (drawn at twice that resolution). The
// helpers LinePlot, Histogram and ConfusionMatrix make common plots; any
// *plot.Plot can be customised before it is shown.
//
//	p := display.LinePlot("loss", display.Series{Name: "train", Y: losses})
//	p.Y.Scale = plot.LogScale{}
//	display.Plot(p)
func Plot(p *plot.Plot) { publish(PlotBundle(p), "", false) }

// PlotBundle returns the bundle Plot publishes: "image/png" with width and
// height metadata, and a "text/plain" description. Render and Show use it
// for *plot.Plot values. When p cannot be drawn, it returns an error bundle
// saying why.
func PlotBundle(p *plot.Plot) Bundle {
	w, h := plotSize()
	return PlotBundleSize(p, w, h)
}

// PlotBundleSize is PlotBundle at width×height CSS pixels. Show the bundle
// to publish it:
//
//	display.Show(display.PlotBundleSize(display.ConfusionMatrix(logits, y, 10), 480, 480))
func PlotBundleSize(p *plot.Plot, width, height int) (b Bundle) {
	if p == nil {
		return Text("<nil plot>")
	}
	defer func() {
		if r := recover(); r != nil {
			b = ErrorBundle(fmt.Errorf("display: cannot draw the plot: %v", r))
		}
	}()
	w, h := pxLength(width), pxLength(height)
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(plotDPI))}
	p.Draw(margin(draw.New(c)))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return ErrorBundle(fmt.Errorf("display: cannot encode the plot as PNG: %v", err))
	}
	b = PNGBundle(buf.Bytes())
	b = b.withMeta("image/png", map[string]any{"width": width, "height": height})
	return b.with("text/plain", plotText(p))
}

// PlotSVG publishes p as an SVG image of 600×360 CSS pixels (SetPlotSize):
// vector graphics that stay sharp at any zoom, at the cost of a larger
// output for plots of many points.
//
//	display.PlotSVG(display.Histogram(w, 50))
func PlotSVG(p *plot.Plot) { publish(PlotSVGBundle(p), "", false) }

// PlotSVGBundle returns the bundle PlotSVG publishes: "image/svg+xml" and a
// "text/plain" description, or an error bundle when p cannot be drawn.
func PlotSVGBundle(p *plot.Plot) (b Bundle) {
	if p == nil {
		return Text("<nil plot>")
	}
	defer func() {
		if r := recover(); r != nil {
			b = ErrorBundle(fmt.Errorf("display: cannot draw the plot: %v", r))
		}
	}()
	w, h := plotSize()
	c := vgsvg.New(pxLength(w), pxLength(h))
	p.Draw(margin(draw.New(c)))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return ErrorBundle(fmt.Errorf("display: cannot encode the plot as SVG: %v", err))
	}
	b = SVGBundle(buf.String())
	b.Data["text/plain"] = plotText(p)
	return b
}

// pxLength converts CSS pixels (1/96 inch) to a vg.Length (points, 1/72
// inch).
func pxLength(px int) vg.Length { return vg.Length(px) * vg.Inch / 96 }

// margin leaves a few pixels of white around a plot, so lines at the
// edges of its data range are not cut.
func margin(c draw.Canvas) draw.Canvas {
	m := pxLength(8)
	return draw.Crop(c, m, -m, m, -m)
}

func plotText(p *plot.Plot) string {
	if p.Title.Text != "" {
		return fmt.Sprintf("<plot %q>", p.Title.Text)
	}
	return "<plot>"
}
