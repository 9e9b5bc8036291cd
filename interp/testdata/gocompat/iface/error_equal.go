// Comparing interface values with == and != (issue 20): errors made from
// equal struct values of a cell's type are equal, as in Go; pointers,
// compiled errors, values of other types and nil compare as Go compares
// them, and values of a type that is not comparable panic.
package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

type CodeError struct {
	Code int
	Op   string
}

func (e CodeError) Error() string { return fmt.Sprintf("%s: code %d", e.Op, e.Code) }

var ErrDenied error = CodeError{403, "open"}

type OtherError struct {
	Code int
	Op   string
}

func (e OtherError) Error() string { return "other" }

type MultiError struct{ Errs []error }

func (e MultiError) Error() string { return fmt.Sprint(len(e.Errs), " errors") }

type Bag struct{ Items []string }

type Point struct{ X, Y int }

func (p Point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

func open(name string) error {
	if name == "secret" {
		return CodeError{403, "open"}
	}
	return nil
}

func same(a, b any) bool { return a == b }

func main() {
	var a, b error = CodeError{1, "x"}, CodeError{1, "x"}
	fmt.Println(a == b, a != b)
	var c error = CodeError{2, "x"}
	fmt.Println(a == c, a != c, a == CodeError{1, "x"})
	err := open("secret")
	fmt.Println(err == ErrDenied, err != nil, open("public") == nil)
	if err == ErrDenied {
		fmt.Println("denied:", err)
	}
	fmt.Println(a == io.EOF, io.EOF == io.EOF, errors.New("e") == errors.New("e"))
	p := &CodeError{5, "p"}
	var p1, p2 error = p, p
	var p3, p4 error = &CodeError{5, "p"}, &CodeError{5, "p"}
	fmt.Println(p1 == p2, p1 == p3, p3 == p4, p3)
	fmt.Println(same(1, 1), same(1, int64(1)), same("a", "a"), same(nil, nil), same(CodeError{1, "x"}, a))
	var o error = OtherError{1, "x"}
	fmt.Println(a == o, o == OtherError{1, "x"})
	func() {
		defer func() { fmt.Println("recovered:", recover()) }()
		var m1, m2 error = MultiError{}, MultiError{}
		fmt.Println(m1 == m2)
	}()
	var s1, s2, s3 fmt.Stringer = Point{1, 2}, Point{1, 2}, Point{3, 2}
	fmt.Println(s1 == s2, s1 == s3, s1, s3)
	errs := []error{CodeError{1, "x"}, io.EOF}
	for i, e := range errs {
		fmt.Println(i, e == a, e == io.EOF)
	}
	defer func() {
		// The message names the type by its fields where Go names it
		// main.Bag: the value does not say its name.
		err := recover().(error)
		fmt.Println("recovered:", strings.HasPrefix(err.Error(), "runtime error: comparing uncomparable type"))
	}()
	fmt.Println(same(Bag{}, Bag{}))
}
