package display

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"image"
	"image/png"
	"io"
	"strings"
	"sync"
	"testing"
)

// recorder is a Publisher that keeps what it is sent.
type recorder struct {
	mu       sync.Mutex
	displays []published
	clears   []bool
}

type published struct {
	b      Bundle
	id     string
	update bool
}

func (r *recorder) Display(b Bundle, id string, update bool) {
	r.mu.Lock()
	r.displays = append(r.displays, published{b, id, update})
	r.mu.Unlock()
}

func (r *recorder) ClearOutput(wait bool) {
	r.mu.Lock()
	r.clears = append(r.clears, wait)
	r.mu.Unlock()
}

func (r *recorder) all() []published {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]published(nil), r.displays...)
}

// record installs a recorder for the test's duration.
func record(t testing.TB) *recorder {
	r := &recorder{}
	restore := SetPublisher(r)
	t.Cleanup(restore)
	return r
}

// node is an element of a parsed XHTML fragment.
type node struct {
	name     string
	attrs    map[string]string
	children []*node
	content  []any // character data (string) and children (*node), in order
}

// parseXHTML parses an HTML fragment that must be well-formed XML.
func parseXHTML(t *testing.T, s string) *node {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader("<root>" + s + "</root>"))
	d.Strict = true
	root := &node{name: "root"}
	stack := []*node{}
	cur := (*node)(nil)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("HTML is not well-formed: %v\n%s", err, s)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			n := &node{name: tok.Name.Local, attrs: map[string]string{}}
			for _, a := range tok.Attr {
				n.attrs[a.Name.Local] = a.Value
			}
			if cur != nil {
				cur.children = append(cur.children, n)
				cur.content = append(cur.content, n)
				stack = append(stack, cur)
			} else {
				root = n
			}
			cur = n
		case xml.EndElement:
			if len(stack) > 0 {
				cur, stack = stack[len(stack)-1], stack[:len(stack)-1]
			}
		case xml.CharData:
			if cur != nil {
				cur.content = append(cur.content, string(tok))
			}
		}
	}
	return root
}

// find returns the elements named name under n, in document order.
func (n *node) find(name string) []*node {
	var out []*node
	for _, c := range n.children {
		if c.name == name {
			out = append(out, c)
		}
		out = append(out, c.find(name)...)
	}
	return out
}

// withClass returns the elements under n whose class is class.
func (n *node) withClass(class string) []*node {
	var out []*node
	for _, c := range n.children {
		if c.attrs["class"] == class {
			out = append(out, c)
		}
		out = append(out, c.withClass(class)...)
	}
	return out
}

// allText is the character data of n and its descendants.
func (n *node) allText() string {
	s := ""
	for _, c := range n.content {
		switch c := c.(type) {
		case string:
			s += c
		case *node:
			s += c.allText()
		}
	}
	return s
}

// rows returns a table's rows as the texts of their cells (th and td).
func (n *node) rows() [][]string {
	var out [][]string
	for _, tr := range n.find("tr") {
		var r []string
		for _, c := range tr.children {
			r = append(r, strings.TrimSpace(c.allText()))
		}
		out = append(out, r)
	}
	return out
}

// decodePNG decodes a bundle's image/png entry.
func decodePNG(t *testing.T, b Bundle) image.Image {
	t.Helper()
	s, ok := b.Data["image/png"].(string)
	if !ok {
		t.Fatalf("bundle has no image/png: %v", keys(b))
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("image/png is not base64: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("image/png does not decode: %v", err)
	}
	return img
}

// pngMeta returns the width and height a bundle's metadata gives its PNG.
func pngMeta(t *testing.T, b Bundle) (w, h int) {
	t.Helper()
	m, ok := b.Metadata["image/png"].(map[string]any)
	if !ok {
		t.Fatalf("no image/png metadata in %v", b.Metadata)
	}
	return m["width"].(int), m["height"].(int)
}

// gray returns the grey level of img at (x, y).
func gray(img image.Image, x, y int) uint8 {
	r, g, b, _ := img.At(x, y).RGBA()
	return uint8((r + g + b) / 3 >> 8)
}

func rgb(img image.Image, x, y int) [3]uint8 {
	r, g, b, _ := img.At(x, y).RGBA()
	return [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}

func keys(b Bundle) []string {
	var k []string
	for m := range b.Data {
		k = append(k, m)
	}
	return k
}

// mustPanic runs f and returns what it panicked with.
func mustPanic(t *testing.T, f func()) (r any) {
	t.Helper()
	defer func() { r = recover() }()
	f()
	t.Fatal("no panic")
	return nil
}
