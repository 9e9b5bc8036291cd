// A cell struct that embeds a pointer to itself, through json.
package main

import (
	"encoding/json"
	"fmt"
)

type Node struct {
	*Node
	V int
	n int
}

func main() {
	b, err := json.Marshal(Node{&Node{nil, 1, 0}, 2, 0})
	fmt.Println(string(b), err)
	var x Node
	fmt.Println(json.Unmarshal([]byte(`{"V":3}`), &x), x.V)
}
