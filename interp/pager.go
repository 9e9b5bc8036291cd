package interp

import (
	"io"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gotensor/gotensor/kernel"
)

// A cell `?fmt.Println` or `fmt.Println?` pages the name's documentation,
// as IPython's ?name does (Jupyter's "page" payload); to an Output that is
// not a kernel.Pager, it writes the text to the cell's standard output.

// helpQuery matches a cell that asks for a name's documentation:
// ?fmt.Println, fmt.Println?, ? x or x ?. It is compiled on first use:
// its Unicode classes take a millisecond, at every start.
var helpQuery = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:\?\s*(` + dotted + `)|(` + dotted + `)\s*\?)$`)
})

const dotted = `[\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}_][\p{L}\p{N}_]*)*`

// helpName returns the name a help query asks about, or "".
func helpName(code string) string {
	m := helpQuery().FindStringSubmatch(strings.TrimSpace(code))
	if m == nil {
		return ""
	}
	return m[1] + m[2]
}

// help pages the documentation of name: what Shift-Tab shows for it.
func (s *Session) help(name string, out kernel.Output) error {
	i := s.Inspect(name, utf8.RuneCountInString(name), 1)
	if !i.Found {
		return magicError("?%s: no documentation: %s is not a package member, function, type, variable or constant this session knows", name, name)
	}
	if p, ok := out.(kernel.Pager); ok {
		p.Page(i.Data)
		return nil
	}
	text, _ := i.Data.Data["text/plain"].(string)
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	io.WriteString(s.stdout, text)
	return nil
}
