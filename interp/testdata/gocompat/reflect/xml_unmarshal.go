// encoding/xml decoding into cell structs with unexported and embedded
// fields: attributes, chardata, innerxml, comments, a>b nesting,
// XMLName checked and set, slices of structs appended to, pointers
// allocated, unexported fields left alone, Decoder.Decode and
// DecodeElement (issue 20, item 5).
package main

import (
	"encoding/xml"
	"fmt"
	"strings"
)

type Meta struct {
	Version string `xml:"version,attr"`
	secret  string
}

type Phone struct {
	Kind   string `xml:"kind,attr"`
	Number string `xml:",chardata"`
	seen   bool
}

type Address struct {
	XMLName xml.Name `xml:"address"`
	City    string   `xml:"city"`
	zip     string
}

type Person struct {
	XMLName xml.Name `xml:"person"`
	Meta
	ID      int      `xml:"id,attr"`
	Name    string   `xml:"name"`
	Emails  []string `xml:"email"`
	note    string
	City    string  `xml:"where>city"`
	Phones  []Phone `xml:"phones>phone"`
	Home    *Address
	Inner   string `xml:",innerxml"`
	Comment string `xml:",comment"`
}

const doc = `<person version="2" id="7"><!-- hi --><name>Ann</name><email>a@x</email><email>b@x</email>` +
	`<where><city>Oslo</city></where><phones><phone kind="home">123</phone><phone kind="work">456</phone></phones>` +
	`<address><city>Rome</city></address></person>`

func main() {
	p := Person{note: "keep", Meta: Meta{secret: "s"}, Phones: []Phone{{Kind: "old", seen: true}}}
	err := xml.Unmarshal([]byte(doc), &p)
	fmt.Println(err, p.XMLName.Local, p.Version, p.secret, p.ID, p.Name, p.Emails, p.note, p.City)
	fmt.Println(len(p.Phones), p.Phones[0].Kind, p.Phones[0].seen, p.Phones[1].Kind, p.Phones[2].Number, p.Home.City, p.Home.zip == "")
	fmt.Printf("%q %q\n", p.Comment, p.Inner[:20])
	var q Person
	err = xml.Unmarshal([]byte(`<other id="1"/>`), &q)
	fmt.Println(err)
	err = xml.Unmarshal([]byte(`<person id="x"/>`), &q)
	fmt.Println(err)
	var list []Phone
	dec := xml.NewDecoder(strings.NewReader(`<phone kind="a">1</phone><phone kind="b">2</phone>`))
	for {
		var ph Phone
		if err := dec.Decode(&ph); err != nil {
			fmt.Println(err)
			break
		}
		list = append(list, ph)
	}
	fmt.Println(list[0].Kind, list[1].Number)
	dec = xml.NewDecoder(strings.NewReader(`<x><phone kind="c">3</phone></x>`))
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "phone" {
			var ph Phone
			err := dec.DecodeElement(&ph, &se)
			fmt.Println(err, ph.Kind, ph.Number)
		}
	}
	var phones []Phone
	err = xml.Unmarshal([]byte(`<phone kind="z">9</phone>`), &phones)
	fmt.Println(err, len(phones), phones[0].Kind)
}
