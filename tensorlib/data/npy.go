package data

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The .npy format (numpy.lib.format, NEP 1): the magic "\x93NUMPY", a
// major and minor version byte, the header length (uint16 in 1.0, uint32
// in 2.0 and 3.0), an ASCII Python dict literal with 'descr',
// 'fortran_order' and 'shape' padded with spaces to a multiple of 64 bytes
// and ending in '\n', then the raw elements.
const (
	npyMagic        = "\x93NUMPY"
	npyAlign        = 64
	npyGrowthDigits = 21
)

// SaveNPY writes t to path in NumPy's .npy format (version 1.0, or 2.0 for
// a header too long for 1.0), C order, little-endian: Float32 as '<f4',
// Float64 '<f8', Int64 '<i8', Bool '|b1'. The bytes are those numpy.save
// writes for the same array, header padding included.
//
//	err := data.SaveNPY("x.npy", x) // np.load("x.npy")
func SaveNPY(path string, t *tensor.Tensor) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("data: SaveNPY: %w", err)
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
		return fmt.Errorf("data: SaveNPY: %s: %w", path, err)
	}
	return nil
}

// WriteNPY writes t to w in .npy format, as SaveNPY does.
func WriteNPY(w io.Writer, t *tensor.Tensor) error {
	if err := writeNPY(w, t); err != nil {
		return fmt.Errorf("data: WriteNPY: %w", err)
	}
	return nil
}

func writeNPY(w io.Writer, t *tensor.Tensor) error {
	descr, err := npyDescr(t.DType())
	if err != nil {
		return err
	}
	shape := t.Shape()
	header := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, pyTuple(shape))
	if len(shape) > 0 {
		// As numpy does, leave room for dim 0 to grow to 21 digits so the
		// header can be rewritten in place.
		header += strings.Repeat(" ", npyGrowthDigits-len(strconv.Itoa(shape[0])))
	}
	var pre []byte
	for _, v := range []struct {
		major   byte
		lenSize int
	}{{1, 2}, {2, 4}} {
		total := len(npyMagic) + 2 + v.lenSize + len(header) + 1
		pad := npyAlign - total%npyAlign // numpy pads 64 when already aligned
		hl := len(header) + pad + 1
		if v.lenSize == 2 && hl > math.MaxUint16 {
			continue
		}
		pre = append([]byte(npyMagic), v.major, 0)
		if v.lenSize == 2 {
			pre = binary.LittleEndian.AppendUint16(pre, uint16(hl))
		} else {
			pre = binary.LittleEndian.AppendUint32(pre, uint32(hl))
		}
		pre = append(pre, header...)
		pre = append(pre, strings.Repeat(" ", pad)...)
		pre = append(pre, '\n')
		break
	}
	if _, err := w.Write(pre); err != nil {
		return err
	}
	_, err = w.Write(tensorBytes(t))
	return err
}

// npyDescr returns the .npy type string of dt.
func npyDescr(dt tensor.DType) (string, error) {
	switch dt {
	case tensor.Float32:
		return "<f4", nil
	case tensor.Float64:
		return "<f8", nil
	case tensor.Int64:
		return "<i8", nil
	case tensor.Bool:
		return "|b1", nil
	}
	return "", fmt.Errorf("dtype %v cannot be stored", dt)
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

// tensorBytes returns t's elements in row-major order as little-endian
// bytes (bool as one byte, 0 or 1).
func tensorBytes(t *tensor.Tensor) []byte {
	switch t.DType() {
	case tensor.Float32:
		v := t.Float32s()
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
		}
		return b
	case tensor.Float64:
		v := t.Float64s()
		b := make([]byte, 8*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
		}
		return b
	case tensor.Int64:
		v := t.Int64s()
		b := make([]byte, 8*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
		}
		return b
	}
	v := t.Bools()
	b := make([]byte, len(v))
	for i, x := range v {
		if x {
			b[i] = 1
		}
	}
	return b
}

// LoadNPY reads a .npy file (versions 1.0, 2.0 and 3.0) into a CPU tensor.
// Float32 ('f4'), Float64 ('f8'), Int64 ('i8') and bool ('b1') arrays keep
// their type; smaller integers ('i1', 'i2', 'i4', 'u1', 'u2', 'u4') become
// Int64 and 'f2' becomes Float32. Either byte order and both C and Fortran
// order are read; the tensor is always row-major. Object arrays, structured
// dtypes and other types give an error.
//
//	x, err := data.LoadNPY("x.npy") // written by np.save("x.npy", a)
func LoadNPY(path string) (*tensor.Tensor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("data: LoadNPY: %w", err)
	}
	defer f.Close()
	t, err := readNPY(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return nil, fmt.Errorf("data: LoadNPY: %s: %w", path, err)
	}
	return t, nil
}

