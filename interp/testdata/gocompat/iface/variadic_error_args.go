// A cell's struct error among the variadic arguments of a compiled
// function whose parameter is an interface with methods (errors.Join's
// ...error) is converted to it, alone or with others, wherever the call
// is.
package main

import (
	"errors"
	"fmt"
)

type HTTPError struct {
	Code int
	Msg  string
}

func (e HTTPError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Msg) }

func main() {
	one := errors.Join(HTTPError{500, "server"})
	two := errors.Join(errors.New("other"), HTTPError{404, "missing"})
	fmt.Printf("%q %q\n", one.Error(), two.Error())
	var target HTTPError
	fmt.Println(errors.Is(two, HTTPError{404, "missing"}), errors.As(two, &target), target.Code)
	func() {
		defer func() {
			err := errors.Join(HTTPError{418, "teapot"}, errors.New("x"))
			fmt.Printf("deferred %q\n", err.Error())
		}()
	}()
}
