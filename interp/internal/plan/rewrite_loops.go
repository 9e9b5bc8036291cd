package plan

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// loopCopy is a three-clause loop whose variables live per iteration: the
// loop runs on outer copies, and each iteration declares its own.
type loopCopy struct {
	vars, outer []string
}

// loopCheck makes a loop body check the interrupt flag first.
func (g *gen) loopCheck(body *ast.BlockStmt) {
	if g.initializer {
		// In a package-level variable's initializer (see walkFunc), the
		// compiled check: slower, but it refers to no variable.
		g.ed.insert(g.off(body.Lbrace)+1, " "+rtName+".Check();")
		return
	}
	g.ed.insert(g.off(body.Lbrace)+1, fmt.Sprintf(" if %s != 0 { %s.Stop() };", stopName, rtName))
}

// forCopies gives a three-clause loop's variables one copy per iteration
// (Go 1.22), when a function literal captures one or it has its address
// taken: the loop runs on outer variables, each iteration declares its
// own from them and copies it back at its end and before continue.
func (g *gen) forCopies(f *ast.ForStmt, fc *fnCtx) {
	init, ok := f.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE {
		return
	}
	vars := map[types.Object]*ast.Ident{}
	for _, l := range init.Lhs {
		if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
			if obj := g.c.info.Defs[id]; obj != nil {
				vars[obj] = id
			}
		}
	}
	if len(vars) == 0 || !g.captures(f, vars) {
		return
	}
	lc := &loopCopy{}
	outer := map[types.Object]string{}
	for _, l := range init.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok || vars[g.c.info.Defs[id]] == nil {
			continue
		}
		o := g.fresh("_gtloop") + "_" + id.Name
		outer[g.c.info.Defs[id]] = o
		lc.vars = append(lc.vars, id.Name)
		lc.outer = append(lc.outer, o)
	}
	rename := func(n ast.Node) {
		if n == nil {
			return
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				obj := g.c.info.Uses[id]
				if obj == nil {
					obj = g.c.info.Defs[id]
				}
				if o, ok := outer[obj]; ok {
					g.ed.replace(g.off(id.Pos()), g.off(id.End()), o)
				}
			}
			return true
		})
	}
	rename(f.Init)
	rename(f.Cond)
	rename(f.Post)
	in, out := strings.Join(lc.vars, ", "), strings.Join(lc.outer, ", ")
	g.ed.insert(g.off(f.Body.Lbrace)+1, " "+in+" := "+out+";")
	g.ed.insert(g.off(f.Body.Rbrace), "; "+out+" = "+in+"; ")
	if fc.copies == nil {
		fc.copies = map[ast.Stmt]*loopCopy{}
	}
	fc.copies[f] = lc
}

// captures reports whether a function literal in loop uses one of vars,
// or the loop takes the address of one (&i, &i.X, a method with a pointer
// receiver).
func (g *gen) captures(loop ast.Node, vars map[types.Object]*ast.Ident) bool {
	found := false
	var lits int
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			lits++
			ast.Inspect(n.Body, visit)
			lits--
			return false
		case *ast.Ident:
			if lits > 0 && vars[g.c.info.Uses[n]] != nil {
				found = true
			}
		case *ast.UnaryExpr, *ast.SliceExpr, *ast.SelectorExpr:
			// Addresses alone: these nodes write nothing else.
			g.writes(n, func(x ast.Expr) {
				if id := g.storageOf(x); id != nil && vars[g.c.info.Uses[id]] != nil {
					found = true
				}
			})
		}
		return !found
	}
	ast.Inspect(loop, visit)
	return found
}

