// Package rtprint formats values as the print and println builtins of
// Go's runtime write them, for interpreted and compiled cells alike (both
// write them to the cell's standard error, not the process's).
package rtprint

import (
	"math"
	"reflect"
	"strconv"
)

// Append appends x as the runtime's print formats it: integers in
// decimal, floats in their shortest form, pointers and references in hex,
// slices as [len/cap]pointer, a nil interface as (0x0,0x0).
func Append(b []byte, x any) []byte {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Invalid:
		return append(b, "(0x0,0x0)"...)
	case reflect.Bool:
		return strconv.AppendBool(b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(b, v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		return appendFloat(b, v.Float(), v.Type().Bits())
	case reflect.Complex64, reflect.Complex128:
		c, bits := v.Complex(), v.Type().Bits()/2
		b = append(b, '(')
		b = appendFloat(b, real(c), bits)
		if im := imag(c); im >= 0 || math.IsNaN(im) {
			b = append(b, '+')
		}
		b = appendFloat(b, imag(c), bits)
		return append(b, "i)"...)
	case reflect.String:
		return append(b, v.String()...)
	case reflect.Slice:
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(v.Len()), 10)
		b = append(b, '/')
		b = strconv.AppendInt(b, int64(v.Cap()), 10)
		b = append(b, ']')
		return appendHex(b, uint64(v.Pointer()))
	case reflect.Pointer, reflect.Chan, reflect.Map, reflect.Func, reflect.UnsafePointer:
		return appendHex(b, uint64(v.Pointer()))
	}
	return append(b, "(?)"...)
}

func appendHex(b []byte, p uint64) []byte {
	return strconv.AppendUint(append(b, "0x"...), p, 16)
}

// appendFloat appends f as Go's runtime prints it: the shortest
// representation, with an exponent for large and small magnitudes
// (strconv's 'g' format).
func appendFloat(b []byte, f float64, bits int) []byte {
	return strconv.AppendFloat(b, f, 'g', -1, bits)
}
