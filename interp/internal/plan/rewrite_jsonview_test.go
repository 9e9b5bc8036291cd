package plan

import (
	"strings"
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
		"_gtjv3.F0 = _gtjv2.ID; _gtjv3.F1 = _gtjv2.Name; if !(len(_gtjv2.Kids) == 0) { _gtjv3.F2 = ",
		"_gtjv := (Item{}); return _gtjv1(_gtjv) }())",
	}, []string{"secret"})
	wantCode(t, setup, "json.MarshalIndent([]C{1}, \"\", \" \")", []string{
		"_gt.JSONResult(json.MarshalIndent(func() any {",
		".MarshalJSON(); return _gt.JSONValue(\"main.C\", ",
	}, nil)
	wantCode(t, setup, "var it Cfg\njson.Unmarshal([]byte(`{}`), &it)", []string{
		"func() error { _gtjd := ([]byte(`{}`)); _gtjp := (&it); if _gtjp == nil { return json.Unmarshal(_gtjd, _gtjp) }; ",
		"var _gtjr struct { F0 *int \"json:\\\"id\\\"\"; F1 *string \"json:\\\"name,omitempty\\\"\"; F2 *[]int \"json:\\\"Sizes\\\"\"; }; ",
		"_gtjr.F0 = &_gtjp.ID; _gtjr.F1 = &_gtjp.Name; _gtjr.F2 = &_gtjp.Sizes; _gte := json.Unmarshal(_gtjd, &_gtjr); ",
		"if _gtjr.F2 == nil { _gtjp.Sizes = nil }; if _gtjr.F2 != nil && _gtjr.F2 != &_gtjp.Sizes { _gtjp.Sizes = *_gtjr.F2 }; ",
		"return _gt.JSONFillError(_gte, \"Cfg\") }()",
	}, []string{"secret"})
	s := newSession(t)
	run(t, s, 1, setup)
	if _, err := s.Plan(2, "var it Cfg\ndefer json.Unmarshal(nil, &it)"); err == nil || !strings.Contains(err.Error(), "json.Unmarshal of *Cfg cannot be done as Go does it") {
		t.Errorf("a deferred json.Unmarshal into a view: got %v, want the refusal", err)
	}
	wantCode(t, setup, "import \"strings\"\nvar it Cfg\njson.NewDecoder(strings.NewReader(`{}`)).Decode(&it)", []string{
		"func(_gtjdec *json.Decoder, _gtjp *Cfg) error { if _gtjp == nil { return _gtjdec.Decode(_gtjp) }; var _gtjr struct {",
		"_gte := _gtjdec.Decode(&_gtjr); ",
		"return _gt.JSONFillError(_gte, \"Cfg\") }(json.NewDecoder(strings.NewReader(`{}`)), &it)",
	}, nil)
	wantCode(t, setup, "defer json.Marshal(C(1))", []string{"defer json.Marshal(func() any {"}, []string{"JSONResult"})
}
