package interp

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/scanner"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gotensor/gotensor/display"
	"github.com/gotensor/gotensor/interp/internal/plan"
	"github.com/gotensor/gotensor/interp/internal/symbols"
	"github.com/gotensor/gotensor/kernel"
)

// Completion and Shift-Tab answer from the planner's model of the session
// (plan.Session's lookups): the type of any expression over the session's
// names, the fields and methods of any type, the signature of the function
// whose arguments are being typed. Values come from the interpreter.

var keywords = []string{
	"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough",
	"for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range",
	"return", "select", "struct", "switch", "type", "var",
}

// Complete returns the completions of the identifier before the cursor:
// after "x." the members of package x or the fields and methods of the
// type of the expression x (which may be a call or a chain); else the
// session's names, its imports, the names of the code being typed,
// keywords and predeclared names. The cursor is in Unicode code points.
func (s *Session) Complete(code string, cursor int) kernel.Completion {
	off := byteOffset(code, cursor)
	start := identBefore(code, off)
	prefix := code[start:off]
	var names []string
	if start > 0 && code[start-1] == '.' {
		x := exprBefore(code, start-1)
		for _, m := range s.members(code[:lineStart(code, x)], code[x:start-1]) {
			names = append(names, m.Name)
		}
	} else {
		names = s.topNames(code, start)
	}
	seen := map[string]bool{}
	matches := []string{}
	for _, n := range names {
		if strings.HasPrefix(n, prefix) && !seen[n] && !strings.HasPrefix(n, "_gt") {
			seen[n] = true
			matches = append(matches, n)
		}
	}
	sort.Strings(matches)
	return kernel.Completion{Matches: matches, Start: runeOffset(code, start), End: runeOffset(code, off), Metadata: map[string]any{}}
}

// members returns what may follow "expr." in a cell whose text before the
// line being typed is prefix; nil when the planner cannot tell.
func (s *Session) members(prefix, expr string) []plan.Member {
	ms, err := s.plan.Members(prefix, expr)
	if err != nil {
		return nil
	}
	return ms
}

// topNames lists the names usable at the top of an expression.
func (s *Session) topNames(code string, skip int) []string {
	names := append([]string{}, keywords...)
	names = append(names, types.Universe.Names()...)
	for name := range s.plan.Imports() {
		names = append(names, name)
	}
	names = append(names, s.plan.Names()...)
	// Names declared in the code being typed.
	fset := token.NewFileSet()
	var sc scanner.Scanner
	sc.Init(fset.AddFile("", -1, len(code)), []byte(code), nil, 0)
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.IDENT && int(pos)-1 != skip {
			names = append(names, lit)
		}
	}
	return names
}

// Inspect describes what is at the cursor: inside a call's parentheses,
// the signature of the function called (and its doc comment); on a name,
// the declaration and doc comment of a package member, a field or method
// of a value, or a function, type or variable of the session (with its
// value). The cursor is in Unicode code points.
func (s *Session) Inspect(code string, cursor, detail int) kernel.Inspection {
	off := byteOffset(code, cursor)
	start, end := identBefore(code, off), identAfter(code, off)
	var text string
	if start < end {
		name := code[start:end]
		if start > 0 && code[start-1] == '.' {
			x := exprBefore(code, start-1)
			text = s.describeMember(code[:lineStart(code, x)], code[x:start-1], name)
		} else {
			text = s.describeName(name)
		}
	}
	if text == "" {
		if call, ok := s.plan.CallAt(code, off); ok {
			text = s.describeCall(call)
		}
	}
	if text == "" {
		return kernel.Inspection{}
	}
	return kernel.Inspection{Found: true, Data: kernel.Bundle(display.Text(text))}
}

// describeCall describes the function whose arguments are being typed.
func (s *Session) describeCall(call *plan.Call) string {
	text := call.Func + ": " + typeString(call.Signature)
	fun := call.Func
	if i := strings.LastIndexByte(fun, '.'); i > 0 {
		if d := s.describeMember("", fun[:i], fun[i+1:]); d != "" {
			return d
		}
	} else if d := s.describeName(fun); d != "" {
		return d
	}
	return text
}