// ReadNPY reads one .npy array from r, as LoadNPY does.
func ReadNPY(r io.Reader) (*tensor.Tensor, error) {
	t, err := readNPY(r)
	if err != nil {
		return nil, fmt.Errorf("data: ReadNPY: %w", err)
	}
	return t, nil
}

func readNPY(r io.Reader) (*tensor.Tensor, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return nil, fmt.Errorf("not a .npy file: %w", err)
	}
	if string(pre[:6]) != npyMagic {
		return nil, errors.New(`not a .npy file: it does not start with "\x93NUMPY" (an .npz archive is a zip of .npy files: unzip it first)`)
	}
	var hl int
	switch pre[6] {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, fmt.Errorf("truncated header: %w", err)
		}
		hl = int(binary.LittleEndian.Uint16(b[:]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, fmt.Errorf("truncated header: %w", err)
		}
		hl = int(binary.LittleEndian.Uint32(b[:]))
		if hl > 1<<24 {
			return nil, fmt.Errorf("header length %d is implausible", hl)
		}
	default:
		return nil, fmt.Errorf("format version %d.%d is not supported (1.0, 2.0 and 3.0 are)", pre[6], pre[7])
	}
	hb := make([]byte, hl)
	if _, err := io.ReadFull(r, hb); err != nil {
		return nil, fmt.Errorf("truncated header: %w", err)
	}
	h, err := parseNPYHeader(string(hb))
	if err != nil {
		return nil, fmt.Errorf("bad header %q: %w", strings.TrimSpace(string(hb)), err)
	}
	return readElements(r, h.descr, h.shape, h.fortran)
}

type npyHeader struct {
	descr   string
	fortran bool
	shape   []int
}

// parseNPYHeader parses the header dict, a Python literal such as
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }.
func parseNPYHeader(s string) (npyHeader, error) {
	p := &pyParser{s: s}
	var h npyHeader
	seen := map[string]bool{}
	p.space()
	if !p.eat('{') {
		return h, errors.New("it is not a dict")
	}
	for {
		p.space()
		if p.eat('}') {
			break
		}
		key, err := p.str()
		if err != nil {
			return h, err
		}
		p.space()
		if !p.eat(':') {
			return h, fmt.Errorf("no ':' after key %q", key)
		}
		p.space()
		switch key {
		case "descr":
			if h.descr, err = p.str(); err != nil {
				return h, fmt.Errorf("descr: %w (structured dtypes are not supported)", err)
			}
		case "fortran_order":
			if h.fortran, err = p.boolean(); err != nil {
				return h, err
			}
		case "shape":
			if h.shape, err = p.tuple(); err != nil {
				return h, err
			}
		default:
			return h, fmt.Errorf("unknown key %q", key)
		}
		seen[key] = true
		p.space()
		if !p.eat(',') {
			p.space()
			if !p.eat('}') {
				return h, errors.New("expected ',' or '}'")
			}
			break
		}
	}
	for _, k := range []string{"descr", "fortran_order", "shape"} {
		if !seen[k] {
			return h, fmt.Errorf("key %q is missing", k)
		}
	}
	return h, nil
}

// pyParser reads the few Python literals a .npy header holds.
type pyParser struct {
	s string
	i int
}

func (p *pyParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *pyParser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *pyParser) str() (string, error) {
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", errors.New("expected a string")
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", errors.New("unterminated string")
	}
	v := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return v, nil
}

func (p *pyParser) boolean() (bool, error) {
	for _, w := range []string{"True", "False"} {
		if strings.HasPrefix(p.s[p.i:], w) {
			p.i += len(w)
			return w == "True", nil
		}
	}
	return false, errors.New("fortran_order is not True or False")
}

func (p *pyParser) tuple() ([]int, error) {
	if !p.eat('(') {
		return nil, errors.New("shape is not a tuple")
	}
	shape := []int{}
	for {
		p.space()
		if p.eat(')') {
			return shape, nil
		}
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		d, err := strconv.Atoi(p.s[p.i:j])
		if err != nil || d > 1<<40 {
			return nil, fmt.Errorf("bad size %q in shape", p.s[p.i:j])
		}
		p.i = j
		p.eat('L') // Python 2 wrote long integers with an L suffix
		shape = append(shape, d)
		p.space()
		if !p.eat(',') {
			p.space()
			if !p.eat(')') {
				return nil, errors.New("expected ',' or ')' in shape")
			}
			return shape, nil
		}
	}
}

