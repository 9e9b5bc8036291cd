// Values of cell types inside interfaces given to encoding/json and
// encoding/xml: a map[string]any, a []any, an any field, an error, a
// pointer in an interface; the element named by the value's type at the
// top and by the field below.
package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
)

type Item struct {
	Name   string `json:"name" xml:"name"`
	secret int
}

type Temp float64

func (t Temp) MarshalJSON() ([]byte, error) { return []byte(fmt.Sprintf(`"%.1fC"`, float64(t))), nil }

type Box struct {
	V    any `json:"v"`
	List []any
}

type Plain struct{ A int }

func main() {
	it := Item{"a", 9}
	b, err := json.Marshal(map[string]any{"item": it, "ptr": &it, "temp": Temp(21.5), "n": 3, "f": 2.5})
	fmt.Println(string(b), err)
	b, err = json.Marshal([]any{it, Temp(1), nil, "s"})
	fmt.Println(string(b), err)
	b, err = json.Marshal(Box{V: it, List: []any{Plain{1}, map[string]any{"deep": it}}})
	fmt.Println(string(b), err)
	var v any = it
	b, err = json.Marshal(v)
	fmt.Println(string(b), err)
	b, err = xml.Marshal(v)
	fmt.Println(string(b), err)
	b, err = xml.Marshal(Box{V: it, List: []any{Plain{2}, &it}})
	fmt.Println(string(b), err)
	b, err = xml.Marshal([]any{it, Plain{3}})
	fmt.Println(string(b), err)
}
