// encoding/xml with tags on a cell struct.
package main

import (
	"encoding/xml"
	"fmt"
)

type Person struct {
	XMLName xml.Name `xml:"person"`
	ID      int      `xml:"id,attr"`
	Name    string   `xml:"name"`
	Email   []string `xml:"email"`
	note    string
	City    string `xml:"address>city"`
}

func main() {
	p := Person{ID: 7, Name: "Ann", Email: []string{"a@x", "b@x"}, note: "n", City: "Oslo"}
	b, err := xml.MarshalIndent(p, "", " ")
	fmt.Println(string(b), err)
	var q Person
	err = xml.Unmarshal(b, &q)
	fmt.Println(err, q.ID, q.Name, q.Email, q.City, q.note == "")
}
