// xml.Unmarshal and Decode given a cell's value through an interface.
package main

import (
	"encoding/xml"
	"fmt"
	"strings"
)

type Meta struct {
	Version string `xml:"version,attr"`
}

type Doc struct {
	Meta
	Title  string `xml:"title"`
	secret string
}

type Plain struct {
	A int `xml:"a"`
}

func load(data string, v any) error { return xml.Unmarshal([]byte(data), v) }

func decode(data string, v any) error { return xml.NewDecoder(strings.NewReader(data)).Decode(v) }

func main() {
	d := Doc{secret: "keep"}
	err := load(`<doc version="2"><title>T</title><secret>no</secret></doc>`, &d)
	fmt.Println(err, d.Version, d.Title, d.secret)
	var ds []Doc
	err = load(`<doc version="3"><title>U</title></doc>`, &ds)
	fmt.Println(err, len(ds), ds[0].Version, ds[0].Title)
	var p Plain
	err = decode(`<p><a>4</a></p>`, &p)
	fmt.Println(err, p.A)
	var d2 Doc
	err = decode(`<doc version="5"/>`, &d2)
	fmt.Println(err, d2.Version)
}
