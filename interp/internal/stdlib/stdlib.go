// Package stdlib holds the yaegi symbol tables of the standard library of
// the Go toolchain that builds gotensor, so that cells see the library of the
// Go they were promised (errors.AsType's neighbours, strings.SplitSeq, the
// crypto packages of Go 1.24 ...), not the Go 1.22 tables inside yaegi.
//
// Regenerate after changing the Go toolchain:
//
//	go generate ./interp/internal/stdlib
//
// The tables hold compiled values, so generic functions and types, which
// have none until they are instantiated, are not in them (see gen).
package stdlib

import "reflect"

//go:generate go run ./gen

// Symbols maps "import/path/name" to the package's exported symbols, in the
// form yaegi's interp.Use expects. It holds, under ".", the MapTypes entry
// that yaegi reads from a standard-library table.
var Symbols = map[string]map[string]reflect.Value{
	".": {"MapTypes": reflect.ValueOf(MapTypes)},
}
