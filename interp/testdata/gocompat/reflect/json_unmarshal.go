// json.Unmarshal into cell structs: tags, unexported fields, embedding.
// gocompat: want-error "its embedded field Base would not be flattened"
package main

import (
	"encoding/json"
	"fmt"
)

type Base struct {
	ID int `json:"id"`
}

type Inner struct {
	On bool
}

type Config struct {
	Base
	Name    string `json:"name"`
	secret  int
	Secret2 int            `json:"-"`
	Sizes   []int          `json:"sizes"`
	Inner   *Inner         `json:"inner"`
	Extra   map[string]int `json:"extra"`
}

func main() {
	var c Config
	err := json.Unmarshal([]byte(`{"id":4,"name":"n","secret":7,"Secret2":8,"sizes":[1,2],"inner":{"On":true},"extra":{"a":1}}`), &c)
	fmt.Println(err, c.ID, c.Name, c.secret, c.Secret2, c.Sizes, c.Inner.On, c.Extra)
	var list []Inner
	err = json.Unmarshal([]byte(`[{"On":true},{"on":false}]`), &list)
	fmt.Println(err, len(list), list[0].On, list[1].On)
	err = json.Unmarshal([]byte(`{"name":3}`), &c)
	fmt.Println(err)
}
