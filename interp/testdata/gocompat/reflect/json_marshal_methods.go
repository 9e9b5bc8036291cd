// MarshalJSON with a pointer receiver (called where Go's encoder reaches
// the value through a pointer, a slice or an addressable struct), and
// MarshalText on values and map keys, with their errors.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

type Money struct{ cents int64 }

func (m *Money) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`"$%d.%02d"`, m.cents/100, m.cents%100)), nil
}

type Color int

func (c Color) MarshalText() ([]byte, error) {
	if c < 0 {
		return nil, errors.New("negative color")
	}
	return []byte([]string{"red", "green", "<blue>"}[c]), nil
}

type Point struct{ X, Y int }

func (p Point) MarshalText() ([]byte, error) { return []byte(fmt.Sprintf("%d:%d", p.X, p.Y)), nil }

type Name string

func (n *Name) MarshalText() ([]byte, error) { return []byte(strings.ToUpper(string(*n))), nil }

type Cart struct {
	Total Money            `json:"total"`
	Items []Money          `json:"items"`
	ByTag map[string]Money `json:"by_tag"`
	Color Color            `json:"color"`
	At    Point            `json:"at"`
	Who   Name             `json:"who"`
	ptr   *Money
}

type Bad struct{}

func (Bad) MarshalJSON() ([]byte, error) { return []byte(`{x`), nil }

func main() {
	c := Cart{Total: Money{150}, Items: []Money{{1}, {250}}, ByTag: map[string]Money{"a": {5}}, Color: 2, At: Point{1, 2}, Who: "ann"}
	b, err := json.Marshal(c)
	fmt.Println(string(b), err)
	b, err = json.Marshal(&c)
	fmt.Println(string(b), err)
	b, err = json.Marshal([]Cart{c})
	fmt.Println(string(b), err)
	b, err = json.Marshal(map[Color]int{0: 1, 2: 3})
	fmt.Println(string(b), err)
	b, err = json.Marshal(map[Point]string{{1, 2}: "a"})
	fmt.Println(string(b), err)
	b, err = json.Marshal(map[Name]int{"x": 1})
	fmt.Println(string(b), err)
	_, err = json.Marshal([]Color{-1})
	fmt.Println(err)
	_, err = json.Marshal(map[Color]int{-1: 1})
	fmt.Println(err)
	_, err = json.Marshal(Bad{})
	fmt.Println(err)
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.Encode([]Color{2})
	json.NewEncoder(os.Stdout).Encode([]Color{2})
}
