package tensorio

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"strconv"
	"strings"

	"codeberg.org/sbinet/npyio/npy"
	"codeberg.org/sbinet/npyio/npy/float16"

	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// SaveNPY writes t to path in NumPy's .npy format (version 1.0, or 2.0 for a
// header too long for 1.0), C order, little-endian: Float32 as '<f4',
// Float64 '<f8', Float16 '<f2', Int64 '<i8', Bool '|b1'. The bytes are
// those numpy.save writes for the same array, header padding included. A
// tensor on another device is copied to the host for writing. NumPy has
// no bfloat16: a BFloat16 tensor is an error that says to convert it
// (AsType(tensor.Float32) keeps every value).
//
//	err := tensorio.SaveNPY("x.npy", x) // np.load("x.npy")
func SaveNPY(path string, t *tensor.Tensor) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("tensorio: SaveNPY: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = writeNPY(w, t)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("tensorio: SaveNPY: %s: %w", path, err)
	}
	return nil
}

// WriteNPY writes t to w in .npy format, as SaveNPY does.
func WriteNPY(w io.Writer, t *tensor.Tensor) error {
	if err := writeNPY(w, t); err != nil {
		return fmt.Errorf("tensorio: WriteNPY: %w", err)
	}
	return nil
}

// The .npy format (numpy.lib.format, NEP 1): the magic "\x93NUMPY", a
// major and minor version byte, the header length (uint16 in 1.0, uint32
// in 2.0 and 3.0), an ASCII Python dict literal with 'descr',
// 'fortran_order' and 'shape', then the raw elements.
//
// Reading goes through codeberg.org/sbinet/npyio, which parses the header
// (versions 1.0 and 2.0; 3.0, which differs from 2.0 only by allowing
// UTF-8 in the header, is handed to it as 2.0) and decodes the elements in
// either byte order; this file maps NumPy's dtypes onto tensor dtypes and
// undoes Fortran order. Writing is this file's own: npyio writes only
// one-dimensional shapes from slices (n-d only from nested slices), always
// as version 2.0, and does not pad its headers as numpy.save does, while
// SaveNPY writes the bytes numpy.save writes.
//
// The header layout numpy.save writes (numpy.lib.format): the dict padded
// with spaces so that the data starts on a multiple of 64 bytes, with room
// for dim 0 to grow to 21 digits so that the header can be rewritten in
// place.
const (
	npyMagic        = "\x93NUMPY"
	npyAlign        = 64
	npyGrowthDigits = 21
)

// npyDescrs are the .npy dtypes of the tensor dtypes.
var npyDescrs = map[tensor.DType]string{tensor.Float32: "<f4", tensor.Float64: "<f8", tensor.Float16: "<f2", tensor.Int64: "<i8", tensor.Bool: "|b1"}

func writeNPY(w io.Writer, t *tensor.Tensor) error {
	descr, ok := npyDescrs[t.DType()]
	if !ok {
		if t.DType() == tensor.BFloat16 {
			return fmt.Errorf("NumPy has no bfloat16: save x.AsType(tensor.Float32), which holds every bfloat16 value, or use safetensors (SaveSafetensors), which stores BF16")
		}
		return fmt.Errorf("dtype %v cannot be stored", t.DType())
	}
	shape := t.Shape()
	header := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, pyTuple(shape))
	if len(shape) > 0 {
		header += strings.Repeat(" ", npyGrowthDigits-len(strconv.Itoa(shape[0])))
	}
	// Version 1.0 has a 2-byte header length, 2.0 a 4-byte one.
	lenSize, major := 2, byte(1)
	if len(npyMagic)+2+lenSize+len(header)+1+npyAlign > math.MaxUint16 {
		lenSize, major = 4, 2
	}
	total := len(npyMagic) + 2 + lenSize + len(header) + 1
	pad := npyAlign - total%npyAlign // numpy pads 64 when already aligned
	hl := len(header) + pad + 1
	pre := append([]byte(npyMagic), major, 0)
	if lenSize == 2 {
		pre = binary.LittleEndian.AppendUint16(pre, uint16(hl))
	} else {
		pre = binary.LittleEndian.AppendUint32(pre, uint32(hl))
	}
	pre = append(pre, header...)
	pre = append(pre, strings.Repeat(" ", pad)...)
	pre = append(pre, '\n')
	if _, err := w.Write(pre); err != nil {
		return err
	}
	return writeElements(w, t)
}

// writeElements writes t's elements in row-major order, little-endian
// (bool as one byte, 0 or 1, 16-bit floats as their bits), as both
// formats store them.
func writeElements(w io.Writer, t *tensor.Tensor) error {
	var data any
	switch t.DType() {
	case tensor.Float32:
		data = t.Float32s()
	case tensor.Float64:
		data = t.Float64s()
	case tensor.Int64:
		data = t.Int64s()
	case tensor.BFloat16:
		data = t.BFloat16s()
	case tensor.Float16:
		data = t.Float16s()
	default:
		data = t.Bools()
	}
	return binary.Write(w, binary.LittleEndian, data)
}

