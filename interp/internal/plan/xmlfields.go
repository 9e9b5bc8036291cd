package plan

import (
	"go/types"
	"reflect"
	"strings"
)

// An xmlField is a field Go's encoding/xml writes and fills: its
// selector from the struct (through the embedded structs it is promoted
// from), its variable, its tag with the element's name made explicit,
// and the embedded pointers it is promoted through.
type xmlField struct {
	sel  string
	f    *types.Var
	tag  string
	mode string // "attr", "chardata", "cdata", "innerxml", "comment", "any" or "" (an element)
	name string
	omit bool // omitempty
	ptrs []embeddedPtr
}

// xmlFields returns the fields of st that encoding/xml writes and fills,
// in order, as its getTypeInfo finds them, and its XMLName field (from
// an embedded struct where st has none), or nil: of two fields of one
// name, the shallower (Go fails where they are at one depth, and so
// does xmlFields, reporting false).
func xmlFields(st *types.Struct) (fields []xmlField, xmlName *xmlField, ok bool) {
	ok = true
	// in holds the structs being walked: one that embeds itself (through
	// a pointer) is not walked again.
	in := map[*types.Struct]bool{}
	var walk func(st *types.Struct, sel string, ptrs []embeddedPtr) *xmlField
	walk = func(st *types.Struct, sel string, ptrs []embeddedPtr) *xmlField {
		if in[st] {
			ok = false
			return nil
		}
		in[st] = true
		defer delete(in, st)
		var name *xmlField
		for i := range st.NumFields() {
			f := st.Field(i)
			tag := reflect.StructTag(st.Tag(i)).Get("xml")
			if !f.Exported() && !f.Embedded() || tag == "-" {
				continue
			}
			s := f.Name()
			if sel != "" {
				s = sel + "." + s
			}
			if f.Embedded() {
				t, ptr := f.Type(), false
				if p, isPtr := t.(*types.Pointer); isPtr {
					t, ptr = p.Elem(), true
				}
				if inner, isStruct := t.Underlying().(*types.Struct); isStruct {
					ps := ptrs
					if ptr {
						ps = append(ps[:len(ps):len(ps)], embeddedPtr{s, t, f.Exported()})
					}
					if n := walk(inner, s, ps); name == nil {
						name = n
					}
					continue
				}
				if !f.Exported() {
					ok = false // read by reflection as an unexported field
					continue
				}
			}
			xf := xmlField{sel: s, f: f, ptrs: ptrs}
			xf.tag, xf.mode, xf.name, xf.omit = xmlTag(tag, f)
			if f.Name() == "XMLName" {
				xf.tag = tag
				xf.name, _, _ = strings.Cut(tag, ",")
				if _, n, hasNS := strings.Cut(xf.name, " "); hasNS {
					xf.name = n
				}
				name = &xf // over one of an embedded struct
				continue
			}
			// Of fields in conflict, Go keeps the shallowest, and fails
			// where two are at one depth.
			depth := strings.Count(xf.sel, ".")
			keep, drop := true, map[int]bool{}
			for j, o := range fields {
				if !xmlConflict(o, xf) {
					continue
				}
				switch od := strings.Count(o.sel, "."); {
				case od < depth:
					keep = false
				case od == depth:
					ok = false
				default:
					drop[j] = true
				}
			}
			if !keep {
				continue
			}
			if len(drop) > 0 {
				kept := fields[:0]
				for j, o := range fields {
					if !drop[j] {
						kept = append(kept, o)
					}
				}
				fields = kept
			}
			fields = append(fields, xf)
		}
		return name
	}
	xmlName = walk(st, "", nil)
	return fields, xmlName, ok
}

// xmlTag returns the xml tag of field f as the view writes it (the
// element's name explicit, as Go finds it: the tag's, that of the XMLName
// of the field's struct type, or the field's), its mode, name and
// whether it has omitempty.
func xmlTag(tag string, f *types.Var) (view, mode, name string, omit bool) {
	ns, rest, hasNS := strings.Cut(tag, " ")
	if !hasNS {
		ns, rest = "", tag
	}
	tokens := strings.Split(rest, ",")
	name = tokens[0]
	for _, flag := range tokens[1:] {
		switch flag {
		case "attr", "chardata", "cdata", "innerxml", "comment", "any":
			mode = flag
		case "omitempty":
			omit = true
		}
	}
	if name == "" && (mode == "" || mode == "attr" || mode == "any") {
		if xns, xn := lookupXMLName(f.Type()); xn != "" && mode == "" {
			ns, name = xns, xn
		} else {
			name = f.Name()
		}
		tokens[0] = name
	}
	view = strings.Join(tokens, ",")
	if ns != "" {
		view = ns + " " + view
	}
	return view, mode, name, omit
}

// lookupXMLName returns the name (and space) in the tag of the XMLName
// field of a struct type t (or a pointer to one), as Go's xml names an
// element of the type.
func lookupXMLName(t types.Type) (ns, name string) {
	for {
		p, ok := t.Underlying().(*types.Pointer)
		if !ok {
			break
		}
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return "", ""
	}
	for i := range st.NumFields() {
		if st.Field(i).Name() == "XMLName" {
			tag := reflect.StructTag(st.Tag(i)).Get("xml")
			ns, rest, hasNS := strings.Cut(tag, " ")
			if !hasNS {
				ns, rest = "", tag
			}
			name, _, _ = strings.Cut(rest, ",")
			return ns, name
		}
	}
	return "", ""
}

// xmlConflict reports whether encoding/xml finds two fields in conflict
// (as its addFieldInfo does): of one mode and namespace, one's path
// (a>b>c) a start of the other's, or of one name. Go then keeps the
// shallower one, or fails.
func xmlConflict(a, b xmlField) bool {
	if a.mode != b.mode || a.mode != "" && a.mode != "attr" && a.mode != "any" {
		return false
	}
	ans, aname := xmlNS(a.tag)
	bns, bname := xmlNS(b.tag)
	if ans != "" && bns != "" && ans != bns {
		return false
	}
	ap, bp := strings.Split(aname, ">"), strings.Split(bname, ">")
	for i := range min(len(ap), len(bp)) - 1 {
		if ap[i] != bp[i] {
			return false
		}
	}
	switch {
	case len(ap) > len(bp):
		return ap[len(bp)-1] == bp[len(bp)-1]
	case len(ap) < len(bp):
		return bp[len(ap)-1] == ap[len(ap)-1]
	}
	return aname == bname && ans == bns
}

// xmlNS returns the namespace and the name (a path) of a view's tag.
func xmlNS(tag string) (ns, name string) {
	ns, rest, ok := strings.Cut(tag, " ")
	if !ok {
		ns, rest = "", tag
	}
	name, _, _ = strings.Cut(rest, ",")
	return ns, name
}
