package cellrt

import (
	"encoding/json"
	"errors"
	"fmt"
	htemplate "html/template"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"text/template/parse"
	"unsafe"
)

// Templates executed with values of a cell's types.
//
// Compiled text/template and html/template see the interpreter's value of
// a type declared in a cell, without the type's methods: {{.Final}} fails
// where Final is a method. The planner hands Execute a view of such a
// value instead (TemplateView): a value that knows the type's methods,
// bound to the value, its fields (views again where they hold such
// types) and how fmt prints it. TemplateExecute rewrites the template's
// trees, once, so that what reads a field or calls a method, ranges over
// a value, compares it or passes it to a function goes through functions
// that understand views (see rewriteTree) and that do what the template
// package does for any other value; a view whose value is false is a
// falseView, which if, with, and, or and not test as the value.

// addTemplates adds the runtime's functions for templates to m, the
// exports of the runtime package.
func (rt *Runtime) addTemplates(m map[string]reflect.Value) {
	m["TemplateExecute"] = reflect.ValueOf(TemplateExecute)
	m["TemplateView"] = reflect.ValueOf(TemplateView)
	m["TemplateNil"] = reflect.ValueOf(TemplateNil)
	m["TemplateNilEmbedded"] = reflect.ValueOf(TemplateNilEmbedded)
	m["TemplateField"] = reflect.ValueOf(TemplateField)
	m["TemplateInInterface"] = reflect.ValueOf(TemplateInInterface)
	m["TemplateType"] = reflect.ValueOf(rt.TemplateType)
	m["TemplateAny"] = reflect.ValueOf(rt.TemplateAny)
}

// A TemplateValue is the view of a value of a type a cell declared, as a
// template sees it.
type TemplateValue struct {
	typ    string        // Go's name of the type
	val    reflect.Value // the interpreter's value, addressable
	ptr    any           // the pointer to it the planner gave
	addr   bool          // the value is addressable in Go
	viaPtr bool          // the template reached it through a pointer
	isNil  bool          // a nil pointer
	method func(string) any
	field  func(string) (any, bool)
	hidden []string
	elems  func() any
	format func(bool) any
	// ptrPrint says that a template's action prints the addressable
	// value with its pointer's methods.
	ptrPrint bool
	// static is the name of the interface type the template found the
	// value in, or "".
	static string
}

// TemplateView returns the view of the value p points to, of a type
// named typ that a cell declared: addr says whether Go could take its
// address (a pointer's target, an element of a slice), viaPtr whether
// the template reached it through a pointer. method returns the type's
// exported method name bound to the value (nil when it has none, or it
// has a pointer receiver and the value is not addressable); field the
// value of an exported field (a view, or a reflect.Value of the field);
// hidden lists the unexported fields; elems, when not nil, returns the
// elements of a slice, array or map type as views; format returns the
// value fmt prints for the value, or for p when ptr; ptrPrint says that
// the pointer has a String or Error method the value has not, which a
// template's action uses when the value is addressable.
func TemplateView(typ string, p any, addr, viaPtr bool, method func(string) any, field func(string) (any, bool),
	hidden []string, elems func() any, format func(ptr bool) any, ptrPrint bool) any {
	return wrap(&TemplateValue{typ: typ, val: reflect.ValueOf(p).Elem(), ptr: p, addr: addr, viaPtr: viaPtr,
		method: method, field: field, hidden: hidden, elems: elems, format: format, ptrPrint: ptrPrint})
}

// A falseView holds, past its length, the view of a value whose truth is
// false (Temp(0), a nil pointer): the template's if, with, and, or and
// not test a slice's length.
type falseView []*TemplateValue

// wrap returns v, or a falseView of it when its truth is false.
func wrap(v *TemplateValue) any {
	if v.truth() {
		return v
	}
	f := make(falseView, 1)
	f[0] = v
	return f[:0]
}

func (f falseView) view() *TemplateValue          { return f[:1][0] }
func (f falseView) Format(s fmt.State, verb rune) { f.view().Format(s, verb) }
func (f falseView) String() string                { return f.view().String() }
func (f falseView) MarshalJSON() ([]byte, error)  { return f.view().MarshalJSON() }

// TemplateNil returns the view of p, a nil pointer to a type named typ
// that a cell declared.
func TemplateNil(typ string, p any) any {
	return wrap(&TemplateValue{typ: typ, ptr: p, isNil: true, format: func(bool) any { return p }})
}

// templateTypes are the views of values in interfaces that the cells of
// a session registered, by the interpreter's name of their type.
type templateTypes struct {
	mu     sync.Mutex
	byName map[string]func(any) any
	names  []string
}

// TemplateType registers view, which returns the view of a value of the
// cell's type named name (main.T), of a pointer to it, or of a slice or
// map of them, and nil for other values; it replaces the view of a type
// of that name declared before.
func (rt *Runtime) TemplateType(name string, view func(any) any) {
	rt.tpl.mu.Lock()
	defer rt.tpl.mu.Unlock()
	if rt.tpl.byName == nil {
		rt.tpl.byName = map[string]func(any) any{}
	}
	if _, ok := rt.tpl.byName[name]; !ok {
		rt.tpl.names = append(rt.tpl.names, name)
	}
	rt.tpl.byName[name] = view
}

