package cellrt

import "reflect"

// ErrorsIs is errors.Is for cells: compiled errors.Is compares the
// interpreter's wrappers of errors declared in cells, which are not
// comparable (a panic) or not equal. It compares the values inside them.
// Is and Unwrap methods of compiled errors are followed; those of types
// declared in cells are not visible to compiled code.
func ErrorsIs(err, target error) bool {
	if err == nil || target == nil {
		return err == target
	}
	t := identity(target)
	found := false
	walk(err, func(e error) bool {
		if same(identity(e), t) {
			found = true
		} else if x, ok := e.(interface{ Is(error) bool }); ok && x.Is(target) {
			found = true
		}
		return found
	})
	return found
}

// ErrorsAs is errors.As for a target whose type a cell declared: match,
// an interpreted type assertion, is given each error of err's chain (the
// value inside the interpreter's wrapper) until it reports true.
func ErrorsAs(err error, match func(any) bool) bool {
	if err == nil {
		return false
	}
	found := false
	walk(err, func(e error) bool {
		found = match(identity(e))
		return found
	})
	return found
}

// Identity returns what an error handed to interpreted code by compiled
// code stands for: the value inside the interpreter's wrapper or inside
// Fmt's formatter (a cell's error wrapped by fmt.Errorf's %w comes back
// as one), else err. An interpreted type assertion on it sees the cell's
// type and its methods.
func Identity(err error) any { return identity(err) }

// walk calls f on err and the errors it wraps, depth first, until f
// reports true.
func walk(err error, f func(error) bool) bool {
	for err != nil {
		if f(err) {
			return true
		}
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			err = x.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range x.Unwrap() {
				if walk(e, f) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// identity returns what an error is: the value inside the interpreter's
// wrapper or inside Fmt's formatter, else the error.
func identity(err error) any {
	switch e := err.(type) {
	case *errorFormatter:
		return e.v
	}
	return Unwrap(err)
}

// same reports whether a and b are the same value, without panicking on
// values that are not comparable.
func same(a, b any) bool {
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta != tb || ta == nil || !ta.Comparable() {
		return false
	}
	return a == b
}
