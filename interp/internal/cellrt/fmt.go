package cellrt

import (
	"fmt"
	goruntime "github.com/gotensor/gotensor/interp/internal/cellrt/goruntime"
	"io"
	"reflect"
	"strings"
)

// Fmt returns a value that fmt formats as it would format v if fmt could
// see the methods of v's type (a type declared in a cell, whose methods
// compiled code does not see): str, err, format and gostr are v's String,
// Error, Format and GoString methods, or nil. It follows fmt's rules: a
// Format method does all; %#v uses GoString; %v, %s, %x, %X and %q use
// Error, else String; other verbs format v itself (%d of a Stringer int
// prints the number); a method that panics prints as fmt prints it. When
// err is not nil the value is an error too, so that %w wraps it.
func Fmt(v any, str, err func() string, format func(fmt.State, rune), gostr func() string) any {
	f := &formatter{v: Unwrap(v), str: str, err: err, format: format, gostr: gostr}
	if err != nil {
		return &errorFormatter{f}
	}
	return f
}

// Named returns f, a value Fmt made, knowing the interpreter's name of
// its value's type (see CellType), which Equal compares.
func Named(f any, name string) any {
	switch x := f.(type) {
	case *formatter:
		x.name = name
	case *errorFormatter:
		x.name = name
	}
	return f
}

// formatter formats a value with the fmt methods of its type.
type formatter struct {
	v        any
	name     string // the interpreter's name of v's type, or ""
	str, err func() string
	format   func(fmt.State, rune)
	gostr    func() string
}

// errorFormatter is a formatter of an error.
type errorFormatter struct{ *formatter }

func (e *errorFormatter) Error() string { return e.err() }

// Is reports whether target is the same error.
func (e *errorFormatter) Is(target error) bool { return same(e.v, identity(target)) }

func (f *formatter) Format(s fmt.State, verb rune) {
	if f.format != nil {
		f.call(s, verb, "Format", func() { f.format(s, verb) })
		return
	}
	if verb == 'v' && s.Flag('#') {
		if f.gostr != nil {
			f.call(s, verb, "GoString", func() { io.WriteString(s, f.gostr()) })
			return
		}
		fmt.Fprintf(s, fmt.FormatString(s, verb), f.v)
		return
	}
	switch verb {
	case 'v', 's', 'x', 'X', 'q':
		m, name := f.err, "Error"
		if m == nil {
			m, name = f.str, "String"
		}
		if m != nil {
			f.call(s, verb, name, func() {
				text := m()
				fmt.Fprintf(s, fmt.FormatString(s, verb), text)
			})
			return
		}
	}
	fmt.Fprintf(s, fmt.FormatString(s, verb), f.v)
}

// call runs a method of the value the way fmt does: a panic prints
// "%!verb(PANIC=Method method: value)", or "<nil>" for a nil pointer.
func (f *formatter) call(s fmt.State, verb rune, method string, run func()) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if v := reflect.ValueOf(f.v); v.Kind() == reflect.Pointer && v.IsNil() {
			fmt.Fprintf(s, fmt.FormatString(s, 's'), "<nil>")
			return
		}
		fmt.Fprintf(s, "%%!%c(PANIC=%s method: %v)", verb, method, Unwrap(r))
	}()
	run()
}

// Describe returns a value that fmt formats as v, a struct or a pointer to
// one, of a type declared in a cell, but with the Go type name and field
// names that the interpreter's struct does not have: %+v prints
// {x:1 y:2}, %#v prints main.point{x:1, y:2}. The fields' values are
// formatted as fmt formats them.
func Describe(v any, typ string, fields ...string) any {
	return &describer{v: Unwrap(v), typ: typ, fields: fields}
}

type describer struct {
	v      any
	typ    string
	fields []string
}

func (d *describer) Format(s fmt.State, verb rune) {
	rv := reflect.ValueOf(d.v)
	ptr := rv.Kind() == reflect.Pointer && !rv.IsNil()
	if ptr {
		rv = rv.Elem()
	}
	plus, sharp := s.Flag('+'), s.Flag('#')
	if verb != 'v' || !plus && !sharp || rv.Kind() != reflect.Struct || rv.NumField() != len(d.fields) {
		fmt.Fprintf(s, fmt.FormatString(s, verb), d.v)
		return
	}
	if ptr {
		io.WriteString(s, "&")
	}
	sep, field := " ", "%+v"
	if sharp {
		io.WriteString(s, d.typ)
		sep, field = ", ", "%#v"
	}
	io.WriteString(s, "{")
	for i, name := range d.fields {
		if i > 0 {
			io.WriteString(s, sep)
		}
		f := rv.Field(i).Interface()
		if rv.Field(i).Kind() != reflect.Interface {
			// A field of an interface type holds a value with the
			// interface's methods (the interpreter's wrapper, or
			// FmtAny's), which fmt calls.
			f = Unwrap(f)
		}
		fmt.Fprintf(s, "%s:"+field, name, f)
	}
	io.WriteString(s, "}")
}

