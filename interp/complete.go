package interp

import (
	"github.com/gotensor/gotensor/interp/internal/symbols"

	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"reflect"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gotensor/gotensor/display"
)

var keywords = []string{
	"break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough",
	"for", "func", "go", "goto", "if", "import", "interface", "map", "package", "range",
	"return", "select", "struct", "switch", "type", "var",
}

var predeclared = []string{
	"append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make", "max",
	"min", "new", "panic", "print", "println", "real", "recover",
	"bool", "byte", "complex128", "complex64", "error", "float32", "float64", "int", "int16",
	"int32", "int64", "int8", "rune", "string", "uint", "uint16", "uint32", "uint64", "uint8",
	"uintptr", "any", "true", "false", "nil", "iota",
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

// Complete returns the completions of the identifier before the cursor:
// members of a package or of a session variable's type after a dot, else
// session variables and functions, imported packages, keywords and
// predeclared names. The cursor is in Unicode code points.
func (s *Session) Complete(code string, cursor int) Completion {
	off := byteOffset(code, cursor)
	start := identBefore(code, off)
	prefix := code[start:off]
	var names []string
	if start > 0 && code[start-1] == '.' {
		xStart := identBefore(code, start-1)
		names = s.members(code[xStart : start-1])
	} else {
		names = s.topNames(code, start)
	}
	seen := map[string]bool{}
	var matches []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) && !seen[n] && !strings.HasPrefix(n, "_gt") {
			seen[n] = true
			matches = append(matches, n)
		}
	}
	sort.Strings(matches)
	if matches == nil {
		matches = []string{}
	}
	return Completion{Matches: matches, Start: runeOffset(code, start), End: runeOffset(code, off), Metadata: map[string]any{}}
}

// topNames lists the names usable at the top of an expression.
func (s *Session) topNames(code string, skip int) []string {
	var names []string
	names = append(names, keywords...)
	names = append(names, predeclared...)
	for name := range s.imports {
		names = append(names, name)
	}
	for name := range s.globals() {
		names = append(names, name)
	}
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

// globals returns the session's variables, functions and constants.
func (s *Session) globals() map[string]reflect.Value {
	g := map[string]reflect.Value{}
	for name, v := range s.yaegiGlobals() {
		if !strings.HasPrefix(name, "_") {
			g[name] = v
		}
	}
	return g
}

// yaegiGlobals is yaegi's Globals, which panics when a compiled but not yet
// executed declaration has no storage: executing an empty program makes it.
func (s *Session) yaegiGlobals() (g map[string]reflect.Value) {
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

// members lists the names after "x.": the exported symbols of package x, or
// the fields and methods of variable x's type.
func (s *Session) members(x string) []string {
	var names []string
	if p, ok := s.imports[x]; ok {
		for _, syms := range s.yi.Symbols(p) {
			for name := range syms {
				names = append(names, name)
			}
		}
		return names
	}
	v, ok := s.globals()[x]
	if !ok || !v.IsValid() {
		return nil
	}
	t := v.Type()
	mt := t
	if k := t.Kind(); k != reflect.Pointer && k != reflect.Interface {
		mt = reflect.PointerTo(t) // a variable is addressable
	}
	for i := 0; i < mt.NumMethod(); i++ {
		names = append(names, mt.Method(i).Name)
	}
	if typ := s.cellTypeOf(x, t); typ != "" {
		for key := range s.methods {
			if name, ok := strings.CutPrefix(key, typ+"."); ok {
				names = append(names, name)
			}
		}
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); f.IsExported() {
				names = append(names, f.Name)
			}
		}
	}
	return names
}

// Inspect describes the name at the cursor: the signature (and doc comment,
// when Options.Docs has it) of a package member, or the type and value of a
// session variable. The cursor is in Unicode code points.
func (s *Session) Inspect(code string, cursor, detail int) Inspection {
	off := byteOffset(code, cursor)
	start, end := identBefore(code, off), identAfter(code, off)
	if start == end {
		return Inspection{}
	}
	name := code[start:end]
	var text string
	if start > 0 && code[start-1] == '.' {
		x := code[identBefore(code, start-1) : start-1]
		text = s.describeMember(x, name)
	} else {
		text = s.describeGlobal(name)
	}
	if text == "" {
		return Inspection{}
	}
	return Inspection{Found: true, Data: display.Text(text)}
}

// describeMember describes pkg.name or the method or field name of
// variable x.
func (s *Session) describeMember(x, name string) string {
	if p, ok := s.imports[x]; ok {
		for _, syms := range s.yi.Symbols(p) {
			v, ok := syms[name]
			if !ok {
				continue
			}
			text := x + "." + name + ": " + symbolKind(v)
			if doc := s.doc(p + "." + name); doc != "" {
				text += "\n\n" + doc
			}
			return text
		}
		return ""
	}
	v, ok := s.globals()[x]
	if !ok || !v.IsValid() {
		return ""
	}
	t := v.Type()
	mt := t
	if k := t.Kind(); k != reflect.Pointer && k != reflect.Interface {
		mt = reflect.PointerTo(t)
	}
	if m, ok := mt.MethodByName(name); ok {
		text := fmt.Sprintf("method %s.%s: %s", t, name, m.Type)
		if doc := s.doc(typeKey(t) + "." + name); doc != "" {
			text += "\n\n" + doc
		}
		return text
	}
	if typ := s.cellTypeOf(x, t); typ != "" {
		if doc, ok := s.cellDocs[typ+"."+name]; ok {
			return doc
		}
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		if f, ok := t.FieldByName(name); ok {
			return fmt.Sprintf("field %s.%s %s", t, name, f.Type)
		}
	}
	return ""
}

