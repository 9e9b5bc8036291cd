// encoding/json on a cell struct whose one field is an embedded struct:
// flattened, as Go does (yaegi marks such a field embedded).
package main

import (
	"encoding/json"
	"fmt"
)

type Inner struct {
	Timestamp int64 `json:"ts"`
	Label     string
}

type Outer struct {
	Inner
}

func main() {
	b, err := json.Marshal(&Outer{Inner{5, "x"}})
	fmt.Println(string(b), err)
	var o Outer
	err = json.Unmarshal([]byte(`{"ts":7,"Label":"y"}`), &o)
	fmt.Println(o.Timestamp, o.Label, err)
}
