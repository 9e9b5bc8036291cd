// json.Marshal of a cell struct whose embedded structs have fields of one
// JSON name: Go keeps the shallower (or the tagged) one or drops both;
// the view does not follow those rules and the call is refused.
// gocompat: want-error "its embedded field A would not be flattened"
package main

import (
	"encoding/json"
	"fmt"
)

type A struct{ Name string }

type B struct {
	Name string
	N    int
}

type Both struct {
	A
	B
}

func main() {
	b, err := json.Marshal(Both{A{"a"}, B{"b", 2}})
	fmt.Println(string(b), err)
}
