// Struct values of cell types as errors: declared with an interface type,
// passed to compiled code, kept in slices and maps, asserted back, and
// found by errors.As (yaegi makes such a value into an error whose value
// is the struct's last field).
package main

import (
	"errors"
	"fmt"
)

type ParseError struct {
	Line int
	Msg  string
}

func (e ParseError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

func check(s string) error {
	if s == "" {
		var err error = ParseError{1, "empty"}
		return err
	}
	return nil
}

func main() {
	var e error = ParseError{3, "bad"}
	fmt.Println(e.Error())
	fmt.Println(e)
	errs := []error{ParseError{4, "x"}, errors.New("plain")}
	m := map[string]error{"k": ParseError{5, "y"}}
	fmt.Println(errs[0], errs[1], m["k"])
	if pe, ok := e.(ParseError); ok {
		fmt.Println("line", pe.Line)
	}
	wrapped := fmt.Errorf("reading: %w", check(""))
	fmt.Println(wrapped)
	var pe ParseError
	fmt.Println(errors.As(wrapped, &pe), pe.Msg)
	fmt.Println(errors.Join(e, errs[0]))
	ch := make(chan error, 1)
	ch <- ParseError{6, "z"}
	fmt.Println(<-ch)
}
