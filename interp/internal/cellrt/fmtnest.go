package cellrt

import (
	"fmt"
	"go/token"
	"io"
	"math"
	"reflect"
	"sort"
	"strings"
	"unsafe"
)

// addNest adds Nest and the constructors of its shapes to the exports m.
func addNest(m map[string]reflect.Value) {
	m["Shape"] = reflect.ValueOf((*Shape)(nil))
	m["Nest"] = reflect.ValueOf(Nest)
	m["NestNames"] = reflect.ValueOf(NestNames)
	m["ShapeView"] = reflect.ValueOf(ShapeView)
	m["ShapeBase"] = reflect.ValueOf(ShapeBase)
	m["ShapeStruct"] = reflect.ValueOf(ShapeStruct)
	m["ShapeElem"] = reflect.ValueOf(ShapeElem)
	m["ShapeMap"] = reflect.ValueOf(ShapeMap)
	m["ShapeAny"] = reflect.ValueOf(ShapeAny)
}

// A Shape describes where a value's type holds values that compiled fmt
// would print wrongly: values of a cell's types with String, Error,
// Format or GoString methods (which compiled code does not see), values
// of a cell's types declared on a compiled named type (whose methods
// compiled code sees but Go does not call), and the Go names of a cell's
// struct types and fields. A nil *Shape is a part that fmt prints as it is.
// The planner builds a Shape from a value's static type; Nest formats the
// value with it.
type Shape struct {
	name   string        // Go's name of the type, for %#v
	fields []string      // the Go names of a struct's fields
	parts  []*Shape      // a struct's fields; [elem]; [key, elem] of a map
	view   func(any) any // the value as fmt should see it (see Fmt)
	base   bool          // printed as its underlying basic value
	iface  func(any) any // a value in an interface goes through FmtAny with it
}

// ShapeView is the shape of a type with fmt methods: view returns the
// value as fmt should see it (see Fmt).
func ShapeView(name string, view func(any) any) *Shape {
	return &Shape{name: name, view: view}
}

// ShapeBase is the shape of a cell's type declared on a compiled named type
// (type Ticks time.Duration, type Stamp time.Time): it has none of the
// compiled type's methods, and prints as its underlying value.
func ShapeBase(name string) *Shape { return &Shape{name: name, base: true} }

// ShapeStruct is the shape of a struct type with the given Go name, field
// names and fields' shapes.
func ShapeStruct(name string, fields []string, parts ...*Shape) *Shape {
	return &Shape{name: name, fields: fields, parts: parts}
}

// ShapeElem is the shape of a slice, array or pointer type whose elements
// have shape elem.
func ShapeElem(name string, elem *Shape) *Shape {
	return &Shape{name: name, parts: []*Shape{elem}}
}

// ShapeMap is the shape of a map type with the given key and element
// shapes.
func ShapeMap(name string, key, elem *Shape) *Shape {
	return &Shape{name: name, parts: []*Shape{key, elem}}
}

// ShapeAny is the shape of an interface type: its dynamic value goes
// through FmtAny with f.
func ShapeAny(f func(any) any) *Shape { return &Shape{iface: f, name: "interface {}"} }

// Nest returns a value that fmt formats as Go formats v, whose static type
// has shape s: the parts of v that s marks are formatted with their
// types' methods, or as their underlying values, and the rest as fmt
// formats them, with the same verb, flags, width and precision. It follows
// fmt's rules for composites: a pointer at the top prints as &{...}, one
// nested prints as its address; map keys print sorted.
func Nest(v any, s *Shape) any {
	return &nestView{v: Unwrap(v), s: s}
}

// NestNames is Nest for %+v and %#v, which print the Go names of the
// types and fields that s gives, and for the verbs of values in
// interfaces that s holds: fmt formats v itself for every other verb. It
// gives fmt a value of a cell's type without fmt methods inside an
// interface, whose names the interpreter's value lacks.
func NestNames(v any, s *Shape) any {
	return &nestView{v: Unwrap(v), s: s, names: true}
}

// holdsAny reports whether s, at the given depth of a shape, has a part
// of an interface type (shapes are no deeper than the planner's bound).
func (s *Shape) holdsAny(depth int) bool {
	if s == nil || depth > 8 {
		return false
	}
	if s.iface != nil {
		return true
	}
	for _, p := range s.parts {
		if p.holdsAny(depth + 1) {
			return true
		}
	}
	return false
}

type nestView struct {
	v     any
	s     *Shape
	names bool // only %+v and %#v go through s (see NestNames)
}

