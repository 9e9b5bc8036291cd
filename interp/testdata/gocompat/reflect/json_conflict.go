// json.Marshal and json.Unmarshal of cell structs whose embedded structs
// have fields of one JSON name: Go keeps the shallower one, or the tagged
// one at one depth, or drops both.
package main

import (
	"encoding/json"
	"fmt"
)

type A struct{ Name string }

type B struct {
	Name string
	N    int
}

type T struct {
	Name string `json:"N"`
}

type Both struct {
	A
	B
}

type Shallow struct {
	A
	Name string
}

type Tagged struct {
	B
	T
}

func main() {
	b, err := json.Marshal(Both{A{"a"}, B{"b", 2}})
	fmt.Println(string(b), err)
	b, err = json.Marshal(Shallow{A{"deep"}, "top"})
	fmt.Println(string(b), err)
	b, err = json.Marshal(Tagged{B{"b", 2}, T{"t"}})
	fmt.Println(string(b), err)
	var both Both
	err = json.Unmarshal([]byte(`{"Name":"x","N":3}`), &both)
	fmt.Println(err, both.A.Name == "", both.B.Name == "", both.N)
	var sh Shallow
	err = json.Unmarshal([]byte(`{"Name":"x"}`), &sh)
	fmt.Println(err, sh.Name, sh.A.Name == "")
	var tg Tagged
	err = json.Unmarshal([]byte(`{"Name":"b","N":"t"}`), &tg)
	fmt.Println(err, tg.B.Name, tg.T.Name, tg.B.N)
}