// TemplateAny returns the view of v, a value in an interface, of the
// registered types (see TemplateType), or nil.
func (rt *Runtime) TemplateAny(v any) any {
	if v == nil {
		return nil
	}
	rt.tpl.mu.Lock()
	views := make([]func(any) any, 0, len(rt.tpl.names))
	for _, n := range rt.tpl.names {
		views = append(views, rt.tpl.byName[n])
	}
	rt.tpl.mu.Unlock()
	if len(views) == 0 {
		return nil
	}
	return templateAny(views, v, 0)
}

// templateAny returns the view of v by views, or, for a slice, array or
// map that holds values they view (a map[int]T, a []any), a []any or
// map[K]any of the views of its elements; nil when no view applies.
func templateAny(views []func(any) any, v any, depth int) any {
	if v == nil || depth > 64 {
		return nil
	}
	for _, f := range views {
		if r := f(v); r != nil {
			return r
		}
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array, reflect.Map:
		switch rv.Type().Elem().Kind() {
		case reflect.Interface, reflect.Struct, reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		default:
			return nil // numbers, strings: no cell's value a view could know
		}
	default:
		return nil
	}
	elem := func(e reflect.Value) (any, bool) {
		if !e.CanInterface() {
			return e, false
		}
		x := e.Interface()
		if r := templateAny(views, x, depth+1); r != nil {
			return r, true
		}
		return x, false
	}
	found := false
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return nil
		}
		out := make([]any, rv.Len())
		for i := range out {
			var ok bool
			out[i], ok = elem(rv.Index(i))
			found = found || ok
		}
		if found {
			return out
		}
	case reflect.Map:
		if rv.IsNil() {
			return nil
		}
		out := reflect.MakeMapWithSize(reflect.MapOf(rv.Type().Key(), reflect.TypeFor[any]()), rv.Len())
		for it := rv.MapRange(); it.Next(); {
			x, ok := elem(it.Value())
			found = found || ok
			if x == nil {
				out.SetMapIndex(it.Key(), reflect.Zero(out.Type().Elem()))
			} else {
				out.SetMapIndex(it.Key(), reflect.ValueOf(x))
			}
		}
		if found {
			return out.Interface()
		}
	}
	return nil
}

// TemplateInInterface returns view, the view of a value that the template
// finds in an interface of type typ (as reflect names it), or view when
// it is not a view.
func TemplateInInterface(view any, typ string) any {
	v, ok := view.(*TemplateValue)
	if f, isFalse := view.(falseView); isFalse {
		v, ok = f.view(), true
	}
	if !ok {
		return view
	}
	c := *v
	c.static = typ
	return wrap(&c)
}

// TemplateNilEmbedded returns what a view's field function returns for a
// field promoted through a nil pointer to the embedded struct named name,
// and its method function ("" for name) for a method Go cannot call
// through it.
func TemplateNilEmbedded(name string) any { return nilEmbedded(name) }

// nilEmbedded names a nil pointer to an embedded struct ("" for a
// method's view).
type nilEmbedded string

// nilDereference is the runtime error of a method called through a nil
// pointer to an embedded struct.
type nilDereference struct{}

func (nilDereference) Error() string {
	return "runtime error: invalid memory address or nil pointer dereference"
}
func (nilDereference) RuntimeError() {}

// TemplateField returns the field that p points to as a template sees it:
// addressable when addr.
func TemplateField(p any, addr bool) any {
	v := reflect.ValueOf(p).Elem()
	if !addr {
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		v = c.Convert(v.Type()) // not addressable
	}
	return v
}

// Format formats the value as fmt formats the value of its type: with
// its String, Error, Format or GoString methods.
func (v *TemplateValue) Format(s fmt.State, verb rune) { v.formatAs(s, verb, v.viaPtr) }

// formatAs formats the value, or the pointer to it when ptr.
func (v *TemplateValue) formatAs(s fmt.State, verb rune, ptr bool) {
	x := v.format(ptr)
	if v.isNil || verb == 'T' || verb == 'p' || s.Flag('#') || !v.printFields(s, verb, x) {
		fmt.Fprintf(s, fmt.FormatString(s, verb), x)
	}
}

// printFields prints a struct that fmt would print field by field, x
// being the interpreter's value (or a pointer to it), as fmt prints the
// Go value: each field with its type's methods. It reports false when x
// is a formatter of the value's own methods, or not a struct.
func (v *TemplateValue) printFields(s fmt.State, verb rune, x any) bool {
	rv := reflect.ValueOf(x)
	if v.field == nil || !rv.IsValid() || rv.Type() != v.val.Type() && rv.Type() != reflect.PointerTo(v.val.Type()) ||
		v.val.Kind() != reflect.Struct {
		return false
	}
	if rv.Kind() == reflect.Pointer {
		io.WriteString(s, "&")
	}
	io.WriteString(s, "{")
	format := fmt.FormatString(s, verb)
	for i := range v.val.NumField() {
		if i > 0 {
			io.WriteString(s, " ")
		}
		name := v.val.Type().Field(i).Name
		hidden := false
		for _, h := range v.hidden {
			if "X"+h == name {
				name, hidden = h, true
			}
		}
		if s.Flag('+') {
			io.WriteString(s, name+":")
		}
		if !hidden {
			if f, ok := v.field(name); ok {
				if fv, ok := f.(reflect.Value); !ok || fv.IsValid() && fv.CanInterface() {
					if ok {
						f = fv.Interface()
					}
					fmt.Fprintf(s, format, f)
					continue
				}
			}
		}
		fmt.Fprintf(s, format, v.val.Field(i).Interface())
	}
	io.WriteString(s, "}")
	return true
}