// nestPrinter prints one value for one verb.
type nestPrinter struct {
	st           fmt.State
	verb         rune
	sharpV, plus bool
	format       string // the verb with its flags, width and precision
	// strip says that the value is in an unexported field, whose
	// methods fmt does not call.
	strip bool
}

func (n *nestView) Format(st fmt.State, verb rune) {
	p := &nestPrinter{st: st, verb: verb, format: fmt.FormatString(st, verb)}
	p.sharpV = verb == 'v' && st.Flag('#')
	p.plus = verb == 'v' && st.Flag('+')
	if verb == 'T' || verb == 'p' || n.s == nil || n.names && !p.sharpV && !p.plus && !n.s.holdsAny(0) {
		fmt.Fprintf(st, p.format, n.v)
		return
	}
	p.value(reflect.ValueOf(n.v), n.s, 0)
}

func (p *nestPrinter) write(s string) { io.WriteString(p.st, s) }

// value prints v, of shape s, at the given depth (0 is fmt's argument).
func (p *nestPrinter) value(v reflect.Value, s *Shape, depth int) {
	if p.strip && v.IsValid() {
		s = stripShape(v, s)
	}
	if s == nil || !v.IsValid() {
		p.plain(v, depth)
		return
	}
	switch {
	case s.view != nil:
		if !v.CanInterface() {
			p.plain(v, depth)
			return
		}
		fmt.Fprintf(p.st, p.format, s.view(v.Interface()))
		return
	case s.base:
		if u := underlying(v); u.Type() != v.Type() {
			p.plain(u, depth)
			return
		}
		// A struct or another composite: printed without the
		// compiled type's methods, its parts with theirs.
		p.value(v, stripShape(v, nil), depth)
		return
	case s.iface != nil:
		if v.Kind() == reflect.Interface {
			if v.IsNil() {
				p.nilInterface(v, s.name)
				return
			}
			v = v.Elem()
		}
		if !v.CanInterface() {
			p.plain(v, depth)
			return
		}
		x := reflect.ValueOf(FmtAny(v.Interface(), s.iface))
		if x.Type() != v.Type() {
			// A view: the value's methods print it.
			fmt.Fprintf(p.st, p.format, x.Interface())
			return
		}
		p.plain(x, depth)
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		if len(s.parts) != v.NumField() {
			p.plain(v, depth)
			return
		}
		if p.sharpV {
			p.write(s.name)
		}
		p.write("{")
		for i := range v.NumField() {
			if i > 0 {
				if p.sharpV {
					p.write(", ")
				} else {
					p.write(" ")
				}
			}
			if p.plus || p.sharpV {
				name := v.Type().Field(i).Name
				if i < len(s.fields) {
					name = s.fields[i]
				}
				p.write(name + ":")
			}
			f := v.Field(i)
			if f.Kind() == reflect.Interface && !f.IsNil() && (s.parts[i] == nil || p.strip) {
				f = elem(f)
			}
			strip := p.strip
			if i < len(s.fields) && !token.IsExported(s.fields[i]) {
				p.strip = true
			}
			p.value(f, s.parts[i], depth+1)
			p.strip = strip
		}
		p.write("}")
	case reflect.Slice, reflect.Array:
		if len(s.parts) != 1 || v.Type().Elem().Kind() == reflect.Uint8 && (p.verb == 's' || p.verb == 'q' || p.verb == 'x' || p.verb == 'X') {
			p.plain(v, depth)
			return
		}
		if p.sharpV {
			p.write(s.name)
			if v.Kind() == reflect.Slice && v.IsNil() {
				p.write("(nil)")
				return
			}
			p.write("{")
		} else {
			p.write("[")
		}
		for i := range v.Len() {
			if i > 0 {
				if p.sharpV {
					p.write(", ")
				} else {
					p.write(" ")
				}
			}
			p.value(v.Index(i), s.parts[0], depth+1)
		}
		if p.sharpV {
			p.write("}")
		} else {
			p.write("]")
		}
	case reflect.Map:
		if len(s.parts) != 2 {
			p.plain(v, depth)
			return
		}
		if p.sharpV {
			p.write(s.name)
			if v.IsNil() {
				p.write("(nil)")
				return
			}
			p.write("{")
		} else {
			p.write("map[")
		}
		var keys, vals []reflect.Value
		for it := v.MapRange(); it.Next(); {
			keys, vals = append(keys, it.Key()), append(vals, it.Value())
		}
		order := make([]int, len(keys))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool { return compareKeys(keys[order[i]], keys[order[j]]) < 0 })
		for i, k := range order {
			if i > 0 {
				if p.sharpV {
					p.write(", ")
				} else {
					p.write(" ")
				}
			}
			p.value(keys[k], s.parts[0], depth+1)
			p.write(":")
			p.value(vals[k], s.parts[1], depth+1)
		}
		if p.sharpV {
			p.write("}")
		} else {
			p.write("]")
		}
	case reflect.Pointer:
		if depth == 0 && !v.IsNil() && len(s.parts) == 1 {
			switch v.Elem().Kind() {
			case reflect.Array, reflect.Slice, reflect.Struct, reflect.Map:
				p.write("&")
				p.value(v.Elem(), s.parts[0], depth+1)
				return
			}
		}
		p.pointer(v, s.name)
	default:
		p.plain(v, depth)
	}
}

