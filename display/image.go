package display

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Images smaller than these are scaled up by a whole factor, with nearest
// neighbour sampling (every pixel becomes a sharp k×k square), until their
// longest side reaches the size: a 28×28 digit shows at 112×112 alone and
// 56×56 in a grid.
const (
	imageMinSide = 112
	tileMinSide  = 56
)

// Image publishes x as a PNG image. x is [H,W] or [1,H,W] (grey) or [3,H,W]
// (RGB), of any dtype; a leading batch dimension of size 1 ([1,C,H,W]) is
// allowed. Values are read as intensities in [0,1], or in 0..255 when the
// maximum exceeds 1; when the minimum is negative (normalised data,
// weights) the range [min,max] is stretched to [0,1]. Values outside the
// range are clipped.
//
// Small images are scaled up with nearest-neighbour sampling by a whole
// factor until the longest side is at least 112 pixels, so a 28×28 MNIST
// digit shows at 112×112 with sharp pixels.
//
//	display.Image(train.Images.Select(0, 0))   // [1,28,28]
//
// Image panics with a *tensor.ShapeError for other shapes; use Grid for a
// batch.
func Image(x *tensor.Tensor) { publish(ImageBundle(x), "", false) }

// ImageBundle returns the bundle Image publishes: "image/png" (base64) with
// the displayed width and height as metadata, and a "text/plain"
// description.
func ImageBundle(x *tensor.Tensor) Bundle {
	px := imagePixels("Image", x)
	k := scaleFor(px.h, px.w, imageMinSide)
	img := px.image(k)
	b := pngBundle(img)
	return b.with("text/plain", fmt.Sprintf("<image %s shown at %dx%d>", shapeString(x.Shape()), px.w*k, px.h*k))
}

// TensorImage converts x, of a shape and value range Image accepts, to an
// image at its own size (one pixel per item): *image.Gray for one channel,
// *image.RGBA for three. Use it to save a tensor as a PNG file.
//
//	img := display.TensorImage(x)
//	png.Encode(f, img)
func TensorImage(x *tensor.Tensor) image.Image {
	return imagePixels("TensorImage", x).image(1)
}

// Grid publishes a batch of images as one PNG image: cols tiles per row
// (cols <= 0 picks up to 8), each framed by a thin grey border on a white
// background. x is [N,C,H,W] with C 1 or 3, or [N,H,W] for grey images;
// values are read as Image reads them, with one range for the whole batch.
// Tiles are scaled up like Image's, to at least 56 pixels on their longest
// side.
//
//	display.Grid(train.Images.Narrow(0, 0, 32), 8)   // 32 digits, 4 rows of 8
//
// Grid panics with a *tensor.ShapeError for other shapes.
func Grid(x *tensor.Tensor, cols int) { publish(GridBundle(x, cols), "", false) }

// GridBundle returns the bundle Grid publishes.
func GridBundle(x *tensor.Tensor, cols int) Bundle {
	return gridBundle("Grid", x, cols, nil)
}

// GridLabeled publishes a batch of images like Grid, with labels[i] written
// under tile i (tiles widen to fit their labels; missing labels are blank).
// Labels are drawn in a small fixed-width ASCII font.
//
//	labels := make([]string, 16)
//	for i := range labels {
//		labels[i] = fmt.Sprintf("pred %d / true %d", pred[i], truth[i])
//	}
//	display.GridLabeled(images.Narrow(0, 0, 16), 8, labels)
func GridLabeled(x *tensor.Tensor, cols int, labels []string) {
	publish(GridLabeledBundle(x, cols, labels), "", false)
}

// GridLabeledBundle returns the bundle GridLabeled publishes.
func GridLabeledBundle(x *tensor.Tensor, cols int, labels []string) Bundle {
	return gridBundle("GridLabeled", x, cols, labels)
}

// The colours of a grid.
var (
	gridBackground = color.RGBA{255, 255, 255, 255}
	gridBorder     = color.RGBA{158, 158, 158, 255}
	gridText       = color.RGBA{33, 33, 33, 255}
)

