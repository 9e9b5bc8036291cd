// A type assertion and a type switch case of an interface declared in a
// cell that a compiled type implements (issue 20): the interpreter cannot
// hold a compiled value in such an interface (its own assertion said
// false), so the assertion panics with a message that says what to
// assert to instead. Cell types and values without the methods are
// tested as Go tests them.
//
// gocompat: want-error "time.Duration implements main.Labeler, an interface declared in a cell"
package main

import (
	"fmt"
	"time"
)

type Labeler interface{ String() string }

type Tag struct{ Name string }

func (t Tag) String() string { return "#" + t.Name }

func label(v any) string {
	switch x := v.(type) {
	case Labeler:
		return x.String()
	case int:
		return fmt.Sprint("int ", x)
	default:
		return "none"
	}
}

func main() {
	fmt.Println(label(Tag{"go"}), label(3), label(2.5))
	_, ok := any(4).(Labeler)
	fmt.Println(ok)
	l, ok := any(time.Second).(Labeler)
	fmt.Println(l, ok)
	fmt.Println(label(2 * time.Second))
}
