// A value of a cell's type without methods, not a struct, kept by a
// compiled container comes back as the cell's type, told from its
// underlying type's values.
package main

import (
	"container/list"
	"fmt"
)

type Celsius float64

func main() {
	l := list.New()
	l.PushBack(Celsius(3))
	l.PushBack(2.5)
	for e := l.Front(); e != nil; e = e.Next() {
		switch e.Value.(type) {
		case Celsius:
			fmt.Println("Celsius")
		case float64:
			fmt.Println("float64")
		}
	}
}