// String returns what fmt prints for the value with %v: a template
// prints a value that is a fmt.Stringer (or an error) through fmt, which
// calls Format.
func (v *TemplateValue) String() string { return fmt.Sprint(v) }

// MarshalJSON writes the value for html/template's JavaScript contexts
// as encoding/json writes the interpreter's value: as Go does for a type
// whose fields are exported, with no methods of json's. A struct with
// unexported fields is an error, which the template writes in a comment:
// the interpreter's struct would show them.
func (v *TemplateValue) MarshalJSON() ([]byte, error) {
	if len(v.hidden) > 0 {
		return nil, fmt.Errorf("a template cannot write %s, a type declared in a cell with unexported fields, as JSON: pass a struct of exported fields or a map", v.typ)
	}
	return json.Marshal(v.value().Interface())
}

// actionValue is a view for a template's action to print, as the
// pointer to the value when ptr: a struct, which the template does not
// follow as it follows a pointer to the struct it points to.
type actionValue struct {
	v   *TemplateValue
	ptr bool
}

func (a actionValue) Format(s fmt.State, verb rune) { a.v.formatAs(s, verb, a.ptr) }
func (a actionValue) String() string                { return fmt.Sprint(a) }
func (a actionValue) MarshalJSON() ([]byte, error)  { return a.v.MarshalJSON() }

// name returns the type's name as a template's error says it.
func (v *TemplateValue) name() string {
	if v.static != "" {
		return v.static
	}
	if v.viaPtr && !v.isNil {
		return "*" + v.typ
	}
	return v.typ
}

// value returns the interpreter's value that the view stands for.
func (v *TemplateValue) value() reflect.Value {
	if v.isNil || v.viaPtr {
		return reflect.ValueOf(v.ptr)
	}
	if v.addr {
		return v.val
	}
	return v.val.Convert(v.val.Type()) // a copy, not addressable
}

// truth is the value's truth in if, with, and, or and not.
func (v *TemplateValue) truth() bool {
	if v.isNil {
		return false
	}
	if v.viaPtr {
		return true
	}
	t, _ := template.IsTrue(v.val.Interface())
	return t
}

// A templateError is an error of reading a field or calling a method in
// a rewritten template, with the text of the template's node.
type templateError struct {
	node string
	loc  string // the node's location, where it is not the call's
	err  error
}

func (e *templateError) Error() string { return e.err.Error() }
func (e *templateError) Unwrap() error { return e.err }

var (
	viewType         = reflect.TypeFor[*TemplateValue]()
	falseViewType    = reflect.TypeFor[falseView]()
	errorType        = reflect.TypeFor[error]()
	reflectValueType = reflect.TypeFor[reflect.Value]()
)

// view returns the view x holds, or nil.
func view(x reflect.Value) *TemplateValue {
	for x.IsValid() && x.Kind() == reflect.Interface && !x.IsNil() {
		x = x.Elem()
	}
	if !x.IsValid() {
		return nil
	}
	switch x.Type() {
	case viewType:
		return x.Interface().(*TemplateValue)
	case falseViewType:
		return x.Interface().(falseView).view()
	}
	return nil
}

// templateFuncs are the functions of a rewritten template; missingKey is
// the template's missingkey option (0 default, 1 zero, 2 error).
func templateFuncs(missingKey int64, html bool) map[string]any {
	return map[string]any{
		"_gtf": func(node string, recv reflect.Value, path string, args ...reflect.Value) (reflect.Value, error) {
			v, err := evalPath(recv, strings.Split(path, "."), args, missingKey)
			var at *atError
			if errors.As(err, &at) {
				return reflect.Value{}, &templateError{at.node, at.loc, at.err}
			}
			if err != nil {
				return reflect.Value{}, &templateError{node, "", err}
			}
			return v, nil
		},
		"_gtc": func(i int) reflect.Value {
			c, _ := constArgs.Load(i)
			return reflect.ValueOf(c)
		},
		"_gtr": func(x reflect.Value) reflect.Value {
			if v := view(x); v != nil {
				if v.elems != nil && !v.isNil && !v.val.CanInt() && !v.val.CanUint() {
					return reflect.ValueOf(v.elems())
				}
				return v.value()
			}
			return x
		},
		"_gti": func(x reflect.Value) reflect.Value {
			v := view(x)
			if v == nil {
				return x
			}
			if v.elems != nil && !v.isNil {
				return reflect.ValueOf(v.elems())
			}
			switch v.val.Kind() {
			case reflect.Slice, reflect.Array, reflect.Map, reflect.Chan, reflect.Func,
				reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				return v.value()
			}
			// The template says it cannot range over the value, which
			// it prints.
			return reflect.ValueOf(actionValue{v, false})
		},
		"_gtu": func(x reflect.Value) reflect.Value {
			if v := view(x); v != nil {
				return v.value()
			}
			return x
		},
		"_gtp": func(x reflect.Value) reflect.Value {
			if v := view(x); v != nil {
				// text/template prints the value a pointer points to,
				// and an addressable value with its pointer's String
				// or Error method; html/template's escapers follow a
				// pointer to a value that is not a fmt.Stringer or an
				// error.
				ptr := (v.viaPtr || v.addr) && v.ptrPrint
				if html {
					ptr = v.viaPtr && v.ptrPrint
				}
				return reflect.ValueOf(actionValue{v, ptr})
			}
			return x
		},
	}
}

