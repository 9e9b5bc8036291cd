package tensorio

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// testdata/model.safetensors was written by make_fixtures.py from the
// documented layout with struct, json and numpy.
func TestLoadSafetensorsFixture(t *testing.T) {
	ts, meta, err := LoadSafetensors(filepath.Join("testdata", "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if len(meta) != 2 || meta["format"] != "pt" || meta["note"] != "made by make_fixtures.py" {
		t.Fatalf("metadata %v", meta)
	}
	if len(ts) != 8 {
		t.Fatalf("%d tensors, want 8", len(ts))
	}
	checkTensor(t, "0.weight", ts["0.weight"], tensor.Float32, []int{3, 2}, formula(6, func(i int) float64 { return float64(i) / 8 }))
	checkTensor(t, "0.bias", ts["0.bias"], tensor.Float32, []int{3}, []float64{-1, 0, 1})
	checkTensor(t, "steps", ts["steps"], tensor.Int64, []int{}, []float64{7})
	checkTensor(t, "mask", ts["mask"], tensor.Bool, []int{3}, []float64{1, 0, 1})
	checkTensor(t, "double", ts["double"], tensor.Float64, []int{2, 2}, []float64{-0.5, 0.5, 1.5, 2.5})
	checkTensor(t, "half", ts["half"], tensor.Float16, []int{3}, []float64{0.5, -2, 1024})
	checkTensor(t, "int32", ts["int32"], tensor.Int64, []int{2}, []float64{-3, 4})
	checkTensor(t, "bytes", ts["bytes"], tensor.Int64, []int{2}, []float64{1, 255})
}

func TestSafetensorsRoundTripAndLayout(t *testing.T) {
	in := map[string]*tensor.Tensor{
		"b":        tensor.FromBools([]bool{true, false, true}),
		"a.weight": tensor.FromFloat32s([]float32{1, 2, 3, 4, 5, 6}, 2, 3).T(), // non-contiguous
		"a.bias":   tensor.FromFloat32s([]float32{-1, 1}),
		"count":    tensor.FromInt64s([]int64{42}).Reshape(),
		"z":        tensor.FromFloat64s([]float64{0.1, 0.2}),
	}
	p := filepath.Join(t.TempDir(), "m.safetensors")
	if err := SaveSafetensors(p, in, map[string]string{"k": "v"}); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(p)
	n := binary.LittleEndian.Uint64(raw)
	if n%8 != 0 {
		t.Errorf("header length %d is not a multiple of 8", n)
	}
	var header map[string]json.RawMessage
	if err := json.Unmarshal(raw[8:8+n], &header); err != nil {
		t.Fatal(err)
	}
	// 8-byte dtypes first, then 4, then 1; by name within a size.
	order := []string{"count", "z", "a.bias", "a.weight", "b"}
	wantOffsets := [][2]int{{0, 8}, {8, 24}, {24, 32}, {32, 56}, {56, 59}}
	for i, name := range order {
		var e stEntry
		if err := json.Unmarshal(header[name], &e); err != nil {
			t.Fatal(err)
		}
		if e.DataOffsets != wantOffsets[i] {
			t.Errorf("%s: data_offsets %v, want %v", name, e.DataOffsets, wantOffsets[i])
		}
	}
	if string(header["__metadata__"]) != `{"k":"v"}` {
		t.Errorf("__metadata__ = %s", header["__metadata__"])
	}
	if len(raw) != 8+int(n)+59 {
		t.Errorf("file has %d bytes, want %d", len(raw), 8+int(n)+59)
	}

	out, meta, err := LoadSafetensors(p)
	if err != nil {
		t.Fatal(err)
	}
	if meta["k"] != "v" || len(out) != len(in) {
		t.Fatalf("read %d tensors, metadata %v", len(out), meta)
	}
	checkTensor(t, "a.weight", out["a.weight"], tensor.Float32, []int{3, 2}, []float64{1, 4, 2, 5, 3, 6})
	checkTensor(t, "a.bias", out["a.bias"], tensor.Float32, []int{2}, []float64{-1, 1})
	checkTensor(t, "b", out["b"], tensor.Bool, []int{3}, []float64{1, 0, 1})
	checkTensor(t, "count", out["count"], tensor.Int64, []int{}, []float64{42})
	checkTensor(t, "z", out["z"], tensor.Float64, []int{2}, []float64{0.1, 0.2})

	if err := SaveSafetensors(p, map[string]*tensor.Tensor{"__metadata__": in["b"]}, nil); err == nil {
		t.Error("a tensor named __metadata__ was accepted")
	}
}

func TestReadSafetensorsErrors(t *testing.T) {
	file := func(header string, data int) []byte {
		b := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
		return append(append(b, header...), make([]byte, data)...)
	}
	cases := []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "not a safetensors file"},
		{"huge header", binary.LittleEndian.AppendUint64(nil, 1<<40), "implausible"},
		{"not json", file("[1,2]", 0), "not a JSON object"},
		{"short header", binary.LittleEndian.AppendUint64(nil, 100), "header truncated"},
		{"bad dtype", file(`{"x":{"dtype":"C64","shape":[1],"data_offsets":[0,8]}}`, 8), `dtype "C64"`},
		{"size mismatch", file(`{"x":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}`, 8), "needs 12"},
		{"gap", file(`{"x":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, 8), "gap"},
		{"overlap", file(`{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"y":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, 8), "overlap"},
		{"truncated data", file(`{"x":{"dtype":"F64","shape":[2],"data_offsets":[0,16]}}`, 10), "truncated"},
		{"unknown field", file(`{"x":{"dtype":"F64","shape":[1],"data_offsets":[0,8],"extra":1}}`, 8), "bad header entry"},
		{"bad metadata", file(`{"__metadata__":{"a":1}}`, 0), "__metadata__"},
	}
	for _, c := range cases {
		_, _, err := ReadSafetensors(bytes.NewReader(c.b))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
}

// A reader that follows the documented layout (struct, json, numpy; the
// safetensors package is not in Debian) reads what SaveSafetensors wrote
// and checks the reference implementation's rules: header length a
// multiple of 8, offsets contiguous from 0, every tensor aligned to its
// element size.
func TestSafetensorsReadByPython(t *testing.T) {
	dir := t.TempDir()
	in := map[string]*tensor.Tensor{
		"0.weight": tensor.Arange(0, 12, 1).Reshape(4, 3).DivScalar(4),
		"0.bias":   tensor.FromFloat32s([]float32{-0.5, 0.5, 1.5, 2.5}),
		"1.steps":  tensor.FromInt64s([]int64{3}),
		"1.mask":   tensor.FromBools([]bool{true, false}),
		"2.w64":    tensor.FromFloat64s([]float64{1e-300, -2}),
	}
	if err := SaveSafetensors(filepath.Join(dir, "m.safetensors"), in, map[string]string{"format": "pt"}); err != nil {
		t.Fatal(err)
	}
	out := runPython(t, dir, `
import json, struct, numpy as np
codes = {"F32": "<f4", "F64": "<f8", "I64": "<i8", "BOOL": "|b1"}
with open("m.safetensors", "rb") as f:
    raw = f.read()
(n,) = struct.unpack("<Q", raw[:8])
header = json.loads(raw[8:8 + n])
buf = raw[8 + n:]
assert n % 8 == 0, n
meta = header.pop("__metadata__", {})
end = 0
r = {"__metadata__": meta}
for name, e in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0]):
    b, e_ = e["data_offsets"]
    dt = np.dtype(codes[e["dtype"]])
    assert b == end, (name, b, end)
    assert (8 + n + b) % dt.itemsize == 0, (name, "misaligned")
    end = e_
    a = np.frombuffer(buf[b:e_], dtype=dt).reshape(e["shape"])
    r[name] = {"dtype": e["dtype"], "shape": list(a.shape), "values": a.astype(np.float64).ravel().tolist()}
assert end == len(buf), (end, len(buf))
print(json.dumps(r))
`)
	var got map[string]json.RawMessage
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := map[string]string{
		"__metadata__": `{"format": "pt"}`,
		"0.weight":     `{"dtype": "F32", "shape": [4, 3], "values": [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75]}`,
		"0.bias":       `{"dtype": "F32", "shape": [4], "values": [-0.5, 0.5, 1.5, 2.5]}`,
		"1.steps":      `{"dtype": "I64", "shape": [1], "values": [3.0]}`,
		"1.mask":       `{"dtype": "BOOL", "shape": [2], "values": [1.0, 0.0]}`,
		"2.w64":        `{"dtype": "F64", "shape": [2], "values": [1e-300, -2.0]}`,
	}
	for name, w := range want {
		if g := string(got[name]); g != w {
			t.Errorf("%s: python read %s, want %s", name, g, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("python saw %d entries, want %d", len(got), len(want))
	}
}

func ExampleSaveSafetensors() {
	p := filepath.Join(os.TempDir(), "gotensor-example.safetensors")
	defer os.Remove(p)
	w := tensor.FromFloat32s([]float32{1, 2, 3, 4}, 2, 2)
	if err := SaveSafetensors(p, map[string]*tensor.Tensor{"0.weight": w}, nil); err != nil {
		fmt.Println(err)
		return
	}
	ts, _, err := LoadSafetensors(p)
	fmt.Println(ts["0.weight"].Shape(), ts["0.weight"].Float32s(), err)
	// Output: [2 2] [1 2 3 4] <nil>
}
