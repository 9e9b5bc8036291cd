package plan

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// funcLoop is a range-over-func loop being rewritten into a call of the
// iterator with a function literal: the loop body's jumps out of the loop
// become codes in ctl, which the code after the call acts on.
type funcLoop struct {
	stmt     *ast.RangeStmt
	ctl      string   // the control variable
	results  []string // variables for the enclosing function's results
	dispatch []string // "if ctl == code { jump }"
	codes    map[string]int
}

// rangeStmt rewrites a range loop: over an integer into a three-clause
// loop (yaegi lacks it), over a string into a loop that decodes runes
// (yaegi counts runes where Go gives byte offsets), over a function into
// a call of the function; and gives its variables one copy per iteration
// when a function literal captures them.
func (g *gen) rangeStmt(r *ast.RangeStmt, fc *fnCtx) bool {
	g.loopCheck(r.Body)
	t := g.c.info.Types[r.X].Type
	if t == nil {
		return true
	}
	u := t.Underlying()
	if b, ok := u.(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
		g.rangeInt(r, t)
		return true
	}
	if b, ok := u.(*types.Basic); ok && b.Info()&types.IsString != 0 {
		if id, ok := r.Key.(*ast.Ident); ok && id.Name != "_" {
			g.rangeString(r)
			return true
		}
	}
	if sig, ok := u.(*types.Signature); ok {
		g.startFuncLoop(r, sig, fc)
		return true
	}
	if r.Tok == token.DEFINE {
		vars := map[types.Object]*ast.Ident{}
		var names []string
		for _, e := range []ast.Expr{r.Key, r.Value} {
			if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
				if obj := g.c.info.Defs[id]; obj != nil {
					vars[obj] = id
					names = append(names, id.Name)
				}
			}
		}
		if len(vars) > 0 && g.captures(r.Body, vars) {
			list := strings.Join(names, ", ")
			g.ed.insert(g.off(r.Body.Lbrace)+1, " "+list+" := "+list+";")
		}
	}
	return true
}

// rangeInt rewrites "for i := range n" into
//
//	for _gti, _gtn := T(0), T(n); _gti < _gtn; _gti++ { i := _gti; ... }
func (g *gen) rangeInt(r *ast.RangeStmt, t types.Type) {
	if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		t = types.Default(t)
	}
	ts, ok := g.typeSrc(t)
	if !ok {
		g.errorf(r.X.Pos(), "cannot range over %s: the interpreter cannot name its type", t)
		return
	}
	i, n := g.fresh("_gti"), g.fresh("_gtn")
	g.ed.replace(g.off(r.For), g.off(r.X.Pos()), fmt.Sprintf("for %s, %s := %s(0), %s(", i, n, ts, ts))
	key := ""
	if r.Key != nil {
		if id, ok := r.Key.(*ast.Ident); !ok || id.Name != "_" {
			op := " = "
			if r.Tok == token.DEFINE {
				op = " := "
			}
			key = " " + g.text(r.Key) + op + i + ";"
		}
	}
	g.ed.replace(g.off(r.X.End()), g.off(r.Body.Lbrace)+1, fmt.Sprintf("); %s < %s; %s++ {%s", i, n, i, key))
}

// rangeString rewrites "for i, r := range s" into a loop that decodes
// the runes of s and gives i their byte offsets.
func (g *gen) rangeString(r *ast.RangeStmt) {
	s, k, w, v := g.fresh("_gts"), g.fresh("_gtk"), g.fresh("_gtw"), g.fresh("_gtr")
	g.ed.replace(g.off(r.For), g.off(r.X.Pos()), fmt.Sprintf("for %s, %s := ", s, k))
	decode := fmt.Sprintf("%s, %s := %s.DecodeRune(string(%s[%s:]));", v, w, rtName, s, k)
	var assign string
	if r.Tok == token.DEFINE {
		assign = fmt.Sprintf(" %s := %s;", g.text(r.Key), k)
		if r.Value != nil {
			assign += fmt.Sprintf(" %s := %s;", g.text(r.Value), v)
		}
	} else {
		assign = fmt.Sprintf(" %s = %s;", g.text(r.Key), k)
		if r.Value != nil {
			assign += fmt.Sprintf(" %s = %s;", g.text(r.Value), v)
		}
	}
	assign += " _ = " + v + ";"
	g.ed.replace(g.off(r.X.End()), g.off(r.Body.Lbrace)+1,
		fmt.Sprintf(", 0; %s < len(%s); { %s%s %s += %s;", k, s, decode, assign, k, w))
}

