package cellrt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// JSONValue returns a value that encoding/json marshals as the result of
// a MarshalJSON method of a value of type typ (as reflect names it), b
// and err: the view the planner gives compiled json of a value whose type
// a cell declared with that method. JSONError and JSONResult give the
// error json returns the name of typ.
func JSONValue(typ string, b []byte, err error) any {
	if err == nil && !json.Valid(b) {
		// The error json gives for what the method returned.
		var v any
		err = json.Unmarshal(b, &v)
	}
	if err != nil {
		err = &MarshalerError{Type: typ, Err: err, Func: "MarshalJSON"}
	}
	return jsonValue{b, err}
}

// JSONText is JSONValue for the result of a MarshalText method: json
// writes it as a string.
func JSONText(typ string, b []byte, err error) any {
	if err != nil {
		return jsonValue{nil, &MarshalerError{Type: typ, Err: err, Func: "MarshalText"}}
	}
	// Quoted as json quotes a string, but for <, > and &, which json
	// escapes (or not, as the Encoder is set) as it writes the result.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(string(b))
	return jsonValue{bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil}
}

// JSONKeyError returns a value that json fails to marshal with the error
// Go's json gives when a key of a map of type typ fails its MarshalText.
func JSONKeyError(typ string, err error) any {
	return jsonValue{nil, fmt.Errorf("json: encoding error for type %q: %q", typ, err.Error())}
}

// jsonValue is a json.Marshaler of a result.
type jsonValue struct {
	b   []byte
	err error
}

// MarshalJSON returns the result.
func (v jsonValue) MarshalJSON() ([]byte, error) { return v.b, v.err }

// A MarshalerError is json.MarshalerError for a type a cell declared.
type MarshalerError struct {
	Type string
	Err  error
	Func string // MarshalJSON or MarshalText
}

// Error says what json.MarshalerError says.
func (e *MarshalerError) Error() string {
	return "json: error calling " + e.Func + " for type " + e.Type + ": " + e.Err.Error()
}

// Unwrap returns the method's error.
func (e *MarshalerError) Unwrap() error { return e.Err }

// JSONError returns err, an error of encoding/json marshalling a view
// (see JSONValue), with the type of the cell whose method failed in place
// of the view's.
func JSONError(err error) error {
	var me *json.MarshalerError
	if errors.As(err, &me) && me.Type == reflect.TypeFor[jsonValue]() {
		return me.Err
	}
	return err
}

// JSONResult is JSONError for the results of json.Marshal and
// json.MarshalIndent.
func JSONResult(b []byte, err error) ([]byte, error) { return b, JSONError(err) }

// A JSONDecoding is one json.Unmarshal or (*json.Decoder).Decode into a
// value whose type a cell declared, which the planner's fill functions
// decode a part at a time: each part's JSON text (a json.RawMessage of a
// value that compiled json found valid) into a view of the part that
// compiled json fills as Go fills the part. It decodes the parts with the
// decoder's options and keeps Go's order of errors: the first type error
// is returned at the end, another error (a method's) stops the decoding.
type JSONDecoding struct {
	useNumber, strict bool
	saved             error
	savedAt           int64 // where in the text the saved error is
}

// NewJSONDecoding returns the decoding of one call: of json.Unmarshal
// when dec is nil, of dec.Decode otherwise (with its UseNumber and
// DisallowUnknownFields settings).
func NewJSONDecoding(dec *json.Decoder) *JSONDecoding {
	d := &JSONDecoding{}
	if dec != nil {
		// The settings are unexported: read them where encoding/json
		// keeps them, and decode without them where it keeps them
		// elsewhere.
		ds := reflect.ValueOf(dec).Elem().FieldByName("d")
		if ds.IsValid() && ds.Kind() == reflect.Struct {
			if f := ds.FieldByName("useNumber"); f.IsValid() && f.Kind() == reflect.Bool {
				d.useNumber = f.Bool()
			}
			if f := ds.FieldByName("disallowUnknownFields"); f.IsValid() && f.Kind() == reflect.Bool {
				d.strict = f.Bool()
			}
		}
	}
	return d
}

// Unmarshal decodes data, one JSON value, into v with the call's
// settings.
func (d *JSONDecoding) Unmarshal(data []byte, v any) error {
	if !d.useNumber && !d.strict {
		return json.Unmarshal(data, v)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if d.useNumber {
		dec.UseNumber()
	}
	if d.strict {
		dec.DisallowUnknownFields()
	}
	return dec.Decode(v)
}

// Check returns err, an error of decoding a part of the value (at offset
// off of the text) in the struct named st at the field path path, when it
// stops the decoding, and nil after keeping it for Err when json goes on
// (a type error, a misused ",string" option, an unknown field). A type
// error gets the struct's name, the field's path and its offset in the
// whole text, as Go's has them. Of the errors kept, Err returns the one
// earliest in the text, the first Go's decoder meets.
//
// promoted holds pairs of the JSON name of a field promoted from an
// embedded struct and its path (Base.id), which Go's errors give.
func (d *JSONDecoding) Check(err error, st, path string, off int64, promoted ...string) error {
	var te *json.UnmarshalTypeError
	at := off
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te) && err == error(te):
		if te.Struct == "" {
			te.Struct = st
		}
		first, rest, _ := strings.Cut(te.Field, ".")
		for i := 0; i+1 < len(promoted); i += 2 {
			if promoted[i] == first {
				te.Field = JSONPath(promoted[i+1], rest)
				break
			}
		}
		te.Field = JSONPath(path, te.Field)
		te.Offset += off
		at = te.Offset
	case strings.HasPrefix(err.Error(), "json: invalid use of ,string struct tag"), strings.HasPrefix(err.Error(), "json: unknown field "),
		strings.HasPrefix(err.Error(), "json: cannot set embedded pointer"):
	default:
		return err
	}
	if d.saved == nil || at < d.savedAt {
		d.saved, d.savedAt = err, at
	}
	return nil
}

