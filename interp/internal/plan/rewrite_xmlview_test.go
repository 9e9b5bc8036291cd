package plan

import "testing"

// TestXMLView checks the views xml.Marshal gets of cell types: the
// element of a value given to Marshal named by _gt.XMLNamed, the fields
// Go writes with their tags and the elements' names made explicit, a
// MarshalXML method handed to xml as a Marshaler; and the view
// xml.Unmarshal fills and copies back.
func TestXMLView(t *testing.T) {
	const setup = "import \"encoding/xml\"\ntype Addr struct{ XMLName xml.Name `xml:\"address\"`; City string }\n" +
		"type P struct{ ID int `xml:\"id,attr\"`; note string; Home Addr; Addrs []Addr `xml:\"addrs>a\"` }\n" +
		"type T float64\nfunc (t *T) MarshalXML(e *xml.Encoder, s xml.StartElement) error { return nil }"
	wantCode(t, setup, "xml.Marshal(P{})", []string{
		"xml.Marshal(func() any { var _gtjv1 func(P) any; _gtjv1 = func(_gtjv2 P) any { return func() any { var _gtjv3 struct { F0 int \"xml:\\\"id,attr\\\"\"; F1 Addr \"xml:\\\"address\\\"\"; F2 []Addr \"xml:\\\"addrs>a\\\"\"; }; ",
		"_gtjv3.F0 = _gtjv2.ID; _gtjv3.F1 = _gtjv2.Home; _gtjv3.F2 = _gtjv2.Addrs; return _gtjv3 }() }; _gtxv := (P{}); return _gt.XMLNamed(_gtjv1(_gtxv), xml.Name{}, xml.Name{}, \"P\") }())",
	}, []string{"note"})
	wantCode(t, setup, "xml.Marshal([]Addr{})", []string{
		"_gtjv4 = func(_gtjv5 Addr) any { return func() any { var _gtjv6 struct { XMLName xml.Name \"xml:\\\"address\\\"\"; F0 string \"xml:\\\"City\\\"\"; }; _gtjv6.XMLName = _gtjv5.XMLName; _gtjv6.F0 = _gtjv5.City; return _gtjv6 }() }",
		"_gtjv1[_gtjv2] = _gt.XMLNamed(_gtjv4(_gtjv3), xml.Name{Space: \"\", Local: \"address\"}, _gtjv3.XMLName, \"Addr\")",
	}, nil)
	wantCode(t, setup, "xml.Marshal([]T{1})", []string{
		"_gtjv4 := _gtjv3; return _gt.XMLMarshaler(func(_gte *xml.Encoder, _gts xml.StartElement) error { return _gtjv4.MarshalXML(_gte, _gts) }, \"T\")",
	}, nil)
	wantCode(t, setup, "var ps []P\nxml.Unmarshal(nil, &ps)", []string{
		"func(_gtxd []byte, _gtxp *[]P) error { ",
		"var _gtxt1 func(*[]P) []struct { F0 int \"xml:\\\"id,attr\\\"\"; F1 Addr \"xml:\\\"address\\\"\"; F2 []Addr \"xml:\\\"addrs>a\\\"\"; }; ",
		"_gtxf2 = func(_gtv struct { F0 int \"xml:\\\"id,attr\\\"\"; F1 Addr \"xml:\\\"address\\\"\"; F2 []Addr \"xml:\\\"addrs>a\\\"\"; }, _gtp *P) { _gtp.ID = _gtv.F0; _gtp.Home = _gtv.F1; _gtp.Addrs = _gtv.F2;  }",
		"if _gtxp == nil { return xml.Unmarshal(_gtxd, _gtxp) }; _gtxv := _gtxt1(_gtxp); _gte := xml.Unmarshal(_gtxd, &_gtxv); _gtxf1(_gtxv, _gtxp); return _gte }(nil, &ps)",
	}, []string{"note"})
	// Through an interface: the pointer in it asserted to the session's
	// types that need a view.
	wantCode(t, setup, "func load(b []byte, v any) error { return xml.Unmarshal(b, v) }", []string{
		"_gtt := _gt.CellType(_gtxp); if (_gtt == \"*main.P\" || _gtt == \"\") { if _gtx, _gtok := _gtxp.(*P); _gtok && _gtx != nil { _gtxv := _gtxt1(_gtx); _gte := xml.Unmarshal(_gtxd, &_gtxv); _gtxf1(_gtxv, _gtx); return _gte } }; ",
		"return xml.Unmarshal(_gtxd, _gtxp) }(b, v)",
	}, []string{"*Addr)"})
	// A slice of a type with UnmarshalXML: the method fills each new
	// element, appended where it succeeds.
	wantCode(t, setup+"\nfunc (t *T) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error { return nil }\ntype S struct{ Ts []T; n int }",
		"var s S\nxml.Unmarshal(nil, &s)", []string{
			"struct { F0 _gt.XMLUnmarshaler \"xml:\\\"Ts\\\"\"; }",
			"return _gt.XMLUnmarshaler{F: func(_gtd *xml.Decoder, _gts xml.StartElement) error { var _gte T; _gterr := _gte.UnmarshalXML(_gtd, _gts); if _gterr == nil { *_gtx = append(*_gtx, _gte) }; return _gterr }}",
		}, nil)
	// A recursive type: its own view in itself is a _gt.XMLUnmarshaler
	// whose method decodes an element into a new view.
	wantCode(t, "import \"encoding/xml\"\ntype N struct{ Kids []N; n int }", "var n N\nxml.Unmarshal(nil, &n)", []string{
		"struct { F0 _gt.XMLUnmarshaler \"xml:\\\"Kids\\\"\"; }",
		"{ var _gtn N; _gtw := _gtxt1(&_gtn); _gte := _gtd.DecodeElement(&_gtw, &_gts); _gtxf1(_gtw, &_gtn); if _gte == nil { *_gtx = append(*_gtx, _gtn) }; return _gte }",
	}, nil)
	// A field behind an embedded pointer: a pointer to a copy where the
	// embedded pointer is set, allocated as it is copied back.
	wantCode(t, "import \"encoding/xml\"\ntype M struct{ A string }\ntype D struct{ *M; T string; n int }", "var d D\nxml.Unmarshal(nil, &d)", []string{
		"struct { F0 *string \"xml:\\\"A\\\"\"; F1 string \"xml:\\\"T\\\"\"; }",
		"if _gtx.M != nil { _gtc := _gtx.M.A; _gtv.F0 = &_gtc }; _gtv.F1 = _gtx.T; ",
		"if _gtv.F0 != nil { if _gtp.M == nil { _gtp.M = new(M) }; _gtp.M.A = *_gtv.F0; }; _gtp.T = _gtv.F1; ",
	}, []string{"n int"})
	// A field whose type has UnmarshalXML is a _gt.XMLUnmarshaler in the
	// view, whose method calls the field's.
	wantCode(t, setup+"\nfunc (t *T) UnmarshalXML(d *xml.Decoder, s xml.StartElement) error { return nil }\ntype H struct{ V T; n int }",
		"var h H\nxml.Unmarshal(nil, &h)", []string{
			"= func(_gtx *T) _gt.XMLUnmarshaler { return _gt.XMLUnmarshaler{F: func(_gtd *xml.Decoder, _gts xml.StartElement) error { return _gtx.UnmarshalXML(_gtd, _gts) }} }",
			"_gtv.F0 = _gtxt2(&_gtx.V); ",
		}, nil)
}