// symbolKind describes an exported symbol of a compiled package as yaegi
// holds it: types as nil pointers, variables as addressable values.
func symbolKind(v reflect.Value) string {
	switch {
	case v.Kind() == reflect.Pointer && v.IsNil() && v.Type().Elem().Kind() != reflect.Pointer:
		return "type " + v.Type().Elem().String()
	case v.Kind() == reflect.Func:
		return v.Type().String()
	case v.CanAddr():
		return "var " + v.Type().String()
	default:
		return fmt.Sprintf("const %v (%s)", v, v.Type())
	}
}

// describeGlobal describes a session variable or function.
func (s *Session) describeGlobal(name string) string {
	if p, ok := s.imports[name]; ok {
		return fmt.Sprintf("package %s (%q)", name, p)
	}
	if _, isType := s.types[name]; isType {
		if doc, ok := s.cellDocs[name]; ok {
			return doc
		}
	}
	v, ok := s.globals()[name]
	if !ok || !v.IsValid() {
		return ""
	}
	if v.Kind() == reflect.Func {
		if doc, ok := s.cellDocs[name]; ok {
			return doc
		}
		return fmt.Sprintf("%s: %s", name, v.Type())
	}
	if t, ok := tensorOf(v); ok {
		return fmt.Sprintf("%s: %s %s\n\n%s", name, v.Type(), tensorSummary(t), summary(v))
	}
	return fmt.Sprintf("%s: %s = %s", name, v.Type(), summary(v))
}

// typeKey returns the doc key of a compiled named type, or of the type a
// pointer points to: "import/path.Name".
func typeKey(t reflect.Type) string {
	if t.Kind() == reflect.Pointer && t.Name() == "" {
		t = t.Elem()
	}
	if t.PkgPath() == "" || t.Name() == "" {
		return ""
	}
	return t.PkgPath() + "." + t.Name()
}

// cellTypeOf returns the name of the type declared in a cell that variable
// x, of reflect type t, has (or points to), or "". Only types with methods
// are looked for. The interpreter answers, by compiling (not running) a
// use of x as that type; while a cell runs, nothing is looked for.
func (s *Session) cellTypeOf(x string, t reflect.Type) string {
	if typeKey(t) != "" || !s.root.IsValid() || !s.mu.TryLock() {
		return ""
	}
	defer s.mu.Unlock()
	types := map[string]bool{}
	for key := range s.methods {
		typ, _, _ := strings.Cut(key, ".")
		types[typ] = true
	}
	for typ := range types {
		for _, probe := range []string{"var _ *" + typ + " = &" + x, "var _ *" + typ + " = " + x} {
			f, err := parseFile(s.yi.FileSet(), "package main\nfunc _() {\n"+probe+"\n}")
			if err != nil {
				break
			}
			body := f.Decls[0].(*ast.FuncDecl).Body
			if _, err := s.compile(s.block(funcLit(s.root, body.List...))); err == nil {
				return typ
			}
		}
	}
	return ""
}

// summary is a value's text, cut to a few lines.
func summary(v reflect.Value) string {
	if !v.CanInterface() {
		return "?"
	}
	b := display.Render(v.Interface())
	text, _ := b.Data["text/plain"].(string)
	if len(text) > 500 {
		text = text[:500] + "…"
	}
	return text
}

// IsComplete tells whether code is ready to run: "incomplete" (with the
// indent of the next line) while brackets, a raw string or a comment are
// open or a line ends in an operator, "invalid" when it cannot parse,
// "complete" otherwise.
func (s *Session) IsComplete(code string) Completeness {
	if strings.TrimSpace(code) == "" || isMagic(code) {
		return Completeness{Status: "complete"}
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
				return Completeness{Status: "invalid"}
			}
			stack = stack[:len(stack)-1]
		}
		if tok != token.SEMICOLON || lit != "\n" {
			last = tok
		}
	}
	for _, e := range errs {
		switch {
		case strings.Contains(e.Msg, "raw string literal not terminated"), strings.Contains(e.Msg, "comment not terminated"):
			return Completeness{Status: "incomplete", Indent: ""}
		default:
			return Completeness{Status: "invalid"}
		}
	}
	if len(stack) > 0 {
		return Completeness{Status: "incomplete", Indent: strings.Repeat("\t", len(stack))}
	}
	if continues(last) {
		return Completeness{Status: "incomplete", Indent: "\t"}
	}
	if !parses(code) {
		return Completeness{Status: "invalid"}
	}
	return Completeness{Status: "complete"}
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

// parses reports whether every chunk of a cell parses.
func parses(code string) bool {
	var decls, stmts []chunk
	for _, c := range splitCell(code) {
		if c.kind == chunkStmt {
			stmts = append(stmts, c)
		} else {
			decls = append(decls, c)
		}
	}
	fset := token.NewFileSet()
	var err error
	if len(decls) > 0 {
		_, err = parseFile(fset, source("package main", 1, code, decls, ""))
	}
	if err == nil && len(stmts) > 0 {
		_, err = parseFile(fset, source("package main\nfunc _() {", 1, code, stmts, "}"))
	}
	return err == nil
}

// doc returns the doc comment of "import/path.Name" from Options.Docs or the
// library's generated docs.
func (s *Session) doc(key string) string {
	if d, ok := s.opts.Docs[key]; ok {
		return d
	}
	return symbols.Docs[key]
}
