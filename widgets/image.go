package widgets

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/png"

	"github.com/gotensor/gotensor/display"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// Image shows an image whose bytes travel as a binary buffer, not as
// base64 text (ipywidgets' Image).
type Image struct{ *model }

// NewImage returns a widget showing data, an encoded PNG, JPEG or GIF image
// (nil for an empty one).
//
//	img := widgets.NewImage(nil)
//	display.Show(img)
//	img.SetTensor(sample)   // redrawn in place, in a loop
func NewImage(data []byte) *Image {
	return &Image{newDOMModel("ImageModel", "ImageView", "", map[string]any{
		"format": imageFormat(data), "height": "", "width": "", "value": bytesOrEmpty(data),
	})}
}

// Value returns the encoded image.
func (i *Image) Value() []byte { b, _ := i.get("value").([]byte); return b }

// SetValue shows data, an encoded PNG, JPEG or GIF image.
func (i *Image) SetValue(data []byte) {
	i.set("format", imageFormat(data), "value", bytesOrEmpty(data))
}

// SetImage shows img, encoded as PNG.
func (i *Image) SetImage(img image.Image) {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(fmt.Sprintf("widgets: Image.SetImage: %v", err))
	}
	i.SetValue(b.Bytes())
}

// SetTensor shows x as display.Image draws it: [H,W], [1,H,W] or [3,H,W],
// small images scaled up with sharp pixels (a 28×28 digit at 112×112),
// and sets the widget's size to the image's. It panics with a
// *tensor.ShapeError for other shapes.
func (i *Image) SetTensor(x *tensor.Tensor) {
	b := display.ImageBundle(x)
	data, err := base64.StdEncoding.DecodeString(b.Data["image/png"].(string))
	if err != nil {
		panic(fmt.Sprintf("widgets: Image.SetTensor: %v", err))
	}
	c, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		panic(fmt.Sprintf("widgets: Image.SetTensor: %v", err))
	}
	i.set("format", "png", "value", data, "width", fmt.Sprint(c.Width), "height", fmt.Sprint(c.Height))
}

// SetSize sets the displayed width and height in pixels (0 for the
// image's own).
func (i *Image) SetSize(width, height int) {
	px := func(n int) string {
		if n <= 0 {
			return ""
		}
		return fmt.Sprint(n)
	}
	i.set("width", px(width), "height", px(height))
}

// imageFormat names data's image format from its first bytes.
func imageFormat(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return "jpeg"
	case bytes.HasPrefix(data, []byte("GIF8")):
		return "gif"
	}
	return "png"
}

// bytesOrEmpty keeps a nil image a binary value.
func bytesOrEmpty(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
