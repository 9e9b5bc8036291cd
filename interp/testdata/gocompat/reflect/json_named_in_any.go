// encoding/json of values of a cell's non-struct types with methods
// inside interfaces: compiled json was given the interpreter's wrapper
// and wrote {}; it writes the value.
package main

import (
	"encoding/json"
	"fmt"
)

type Temp float64

func (t Temp) Abs() Temp {
	if t < 0 {
		return -t
	}
	return t
}

type Temps []Temp

type Celsius float64

func main() {
	var x any = Temp(3)
	b, err := json.Marshal(x)
	fmt.Println(string(b), err)
	b, err = json.Marshal(map[string]any{"x": x, "ts": Temps{1, -2}, "c": Celsius(4), "list": []any{Temp(5), Celsius(6)}})
	fmt.Println(string(b), err)
}
