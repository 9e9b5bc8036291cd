package nbrun

import (
	"fmt"
	"html"
	"regexp"
	"strings"
)

// renderMarkdown renders the markdown of a notebook cell as HTML, minimally:
// ATX headings, paragraphs, fenced code, bullet and numbered lists (nested
// by indentation), block quotes, rules, pipe tables, and inline code,
// emphasis, links and images. Raw HTML is escaped and shown as text. Images
// named "attachment:NAME" come from the cell's attachments, as data: URIs.
func renderMarkdown(src string, attachments map[string]any) string {
	m := &mdRenderer{att: attachments}
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var b strings.Builder
	m.blocks(&b, lines)
	return b.String()
}

type mdRenderer struct {
	att map[string]any
}

var (
	mdHeading  = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	mdRule     = regexp.MustCompile(`^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$`)
	mdItem     = regexp.MustCompile(`^( {0,3})([-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$`)
	mdFence    = regexp.MustCompile("^ {0,3}(```+|~~~+)[ \t]*([^`\\s]*)")
	mdQuote    = regexp.MustCompile(`^ {0,3}> ?(.*)$`)
	mdTableSep = regexp.MustCompile(`^ *\|? *:?-+:? *(?:\| *:?-+:? *)*\|? *$`)
)

// blocks renders lines as a sequence of blocks.
func (m *mdRenderer) blocks(b *strings.Builder, lines []string) {
	var para []string
	flush := func() {
		if len(para) > 0 {
			b.WriteString("<p>" + m.inline(strings.Join(para, "\n")) + "</p>\n")
			para = nil
		}
	}
	for i := 0; i < len(lines); {
		line := lines[i]
		switch {
		case strings.TrimSpace(line) == "":
			flush()
			i++
		case mdFence.MatchString(line):
			flush()
			i = m.fence(b, lines, i)
		case mdHeading.MatchString(line):
			flush()
			g := mdHeading.FindStringSubmatch(line)
			n := len(g[1])
			fmt.Fprintf(b, "<h%d>%s</h%d>\n", n, m.inline(g[2]), n)
			i++
		case mdRule.MatchString(line):
			flush()
			b.WriteString("<hr>\n")
			i++
		case mdQuote.MatchString(line):
			flush()
			var inner []string
			for ; i < len(lines) && mdQuote.MatchString(lines[i]); i++ {
				inner = append(inner, mdQuote.FindStringSubmatch(lines[i])[1])
			}
			b.WriteString("<blockquote>\n")
			m.blocks(b, inner)
			b.WriteString("</blockquote>\n")
		case mdItem.MatchString(line) && (len(para) == 0 || startsList(line)):
			flush()
			i = m.list(b, lines, i)
		case len(para) == 0 && strings.Contains(line, "|") && i+1 < len(lines) && mdTableSep.MatchString(lines[i+1]) && strings.Contains(lines[i+1], "-"):
			i = m.table(b, lines, i)
		default:
			para = append(para, strings.TrimSpace(line))
			i++
		}
	}
	flush()
}

