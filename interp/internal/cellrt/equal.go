package cellrt

import (
	"reflect"
	"unsafe"
)

// Equal reports whether a == b, two values of interface type, as Go
// compares them: their dynamic types are identical and their values
// equal. The interpreter's == does otherwise for values of types declared
// in cells: each conversion of a cell's struct value to error is a new
// compiled error holding it (see Fmt), so two errors made from equal
// values were not equal. Equal compares the values inside such wrappers,
// and the interpreter's names of the types (see CellType): a value a
// wrapper names is not equal to one of the same reflect type it does not
// (a Celsius float64 and a float64), but for structs, whose reflect
// types are the interpreter's own. Like Go, it panics when the dynamic type is not comparable (the
// message names a cell's struct type by its fields where the value does
// not say its name).
func Equal(a, b any) bool {
	x, xt := dynamic(a)
	y, yt := dynamic(b)
	tx, ty := reflect.TypeOf(x), reflect.TypeOf(y)
	if xt != yt && (xt != "" && yt != "" || !structLike(tx)) {
		// Of two values that share a reflect type, one of a cell's type
		// and one the interpreter names not: a Celsius and a float64. A
		// cell's struct without methods is named by its reflect type.
		return false
	}
	if tx != ty {
		return false
	}
	if tx == nil {
		return true
	}
	if !tx.Comparable() {
		name := xt
		if name == "" {
			name = tx.String()
		}
		panic(&RuntimeError{"runtime error: comparing uncomparable type " + name})
	}
	return x == y
}

// structLike reports whether t is a struct type or a pointer to one.
func structLike(t reflect.Type) bool {
	if t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t != nil && t.Kind() == reflect.Struct
}

// dynamic returns the value that v holds as Go sees it, out of the
// interpreter's wrappers and Fmt's, and the interpreter's name of its type
// when v says it (a type declared in a cell), else "".
func dynamic(v any) (any, string) {
	name := ""
	for range 4 {
		switch x := v.(type) {
		case *errorFormatter:
			v, name = x.v, x.name
			continue
		case *formatter:
			v, name = x.v, x.name
			continue
		}
		if t := CellType(v); t != "" {
			name = t
			if inner, ok := valueInterfaceValue(v); ok {
				v = inner
				continue
			}
		}
		if !isWrapper(reflect.ValueOf(v)) {
			break
		}
		v = Unwrap(v)
	}
	return v, name
}

// valueInterfaceValue returns the value inside the interpreter's
// valueInterface (see CellType), whose field holding it is unexported.
func valueInterfaceValue(v any) (any, bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Struct || rv.NumField() < 2 || rv.Type().Field(1).Type != reflect.TypeFor[reflect.Value]() {
		return nil, false
	}
	c := reflect.New(rv.Type()).Elem()
	c.Set(rv)
	inner := *(*reflect.Value)(unsafe.Pointer(c.Field(1).UnsafeAddr()))
	if !inner.IsValid() || !inner.CanInterface() {
		return nil, false
	}
	return inner.Interface(), true
}

// Rewrap returns w, the interpreter's wrapper that gives compiled code a
// value of a struct type declared in a cell as a compiled interface (see
// Unwrap), holding v, the value itself: the interpreter's wrapper holds
// the struct's last field in its place, which Unwrap, Equal and errors.As
// would see. Any other w is returned as it is.
func Rewrap(w, v any) any {
	rv := reflect.ValueOf(w)
	if !isWrapper(rv) || v == nil {
		return w
	}
	c := reflect.New(rv.Type()).Elem()
	c.Set(rv)
	if f := c.Field(0); reflect.TypeOf(v).AssignableTo(f.Type()) {
		f.Set(reflect.ValueOf(v))
	}
	return c.Interface()
}

// isWrapper reports whether v is the interpreter's wrapper of a value with
// methods handed to compiled code (see Unwrap).
func isWrapper(v reflect.Value) bool {
	if v.Kind() != reflect.Struct {
		return false
	}
	t := v.Type()
	return t.NumField() > 0 && t.Field(0).Name == "IValue" && t.Field(0).Type.Kind() == reflect.Interface && t.Name() != "" && t.Name()[0] == '_'
}

// DeepEqual is reflect.DeepEqual for values that hold the interpreter's
// wrappers of a cell's values in interfaces (see CellType): each
// conversion of a value to an interface makes a wrapper of its own, so
// reflect.DeepEqual([]any{Celsius(1)}, []any{Celsius(1)}) compared two
// wrappers and was false. DeepEqual compares the values inside them, and
// their types' names, as Go compares the dynamic types and values.
func DeepEqual(a, b any) bool {
	return reflect.DeepEqual(named(a), named(b))
}

// namedValue stands for a cell's value in a wrapper, for DeepEqual: its
// type's name and the value.
type namedValue struct {
	Type  string
	Value any
}

// named returns v with each wrapper of a cell's value in it, in an
// interface, replaced by a namedValue (a copy where it changes).
func named(v any) any {
	f := func(x any) any {
		if t := CellType(x); t != "" {
			if inner, ok := valueInterfaceValue(x); ok {
				return namedValue{t, named(inner)}
			}
		}
		return x
	}
	if r, ok := fmtWalk(reflect.ValueOf(v), f, 0, true); ok {
		return r.Interface()
	}
	return v
}
