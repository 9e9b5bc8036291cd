package display

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image"
	"image/png"
	"reflect"
	"strings"
	"testing"
)

type selfRendered struct{}

func (selfRendered) Bundle() Bundle { return Text("mine") }
func (selfRendered) HTML() string   { return "<b>ignored</b>" }
func (selfRendered) String() string { return "ignored" }

type richValue struct{ n int }

func (r richValue) HTML() string     { return "<i>rich</i>" }
func (r richValue) Markdown() string { return "*rich*" }
func (r richValue) SVG() string      { return "<svg/>" }
func (r richValue) PNG() []byte      { return tinyPNG() }
func (r richValue) String() string   { return "richValue" }

type htmlOnly struct{}

func (htmlOnly) HTML() string { return "<p>Hello <b>world</b></p>" }

type stringer struct{}

func (stringer) String() string { return "I am a stringer" }

// tinyPNG returns a 3x2 PNG file.
func tinyPNG() []byte {
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, 3, 2)))
	return buf.Bytes()
}

func TestRenderPicks(t *testing.T) {
	b := Text("kept")
	for i, c := range []struct {
		v    any
		want map[string]any
	}{
		{nil, map[string]any{"text/plain": "<nil>"}},
		{42, map[string]any{"text/plain": "42"}},
		{stringer{}, map[string]any{"text/plain": "I am a stringer"}},
		{b, map[string]any{"text/plain": "kept"}},
		{&b, map[string]any{"text/plain": "kept"}},
		{selfRendered{}, map[string]any{"text/plain": "mine"}},
		{htmlOnly{}, map[string]any{"text/html": "<p>Hello <b>world</b></p>", "text/plain": "{}"}},
		{richValue{}, map[string]any{
			"text/html":     "<i>rich</i>",
			"text/markdown": "*rich*",
			"image/svg+xml": "<svg/>",
			"image/png":     base64.StdEncoding.EncodeToString(tinyPNG()),
			"text/plain":    "richValue",
		}},
	} {
		if got := Render(c.v).Data; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%d: Render(%T) = %v, want %v", i, c.v, got, c.want)
		}
	}
}

func TestRenderError(t *testing.T) {
	err := errors.New(`data: cannot open "x<y>": no such file`)
	b := Render(err)
	if b.Data["text/plain"] != err.Error() {
		t.Errorf("text/plain %q", b.Data["text/plain"])
	}
	root := parseXHTML(t, b.Data["text/html"].(string))
	pre := root.find("pre")
	if len(pre) != 1 || pre[0].allText() != err.Error() {
		t.Fatalf("error HTML %q: want one pre with the message", b.Data["text/html"])
	}
	if !strings.Contains(pre[0].attrs["style"], "--jp-error-color1") {
		t.Errorf("error style %q lacks the front end's error colour", pre[0].attrs["style"])
	}
}

func TestFromMethods(t *testing.T) {
	got := FromMethods("", "# T", "", nil, "").Data
	if want := map[string]any{"text/markdown": "# T", "text/plain": "# T"}; !reflect.DeepEqual(got, want) {
		t.Errorf("markdown only: %v, want %v", got, want)
	}
	b := FromMethods("<b>x</b>", "", "", tinyPNG(), "v")
	if b.Data["text/html"] != "<b>x</b>" || b.Data["text/plain"] != "v" || b.Data["image/png"] == nil {
		t.Errorf("html+png: %v", b.Data)
	}
	if w, h := pngMeta(t, b); w != 3 || h != 2 {
		t.Errorf("png metadata %dx%d, want 3x2", w, h)
	}
	if got := FromMethods("", "", "", nil, "").Data["text/plain"]; got != "<rich output>" {
		t.Errorf("nothing: text %q", got)
	}
}

