// A cell's types with UnmarshalXML and UnmarshalText in slices and behind
// pointers: xml makes a new element for each it decodes, filled by the
// method.
package main

import (
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
)

type Point struct{ X, Y int }

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

type Level int

func (l *Level) UnmarshalText(b []byte) error {
	n, err := strconv.Atoi(strings.TrimPrefix(string(b), "L"))
	*l = Level(n)
	return err
}

type Path struct {
	Points []Point `xml:"p"`
	Start  *Point  `xml:"start"`
	Levels []Level `xml:"level"`
	Max    *Level  `xml:"max,attr"`
	note   string
}

func main() {
	path := Path{Points: []Point{{0, 0}}, note: "n"}
	err := xml.Unmarshal([]byte(`<path max="L9"><start>1,1</start><p>1,2</p><p>3,4</p><level>L1</level><level>L2</level></path>`), &path)
	fmt.Println(err, path.Points, *path.Start, path.Levels, *path.Max, path.note)
	var pts []Point
	err = xml.Unmarshal([]byte(`<p>5,6</p>`), &pts)
	fmt.Println(err, pts)
	err = xml.Unmarshal([]byte(`<path><level>Lx</level></path>`), &path)
	fmt.Println(err, path.Levels)
}
