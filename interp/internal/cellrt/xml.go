package cellrt

import "encoding/xml"

// XMLNamed returns a value that encoding/xml marshals as v, the planner's
// view of a value whose type a cell declared, with the element named as Go
// names it: by tag (the name in the tag of the type's XMLName field),
// then value (the field's value), then as xml names it when the value is
// a field's (by the field), then typ (the type's name).
func XMLNamed(v any, tag, value xml.Name, typ string) any {
	return xmlNamed{v, tag, value, typ}
}

// xmlNamed is an xml.Marshaler of a view.
type xmlNamed struct {
	v          any
	tag, value xml.Name
	typ        string
}

// MarshalXML encodes the view, with its element named as Go names it.
func (x xmlNamed) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	switch {
	case x.tag.Local != "":
		start.Name = x.tag
	case x.value.Local != "":
		start.Name = x.value
	case start.Name == xml.Name{Local: "xmlNamed"}:
		// xml names the element by the view's type: not a field's.
		start.Name = xml.Name{Local: x.typ}
	}
	return e.EncodeElement(x.v, start)
}

// XMLMarshaler returns a value that encoding/xml marshals by f, the
// MarshalXML method of a value of a type named typ that a cell declared.
func XMLMarshaler(f func(*xml.Encoder, xml.StartElement) error, typ string) any {
	return xmlMethod{f, typ}
}

// xmlMethod is an xml.Marshaler of a method.
type xmlMethod struct {
	f   func(*xml.Encoder, xml.StartElement) error
	typ string
}

// MarshalXML calls the method, with the element named as Go names it.
func (m xmlMethod) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	if start.Name == (xml.Name{Local: "xmlMethod"}) {
		start.Name = xml.Name{Local: m.typ}
	}
	return m.f(e, start)
}

// XMLText returns a value that encoding/xml marshals as an element that
// holds the text of f, the MarshalText method of a value of a type named
// typ that a cell declared.
func XMLText(f func() ([]byte, error), typ string) any {
	return xmlText{f, typ}
}

// xmlText is an xml.Marshaler of a MarshalText method.
type xmlText struct {
	f   func() ([]byte, error)
	typ string
}

// MarshalXML writes the element with the method's text.
func (m xmlText) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	if start.Name == (xml.Name{Local: "xmlText"}) {
		start.Name = xml.Name{Local: m.typ}
	}
	if err := e.EncodeToken(start); err != nil {
		return err
	}
	text, err := m.f()
	if err != nil {
		return err
	}
	if err := e.EncodeToken(xml.CharData(text)); err != nil {
		return err
	}
	return e.EncodeToken(start.End())
}

// XMLAttr returns a value that encoding/xml marshals as an attribute by
// f, a cell's MarshalXMLAttr method (or MarshalText, made into one).
func XMLAttr(f func(xml.Name) (xml.Attr, error)) any { return xmlAttr{f} }

// xmlAttr is an xml.MarshalerAttr of a method.
type xmlAttr struct {
	f func(xml.Name) (xml.Attr, error)
}

// MarshalXMLAttr calls the method.
func (a xmlAttr) MarshalXMLAttr(name xml.Name) (xml.Attr, error) { return a.f(name) }

// TextValue returns a value that encoding/xml (as character data) marshals
// by f, a cell's MarshalText method.
func TextValue(f func() ([]byte, error)) any { return textValue{f} }

// textValue is an encoding.TextMarshaler of a method.
type textValue struct{ f func() ([]byte, error) }

// MarshalText calls the method.
func (t textValue) MarshalText() ([]byte, error) { return t.f() }

// An XMLUnmarshaler is the field of the planner's view of a value that
// encoding/xml fills, where the value's type, declared in a cell, has an
// UnmarshalXML method: F calls the method of the value.
type XMLUnmarshaler struct {
	F func(*xml.Decoder, xml.StartElement) error
}

// UnmarshalXML calls F.
func (u *XMLUnmarshaler) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	return u.F(d, start)
}

// An XMLAttrUnmarshaler is XMLUnmarshaler for an UnmarshalXMLAttr method.
type XMLAttrUnmarshaler struct {
	F func(xml.Attr) error
}

// UnmarshalXMLAttr calls F.
func (u *XMLAttrUnmarshaler) UnmarshalXMLAttr(attr xml.Attr) error { return u.F(attr) }

// A TextUnmarshaler is XMLUnmarshaler for an UnmarshalText method.
type TextUnmarshaler struct {
	F func([]byte) error
}

// UnmarshalText calls F.
func (u *TextUnmarshaler) UnmarshalText(text []byte) error { return u.F(text) }
