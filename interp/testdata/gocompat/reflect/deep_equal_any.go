// reflect.DeepEqual of a cell's values inside interfaces compares their
// types and values as Go does: the interpreter's wrappers of two equal
// values are equal, a Celsius is not a float64.
package main

import (
	"fmt"
	"reflect"
)

type Celsius float64

type Temp float64

func (t Temp) String() string { return fmt.Sprintf("%.1f°", float64(t)) }

type Reading struct {
	Where string
	V     any
}

func main() {
	var x any = Celsius(1)
	fmt.Println(reflect.DeepEqual([]any{Celsius(1)}, []any{Celsius(1)}), reflect.DeepEqual(x, Celsius(1)), reflect.DeepEqual(x, 1.0))
	fmt.Println(reflect.DeepEqual(map[string]any{"t": Temp(2)}, map[string]any{"t": Temp(2)}))
	fmt.Println(reflect.DeepEqual(Reading{"a", Temp(3)}, Reading{"a", Temp(3)}), reflect.DeepEqual(Reading{"a", Temp(3)}, Reading{"a", 3.0}))
	fmt.Println(reflect.DeepEqual([]Temp{1}, []Temp{1}), reflect.DeepEqual(Temp(1), Celsius(1)), reflect.DeepEqual(nil, nil))
}
