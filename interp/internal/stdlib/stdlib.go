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

import (
	"reflect"
	"sync"
)

//go:generate go run ./gen

// symbols maps "import/path/name" to the package's exported symbols, in
// the form yaegi's interp.Use expects, once Symbols has run the tables.
var symbols = map[string]map[string]reflect.Value{
	".": {"MapTypes": reflect.ValueOf(MapTypes)},
}

// tables are the functions, one a package, that add each package's
// symbols to symbols.
var tables []func()

// Symbols returns the tables: a map from "import/path/name" to the
// package's exported symbols, in the form yaegi's interp.Use expects,
// which holds, under ".", the MapTypes entry that yaegi reads from a
// standard-library table. They are built on the first call, not when the
// program starts: building them takes milliseconds, which a program that
// links the package but does not run cells (the kernel answering its
// first request) need not spend.
var Symbols = sync.OnceValue(func() map[string]map[string]reflect.Value {
	for _, add := range tables {
		add()
	}
	tables = nil
	return symbols
})