// bindLoopVars makes a function literal in a loop take the variables of
// the iteration it uses (the loop's variables, those its body declares)
// as parameters of a function called at once:
//
//	func(i int) func() { return func() { use(i) } }(i)
//
// yaegi gives a closure that compiled code calls (sync.WaitGroup.Go, a
// callback kept for later) the variables of the frame as they are when it
// is called, not as they were when it was made: every closure of the loop
// would see the last iteration's. A variable the literal writes (assigns,
// or takes the address of) is passed as a pointer, which the literal's
// uses go through, so that its writes reach the iteration's variable
// (yaegi gives each iteration's variable its own storage once its address
// is taken), whether compiled code calls the literal before it returns
// (tensor.NoGrad, sort.Slice, sync.Once.Do) or later:
//
//	func(_gtp1_p *[]float32) func() { return func() { (*_gtp1_p) = f() } }(&p)
//
// A literal that a go or defer statement calls takes them as parameters of
// its own instead (see bindCallVars). A literal that writes them and that
// interpreted code calls is left alone: yaegi gives it the frame it was
// made in.
func (g *gen) bindLoopVars(lit *ast.FuncLit, stack []ast.Node) {
	var loops []ast.Node
	for _, n := range stack {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			loops = append(loops, n)
		case *ast.FuncLit:
			loops = nil // an enclosing function's loops run before it
		}
	}
	if len(loops) == 0 {
		return
	}
	// A variable of the loops is declared in one of their scopes, and not
	// in the literal's. Scopes, not positions: a variable of an earlier
	// cell has a position in another file, which may fall inside the
	// loop's span of this one.
	loopScopes := map[*types.Scope]bool{}
	for _, l := range loops {
		if sc := g.c.info.Scopes[l]; sc != nil {
			loopScopes[sc] = true
		}
	}
	litScope := g.c.info.Scopes[lit.Type]
	inLoop := func(v *types.Var) bool {
		for sc := v.Parent(); sc != nil; sc = sc.Parent() {
			if sc == litScope {
				return false
			}
			if loopScopes[sc] {
				return true
			}
		}
		return false
	}
	var vars []*types.Var
	seen := map[*types.Var]bool{}
	written := map[*types.Var]bool{} // the variables of the loops the literal writes
	write := func(x ast.Expr) {
		if id := g.storageOf(x); id != nil {
			if v := asVar(g.c.info.Uses[id]); inLoop(v) {
				written[v] = true
			}
		}
	}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := g.c.info.Uses[id].(*types.Var); ok && !v.IsField() && inLoop(v) && !seen[v] {
				seen[v] = true
				vars = append(vars, v)
			}
		}
		g.writes(n, write)
		return true
	})
	if len(vars) == 0 {
		return
	}
	// A variable the loop writes outside the literal is the literal's
	// too: it sees the writes made after it was made (i++ in the body
	// after fs = append(fs, func() int { return i })). It is passed as a
	// pointer, as one the literal writes.
	shared := g.loopWrites(loops[0], lit, vars)
	for v := range written {
		shared[v] = true
	}
	if call := goOrDeferCall(lit, stack); call != nil {
		if _, isGo := stack[len(stack)-2].(*ast.GoStmt); isGo && len(written) > 0 {
			return
		}
		g.bindCallVars(lit, call, stack[len(stack)-2].(ast.Stmt), vars, shared)
		return
	}
	if len(written) > 0 && !g.compiledArg(lit, stack) {
		return
	}
	var params, args []string
	for _, v := range vars {
		t, ok := g.typeSrc(v.Type())
		if !ok {
			return
		}
		if shared[v] {
			p := g.fresh("_gtp") + "_" + v.Name()
			params = append(params, p+" *"+t)
			args = append(args, "&"+v.Name())
			g.pointTo(lit.Body, v, p)
			continue
		}
		params = append(params, v.Name()+" "+t)
		args = append(args, v.Name())
	}
	ft := g.text(lit.Type)
	g.ed.insert(g.off(lit.Pos()), "func("+strings.Join(params, ", ")+") "+ft+" { return ")
	g.ed.insertClosing(g.off(lit.End()), " }("+strings.Join(args, ", ")+")")
}

