// Deferred closures in a loop with recover, the results named.
package main

import (
	"errors"
	"fmt"
)

func try(steps []string) (err error) {
	for i, s := range steps {
		defer func() {
			if r := recover(); r != nil {
				err = errors.Join(err, fmt.Errorf("step %d (%s): %v", i, s, r))
			}
		}()
	}
	panic("boom")
}

func main() {
	fmt.Println(try([]string{"load", "train"}))
}
