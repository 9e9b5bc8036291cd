// encoding/xml marshalling of cell types: element names from the type,
// XMLName tags and values, attributes, chardata, innerxml, comments,
// omitempty, a>b nesting, unexported fields left out, embedded structs
// (and pointers) promoted, MarshalXML and MarshalText methods,
// MarshalIndent, Encoder.Encode and EncodeElement (issue 20, item 5).
package main

import (
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"strings"
)

type Meta struct {
	Version string `xml:"version,attr"`
	Created string `xml:"created"`
	secret  string
}

type Extra struct {
	Note string `xml:"note,omitempty"`
}

type Celsius float64

func (c Celsius) MarshalText() ([]byte, error) { return []byte(fmt.Sprintf("%.1fC", float64(c))), nil }

type Point struct{ X, Y int }

func (p *Point) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	start.Attr = append(start.Attr, xml.Attr{Name: xml.Name{Local: "xy"}, Value: fmt.Sprintf("%d,%d", p.X, p.Y)})
	return e.EncodeElement("", start)
}

type Address struct {
	XMLName xml.Name `xml:"address"`
	City    string   `xml:"city"`
	zip     string
}

type Person struct {
	XMLName xml.Name `xml:"person"`
	Meta
	*Extra
	ID      int      `xml:"id,attr"`
	Name    string   `xml:"name"`
	Email   []string `xml:"email"`
	note    string
	City    string    `xml:"where>city"`
	Text    string    `xml:",chardata"`
	Comment string    `xml:",comment"`
	Temp    Celsius   `xml:"temp"`
	Temps   []Celsius `xml:"temps>t"`
	At      Point     `xml:"at"`
	Home    *Address
	Empty   string `xml:"empty,omitempty"`
}

type Plain struct {
	A int
	b int
}

type Bad struct{}

func (Bad) MarshalText() ([]byte, error) { return nil, errors.New("bad text") }

func main() {
	p := Person{Meta: Meta{"1", "today", "s"}, ID: 7, Name: "Ann", Email: []string{"a@x", "b@x"}, note: "n", City: "Oslo",
		Text: "hi", Comment: " c ", Temp: 21.5, Temps: []Celsius{1, 2}, At: Point{1, 2}, Home: &Address{City: "Rome", zip: "z"}}
	b, err := xml.MarshalIndent(p, "", " ")
	fmt.Println(string(b), err)
	p.Extra = &Extra{Note: "x"}
	b, err = xml.Marshal(&p)
	fmt.Println(string(b), err)
	b, err = xml.Marshal([]Plain{{1, 2}, {3, 4}})
	fmt.Println(string(b), err)
	b, err = xml.Marshal(Celsius(3))
	fmt.Println(string(b), err)
	b, err = xml.Marshal(Address{City: "Paris"})
	fmt.Println(string(b), err)
	b, err = xml.Marshal(struct {
		XMLName xml.Name
		P       Plain `xml:"p"`
	}{XMLName: xml.Name{Local: "dyn"}, P: Plain{5, 6}})
	fmt.Println(string(b), err)
	_, err = xml.Marshal(Bad{})
	fmt.Println(err)
	enc := xml.NewEncoder(os.Stdout)
	enc.Indent("", "  ")
	err = enc.Encode([]*Plain{{A: 9}, nil})
	fmt.Println()
	fmt.Println(err)
	var sb strings.Builder
	err = xml.NewEncoder(&sb).EncodeElement(Plain{A: 1}, xml.StartElement{Name: xml.Name{Local: "custom"}})
	fmt.Println(sb.String(), err)
}
