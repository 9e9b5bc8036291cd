package cellrt

import (
	"io"
	"math"
	"os"
	"reflect"
	"strconv"
)

var stderr io.Writer = os.Stderr

// Print is the print builtin for cells: it writes its arguments to the
// session's standard error in the format of Go's runtime, as Go does.
func (rt *Runtime) Print(args ...any) {
	var b []byte
	for _, a := range args {
		b = appendBuiltin(b, a)
	}
	rt.stderr().Write(b)
}

// Println is the println builtin for cells: Print with spaces between
// the arguments and a newline.
func (rt *Runtime) Println(args ...any) {
	var b []byte
	for i, a := range args {
		if i > 0 {
			b = append(b, ' ')
		}
		b = appendBuiltin(b, a)
	}
	rt.stderr().Write(append(b, '\n'))
}

// appendBuiltin appends x as the runtime's print formats it: integers in
// decimal, floats as +d.dddddde+ddd, pointers and references in hex,
// slices as [len/cap]pointer, nil as 0x0.
func appendBuiltin(b []byte, x any) []byte {
	x = Unwrap(x)
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
		return appendFloat(b, v.Float())
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		b = append(b, '(')
		b = appendFloat(b, real(c))
		b = appendFloat(b, imag(c))
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

// appendFloat appends f with seven significant digits, a sign and a
// three-digit exponent, rounded the way Go's runtime rounds them: by
// adding half a unit of the last digit before truncating.
func appendFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "+Inf"...)
	case math.IsInf(f, -1):
		return append(b, "-Inf"...)
	}
	const digits = 7
	sign := byte('+')
	if math.Signbit(f) {
		sign = '-'
		f = -f
	}
	exp := 0
	if f != 0 {
		for f >= 10 {
			exp++
			f /= 10
		}
		for f < 1 {
			exp--
			f *= 10
		}
		half := 5.0
		for range digits {
			half /= 10
		}
		f += half
		if f >= 10 {
			exp++
			f /= 10
		}
	}
	var d [digits]byte
	for i := range d {
		n := int(f)
		d[i] = byte('0' + n)
		f = (f - float64(n)) * 10
	}
	b = append(b, sign, d[0], '.')
	b = append(b, d[1:]...)
	b = append(b, 'e')
	if exp < 0 {
		b = append(b, '-')
		exp = -exp
	} else {
		b = append(b, '+')
	}
	return append(b, byte('0'+exp/100), byte('0'+exp/10%10), byte('0'+exp%10))
}