// evalPath reads the fields or calls the methods names of recv in turn,
// the last with args, as a template's .A.B.C does.
func evalPath(recv reflect.Value, names []string, args []reflect.Value, missingKey int64) (reflect.Value, error) {
	for i, name := range names {
		var a []reflect.Value
		if i == len(names)-1 {
			a = args
		}
		var err error
		recv, err = evalField(recv, name, a, i == len(names)-1, missingKey)
		if err != nil {
			return reflect.Value{}, err
		}
		for recv.IsValid() && recv.Type() == reflectValueType {
			recv = recv.Interface().(reflect.Value)
		}
	}
	return recv, nil
}

// evalField is text/template's evaluation of a field or method name of
// receiver, with the views of a cell's values.
func evalField(receiver reflect.Value, name string, args []reflect.Value, last bool, missingKey int64) (reflect.Value, error) {
	hasArgs := len(args) > 0
	if v := view(receiver); v != nil {
		if v.isNil {
			return reflect.Value{}, fmt.Errorf("nil pointer evaluating %s.%s", v.name(), name)
		}
		if v.method != nil {
			m, err := recovered(func() any { return v.method(name) })
			if _, isNil := m.(nilEmbedded); isNil {
				err = nilDereference{}
			}
			if err != nil {
				// A method promoted through a nil embedded pointer.
				return reflect.Value{}, fmt.Errorf("error calling %s: %w", name, err)
			}
			if m != nil {
				return callFunc(name, reflect.ValueOf(m), args)
			}
		}
		if v.field != nil {
			var ok bool
			f, err := recovered(func() any {
				f, found := v.field(name)
				ok = found
				return f
			})
			if err != nil {
				return reflect.Value{}, err
			}
			if e, isNil := f.(nilEmbedded); isNil {
				return reflect.Value{}, fmt.Errorf("reflect: indirection through nil pointer to embedded struct field %s", string(e))
			}
			if ok {
				if hasArgs {
					return reflect.Value{}, fmt.Errorf("%s has arguments but cannot be invoked as function", name)
				}
				if fv, ok := f.(reflect.Value); ok {
					return fv, nil
				}
				return reflect.ValueOf(f), nil
			}
		}
		for _, h := range v.hidden {
			if h == name {
				return reflect.Value{}, fmt.Errorf("%s is an unexported field of struct type %s", name, v.name())
			}
		}
		if v.val.Kind() == reflect.Map && reflect.TypeFor[string]().AssignableTo(v.val.Type().Key()) {
			// A key of a map type with methods.
			m := v.value()
			if v.elems != nil {
				m = reflect.ValueOf(v.elems())
			}
			return evalField(m, name, args, last, missingKey)
		}
		return reflect.Value{}, fmt.Errorf("can't evaluate field %s in type %s", name, v.name())
	}
	if !receiver.IsValid() {
		if missingKey == 2 {
			return reflect.Value{}, fmt.Errorf("nil data; no entry for key %q", name)
		}
		return reflect.Value{}, nil
	}
	typ := receiver.Type()
	receiver, isNil := indirect(receiver)
	if receiver.Kind() == reflect.Interface && isNil {
		return reflect.Value{}, fmt.Errorf("nil pointer evaluating %s.%s", typ, name)
	}
	ptr := receiver
	if ptr.Kind() != reflect.Interface && ptr.Kind() != reflect.Pointer && ptr.CanAddr() {
		ptr = ptr.Addr()
	}
	if method := ptr.MethodByName(name); method.IsValid() {
		return callFunc(name, method, args)
	}
	switch receiver.Kind() {
	case reflect.Struct:
		tField, ok := receiver.Type().FieldByName(name)
		if ok {
			field, err := receiver.FieldByIndexErr(tField.Index)
			if !tField.IsExported() {
				return reflect.Value{}, fmt.Errorf("%s is an unexported field of struct type %s", name, typ)
			}
			if err != nil {
				return reflect.Value{}, err
			}
			if hasArgs {
				return reflect.Value{}, fmt.Errorf("%s has arguments but cannot be invoked as function", name)
			}
			return field, nil
		}
	case reflect.Map:
		nameVal := reflect.ValueOf(name)
		if nameVal.Type().AssignableTo(receiver.Type().Key()) {
			if hasArgs {
				return reflect.Value{}, fmt.Errorf("%s is not a method but has arguments", name)
			}
			result := receiver.MapIndex(nameVal)
			if !result.IsValid() {
				switch missingKey {
				case 1:
					result = reflect.Zero(receiver.Type().Elem())
				case 2:
					return reflect.Value{}, fmt.Errorf("map has no entry for key %q", name)
				}
			}
			return result, nil
		}
	case reflect.Pointer:
		etyp := receiver.Type().Elem()
		if etyp.Kind() == reflect.Struct {
			if _, ok := etyp.FieldByName(name); !ok {
				break
			}
		}
		if isNil {
			return reflect.Value{}, fmt.Errorf("nil pointer evaluating %s.%s", typ, name)
		}
	}
	return reflect.Value{}, fmt.Errorf("can't evaluate field %s in type %s", name, typ)
}

// recovered returns f's result, or its panic as an error.
func recovered(f func() any) (x any, err error) {
	defer func() {
		if r := recover(); r != nil {
			r = Unwrap(r)
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("%v", r)
			}
		}
	}()
	return f(), nil
}

// indirect is text/template's: the value after pointers and interfaces,
// and whether one of them was nil.
func indirect(v reflect.Value) (rv reflect.Value, isNil bool) {
	for ; v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface; v = v.Elem() {
		if v.IsNil() {
			return v, true
		}
	}
	return v, false
}

