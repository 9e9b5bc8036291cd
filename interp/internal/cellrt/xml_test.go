package cellrt

import (
	"encoding/xml"
	"errors"
	"testing"
)

// Compiled types that stand for a cell's: a struct named by its type, one
// with an XMLName field, one with MarshalText.
type (
	Plain   struct{ A int }
	Tagged  struct{ XMLName xml.Name }
	Degrees float64
	Holder  struct{ D Degrees }
)

func (d Degrees) MarshalText() ([]byte, error) { return []byte("<deg>"), nil }

// TestXMLNamed checks the elements xml writes of the views against those
// it writes of compiled types: named by type, by an XMLName's value, by a
// start element given to EncodeElement, and MarshalText's text.
func TestXMLNamed(t *testing.T) {
	view := struct{ A int }{1}
	cases := []struct {
		got, want any
	}{
		{XMLNamed(view, xml.Name{}, xml.Name{}, "Plain"), Plain{1}},
		{[]any{XMLNamed(view, xml.Name{}, xml.Name{}, "Plain")}, []Plain{{1}}},
		{XMLNamed(struct{ XMLName xml.Name }{xml.Name{Local: "v"}}, xml.Name{}, xml.Name{Local: "v"}, "Tagged"), Tagged{xml.Name{Local: "v"}}},
		{XMLText(Degrees(1).MarshalText, "Degrees"), Degrees(1)},
		{XMLNamed(struct{ D any }{XMLText(Degrees(1).MarshalText, "Degrees")}, xml.Name{}, xml.Name{}, "Holder"), Holder{1}},
	}
	for i, c := range cases {
		got, err := xml.Marshal(c.got)
		want, werr := xml.Marshal(c.want)
		if string(got) != string(want) || err != nil || werr != nil {
			t.Errorf("case %d: got %s (%v), want %s (%v)", i, got, err, want, werr)
		}
	}
	_, err := xml.Marshal(XMLText(func() ([]byte, error) { return nil, errors.New("no") }, "D"))
	if err == nil || err.Error() != "no" {
		t.Errorf("MarshalText's error: got %v", err)
	}
}

// Sized is a compiled type with MarshalXMLAttr and UnmarshalXMLAttr.
type Sized struct{ N int }

func (s Sized) MarshalXMLAttr(name xml.Name) (xml.Attr, error) {
	return xml.Attr{Name: name, Value: "n" + string(rune('0'+s.N))}, nil
}

// TestXMLMethods checks the compiled stand-ins of a cell's methods against
// compiled types with them: an attribute by MarshalXMLAttr, character
// data by MarshalText, and a field filled by UnmarshalText.
func TestXMLMethods(t *testing.T) {
	got, err := xml.Marshal(XMLNamed(struct {
		A any `xml:"a,attr"`
		T any `xml:",chardata"`
	}{XMLAttr(Sized{3}.MarshalXMLAttr), TextValue(Degrees(1).MarshalText)}, xml.Name{}, xml.Name{}, "V"))
	want, werr := xml.Marshal(struct {
		XMLName xml.Name `xml:"V"`
		A       Sized    `xml:"a,attr"`
		T       Degrees  `xml:",chardata"`
	}{A: Sized{3}, T: 1})
	if string(got) != string(want) || err != nil || werr != nil {
		t.Errorf("got %s (%v), want %s (%v)", got, err, want, werr)
	}
	var text string
	var v struct {
		T TextUnmarshaler `xml:"t"`
	}
	v.T.F = func(b []byte) error { text = string(b); return nil }
	if err := xml.Unmarshal([]byte(`<v><t>hot</t></v>`), &v); err != nil || text != "hot" {
		t.Errorf("UnmarshalText got %q, %v", text, err)
	}
}
