package cellrt

import (
	"cmp"
	"reflect"
	"slices"
)

// Compiled instances of the standard library's generic functions: cells
// call them instead of interpreting the generic code, which is two orders
// of magnitude slower (slices.Sort of 100,000 ints: 7 ms compiled, 5 s
// interpreted). They are slices' functions on slices of int, int64,
// float64 and string (the slice type unnamed), under the names the
// planner asks for: InstSlices + function + _ + element type
// ("InstSlicesSort_int").

// addInstances adds the compiled instances to a runtime's exports.
func addInstances(m map[string]reflect.Value) {
	addSlices[int](m, "int")
	addSlices[int64](m, "int64")
	addSlices[float64](m, "float64")
	addSlices[string](m, "string")
}

func addSlices[E cmp.Ordered](m map[string]reflect.Value, e string) {
	fs := map[string]any{
		"Sort":           slices.Sort[[]E, E],
		"SortFunc":       slices.SortFunc[[]E, E],
		"SortStableFunc": slices.SortStableFunc[[]E, E],
		"IsSorted":       slices.IsSorted[[]E, E],
		"IsSortedFunc":   slices.IsSortedFunc[[]E, E],
		"BinarySearch":   slices.BinarySearch[[]E, E],
		"Contains":       slices.Contains[[]E, E],
		"ContainsFunc":   slices.ContainsFunc[[]E, E],
		"Index":          slices.Index[[]E, E],
		"IndexFunc":      slices.IndexFunc[[]E, E],
		"Equal":          slices.Equal[[]E, E],
		"Max":            slices.Max[[]E, E],
		"Min":            slices.Min[[]E, E],
		"Reverse":        slices.Reverse[[]E, E],
		"Compact":        slices.Compact[[]E, E],
	}
	for name, f := range fs {
		m["InstSlices"+name+"_"+e] = reflect.ValueOf(f)
	}
}
