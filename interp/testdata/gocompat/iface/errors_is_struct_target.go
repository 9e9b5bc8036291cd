// errors.Is with a comparable struct error value as its target, a
// literal of a cell's type made into an error in the call itself: at the
// top level, in a function, in a closure and through %w.
package main

import (
	"errors"
	"fmt"
	"io"
)

type HTTPError struct {
	Code int
	Msg  string
}

func (e HTTPError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Msg) }

type Temp float64

func (t Temp) Error() string { return fmt.Sprintf("too hot: %.1f", float64(t)) }

func fetch(code int) error {
	if code >= 400 {
		return fmt.Errorf("fetch: %w", HTTPError{code, "server"})
	}
	return nil
}

func retryable(err error) bool {
	return errors.Is(err, HTTPError{503, "server"}) || errors.Is(err, HTTPError{Code: 502, Msg: "server"})
}

func main() {
	err := fetch(500)
	fmt.Println(errors.Is(err, HTTPError{500, "server"}), errors.Is(err, HTTPError{404, "server"}))
	fmt.Println(retryable(fetch(503)), retryable(err), retryable(nil))
	check := func(code int) bool { return errors.Is(fetch(code), HTTPError{code, "server"}) }
	fmt.Println(check(418), check(200))
	joined := errors.Join(io.EOF, fmt.Errorf("temp: %w", Temp(41.5)))
	fmt.Println(errors.Is(joined, Temp(41.5)), errors.Is(joined, Temp(40)), errors.Is(joined, io.EOF))
	var he HTTPError
	fmt.Println(errors.As(err, &he), he.Code, errors.Unwrap(err) == HTTPError{500, "server"})
	for _, code := range []int{200, 500, 503} {
		if errors.Is(fetch(code), HTTPError{code, "server"}) {
			fmt.Println("code", code)
		}
	}
}
