package stdlib

import (
	"encoding"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"log"
	"reflect"
)

// MapTypes tells yaegi which interfaces a compiled function looks for in
// its interface{} arguments: a value of a type declared in a cell that has
// the interface's methods is handed over wrapped so that the function sees
// them (fmt.Println calls a cell type's String method). Without an entry the
// function gets a plain value and the methods are lost.
var MapTypes = map[reflect.Value][]reflect.Type{}

func init() {
	printing := interfaces((*fmt.Formatter)(nil), (*fmt.Stringer)(nil))
	scanning := interfaces((*fmt.Scanner)(nil))
	marshalJSON := interfaces((*json.Marshaler)(nil), (*encoding.TextMarshaler)(nil))
	unmarshalJSON := interfaces((*json.Unmarshaler)(nil), (*encoding.TextUnmarshaler)(nil))
	marshalXML := interfaces((*xml.Marshaler)(nil), (*encoding.TextMarshaler)(nil))
	unmarshalXML := interfaces((*xml.Unmarshaler)(nil), (*encoding.TextUnmarshaler)(nil))
	for _, e := range []struct {
		types []reflect.Type
		funcs []any
	}{
		{printing, []any{
			fmt.Append, fmt.Appendf, fmt.Appendln, fmt.Errorf,
			fmt.Fprint, fmt.Fprintf, fmt.Fprintln,
			fmt.Print, fmt.Printf, fmt.Println,
			fmt.Sprint, fmt.Sprintf, fmt.Sprintln,
			log.Fatal, log.Fatalf, log.Fatalln,
			log.Panic, log.Panicf, log.Panicln,
			log.Print, log.Printf, log.Println,
		}},
		{scanning, []any{
			fmt.Fscan, fmt.Fscanf, fmt.Fscanln,
			fmt.Scan, fmt.Scanf, fmt.Scanln,
			fmt.Sscan, fmt.Sscanf, fmt.Sscanln,
		}},
		{marshalJSON, []any{json.Marshal, json.MarshalIndent}},
		{unmarshalJSON, []any{json.Unmarshal}},
		{marshalXML, []any{xml.Marshal, xml.MarshalIndent}},
		{unmarshalXML, []any{xml.Unmarshal}},
	} {
		for _, f := range e.funcs {
			MapTypes[reflect.ValueOf(f)] = e.types
		}
	}
}

// interfaces returns the interface types that nil pointers to them name.
func interfaces(ptrs ...any) []reflect.Type {
	ts := make([]reflect.Type, len(ptrs))
	for i, p := range ptrs {
		ts[i] = reflect.TypeOf(p).Elem()
	}
	return ts
}
