// Decoding errors of cell structs whose fields are all exported name the
// struct and the type as Go does.
package main

import (
	"encoding/json"
	"fmt"
)

type E struct{ A int }

type Shape struct {
	Name  string `json:"name"`
	Where E      `json:"where"`
	Any   any
}

func main() {
	var s []E
	fmt.Println(json.Unmarshal([]byte(`[{"A":"x"}]`), &s))
	fmt.Println(json.Unmarshal([]byte(`5`), &s))
	var e E
	fmt.Println(json.Unmarshal([]byte(`{"A":"x"}`), &e))
	var sh Shape
	fmt.Println(json.Unmarshal([]byte(`{"name":3,"where":{"A":true},"Any":{"k":[1]}}`), &sh), sh.Any)
	fmt.Println(json.Unmarshal([]byte(`{"where":[]}`), &sh))
}
