package tensorio

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"sort"

	"github.com/gotensor/gotensor/tensorlib/backend"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// The safetensors layout (huggingface/safetensors): an 8-byte
// little-endian header length N, N bytes of JSON (padded with spaces) that
// map each tensor name to {"dtype", "shape", "data_offsets": [begin, end]}
// and the optional "__metadata__" to a string map, then the data buffer:
// every tensor's row-major little-endian bytes, back to back, offsets
// relative to the buffer's start.
const (
	stMetadataKey = "__metadata__"
	stMaxHeader   = 100 << 20 // the reference implementation's limit
)

type stEntry struct {
	DType       string `json:"dtype"`
	Shape       []int  `json:"shape"`
	DataOffsets [2]int `json:"data_offsets"`
}

// SaveSafetensors writes tensors (by name) and optional string metadata to
// path in the safetensors format, the format nn.Save uses and that the
// Python safetensors package and PyTorch read. Float32 is stored as "F32",
// Float64 "F64", BFloat16 "BF16", Float16 "F16", Int64 "I64", Bool "BOOL". As the reference writer does,
// tensors are laid out by decreasing element size, then by name, so every
// tensor's data is aligned, and the header is padded to a multiple of 8
// bytes. Names may not be empty or "__metadata__".
//
//	err := tensorio.SaveSafetensors("model.safetensors",
//		map[string]*tensor.Tensor{"0.weight": w, "0.bias": b}, nil)
func SaveSafetensors(path string, tensors map[string]*tensor.Tensor, metadata map[string]string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("tensorio: SaveSafetensors: %w", err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = writeSafetensors(w, tensors, metadata)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("tensorio: SaveSafetensors: %s: %w", path, err)
	}
	return nil
}

// WriteSafetensors writes tensors and metadata to w in the safetensors
// format, as SaveSafetensors does.
func WriteSafetensors(w io.Writer, tensors map[string]*tensor.Tensor, metadata map[string]string) error {
	if err := writeSafetensors(w, tensors, metadata); err != nil {
		return fmt.Errorf("tensorio: WriteSafetensors: %w", err)
	}
	return nil
}

func writeSafetensors(w io.Writer, tensors map[string]*tensor.Tensor, metadata map[string]string) error {
	names := make([]string, 0, len(tensors))
	for name, t := range tensors {
		if name == "" || name == stMetadataKey {
			return fmt.Errorf("tensor name %q is reserved; rename it", name)
		}
		if t == nil {
			return fmt.Errorf("tensor %q is nil", name)
		}
		if _, err := stDType(t.DType()); err != nil {
			return fmt.Errorf("tensor %q: %w", name, err)
		}
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		si, sj := stSize(tensors[names[i]].DType()), stSize(tensors[names[j]].DType())
		if si != sj {
			return si > sj
		}
		return names[i] < names[j]
	})
	header := make(map[string]any, len(names)+1)
	if len(metadata) > 0 {
		header[stMetadataKey] = metadata
	}
	off := 0
	for _, name := range names {
		t := tensors[name]
		dt, _ := stDType(t.DType())
		n := t.Numel() * stSize(t.DType())
		header[name] = stEntry{DType: dt, Shape: t.Shape(), DataOffsets: [2]int{off, off + n}}
		off += n
	}
	hb, err := json.Marshal(header)
	if err != nil {
		return err
	}
	for len(hb)%8 != 0 {
		hb = append(hb, ' ')
	}
	var pre [8]byte
	binary.LittleEndian.PutUint64(pre[:], uint64(len(hb)))
	if _, err := w.Write(pre[:]); err != nil {
		return err
	}
	if _, err := w.Write(hb); err != nil {
		return err
	}
	for _, name := range names {
		if err := writeElements(w, tensors[name]); err != nil {
			return err
		}
	}
	return nil
}

func stDType(dt tensor.DType) (string, error) {
	switch dt {
	case tensor.Float32:
		return "F32", nil
	case tensor.Float64:
		return "F64", nil
	case tensor.Int64:
		return "I64", nil
	case tensor.Bool:
		return "BOOL", nil
	case tensor.BFloat16:
		return "BF16", nil
	case tensor.Float16:
		return "F16", nil
	}
	return "", fmt.Errorf("dtype %v cannot be stored", dt)
}

func stSize(dt tensor.DType) int {
	if dt == tensor.Bool {
		return 1
	}
	return dt.Size()
}

// stKinds maps the safetensors dtypes LoadSafetensors reads to the Go
// type of one element (16-bit floats as their bits): fromSlice then makes
// the smaller integers Int64.
var stKinds = map[string]struct {
	typ  reflect.Type
	size int
}{
	"F64": {reflect.TypeFor[float64](), 8}, "F32": {reflect.TypeFor[float32](), 4},
	"F16": {reflect.TypeFor[backend.F16](), 2}, "BF16": {reflect.TypeFor[backend.BF16](), 2},
	"I64": {reflect.TypeFor[int64](), 8}, "I32": {reflect.TypeFor[int32](), 4},
	"I16": {reflect.TypeFor[int16](), 2}, "I8": {reflect.TypeFor[int8](), 1},
	"U32": {reflect.TypeFor[uint32](), 4}, "U16": {reflect.TypeFor[uint16](), 2},
	"U8": {reflect.TypeFor[uint8](), 1}, "BOOL": {reflect.TypeFor[bool](), 1},
}

