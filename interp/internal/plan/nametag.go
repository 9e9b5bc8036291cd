package plan

import (
	"go/ast"
	"go/types"
	"strings"
)

// Name tags: a method that makes the interpreter name a cell's values in
// interfaces.
//
// yaegi keeps the type of a value of a cell's type inside an interface
// only when the type has methods: a value of a type without methods is
// held as its reflect type's, which a cell's type Celsius float64 shares
// with float64 and Levels []int with []int. A type switch then took 3.5
// for a Celsius and []int{1} for a Levels, fmt printed a Levels []Level
// in an any without Level's String method, and what compiled containers
// handed back could not be told from the underlying type. A value of a
// type with methods is handed on in a wrapper that names its type (see
// cellrt.CellType), which assertions, fmt and the views of json test.
// So each type a cell declares that is not a struct (struct types are
// the interpreter's own and told apart by their reflect types), an
// interface, an alias or generic gets a method, nameTag, that nobody
// calls: the cell is checked and run with it, and every rewrite that
// tells a type with methods from its underlying type tells these too.

// nameTag is the method each of a cell's non-struct types gets; its name
// starts with _gt, which completion, the debugger and messages leave out.
const nameTag = "_gtNamed"

// nameTags returns the declarations of the nameTag methods for the
// checked cell's types that need one (see above), to be added at the
// end of its source, or "".
func (c *cell) nameTags() string {
	var b strings.Builder
	for _, ts := range c.types {
		if ts.Assign.IsValid() || ts.TypeParams != nil || ts.Name.Name == "_" {
			continue
		}
		tn, ok := c.info.Defs[ts.Name].(*types.TypeName)
		if !ok || tn.Parent() != c.pkg.Scope() {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		switch n.Underlying().(type) {
		case *types.Struct, *types.Interface, *types.Pointer:
			// A pointer type cannot have methods.
			continue
		}
		if obj, _, _ := types.LookupFieldOrMethod(n, true, c.pkg, nameTag); obj != nil {
			continue
		}
		b.WriteString("\nfunc (" + ts.Name.Name + ") " + nameTag + "() {}")
	}
	if b.Len() == 0 {
		return ""
	}
	return "\n" + b.String() + "\n"
}

// warnIfaceKey warns where key, a value of a cell's non-struct type,
// indexes m, a map whose keys are of an interface type (or is one of its
// literal's keys): each conversion of such a value to an interface is a
// wrapper of its own (see nameTag), which the map compares by identity,
// so m[Celsius(1)] after m[Celsius(1)] = 1 finds nothing.
func (g *gen) warnIfaceKey(key ast.Expr, m types.Type) {
	if m == nil {
		return
	}
	mt, ok := m.Underlying().(*types.Map)
	if !ok || !types.IsInterface(mt.Key()) {
		return
	}
	t := g.c.info.Types[key].Type
	if t == nil || !bareWithMethods(t) || !g.firstAnyWarning("a key of "+types.TypeString(m, nil), t) {
		return
	}
	ts := types.TypeString(t, cellQualifier)
	g.warnf(key.Pos(), "a %s as a key of a %s: the interpreter makes each %s it puts in an interface a value of its own, which the map does not find again (after m[k] = v, m[k] gives the zero value); key the map by %s, or convert the key to %s",
		ts, types.TypeString(m, cellQualifier), ts, ts, types.TypeString(t.Underlying(), cellQualifier))
}

// mapLitKeys checks the keys of a map literal whose keys are of an
// interface type (see warnIfaceKey).
func (g *gen) mapLitKeys(lit *ast.CompositeLit) {
	t := g.c.info.Types[lit].Type
	if t == nil {
		return
	}
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			g.warnIfaceKey(kv.Key, t)
		}
	}
}
