package nbrun

import (
	"bytes"
	"strings"
	"testing"
)

// TestRenderMarkdown checks examples of the CommonMark spec (0.31.2) and
// of GitHub's GFM spec, whose expected HTML is the specs' own, and the
// safety rules that are ours: raw HTML left out, script links emptied.
func TestRenderMarkdown(t *testing.T) {
	for i, tc := range []struct{ src, want string }{
		// CommonMark.
		{"# foo", "<h1>foo</h1>\n"},
		{"### foo ###", "<h3>foo</h3>\n"},
		{"#5 bolt", "<p>#5 bolt</p>\n"},
		{"***strong emph***", "<p><em><strong>strong emph</strong></em></p>\n"},
		{"foo_bar_", "<p>foo_bar_</p>\n"},
		{"`` foo ` bar ``", "<p><code>foo ` bar</code></p>\n"},
		{`[link](/uri "title")`, "<p><a href=\"/uri\" title=\"title\">link</a></p>\n"},
		{`![foo](/url "title")`, "<p><img src=\"/url\" alt=\"foo\" title=\"title\" /></p>\n"},
		{"```ruby\ndef foo(x)\n  return 3\nend\n```", "<pre><code class=\"language-ruby\">def foo(x)\n  return 3\nend\n</code></pre>\n"},
		{"- foo\n  - bar\n- baz", "<ul>\n<li>foo\n<ul>\n<li>bar</li>\n</ul>\n</li>\n<li>baz</li>\n</ul>\n"},
		{"3. three\n4. four", "<ol start=\"3\">\n<li>three</li>\n<li>four</li>\n</ol>\n"},
		{"> # Foo\n> bar", "<blockquote>\n<h1>Foo</h1>\n<p>bar</p>\n</blockquote>\n"},
		{"***", "<hr />\n"},
		{"aaa\nbbb\n\nccc", "<p>aaa\nbbb</p>\n<p>ccc</p>\n"},
		{`\*not emphasized*`, "<p>*not emphasized*</p>\n"},
		// GFM: tables, strikethrough, autolinks.
		{"| foo | bar |\n| --- | --- |\n| baz | bim |",
			"<table>\n<thead>\n<tr>\n<th>foo</th>\n<th>bar</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>baz</td>\n<td>bim</td>\n</tr>\n</tbody>\n</table>\n"},
		{"| abc | defghi |\n:-: | -----------:\nbar | baz",
			"<table>\n<thead>\n<tr>\n<th align=\"center\">abc</th>\n<th align=\"right\">defghi</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td align=\"center\">bar</td>\n<td align=\"right\">baz</td>\n</tr>\n</tbody>\n</table>\n"},
		{"~~Hi~~ Hello, world!", "<p><del>Hi</del> Hello, world!</p>\n"},
		{"www.commonmark.org", "<p><a href=\"http://www.commonmark.org\">www.commonmark.org</a></p>\n"},
		// Safety.
		{"<script>alert(1)</script>", "<!-- raw HTML omitted -->\n"},
		{"[x](javascript:alert(1))", "<p><a href=\"\">x</a></p>\n"},
	} {
		if got := renderMarkdown(tc.src, nil); got != tc.want {
			t.Errorf("%d: renderMarkdown(%q) =\n%q\nwant\n%q", i, tc.src, got, tc.want)
		}
	}
}

func TestRenderMarkdownAttachment(t *testing.T) {
	att := map[string]any{"dot.png": map[string]any{"image/png": "iVBO\nRw0K"}}
	got := renderMarkdown("![dot](attachment:dot.png)", att)
	want := "<p><img src=\"data:image/png;base64,iVBORw0K\" alt=\"dot\" /></p>\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestWriteHTML(t *testing.T) {
	nb := &Notebook{Cells: []*Cell{
		{Type: MarkdownCell, Source: "## Results"},
		{Type: CodeCell, Source: `fmt.Println("<hi>")`, ExecutionCount: 1, Outputs: []*Output{
			{Type: StreamOutput, Name: "stdout", Text: "10%\r50%\r100%\ndone\n"},
			{Type: StreamOutput, Name: "stderr", Text: "\x1b[31mred\x1b[0m\n"},
		}},
		{Type: CodeCell, Source: "x", ExecutionCount: 2, Outputs: []*Output{
			{Type: DisplayDataOutput, Data: map[string]any{"image/png": "AAAA\nBBBB\n", "text/plain": "img"},
				Metadata: map[string]any{"image/png": map[string]any{"width": 112, "height": 56}}},
			{Type: DisplayDataOutput, Data: map[string]any{"image/svg+xml": "<svg/>", "text/plain": "svg"}},
			{Type: DisplayDataOutput, Data: map[string]any{"text/html": "<table><tr><td>1</td></tr></table>", "text/plain": "t"}},
			{Type: ExecuteResultOutput, ExecutionCount: 2, Data: map[string]any{"text/plain": "a < b"}},
		}},
		{Type: CodeCell, Source: "bad", ExecutionCount: 3, Outputs: []*Output{
			{Type: ErrorOutput, EName: "E", EValue: "v", Traceback: []string{"\x1b[31mE: v\x1b[0m", "  at cell line 1"}},
		}},
		{Type: CodeCell, Source: "never"},
		{Type: RawCell, Source: "<raw>"},
	}}
	var b bytes.Buffer
	if err := WriteHTML(&b, nb, "My <notebook>"); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		"<!DOCTYPE html>",
		"<title>My &lt;notebook&gt;</title>",
		"<h2>Results</h2>",
		"<div class=\"prompt\">In [1]:</div><pre class=\"source\"><code class=\"language-go\">fmt.Println(&#34;&lt;hi&gt;&#34;)</code></pre>",
		"<pre>100%\ndone\n</pre>",
		"<div class=\"output stream stderr\"><pre>red\n</pre></div>",
		"<img src=\"data:image/png;base64,AAAABBBB\" width=\"112\" height=\"56\" alt=\"\">",
		"<img src=\"data:image/svg+xml;base64,PHN2Zy8+\" alt=\"\">",
		"<div class=\"output\"><table><tr><td>1</td></tr></table></div>",
		"<div class=\"prompt out\">Out[2]:</div><div class=\"output\"><pre>a &lt; b</pre></div>",
		"<div class=\"output error\"><pre>E: v\n  at cell line 1</pre></div>",
		"<div class=\"prompt\">In [ ]:</div>",
		"<div class=\"cell raw\"><pre>&lt;raw&gt;</pre></div>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, bad := range []string{"http://", "https://", "<script", "<link"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q: it must need no network", bad)
		}
	}
}
