package interp

import (
	"go/ast"
	"go/constant"
	"go/token"
	"reflect"
	"strconv"
)

// Names the rewriter introduces into interpreted code. They start with _gt
// so that they never meet a user's name.
const (
	rtName   = "_gt"     // the compiled runtime package (see runtime.go)
	stopName = "_gtStop" // the interpreted interrupt flag, non-zero to stop
	minName  = "_gtMin"
	maxName  = "_gtMax"
)

// rewriter turns a parsed cell into code yaegi v0.16.1 runs the way a
// notebook user expects (see DESIGN.md, "yaegi"):
//
//   - every loop body and function body starts with a cheap interpreted test
//     of the interrupt flag, which calls the compiled _gt.Stop only when set;
//   - "go f(x)" recovers and reports its panics instead of killing the
//     process;
//   - "for i := range n" over an integer ranges over make([]struct{}, n);
//   - min, max and clear call helpers.
type rewriter struct {
	ints func(name string) bool // whether a session global is an integer
	// uncertain receives key-only range statements over what may be an
	// integer.
	uncertain func(*ast.RangeStmt)
	locals    map[string]bool // names the cell declares with an integer type or value
	seq       int             // counter for fresh names
}

func ident(name string, pos token.Pos) *ast.Ident { return &ast.Ident{Name: name, NamePos: pos} }

func sel(pkg, name string, pos token.Pos) *ast.SelectorExpr {
	return &ast.SelectorExpr{X: ident(pkg, pos), Sel: ident(name, pos)}
}

// stopCheck returns "if _gtStop != 0 { _gt.Stop() }".
func stopCheck(pos token.Pos) ast.Stmt {
	return &ast.IfStmt{
		If: pos,
		Cond: &ast.BinaryExpr{
			X: ident(stopName, pos), OpPos: pos, Op: token.NEQ,
			Y: &ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "0"},
		},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{
			&ast.ExprStmt{X: &ast.CallExpr{Fun: sel(rtName, "Stop", pos), Lparen: pos, Rparen: pos}},
		}},
	}
}

// instrument prepends the interrupt check to a loop or function body.
func instrument(b *ast.BlockStmt) {
	if b == nil {
		return
	}
	b.List = append([]ast.Stmt{stopCheck(b.Lbrace)}, b.List...)
}

// rewrite rewrites n in place.
func (r *rewriter) rewrite(n ast.Node) {
	r.collectInts(n)
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			instrument(n.Body)
		case *ast.FuncLit:
			instrument(n.Body)
		case *ast.ForStmt:
			instrument(n.Body)
		case *ast.RangeStmt:
			instrument(n.Body)
			if r.isInt(n.X) {
				rangeInt(n)
			} else if n.Value == nil && r.uncertain != nil && !r.notInt(n.X) {
				// Perhaps an integer (a field, a call result): decided
				// when the code fails to compile (see Session.compile).
				r.uncertain(n)
			}
		case *ast.CallExpr:
			r.builtin(n)
		}
		return true
	})
	// Second pass, so that a goroutine's deferred report comes before the
	// interrupt check at the top of its function.
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			r.rewriteList(n.List)
		case *ast.CaseClause:
			r.rewriteList(n.Body)
		case *ast.CommClause:
			r.rewriteList(n.Body)
		case *ast.LabeledStmt:
			if g, ok := n.Stmt.(*ast.GoStmt); ok {
				n.Stmt = r.goStmt(g)
			}
		}
		return true
	})
}

// rewriteList replaces go statements of a statement list.
func (r *rewriter) rewriteList(list []ast.Stmt) {
	for i, s := range list {
		if g, ok := s.(*ast.GoStmt); ok {
			list[i] = r.goStmt(g)
		}
	}
}

