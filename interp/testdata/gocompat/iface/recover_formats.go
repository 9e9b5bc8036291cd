// A deferred function that prints what recover returns, in a program
// whose types have String and Error methods (issue 20): split into cells,
// main's body runs at a cell's top level, where the deferred call ran
// while the interpreter held the cell's frame, and formatting the value
// called the session's fmt dispatch made in that frame: the cell hung.
package main

import (
	"fmt"
	"strconv"
)

type Celsius float64

func (c Celsius) String() string { return strconv.FormatFloat(float64(c), 'f', 1, 64) + "C" }

type ParseError struct{ Input string }

func (e ParseError) Error() string { return "cannot parse " + strconv.Quote(e.Input) }

func parse(s string) Celsius {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(ParseError{s})
	}
	return Celsius(f)
}

func main() {
	defer func() {
		r := recover()
		fmt.Println("recovered:", r)
		fmt.Printf("%T %v\n", r, r)
	}()
	fmt.Println(parse("21.5"))
	fmt.Println(parse("warm"))
}