// FmtAny returns v as fmt should see it: f, an interpreted function that
// gives fmt a value of a type declared in a cell with the type's fmt
// methods (see Fmt), applied to v and to the values inside v that fmt
// prints: the elements of slices, arrays and maps and the fields of
// structs of interface type, and what a pointer at the top points to
// (whose types the planner does not know). A value with such parts
// changed is a copy; v itself is left alone. The interpreter's wrappers of
// values of types without fmt methods are opened, with f nil too.
func FmtAny(v any, f func(any) any) any {
	if v == nil {
		return v
	}
	if f == nil {
		f = unchanged // wrappers are still opened
	}
	if r, ok := fmtWalk(reflect.ValueOf(v), f, 0, true); ok {
		return r.Interface()
	}
	return v
}

// FmtFields is FmtAny for v, a struct of a cell's type (or a pointer to
// one) whose Go names the caller gives fmt (see Describe): f's views that
// only name types (NestNames) are left out.
func FmtFields(v any, f func(any) any) any {
	if f == nil {
		return FmtAny(v, nil)
	}
	return FmtAny(v, func(x any) any {
		r := f(x)
		if n, ok := r.(*nestView); ok && n.names {
			return x
		}
		return r
	})
}

// unchanged is FmtAny's function when the session has no dispatch.
func unchanged(x any) any { return x }

