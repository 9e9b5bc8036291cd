// json in generic functions, instantiated with a cell's types.
package main

import (
	"encoding/json"
	"fmt"
)

type Item struct {
	Name   string `json:"name"`
	secret int
}

func Save[T any](v T) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

func Load[T any](s string) (T, error) {
	var v T
	err := json.Unmarshal([]byte(s), &v)
	return v, err
}

func main() {
	fmt.Println(Save(Item{"a", 1}))
	fmt.Println(Save([]Item{{"b", 2}}))
	it, err := Load[Item](`{"name":"c","secret":3}`)
	fmt.Println(it.Name, it.secret, err)
}
