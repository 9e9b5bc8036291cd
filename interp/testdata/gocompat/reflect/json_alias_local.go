// The alias idiom with the alias declared inside the method: yaegi cannot
// select the fields of such a local type, and the cell says where to
// declare it.
// gocompat: want-error "declare alias at the top level of a cell, not in a function"
package main

import (
	"encoding/json"
	"fmt"
)

type Event struct {
	Name string `json:"name"`
	secs int
}

func (e *Event) UnmarshalJSON(b []byte) error {
	type alias Event
	aux := struct {
		*alias
		At int `json:"at"`
	}{alias: (*alias)(e)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	e.secs = aux.At
	return nil
}

func main() {
	var e Event
	err := json.Unmarshal([]byte(`{"name":"a","at":3}`), &e)
	fmt.Println(err, e.Name, e.secs)
}
