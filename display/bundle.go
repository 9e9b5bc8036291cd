package display

import "encoding/json"

// Bundle is one rich output: the same value in several MIME types.
//
// Data maps a MIME type to its representation: a string for text types
// ("text/plain", "text/html", "image/svg+xml"), base64 text for binary image
// types ("image/png"), and any JSON-encodable value for JSON types
// ("application/json"). Metadata holds optional per-type hints, such as an
// image's width and height: {"image/png": {"width": 112, "height": 112}}.
//
// Every bundle this package builds has a "text/plain" entry, for consoles and
// front ends that show no rich output.
type Bundle struct {
	Data     map[string]any
	Metadata map[string]any
}

// Text returns a bundle holding only plain text.
//
//	b := display.Text("hello")
func Text(s string) Bundle {
	return Bundle{Data: map[string]any{"text/plain": s}}
}

// MarshalJSON encodes the bundle's Data; Metadata travels separately in the
// Jupyter protocol.
func (b Bundle) MarshalJSON() ([]byte, error) { return json.Marshal(b.Data) }

// with returns b with Data[mime] set to v, allocating the map if needed.
func (b Bundle) with(mime string, v any) Bundle {
	if b.Data == nil {
		b.Data = map[string]any{}
	}
	b.Data[mime] = v
	return b
}

// withMeta returns b with Metadata[mime] set to v.
func (b Bundle) withMeta(mime string, v any) Bundle {
	if b.Metadata == nil {
		b.Metadata = map[string]any{}
	}
	b.Metadata[mime] = v
	return b
}

// Publisher receives the outputs that display functions publish while a cell
// runs. A notebook session has one, in its Outlet.
type Publisher interface {
	// Display shows b. A non-empty id names the output so that a later call
	// with update set replaces it in place instead of adding a new output.
	Display(b Bundle, id string, update bool)
	// ClearOutput clears the cell's outputs; with wait set, the front end
	// clears them only when the next output arrives, avoiding flicker.
	ClearOutput(wait bool)
}

// publish sends b to the calling goroutine's publisher, if any.
func publish(b Bundle, id string, update bool) {
	if p := currentPublisher(); p != nil {
		p.Display(b, id, update)
	}
}

// ClearOutput clears the running cell's outputs. With wait set, the front end
// waits for the next output before clearing, which avoids flicker when an
// output is redrawn.
//
//	display.ClearOutput(true)
//	display.Show(x)
func ClearOutput(wait bool) {
	if p := currentPublisher(); p != nil {
		p.ClearOutput(wait)
	}
}