// callFunc calls the method fn (named name) with args as a template
// calls a method: it checks the count, converts the arguments to the
// parameters' types and turns a panic or a non-nil error result into an
// error.
func callFunc(name string, fn reflect.Value, args []reflect.Value) (reflect.Value, error) {
	typ := fn.Type()
	numIn := len(args)
	numFixed := numIn
	if typ.IsVariadic() {
		numFixed = typ.NumIn() - 1
		if numIn < numFixed {
			return reflect.Value{}, fmt.Errorf("wrong number of args for %s: want at least %d got %d", name, typ.NumIn()-1, numIn)
		}
	} else if numIn != typ.NumIn() {
		return reflect.Value{}, fmt.Errorf("wrong number of args for %s: want %d got %d", name, typ.NumIn(), numIn)
	}
	switch n := typ.NumOut(); {
	case n == 1:
	case n == 2 && typ.Out(1) == errorType:
	case n == 2:
		return reflect.Value{}, fmt.Errorf("invalid function signature for %s: second return value should be error; is %s", name, typ.Out(1))
	default:
		return reflect.Value{}, fmt.Errorf("function %s has %d return values; should be 1 or 2", name, n)
	}
	argv := make([]reflect.Value, numIn)
	for i, a := range args {
		var t reflect.Type
		if i < numFixed {
			t = typ.In(i)
		} else {
			t = typ.In(typ.NumIn() - 1).Elem()
		}
		v, err := convertArg(a, t)
		if err != nil {
			return reflect.Value{}, err
		}
		argv[i] = v
	}
	v, err := safeCall(fn, argv)
	if err != nil {
		return reflect.Value{}, fmt.Errorf("error calling %s: %w", name, err)
	}
	for v.IsValid() && v.Type() == reflectValueType {
		v = v.Interface().(reflect.Value)
	}
	return v, nil
}

// convertArg converts an argument of a method to its parameter's type t
// as a template's evalArg does: a constant of the template's text (see
// constArg) as the template converts a constant, a value as its
// validateType does.
func convertArg(a reflect.Value, t reflect.Type) (reflect.Value, error) {
	if a.IsValid() && a.Type() == constArgType {
		return a.Interface().(*constArg).value(t)
	}
	if v := view(a); v != nil {
		a = v.value()
	}
	for a.IsValid() && a.Kind() == reflect.Interface && !a.IsNil() && !a.Type().AssignableTo(t) {
		a = a.Elem()
	}
	if !a.IsValid() || a.Kind() == reflect.Interface && a.IsNil() && !a.Type().AssignableTo(t) {
		switch t.Kind() {
		case reflect.Chan, reflect.Func, reflect.Interface, reflect.Map, reflect.Pointer, reflect.Slice:
			return reflect.Zero(t), nil
		}
		return reflect.Value{}, fmt.Errorf("invalid value; expected %s", t)
	}
	if a.Type().AssignableTo(t) {
		return a, nil
	}
	switch {
	case a.Kind() == reflect.Pointer && a.Type().Elem().AssignableTo(t):
		if a.IsNil() {
			return reflect.Value{}, fmt.Errorf("dereference of nil pointer of type %s", t)
		}
		return a.Elem(), nil
	case reflect.PointerTo(a.Type()).AssignableTo(t) && a.CanAddr():
		return a.Addr(), nil
	}
	return reflect.Value{}, fmt.Errorf("wrong type for value; expected %s; got %s", t, a.Type())
}

// A constArg is a constant of a template's text that a rewritten
// template passes to a method through _gtf: nil, a bool, a number or a
// string, which the template converts to the parameter's type (a
// function of ...reflect.Value parameters would get 1.5 for an int).
type constArg struct {
	node parse.Node
	loc  string // where the template says an error of it is
}

var constArgType = reflect.TypeFor[*constArg]()

// constArgs holds the constants of rewritten templates by index (an
// int), nconst counts them.
var (
	constArgs sync.Map
	nconst    int
)

