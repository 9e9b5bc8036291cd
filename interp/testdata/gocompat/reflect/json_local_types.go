// Types declared inside functions, marshalled and filled by json.
package main

import (
	"encoding/json"
	"fmt"
)

type Outer struct{ N int }

func main() {
	type row struct {
		A int `json:"a"`
		b int
		Outer
	}
	r := row{1, 2, Outer{3}}
	b, err := json.Marshal(r)
	fmt.Println(string(b), err)
	var back []row
	err = json.Unmarshal([]byte(`[{"a":5,"b":6,"N":7}]`), &back)
	fmt.Println(err, back[0].A, back[0].b, back[0].N)
	gen := func() {
		type local struct {
			X int
			y int
		}
		b, err := json.Marshal([]local{{1, 2}})
		fmt.Println(string(b), err)
	}
	gen()
}
