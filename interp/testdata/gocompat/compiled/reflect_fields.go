// Compiled reflection on a cell's struct (reflect, encoding/gob): it
// sees the interpreter's struct, whose unexported field is exported with
// an X first; the cell warns at the call.
//
// gocompat: want-error "reflect.TypeOf, compiled code, gets a User: it sees the interpreter's struct of User: its unexported field secret would be written as Xsecret"
package main

import (
	"fmt"
	"reflect"
)

type User struct {
	Name   string
	secret int
}

func main() {
	t := reflect.TypeOf(User{"ann", 1})
	for i := range t.NumField() {
		fmt.Println(t.Field(i).Name, t.Field(i).IsExported())
	}
	fmt.Println(reflect.DeepEqual(User{"a", 1}, User{"a", 1}))
}
