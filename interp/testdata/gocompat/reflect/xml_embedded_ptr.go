// encoding/xml decoding into cell structs with embedded pointers:
// allocated where the document has one of their fields, filled through
// where they are set.
package main

import (
	"encoding/xml"
	"fmt"
)

type Meta struct {
	Version string   `xml:"version,attr"`
	Author  string   `xml:"author"`
	Tags    []string `xml:"tag"`
}

type Extra struct {
	Note string `xml:"note"`
}

type Doc struct {
	XMLName xml.Name `xml:"doc"`
	*Meta
	*Extra
	Title  string `xml:"title"`
	secret string
}

func main() {
	var d Doc
	err := xml.Unmarshal([]byte(`<doc version="1"><title>T</title><author>A</author><tag>x</tag><tag>y</tag></doc>`), &d)
	fmt.Println(err, d.Title, d.Meta != nil, d.Version, d.Author, d.Tags, d.Extra == nil)
	d2 := Doc{Meta: &Meta{Author: "keep", Tags: []string{"old"}}, secret: "s"}
	err = xml.Unmarshal([]byte(`<doc><tag>new</tag><note>n</note></doc>`), &d2)
	fmt.Println(err, d2.Author, d2.Tags, d2.Extra.Note, d2.secret)
	b, err := xml.Marshal(d2)
	fmt.Println(string(b), err)
}
