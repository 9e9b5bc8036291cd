// A slice of a cell's type with a String method, of an unnamed type,
// made into an interface: the interpreter cannot name it there, and fmt
// prints it as a []int; the cell warns where it is made into one.
//
// gocompat: want-error "a []Level made into an interface prints without the fmt methods of Level"
package main

import "fmt"

type Level int

func (l Level) String() string { return fmt.Sprintf("L%d", int(l)) }

func show(v any) { fmt.Println(v) }

func main() {
	show([]Level{1, 2})
}
