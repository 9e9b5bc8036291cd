// A value of a cell's struct error type that a function of an earlier
// cell panics with, recovered and asserted to error (err, _ :=
// r.(error)), is found by errors.As and errors.Is, and asserts back to
// its type, as is one asserted from any to error or fmt.Stringer; in a
// deferred call at the top level, in a function, a closure, a loop
// body, a goroutine, and a type switch.
package main

import (
	"errors"
	"fmt"
)

type E struct {
	Code int
	Msg  string
}

func (e E) Error() string { return fmt.Sprintf("E%d %s", e.Code, e.Msg) }

type PE struct{ Code int }

func (e *PE) Error() string { return fmt.Sprintf("PE%d", e.Code) }

type V struct{ A, B int }

func (v V) String() string { return fmt.Sprintf("V(%d,%d)", v.A, v.B) }

func f(code int) { panic(E{code, "boom"}) }

func g(code int) { panic(&PE{code}) }

// check recovers a panic of fn and tells what errors.As, errors.Is and
// assertions find in it.
func check(label string, fn func()) {
	defer func() {
		r := recover()
		err, ok := r.(error)
		var e E
		var pe *PE
		as := errors.As(err, &e)
		asp := errors.As(err, &pe)
		back, isE := err.(E)
		wrapped := fmt.Errorf("wrapped: %w", err)
		var e2 E
		fmt.Println(label+":", ok, err, as, e, asp, pe != nil, isE, back.Code,
			errors.As(wrapped, &e2), e2.Msg, errors.Is(err, E{1, "boom"}), errors.Is(wrapped, E{1, "boom"}))
	}()
	fn()
}

func inFunction() {
	check("function", func() { f(1) })
	check("pointer", func() { g(2) })
}

func main() {
	defer func() {
		r := recover()
		err, _ := r.(error)
		var e E
		fmt.Println("main deferred:", errors.As(err, &e), e.Code)
	}()
	inFunction()
	func() { check("closure", func() { f(1) }) }()
	for i := 0; i < 2; i++ {
		check(fmt.Sprint("loop", i), func() { f(i) })
	}
	done := make(chan bool)
	go func() {
		check("goroutine", func() { f(1) })
		done <- true
	}()
	<-done

	var x any = E{3, "any"}
	err := x.(error)
	var e E
	fmt.Println("any:", errors.As(err, &e), e, errors.Is(err, E{3, "any"}))
	var v any = V{1, 2}
	s := v.(fmt.Stringer)
	back, ok := s.(V)
	fmt.Println("stringer:", s, back, ok)
	switch t := x.(type) {
	case error:
		var e E
		fmt.Println("switch:", errors.As(t, &e), e.Msg)
	}
	f(9)
}