// readElements reads the elements that descr and shape describe from r
// and returns them as a row-major tensor.
func readElements(r io.Reader, descr string, shape []int, fortran bool) (*tensor.Tensor, error) {
	if len(descr) < 3 {
		return nil, fmt.Errorf("dtype %q is not supported", descr)
	}
	var order binary.ByteOrder
	switch descr[0] {
	case '<', '|', '=':
		order = binary.LittleEndian
	case '>':
		order = binary.BigEndian
	default:
		return nil, fmt.Errorf("dtype %q has an unknown byte order", descr)
	}
	kind := descr[1]
	size, err := strconv.Atoi(descr[2:])
	if err != nil {
		return nil, fmt.Errorf("dtype %q is not supported", descr)
	}
	switch string(kind) + strconv.Itoa(size) {
	case "f2", "f4", "f8", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "b1":
	default:
		return nil, fmt.Errorf("dtype %q is not supported (float16/32/64, int8..int64, uint8..uint32 and bool are); convert the array with a.astype(np.float32) before saving", descr)
	}
	n := 1
	for _, d := range shape {
		n *= d
	}
	b := make([]byte, n*size)
	if got, err := io.ReadFull(r, b); err != nil {
		return nil, fmt.Errorf("data ends after %d of %d bytes (%v)", got, len(b), err)
	}
	// Fortran order holds the transpose's elements in C order: read with
	// the reversed shape, then permute back.
	dims := shape
	if fortran && len(shape) > 1 {
		dims = make([]int, len(shape))
		for i, d := range shape {
			dims[len(shape)-1-i] = d
		}
	}
	t := decodeElements(b, kind, size, order, dims)
	if fortran && len(shape) > 1 {
		perm := make([]int, len(shape))
		for i := range perm {
			perm[i] = len(shape) - 1 - i
		}
		t = t.Permute(perm...).Contiguous()
	}
	return t, nil
}

// decodeElements converts raw elements to a tensor of shape dims (0-d
// when dims is empty).
func decodeElements(b []byte, kind byte, size int, order binary.ByteOrder, dims []int) *tensor.Tensor {
	t := decodeFlat(b, kind, size, order)
	if len(dims) == 0 {
		return t.Reshape()
	}
	return t.Reshape(dims...)
}

// decodeFlat converts raw elements to a 1-D tensor.
func decodeFlat(b []byte, kind byte, size int, order binary.ByteOrder) *tensor.Tensor {
	n := len(b) / size
	switch {
	case kind == 'f' && size == 4:
		v := make([]float32, n)
		for i := range v {
			v[i] = math.Float32frombits(order.Uint32(b[4*i:]))
		}
		return tensor.FromFloat32s(v)
	case kind == 'f' && size == 8:
		v := make([]float64, n)
		for i := range v {
			v[i] = math.Float64frombits(order.Uint64(b[8*i:]))
		}
		return tensor.FromFloat64s(v)
	case kind == 'f' && size == 2:
		v := make([]float32, n)
		for i := range v {
			v[i] = halfToFloat32(order.Uint16(b[2*i:]))
		}
		return tensor.FromFloat32s(v)
	case kind == 'b':
		v := make([]bool, n)
		for i := range v {
			v[i] = b[i] != 0
		}
		return tensor.FromBools(v)
	}
	v := make([]int64, n)
	for i := range v {
		v[i] = intAt(b[i*size:], kind == 'i', size, order)
	}
	return tensor.FromInt64s(v)
}

// intAt decodes one signed or unsigned integer of size bytes.
func intAt(b []byte, signed bool, size int, order binary.ByteOrder) int64 {
	switch size {
	case 1:
		if signed {
			return int64(int8(b[0]))
		}
		return int64(b[0])
	case 2:
		if signed {
			return int64(int16(order.Uint16(b)))
		}
		return int64(order.Uint16(b))
	case 4:
		if signed {
			return int64(int32(order.Uint32(b)))
		}
		return int64(order.Uint32(b))
	}
	return int64(order.Uint64(b))
}

// halfToFloat32 converts an IEEE 754 binary16 value to float32.
func halfToFloat32(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f: // Inf, NaN
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: frac * 2^-24
		v := float32(frac) / (1 << 24)
		if sign != 0 {
			v = -v
		}
		return v
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}
