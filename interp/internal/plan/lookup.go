package plan

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// Lookups for completion and Shift-Tab. They read the session's model and
// never run anything; they may run while a planned cell executes.

// A Member is what may follow "x." in a cell: a field or method of a
// value's type, or a member of a package.
type Member struct {
	Name string
	Kind string // "field", "method", "func", "var", "const", "type"
	Type types.Type
}

// String describes the member as Go declares it, for Shift-Tab: "A int",
// "func (*Tensor) Add(*Tensor) *Tensor".
func (m Member) String() string {
	q := func(p *types.Package) string {
		if p.Path() == cellPath {
			return ""
		}
		return p.Name()
	}
	switch m.Kind {
	case "field", "var":
		return m.Name + " " + types.TypeString(m.Type, q)
	case "const":
		return "const " + m.Name + " " + types.TypeString(m.Type, q)
	case "type":
		return "type " + m.Name + " " + types.TypeString(m.Type.Underlying(), q)
	}
	sig, _ := m.Type.(*types.Signature)
	if sig == nil {
		return m.Name
	}
	s := types.TypeString(sig, q)
	if r := sig.Recv(); r != nil {
		return "func (" + types.TypeString(r.Type(), q) + ") " + m.Name + strings.TrimPrefix(s, "func")
	}
	return "func " + m.Name + strings.TrimPrefix(s, "func")
}

// TypeOf type-checks expr as the last line of a cell whose earlier lines
// are prefix (the cell's text before the line being typed, which may not
// compile), against the session, and returns its type and value.
func (s *Session) TypeOf(prefix, expr string) (types.TypeAndValue, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var tv types.TypeAndValue
	for _, src := range []string{prefix + "\n" + expr, expr} {
		c := &cell{s: s, n: -1, src: src}
		if err := c.parse(); err != nil {
			continue
		}
		if _, err := c.checkOnce(nil); err != nil {
			continue
		}
		list := c.body.Body.List
		if len(list) == 0 {
			continue
		}
		es, ok := list[len(list)-1].(*ast.ExprStmt)
		if !ok {
			continue
		}
		if tv, ok = c.info.Types[es.X]; ok && tv.Type != nil && tv.Type != types.Typ[types.Invalid] {
			return tv, nil
		}
	}
	return tv, fmt.Errorf("cannot tell the type of %s", expr)
}

// Members returns what may follow "expr." after prefix (see TypeOf): the
// exported members of a package the session imports, or the fields and
// methods of a value or type (those of its pointer too, since a variable
// is addressable), sorted by name.
func (s *Session) Members(prefix, expr string) ([]Member, error) {
	s.mu.RLock()
	path, isPkg := s.imports[strings.TrimSpace(expr)]
	s.mu.RUnlock()
	if isPkg && s.Lookup(strings.TrimSpace(expr)) == nil {
		pkg, err := s.u.Import(path)
		if err != nil {
			return nil, err
		}
		var out []Member
		for _, name := range pkg.Scope().Names() {
			obj := pkg.Scope().Lookup(name)
			if obj.Exported() {
				out = append(out, Member{Name: name, Kind: objKind(obj), Type: obj.Type()})
			}
		}
		return out, nil
	}
	tv, err := s.TypeOf(prefix, expr)
	if err != nil {
		return nil, err
	}
	return members(tv.Type), nil
}