func TestMIMEBundles(t *testing.T) {
	for i, c := range []struct {
		b    Bundle
		want map[string]any
	}{
		{HTMLBundle("<p>Hello <b>world</b> &amp; you</p><style>p{color:red}</style><p>two</p>"),
			map[string]any{"text/html": "<p>Hello <b>world</b> &amp; you</p><style>p{color:red}</style><p>two</p>", "text/plain": "Hello world & you\ntwo"}},
		{MarkdownBundle("# T"), map[string]any{"text/markdown": "# T", "text/plain": "# T"}},
		{LatexBundle(`x^2`), map[string]any{"text/latex": "$$x^2$$", "text/plain": "x^2"}},
		{LatexBundle(`$x$ and $y$`), map[string]any{"text/latex": "$x$ and $y$", "text/plain": "$x$ and $y$"}},
		{LatexBundle(`\begin{align}a&=b\end{align}`), map[string]any{"text/latex": `\begin{align}a&=b\end{align}`, "text/plain": `\begin{align}a&=b\end{align}`}},
		{SVGBundle("<svg/>"), map[string]any{"image/svg+xml": "<svg/>", "text/html": `<img src="data:image/svg+xml;base64,PHN2Zy8+" alt="SVG image"/>`, "text/plain": "<SVG image>"}},
		{PNGBundle(tinyPNG()), map[string]any{"image/png": base64.StdEncoding.EncodeToString(tinyPNG()), "text/plain": "<PNG image 3x2>"}},
		{PNGBundle([]byte("nope")), map[string]any{"image/png": base64.StdEncoding.EncodeToString([]byte("nope")), "text/plain": "<PNG image, 4 bytes>"}},
		{JSONBundle(map[string]any{"lr": 0.001, "layers": []int{784, 10}}), map[string]any{
			"application/json": map[string]any{"lr": 0.001, "layers": []any{784.0, 10.0}},
			"text/plain":       "{\n  \"layers\": [\n    784,\n    10\n  ],\n  \"lr\": 0.001\n}",
		}},
	} {
		if !reflect.DeepEqual(c.b.Data, c.want) {
			t.Errorf("%d: %q\nwant %q", i, c.b.Data, c.want)
		}
	}
	b := JSONBundle(make(chan int))
	if _, ok := b.Data["application/json"]; ok || !strings.Contains(b.Data["text/plain"].(string), "display: JSON: cannot encode a chan int") {
		t.Errorf("unencodable JSON: %v", b.Data)
	}
}

func TestTable(t *testing.T) {
	b := TableBundle([]string{"layer", "output", "params"}, [][]any{
		{"Linear", "[128 256]", 200960},
		{"ReLU", "[128 256]", 0},
		{"Linear", "[128 10]", 2570},
	})
	wantText := "" +
		"layer   output     params\n" +
		"------  ---------  ------\n" +
		"Linear  [128 256]  200960\n" +
		"ReLU    [128 256]       0\n" +
		"Linear  [128 10]     2570"
	if got := b.Data["text/plain"]; got != wantText {
		t.Errorf("text\n%s\nwant\n%s", got, wantText)
	}
	root := parseXHTML(t, b.Data["text/html"].(string))
	tables := root.find("table")
	if len(tables) != 1 {
		t.Fatalf("%d tables", len(tables))
	}
	want := [][]string{
		{"layer", "output", "params"},
		{"Linear", "[128 256]", "200960"},
		{"ReLU", "[128 256]", "0"},
		{"Linear", "[128 10]", "2570"},
	}
	if got := tables[0].rows(); !reflect.DeepEqual(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	tds := root.find("td")
	if tds[2].attrs["class"] != "gt-n" || tds[0].attrs["class"] != "" {
		t.Errorf("numeric column not right-aligned: classes %q %q", tds[0].attrs["class"], tds[2].attrs["class"])
	}

	// Other row types; floats in shortest form; no headers.
	b = TableBundle(nil, [][]float64{{0.1, 2}, {30, 4.5}})
	if got, want := b.Data["text/plain"], "0.1    2\n 30  4.5"; got != want {
		t.Errorf("float table %q, want %q", got, want)
	}
	b = TableBundle([]string{"a"}, [][]string{{"x<y"}})
	if !strings.Contains(b.Data["text/html"].(string), "<td>x&lt;y</td>") {
		t.Errorf("cells are not escaped: %s", b.Data["text/html"])
	}
	for _, bad := range []any{42, []int{1, 2}} {
		if r := mustPanic(t, func() { TableBundle(nil, bad) }); !strings.Contains(r.(error).Error(), "display: Table:") {
			t.Errorf("Table(%v) panic %v", bad, r)
		}
	}
}

func TestPublish(t *testing.T) {
	// Nothing installed: publishing is a no-op.
	SetPublisher(nil)()
	Show(1)
	r := record(t)
	HTML("<b>x</b>")
	Markdown("m")
	Latex("x")
	PNG(tinyPNG())
	SVG("<svg/>")
	JSON(1)
	Table(nil, [][]string{{"a"}})
	Show(2)
	ClearOutput(true)
	d := r.all()
	wantKinds := []string{"text/html", "text/markdown", "text/latex", "image/png", "image/svg+xml", "application/json", "text/html", "text/plain"}
	if len(d) != len(wantKinds) {
		t.Fatalf("%d displays, want %d", len(d), len(wantKinds))
	}
	for i, k := range wantKinds {
		if _, ok := d[i].b.Data[k]; !ok || d[i].id != "" || d[i].update {
			t.Errorf("display %d: %v id %q update %v, want %s, no id", i, keys(d[i].b), d[i].id, d[i].update, k)
		}
	}
	if !reflect.DeepEqual(r.clears, []bool{true}) {
		t.Errorf("clears %v", r.clears)
	}
}