// elem returns the value in v, an interface, unwrapped from the
// interpreter's wrapper (see Unwrap).
func elem(v reflect.Value) reflect.Value {
	v = v.Elem()
	if !v.IsValid() || !v.CanInterface() {
		return v
	}
	v = reflect.ValueOf(Unwrap(v.Interface()))
	if v.Kind() == reflect.Struct && v.Type().Name() == "valueInterface" && v.NumField() == 2 &&
		v.Type().Field(1).Type == reflect.TypeFor[reflect.Value]() {
		// The interpreter's value of an interface: its value field
		// holds the value.
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		return *(*reflect.Value)(unsafe.Pointer(c.Field(1).UnsafeAddr()))
	}
	return v
}

// stripShape returns the shape of v, in an unexported field: its parts
// are printed without methods, as their underlying values.
func stripShape(v reflect.Value, s *Shape) *Shape {
	if s != nil && s.view == nil && !s.base && s.iface == nil {
		return s
	}
	name := v.Type().String()
	if s != nil {
		name = s.name
	}
	switch v.Kind() {
	case reflect.Struct:
		return &Shape{name: name, parts: make([]*Shape, v.NumField())}
	case reflect.Slice, reflect.Array, reflect.Pointer:
		return &Shape{name: name, parts: make([]*Shape, 1)}
	case reflect.Map:
		return &Shape{name: name, parts: make([]*Shape, 2)}
	}
	return nil
}

// plain prints v as fmt prints a value of its type at the given depth.
func (p *nestPrinter) plain(v reflect.Value, depth int) {
	switch {
	case !v.IsValid():
		p.nilAngle()
	case v.Kind() == reflect.Interface && v.IsNil():
		p.nilInterface(v, v.Type().String())
	case p.strip && v.Kind() == reflect.Interface:
		p.value(elem(v), nil, depth)
	case depth > 0 && v.Kind() == reflect.Pointer && (p.strip || !v.CanInterface() || !p.usesMethods(v.Type())):
		p.pointer(v, v.Type().String())
	case p.strip:
		fmt.Fprintf(p.st, p.format, readOnly(v))
	case v.CanInterface() && depth == 0:
		fmt.Fprintf(p.st, p.format, v.Interface())
	default:
		// fmt formats a reflect.Value as a value inside another
		// (%#v of a []byte prints []uint8{...}).
		fmt.Fprintf(p.st, p.format, v)
	}
}

// usesMethods reports whether fmt calls a method of a value of type t for
// the printer's verb (fmt's handleMethods).
func (p *nestPrinter) usesMethods(t reflect.Type) bool {
	has := func(m string) bool { _, ok := t.MethodByName(m); return ok }
	switch {
	case has("Format"):
		return true
	case p.sharpV:
		return has("GoString")
	}
	switch p.verb {
	case 'v', 's', 'x', 'X', 'q':
		return has("Error") || has("String")
	}
	return false
}

// pointer prints a pointer nested in a composite as fmt prints the
// pointers it does not follow: its address.
func (p *nestPrinter) pointer(v reflect.Value, name string) {
	switch {
	case p.sharpV && v.IsNil():
		p.write("(" + name + ")(nil)")
	case p.sharpV:
		fmt.Fprintf(p.st, "(%s)(0x%x)", name, v.Pointer())
	case p.verb == 'v' && v.IsNil():
		p.nilAngle()
	case strings.ContainsRune("vbodxX", p.verb):
		fmt.Fprintf(p.st, p.format, unsafe.Pointer(v.Pointer()))
	default:
		// A verb pointers have not: fmt prints it with the pointer's
		// value, %v with the verb's flags.
		fmt.Fprintf(p.st, "%%!%c(%s=", p.verb, name)
		fmt.Fprintf(p.st, strings.TrimSuffix(p.format, string(p.verb))+"v", readOnly(v))
		p.write(")")
	}
}

