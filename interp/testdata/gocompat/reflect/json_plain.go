// encoding/json on cell structs whose fields are exported and not
// embedded: tags, omitempty, ",string", pointers, slices and maps, both
// ways.
package main

import (
	"encoding/json"
	"fmt"
)

type Point struct {
	X, Y int
}

type Shape struct {
	Name   string            `json:"name"`
	Skip   string            `json:"-"`
	Where  *Point            `json:"where,omitempty"`
	Pts    []Point           `json:"pts"`
	Attrs  map[string]string `json:"attrs,omitempty"`
	Score  float64           `json:",string"`
	Hidden bool              `json:"hidden,omitempty"`
}

func main() {
	s := Shape{Name: "a", Skip: "no", Where: &Point{1, 2}, Pts: []Point{{3, 4}}, Attrs: map[string]string{"k": "v"}, Score: 1.5}
	b, err := json.Marshal(s)
	fmt.Println(string(b), err)
	b, _ = json.MarshalIndent(Point{5, 6}, "", "  ")
	fmt.Println(string(b))
	b, _ = json.Marshal([]Shape{{Name: "z"}})
	fmt.Println(string(b))
	b, _ = json.Marshal(map[string]Point{"p": {7, 8}})
	fmt.Println(string(b))
	var back Shape
	err = json.Unmarshal([]byte(`{"name":"r","pts":[{"X":1,"y":2}],"Score":"2.5","where":{"X":9}}`), &back)
	fmt.Println(err, back.Name, back.Pts, back.Score, *back.Where)
}