// LoadSafetensors reads a safetensors file into CPU tensors by name and
// its "__metadata__" strings (nil when it has none). "F32", "F64", "BF16",
// "F16", "I64" and "BOOL" tensors keep their type; "I8".."I32",
// "U8".."U32" become Int64. The header is checked: offsets
// must lie in the data buffer, match each shape and dtype, and neither
// overlap nor leave gaps.
//
//	params, meta, err := tensorio.LoadSafetensors("model.safetensors")
func LoadSafetensors(path string) (map[string]*tensor.Tensor, map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("tensorio: LoadSafetensors: %w", err)
	}
	defer f.Close()
	ts, meta, err := readSafetensors(bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return nil, nil, fmt.Errorf("tensorio: LoadSafetensors: %s: %w", path, err)
	}
	return ts, meta, nil
}

// ReadSafetensors reads safetensors data from r, as LoadSafetensors does.
func ReadSafetensors(r io.Reader) (map[string]*tensor.Tensor, map[string]string, error) {
	ts, meta, err := readSafetensors(r)
	if err != nil {
		return nil, nil, fmt.Errorf("tensorio: ReadSafetensors: %w", err)
	}
	return ts, meta, nil
}

func readSafetensors(r io.Reader) (map[string]*tensor.Tensor, map[string]string, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return nil, nil, fmt.Errorf("not a safetensors file: %w", err)
	}
	hl := binary.LittleEndian.Uint64(pre[:])
	if hl < 2 || hl > stMaxHeader {
		return nil, nil, fmt.Errorf("not a safetensors file: header length %d is implausible", hl)
	}
	hb := make([]byte, hl)
	if _, err := io.ReadFull(r, hb); err != nil {
		return nil, nil, fmt.Errorf("header truncated: %w", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hb, &raw); err != nil {
		return nil, nil, fmt.Errorf("header is not a JSON object: %w", err)
	}
	var meta map[string]string
	if m, ok := raw[stMetadataKey]; ok {
		if err := json.Unmarshal(m, &meta); err != nil {
			return nil, nil, fmt.Errorf("%s is not a map of strings: %w", stMetadataKey, err)
		}
		delete(raw, stMetadataKey)
	}
	type item struct {
		name string
		stEntry
	}
	items := make([]item, 0, len(raw))
	for name, m := range raw {
		var e stEntry
		dec := json.NewDecoder(bytes.NewReader(m))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return nil, nil, fmt.Errorf("tensor %q: bad header entry: %w", name, err)
		}
		k, ok := stKinds[e.DType]
		if !ok {
			return nil, nil, fmt.Errorf("tensor %q: dtype %q is not supported", name, e.DType)
		}
		n := 1
		for _, d := range e.Shape {
			if d < 0 || d > math.MaxInt32 {
				return nil, nil, fmt.Errorf("tensor %q: bad shape %v", name, e.Shape)
			}
			n *= d
		}
		if e.DataOffsets[1]-e.DataOffsets[0] != n*k.size || e.DataOffsets[0] < 0 {
			return nil, nil, fmt.Errorf("tensor %q: data_offsets %v hold %d bytes, but shape %v of %s needs %d",
				name, e.DataOffsets, e.DataOffsets[1]-e.DataOffsets[0], e.Shape, e.DType, n*k.size)
		}
		items = append(items, item{name, e})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].DataOffsets[0] < items[j].DataOffsets[0] })
	end := 0
	for _, it := range items {
		if it.DataOffsets[0] != end {
			return nil, nil, fmt.Errorf("tensor %q: data starts at %d, want %d (tensors overlap or leave a gap)", it.name, it.DataOffsets[0], end)
		}
		end = it.DataOffsets[1]
	}
	buf := make([]byte, end)
	if got, err := io.ReadFull(r, buf); err != nil {
		return nil, nil, fmt.Errorf("data buffer ends after %d of %d bytes (%v): the file is truncated", got, end, err)
	}
	out := make(map[string]*tensor.Tensor, len(items))
	for _, it := range items {
		k := stKinds[it.DType]
		b := buf[it.DataOffsets[0]:it.DataOffsets[1]]
		v := reflect.MakeSlice(reflect.SliceOf(k.typ), len(b)/k.size, len(b)/k.size)
		if err := binary.Read(bytes.NewReader(b), binary.LittleEndian, v.Interface()); err != nil {
			return nil, nil, fmt.Errorf("tensor %q: %w", it.name, err)
		}
		out[it.name] = fromSlice(v.Interface()).Reshape(it.Shape...)
	}
	return out, meta, nil
}