// fmtWalk returns v with f applied to the values of interface type in it
// (see FmtAny), and whether any changed. top marks v itself, held in an
// interface.
func fmtWalk(v reflect.Value, f func(any) any, depth int, top bool) (reflect.Value, bool) {
	if depth > 8 || !v.IsValid() {
		return v, false
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		if r, ok := fmtWalk(v.Elem(), f, depth+1, true); ok {
			return r, true
		}
		return v, false
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() || !holdsInterface(v.Type().Elem()) {
			if r, ok := fmtValue(v, f, top); ok || !top {
				return r, ok
			}
			return fmtElems(v, f, depth)
		}
		var out reflect.Value
		for i := range v.Len() {
			e, ok := fmtWalk(v.Index(i), f, depth+1, false)
			if !ok {
				continue
			}
			if !out.IsValid() {
				if v.Kind() == reflect.Slice {
					out = reflect.MakeSlice(v.Type(), v.Len(), v.Len())
				} else {
					out = reflect.New(v.Type()).Elem()
				}
				reflect.Copy(out, v)
			}
			if !e.Type().AssignableTo(out.Type().Elem()) {
				return v, false
			}
			out.Index(i).Set(e)
		}
		return out, out.IsValid()
	case reflect.Map:
		if v.IsNil() || !holdsInterface(v.Type().Elem()) {
			if r, ok := fmtValue(v, f, top); ok || !top {
				return r, ok
			}
			return fmtElems(v, f, depth)
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		changed := false
		for it := v.MapRange(); it.Next(); {
			e, ok := fmtWalk(it.Value(), f, depth+1, false)
			if ok && !e.Type().AssignableTo(v.Type().Elem()) {
				return v, false
			}
			changed = changed || ok
			out.SetMapIndex(it.Key(), e)
		}
		return out, changed
	case reflect.Struct:
		if !holdsInterface(v.Type()) {
			return fmtValue(v, f, top)
		}
		if top && v.CanInterface() {
			// f's view of the struct prints its fields too.
			x := v.Interface()
			if r := f(x); r != nil && reflect.TypeOf(r) != reflect.TypeOf(x) {
				return reflect.ValueOf(r), true
			}
		}
		var out reflect.Value
		for i := range v.NumField() {
			if !v.Field(i).CanInterface() {
				continue
			}
			e, ok := fmtWalk(v.Field(i), f, depth+1, false)
			if !ok {
				continue
			}
			if !out.IsValid() {
				out = reflect.New(v.Type()).Elem()
				out.Set(v)
			}
			if !out.Field(i).CanSet() || !e.Type().AssignableTo(out.Field(i).Type()) {
				return v, false
			}
			out.Field(i).Set(e)
		}
		return out, out.IsValid()
	case reflect.Pointer:
		if top && depth == 0 && !v.IsNil() && v.Elem().Kind() == reflect.Struct {
			// fmt prints what a pointer at the top points to, &{...}.
			if e, ok := fmtWalk(v.Elem(), f, depth+1, false); ok && e.Type() == v.Type().Elem() {
				p := reflect.New(e.Type())
				p.Elem().Set(e)
				return p, true
			}
		}
		return fmtValue(v, f, top)
	}
	return fmtValue(v, f, top)
}

// fmtElems returns a copy of v, a slice, array or map (held in an
// interface) of a type f does not know, as a []any or map[K]any of its
// elements as fmt should print them, when they are structs, or slices,
// arrays, maps or pointers of structs, that f or a walk of theirs
// changes: []City of a cell's struct type City, map[int][]City. The
// elements share one type, so the first that is not empty (or a nil
// pointer) decides for all. fmt prints such a copy as it prints v (but
// for %#v, which names types).
func fmtElems(v reflect.Value, f func(any) any, depth int) (reflect.Value, bool) {
	if v.Len() == 0 || !holdsStruct(v.Type().Elem(), 0) {
		return v, false
	}
	elem := func(e reflect.Value) (reflect.Value, bool) {
		if e.Kind() == reflect.Pointer {
			return fmtValue(e, f, true)
		}
		return fmtWalk(e, f, depth+1, true)
	}
	var keys, elems []reflect.Value
	if v.Kind() == reflect.Map {
		for it := v.MapRange(); it.Next(); {
			keys, elems = append(keys, it.Key()), append(elems, it.Value())
		}
	} else {
		for i := range v.Len() {
			elems = append(elems, v.Index(i))
		}
	}
	out := make([]reflect.Value, len(elems))
	decided := false
	for i, e := range elems {
		r, ok := elem(e)
		out[i] = r
		if !decided && !empty(e) {
			if !ok {
				return v, false
			}
			decided = true
		}
	}
	if !decided {
		return v, false
	}
	if v.Kind() == reflect.Map {
		m := reflect.MakeMapWithSize(reflect.MapOf(v.Type().Key(), anyType), v.Len())
		for i, k := range keys {
			m.SetMapIndex(k, out[i])
		}
		return m, true
	}
	r := reflect.MakeSlice(reflect.SliceOf(anyType), v.Len(), v.Len())
	for i, e := range out {
		r.Index(i).Set(e)
	}
	return r, true
}

// empty reports whether v is a nil pointer or an empty slice, array or
// map, which tells nothing of what fmtElems makes of its type.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer:
		return v.IsNil()
	case reflect.Slice, reflect.Array, reflect.Map:
		return v.Len() == 0
	}
	return false
}

// anyType is the type of an empty interface.
var anyType = reflect.TypeFor[any]()

// holdsStruct reports whether values of type t are structs, pointers to
// structs, or slices, arrays or maps of them.
func holdsStruct(t reflect.Type, depth int) bool {
	if depth > 8 {
		return false
	}
	switch t.Kind() {
	case reflect.Struct:
		return true
	case reflect.Pointer:
		return t.Elem().Kind() == reflect.Struct
	case reflect.Slice, reflect.Array, reflect.Map:
		return holdsStruct(t.Elem(), depth+1)
	}
	return false
}

// fmtValue returns f of v, when v was held in an interface (top) and f
// gives another value for it, or the value inside the interpreter's
// wrapper that v is, when f leaves it alone.
func fmtValue(v reflect.Value, f func(any) any, top bool) (reflect.Value, bool) {
	if !top || !v.CanInterface() {
		return v, false
	}
	x := v.Interface()
	r := f(x)
	if r == nil || reflect.TypeOf(r) == reflect.TypeOf(x) {
		if CellType(x) != "" {
			// The interpreter's wrapper of a value of a cell's type
			// without fmt methods: fmt prints the value.
			if inner, ok := valueInterfaceValue(x); ok {
				return reflect.ValueOf(inner), true
			}
		}
		return v, false
	}
	return reflect.ValueOf(r), true
}

// holdsInterface reports whether a value of type t holds values of
// interface type that fmt prints: t itself, or its elements or fields,
// not through pointers.
func holdsInterface(t reflect.Type) bool {
	return holds(t, 0)
}

func holds(t reflect.Type, depth int) bool {
	if depth > 8 {
		return false
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Slice, reflect.Array, reflect.Map:
		return holds(t.Elem(), depth+1)
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() && holds(t.Field(i).Type, depth+1) {
				return true
			}
		}
	}
	return false
}