// goStmt rewrites "go f(a, b)" into
//
//	{ _gtf, _gta0, _gta1 := f, a, b; go func() { defer <report>; _gtf(_gta0, _gta1) }() }
//
// so that the function and its arguments are still evaluated by the caller,
// and a panic in the goroutine is reported instead of killing the process. A
// function literal gets the deferred report at the top of its body instead.
func (r *rewriter) goStmt(g *ast.GoStmt) ast.Stmt {
	pos := g.Go
	call := g.Call
	if lit, ok := call.Fun.(*ast.FuncLit); ok {
		lit.Body.List = append([]ast.Stmt{goRecover(pos)}, lit.Body.List...)
		return g
	}
	if id, ok := call.Fun.(*ast.Ident); ok && isBuiltin(id.Name) {
		return g
	}
	r.seq++
	suffix := strconv.Itoa(r.seq)
	fn := "_gtf" + suffix
	lhs := []ast.Expr{ident(fn, pos)}
	rhs := []ast.Expr{call.Fun}
	var args []ast.Expr
	for i, a := range call.Args {
		if isLiteral(a) {
			// Literals keep their untyped constant (or nil) meaning in
			// the call; evaluating them later changes nothing.
			args = append(args, a)
			continue
		}
		name := "_gta" + suffix + "_" + strconv.Itoa(i)
		lhs = append(lhs, ident(name, pos))
		rhs = append(rhs, a)
		args = append(args, ident(name, pos))
	}
	body := &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{
		goRecover(pos),
		&ast.ExprStmt{X: &ast.CallExpr{Fun: ident(fn, pos), Lparen: pos, Rparen: pos, Args: args, Ellipsis: call.Ellipsis}},
	}}
	return &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{
		&ast.AssignStmt{Lhs: lhs, TokPos: pos, Tok: token.DEFINE, Rhs: rhs},
		&ast.GoStmt{Go: pos, Call: &ast.CallExpr{
			Fun:    &ast.FuncLit{Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}}, Body: body},
			Lparen: pos, Rparen: pos,
		}},
	}}
}

// rangeInt rewrites "for i := range n" over an integer n into a range over
// make([]struct{}, n).
func rangeInt(n *ast.RangeStmt) {
	pos := n.X.Pos()
	n.X = &ast.CallExpr{Fun: ident("make", pos), Lparen: pos, Rparen: pos, Args: []ast.Expr{
		&ast.ArrayType{Lbrack: pos, Elt: &ast.StructType{Struct: pos, Fields: &ast.FieldList{Opening: pos, Closing: pos}}},
		n.X,
	}}
}

// notInt reports whether e is visibly not an integer: a composite or
// string literal, a slice expression, or a conversion to a slice or map.
func (r *rewriter) notInt(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.CompositeLit, *ast.SliceExpr, *ast.FuncLit:
		return true
	case *ast.BasicLit:
		return e.Kind == token.STRING
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok && (id.Name == "make" || id.Name == "append") {
			return true
		}
	}
	return false
}

// isLiteral reports whether e is a basic literal, nil, true or false,
// possibly negated or parenthesized.
func isLiteral(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return e.Name == "nil" || e.Name == "true" || e.Name == "false"
	case *ast.UnaryExpr:
		return isLiteral(e.X)
	case *ast.ParenExpr:
		return isLiteral(e.X)
	}
	return false
}

// goRecover returns
//
//	defer func() { if r := recover(); r != nil { _gt.GoPanic(r) } }()
func goRecover(pos token.Pos) ast.Stmt {
	rv := "_gtr"
	return &ast.DeferStmt{Defer: pos, Call: &ast.CallExpr{Lparen: pos, Rparen: pos, Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos}},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{&ast.IfStmt{
			If: pos,
			Init: &ast.AssignStmt{Lhs: []ast.Expr{ident(rv, pos)}, TokPos: pos, Tok: token.DEFINE,
				Rhs: []ast.Expr{&ast.CallExpr{Fun: ident("recover", pos), Lparen: pos, Rparen: pos}}},
			Cond: &ast.BinaryExpr{X: ident(rv, pos), OpPos: pos, Op: token.NEQ, Y: ident("nil", pos)},
			Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{&ast.ExprStmt{X: &ast.CallExpr{
				Fun: sel(rtName, "GoPanic", pos), Lparen: pos, Rparen: pos, Args: []ast.Expr{ident(rv, pos)},
			}}}},
		}}},
	}}}
}

