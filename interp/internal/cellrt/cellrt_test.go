package cellrt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// Compiled types with the methods a cell's types have: fmt's output on
// them is the reference for Fmt, which is given the same value without
// its methods (as the interpreter hands it to compiled code) and the
// methods apart.
type (
	stringer int
	failing  int
	fmtr     int
	gostr    struct{ A, B int }
	errT     struct{ msg string }
	ptrStr   struct{ n int }
)

func (s stringer) String() string { return "S" + fmt.Sprint(int(s)) }
func (failing) String() string    { panic("boom") }
func (f fmtr) Format(s fmt.State, verb rune) {
	fmt.Fprintf(s, "F(%c,%v)", verb, s.Flag('+'))
}
func (g gostr) GoString() string { return "G!" }
func (g gostr) String() string   { return "g" }
func (e *errT) Error() string    { return "E:" + e.msg }
func (p *ptrStr) String() string { return fmt.Sprint("P", p.n) }

func TestFmtLikeFmt(t *testing.T) {
	e := &errT{"x"}
	var nilPtr *ptrStr
	cases := []struct {
		format string
		real   any // a value of a compiled type with the methods
		cell   any // the same value as Fmt gets it
	}{
		{"%v", stringer(3), Fmt(3, stringer(3).String, nil, nil, nil)},
		{"%s|%q|%x|%X", stringer(3), Fmt(3, stringer(3).String, nil, nil, nil)},
		{"%d|%5d|%-4d|%o", stringer(3), Fmt(3, stringer(3).String, nil, nil, nil)},
		{"%8s|%-8v|%.1s", stringer(3), Fmt(3, stringer(3).String, nil, nil, nil)},
		{"%v|%d", failing(1), Fmt(1, failing(1).String, nil, nil, nil)},
		{"%v|%+v|%d", fmtr(1), Fmt(1, nil, nil, fmtr(1).Format, nil)},
		{"%#v|%v|%+v", gostr{1, 2}, Fmt(struct{ A, B int }{1, 2}, gostr{}.String, nil, nil, gostr{}.GoString)},
		{"%v|%s|%10v", e, Fmt(e, nil, e.Error, nil, nil)},
		{"%v|%s", nilPtr, Fmt(nilPtr, nilPtr.String, nil, nil, nil)},
		{"%v %d", []int{1}, Fmt([]int{1}, nil, nil, nil, nil)},
	}
	for i, c := range cases {
		compareWithFmt(t, i, c.format, c.real, c.cell)
	}
	// Println and Sprint use %v.
	if got, want := fmt.Sprintln(Fmt(3, stringer(3).String, nil, nil, nil), 4), fmt.Sprintln(stringer(3), 4); got != want {
		t.Errorf("Sprintln: got %q, want %q", got, want)
	}
}

// point is a compiled struct with unexported fields; pointX is the struct
// the interpreter makes for it (reflect.StructOf cannot make unexported
// fields).
type (
	point  struct{ x, y int }
	pointX struct{ Xx, Xy int }
	line   struct {
		a    point
		Name string
	}
)

func TestDescribeLikeFmt(t *testing.T) {
	p, q := point{1, 2}, pointX{1, 2}
	cases := []struct {
		format string
		real   any
		cell   any
	}{
		{"%v|%+v|%#v|%d", p, Describe(q, "cellrt.point", "x", "y")},
		{"%v|%+v|%#v", &p, Describe(&q, "cellrt.point", "x", "y")},
		{"%+v|%#v", line{Name: "l"}, Describe(struct {
			Xa   point
			Name string
		}{Name: "l"}, "cellrt.line", "a", "Name")},
	}
	for i, c := range cases {
		compareWithFmt(t, i, c.format, c.real, c.cell)
	}
}