// CellType returns the interpreter's name of the type of a value of a type
// declared in a cell that the interpreter handed compiled code inside an
// interface (its wrapper holds the type: main.Temp, *main.Temp), or ""
// for any other value. A type assertion of an interface value to a cell's
// type compares reflect types, which a float64 and a cell's Temp float64
// share: generated code tests this name first.
func CellType(v any) string {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Kind() != reflect.Struct || rv.Type().Name() != "valueInterface" ||
		rv.Type().PkgPath() != "github.com/traefik/yaegi/interp" || rv.NumField() < 1 {
		return ""
	}
	node := rv.Field(0)
	if node.Kind() != reflect.Pointer || node.IsNil() {
		return ""
	}
	typ := node.Elem().FieldByName("typ")
	if typ.Kind() != reflect.Pointer || typ.IsNil() {
		return ""
	}
	str := typ.Elem().FieldByName("str")
	if str.Kind() != reflect.String {
		return ""
	}
	return str.String()
}

// NotInterface returns the panic of a failed type assertion of a value of
// a cell's type (dyn, the interpreter's name of it) to an interface.
func NotInterface(dyn, iface string) error {
	return goruntime.Assertion("interface conversion: " + dyn + " is not " + iface)
}

// NotType returns the panic of a failed type assertion of v, a value of
// an interface type static, to a type that is not an interface (want):
// dyn is the interpreter's name of v's type (see CellType), or "" for
// the type of the value itself.
func NotType(v any, dyn, static, want string) error {
	if dyn == "" {
		dyn = fmt.Sprintf("%T", Unwrap(v))
	}
	if v == nil {
		return goruntime.Assertion("interface conversion: " + static + " is nil, not " + want)
	}
	return goruntime.Assertion("interface conversion: " + static + " is " + dyn + ", not " + want)
}

// CompiledImplements reports whether v is a value of a compiled type (not
// a value of a type declared in a cell, which the interpreter wraps) that
// has the methods that methods lists, as pairs of a name and a nil
// function of the method's type.
func CompiledImplements(v any, methods ...any) bool {
	if v == nil || CellType(v) != "" || isWrapper(reflect.ValueOf(v)) {
		return false
	}
	switch v.(type) {
	case *formatter, *errorFormatter, *describer:
		return false
	}
	rv := reflect.ValueOf(v)
	for i := 0; i+1 < len(methods); i += 2 {
		name, _ := methods[i].(string)
		m := rv.MethodByName(name)
		if !m.IsValid() || m.Type() != reflect.TypeOf(methods[i+1]) {
			return false
		}
	}
	return true
}

// NotCellInterface returns the panic of a type assertion of v, a value of
// a compiled type that has the methods of iface, an interface declared in
// a cell, to iface: the interpreter cannot hold a compiled value in an
// interface declared in a cell, and its own assertion would say false.
func NotCellInterface(v any, iface string) error {
	return goruntime.Assertion(fmt.Sprintf("interface conversion: %T implements %s, an interface declared in a cell, but the interpreter cannot hold a value of a compiled type in one: assert to %T, or to an interface of a package with these methods (fmt.Stringer, io.Reader, ...)", v, iface, v))
}

// InPackage reports whether name, the interpreter's name of a type (see
// CellType), names a type of the package path, or a pointer to one: a
// type declared in a cell, where path is the cells' package. A value of
// a compiled type that the interpreter holds in an interface declared in
// a cell has a name too (time.Duration), which the interpreter's own
// assertions handle.
func InPackage(name, path string) bool {
	return strings.HasPrefix(strings.TrimPrefix(name, "*"), path+".")
}

// TypeName returns what %T prints for v: Go's name of its type, which f,
// an interpreted function, gives for a value of a type declared in a cell
// (see CellType), else the name of the type of the value inside the
// interpreter's wrappers and Fmt's.
func TypeName(v any, f func(any) string) string {
	if v == nil {
		return "<nil>"
	}
	if f != nil {
		if name := f(v); name != "" {
			return name
		}
		// A cell's struct in a compiled interface with methods comes
		// in the interpreter's wrapper (see Rewrap), which the cell's
		// assertions do not see through: they see the value inside.
		if isWrapper(reflect.ValueOf(v)) {
			if name := f(Unwrap(v)); name != "" {
				return name
			}
		}
	}
	if x, name := dynamic(v); name == "" {
		return fmt.Sprintf("%T", x)
	} else {
		return name
	}
}