// members lists the fields and methods of t and *t.
func members(t types.Type) []Member {
	seen := map[string]bool{}
	var out []Member
	add := func(m Member) {
		if !seen[m.Name] && (token.IsExported(m.Name) || !strings.HasPrefix(m.Name, "_")) {
			seen[m.Name] = true
			out = append(out, m)
		}
	}
	if _, isPtr := t.(*types.Pointer); !isPtr && !types.IsInterface(t) {
		t = types.NewPointer(t)
	}
	ms := types.NewMethodSet(t)
	for i := 0; i < ms.Len(); i++ {
		f := ms.At(i).Obj()
		if visible(f) {
			add(Member{Name: f.Name(), Kind: "method", Type: f.Type()})
		}
	}
	for _, f := range fields(t) {
		if visible(f) {
			add(Member{Name: f.Name(), Kind: "field", Type: f.Type()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// visible reports whether a cell may use a field or method: exported, or
// declared in a cell.
func visible(obj types.Object) bool {
	return obj.Exported() || obj.Pkg() != nil && obj.Pkg().Path() == cellPath
}

// fields returns the fields of the struct t is or points to, those of
// embedded structs included, shallowest first.
func fields(t types.Type) []*types.Var {
	var out []*types.Var
	seen := map[types.Type]bool{}
	level := []types.Type{t}
	for len(level) > 0 {
		var next []types.Type
		for _, t := range level {
			if p, ok := t.Underlying().(*types.Pointer); ok {
				t = p.Elem()
			}
			st, ok := t.Underlying().(*types.Struct)
			if !ok || seen[t] {
				continue
			}
			seen[t] = true
			for i := 0; i < st.NumFields(); i++ {
				f := st.Field(i)
				out = append(out, f)
				if f.Embedded() {
					next = append(next, f.Type())
				}
			}
		}
		level = next
	}
	return out
}

func objKind(obj types.Object) string {
	switch obj.(type) {
	case *types.Func:
		return "func"
	case *types.Var:
		return "var"
	case *types.Const:
		return "const"
	case *types.TypeName:
		return "type"
	}
	return ""
}

// A Call is the function call whose arguments a cursor is in.
type Call struct {
	Func      string // the called expression, as written
	Signature *types.Signature
	Arg       int // the argument the cursor is in, from 0
}

// CallAt finds the innermost call whose argument list is open at byte
// offset cursor of code (a cell being typed), and the signature of the
// function it calls: what Shift-Tab shows while the arguments are typed.
func (s *Session) CallAt(code string, cursor int) (*Call, bool) {
	if cursor > len(code) {
		cursor = len(code)
	}
	type tok struct {
		off int
		tok token.Token
	}
	var toks []tok
	fset := token.NewFileSet()
	var sc scanner.Scanner
	sc.Init(fset.AddFile("", -1, cursor), []byte(code[:cursor]), nil, 0)
	for {
		pos, t, _ := sc.Scan()
		if t == token.EOF {
			break
		}
		toks = append(toks, tok{int(pos) - 1, t})
	}
	// The innermost open parenthesis, and the commas at its level.
	depth, args := 0, 0
	open := -1
	for i := len(toks) - 1; i >= 0 && open < 0; i-- {
		switch toks[i].tok {
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth++
		case token.LBRACK, token.LBRACE:
			depth--
		case token.LPAREN:
			if depth == 0 {
				open = i
			}
			depth--
		case token.COMMA:
			if depth == 0 {
				args++
			}
		}
	}
	if open <= 0 {
		return nil, false
	}
	// The called expression: identifiers, selectors and brackets before
	// the parenthesis.
	start := open - 1
	for depth = 0; start >= 0; start-- {
		switch t := toks[start].tok; {
		case t == token.RPAREN || t == token.RBRACK:
			depth++
			continue
		case (t == token.LPAREN || t == token.LBRACK) && depth > 0:
			depth--
			continue
		case depth > 0 || t == token.IDENT || t == token.PERIOD:
			continue
		}
		break
	}
	start++
	if start >= open {
		return nil, false
	}
	fun := code[toks[start].off:toks[open].off]
	line := strings.LastIndex(code[:toks[start].off], "\n")
	prefix := ""
	if line > 0 {
		prefix = code[:line]
	}
	tv, err := s.TypeOf(prefix, fun)
	if err != nil {
		return nil, false
	}
	sig, ok := tv.Type.Underlying().(*types.Signature)
	if !ok {
		return nil, false
	}
	return &Call{Func: strings.TrimSpace(fun), Signature: sig, Arg: args}, true
}

// An ImportAt is an import of a cell, at its line and column.
type ImportAt struct {
	Path      string
	Line, Col int
}

// CellImports returns the import paths a cell imports, with their
// positions, from its syntax alone: the executor fetches the packages the
// universe lacks (a module's) before Plan checks the cell. It returns nil
// for a cell that does not parse; Plan reports why.
func (s *Session) CellImports(src string) []ImportAt {
	if !strings.Contains(src, "import") {
		return nil // no import declaration: the cell need not be parsed
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	c := &cell{s: s, n: -1, src: src}
	if err := c.parse(); err != nil {
		return nil
	}
	var out []ImportAt
	for _, sp := range c.imports {
		path, err := strconv.Unquote(sp.Path.Value)
		if err != nil {
			continue
		}
		p := c.fset.Position(sp.Path.Pos())
		out = append(out, ImportAt{Path: path, Line: p.Line, Col: p.Column})
	}
	return out
}

// Syntax returns the syntax errors of a cell (an ErrorList), or nil when
// it parses; it checks nothing else.
func (s *Session) Syntax(src string) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c := &cell{s: s, n: -1, src: src}
	return c.parse()
}
