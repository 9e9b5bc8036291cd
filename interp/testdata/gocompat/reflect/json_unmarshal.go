// json.Unmarshal into cell structs: tags, unexported fields (not
// filled), embedding, null, case-insensitive names, errors.
package main

import (
	"encoding/json"
	"fmt"
	"strings"
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
	err = json.Unmarshal([]byte(`{"sizes":null,"inner":null,"id":null,"ID":5,"extra":{"b":2}}`), &c)
	fmt.Println(err, c.ID, c.Sizes == nil, c.Inner == nil, c.Extra)
	pc := &Config{secret: 1}
	err = json.Unmarshal([]byte(`{"Name":"case","SECRET":3,"sizes":[3]}`), pc)
	fmt.Println(err, pc.Name, pc.secret, pc.Sizes)
	err = json.Unmarshal([]byte(`{"name":`), pc)
	fmt.Println(err)
}

func init() {
	dec := json.NewDecoder(strings.NewReader(`{"id":9,"name":"d","secret":1,"sizes":[1]} {"sizes":null} {"name":true}`))
	var c Config
	for range 3 {
		err := dec.Decode(&c)
		fmt.Println(err, c.ID, c.Name, c.secret, c.Sizes == nil)
	}
}
