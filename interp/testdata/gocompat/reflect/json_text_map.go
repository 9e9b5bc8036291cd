// encoding/json of a map of a cell's type with a MarshalText method, and
// of the same type inside an any; text/tabwriter given one by fmt.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
)

type Level int

func (l Level) MarshalText() ([]byte, error) { return []byte(strings.Repeat("*", int(l))), nil }

type Config struct {
	Name   string           `json:"name"`
	Levels map[string]Level `json:"levels"`
	Extra  map[string]any   `json:"extra,omitempty"`
}

func main() {
	c := Config{Name: "x", Levels: map[string]Level{"a": 2}, Extra: map[string]any{"l": Level(3)}}
	b, _ := json.Marshal(c)
	fmt.Println(string(b))
	var back Config
	fmt.Println(json.Unmarshal([]byte(`{"name":"y","levels":{"b":1}}`), &back), back.Name, len(back.Levels))
	w := tabwriter.NewWriter(os.Stdout, 0, 4, 1, ' ', 0)
	fmt.Fprintf(w, "%s\t%v\n", "lvl", Level(2))
	w.Flush()
}