// compareWithFmt checks that format gives the same with cell (made by
// Fmt or Describe) as with real (a compiled value), each argument of the
// format being the value.
func compareWithFmt(t *testing.T, i int, format string, real, cell any) {
	t.Helper()
	n := strings.Count(format, "%")
	want := fmt.Sprintf(format, repeat(real, n)...)
	if got := fmt.Sprintf(format, repeat(cell, n)...); got != want {
		t.Errorf("case %d %q: got %q, fmt gives %q", i, format, got, want)
	}
}

func repeat(x any, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = x
	}
	return out
}

// yaegiError mimics the interpreter's wrapper of a value of a type
// declared in a cell that implements error: not comparable.
type _error struct {
	IValue any
	WError func() string
}

func (w _error) Error() string { return w.WError() }

func TestErrors(t *testing.T) {
	type cellErr struct{ msg string }
	v := &cellErr{"x"}
	wrap := func() error { return _error{IValue: v, WError: func() string { return v.msg }} }
	err := fmt.Errorf("ctx: %w", wrap())
	// What compiled errors.Is does with the wrappers: a panic.
	func() {
		defer func() { recover() }()
		if errors.Is(err, wrap()) {
			t.Error("errors.Is found a wrapper equal to another")
		}
	}()
	if !ErrorsIs(err, wrap()) {
		t.Error("ErrorsIs: the same cell error is not found in the chain")
	}
	if ErrorsIs(err, _error{IValue: &cellErr{"x"}, WError: func() string { return "x" }}) {
		t.Error("ErrorsIs: another value of the same type matched")
	}
	if !ErrorsIs(err, err) || ErrorsIs(err, nil) || !ErrorsIs(nil, nil) {
		t.Error("ErrorsIs on the error itself or nil")
	}
	sentinel := errors.New("s")
	if !ErrorsIs(errors.Join(errors.New("a"), fmt.Errorf("b: %w", sentinel)), sentinel) {
		t.Error("ErrorsIs does not follow Unwrap() []error")
	}
	// Fmt's errors wrap with %w and are found again.
	f := Fmt(v, nil, func() string { return v.msg }, nil, nil).(error)
	if !ErrorsIs(fmt.Errorf("w: %w", f), wrap()) {
		t.Error("ErrorsIs: an error wrapped through Fmt is not the cell's value")
	}
	var got *cellErr
	ok := ErrorsAs(err, func(e any) bool {
		c, ok := e.(*cellErr)
		if ok {
			got = c
		}
		return ok
	})
	if !ok || got != v {
		t.Errorf("ErrorsAs: got %v %v, want the cell's value", ok, got)
	}
}

func TestClear(t *testing.T) {
	m := map[string]int{"a": 1}
	Clear(m)
	s := []int{1, 2}
	Clear(s)
	if len(m) != 0 || s[0] != 0 || s[1] != 0 {
		t.Errorf("Clear: %v %v", m, s)
	}
}

// printed are the values TestPrint compares with the builtin println.
var printed = []any{1, -7, uint8(200), true, "str", 1.5, -0.0, 0.1, 2.0 / 3, 1e300, 1e-5, 123456789.0, 9.9999999, float32(0.1), 3 + 4i, complex64(1 - 2.5i), math.Inf(-1), math.NaN()}

