// encoding/xml of cell structs whose embedded structs have fields of one
// name as the outer struct's: the shallower field wins, both ways.
package main

import (
	"encoding/xml"
	"fmt"
)

type Base struct {
	ID   int    `xml:"id"`
	Kind string `xml:"kind,attr"`
	Note string `xml:"note"`
}

type Item struct {
	XMLName xml.Name `xml:"item"`
	Base
	ID   string `xml:"id"`
	Kind string `xml:"kind,attr"`
	rank int
}

func main() {
	it := Item{Base: Base{ID: 1, Kind: "base", Note: "n"}, ID: "outer", Kind: "top", rank: 3}
	b, err := xml.Marshal(it)
	fmt.Println(string(b), err)
	var back Item
	err = xml.Unmarshal(b, &back)
	fmt.Println(err, back.ID, back.Kind, back.Base.ID, back.Base.Kind, back.Note)
}