// startsList reports whether an item line may interrupt a paragraph: a
// bullet, or a numbered item starting at 1.
func startsList(line string) bool {
	g := mdItem.FindStringSubmatch(line)
	return g[3] != "" && (!isDigit(g[2][0]) || strings.HasPrefix(g[2], "1") && len(g[2]) == 2)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// fence renders the fenced code block starting at lines[i] and returns the
// index after it.
func (m *mdRenderer) fence(b *strings.Builder, lines []string, i int) int {
	g := mdFence.FindStringSubmatch(lines[i])
	marker, lang := g[1], g[2]
	var code []string
	i++
	for ; i < len(lines); i++ {
		if t := strings.TrimSpace(lines[i]); strings.HasPrefix(t, marker) && strings.Trim(t, marker[:1]) == "" {
			i++
			break
		}
		code = append(code, lines[i])
	}
	class := ""
	if lang != "" {
		class = fmt.Sprintf(" class=\"language-%s\"", html.EscapeString(lang))
	}
	fmt.Fprintf(b, "<pre><code%s>%s</code></pre>\n", class, html.EscapeString(strings.Join(code, "\n")))
	return i
}

// list renders the list starting at lines[i] and returns the index after
// it. An item holds the lines indented under it, rendered as blocks.
func (m *mdRenderer) list(b *strings.Builder, lines []string, i int) int {
	first := mdItem.FindStringSubmatch(lines[i])
	ordered := isDigit(first[2][0])
	tag := "ul"
	if ordered {
		tag = "ol"
		if start := strings.TrimRight(first[2], ".)"); start != "1" {
			fmt.Fprintf(b, "<ol start=\"%s\">\n", start)
		} else {
			b.WriteString("<ol>\n")
		}
	} else {
		b.WriteString("<ul>\n")
	}
	for i < len(lines) {
		g := mdItem.FindStringSubmatch(lines[i])
		if g == nil || isDigit(g[2][0]) != ordered {
			break
		}
		indent := len(g[1]) + len(g[2]) + 1
		item := []string{g[3]}
		i++
		loose := false
		for i < len(lines) {
			l := lines[i]
			if strings.TrimSpace(l) == "" {
				// Blank lines continue the item only when indented
				// lines follow them.
				j := i
				for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
					j++
				}
				if j == len(lines) || leadingSpaces(lines[j]) < 2 {
					break
				}
				if !mdItem.MatchString(lines[j]) {
					loose = true
				}
				for ; i < j; i++ {
					item = append(item, "")
				}
				continue
			}
			if leadingSpaces(l) >= 2 {
				item = append(item, dedent(l, indent))
				i++
				continue
			}
			if mdItem.MatchString(l) || mdHeading.MatchString(l) || mdFence.MatchString(l) || mdRule.MatchString(l) || mdQuote.MatchString(l) {
				break
			}
			item = append(item, l) // a lazy continuation line
			i++
		}
		var ib strings.Builder
		m.blocks(&ib, item)
		s := ib.String()
		if !loose && strings.HasPrefix(s, "<p>") && strings.Count(s, "<p>") == 1 {
			s = strings.Replace(s, "<p>", "", 1)
			s = strings.Replace(s, "</p>\n", "", 1)
		}
		b.WriteString("<li>" + strings.TrimSuffix(s, "\n") + "</li>\n")
		// A blank line between items keeps the list going.
		j := i
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j > i && j < len(lines) && mdItem.MatchString(lines[j]) && leadingSpaces(lines[j]) < 2 {
			i = j
		}
	}
	b.WriteString("</" + tag + ">\n")
	return i
}

func leadingSpaces(s string) int {
	n := 0
	for _, c := range s {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n
		}
	}
	return n
}

// dedent removes up to n columns of leading spaces.
func dedent(s string, n int) string {
	for n > 0 && s != "" && (s[0] == ' ' || s[0] == '\t') {
		if s[0] == '\t' {
			n -= 4
		} else {
			n--
		}
		s = s[1:]
	}
	return s
}

