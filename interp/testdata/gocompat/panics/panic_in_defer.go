// A panic raised by a deferred function, while the function panics or
// returns, is caught by a recover in a function deferred before it: the
// new panic replaces the one under way, and the function returns.
package main

import (
	"errors"
	"fmt"
)

type cleanupError struct{ step string }

func (e *cleanupError) Error() string { return "cleanup failed at " + e.step }

func closeAll(fail bool) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	defer func() {
		if fail {
			panic(&cleanupError{"close"})
		}
	}()
	panic("first")
}

func returnsThenPanics() (n int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Println("caught", r)
			n = -1
		}
	}()
	defer func() { panic(fmt.Sprint("deferred ", n)) }()
	n = 7
	return n
}

func nested() (out []string) {
	defer func() { out = append(out, fmt.Sprint("outer ", recover())) }()
	defer func() { out = append(out, "middle") }()
	defer func() {
		defer func() { out = append(out, fmt.Sprint("inner ", recover())) }()
		panic("third")
	}()
	defer func() { panic("second") }()
	panic("first")
}

func kept() (msg string) {
	defer func() {
		r := recover()
		var ce *cleanupError
		if err, ok := r.(error); ok && errors.As(err, &ce) {
			msg = "as " + ce.step
		}
	}()
	defer func() { panic(&cleanupError{"flush"}) }()
	return "none"
}

func main() {
	fmt.Println(closeAll(true))
	fmt.Println(closeAll(false))
	fmt.Println(returnsThenPanics())
	fmt.Println(nested())
	fmt.Println(kept())
	for i := 0; i < 2; i++ {
		func() {
			defer func() { fmt.Println("loop", i, recover()) }()
			defer func() { panic(i * 10) }()
		}()
	}
}
