package plan

import (
	"encoding/xml"
	"go/types"
	"strings"
	"testing"
)

// TestXMLFields checks the fields xmlFields finds against the XML
// encoding/xml writes for the same types: embedded structs promoted, the
// shallower of two fields of one name kept (in the order Go keeps them),
// unexported fields left out, the element's name from the field type's
// XMLName.
func TestXMLFields(t *testing.T) {
	const src = "package p\ntype Base struct{ ID int `xml:\"id\"`; Kind string `xml:\"kind,attr\"`; Note string `xml:\"note\"` }\n" +
		"type Addr struct{ XMLName struct{} `xml:\"address\"`; City string }\n" +
		"type Item struct{ Base; ID string `xml:\"id\"`; Kind string `xml:\"kind,attr\"`; rank int; Home Addr }\n"
	pkg := checkPackage(t, src)
	fields, _, ok := xmlFields(pkg.Scope().Lookup("Item").Type().Underlying().(*types.Struct))
	var got []string
	for _, f := range fields {
		got = append(got, f.name)
	}
	type (
		Base struct {
			ID   int    `xml:"id"`
			Kind string `xml:"kind,attr"`
			Note string `xml:"note"`
		}
		Addr struct {
			XMLName xml.Name `xml:"address"`
			City    string
		}
		Item struct {
			Base
			ID   string `xml:"id"`
			Kind string `xml:"kind,attr"`
			rank int
			Home Addr
		}
	)
	b, err := xml.Marshal(Item{Kind: "k", rank: 1})
	if err != nil {
		t.Fatal(err)
	}
	// The attributes, then the elements, in the order of the fields.
	want := `<Item kind="k"><note></note><id></id><address><City></City></address></Item>`
	if string(b) != want || !ok || strings.Join(got, " ") != "note id kind address" {
		t.Errorf("xmlFields gives %q (%v); encoding/xml writes %s, want %s", got, ok, b, want)
	}
}