// roBox holds a value in an unexported field, whose methods fmt does not
// call.
type roBox struct{ v any }

// readOnly returns v as a value fmt prints without its methods, as it
// prints an unexported field.
func readOnly(v reflect.Value) reflect.Value {
	if !v.CanInterface() {
		return v
	}
	return reflect.ValueOf(roBox{v.Interface()}).Field(0).Elem()
}

// nilInterface prints v, a nil interface in a composite, of the named
// type, as fmt does: unpadded.
func (p *nestPrinter) nilInterface(v reflect.Value, name string) {
	if p.sharpV {
		p.write(name + "(nil)")
		return
	}
	p.write("<nil>")
}

// nilAngle prints "<nil>", padded to the width.
func (p *nestPrinter) nilAngle() {
	w, ok := p.st.Width()
	s := "<nil>"
	for ok && len(s) < w {
		if p.st.Flag('-') {
			s += " "
		} else {
			s = " " + s
		}
	}
	p.write(s)
}

// underlying returns v as a value of the basic type of its kind.
func underlying(v reflect.Value) reflect.Value {
	var t reflect.Type
	switch v.Kind() {
	case reflect.Bool:
		t = reflect.TypeFor[bool]()
	case reflect.Int:
		t = reflect.TypeFor[int]()
	case reflect.Int8:
		t = reflect.TypeFor[int8]()
	case reflect.Int16:
		t = reflect.TypeFor[int16]()
	case reflect.Int32:
		t = reflect.TypeFor[int32]()
	case reflect.Int64:
		t = reflect.TypeFor[int64]()
	case reflect.Uint:
		t = reflect.TypeFor[uint]()
	case reflect.Uint8:
		t = reflect.TypeFor[uint8]()
	case reflect.Uint16:
		t = reflect.TypeFor[uint16]()
	case reflect.Uint32:
		t = reflect.TypeFor[uint32]()
	case reflect.Uint64:
		t = reflect.TypeFor[uint64]()
	case reflect.Uintptr:
		t = reflect.TypeFor[uintptr]()
	case reflect.Float32:
		t = reflect.TypeFor[float32]()
	case reflect.Float64:
		t = reflect.TypeFor[float64]()
	case reflect.Complex64:
		t = reflect.TypeFor[complex64]()
	case reflect.Complex128:
		t = reflect.TypeFor[complex128]()
	case reflect.String:
		t = reflect.TypeFor[string]()
	default:
		return v
	}
	return v.Convert(t)
}

// compareKeys orders map keys as fmt prints them (the order of Go's
// internal/fmtsort): numbers, strings and booleans by value, pointers and
// channels by address, structs and arrays field by field, interfaces by
// type and then value, NaN first.
func compareKeys(a, b reflect.Value) int {
	if a.Type() != b.Type() {
		return -1
	}
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp3(a.Int() < b.Int(), a.Int() > b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp3(a.Uint() < b.Uint(), a.Uint() > b.Uint())
	case reflect.String:
		return cmp3(a.String() < b.String(), a.String() > b.String())
	case reflect.Float32, reflect.Float64:
		return compareFloat(a.Float(), b.Float())
	case reflect.Complex64, reflect.Complex128:
		if c := compareFloat(real(a.Complex()), real(b.Complex())); c != 0 {
			return c
		}
		return compareFloat(imag(a.Complex()), imag(b.Complex()))
	case reflect.Bool:
		return cmp3(!a.Bool() && b.Bool(), a.Bool() && !b.Bool())
	case reflect.Pointer, reflect.UnsafePointer, reflect.Chan:
		return cmp3(a.Pointer() < b.Pointer(), a.Pointer() > b.Pointer())
	case reflect.Struct:
		for i := range a.NumField() {
			if c := compareKeys(a.Field(i), b.Field(i)); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Array:
		for i := range a.Len() {
			if c := compareKeys(a.Index(i), b.Index(i)); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return cmp3(a.IsNil() && !b.IsNil(), !a.IsNil() && b.IsNil())
		}
		ta, tb := reflect.ValueOf(a.Elem().Type()), reflect.ValueOf(b.Elem().Type())
		if c := compareKeys(ta, tb); c != 0 {
			return c
		}
		return compareKeys(a.Elem(), b.Elem())
	}
	return 0
}

func cmp3(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}

func compareFloat(a, b float64) int {
	switch {
	case math.IsNaN(a) && math.IsNaN(b):
		return 0
	case math.IsNaN(a):
		return -1
	case math.IsNaN(b):
		return 1
	}
	return cmp3(a < b, a > b)
}