// startFuncLoop begins the rewrite of "for k, v := range seq { body }"
// over a function into
//
//	for ctl := 0; ctl == 0; ctl = -1 { seq(func(k K, v V) bool { body; return true }); dispatch }
//
// The one-iteration loop keeps the statement's label and holds the
// control variable; the body's jumps out of the loop (see jump) set it and
// make the function return false; dispatch acts on it after the call.
func (g *gen) startFuncLoop(r *ast.RangeStmt, sig *types.Signature, fc *fnCtx) {
	if sig.Params().Len() != 1 {
		return
	}
	yield, ok := sig.Params().At(0).Type().Underlying().(*types.Signature)
	if !ok {
		return
	}
	l := &funcLoop{stmt: r, ctl: g.fresh("_gtctl"), codes: map[string]int{}}
	var decls []string
	if fc.results != nil {
		for _, f := range fc.results.List {
			for range max(len(f.Names), 1) {
				v := l.ctl + "_r" + strconv.Itoa(len(l.results))
				l.results = append(l.results, v)
				decls = append(decls, "var "+v+" "+g.text(f.Type)+";")
			}
		}
	}
	head := fmt.Sprintf("for %s := 0; %s == 0; %s = -1 { ", l.ctl, l.ctl, l.ctl)
	if len(decls) > 0 {
		head += strings.Join(decls, " ") + " "
	}
	g.ed.replace(g.off(r.For), g.off(r.X.Pos()), head)
	var params []string
	var assigns string
	for i := 0; i < yield.Params().Len(); i++ {
		t, ok := g.typeSrc(yield.Params().At(i).Type())
		if !ok {
			g.errorf(r.X.Pos(), "cannot range over %s: the interpreter cannot name the type of its values", sig)
			return
		}
		var e ast.Expr
		if i == 0 {
			e = r.Key
		} else if i == 1 {
			e = r.Value
		}
		name := "_"
		if id, ok := e.(*ast.Ident); ok && r.Tok == token.DEFINE {
			name = id.Name
		} else if e != nil && !isBlank(e) {
			name = l.ctl + "_v" + strconv.Itoa(i)
			assigns += " " + g.text(e) + " = " + name + ";"
		}
		params = append(params, name+" "+t)
	}
	g.ed.replace(g.off(r.X.End()), g.off(r.Body.Lbrace)+1, "(func("+strings.Join(params, ", ")+") bool {"+assigns)
	fc.loops = append(fc.loops, l)
}

// endFuncLoop ends the rewrite of the innermost range-over-func loop.
func (g *gen) endFuncLoop(fc *fnCtx) {
	l := fc.loops[len(fc.loops)-1]
	fc.loops = fc.loops[:len(fc.loops)-1]
	body := l.stmt.Body
	g.ed.insert(g.off(body.Rbrace), "; return true ")
	end := "})"
	if len(l.dispatch) > 0 {
		end += "; " + strings.Join(l.dispatch, " ")
	}
	g.ed.replace(g.off(body.Rbrace), g.off(body.Rbrace)+1, end+" }")
}

