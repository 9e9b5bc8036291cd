// Several type errors in one decoding: Go returns the first in the text,
// with its struct, field path and offset, whatever part of the value it
// is in.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
)

type Base struct {
	ID int `json:"id"`
}

type Item struct {
	Base
	Name   string `json:"name"`
	secret int
	Kids   []Item          `json:"kids"`
	ByKey  map[string]Item `json:"by_key"`
}

func show(err error) {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		fmt.Println(err, te.Offset)
		return
	}
	fmt.Println(err)
}

func main() {
	var it Item
	show(json.Unmarshal([]byte(`{"kids":[{"id":"x"}],"name":4}`), &it))
	show(json.Unmarshal([]byte(`{"name":4,"kids":[{"id":"x"}]}`), &it))
	show(json.Unmarshal([]byte(` [ {"kids":[{"name":true}, {"id":[]}]}, {"ID":"y"} ]`), &[]Item{}))
	show(json.Unmarshal([]byte(`{"KIDS":[1], "Name": {}}`), &it))
	show(json.Unmarshal([]byte(`{"by_key":{"a":{"id":"s"}},"id":"t"}`), &it))
}