// loopWrites returns those of vars that loop writes (assigns, increments,
// takes the address of) outside lit, but in the post statements of
// three-clause loops, which write the loop's own copies (see forCopies).
func (g *gen) loopWrites(loop ast.Node, lit *ast.FuncLit, vars []*types.Var) map[*types.Var]bool {
	want := map[*types.Var]bool{}
	for _, v := range vars {
		want[v] = true
	}
	found := map[*types.Var]bool{}
	write := func(x ast.Expr) {
		if id := g.storageOf(x); id != nil {
			if v, ok := g.c.info.Uses[id].(*types.Var); ok && want[v] {
				found[v] = true
			}
		}
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if f, ok := n.(*ast.ForStmt); ok {
			for _, c := range []ast.Node{f.Init, f.Cond, f.Body} {
				if c != nil {
					ast.Inspect(c, visit)
				}
			}
			return false
		}
		return g.writesIn(n, lit, write)
	}
	ast.Inspect(loop, visit)
	return found
}

// writesIn calls write with what n writes (see writes); it returns
// whether to look inside n (not inside lit).
func (g *gen) writesIn(n ast.Node, lit *ast.FuncLit, write func(ast.Expr)) bool {
	if f, ok := n.(*ast.FuncLit); ok {
		return f != lit
	}
	g.writes(n, write)
	return true
}

// writes calls write with the expressions that n writes or whose address
// it takes: the left of an assignment, an increment, a range statement
// that assigns; the operand of &, of a slice expression of an array
// (a[:]) and of a method with a pointer receiver called on a value
// (x.Scale(2) writes x).
func (g *gen) writes(n ast.Node, write func(ast.Expr)) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		// x, err := f() writes err, which go/types records as a use.
		for _, l := range n.Lhs {
			write(l)
		}
	case *ast.IncDecStmt:
		write(n.X)
	case *ast.UnaryExpr:
		if n.Op == token.AND {
			write(n.X)
		}
	case *ast.RangeStmt:
		if n.Tok == token.ASSIGN {
			write(n.Key)
			write(n.Value)
		}
	case *ast.SliceExpr:
		if t := g.c.info.TypeOf(n.X); t != nil {
			if _, ok := t.Underlying().(*types.Array); ok {
				write(n.X)
			}
		}
	case *ast.SelectorExpr:
		if g.pointerMethodOfValue(n) {
			write(n.X)
		}
	}
}

// pointerMethodOfValue reports whether sel selects a method with a
// pointer receiver of a value that is not a pointer: Go takes the value's
// address to call it.
func (g *gen) pointerMethodOfValue(sel *ast.SelectorExpr) bool {
	s, ok := g.c.info.Selections[sel]
	if !ok || s.Kind() != types.MethodVal {
		return false
	}
	if _, ptr := s.Recv().Underlying().(*types.Pointer); ptr || types.IsInterface(s.Recv()) {
		return false
	}
	sig, ok := s.Obj().Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	_, ptr := sig.Recv().Type().(*types.Pointer)
	return ptr
}

// storageOf returns the variable whose storage a write to x changes: x
// itself, or the struct or array variable that x is a field or an
// element of (x.X += 10 and a[1].Y = 2 change x and a), not one reached
// through a pointer, a slice or a map; nil for anything else.
func (g *gen) storageOf(x ast.Expr) *ast.Ident {
	for {
		switch e := ast.Unparen(x).(type) {
		case *ast.Ident:
			return e
		case *ast.SelectorExpr:
			s, ok := g.c.info.Selections[e]
			if !ok || s.Kind() != types.FieldVal || s.Indirect() {
				return nil
			}
			x = e.X
		case *ast.IndexExpr:
			t := g.c.info.TypeOf(e.X)
			if t == nil {
				return nil
			}
			if _, ok := t.Underlying().(*types.Array); !ok {
				return nil
			}
			x = e.X
		default:
			return nil
		}
	}
}

// pointTo makes the uses of v in body go through the pointer named p (see
// viaPointer).
func (g *gen) pointTo(body *ast.BlockStmt, v *types.Var, p string) {
	if g.viaPointer == nil {
		g.viaPointer = map[*ast.Ident]string{}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && g.c.info.Uses[id] == v {
			g.viaPointer[id] = p
		}
		return true
	})
}