// value converts the constant to type typ as text/template's evalArg
// does, or returns its error, at the constant.
func (c *constArg) value(typ reflect.Type) (reflect.Value, error) {
	fail := func(format string, args ...any) (reflect.Value, error) {
		return reflect.Value{}, &atError{loc: c.loc, node: c.node.String(), err: fmt.Errorf(format, args...)}
	}
	num, isNum := c.node.(*parse.NumberNode)
	out := reflect.New(typ).Elem()
	switch n := c.node.(type) {
	case *parse.NilNode:
		switch typ.Kind() {
		case reflect.Chan, reflect.Func, reflect.Interface, reflect.Map, reflect.Pointer, reflect.Slice:
			return reflect.Zero(typ), nil
		case reflect.Struct:
			if typ == reflectValueType {
				return reflect.Zero(typ), nil
			}
		}
		return fail("cannot assign nil to %s", typ)
	case *parse.BoolNode:
		if typ.Kind() == reflect.Bool {
			out.SetBool(n.True)
			return out, nil
		}
	case *parse.StringNode:
		if typ.Kind() == reflect.String {
			out.SetString(n.Text)
			return out, nil
		}
	}
	switch typ.Kind() {
	case reflect.Bool:
		return fail("expected bool; found %s", c.node)
	case reflect.Complex64, reflect.Complex128:
		if isNum && num.IsComplex {
			out.SetComplex(num.Complex128)
			return out, nil
		}
		return fail("expected complex; found %s", c.node)
	case reflect.Float32, reflect.Float64:
		if isNum && num.IsFloat {
			out.SetFloat(num.Float64)
			return out, nil
		}
		return fail("expected float; found %s", c.node)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if isNum && num.IsInt {
			out.SetInt(num.Int64)
			return out, nil
		}
		return fail("expected integer; found %s", c.node)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if isNum && num.IsUint {
			out.SetUint(num.Uint64)
			return out, nil
		}
		return fail("expected unsigned integer; found %s", c.node)
	case reflect.String:
		return fail("expected string; found %s", c.node)
	case reflect.Interface, reflect.Struct:
		if typ.Kind() == reflect.Interface && typ.NumMethod() > 0 || typ.Kind() == reflect.Struct && typ != reflectValueType {
			break
		}
		var v reflect.Value
		switch n := c.node.(type) {
		case *parse.BoolNode:
			v = reflect.ValueOf(n.True)
		case *parse.StringNode:
			v = reflect.ValueOf(n.Text)
		case *parse.NumberNode:
			switch {
			case n.IsComplex:
				v = reflect.ValueOf(n.Complex128)
			case n.IsFloat && !isHexInt(n.Text) && !isRuneInt(n.Text) && strings.ContainsAny(n.Text, ".eEpP"):
				v = reflect.ValueOf(n.Float64)
			case n.IsInt:
				i := int(n.Int64)
				if int64(i) != n.Int64 {
					return fail("%s overflows int", n.Text)
				}
				v = reflect.ValueOf(i)
			case n.IsUint:
				return fail("%s overflows int", n.Text)
			}
		}
		if typ == reflectValueType {
			return reflect.ValueOf(v), nil
		}
		return v, nil
	}
	return fail("can't handle %s for arg of type %s", c.node, typ)
}

func isRuneInt(s string) bool { return len(s) > 0 && s[0] == '\'' }

func isHexInt(s string) bool {
	return len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && !strings.ContainsAny(s, "pP")
}

// An atError is an error that a template reports at another node than
// the one it evaluated: a constant argument.
type atError struct {
	loc, node string
	err       error
}

func (e *atError) Error() string { return e.err.Error() }

// safeCall is text/template's: it calls fun, and turns a panic or an
// error result into an error.
func safeCall(fun reflect.Value, args []reflect.Value) (reflect.Value, error) {
	var ret []reflect.Value
	if _, err := recovered(func() any { ret = fun.Call(args); return nil }); err != nil {
		return reflect.Value{}, err
	}
	if len(ret) == 2 && !ret[1].IsNil() {
		return ret[0], ret[1].Interface().(error)
	}
	return ret[0], nil
}

// rewritten holds the roots of the trees TemplateExecute rewrote;
// rewriting holds the lock while it rewrites.
var (
	rewritten sync.Map
	rewriting sync.Mutex
)

// TemplateExecute runs t.Execute(w, data), or t.ExecuteTemplate(w,
// name, data) when named, for t a *text/template.Template or a
// *html/template.Template. When data may hold views of a cell's values
// (see TemplateView), it first rewrites the trees of t's templates so
// that they understand views; in any case it gives t the functions of
// rewritten trees, which t may share with a template rewritten before
// (a Clone).
func TemplateExecute(t any, w io.Writer, name string, named, views bool, data any) error {
	var err error
	switch t := t.(type) {
	case *template.Template:
		if t != nil {
			t.Funcs(templateFuncs(missingKey(reflect.ValueOf(t)), false))
			if views {
				rewriteTrees(t, false)
			}
		}
		if named {
			err = t.ExecuteTemplate(w, name, data)
		} else {
			err = t.Execute(w, data)
		}
	case *htemplate.Template:
		if t != nil {
			text := reflect.ValueOf(t).Elem().FieldByName("text")
			t.Funcs(templateFuncs(missingKey(text), true))
			if !views {
				// The trees as they are, and the functions of those
				// rewritten before.
			} else if text.IsValid() && text.Type() == reflect.TypeFor[*template.Template]() && text.CanAddr() {
				// The text template holds the templates that
				// escaping copied for the contexts they are called
				// in, besides the others.
				rewriteTrees(*(**template.Template)(unsafe.Pointer(text.UnsafeAddr())), true)
			} else {
				rewriting.Lock()
				for _, x := range t.Templates() {
					rewriteTree(x.Tree, true)
				}
				rewriting.Unlock()
			}
		}
		if named {
			err = t.ExecuteTemplate(w, name, data)
		} else {
			err = t.Execute(w, data)
		}
	default:
		return fmt.Errorf("TemplateExecute: %T is not a template", t)
	}
	return fixTemplateError(err)
}

// rewriteTrees rewrites the trees of t's templates (see rewriteTree).
func rewriteTrees(t *template.Template, html bool) {
	if t == nil {
		return
	}
	rewriting.Lock()
	defer rewriting.Unlock()
	for _, x := range t.Templates() {
		rewriteTree(x.Tree, html)
	}
}

// missingKey reads the missingkey option of t, a *text/template.Template.
func missingKey(t reflect.Value) int64 {
	if t.Kind() != reflect.Pointer || t.IsNil() {
		return 0
	}
	f := t.Elem().FieldByName("option")
	if !f.IsValid() {
		return 0
	}
	if k := f.FieldByName("missingKey"); k.IsValid() && k.CanInt() {
		return k.Int()
	}
	return 0
}

