package cellrt

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
)

// JSONValue returns a value that encoding/json marshals as the result of
// a MarshalJSON method of a value of type typ (as reflect names it), b
// and err: the view the planner gives compiled json of a value whose type
// a cell declared with that method. JSONError and JSONResult give the
// error json returns the name of typ.
func JSONValue(typ string, b []byte, err error) any {
	if err != nil {
		err = &MarshalerError{Type: typ, Err: err}
	}
	return jsonValue{b, err}
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
}

// Error says what json.MarshalerError says.
func (e *MarshalerError) Error() string {
	return "json: error calling MarshalJSON for type " + e.Type + ": " + e.Err.Error()
}

// Unwrap returns the method's error.
func (e *MarshalerError) Unwrap() error { return e.Err }

// JSONError returns err, an error of encoding/json marshalling a view
// (see JSONValue), with the type of the cell whose method failed in place
// of the view's.
func JSONError(err error) error {
	var me *json.MarshalerError
	if errors.As(err, &me) && me.Type == reflect.TypeFor[jsonValue]() {
		var ce *MarshalerError
		if errors.As(me.Err, &ce) {
			return ce
		}
	}
	return err
}

// JSONResult is JSONError for the results of json.Marshal and
// json.MarshalIndent.
func JSONResult(b []byte, err error) ([]byte, error) { return b, JSONError(err) }

// JSONFillError returns err, an error of encoding/json filling the view
// of a cell's struct named name, with that name where json names the
// view's struct (an anonymous one) in an error about one of its fields.
func JSONFillError(err error, name string) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Struct == "" && te.Field != "" && !strings.Contains(te.Field, ".") {
		fixed := *te
		fixed.Struct = name
		if err == error(te) {
			return &fixed
		}
	}
	return err
}
