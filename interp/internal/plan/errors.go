package plan

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// errorAt makes an Error at a position of the check source.
func (c *cell) errorAt(pos token.Position, msg string) Error {
	e := Error{Cell: c.n, Msg: msg}
	if pos.Filename == "cell" {
		e.Line, e.Col = pos.Line, pos.Column
	}
	if k, err := strconv.Atoi(strings.TrimPrefix(pos.Filename, instFileName)); err == nil && strings.HasPrefix(pos.Filename, instFileName) && c.inst != nil {
		if decls := c.inst.decls(); k < len(decls) {
			d := decls[k]
			where := fmt.Sprintf("%s:%d", d.file, pos.Line)
			if d.cell >= 0 {
				where = fmt.Sprintf("declared in cell %d, line %d", d.cell, pos.Line)
			}
			e.Msg = fmt.Sprintf("cannot instantiate %s (%s): %s", d.inst.desc, where, msg)
		}
	}
	return e
}

// filter keeps the errors Go reports for this cell, less those that are
// not errors in a notebook: unused imports (they serve later cells), unused
// variables defined at the top (they are session variables) and the last
// expression statement (it is the cell's value). At most ten are kept, in
// source order, as the compiler reports them.
func (c *cell) filter(list []types.Error) ErrorList {
	var last ast.Expr
	if n := len(c.body.Body.List); n > 0 {
		if es, ok := c.body.Body.List[n-1].(*ast.ExprStmt); ok {
			last = es.X
		}
	}
	top := map[token.Pos]bool{}
	for _, st := range c.body.Body.List {
		for _, id := range definedIdents(st) {
			top[id.Pos()] = true
		}
	}
	var out ErrorList
	seen := map[string]bool{}
	for _, e := range list {
		msg := e.Msg
		switch {
		case strings.HasSuffix(msg, "imported and not used") || strings.Contains(msg, "imported as ") && strings.HasSuffix(msg, "and not used"):
			continue
		case strings.HasPrefix(msg, "declared and not used") && top[e.Pos]:
			continue
		case last != nil && e.Pos == last.Pos() && strings.HasSuffix(msg, "is not used"):
			continue
		}
		msg = strings.ReplaceAll(msg, placeholderPrefix, "")
		msg += c.hiddenPackage(msg)
		msg += c.sameNamedTypes(e.Pos, msg)
		if note := c.s.u.SourceNote; note != "" && c.lacksSource(msg) {
			msg += " (" + note + ")"
		}
		er := c.errorAt(c.fset.Position(e.Pos), msg)
		if key := er.Error(); !seen[key] {
			seen[key] = true
			out = append(out, er)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Col < out[j].Col
	})
	if len(out) > 10 {
		out = out[:10]
	}
	return out
}

// hiddenPackage returns what to add to a compile error about a member of
// a variable, "data.MNIST undefined (type []int has no field or method
// MNIST)", where the variable took the name of a package the session
// imported that has the member: how to reach the package again; or "".
func (c *cell) hiddenPackage(msg string) string {
	sel, _, ok := strings.Cut(msg, " undefined (type ")
	if !ok {
		return ""
	}
	name, member, ok := strings.Cut(sel, ".")
	if !ok || !token.IsIdentifier(name) {
		return ""
	}
	path, ok := c.s.imported[name]
	for _, sp := range c.imports {
		if importName(sp, c.s.u) == name {
			path, _ = strconv.Unquote(sp.Path.Value)
			ok = true
		}
	}
	if !ok {
		return ""
	}
	pkg, err := c.s.u.Import(path)
	if err != nil || pkg.Scope().Lookup(member) == nil {
		return ""
	}
	return fmt.Sprintf(": variable %s hides package %s; import the package under another name (import %s2 %q) and write %s2.%s", name, name, name, path, name, member)
}

// lacksSource reports whether a compile error is about a package the
// universe builds from source: "undefined: slices.Sort", "could not
// import iter".
func (c *cell) lacksSource(msg string) bool {
	if p, ok := strings.CutPrefix(msg, "could not import "); ok {
		p, _, _ = strings.Cut(p, " ")
		return genericPackages[p]
	}
	sel, ok := strings.CutPrefix(msg, "undefined: ")
	if !ok {
		return false
	}
	name, member, ok := strings.Cut(sel, ".")
	if !ok {
		return false
	}
	for _, sp := range c.file.Imports {
		if p, _ := strconv.Unquote(sp.Path.Value); importName(sp, c.s.u) == name {
			return genericPackages[p] || genericNames[p+"."+member]
		}
	}
	return false
}

// genericPackages are the standard packages whose code is all generic;
// genericNames the generic functions and types of other standard
// packages, from Go 1.21 on: the universe has them from source only.
var (
	genericPackages = map[string]bool{"cmp": true, "iter": true, "maps": true, "slices": true, "unique": true, "weak": true}
	genericNames    = map[string]bool{"errors.AsType": true, "sync/atomic.Pointer": true, "sync.OnceFunc": true,
		"sync.OnceValue": true, "sync.OnceValues": true, "reflect.TypeFor": true, "runtime.AddCleanup": true}
)