// fixTemplateError says in an error of a rewritten template what the
// template package says of the original: "at <.Final>: error calling
// Final: ..." where the rewritten node failed in a call of _gtf, and the
// original text of a rewritten node elsewhere (see contexts).
func fixTemplateError(err error) error {
	var ee template.ExecError
	if err == nil || !errors.As(err, &ee) {
		return err
	}
	msg := ee.Err.Error()
	var te *templateError
	if errors.As(err, &te) {
		i := strings.LastIndex(msg, ": error calling _gtf: ")
		j := strings.LastIndex(msg[:max(i, 0)], " at <")
		if i >= 0 && j >= 0 {
			msg = msg[:j] + " at <" + te.node + ">: " + te.err.Error()
			if k := strings.Index(msg, ": executing "); te.loc != "" && k >= 0 && strings.HasPrefix(msg, "template: ") {
				msg = "template: " + te.loc + msg[k:]
			}
			return template.ExecError{Name: ee.Name, Err: &fixedError{msg, ee.Err}}
		}
	}
	i := strings.Index(msg, " at <")
	if i < 0 {
		return err
	}
	j := strings.Index(msg[i:], ">: ")
	if j < 0 {
		return err
	}
	ctx := msg[i+len(" at <") : i+j]
	orig, ok := contexts.Load(ctx)
	if !ok || orig.(string) == "" {
		return err
	}
	msg = msg[:i] + " at <" + orig.(string) + msg[i+j:]
	msg = strings.Replace(msg, ctx, orig.(string), 1) // "can't print {{.F}}"
	return template.ExecError{Name: ee.Name, Err: &fixedError{msg, ee.Err}}
}

// contexts maps the text of rewritten nodes, as a template's error says
// it, to the original's; "" where two originals differ.
var contexts sync.Map

// record notes the text of a rewritten node and of its original.
func record(rewritten, orig string) {
	if rewritten == orig {
		return
	}
	if old, loaded := contexts.LoadOrStore(rewritten, orig); loaded && old.(string) != orig {
		contexts.Store(rewritten, "")
	}
}

// fixedError is an error with another message than the error it wraps.
type fixedError struct {
	msg string
	err error
}

func (e *fixedError) Error() string { return e.msg }
func (e *fixedError) Unwrap() error { return e.err }

// rewriteTree rewrites the nodes of a template's tree, once, so that
// they understand views:
//
//   - a field or method chain (.A.B x, $v.A, (p).A) becomes
//     _gtf "node" RECEIVER "A.B" x;
//   - the value of range goes through _gti (a view's elements);
//   - the arguments of len,
//     index and slice through _gtr (their first) and _gtu (a view's
//     value), those of other functions (eq, call, the template's own)
//     through _gtu, and so does the value a pipeline passes them;
//     print, printf, println, html, js, urlquery and html/template's
//     escapers take views, which fmt formats with their methods;
//   - an action that prints ends with _gtp, which prints a view as the
//     template package prints the value (through a pointer, with the
//     pointer's methods where it uses them).
func rewriteTree(t *parse.Tree, html bool) {
	if t == nil || t.Root == nil {
		return
	}
	if _, done := rewritten.LoadOrStore(t.Root, true); done {
		return
	}
	r := rewriter{html: html, tree: t}
	r.list(t.Root)
}

type rewriter struct {
	html bool
	tree *parse.Tree
}

func (r rewriter) list(l *parse.ListNode) {
	if l == nil {
		return
	}
	for _, n := range l.Nodes {
		r.node(n)
	}
}

func (r rewriter) node(n parse.Node) {
	switch n := n.(type) {
	case *parse.ActionNode:
		orig := n.String()
		r.pipe(n.Pipe)
		if len(n.Pipe.Decl) == 0 {
			r.appendCmd(n.Pipe, "_gtp")
		}
		record(n.String(), orig)
	case *parse.IfNode:
		r.branch(&n.BranchNode, "")
	case *parse.WithNode:
		r.branch(&n.BranchNode, "")
	case *parse.RangeNode:
		r.branch(&n.BranchNode, "_gti")
	case *parse.TemplateNode:
		r.pipe(n.Pipe)
	case *parse.ListNode:
		r.list(n)
	}
}

func (r rewriter) branch(b *parse.BranchNode, fn string) {
	var orig string
	if b.Pipe != nil && len(b.Pipe.Cmds) == 1 {
		orig = b.Pipe.Cmds[0].String()
	}
	r.pipe(b.Pipe)
	switch {
	case fn == "":
	case orig != "":
		// fn (cmd): an error of fn is at cmd's node, as the template
		// package says an error of range's value is.
		c := b.Pipe.Cmds[0]
		pos := c.Position()
		if len(c.Args) > 1 {
			if id, ok := c.Args[0].(*parse.IdentifierNode); ok && id.Ident == "_gtf" {
				pos = c.Args[1].Position()
				orig = c.Args[1].(*parse.StringNode).Text
			}
		}
		w := command(pos, ident(fn, pos), pipeOf(pos, c))
		b.Pipe.Cmds[0] = w
		record(w.String(), orig)
	default:
		r.appendCmd(b.Pipe, fn)
	}
	r.list(b.List)
	r.list(b.ElseList)
}

// appendCmd appends a call of fn to pipe: it gets the pipeline's value.
func (r rewriter) appendCmd(p *parse.PipeNode, fn string) {
	if p == nil || len(p.Cmds) == 0 {
		return
	}
	p.Cmds = append(p.Cmds, command(p.Position(), ident(fn, p.Position())))
}

