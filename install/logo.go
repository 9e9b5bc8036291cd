package install

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
)

// Logo colours: the Go gopher blue and white.
var (
	logoBlue  = color.NRGBA{R: 0x00, G: 0xAD, B: 0xD8, A: 0xFF}
	logoWhite = color.NRGBA{R: 0xFF, G: 0xFF, B: 0xFF, A: 0xFF}
)

// Logo draws gotensor's logo at size×size pixels: a 3×3 grid of white cells
// (a tensor), its diagonal solid and the rest translucent, on a Go-blue
// rounded square with a transparent outside. Edges are anti-aliased.
func Logo(size int) *image.NRGBA {
	const ss = 4 // subsamples per pixel side
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			var r, g, b, a float64 // premultiplied sums
			for j := 0; j < ss; j++ {
				for i := 0; i < ss; i++ {
					u := (float64(px) + (float64(i)+0.5)/ss) / float64(size)
					v := (float64(py) + (float64(j)+0.5)/ss) / float64(size)
					c, alpha := logoSample(u, v)
					r += float64(c.R) * alpha
					g += float64(c.G) * alpha
					b += float64(c.B) * alpha
					a += alpha
				}
			}
			if a == 0 {
				continue
			}
			img.SetNRGBA(px, py, color.NRGBA{
				R: uint8(math.Round(r / a)),
				G: uint8(math.Round(g / a)),
				B: uint8(math.Round(b / a)),
				A: uint8(math.Round(255 * a / ss / ss)),
			})
		}
	}
	return img
}

// logoSample returns the colour and coverage of the logo at (u, v) in the
// unit square.
func logoSample(u, v float64) (color.NRGBA, float64) {
	if !inRoundedRect(u, v, 0, 0, 1, 1, 0.2) {
		return color.NRGBA{}, 0
	}
	const (
		origin = 0.22 // where the grid starts, on both axes
		cell   = 0.16 // cell side
		gap    = 0.04 // space between cells
	)
	for row := 0; row < 3; row++ {
		for col := 0; col < 3; col++ {
			x0 := origin + float64(col)*(cell+gap)
			y0 := origin + float64(row)*(cell+gap)
			if !inRoundedRect(u, v, x0, y0, x0+cell, y0+cell, 0.03) {
				continue
			}
			if row == col {
				return logoWhite, 1
			}
			return blend(logoWhite, logoBlue, 0.45), 1
		}
	}
	return logoBlue, 1
}

// blend mixes fraction t of top over bottom.
func blend(top, bottom color.NRGBA, t float64) color.NRGBA {
	mix := func(a, b uint8) uint8 { return uint8(math.Round(t*float64(a) + (1-t)*float64(b))) }
	return color.NRGBA{R: mix(top.R, bottom.R), G: mix(top.G, bottom.G), B: mix(top.B, bottom.B), A: 0xFF}
}

// inRoundedRect reports whether (u, v) lies in the rectangle [x0,x1]×[y0,y1]
// with corners rounded to radius rad.
func inRoundedRect(u, v, x0, y0, x1, y1, rad float64) bool {
	if u < x0 || u > x1 || v < y0 || v > y1 {
		return false
	}
	cx := math.Max(x0+rad, math.Min(u, x1-rad))
	cy := math.Max(y0+rad, math.Min(v, y1-rad))
	return (u-cx)*(u-cx)+(v-cy)*(v-cy) <= rad*rad
}

// LogoPNG returns Logo(size) encoded as PNG.
func LogoPNG(size int) ([]byte, error) {
	if size <= 0 {
		return nil, fmt.Errorf("install: logo size %d: must be positive", size)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, Logo(size)); err != nil {
		return nil, fmt.Errorf("install: encoding %dx%d logo: %w", size, size, err)
	}
	return buf.Bytes(), nil
}
