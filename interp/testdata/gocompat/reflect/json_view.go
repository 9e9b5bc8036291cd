// json.Marshal of cell types that compiled json would see wrongly,
// given a faithful view: unexported fields left out, embedded structs
// (exported, unexported, nested) flattened, MarshalJSON methods called
// (value and pointer receivers, on structs and named basic types),
// omitempty on views, slices, arrays, maps and pointers of such types,
// MarshalIndent and Encoder.Encode (issue 20, item 5).
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"
)

type meta struct {
	Created int `json:"created"`
	note    string
}

type Base struct {
	meta
	ID int `json:"id"`
}

type Level int

func (l Level) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`"L%d"`, int(l))), nil
}

type Money struct {
	cents int64
}

func (m *Money) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`"%d.%02d"`, m.cents/100, m.cents%100)), nil
}

type Leaf struct {
	V      int `json:"v"`
	secret string
}

type Node struct {
	Base
	Name     string           `json:"name"`
	hidden   int              `json:"hidden"`
	Level    Level            `json:"level,omitempty"`
	Price    *Money           `json:"price,omitempty"`
	Kids     []Node           `json:"kids,omitempty"`
	ByName   map[string]*Leaf `json:"by_name,omitempty"`
	Pair     [2]Leaf          `json:"pair"`
	When     time.Duration    `json:"when,string"`
	Untagged Leaf
}

type Leaves []Leaf

type Bad struct{ n int }

func (Bad) MarshalJSON() ([]byte, error) { return nil, errors.New("bad value") }

func main() {
	n := Node{
		Base:   Base{meta{1, "x"}, 7},
		Name:   "root",
		hidden: 3,
		Level:  2,
		Price:  &Money{1234},
		Kids:   []Node{{Name: "kid", Kids: []Node{}}},
		ByName: map[string]*Leaf{"b": {2, "s"}, "a": nil},
		Pair:   [2]Leaf{{V: 1}, {V: 2}},
		When:   time.Second,
	}
	b, err := json.Marshal(n)
	fmt.Println(string(b), err)
	b, err = json.MarshalIndent(&n.Kids[0], "", " ")
	fmt.Println(string(b), err)
	b, err = json.Marshal(Leaves{{V: 3, secret: "no"}})
	fmt.Println(string(b), err)
	var nilLeaves Leaves
	b, err = json.Marshal(nilLeaves)
	fmt.Println(string(b), err)
	b, err = json.Marshal(map[int]Level{2: 1, 1: 0})
	fmt.Println(string(b), err)
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	err = enc.Encode([]*Leaf{{V: 5}, nil})
	fmt.Println(err)
	_, err = json.Marshal([]Bad{{1}})
	fmt.Println(err, errors.Unwrap(err))
	err = enc.Encode(map[string]*Money{"m": {5}, "z": nil})
	fmt.Println(err)
	err = enc.Encode(struct{ B *Bad }{&Bad{}})
	fmt.Println(err)
}