func ident(name string, pos parse.Pos) *parse.IdentifierNode {
	return parse.NewIdentifier(name).SetPos(pos)
}

func command(pos parse.Pos, args ...parse.Node) *parse.CommandNode {
	return &parse.CommandNode{NodeType: parse.NodeCommand, Pos: pos, Args: args}
}

func pipeOf(pos parse.Pos, cmd *parse.CommandNode) *parse.PipeNode {
	return &parse.PipeNode{NodeType: parse.NodePipe, Pos: pos, Cmds: []*parse.CommandNode{cmd}}
}

func str(s string, pos parse.Pos) *parse.StringNode {
	return &parse.StringNode{NodeType: parse.NodeString, Pos: pos, Quoted: strconv.Quote(s), Text: s}
}

// pipe rewrites the commands of p.
func (r rewriter) pipe(p *parse.PipeNode) {
	if p == nil {
		return
	}
	var cmds []*parse.CommandNode
	for i, c := range p.Cmds {
		if wrap := r.command(c); wrap != "" && i > 0 {
			// The value the pipeline passes to a function.
			cmds = append(cmds, command(c.Position(), ident(wrap, c.Position())))
		}
		cmds = append(cmds, c)
	}
	p.Cmds = cmds
}

// argMode returns what a function's arguments go through: the function
// for the argument at i.
func (r rewriter) argMode(fn string, i int) string {
	switch fn {
	case "print", "printf", "println", "html", "js", "urlquery", "and", "or", "not", "_gtf", "_gti", "_gtr", "_gtu", "_gtp":
		return ""
	case "len", "index", "slice":
		if i == 0 {
			return "_gtr"
		}
		return "_gtu"
	}
	if strings.HasPrefix(fn, "_html_template_") || strings.HasPrefix(fn, "_eval_args_") {
		return ""
	}
	return "_gtu"
}

// command rewrites c, and returns the function the value a pipeline
// passes to c must go through, or "".
func (r rewriter) command(c *parse.CommandNode) string {
	if len(c.Args) == 0 {
		return ""
	}
	orig := c.String()
	defer func() { record(c.String(), orig) }()
	head, rest := c.Args[0], c.Args[1:]
	if recv, path, ok := chain(head); ok {
		at := head // where the template says an error is
		if ch, ok := head.(*parse.ChainNode); ok {
			at = ch.Node
		}
		c.Pos = at.Position()
		args := []parse.Node{ident("_gtf", at.Position()), str(at.String(), at.Position()), r.arg(recv, ""), str(path, at.Position())}
		for _, a := range rest {
			args = append(args, r.methodArg(a))
		}
		c.Args = args
		return ""
	}
	fn := ""
	if id, ok := head.(*parse.IdentifierNode); ok {
		fn = id.Ident
		if strings.HasPrefix(fn, "_gt") {
			return "" // rewritten already
		}
	} else {
		c.Args[0] = r.arg(head, "")
	}
	for i, a := range rest {
		mode := ""
		if fn != "" {
			mode = r.argMode(fn, i)
		}
		rest[i] = r.arg(a, mode)
	}
	if fn == "" {
		return ""
	}
	return r.argMode(fn, len(rest))
}

// methodArg rewrites an argument of a method: a constant goes through
// _gtc, which gives the method the constant (see constArg).
func (r rewriter) methodArg(n parse.Node) parse.Node {
	switch n.(type) {
	case *parse.NilNode, *parse.BoolNode, *parse.NumberNode, *parse.StringNode:
	default:
		return r.arg(n, "")
	}
	loc, _ := r.tree.ErrorContext(n)
	i := nconst // under rewriting's lock
	nconst++
	constArgs.Store(i, &constArg{n, loc})
	pos := n.Position()
	num := &parse.NumberNode{NodeType: parse.NodeNumber, Pos: pos, IsInt: true, Int64: int64(i), Text: strconv.Itoa(i)}
	return pipeOf(pos, command(pos, ident("_gtc", pos), num))
}

// chain returns the receiver and the names of a field or method chain.
func chain(n parse.Node) (recv parse.Node, path string, ok bool) {
	switch n := n.(type) {
	case *parse.FieldNode:
		return &parse.DotNode{NodeType: parse.NodeDot, Pos: n.Pos}, strings.Join(n.Ident, "."), true
	case *parse.ChainNode:
		return n.Node, strings.Join(n.Field, "."), true
	case *parse.VariableNode:
		if len(n.Ident) > 1 {
			v := &parse.VariableNode{NodeType: parse.NodeVariable, Pos: n.Pos, Ident: n.Ident[:1]}
			return v, strings.Join(n.Ident[1:], "."), true
		}
	}
	return nil, "", false
}

// arg rewrites an argument, and passes it through the function wrap
// when it is not "".
func (r rewriter) arg(n parse.Node, wrap string) parse.Node {
	pos := n.Position()
	switch a := n.(type) {
	case *parse.PipeNode:
		r.pipe(a)
	case *parse.FieldNode, *parse.ChainNode, *parse.VariableNode:
		if _, _, ok := chain(a); ok {
			c := command(pos, a)
			r.command(c)
			n = pipeOf(pos, c)
		}
	case *parse.DotNode, *parse.IdentifierNode:
	default:
		return n // a constant
	}
	if wrap == "" {
		return n
	}
	return pipeOf(pos, command(pos, ident(wrap, pos), n))
}
