// encoding/xml decoding into a recursive cell type (a tree of elements)
// with unexported fields.
package main

import (
	"encoding/xml"
	"fmt"
)

type Node struct {
	XMLName xml.Name `xml:"node"`
	Name    string   `xml:"name,attr"`
	Kids    []Node   `xml:"node"`
	Note    *Node    `xml:"note>node"`
	depth   int
}

func (n Node) String() string {
	s := n.Name + "("
	for _, k := range n.Kids {
		s += k.String()
	}
	if n.Note != nil {
		s += "!" + n.Note.Name
	}
	return s + ")"
}

func main() {
	var root Node
	root.depth = 7
	err := xml.Unmarshal([]byte(`<node name="a"><node name="b"><node name="c"/></node><node name="d"/><note><node name="n"/></note></node>`), &root)
	fmt.Println(err, root, root.depth)
	b, err := xml.Marshal(root)
	fmt.Println(string(b), err)
	var bad Node
	err = xml.Unmarshal([]byte(`<node name="a"><other/></node>`), &bad)
	fmt.Println(err, bad)
}
