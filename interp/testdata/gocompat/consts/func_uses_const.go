// Functions use constants declared apart, typed and untyped, with iota.
package main

import "fmt"

const Width = 4

type Color int

const (
	Red Color = iota
	Green
	Blue
)

const greeting = "hi"

func area() int { return Width * Width }

func (c Color) String() string { return [...]string{"red", "green", "blue"}[c] }

func describe() string { return fmt.Sprint(greeting, " ", Blue, " ", area()) }

func main() {
	fmt.Println(area(), describe(), Green)
}
