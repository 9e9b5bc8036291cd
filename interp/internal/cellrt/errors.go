package cellrt

import "reflect"

// ErrorsIs is errors.Is for cells: compiled errors.Is compares the
// interpreter's wrappers of errors declared in cells, which are not
// comparable (a panic) or not equal. It compares the values inside them.
// Is and Unwrap methods of compiled errors are followed; those of types
// declared in cells, which compiled code does not see, are followed by
// ErrorsIsWith.
func ErrorsIs(err, target error) bool { return ErrorsIsWith(err, target, nil) }

// ErrorsIsWith is ErrorsIs with the Unwrap and Is methods of the errors
// of types declared in cells that m gives.
func ErrorsIsWith(err, target error, m CellErrorMethods) bool {
	if err == nil || target == nil {
		return err == target
	}
	t := identity(target)
	found := false
	walkWith(err, m, func(e error) bool {
		if same(identity(e), t) {
			found = true
		} else if x, ok := e.(interface{ Is(error) bool }); ok && x.Is(target) {
			found = true
		} else if m != nil {
			if _, _, is := m(identity(e)); is != nil && is(target) {
				found = true
			}
		}
		return found
	})
	return found
}

// CellErrorMethods gives the Unwrap and Is methods of an error of a type
// declared in a cell, from its value: its type's Unwrap() error,
// Unwrap() []error and Is(error) bool methods, nil for those it lacks.
// The planner generates it as interpreted code, which sees the methods.
type CellErrorMethods = func(v any) (unwrap func() error, unwrapAll func() []error, is func(error) bool)

// ErrorsUnwrapWith is errors.Unwrap for cells: it also calls the Unwrap
// method of an error of a type declared in a cell, which m gives.
func ErrorsUnwrapWith(err error, m CellErrorMethods) error {
	if u, ok := err.(interface{ Unwrap() error }); ok {
		return u.Unwrap()
	}
	if err != nil && m != nil {
		if unwrap, _, _ := m(identity(err)); unwrap != nil {
			return unwrap()
		}
	}
	return nil
}

// ErrorsAs is errors.As for a target whose type a cell declared: match,
// an interpreted type assertion, is given each error of err's chain (the
// value inside the interpreter's wrapper) until it reports true. The
// chain follows the Unwrap methods of cells' errors that methods give
// (see CellErrorMethods).
func ErrorsAs(err error, match func(any) bool, methods ...CellErrorMethods) bool {
	if err == nil {
		return false
	}
	var m CellErrorMethods
	if len(methods) > 0 {
		m = methods[0]
	}
	found := false
	walkWith(err, m, func(e error) bool {
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
func walk(err error, f func(error) bool) bool { return walkWith(err, nil, f) }

// walkWith is walk that also follows the Unwrap methods of errors of
// types declared in cells, which m gives.
func walkWith(err error, m CellErrorMethods, f func(error) bool) bool {
	for err != nil {
		if f(err) {
			return true
		}
		var unwrap func() error
		var unwrapAll func() []error
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			unwrap = x.Unwrap
		case interface{ Unwrap() []error }:
			unwrapAll = x.Unwrap
		default:
			if m != nil {
				unwrap, unwrapAll, _ = m(identity(err))
			}
		}
		switch {
		case unwrap != nil:
			err = unwrap()
		case unwrapAll != nil:
			for _, e := range unwrapAll() {
				if walkWith(e, m, f) {
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
