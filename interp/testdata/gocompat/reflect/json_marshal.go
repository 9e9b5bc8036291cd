// encoding/json on cell structs: tags, unexported fields, embedding,
// pointers, slices and maps (issue 20, item 5).
package main

import (
	"encoding/json"
	"fmt"
)

type Base struct {
	ID   int    `json:"id"`
	Kind string `json:"kind,omitempty"`
}

type Point struct {
	X, Y int
}

type Item struct {
	Base
	Name   string `json:"name"`
	secret int
	Tags   []string          `json:"tags"`
	Skip   string            `json:"-"`
	Where  *Point            `json:"where,omitempty"`
	Pts    []Point           `json:"pts"`
	Attrs  map[string]string `json:"attrs,omitempty"`
	Score  float64           `json:",string"`
}

func main() {
	it := Item{Base: Base{ID: 1}, Name: "a", secret: 9, Tags: []string{"x"}, Skip: "no",
		Where: &Point{1, 2}, Pts: []Point{{3, 4}}, Attrs: map[string]string{"k": "v"}, Score: 1.5}
	b, err := json.Marshal(it)
	fmt.Println(string(b), err)
	b, _ = json.MarshalIndent(Point{5, 6}, "", "  ")
	fmt.Println(string(b))
	b, _ = json.Marshal([]Item{{Name: "z"}})
	fmt.Println(string(b))
	b, _ = json.Marshal(map[string]Point{"p": {7, 8}})
	fmt.Println(string(b))
	b, _ = json.Marshal(&Point{9, 10})
	fmt.Println(string(b))
}