// Mismatch keeps the type error of data, JSON at offset off that is not
// of the kind of typ (as reflect names it), a part of the value in the
// struct named st at the field path path.
func (d *JSONDecoding) Mismatch(data []byte, st, path, typ string, off int64) {
	// Go's decoder is past an object's or array's first byte, or past
	// the literal, when it finds the mismatch.
	value, at := "number", int64(len(data))
	if len(data) > 0 {
		switch data[0] {
		case '{':
			value, at = "object", 1
		case '[':
			value, at = "array", 1
		case '"':
			value = "string"
		case 't', 'f':
			value = "bool"
		case 'n':
			value = "null"
		}
	}
	d.Check(&json.UnmarshalTypeError{Value: value, Type: namedType{reflect.TypeFor[struct{}](), typ}, Offset: at}, st, path, off)
}

// Unsettable keeps the error of a field promoted through a nil embedded
// pointer to typ, an unexported struct, which json cannot set.
func (d *JSONDecoding) Unsettable(typ string, off int64) {
	d.Check(fmt.Errorf("json: cannot set embedded pointer to unexported struct: %s", typ), "", "", off)
}

// Lead returns the offset of the value in data, after white space.
func (d *JSONDecoding) Lead(data []byte) int64 {
	return int64(len(data) - len(bytes.TrimLeft(data, " \t\r\n")))
}

// Elems returns the offsets of the elements of data, a JSON array at
// offset off of the text.
func (d *JSONDecoding) Elems(data []byte, off int64) []int64 {
	var offs []int64
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.Token()
	for dec.More() {
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
		offs = append(offs, off+dec.InputOffset()-int64(len(v)))
	}
	return offs
}

// Members returns the offsets of the values of data's members by key
// (the last of a key), data a JSON object at offset off of the text.
func (d *JSONDecoding) Members(data []byte, off int64) map[string]int64 {
	offs := map[string]int64{}
	members(data, off, func(key string, at int64) { offs[key] = at })
	return offs
}

// Values returns the values of data's members that json decodes into the
// field named name (of that name, or that name in another case: each,
// in order, as Go's decoder does) and their offsets, data a JSON object
// at offset off of the text.
func (d *JSONDecoding) Values(data []byte, off int64, name string) (vals []json.RawMessage, offs []int64) {
	members(data, off, func(key string, at int64) {
		if strings.EqualFold(key, name) {
			v := data[at-off:]
			var raw json.RawMessage
			json.NewDecoder(bytes.NewReader(v)).Decode(&raw)
			vals, offs = append(vals, raw), append(offs, at)
		}
	})
	return vals, offs
}

// members calls f with the key and the offset of the value of each of
// data's members, data a JSON object at offset off of the text.
func members(data []byte, off int64, f func(key string, at int64)) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.Token()
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return
		}
		key, _ := k.(string)
		f(key, off+dec.InputOffset()-int64(len(v)))
	}
}

// Unquote returns the string data, a JSON string, holds.
func (d *JSONDecoding) Unquote(data []byte) ([]byte, error) {
	var s string
	err := json.Unmarshal(data, &s)
	return []byte(s), err
}

// Err returns what the call returns: err, which stopped the decoding,
// or the first type error kept.
func (d *JSONDecoding) Err(err error) error {
	if err != nil {
		return err
	}
	return d.saved
}

// JSONPath returns the field path of field (itself a path) in the value
// at path.
func JSONPath(path, field string) string {
	switch {
	case path == "":
		return field
	case field == "":
		return path
	}
	return path + "." + field
}

// namedType is a reflect.Type that a json error names by the name Go
// gives a cell's type.
type namedType struct {
	reflect.Type
	name string
}

// String returns the type's name.
func (t namedType) String() string { return t.name }

// JSONPresent returns v, or a JSON null where v is nil: the view of a
// field that Go writes (the field is nil where Go leaves it out).
func JSONPresent(v any) any {
	if v == nil {
		return json.RawMessage("null")
	}
	return v
}

// IsZero reports whether v is the zero value of its type, for json's
// omitzero option.
func IsZero(v any) bool {
	return v == nil || reflect.ValueOf(v).IsZero()
}