// describeMember describes the member name of x: a package member, or a
// field or method of the type of expression x.
func (s *Session) describeMember(prefix, x, name string) string {
	path, isPkg := s.plan.Imports()[x]
	for _, m := range s.members(prefix, x) {
		if m.Name != name {
			continue
		}
		switch {
		case isPkg && s.plan.Lookup(x) == nil:
			decl := m.String()
			if m.Kind == "const" {
				if tv, err := s.plan.TypeOf("", x+"."+name); err == nil && tv.Value != nil {
					decl += " = " + constString(tv.Value)
				}
			}
			return withDoc(decl, s.doc(path+"."+name))
		case m.Kind == "method":
			sig := m.Type.(*types.Signature)
			if src := s.plan.Source(recvName(sig) + "." + name); src != "" {
				return src // a method a cell declared, with its doc comment
			}
			return withDoc(m.String(), s.doc(methodKey(sig, name)))
		}
		return "field " + m.String()
	}
	return ""
}

// describeName describes a package, or a function, type, constant or
// variable of the session.
func (s *Session) describeName(name string) string {
	if obj := s.plan.Lookup(name); obj != nil {
		switch obj := obj.(type) {
		case *types.Var:
			v := s.globals()[s.plan.InterpName(name)]
			if t, ok := tensorOf(v); ok {
				return fmt.Sprintf("%s: %s %s\n\n%s", name, typeString(obj.Type()), tensorSummary(t), summary(v))
			}
			return fmt.Sprintf("%s: %s = %s", name, typeString(obj.Type()), summary(v))
		case *types.Const:
			return fmt.Sprintf("const %s %s = %s", name, typeString(obj.Type()), obj.Val())
		}
		if src := s.plan.Source(name); src != "" {
			return src
		}
		return name + ": " + typeString(obj.Type())
	}
	if p, ok := s.plan.Imports()[name]; ok {
		return fmt.Sprintf("package %s (%q)", name, p)
	}
	return ""
}

// constString prints a constant's value as Go prints the value it
// converts to: floats in their shortest form, not as fractions.
func constString(v constant.Value) string {
	if v.Kind() == constant.Float {
		f, _ := constant.Float64Val(v)
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return v.ExactString()
}

// withDoc appends a doc comment to a declaration; a doc of this project's
// packages starts with the declaration (its parameter names too), and
// replaces it.
func withDoc(decl, doc string) string {
	switch {
	case doc == "":
		return decl
	case strings.HasPrefix(doc, "func ") || strings.HasPrefix(doc, "type "):
		return doc
	}
	return decl + "\n\n" + doc
}

// recvName returns the name of a method's receiver type, without a pointer.
func recvName(sig *types.Signature) string {
	if sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// methodKey returns the doc key of a method of a compiled type:
// "import/path.Type.Method".
func methodKey(sig *types.Signature, name string) string {
	if sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name() + "." + name
}

// typeString prints a type the way a cell writes it: package names, and
// the cell's own types unqualified.
func typeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p.Path() == "main" {
			return ""
		}
		return p.Name()
	})
}

// globals returns the interpreter's global variables.
func (s *Session) globals() (g map[string]reflect.Value) {
	// yaegi's Globals panics when a compiled but not yet executed
	// declaration has no storage: executing an empty program makes it.
	for try := 0; ; try++ {
		ok := func() (ok bool) {
			defer func() {
				if r := recover(); r != nil && try == 0 {
					ok = false
				}
			}()
			g = s.yi.Globals()
			return true
		}()
		if ok || try > 0 {
			return g
		}
		if prog, err := s.yi.CompileAST(&ast.BlockStmt{}); err == nil {
			s.yi.Execute(prog)
		}
	}
}

// summary is a value's text, cut to a few lines.
func summary(v reflect.Value) string {
	if !v.IsValid() || !v.CanInterface() {
		return "?"
	}
	b := display.Render(v.Interface())
	text, _ := b.Data["text/plain"].(string)
	if len(text) > 500 {
		text = text[:500] + "…"
	}
	return text
}

// doc returns the doc comment of "import/path.Name" from Options.Docs or the
// library's generated docs.
func (s *Session) doc(key string) string {
	if d, ok := s.opts.Docs[key]; ok {
		return d
	}
	return symbols.Docs[key]
}