// asVar returns obj as a variable, or a variable no loop holds.
func asVar(obj types.Object) *types.Var {
	if v, ok := obj.(*types.Var); ok {
		return v
	}
	return types.NewVar(token.NoPos, nil, "", nil)
}

// goOrDeferCall returns the call of a go or defer statement whose function
// is lit, or nil.
func goOrDeferCall(lit *ast.FuncLit, stack []ast.Node) *ast.CallExpr {
	if len(stack) < 2 {
		return nil
	}
	call, ok := stack[len(stack)-1].(*ast.CallExpr)
	if !ok || ast.Unparen(call.Fun) != lit {
		return nil
	}
	switch stack[len(stack)-2].(type) {
	case *ast.GoStmt, *ast.DeferStmt:
		return call
	}
	return nil
}

// bindCallVars makes a function literal that a go or defer statement
// calls take the variables of the iteration it uses as parameters of its
// own, before those it has, evaluated where the statement is as Go
// evaluates the call's arguments:
//
//	go func(i int, k int) { use(i, k) }(i, 3)
//
// yaegi makes such a literal's closure when the call runs, not when the
// statement does: a deferred call in a loop would see the last
// iteration's variables (and so would a goroutine, were the literal
// wrapped as bindLoopVars wraps others: yaegi evaluates the function of a
// go statement in the new goroutine). A variable the literal writes is
// passed as a pointer, taken in a block around the statement, which its
// uses go through: each deferred call writes its own iteration's
// variable, as in Go. A parameter whose name
// the literal declares again in its outermost block gets a name of its own.
func (g *gen) bindCallVars(lit *ast.FuncLit, call *ast.CallExpr, stmt ast.Stmt, vars []*types.Var, written map[*types.Var]bool) {
	scope := g.c.info.Scopes[lit.Type]
	rename := map[types.Object]string{}
	var params, args []string
	for _, v := range vars {
		t, ok := g.typeSrc(v.Type())
		if !ok {
			return
		}
		if written[v] {
			// The pointer is taken in a block around the statement:
			// yaegi reads a deferred call's arguments when it runs.
			p := g.fresh("_gtp") + "_" + v.Name()
			params = append(params, p+" *"+t)
			args = append(args, p)
			g.ed.insert(g.off(stmt.Pos()), "{ "+p+" := &"+v.Name()+"; ")
			g.ed.insertClosing(g.off(stmt.End()), " }")
			g.pointTo(lit.Body, v, p)
			continue
		}
		name := v.Name()
		if scope != nil && scope.Lookup(name) != nil {
			name = g.fresh("_gtv") + "_" + name
			rename[v] = name
		}
		params = append(params, name+" "+t)
		args = append(args, v.Name())
	}
	if len(rename) > 0 {
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if name, ok := rename[g.c.info.Uses[id]]; ok {
					g.ed.replace(g.off(id.Pos()), g.off(id.End()), name)
				}
			}
			return true
		})
	}
	sep := ""
	if lit.Type.Params.NumFields() > 0 {
		sep = ", "
	}
	g.ed.insert(g.off(lit.Type.Params.Opening)+1, strings.Join(params, ", ")+sep)
	sep = ""
	if len(call.Args) > 0 {
		sep = ", "
	}
	// A closing: the arguments' own insertions come after it (see
	// deferValues, which moves them).
	g.ed.insertClosing(g.off(call.Lparen)+1, strings.Join(args, ", ")+sep)
}

// compiledArg reports whether lit is an argument of a call of compiled
// code: a function or method of a package the interpreter was given
// compiled (sync.WaitGroup.Go, sort.Slice), not an instance of generic
// code, which the interpreter runs.
func (g *gen) compiledArg(lit *ast.FuncLit, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	call, ok := stack[len(stack)-1].(*ast.CallExpr)
	if !ok || ast.Unparen(call.Fun) == lit {
		return false
	}
	fn := g.calledFunc(call)
	return fn != nil && fn.Pkg() != nil && !interpretedCell(fn.Pkg()) && !instantiated(fn)
}