// table renders the pipe table whose header is lines[i] and returns the
// index after it.
func (m *mdRenderer) table(b *strings.Builder, lines []string, i int) int {
	cells := func(l string) []string {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(l, "|")
		l = strings.TrimSuffix(l, "|")
		parts := strings.Split(l, "|")
		for k := range parts {
			parts[k] = strings.TrimSpace(parts[k])
		}
		return parts
	}
	var align []string
	for _, s := range cells(lines[i+1]) {
		switch {
		case strings.HasPrefix(s, ":") && strings.HasSuffix(s, ":"):
			align = append(align, "center")
		case strings.HasSuffix(s, ":"):
			align = append(align, "right")
		case strings.HasPrefix(s, ":"):
			align = append(align, "left")
		default:
			align = append(align, "")
		}
	}
	row := func(tag string, cs []string) {
		b.WriteString("<tr>")
		for k, c := range cs {
			style := ""
			if k < len(align) && align[k] != "" {
				style = fmt.Sprintf(" style=\"text-align: %s\"", align[k])
			}
			fmt.Fprintf(b, "<%s%s>%s</%s>", tag, style, m.inline(c), tag)
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("<table>\n<thead>\n")
	row("th", cells(lines[i]))
	b.WriteString("</thead>\n<tbody>\n")
	i += 2
	for ; i < len(lines) && strings.Contains(lines[i], "|") && strings.TrimSpace(lines[i]) != ""; i++ {
		row("td", cells(lines[i]))
	}
	b.WriteString("</tbody>\n</table>\n")
	return i
}

// inline renders inline markdown: code spans, images, links, strong and
// emphasis and backslash escapes; the rest is escaped
// text.
func (m *mdRenderer) inline(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("\\`*_{}[]()#+-.!|<>~$", s[i+1]) >= 0:
			b.WriteString(html.EscapeString(s[i+1 : i+2]))
			i += 2
			continue
		case c == '`':
			n := runLen(s[i:], '`')
			if j := strings.Index(s[i+n:], s[i:i+n]); j >= 0 {
				code := strings.TrimSpace(s[i+n : i+n+j])
				b.WriteString("<code>" + html.EscapeString(code) + "</code>")
				i += 2*n + j
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
			continue
		case c == '!' && strings.HasPrefix(s[i+1:], "["):
			if text, url, n, ok := parseLink(s[i+1:]); ok {
				fmt.Fprintf(&b, "<img src=\"%s\" alt=\"%s\">", html.EscapeString(m.imageURL(url)), html.EscapeString(text))
				i += 1 + n
				continue
			}
		case c == '[':
			if text, url, n, ok := parseLink(s[i:]); ok {
				fmt.Fprintf(&b, "<a href=\"%s\">%s</a>", html.EscapeString(safeURL(url)), m.inline(text))
				i += n
				continue
			}
		case c == '*' || c == '_':
			if n, inner, ok := emphasis(s, i); ok {
				open, close := "<em>", "</em>"
				if n == 2 {
					open, close = "<strong>", "</strong>"
				} else if n == 3 {
					open, close = "<strong><em>", "</em></strong>"
				}
				b.WriteString(open + m.inline(inner) + close)
				i += 2*n + len(inner)
				continue
			}
			k := runLen(s[i:], c)
			b.WriteString(s[i : i+k])
			i += k
			continue
		}
		b.WriteString(html.EscapeString(s[i : i+1]))
		i++
	}
	return b.String()
}

// runLen returns how many times c repeats at the start of s.
func runLen(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// parseLink parses "[text](url)" or "[text](url "title")" at the start of s
// and returns the text, the URL and the length consumed.
func parseLink(s string) (text, url string, n int, ok bool) {
	depth := 0
	end := -1
	for j := 0; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				end = j
			}
		}
		if end >= 0 {
			break
		}
	}
	if end < 0 || end+1 >= len(s) || s[end+1] != '(' {
		return "", "", 0, false
	}
	close := strings.IndexByte(s[end+2:], ')')
	if close < 0 {
		return "", "", 0, false
	}
	target := strings.TrimSpace(s[end+2 : end+2+close])
	if sp := strings.IndexAny(target, " \t"); sp >= 0 {
		target = target[:sp] // drop a title
	}
	target = strings.TrimSuffix(strings.TrimPrefix(target, "<"), ">")
	return s[1:end], target, end + 3 + close, true
}

// emphasis finds the emphasis that opens at s[i] (*, **, ***, or the same
// with _) and returns its marker length and its content.
func emphasis(s string, i int) (n int, inner string, ok bool) {
	c := s[i]
	n = min(runLen(s[i:], c), 3)
	open := s[i : i+n]
	rest := s[i+n:]
	if rest == "" || rest[0] == ' ' || rest[0] == '\n' {
		return 0, "", false
	}
	if c == '_' && i > 0 && isWordByte(s[i-1]) {
		return 0, "", false // snake_case
	}
	for j := 1; j <= len(rest)-n; j++ {
		if rest[j:j+n] != open || rest[j-1] == ' ' || rest[j-1] == '\\' {
			continue
		}
		if j+n < len(rest) && rest[j+n] == c {
			continue // a longer run: not this closer
		}
		if c == '_' && j+n < len(rest) && isWordByte(rest[j+n]) {
			continue
		}
		return n, rest[:j], true
	}
	return 0, "", false
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

// safeURL drops URLs with a script scheme.
func safeURL(u string) string {
	l := strings.ToLower(strings.TrimSpace(u))
	if strings.HasPrefix(l, "javascript:") || strings.HasPrefix(l, "vbscript:") {
		return "#"
	}
	return u
}

// imageURL resolves "attachment:NAME" to a data: URI of the cell's
// attachment.
func (m *mdRenderer) imageURL(u string) string {
	name, ok := strings.CutPrefix(u, "attachment:")
	if !ok {
		return safeURL(u)
	}
	bundle, _ := m.att[name].(map[string]any)
	for mime, v := range bundle {
		if s, ok := v.(string); ok && strings.HasPrefix(mime, "image/") {
			return "data:" + mime + ";base64," + strings.Join(strings.Fields(s), "")
		}
	}
	return u
}