func TestMain(m *testing.M) {
	if os.Getenv("CELLRT_PRINT") == "1" {
		println(1, -7, uint8(200), true, "str", 1.5, -0.0, 0.1, 2.0/3, 1e300, 1e-5, 123456789.0, 9.9999999, float32(0.1), 3+4i, complex64(1-2.5i), math.Inf(-1), math.NaN())
		print("a", 1, "\n")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestPrint compares print and println with Go's builtins, run in a child
// process (they write to its standard error).
func TestPrint(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CELLRT_PRINT=1")
	var want bytes.Buffer
	cmd.Stderr = &want
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	rt := &Runtime{Stderr: &got}
	rt.Println(printed...)
	rt.Print("a", 1, "\n")
	if got.String() != want.String() {
		t.Errorf("got  %q\nwant %q", got.String(), want.String())
	}
}

func TestHooks(t *testing.T) {
	rt := &Runtime{Limit: 7}
	catch := func(f func()) (r any) {
		defer func() { r = recover() }()
		f()
		return nil
	}
	if r := catch(func() { rt.Exit(3) }); fmt.Sprint(r) != "exit status 3" {
		t.Errorf("Exit: %v", r)
	}
	var logged []any
	if r := catch(func() { rt.Fatal(func(v ...any) { logged = v })("boom") }); fmt.Sprint(r) != "exit status 1" || fmt.Sprint(logged) != "[boom]" {
		t.Errorf("Fatal: %v %v", r, logged)
	}
	if r := catch(func() { rt.Enter("f") }); fmt.Sprint(r) != "runaway recursion: f was called 7 calls deep, the session's limit (raise it if the recursion is meant)" {
		t.Errorf("Enter: %v", r)
	}
	rt.Interrupted = func() bool { return true }
	if r := catch(func() { rt.Enter("f") }); r != (Interrupted{}) {
		t.Errorf("Enter when interrupted: %v", r)
	}
	var res any
	rt.Result(_error{IValue: 42}, nil, nil, nil, nil, nil)
	if v, ok := rt.TakeResult(); ok {
		res = v.V
	}
	if res != 42 {
		t.Errorf("Result hands over %v, want the value inside the wrapper", res)
	}
	if _, ok := rt.TakeResult(); ok {
		t.Errorf("TakeResult gave a value twice")
	}
}

// TestJSONValue checks that json marshals a JSONValue as its result, and
// that JSONError names the cell's type in a method's error as Go does.
func TestJSONValue(t *testing.T) {
	b, err := JSONResult(json.Marshal([]any{JSONValue("main.C", []byte(` "x" `), nil), 1}))
	if string(b) != `["x",1]` || err != nil {
		t.Errorf("got %s, %v; want [\"x\",1]", b, err)
	}
	boom := errors.New("boom")
	_, err = JSONResult(json.Marshal(map[string]any{"a": JSONValue("*main.C", nil, boom)}))
	if err == nil || err.Error() != "json: error calling MarshalJSON for type *main.C: boom" || !errors.Is(err, boom) {
		t.Errorf("got %v, want json's error naming *main.C that wraps boom", err)
	}
	if err := JSONError(nil); err != nil {
		t.Errorf("JSONError(nil) = %v", err)
	}
}

// TestJSONDecoding checks the errors of a decoding a part at a time
// against those of encoding/json decoding the whole: a type error gets the
// struct and the field path Go gives, with a promoted field's embedded
// struct, the first one wins, and a mismatch names the cell's type.
func TestJSONDecoding(t *testing.T) {
	type Base struct {
		ID int `json:"id"`
	}
	type Item struct {
		Base
		Kids []Item `json:"kids"`
	}
	var whole []Item
	want := json.Unmarshal([]byte(`[{"kids":[{"id":"x"}]}]`), &whole)
	// The same error, met decoding the inner item's view.
	d := NewJSONDecoding(nil)
	var view struct {
		F0 *int `json:"id"`
	}
	if err := d.Check(d.Unmarshal([]byte(`{"id":"x"}`), &view), "Item", "kids", 10, "id", "Base.id"); err != nil {
		t.Fatalf("Check kept no type error: %v", err)
	}
	d.Check(d.Unmarshal([]byte(`{"id":true}`), &view), "Item", "", 20, "id", "Base.id")
	if got := d.Err(nil); got == nil || got.Error() != want.Error() {
		t.Errorf("got %v, want %v", got, want)
	}
	if err := d.Err(errors.New("stop")); err == nil || err.Error() != "stop" {
		t.Errorf("a stopping error: got %v", err)
	}
	var items []Item
	want = json.Unmarshal([]byte(`{"kids":{}}`), &items)
	d = NewJSONDecoding(nil)
	d.Mismatch([]byte(`{}`), "", "", "[]cellrt.Item", 0)
	if got := d.Err(nil); got == nil || got.Error() != want.Error() {
		t.Errorf("mismatch: got %v, want %v", got, want)
	}
	var one Item
	want = json.Unmarshal([]byte(`{"kids":4}`), &one)
	d = NewJSONDecoding(nil)
	d.Mismatch([]byte(`4`), "Item", "kids", "[]cellrt.Item", 8)
	if got := d.Err(nil); got == nil || got.Error() != want.Error() {
		t.Errorf("mismatch in a field: got %v, want %v", got, want)
	}
}

// TestJSONDecodingSettings checks that the parts of a Decode are decoded
// with the decoder's UseNumber and DisallowUnknownFields.
func TestJSONDecodingSettings(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(""))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	d := NewJSONDecoding(dec)
	var v struct{ A any }
	err := d.Check(d.Unmarshal([]byte(`{"A":1.5,"B":2}`), &v), "", "", 0)
	if _, ok := v.A.(json.Number); !ok || err != nil {
		t.Errorf("UseNumber: got %T, %v", v.A, err)
	}
	if err := d.Err(nil); err == nil || err.Error() != `json: unknown field "B"` {
		t.Errorf("DisallowUnknownFields: got %v", err)
	}
	if d := NewJSONDecoding(nil); d.Unmarshal([]byte(`{"B":1}`), &v) != nil {
		t.Errorf("json.Unmarshal's decoding refuses unknown fields")
	}
}

// textColor is a compiled type with a MarshalText method.
type textColor string

func (c textColor) MarshalText() ([]byte, error) { return []byte("<" + c + ">"), nil }

// TestJSONText checks that json writes the view of a MarshalText result
// as it writes the method's type, escaped for HTML or not as the
// encoder is set.
func TestJSONText(t *testing.T) {
	for _, html := range []bool{true, false} {
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(html)
		enc.Encode([]textColor{"a&b"})
		enc = json.NewEncoder(&got)
		enc.SetEscapeHTML(html)
		enc.Encode([]any{JSONText("main.C", []byte("<a&b>"), nil)})
		if got.String() != want.String() {
			t.Errorf("escape HTML %v: got %s, want %s", html, got.String(), want.String())
		}
	}
	_, err := json.Marshal(JSONText("main.C", nil, errors.New("no")))
	if err = JSONError(err); err == nil || err.Error() != "json: error calling MarshalText for type main.C: no" {
		t.Errorf("got %v", err)
	}
}

// TestJSONDecodingOffsets checks that a decoding a part at a time finds
// the parts where Go's decoder does: a type error met in an inner part
// gets the offset Go's error has in the whole text, and of two errors the
// earlier in the text is returned, whatever the order they are met in.
func TestJSONDecodingOffsets(t *testing.T) {
	type Inner struct {
		ID int `json:"id"`
	}
	data := []byte(` [ {"name": 1, "kids" : [ {"id":"x"} ]} ]`)
	var whole []struct {
		Kids []Inner `json:"kids"`
	}
	want := json.Unmarshal(data, &whole).(*json.UnmarshalTypeError)
	d := NewJSONDecoding(nil)
	outer := d.Elems(data[d.Lead(data):], d.Lead(data))
	item := data[outer[0]:]
	_, at := d.Values(item, outer[0], "Kids") // the tag's name in another case
	kids := at[0]
	inner := d.Elems(data[kids:], kids)
	var view struct {
		F0 *int `json:"id"`
	}
	d.Check(d.Unmarshal(data[inner[0]:inner[0]+10], &view), "Inner", "kids", inner[0])
	got := d.Err(nil).(*json.UnmarshalTypeError)
	if got.Offset != want.Offset {
		t.Errorf("offset %d, want Go's %d", got.Offset, want.Offset)
	}
	d.Check(&json.UnmarshalTypeError{Value: "number", Type: reflect.TypeFor[string](), Offset: 2}, "T", "name", outer[0])
	if err := d.Err(nil).(*json.UnmarshalTypeError); err.Field != "name" {
		t.Errorf("the earlier error: got %v", err)
	}
}
