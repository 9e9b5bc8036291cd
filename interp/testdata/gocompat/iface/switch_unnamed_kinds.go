// Type switches and assertions to a cell's types that are not structs
// and have no methods (Celsius float64, Levels []int): the interpreter
// held their values in interfaces as their underlying types', so 3.5 was
// a Celsius, []int{1} a Levels, and a Celsius(2) in an any equal to a
// 2.0. Each cell type now carries a name in interfaces.
package main

import "fmt"

type Celsius float64

type Fahrenheit float64

type Levels []int

type Names map[string]bool

func kind(v any) string {
	switch v.(type) {
	case Celsius:
		return "Celsius"
	case Fahrenheit:
		return "Fahrenheit"
	case float64:
		return "float64"
	case Levels:
		return "Levels"
	case []int:
		return "[]int"
	case Names:
		return "Names"
	case map[string]bool:
		return "map[string]bool"
	}
	return "other"
}

func main() {
	for _, v := range []any{3.5, Celsius(1), Fahrenheit(2), []int{1}, Levels{2}, Names{}, map[string]bool{}} {
		fmt.Print(kind(v), " ")
	}
	fmt.Println()
	_, isC := any(2.5).(Celsius)
	_, isF := any(Celsius(1)).(float64)
	c, ok := any(Celsius(4)).(Celsius)
	fmt.Println(isC, isF, c, ok)
	fmt.Printf("%T %T %v\n", any(Celsius(1)), any(Levels{}), any(Levels{3}))
	var x, y, z any = Celsius(2), Fahrenheit(2), 2.0
	fmt.Println(x == z, x == y, x == any(Celsius(2)), z == any(2.0))
}
