package display

import (
	"errors"
	"image"
	"image/color"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

func TestImageGrey(t *testing.T) {
	// A 28x28 digit with one lit pixel at row 5, column 7, scaled 4x.
	data := make([]float32, 28*28)
	data[5*28+7] = 1
	data[0] = 0.5
	for _, shape := range [][]int{{28, 28}, {1, 28, 28}, {1, 1, 28, 28}} {
		b := ImageBundle(tensor.FromFloat32s(data, shape...))
		img := decodePNG(t, b)
		if r := img.Bounds(); r.Dx() != 112 || r.Dy() != 112 {
			t.Fatalf("%v: image %v, want 112x112", shape, r)
		}
		if w, h := pngMeta(t, b); w != 112 || h != 112 {
			t.Errorf("%v: metadata %dx%d, want 112x112", shape, w, h)
		}
		for _, c := range []struct {
			x, y int
			want uint8
		}{
			{7 * 4, 5 * 4, 255}, {7*4 + 3, 5*4 + 3, 255}, // the lit 4x4 square
			{7*4 + 4, 5 * 4, 0}, {7 * 4, 5*4 - 1, 0}, // its neighbours
			{0, 0, 128}, {3, 3, 128}, {4, 0, 0}, // 0.5 -> 128
			{111, 111, 0},
		} {
			if got := gray(img, c.x, c.y); got != c.want {
				t.Errorf("%v: pixel (%d,%d) = %d, want %d", shape, c.x, c.y, got, c.want)
			}
		}
	}
}

func TestImageRanges(t *testing.T) {
	// RGB in 0..255 (max > 1): a 2x2 image, scaled to 112x112 (factor 56).
	rgbData := []float32{
		255, 0, 0, 128, // R plane
		0, 255, 0, 128, // G plane
		0, 0, 255, 128, // B plane
	}
	img := decodePNG(t, ImageBundle(tensor.FromFloat32s(rgbData, 3, 2, 2)))
	if r := img.Bounds(); r.Dx() != 112 || r.Dy() != 112 {
		t.Fatalf("image %v, want 112x112", r)
	}
	for _, c := range []struct {
		x, y int
		want [3]uint8
	}{
		{0, 0, [3]uint8{255, 0, 0}}, {60, 0, [3]uint8{0, 255, 0}},
		{0, 60, [3]uint8{0, 0, 255}}, {111, 111, [3]uint8{128, 128, 128}},
	} {
		if got := rgb(img, c.x, c.y); got != c.want {
			t.Errorf("pixel (%d,%d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	// A negative minimum stretches [min,max] to [0,1]: -1 -> 0, 0 -> 128, 1 -> 255.
	img = decodePNG(t, ImageBundle(tensor.FromFloat32s([]float32{-1, 0, 1, 1}, 2, 2)))
	for _, c := range []struct {
		x, y int
		want uint8
	}{{0, 0, 0}, {60, 0, 128}, {0, 60, 255}} {
		if got := gray(img, c.x, c.y); got != c.want {
			t.Errorf("stretched pixel (%d,%d) = %d, want %d", c.x, c.y, got, c.want)
		}
	}
	// Big images are not scaled; values above 1 are read as 0..255.
	b := ImageBundle(tensor.Full(51, 200, 150))
	img = decodePNG(t, b)
	if r := img.Bounds(); r.Dx() != 150 || r.Dy() != 200 {
		t.Errorf("200x150 image shown as %v", r)
	}
	if got := gray(img, 10, 10); got != 51 {
		t.Errorf("pixel of value 51 = %d", got)
	}
}

func TestImageBadShape(t *testing.T) {
	for _, shape := range [][]int{{5}, {2, 3, 4}, {2, 1, 4, 4}, {0, 4}} {
		r := mustPanic(t, func() { ImageBundle(tensor.Zeros(shape...)) })
		var se *tensor.ShapeError
		if err, ok := r.(error); !ok || !errors.As(err, &se) {
			t.Errorf("%v: panic %v, want a *tensor.ShapeError", shape, r)
		}
	}
}

func TestGrid(t *testing.T) {
	// 10 black 28x28 tiles but tile 3 white, 4 per row: 3 rows. Tiles
	// scale 2x to 56 px plus a 1 px frame (58), 3 px apart and around.
	x := tensor.Zeros(10, 1, 28, 28)
	ones := tensor.Ones(1, 1, 28, 28)
	x = tensor.Cat(0, x.Narrow(0, 0, 3), ones, x.Narrow(0, 4, 6))
	b := GridBundle(x, 4)
	img := decodePNG(t, b)
	wantW, wantH := 4*58+5*3, 3*58+4*3
	if r := img.Bounds(); r.Dx() != wantW || r.Dy() != wantH {
		t.Fatalf("grid %v, want %dx%d", r, wantW, wantH)
	}
	if w, h := pngMeta(t, b); w != wantW || h != wantH {
		t.Errorf("metadata %dx%d, want %dx%d", w, h, wantW, wantH)
	}
	tile := func(i int) (x0, y0 int) { return 3 + i%4*61, 3 + i/4*61 }
	for _, c := range []struct {
		name string
		x, y int
		want uint8
	}{
		{"background", 1, 1, 255},
		{"frame of tile 0", 3, 20, 158},
		{"inside tile 0", 3 + 1 + 20, 3 + 1 + 20, 0},
		{"inside tile 3", 0, 0, 255},
		{"inside tile 9", 0, 0, 0},
		{"right of tile 9", 0, 0, 255},
	} {
		switch c.name {
		case "inside tile 3":
			c.x, c.y = tile(3)
			c.x, c.y = c.x+30, c.y+30
		case "inside tile 9":
			c.x, c.y = tile(9)
			c.x, c.y = c.x+30, c.y+30
		case "right of tile 9":
			c.x, c.y = tile(10)
			c.x, c.y = c.x+30, c.y+30
		}
		if got := gray(img, c.x, c.y); got != c.want {
			t.Errorf("%s: pixel (%d,%d) = %d, want %d", c.name, c.x, c.y, got, c.want)
		}
	}
	// [N,H,W] is a batch of grey images; cols <= 0 picks min(N, 8).
	img = decodePNG(t, GridBundle(tensor.Zeros(3, 28, 28), 0))
	if r := img.Bounds(); r.Dx() != 3*58+4*3 || r.Dy() != 58+2*3 {
		t.Errorf("[3,28,28] grid %v", r)
	}
	// Colour tiles keep their colour.
	red := tensor.Cat(1, tensor.Ones(2, 1, 4, 4), tensor.Zeros(2, 2, 4, 4))
	img = decodePNG(t, GridBundle(red, 2))
	if got := rgb(img, 3+1+5, 3+1+5); got != [3]uint8{255, 0, 0} {
		t.Errorf("red tile pixel %v", got)
	}
	for _, shape := range [][]int{{28, 28}, {4, 2, 28, 28}, {2, 3, 1, 4, 4}} {
		r := mustPanic(t, func() { GridBundle(tensor.Zeros(shape...), 4) })
		var se *tensor.ShapeError
		if err, ok := r.(error); !ok || !errors.As(err, &se) {
			t.Errorf("%v: panic %v, want a *tensor.ShapeError", shape, r)
		}
	}
}

func TestGridLabeled(t *testing.T) {
	// "pred 3 / true 5" is 15 characters of the 7 px font: 105 px, so tiles
	// scale 4x to 112 px (+2 frame = 114); labels take 2 + 13 px below.
	x := tensor.Zeros(2, 1, 28, 28)
	b := GridLabeledBundle(x, 2, []string{"pred 3 / true 5", "ok"})
	img := decodePNG(t, b)
	wantW, wantH := 2*114+3*3, 114+15+2*3
	if r := img.Bounds(); r.Dx() != wantW || r.Dy() != wantH {
		t.Fatalf("labelled grid %v, want %dx%d", img.Bounds(), wantW, wantH)
	}
	// Count dark text pixels in each label strip.
	dark := func(x0, x1 int) int {
		n := 0
		for y := 3 + 114; y < 3+114+15; y++ {
			for x := x0; x < x1; x++ {
				if gray(img, x, y) < 100 {
					n++
				}
			}
		}
		return n
	}
	long, short := dark(3, 3+114), dark(3+117, 3+117+114)
	if long == 0 || short == 0 || long <= 3*short {
		t.Errorf("dark label pixels %d (15 chars) and %d (2 chars): want text under both, far more under the longer", long, short)
	}
	// Missing labels are blank; the strip is still there.
	img = decodePNG(t, GridLabeledBundle(x, 2, []string{"a"}))
	if r := img.Bounds(); r.Dy() != 58+15+2*3 {
		t.Errorf("grid with one short label %v, want height %d", r, 58+15+2*3)
	}
}

func TestRenderImage(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 10, 5))
	g.SetGray(9, 4, color.Gray{Y: 200})
	b := Render(g)
	img := decodePNG(t, b)
	// Longest side 10 -> factor 12: 120x60.
	if r := img.Bounds(); r.Dx() != 120 || r.Dy() != 60 {
		t.Fatalf("rendered image %v, want 120x60", r)
	}
	if got, want := gray(img, 119, 59), uint8(200); got != want {
		t.Errorf("corner pixel %d, want %d", got, want)
	}
	if got := gray(img, 107, 47); got != 0 {
		t.Errorf("pixel next to the corner square %d, want 0", got)
	}
	if TensorImage(tensor.Ones(3, 5)).Bounds() != image.Rect(0, 0, 5, 3) {
		t.Errorf("TensorImage of [3,5] is not 5x3")
	}
}