// Grid geometry, in output pixels.
const (
	gridPad     = 3 // white space around and between cells
	gridBorderW = 1 // frame around each tile
	labelGap    = 2 // space between a tile and its label
)

func gridBundle(op string, x *tensor.Tensor, cols int, labels []string) Bundle {
	shape := x.Shape()
	var n, c, h, w int
	switch {
	case len(shape) == 4 && (shape[1] == 1 || shape[1] == 3):
		n, c, h, w = shape[0], shape[1], shape[2], shape[3]
	case len(shape) == 3:
		n, c, h, w = shape[0], 1, shape[1], shape[2]
	default:
		panic(&tensor.ShapeError{Op: "display." + op, Shapes: [][]int{shape},
			Msg: fmt.Sprintf("cannot lay out a %s tensor as a grid of images", shapeString(shape)),
			Fix: "pass a batch [N,C,H,W] with C 1 or 3, or [N,H,W]; use Image for one image"})
	}
	if n == 0 {
		return Text(fmt.Sprintf("<empty grid %s>", shapeString(shape)))
	}
	if cols <= 0 {
		cols = min(n, 8)
	}
	cols = min(cols, n)
	rows := (n + cols - 1) / cols
	vals := normalize(hostFloat32s(x))
	face := basicfont.Face7x13
	labelW, labelH := 0, 0
	for i := 0; i < n && i < len(labels); i++ {
		labelW = max(labelW, font.MeasureString(face, labels[i]).Ceil())
	}
	if labels != nil {
		labelH = labelGap + face.Metrics().Height.Ceil()
	}
	k := scaleFor(h, w, tileMinSide)
	if labelW > w*k {
		k = max(k, min((labelW+w-1)/w, 2*k))
	}
	tileW, tileH := w*k+2*gridBorderW, h*k+2*gridBorderW
	cellW := max(tileW, labelW)
	cellH := tileH + labelH
	W := cols*cellW + (cols+1)*gridPad
	H := rows*cellH + (rows+1)*gridPad
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	draw.Draw(img, img.Bounds(), image.NewUniform(gridBackground), image.Point{}, draw.Src)
	per := c * h * w
	for i := 0; i < n; i++ {
		r, col := i/cols, i%cols
		x0 := gridPad + col*(cellW+gridPad) + (cellW-tileW)/2
		y0 := gridPad + r*(cellH+gridPad)
		frame := image.Rect(x0, y0, x0+tileW, y0+tileH)
		draw.Draw(img, frame, image.NewUniform(gridBorder), image.Point{}, draw.Src)
		px := pixels{c: c, h: h, w: w, v: vals[i*per : (i+1)*per]}
		tile := px.image(k)
		draw.Draw(img, frame.Inset(gridBorderW), tile, image.Point{}, draw.Src)
		if i < len(labels) && labels[i] != "" {
			lw := font.MeasureString(face, labels[i]).Ceil()
			cx := gridPad + col*(cellW+gridPad) + (cellW-lw)/2
			d := font.Drawer{Dst: img, Src: image.NewUniform(gridText), Face: face,
				Dot: fixed.P(cx, y0+tileH+labelGap+face.Metrics().Ascent.Ceil())}
			d.DrawString(labels[i])
		}
	}
	b := pngBundle(img)
	return b.with("text/plain", fmt.Sprintf("<grid of %d images %s, %d per row, %dx%d px>", n, shapeString(shape[1:]), cols, W, H))
}

// pixels is an image's intensities in [0,1], channel-major like a [C,H,W]
// tensor.
type pixels struct {
	c, h, w int
	v       []float32
}

