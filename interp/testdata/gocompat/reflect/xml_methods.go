// A cell's types with UnmarshalXML, UnmarshalXMLAttr, UnmarshalText,
// MarshalXMLAttr and MarshalText methods on elements, attributes and
// character data, both ways.
package main

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
)

type Level int

func (l Level) MarshalText() ([]byte, error) { return []byte([]string{"low", "high"}[l]), nil }

func (l *Level) UnmarshalText(b []byte) error {
	switch string(b) {
	case "low":
		*l = 0
	case "high":
		*l = 1
	default:
		return fmt.Errorf("bad level %q", b)
	}
	return nil
}

type Size struct{ W, H int }

func (s Size) MarshalXMLAttr(name xml.Name) (xml.Attr, error) {
	return xml.Attr{Name: name, Value: fmt.Sprintf("%dx%d", s.W, s.H)}, nil
}

func (s *Size) UnmarshalXMLAttr(a xml.Attr) error {
	w, h, _ := strings.Cut(a.Value, "x")
	s.W, _ = strconv.Atoi(w)
	s.H, _ = strconv.Atoi(h)
	return nil
}

type Point struct{ X, Y int }

func (p Point) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	return e.EncodeElement(fmt.Sprintf("%d,%d", p.X, p.Y), start)
}

func (p *Point) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	var s string
	if err := d.DecodeElement(&s, &start); err != nil {
		return err
	}
	x, y, _ := strings.Cut(s, ",")
	p.X, _ = strconv.Atoi(x)
	p.Y, _ = strconv.Atoi(y)
	return nil
}

type Shape struct {
	XMLName xml.Name `xml:"shape"`
	Size    Size     `xml:"size,attr"`
	Lvl     Level    `xml:"level,attr"`
	At      Point    `xml:"at"`
	Body    Level    `xml:",chardata"`
	Tag     Level    `xml:"tag"`
	note    string
}

func main() {
	s := Shape{Size: Size{3, 4}, Lvl: 1, At: Point{5, 6}, Body: 0, Tag: 1, note: "n"}
	b, err := xml.Marshal(s)
	fmt.Println(string(b), err)
	var back Shape
	back.note = "keep"
	err = xml.Unmarshal(b, &back)
	fmt.Println(err, back.Size, back.Lvl, back.At, back.Body, back.Tag, back.note)
	err = xml.Unmarshal([]byte(`<shape level="mid"></shape>`), &back)
	fmt.Println(err)
	var p Point
	err = xml.Unmarshal([]byte(`<p>7,8</p>`), &p)
	fmt.Println(err, p)
}
