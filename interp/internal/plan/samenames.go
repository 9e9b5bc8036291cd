package plan

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"
)

// Compile errors that name two types alike.
//
// A redefined type is a new type: what earlier cells declared with the
// old one (a function's parameter, a variable) keeps it. Go's message for
// a value of the new type given where the old one is wanted names both
// alike, "cannot use ms (variable of type []Metric) as []Metric value in
// argument to total", as it would two types of two packages with one
// name. sameNamedTypes says which declaration each one is.

// noteTypeAt records where the cell c declares tn, for sameNamedTypes.
func (s *Session) noteTypeAt(c *cell, tn *types.TypeName) {
	s.typeAt[tn] = c.typePlace(tn)
}

// typePlace says where tn, a type the cell c declares, is declared:
// "cell 3, line 2".
func (c *cell) typePlace(tn *types.TypeName) string {
	p := c.fset.Position(tn.Pos())
	if p.Filename != "cell" {
		return fmt.Sprintf("cell %d", c.n)
	}
	return fmt.Sprintf("cell %d, line %d", c.n, p.Line)
}

// cannotUse matches a compile error about a value given where a value of
// another type is wanted, with the two types.
var cannotUse = regexp.MustCompile(`^cannot use .* \((?:[\w ]+ )?of (?:\w+ )?type (.+)\) as (.+) value in `)

// identWord matches an identifier in a type's name.
var identWord = regexp.MustCompile(`[\pL_][\pL\pN_]*`)

// sameNamedTypes returns what to add to msg, a compile error at pos of
// the cell's check, when it says a value cannot be used as a value of a
// type that it names as the value's own ("as []Metric"): for each name
// of the two types that stands for types of several declarations of the
// session (a type redefined), where each is declared, the value's first;
// or "".
func (c *cell) sameNamedTypes(pos token.Pos, msg string) string {
	m := cannotUse.FindStringSubmatch(msg)
	if m == nil || m[1] != m[2] {
		return ""
	}
	names := map[string]bool{}
	for _, w := range identWord.FindAllString(m[1], -1) {
		names[w] = true
	}
	// The declarations of those names that the check saw, the value's
	// (the outermost expression at pos) first.
	versions := map[string][]*types.TypeName{}
	seen := map[types.Type]bool{}
	note := func(t types.Type) {
		walkType(t, seen, func(t types.Type) bool {
			n, ok := t.(*types.Named)
			if ok && names[n.Obj().Name()] && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == cellPath && !slices.Contains(versions[n.Obj().Name()], n.Obj()) {
				versions[n.Obj().Name()] = append(versions[n.Obj().Name()], n.Obj())
			}
			return true
		})
	}
	var operand ast.Expr
	for e := range c.info.Types {
		if e.Pos() == pos && (operand == nil || e.End() > operand.End()) {
			operand = e
		}
	}
	theValues := map[string]bool{} // names whose first version is the value's
	if operand != nil {
		note(c.info.Types[operand].Type)
		for name := range versions {
			theValues[name] = true
		}
	}
	for _, tv := range c.info.Types {
		note(tv.Type)
	}
	for _, obj := range c.info.Uses {
		if obj != nil {
			note(obj.Type())
		}
	}
	var notes []string
	for _, name := range identWord.FindAllString(m[1], -1) {
		vs := versions[name]
		if len(vs) < 2 {
			continue
		}
		delete(versions, name)
		var places []string
		for _, tn := range vs {
			place := c.s.typeAt[tn]
			if tn.Pkg() == c.pkg {
				place = c.typePlace(tn)
			}
			if place == "" {
				continue
			}
			places = append(places, place)
		}
		if len(places) < 2 {
			continue
		}
		first := "one"
		if theValues[name] {
			first = "value's"
		}
		notes = append(notes, fmt.Sprintf("two types named %s: the %s is declared in %s, the other in %s",
			name, first, places[0], strings.Join(places[1:], " and another in ")))
	}
	if len(notes) == 0 {
		return ""
	}
	return " (" + strings.Join(notes, "; ") + "; what a cell declared with a type keeps that type when the type is redefined: run that cell again to use the new one)"
}
