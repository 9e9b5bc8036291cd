// json.Unmarshal into maps whose key type a cell declared with an
// UnmarshalText method, which makes each key, and json.Marshal of them
// with MarshalText.
package main

import (
	"encoding/json"
	"fmt"
	"strings"
)

type Color int

func (c Color) MarshalText() ([]byte, error) { return []byte([]string{"red", "green"}[c]), nil }

func (c *Color) UnmarshalText(b []byte) error {
	switch strings.ToLower(string(b)) {
	case "red":
		*c = 0
	case "green":
		*c = 1
	default:
		return fmt.Errorf("no color %q", b)
	}
	return nil
}

type Name string

func (n *Name) UnmarshalText(b []byte) error {
	*n = Name(strings.ToUpper(string(b)))
	return nil
}

type Stock struct {
	Count  int `json:"count"`
	secret int
}

func main() {
	var m map[Color]Stock
	err := json.Unmarshal([]byte(`{"red":{"count":1},"GREEN":{"count":2}}`), &m)
	fmt.Println(err, len(m), m[0].Count, m[1].Count)
	b, err := json.Marshal(m)
	fmt.Println(string(b), err)
	var byName map[Name]int
	err = json.Unmarshal([]byte(`{"ann":1}`), &byName)
	fmt.Println(err, byName)
	err = json.Unmarshal([]byte(`{"blue":{"count":3}}`), &m)
	fmt.Println(err)
}