// imagePixels reads x, checking it is a shape Image accepts.
func imagePixels(op string, x *tensor.Tensor) pixels {
	shape := x.Shape()
	if len(shape) == 4 && shape[0] == 1 {
		shape = shape[1:]
	}
	var px pixels
	switch {
	case len(shape) == 2:
		px = pixels{c: 1, h: shape[0], w: shape[1]}
	case len(shape) == 3 && (shape[0] == 1 || shape[0] == 3):
		px = pixels{c: shape[0], h: shape[1], w: shape[2]}
	default:
		fix := "pass [H,W], [1,H,W] or [3,H,W]"
		if len(shape) >= 3 {
			fix += "; use Grid for a batch of images"
		}
		panic(&tensor.ShapeError{Op: "display." + op, Shapes: [][]int{x.Shape()},
			Msg: fmt.Sprintf("cannot show a %s tensor as an image", shapeString(x.Shape())), Fix: fix})
	}
	if px.h == 0 || px.w == 0 {
		panic(&tensor.ShapeError{Op: "display." + op, Shapes: [][]int{x.Shape()},
			Msg: fmt.Sprintf("cannot show an empty %s image", shapeString(x.Shape()))})
	}
	px.v = normalize(hostFloat32s(x))
	return px
}

// hostFloat32s copies x's items to the host as float32s.
func hostFloat32s(x *tensor.Tensor) []float32 {
	x = detached(x)
	if x.Device() != tensor.CPU {
		x = x.CPU()
	}
	return x.Float32s()
}

// normalize maps v in place to [0,1]: unchanged when its values lie in
// [0,1], divided by 255 when the maximum exceeds 1, stretched from
// [min,max] when the minimum is negative; then clipped, NaN as 0.
func normalize(v []float32) []float32 {
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for _, f := range v {
		if f == f && !math.IsInf(float64(f), 0) {
			lo, hi = min(lo, f), max(hi, f)
		}
	}
	off, scale := float32(0), float32(1)
	switch {
	case lo > hi: // no finite values
	case lo < 0:
		off = lo
		if hi > lo {
			scale = 1 / (hi - lo)
		}
	case hi > 1:
		scale = 1.0 / 255
	}
	for i, f := range v {
		f = (f - off) * scale
		switch {
		case f != f || f < 0:
			f = 0
		case f > 1:
			f = 1
		}
		v[i] = f
	}
	return v
}

// scaleFor returns the whole factor that brings an h×w image's longest side
// to at least minSide pixels (1 for images that are already big enough).
func scaleFor(h, w, minSide int) int {
	side := max(h, w)
	if side >= minSide || side == 0 {
		return 1
	}
	return (minSide + side - 1) / side
}

// image renders px scaled by k with nearest-neighbour sampling.
func (px pixels) image(k int) image.Image {
	W, H := px.w*k, px.h*k
	plane := px.h * px.w
	at := func(c, y, x int) uint8 { return uint8(px.v[c*plane+(y/k)*px.w+x/k]*255 + 0.5) }
	if px.c == 1 {
		img := image.NewGray(image.Rect(0, 0, W, H))
		for y := 0; y < H; y++ {
			row := img.Pix[y*img.Stride:]
			for x := 0; x < W; x++ {
				row[x] = at(0, y, x)
			}
		}
		return img
	}
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	for y := 0; y < H; y++ {
		row := img.Pix[y*img.Stride:]
		for x := 0; x < W; x++ {
			row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = at(0, y, x), at(1, y, x), at(2, y, x), 255
		}
	}
	return img
}

// imageBundle renders an image.Image, scaling it up when small (see
// Image), as a PNG bundle.
func imageBundle(img image.Image) Bundle {
	r := img.Bounds()
	k := scaleFor(r.Dy(), r.Dx(), imageMinSide)
	if k > 1 {
		big := image.NewRGBA(image.Rect(0, 0, r.Dx()*k, r.Dy()*k))
		for y := 0; y < r.Dy()*k; y++ {
			for x := 0; x < r.Dx()*k; x++ {
				big.Set(x, y, img.At(r.Min.X+x/k, r.Min.Y+y/k))
			}
		}
		img = big
	}
	b := pngBundle(img)
	return b.with("text/plain", fmt.Sprintf("<image %dx%d shown at %dx%d>", r.Dx(), r.Dy(), r.Dx()*k, r.Dy()*k))
}

// pngBundle encodes img as a PNG bundle with its size as metadata.
func pngBundle(img image.Image) Bundle {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return ErrorBundle(fmt.Errorf("display: cannot encode a PNG image: %v", err))
	}
	return PNGBundle(buf.Bytes())
}