// IsComplete tells whether code is ready to run: "incomplete" (with the
// indent of the next line) while brackets, a raw string or a comment are
// open or a line ends in an operator, "invalid" when it cannot parse,
// "complete" otherwise.
func (s *Session) IsComplete(code string) kernel.Completeness {
	if strings.TrimSpace(code) == "" || isMagic(code) || helpName(code) != "" {
		return kernel.Completeness{Status: "complete"}
	}
	fset := token.NewFileSet()
	var errs scanner.ErrorList
	var sc scanner.Scanner
	sc.Init(fset.AddFile("", -1, len(code)), []byte(code), func(pos token.Position, msg string) {
		errs.Add(pos, msg)
	}, 0)
	var stack []token.Token
	last := token.ILLEGAL
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			stack = append(stack, tok)
		case token.RPAREN, token.RBRACK, token.RBRACE:
			open := map[token.Token]token.Token{token.RPAREN: token.LPAREN, token.RBRACK: token.LBRACK, token.RBRACE: token.LBRACE}[tok]
			if len(stack) == 0 || stack[len(stack)-1] != open {
				return kernel.Completeness{Status: "invalid"}
			}
			stack = stack[:len(stack)-1]
		}
		if tok != token.SEMICOLON || lit != "\n" {
			last = tok
		}
	}
	for _, e := range errs {
		if strings.Contains(e.Msg, "raw string literal not terminated") || strings.Contains(e.Msg, "comment not terminated") {
			return kernel.Completeness{Status: "incomplete"}
		}
		return kernel.Completeness{Status: "invalid"}
	}
	if len(stack) > 0 {
		return kernel.Completeness{Status: "incomplete", Indent: strings.Repeat("\t", len(stack))}
	}
	if continues(last) {
		return kernel.Completeness{Status: "incomplete", Indent: "\t"}
	}
	if s.plan.Syntax(code) != nil {
		return kernel.Completeness{Status: "invalid"}
	}
	return kernel.Completeness{Status: "complete"}
}

// continues reports whether a line ending in tok goes on: binary operators,
// commas, dots and assignment operators.
func continues(tok token.Token) bool {
	switch tok {
	case token.COMMA, token.PERIOD, token.ASSIGN, token.DEFINE, token.COLON:
		return true
	}
	return tok.IsOperator() && tok.Precedence() > 0 ||
		(tok >= token.ADD_ASSIGN && tok <= token.AND_NOT_ASSIGN)
}

// byteOffset converts a cursor in Unicode code points into a byte offset of
// code, clamped to the code's length.
func byteOffset(code string, cursor int) int {
	if cursor <= 0 {
		return 0
	}
	n := 0
	for i := range code {
		if n == cursor {
			return i
		}
		n++
	}
	return len(code)
}

// runeOffset converts a byte offset of code into code points.
func runeOffset(code string, off int) int { return utf8.RuneCountInString(code[:off]) }

func isIdentRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// identBefore returns the start of the identifier that ends at off.
func identBefore(code string, off int) int {
	for off > 0 {
		r, size := utf8.DecodeLastRuneInString(code[:off])
		if !isIdentRune(r) {
			break
		}
		off -= size
	}
	return off
}

// identAfter returns the end of the identifier that starts at off.
func identAfter(code string, off int) int {
	for off < len(code) {
		r, size := utf8.DecodeRuneInString(code[off:])
		if !isIdentRune(r) {
			break
		}
		off += size
	}
	return off
}

// exprBefore returns the start of the operand that ends at off: names,
// dots and balanced brackets, as in "x.T().Sum(0)".
func exprBefore(code string, off int) int {
	depth := 0
	for off > 0 {
		r, size := utf8.DecodeLastRuneInString(code[:off])
		switch {
		case r == ')' || r == ']':
			depth++
		case (r == '(' || r == '[') && depth > 0:
			depth--
		case depth > 0 || isIdentRune(r) || r == '.':
		default:
			return off
		}
		off -= size
	}
	return off
}

// lineStart returns the offset where the line holding off starts.
func lineStart(code string, off int) int {
	return strings.LastIndexByte(code[:off], '\n') + 1
}
