// Functions that assert to error and fmt.Stringer, or switch on them,
// declared before the types that implement them (issue 30, the noise):
// split into cells, each type's cell declares the functions again, so
// they take its values for what they are, with no warning.
package main

import (
	"errors"
	"fmt"
)

func safe(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("%v", r)
			}
		}
	}()
	f()
	return nil
}

func kind(v any) string {
	switch x := v.(type) {
	case error:
		return "error " + x.Error()
	case fmt.Stringer:
		return "stringer " + x.String()
	}
	return "other"
}

type ParseError struct{ Line int }

func (e ParseError) Error() string { return fmt.Sprint("line ", e.Line) }

type PtrError struct{ Code int }

func (e *PtrError) Error() string { return fmt.Sprint("code ", e.Code) }

type Code int

func (c Code) Error() string { return fmt.Sprint("status ", int(c)) }

type Name string

func (n Name) String() string { return "name " + string(n) }

type Unrelated struct{ N int }

func main() {
	fmt.Println(safe(func() { panic(ParseError{3}) }))
	fmt.Println(safe(func() { panic(&PtrError{4}) }))
	fmt.Println(safe(func() { panic(Code(5)) }))
	fmt.Println(safe(func() { panic("plain") }))
	fmt.Println(kind(ParseError{1}), kind(&PtrError{2}), kind(Code(3)), kind(Name("n")), kind(Unrelated{4}))
	fmt.Println(errors.Is(safe(func() { panic(Code(6)) }), Code(6)))
}
