package cellrt

// A cellKey is a context key of a type declared in a cell: Go's name of
// the type and the interpreter's value (see ContextKey).
type cellKey struct {
	typ string
	v   any
}

// ContextKey returns the key that context.WithValue and Context.Value get
// for key, a value of a type declared in a cell named typ by Go ("main.ctxKey"),
// or, where typ is "", a value of an interface type whose Go type name
// typeOf (the session's, or nil) gives for a value of a cell's type and
// "" for any other. The interpreter hands compiled code a value of a cell's type ctxKey
// string as a bare string, and one of a struct type as a value of an
// unnamed struct type, so ctx.Value("run") found the value stored under
// ctxKey("run"): a key of a cell's type is its type's name and its value,
// which equals only the key of the same type and value, as Go compares
// keys. Any other key is returned as it is.
func ContextKey(key any, typ string, typeOf func(any) string) any {
	if key == nil {
		return nil
	}
	if typ == "" && typeOf != nil {
		typ = typeOf(key)
	}
	if typ == "" {
		return key
	}
	v, _ := dynamic(key)
	return cellKey{typ, v}
}
