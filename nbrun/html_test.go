package nbrun

import (
	"bytes"
	"strings"
	"testing"
)

func TestRenderMarkdown(t *testing.T) {
	for i, tc := range []struct{ src, want string }{
		{"# Title", "<h1>Title</h1>\n"},
		{"### Three ###", "<h3>Three</h3>\n"},
		{"#hashtag", "<p>#hashtag</p>\n"},
		{"one\ntwo\n\nthree", "<p>one\ntwo</p>\n<p>three</p>\n"},
		{"a *b* **c** ***d*** _e_ __f__", "<p>a <em>b</em> <strong>c</strong> <strong><em>d</em></strong> <em>e</em> <strong>f</strong></p>\n"},
		{"snake_case_name and 2 * 3 * 4", "<p>snake_case_name and 2 * 3 * 4</p>\n"},
		{"use `x.Add(y)` and `a<b`", "<p>use <code>x.Add(y)</code> and <code>a&lt;b</code></p>\n"},
		{"``a ` b``", "<p><code>a ` b</code></p>\n"},
		{"see [the *docs*](https://go.dev/doc \"Go\")", "<p>see <a href=\"https://go.dev/doc\">the <em>docs</em></a></p>\n"},
		{"[x](javascript:alert(1))", "<p><a href=\"#\">x</a>)</p>\n"},
		{"![a digit](digit.png)", "<p><img src=\"digit.png\" alt=\"a digit\"></p>\n"},
		{"<script>alert(1)</script> & co", "<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; co</p>\n"},
		{`\*not em\*`, "<p>*not em*</p>\n"},
		{"```go\nx := 1 < 2\n```\nafter", "<pre><code class=\"language-go\">x := 1 &lt; 2</code></pre>\n<p>after</p>\n"},
		{"- a\n- b *c*\n\ntext", "<ul>\n<li>a</li>\n<li>b <em>c</em></li>\n</ul>\n<p>text</p>\n"},
		{"1. one\n2. two", "<ol>\n<li>one</li>\n<li>two</li>\n</ol>\n"},
		{"3. three\n4. four", "<ol start=\"3\">\n<li>three</li>\n<li>four</li>\n</ol>\n"},
		{"- a\n  - nested\n- b", "<ul>\n<li>a<ul>\n<li>nested</li>\n</ul></li>\n<li>b</li>\n</ul>\n"},
		{"> quoted\n> more", "<blockquote>\n<p>quoted\nmore</p>\n</blockquote>\n"},
		{"---", "<hr>\n"},
		{"| a | b |\n|---|--:|\n| 1 | 2 |", "<table>\n<thead>\n<tr><th>a</th><th style=\"text-align: right\">b</th></tr>\n</thead>\n<tbody>\n<tr><td>1</td><td style=\"text-align: right\">2</td></tr>\n</tbody>\n</table>\n"},
	} {
		if got := renderMarkdown(tc.src, nil); got != tc.want {
			t.Errorf("%d: renderMarkdown(%q) =\n%q\nwant\n%q", i, tc.src, got, tc.want)
		}
	}
}

func TestRenderMarkdownAttachment(t *testing.T) {
	att := map[string]any{"dot.png": map[string]any{"image/png": "iVBO\nRw0K"}}
	got := renderMarkdown("![dot](attachment:dot.png)", att)
	want := "<p><img src=\"data:image/png;base64,iVBORw0K\" alt=\"dot\"></p>\n"
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
