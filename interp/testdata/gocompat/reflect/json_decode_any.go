// json.Unmarshal and Decode given a cell's value through an interface: a
// helper that takes v any, as notebooks write to load a file.
package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

type Base struct {
	ID int `json:"id"`
}

type Config struct {
	Base
	Name   string `json:"name"`
	secret int
	Tags   []string
}

type Plain struct{ A int }

func load(data string, v any) error {
	return json.Unmarshal([]byte(data), v)
}

func decode(data string, v any) error {
	return json.NewDecoder(strings.NewReader(data)).Decode(v)
}

func main() {
	var c Config
	err := load(`{"id":3,"name":"x","secret":5,"Tags":["a"]}`, &c)
	fmt.Println(err, c.ID, c.Name, c.secret, c.Tags)
	var cs []Config
	err = load(`[{"id":4}]`, &cs)
	fmt.Println(err, len(cs), cs[0].ID)
	var ps []*Config
	err = load(`[{"id":5},null]`, &ps)
	fmt.Println(err, len(ps), ps[0].ID, ps[1] == nil)
	byName := map[string]Config{}
	err = load(`{"a":{"id":6,"secret":1}}`, &byName)
	fmt.Println(err, byName["a"].ID, byName["a"].secret)
	var p Plain
	err = load(`{"A":7}`, &p)
	fmt.Println(err, p.A)
	var m map[string]any
	err = load(`{"k":[1,2]}`, &m)
	fmt.Println(err, m)
	var c2 Config
	err = decode(`{"id":9,"Base":{"id":1}}`, &c2)
	fmt.Println(err, c2.ID)
	err = load(`{"id":"s"}`, &c2)
	fmt.Println(err)
	err = load(`{}`, nil)
	fmt.Println(err)
}
