package cellrt

import (
	"fmt"
	"io"
	"reflect"
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

// formatter formats a value with the fmt methods of its type.
type formatter struct {
	v        any
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
		fmt.Fprintf(s, "%s:"+field, name, Unwrap(rv.Field(i).Interface()))
	}
	io.WriteString(s, "}")
}