// branch rewrites break, continue and goto: out of a range-over-func loop
// into jumps, and continue in a loop whose variables are copied per
// iteration so that the copy goes back first.
func (g *gen) branch(b *ast.BranchStmt, fc *fnCtx, stack []ast.Node) {
	if b.Tok == token.GOTO {
		if len(fc.loops) > 0 {
			g.errorf(b.Pos(), "goto in the body of a range over a function is not supported yet")
		}
		return
	}
	if b.Tok == token.FALLTHROUGH {
		return
	}
	target := branchTarget(b, stack)
	// The innermost range-over-func loop that the jump leaves or ends.
	for i := len(fc.loops) - 1; i >= 0; i-- {
		l := fc.loops[i]
		if target == ast.Stmt(l.stmt) || !within(target, l.stmt) {
			label := ""
			if b.Label != nil {
				label = b.Label.Name
			}
			g.ed.replace(g.off(b.Pos()), g.off(b.End()), g.jumpFrom(fc, len(fc.loops)-1, b.Tok.String(), label, target))
			return
		}
	}
	if b.Tok == token.CONTINUE {
		if lc, ok := fc.copies[target]; ok {
			g.ed.replace(g.off(b.Pos()), g.off(b.End()), fmt.Sprintf("{ %s = %s; %s }",
				strings.Join(lc.outer, ", "), strings.Join(lc.vars, ", "), g.c.text[g.off(b.Pos()):g.off(b.End())]))
		}
	}
}

// within reports whether statement s is inside loop's body.
func within(s ast.Stmt, loop *ast.RangeStmt) bool {
	return s != nil && s.Pos() >= loop.Body.Pos() && s.End() <= loop.Body.End()
}

// branchTarget returns the statement a break or continue applies to.
func branchTarget(b *ast.BranchStmt, stack []ast.Node) ast.Stmt {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.LabeledStmt:
			if b.Label != nil && n.Label.Name == b.Label.Name {
				return n.Stmt
			}
		case *ast.ForStmt, *ast.RangeStmt:
			if b.Label == nil {
				return n.(ast.Stmt)
			}
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			if b.Label == nil && b.Tok == token.BREAK {
				return n.(ast.Stmt)
			}
		}
	}
	return nil
}

// jumpFrom returns the code for a break or continue, inside range-over-func
// loop number level of fc, to target.
func (g *gen) jumpFrom(fc *fnCtx, level int, tok, label string, target ast.Stmt) string {
	l := fc.loops[level]
	if target == ast.Stmt(l.stmt) {
		if tok == "continue" {
			return "return true"
		}
		return "return false"
	}
	key := tok + " " + label
	code, ok := l.codes[key]
	if !ok {
		code = len(l.codes) + 2
		l.codes[key] = code
		var then string
		if level > 0 && !within(target, fc.loops[level-1].stmt) {
			then = g.jumpFrom(fc, level-1, tok, label, target)
		} else {
			then = strings.TrimSpace(tok + " " + label)
			if lc, ok := fc.copies[target]; ok && tok == "continue" {
				then = fmt.Sprintf("%s = %s; %s", strings.Join(lc.outer, ", "), strings.Join(lc.vars, ", "), then)
			}
		}
		l.dispatch = append(l.dispatch, fmt.Sprintf("if %s == %d { %s };", l.ctl, code, then))
	}
	return fmt.Sprintf("{ %s = %d; return false }", l.ctl, code)
}

// jump returns the code for a return of results (edited source, or "")
// inside range-over-func loop number level of fc: the results go to the
// loop's variables, and the code after the call returns them.
func (g *gen) jump(fc *fnCtx, level int, tok, results string) string {
	l := fc.loops[level]
	const code = 1
	if results == "" && len(l.results) > 0 {
		results = strings.Join(resultNames(fc.results), ", ") // named results
	}
	set := ""
	if results != "" {
		set = strings.Join(l.results, ", ") + " = " + results + "; "
	}
	if _, ok := l.codes["return"]; !ok {
		l.codes["return"] = code
		var then string
		if level > 0 {
			rs := ""
			if len(l.results) > 0 {
				rs = strings.Join(l.results, ", ")
			}
			then = g.jump(fc, level-1, tok, rs)
		} else {
			then = strings.TrimSpace("return " + strings.Join(l.results, ", "))
			if fc.depth {
				then = depthName + "--; " + then
			}
		}
		l.dispatch = append(l.dispatch, fmt.Sprintf("if %s == %d { %s };", l.ctl, code, then))
	}
	return fmt.Sprintf("{ %s%s = %d; return false }", set, l.ctl, code)
}