// builtin rewrites calls of the Go 1.21 builtins yaegi lacks.
func (r *rewriter) builtin(c *ast.CallExpr) {
	id, ok := c.Fun.(*ast.Ident)
	if !ok || id.Obj != nil {
		return
	}
	switch id.Name {
	case "clear":
		c.Fun = sel(rtName, "Clear", id.Pos())
	case "min", "max":
		if len(c.Args) == 0 {
			return
		}
		if lit, typ, ok := foldMinMax(id.Name, c.Args); ok {
			// Constant arguments: yaegi's generic inference gets untyped
			// constants wrong, so fold them here into
			// func() T { return lit }().
			pos := id.Pos()
			*c = ast.CallExpr{Lparen: pos, Rparen: pos, Fun: &ast.FuncLit{
				Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{Opening: pos, Closing: pos},
					Results: &ast.FieldList{List: []*ast.Field{{Type: ident(typ, pos)}}}},
				Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos, List: []ast.Stmt{&ast.ReturnStmt{Return: pos,
					Results: []ast.Expr{lit}}}},
			}}
			return
		}
		// yaegi infers the type parameter from the first argument: put a
		// non-constant argument first (min and max are symmetric).
		for i, a := range c.Args {
			if _, isLit := a.(*ast.BasicLit); !isLit {
				c.Args[0], c.Args[i] = c.Args[i], c.Args[0]
				break
			}
		}
		if id.Name == "min" {
			c.Fun = ident(minName, id.Pos())
		} else {
			c.Fun = ident(maxName, id.Pos())
		}
	}
}

// foldMinMax picks the smallest (min) or largest (max) of constant literal
// arguments and the type of the result: string, float64 when any argument is
// a floating-point literal, rune for characters, else int.
func foldMinMax(name string, args []ast.Expr) (*ast.BasicLit, string, bool) {
	var best *ast.BasicLit
	var bestV constant.Value
	typ := ""
	for _, a := range args {
		lit, ok := a.(*ast.BasicLit)
		if !ok || lit.Kind == token.IMAG {
			return nil, "", false
		}
		v := constant.MakeFromLiteral(lit.Value, lit.Kind, 0)
		if v.Kind() == constant.Unknown {
			return nil, "", false
		}
		switch {
		case lit.Kind == token.STRING:
			typ = "string"
		case lit.Kind == token.FLOAT:
			typ = "float64"
		case lit.Kind == token.CHAR && typ == "":
			typ = "rune"
		}
		if best != nil && (v.Kind() == constant.String) != (bestV.Kind() == constant.String) {
			return nil, "", false // mismatched: let the compiler say so
		}
		op := token.LSS
		if name == "max" {
			op = token.GTR
		}
		if best == nil || constant.Compare(v, op, bestV) {
			best, bestV = lit, v
		}
	}
	if typ == "" {
		typ = "int"
	}
	return best, typ, true
}

// isBuiltin reports whether name is a predeclared function.
func isBuiltin(name string) bool {
	switch name {
	case "append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len", "make",
		"max", "min", "new", "panic", "print", "println", "real", "recover":
		return true
	}
	return false
}

var intTypes = map[string]bool{
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true,
	"uintptr": true, "byte": true, "rune": true,
}

// collectInts records the names the cell declares with an integer type
// (parameters, var declarations) or an integer value (n := 10, n := len(x)).
// Scopes are ignored: a name is an integer if it is one anywhere in the cell.
func (r *rewriter) collectInts(n ast.Node) {
	if r.locals == nil {
		r.locals = map[string]bool{}
	}
	isIntType := func(e ast.Expr) bool {
		id, ok := e.(*ast.Ident)
		return ok && intTypes[id.Name]
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if isIntType(n.Type) {
				for _, name := range n.Names {
					r.locals[name.Name] = true
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if (n.Type != nil && isIntType(n.Type)) || (n.Type == nil && i < len(n.Values) && r.isInt(n.Values[i])) {
					r.locals[name.Name] = true
				}
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && r.isInt(n.Rhs[i]) {
						r.locals[id.Name] = true
					}
				}
			}
		}
		return true
	})
}

// isInt reports whether e is, as far as the syntax and the session's globals
// tell, an integer.
func (r *rewriter) isInt(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.INT
	case *ast.ParenExpr:
		return r.isInt(e.X)
	case *ast.UnaryExpr:
		return (e.Op == token.SUB || e.Op == token.ADD || e.Op == token.XOR) && r.isInt(e.X)
	case *ast.BinaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM, token.AND, token.OR, token.XOR, token.AND_NOT:
			return r.isInt(e.X) || r.isInt(e.Y)
		case token.SHL, token.SHR:
			return r.isInt(e.X)
		}
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok {
			return id.Name == "len" || id.Name == "cap" || intTypes[id.Name]
		}
	case *ast.Ident:
		if r.locals[e.Name] {
			return true
		}
		return r.ints != nil && r.ints(e.Name)
	}
	return false
}

// isIntKind reports whether v holds an integer.
func isIntKind(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}
