// A deferred call of a function literal kept in a variable that sets the
// function's named result: the interpreter would wait forever for the
// function's frame; the cell refuses it and says what to write instead.
//
// gocompat: want-error "defer wrap(...) of a function literal that sets the named result err"
package main

import (
	"errors"
	"fmt"
)

func load() (err error) {
	wrap := func() {
		if err != nil {
			err = fmt.Errorf("load: %w", err)
		}
	}
	defer wrap()
	return errors.New("missing")
}

func main() {
	fmt.Println(load())
}
