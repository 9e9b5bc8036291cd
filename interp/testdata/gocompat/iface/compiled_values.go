// Values of compiled types inside interfaces are not taken for the cell's
// types that share their representation (a Temp float64 with a String
// method, a float64 decoded by encoding/json), and compiled Stringers
// stay Stringers.
package main

import (
	"encoding/json"
	"fmt"
	"time"
)

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1f°", float64(t)) }

type Shape interface{ Area() float64 }

type Sq struct{ S float64 }

func (s Sq) Area() float64 { return s.S * s.S }

func show(v any) string { return fmt.Sprint(v) }

func isStringer(v any) bool {
	_, ok := v.(fmt.Stringer)
	return ok
}

func isShape(v any) bool {
	_, ok := v.(Shape)
	return ok
}

func main() {
	var m map[string]any
	json.Unmarshal([]byte(`{"a":1.5}`), &m)
	fmt.Println(show(3.5), show(m["a"]), show(Temp(3.5)), show(time.Second))
	fmt.Println(isStringer(3.5), isStringer(m["a"]), isStringer(Temp(1)), isStringer(time.Second))
	fmt.Println(isShape(Sq{1}), isShape(1.0))
	vals := []any{1.5, Temp(1.5), time.Minute}
	fmt.Println(vals...)
}
