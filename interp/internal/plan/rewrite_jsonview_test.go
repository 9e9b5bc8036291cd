package plan

import (
	"testing"
)

// TestJSONView checks the views json.Marshal gets of cell types that
// compiled json would see wrongly: the fields Go writes under their JSON
// names, a function per named struct type, MarshalJSON's result and the
// error's type name fixed; and the view json.Unmarshal fills.
func TestJSONView(t *testing.T) {
	const setup = "import \"encoding/json\"\ntype Base struct{ ID int `json:\"id\"` }\ntype Item struct{ Base; Name string `json:\"name,omitempty\"`; secret int; Kids []Item `json:\"kids,omitempty\"` }\ntype C float64\nfunc (c C) MarshalJSON() ([]byte, error) { return nil, nil }\ntype Cfg struct{ Base; Name string `json:\"name,omitempty\"`; secret int; Sizes []int }"
	wantCode(t, setup, "json.Marshal(Item{})", []string{
		"json.Marshal(func() any { var _gtjv1 func(Item) any; ",
		"_gtjv1 = func(_gtjv2 Item) any { return func() any { var _gtjv3 struct { F0 int \"json:\\\"id\\\"\"; F1 string \"json:\\\"name,omitempty\\\"\"; F2 any \"json:\\\"kids,omitempty\\\"\"; }; ",
		"_gtjv3.F0 = _gtjv2.Base.ID; _gtjv3.F1 = _gtjv2.Name; if !(len(_gtjv2.Kids) == 0) { _gtjv3.F2 = ",
		"_gtjv := (Item{}); return _gtjv1(_gtjv) }())",
	}, []string{"secret"})
	wantCode(t, setup, "json.MarshalIndent([]C{1}, \"\", \" \")", []string{
		"_gt.JSONResult(json.MarshalIndent(func() any {",
		".MarshalJSON(); return _gt.JSONValue(\"main.C\", ",
	}, nil)
	wantCode(t, setup, "var it Cfg\njson.Unmarshal([]byte(`{}`), &it)", []string{
		"func(_gtjd []byte, _gtjp *Cfg) error { _gtjc := _gt.NewJSONDecoding(nil); ",
		"var _gtr struct { F0 *int \"json:\\\"id\\\"\"; F1 *string \"json:\\\"name,omitempty\\\"\"; F2 *[]int \"json:\\\"Sizes\\\"\"; }; ",
		"_gtr.F0 = &_gtp.Base.ID; _gtr.F1 = &_gtp.Name; _gtr.F2 = &_gtp.Sizes; ",
		"if _gte := _gtjc.Check(_gtjc.Unmarshal(_gtd, &_gtr), \"Cfg\", _gtpath, _gtoff, \"id\", \"Base.id\"); _gte != nil { return _gte }; ",
		"if _gtr.F2 == nil { _gtp.Sizes = nil }; if _gtr.F2 != nil && _gtr.F2 != &_gtp.Sizes { _gtp.Sizes = *_gtr.F2 }; ",
		"if _gtjp == nil { return json.Unmarshal(_gtjd, _gtjp) }; var _gtjraw json.RawMessage; if _gte := json.Unmarshal(_gtjd, &_gtjraw); _gte != nil { return _gte }; ",
		"return _gtjc.Err(_gtjf1(_gtjraw, _gtjp, \"\", \"\", _gtjc.Lead(_gtjd))) }([]byte(`{}`), &it)",
	}, []string{"secret"})
	// A slice of cell structs: grown element by element, each decoded by
	// the struct's fill function; a recursive type's fill calls itself.
	wantCode(t, setup, "var items []Item\njson.Unmarshal(nil, &items)", []string{
		"var _gtjf2 func([]byte, *Item, string, string, int64) error; var _gtjf1 func([]byte, *[]Item, string, string, int64) error; ",
		"var _gtr []json.RawMessage; if _gte := _gtjc.Check(_gtjc.Unmarshal(_gtd, &_gtr), _gtst, _gtpath, _gtoff); _gte != nil { return _gte }; ",
		"if _gti < cap(_gts) { _gts = _gts[:_gti+1] } else { _gts = append(_gts, make([]Item, 1)...) }; *_gtp = _gts; ",
		"if _gte := _gtjf2(_gtm, &_gts[_gti], _gtst, _gtpath, _gto[_gti]); _gte != nil { return _gte } }; if len(_gtr) == 0 { *_gtp = make([]Item, 0) }",
		"F2 json.RawMessage \"json:\\\"kids\\\"\"; ",
		"if _gtr.F2 != nil { _gtvs, _gtos := _gtjc.Values(_gtd, _gtoff, \"kids\"); for _gti, _gtv := range _gtvs { if _gte := _gtjf1(_gtv, &_gtp.Kids, \"Item\", _gt.JSONPath(_gtpath, \"kids\"), _gtos[_gti]); _gte != nil { return _gte } }; }; ",
	}, nil)
	// Deferred, the call's arguments are evaluated where the statement is.
	wantCode(t, setup, "var it Cfg\ndefer json.Unmarshal(nil, &it)", []string{
		"defer func(_gtjd []byte, _gtjp *Cfg) error { ",
		"}(nil, _gtdv1)",
	}, nil)
	wantCode(t, setup, "import \"strings\"\nvar it Cfg\njson.NewDecoder(strings.NewReader(`{}`)).Decode(&it)", []string{
		"func(_gtjdec *json.Decoder, _gtjp *Cfg) error { _gtjc := _gt.NewJSONDecoding(_gtjdec); ",
		"if _gtjp == nil { return _gtjdec.Decode(_gtjp) }; var _gtjraw json.RawMessage; if _gte := _gtjdec.Decode(&_gtjraw); _gte != nil { return _gte }; ",
		"}(json.NewDecoder(strings.NewReader(`{}`)), &it)",
	}, nil)
	// UnmarshalJSON and UnmarshalText are called; a null reaches
	// UnmarshalJSON but not UnmarshalText.
	wantCode(t, "import \"encoding/json\"\ntype T int\nfunc (t *T) UnmarshalJSON(b []byte) error { return nil }\ntype L int\nfunc (l *L) UnmarshalText(b []byte) error { return nil }\ntype S struct{ T T; L *L }",
		"var s S\njson.Unmarshal(nil, &s)", []string{
			"= func(_gtd []byte, _gtp *T, _gtst, _gtpath string, _gtoff int64) error { return _gtp.UnmarshalJSON(_gtd) }",
			"= func(_gtd []byte, _gtp *L, _gtst, _gtpath string, _gtoff int64) error { if _gtd[0] == '\"' { _gts, _gte := _gtjc.Unquote(_gtd); if _gte != nil { return _gte }; return _gtp.UnmarshalText(_gts) }; " +
				"if _gtd[0] == 'n' { return nil }; _gtjc.Mismatch(_gtd, _gtst, _gtpath, \"main.L\", _gtoff); return nil }",
			"= func(_gtd []byte, _gtp **L, _gtst, _gtpath string, _gtoff int64) error { if _gtd[0] == 'n' { *_gtp = nil; return nil }; if *_gtp == nil { *_gtp = new(L) }; ",
		}, nil)
	// A map's key type with UnmarshalText: the method makes each key.
	wantCode(t, "import \"encoding/json\"\ntype K int\nfunc (k *K) UnmarshalText(b []byte) error { return nil }\ntype V struct{ A int; b int }",
		"var m map[K]V\njson.Unmarshal(nil, &m)", []string{
			"var _gtr map[string]json.RawMessage; ",
			"var _gtkk K; if _gte := _gtkk.UnmarshalText([]byte(_gtk)); _gte != nil { return _gte }; (*_gtp)[_gtkk] = _gtv }",
		}, nil)
	// A field promoted through an embedded pointer is filled through it,
	// allocated where it is nil.
	wantCode(t, "import \"encoding/json\"\ntype Meta struct{ Tags []string; n int }\ntype Doc struct{ *Meta; Title string }",
		"var d Doc\njson.Unmarshal(nil, &d)", []string{
			"if _gtp.Meta != nil { _gtr.F0 = &_gtp.Meta.Tags }; ",
			"if _gtr.F0 == nil && _gtp.Meta != nil { _gtp.Meta.Tags = nil }; ",
			"if _gtr.F0 != nil && (!(_gtp.Meta != nil) || _gtr.F0 != &_gtp.Meta.Tags) { if _gtp.Meta == nil { _gtp.Meta = new(Meta) }; if _gtp.Meta != nil { _gtp.Meta.Tags = *_gtr.F0; }; }; ",
		}, nil)
	// A MarshalJSON with a pointer receiver is called where Go's encoder
	// reaches the value through a pointer or a slice, not on a map's
	// value, where json writes the basic value; MarshalText gives a
	// string, and a map's key.
	const methods = "import \"encoding/json\"\ntype PC int\nfunc (c *PC) MarshalJSON() ([]byte, error) { return nil, nil }\ntype K int\nfunc (k K) MarshalText() ([]byte, error) { return nil, nil }"
	wantCode(t, methods, "json.Marshal([]PC{1})", []string{"_gtjv4, _gtjv5 := _gtjv3.MarshalJSON(); return _gt.JSONValue(\"main.PC\", _gtjv4, _gtjv5)"}, nil)
	wantCode(t, methods, "json.Marshal(map[string]PC{})", []string{"_gtjv1[_gtjv2] = int(_gtjv3)"}, []string{"MarshalJSON()"})
	wantCode(t, methods, "json.Marshal(map[K]K{})", []string{
		"_gtjv1 := make(map[string]any, len(_gtjv)); for _gtjv2, _gtjv3 := range _gtjv { _gtjv6, _gtjv7 := _gtjv2.MarshalText(); if _gtjv7 != nil { return _gt.JSONKeyError(\"map[main.K]main.K\", _gtjv7) }; ",
		"_gtjv1[string(_gtjv6)] = func() any { _gtjv4, _gtjv5 := _gtjv3.MarshalText(); return _gt.JSONText(\"main.K\", _gtjv4, _gtjv5) }()",
	}, nil)
	// Values in interfaces: a dispatch over the session's types that
	// need a view, given to _gt.FmtAny; none for a value without
	// interfaces.
	wantCode(t, setup, "json.Marshal(map[string]any{})", []string{
		"var _gtjv1 func(any) any; ",
		"_gtjv1 = func(_gtv any) any { _gtt := _gt.CellType(_gtv); if _gtt == \"main.C\" { if _gtx, _gtok := _gtv.(C); _gtok { return func() any { ",
		"if (_gtt == \"main.Item\" || _gtt == \"\") { if _gtx, _gtok := _gtv.(Item); _gtok { return ",
		"return _gt.FmtAny(_gtjv, _gtjv1) }())",
	}, nil)
	wantCode(t, setup, "json.Marshal(map[string]int{})", []string{"json.Marshal(map[string]int{})"}, []string{"FmtAny"})
	// json.Unmarshal into an interface: the pointer in it is asserted to
	// the session's types that need a fill (and slices and maps of them).
	wantCode(t, setup, "func load(b []byte, v any) error { return json.Unmarshal(b, v) }", []string{
		"return func(_gtjd []byte, _gtjp any) error { _gtjc := _gt.NewJSONDecoding(nil); ",
		"_gtt := _gt.CellType(_gtjp); if (_gtt == \"*main.Base\" || _gtt == \"\") {",
		"if (_gtt == \"*main.Cfg\" || _gtt == \"\") { if _gtx, _gtok := _gtjp.(*Cfg); _gtok && _gtx != nil { var _gtjraw json.RawMessage; " +
			"if _gte := json.Unmarshal(_gtjd, &_gtjraw); _gte != nil { return _gte }; return _gtjc.Err(",
		"if _gtx, _gtok := _gtjp.(*[]Item); _gtok && _gtx != nil {",
		"return json.Unmarshal(_gtjd, _gtjp) }(b, v)",
	}, nil)
	wantCode(t, setup, "func load(b []byte, v any) error { return json.Unmarshal(b, v) }", nil, []string{"*C)", "*[]C)"})
	wantCode(t, setup, "defer json.Marshal(C(1))", []string{"defer json.Marshal(func() any {"}, []string{"JSONResult"})
}
