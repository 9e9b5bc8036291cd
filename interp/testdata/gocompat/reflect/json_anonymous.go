// Anonymous structs a cell writes with embedded or unexported fields,
// marshalled and filled as Go does (an alias of a type in its
// UnmarshalJSON method declared at the top level).
package main

import (
	"encoding/json"
	"fmt"
)

type Event struct {
	Name string `json:"name"`
	At   int64  `json:"-"`
}

type Inner struct{ A, B int }

type alias Event

func (e *Event) UnmarshalJSON(b []byte) error {
	aux := struct {
		*alias
		At int64 `json:"at"`
	}{alias: (*alias)(e)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	e.At = aux.At * 2
	return nil
}

func main() {
	var ev Event
	err := json.Unmarshal([]byte(`{"name":"a","at":60}`), &ev)
	fmt.Println(err, ev.Name, ev.At)
	v := struct {
		Inner
		C int
	}{Inner{1, 2}, 3}
	b, _ := json.Marshal(v)
	fmt.Println(string(b))
	b, _ = json.Marshal([]struct {
		Inner
		c int
	}{{Inner{1, 2}, 3}})
	fmt.Println(string(b))
}
