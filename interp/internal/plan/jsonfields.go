package plan

import (
	"go/types"
	"reflect"
	"slices"
	"strings"
)

// A jsonField is a field Go's encoding/json writes and fills: its
// selector from the struct (through the embedded structs it is promoted
// from), its variable, its JSON name and tag options.
type jsonField struct {
	sel    string
	f      *types.Var
	name   string
	opts   string
	tagged bool
	index  []int
	// ptrs are the embedded pointers the field is promoted through:
	// their selectors and the structs they point to.
	ptrs []embeddedPtr
}

// An embeddedPtr is an embedded pointer to a struct that fields are
// promoted through.
type embeddedPtr struct {
	sel  string
	elem types.Type
	// exported is whether the embedded field is exported: json cannot
	// set one that is not.
	exported bool
}

// hasOpt reports whether the field's tag options hold o.
func (f jsonField) hasOpt(o string) bool {
	return slices.Contains(strings.Split(f.opts, ","), o)
}

// jsonFields returns the fields of st that Go's encoding/json writes and
// fills, in the order it writes them, as its typeFields finds them:
// exported fields and those promoted from embedded structs (through
// embedded pointers too), where of the fields of one JSON
// name the shallowest wins, then the one that a tag names, and two that
// tie are both left out.
func jsonFields(st *types.Struct) []jsonField {
	type level struct {
		st    *types.Struct
		t     types.Type
		sel   string
		index []int
		ptrs  []embeddedPtr
	}
	var fields []jsonField
	next := []level{{st: st}}
	visited := map[types.Type]bool{}
	// count holds how often each struct of the current depth is
	// embedded, nextCount of the next.
	count, nextCount := map[types.Type]int{}, map[types.Type]int{}
	for len(next) > 0 {
		current := next
		next = nil
		count, nextCount = nextCount, map[types.Type]int{}
		for _, l := range current {
			if l.t != nil {
				if visited[l.t] {
					continue
				}
				visited[l.t] = true
			}
			for i := range l.st.NumFields() {
				sf := l.st.Field(i)
				ft := sf.Type()
				ptr := false
				if p, ok := ft.(*types.Pointer); ok {
					ft, ptr = p.Elem(), true
				}
				if sf.Embedded() {
					if _, isStruct := ft.Underlying().(*types.Struct); !sf.Exported() && !isStruct {
						continue
					}
				} else if !sf.Exported() {
					continue
				}
				tag := reflect.StructTag(l.st.Tag(i)).Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validJSONName(name) {
					name = ""
				}
				index := append(slices.Clip(l.index), i)
				sel := sf.Name()
				if l.sel != "" {
					sel = l.sel + "." + sel
				}
				inner, isStruct := ft.Underlying().(*types.Struct)
				if name != "" || !sf.Embedded() || !isStruct {
					f := jsonField{sel: sel, f: sf, name: name, opts: opts, tagged: name != "", index: index, ptrs: l.ptrs}
					if name == "" {
						f.name = sf.Name()
					}
					fields = append(fields, f)
					if l.t != nil && count[l.t] > 1 {
						// A struct embedded twice at one depth: its
						// fields tie with themselves.
						fields = append(fields, f)
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					ptrs := l.ptrs
					if ptr {
						ptrs = append(slices.Clip(ptrs), embeddedPtr{sel, ft, sf.Exported()})
					}
					next = append(next, level{st: inner, t: ft, sel: sel, index: index, ptrs: ptrs})
				}
			}
		}
	}
	slices.SortStableFunc(fields, func(a, b jsonField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := len(a.index) - len(b.index); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	var out []jsonField
	for i := 0; i < len(fields); {
		j := i + 1
		for j < len(fields) && fields[j].name == fields[i].name {
			j++
		}
		group := fields[i:j]
		if len(group) == 1 || len(group[0].index) != len(group[1].index) || group[0].tagged != group[1].tagged {
			out = append(out, group[0])
		}
		i = j
	}
	slices.SortFunc(out, func(a, b jsonField) int { return slices.Compare(a.index, b.index) })
	return out
}