// pyTuple formats shape as Python writes a tuple: (), (3,), (2, 3).
func pyTuple(shape []int) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.Itoa(d)
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// LoadNPY reads a .npy file (versions 1.0, 2.0 and 3.0) into a CPU tensor.
// Float32 ('f4'), Float64 ('f8'), Float16 ('f2'), Int64 ('i8') and bool
// ('b1') arrays keep their type; smaller integers ('i1', 'i2', 'i4', 'u1',
// 'u2', 'u4') become Int64. Either byte order and both C and Fortran
// order are read; the tensor is always row-major. Other dtypes (complex,
// uint64, strings, objects, structured arrays) give an error that says to
// convert the array before saving it.
//
//	x, err := tensorio.LoadNPY("x.npy") // written by np.save("x.npy", a)
func LoadNPY(path string) (*tensor.Tensor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tensorio: LoadNPY: %w", err)
	}
	defer f.Close()
	t, err := readNPY(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("tensorio: LoadNPY: %s: %w", path, err)
	}
	return t, nil
}

// ReadNPY reads one .npy array from r, as LoadNPY does.
func ReadNPY(r io.Reader) (*tensor.Tensor, error) {
	t, err := readNPY(r)
	if err != nil {
		return nil, fmt.Errorf("tensorio: ReadNPY: %w", err)
	}
	return t, nil
}

func readNPY(r io.Reader) (*tensor.Tensor, error) {
	// npyio (v0.14.0) reads versions 1.0 and 2.0. Version 3.0 is 2.0 with
	// a UTF-8 header, which its parser reads as well: present it as 2.0.
	var pre [8]byte
	n, _ := io.ReadFull(r, pre[:])
	if n == len(pre) && string(pre[:6]) == npyMagic && pre[6] == 3 {
		pre[6] = 2
	}
	nr, err := npy.NewReader(io.MultiReader(bytes.NewReader(pre[:n]), r))
	if err != nil {
		if errors.Is(err, npy.ErrInvalidNumPyFormat) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("not a .npy file (an .npz archive is a zip of .npy files: unzip it first): %w", err)
		}
		return nil, fmt.Errorf("bad header: %w", err)
	}
	h := nr.Header.Descr
	et := npy.TypeFrom(h.Type)
	if et == nil || !supported[et.Kind()] && et != reflect.TypeFor[float16.Num]() {
		return nil, fmt.Errorf("dtype %q is not supported: float16/32/64, int8..int64, uint8..uint32 and bool are, "+
			"not complex, uint64, strings, objects or structured dtypes; convert the array with a.astype(np.float32) before saving",
			strings.Trim(h.Type, "'"))
	}
	ptr := reflect.New(reflect.SliceOf(et))
	if err := nr.Read(ptr.Interface()); err != nil {
		return nil, fmt.Errorf("data ends before the %v %s elements the header announces (%w): the file is truncated",
			h.Shape, strings.Trim(h.Type, "'"), err)
	}
	flat := fromSlice(ptr.Elem().Interface())
	if flat.Numel() != numel(h.Shape) {
		return nil, fmt.Errorf("%d elements for shape %v", flat.Numel(), h.Shape)
	}
	if !h.Fortran || len(h.Shape) < 2 {
		return flat.Reshape(h.Shape...), nil
	}
	// Fortran order holds the transpose's elements in C order: view them
	// with the reversed shape, then permute back.
	rev := make([]int, len(h.Shape))
	perm := make([]int, len(h.Shape))
	for i, d := range h.Shape {
		rev[len(h.Shape)-1-i] = d
		perm[i] = len(h.Shape) - 1 - i
	}
	return flat.Reshape(rev...).Permute(perm...).Contiguous(), nil
}

// supported lists the element kinds Read turns into tensors (float16 is
// npyio's own type).
var supported = map[reflect.Kind]bool{
	reflect.Float32: true, reflect.Float64: true, reflect.Bool: true,
	reflect.Int8: true, reflect.Int16: true, reflect.Int32: true, reflect.Int64: true,
	reflect.Uint8: true, reflect.Uint16: true, reflect.Uint32: true,
}

// fromSlice returns the elements of a decoded slice as a 1-D tensor:
// floats (16-bit ones included) and bools keep their type, integers become
// Int64.
func fromSlice(s any) *tensor.Tensor {
	switch v := s.(type) {
	case []float32:
		return tensor.FromFloat32s(v)
	case []float64:
		return tensor.FromFloat64s(v)
	case []bool:
		return tensor.FromBools(v)
	case []int64:
		return tensor.FromInt64s(v)
	case []float16.Num: // npyio's float16: its bits are the value
		h := make([]backend.F16, len(v))
		for i, x := range v {
			h[i] = backend.F16(x.Uint16())
		}
		return tensor.FromFloat16s(h)
	case []backend.F16:
		return tensor.FromFloat16s(v)
	case []backend.BF16:
		return tensor.FromBFloat16s(v)
	}
	rv := reflect.ValueOf(s)
	out := make([]int64, rv.Len())
	for i := range out {
		if e := rv.Index(i); e.CanInt() {
			out[i] = e.Int()
		} else {
			out[i] = int64(e.Uint())
		}
	}
	return tensor.FromInt64s(out)
}

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}
