// errors.As into a target of a cell's interface type finds the first
// error of the chain whose type implements the interface (a cell's struct
// and pointer types, through %w, errors.Join and directly) and sets the
// target to it, and reports false, the target untouched, when none does.
// At the top level, in a function, a closure, a loop body, a goroutine
// and a deferred call.
package main

import (
	"errors"
	"fmt"
	"io"
)

type Coder interface{ Code() int }

type CodedError interface {
	error
	Code() int
}

type E struct{ N int }

func (e E) Error() string { return fmt.Sprint("e", e.N) }
func (e E) Code() int     { return e.N }

type P struct {
	N    int
	Note string
}

func (p *P) Error() string { return "p " + p.Note }
func (p *P) Code() int     { return p.N * 10 }

func find(tag string) {
	var c Coder
	fmt.Println(tag, errors.As(fmt.Errorf("w: %w", E{3}), &c), c.Code())
	var d Coder
	fmt.Println(tag, errors.As(errors.Join(io.EOF, &P{4, "d"}), &d), d.Code())
	var ce CodedError
	fmt.Println(tag, errors.As(fmt.Errorf("a: %w", fmt.Errorf("b: %w", &P{5, "ce"})), &ce), ce.Code(), ce.Error())
	var n Coder = E{9}
	fmt.Println(tag, errors.As(io.EOF, &n), n.Code())
	for i := range 2 {
		var l Coder
		ok := errors.As(fmt.Errorf("loop: %w", E{i}), &l)
		fmt.Println(tag, "loop", ok, l.Code())
	}
}

func main() {
	find("func")
	func() { find("closure") }()
	done := make(chan bool)
	go func() { find("goroutine"); done <- true }()
	<-done
	func() {
		defer find("deferred")
	}()
}
