// Values of a cell's named types inside interfaces print with the fmt
// methods of the types they hold: a Levels []Level, a type declared on a
// compiled named type (Ticks time.Duration has none of its methods).
package main

import (
	"fmt"
	"time"
)

type Level int

func (l Level) String() string { return fmt.Sprintf("L%d", int(l)) }

type Levels []Level

type ByName map[string]Level

type Ticks time.Duration

type Row struct {
	Name string
	V    any
}

func main() {
	var a any = Levels{1, 2}
	var b any = ByName{"x": 3}
	var t any = Ticks(5)
	fmt.Println(a, b, t)
	fmt.Println([]any{Ticks(5), Levels{1}, Level(2)})
	fmt.Printf("%v %+v\n", Row{"r", Levels{4}}, Row{"s", Ticks(6)})
	fmt.Println(map[string]any{"levels": Levels{7}})
}
