// A JSON object with one key twice: Go decodes both values into the field,
// the second merging into what the first filled.
package main

import (
	"encoding/json"
	"fmt"
)

type Inner struct {
	A, B   int
	secret int
}

type Outer struct {
	In   Inner            `json:"in"`
	M    map[string]Inner `json:"m"`
	P    *Inner           `json:"p"`
	L    []Inner          `json:"l"`
	note string
}

func main() {
	var o Outer
	err := json.Unmarshal([]byte(`{"in":{"A":1},"IN":{"B":2},"m":{"x":{"A":1}},"m":{"y":{"B":2}},"p":{"A":3},"p":{"B":4},"l":[{"A":5},{"A":6}],"l":[{"B":7}]}`), &o)
	fmt.Println(err, o.In, len(o.M), o.M["x"], o.M["y"], *o.P, o.L)
}
