package tensorio

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
	"github.com/gotensor/gotensor/tensorlib/tensor"
)

// halfValues are values that round differently in the two formats, and
// beyond float16's range.
var halfValues = []float32{1, -2.5, 3.14159, 1e-3, 65504, 70000, 1 + 1.0/256, 6e-8}

// TestHalfFilesWithPyTorch exchanges BFloat16 and Float16 tensors with
// PyTorch: Go writes them to safetensors (and the float16 one to .npy),
// PyTorch reads the bits (torch.frombuffer) and prints the values; PyTorch
// converts the same float32 values and writes them, and Go reads them.
func TestHalfFilesWithPyTorch(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import torch, numpy").Run(); err != nil {
		testenv.Missing(t, "Debian's python3-torch is not available (scripts/setup.sh installs it): %v", err)
	}
	dir := t.TempDir()
	x := tensor.FromFloat32s(halfValues, 2, 4)
	bf, f16 := x.AsType(tensor.BFloat16), x.AsType(tensor.Float16).T() // one non-contiguous
	if err := SaveSafetensors(filepath.Join(dir, "go.safetensors"), map[string]*tensor.Tensor{"bf": bf, "h": f16}, nil); err != nil {
		t.Fatal(err)
	}
	if err := SaveNPY(filepath.Join(dir, "go.npy"), f16); err != nil {
		t.Fatal(err)
	}
	if err := SaveNPY(filepath.Join(dir, "bf.npy"), bf); err == nil || !strings.Contains(err.Error(), "NumPy has no bfloat16") {
		t.Errorf("SaveNPY of a BFloat16 tensor: error %v", err)
	}
	script := `
import json, struct, sys, numpy as np, torch
d = sys.argv[1]
S = lambda vs: [repr(float(v)) for v in vs]  # "inf" survives JSON as a string
raw = open(d + "/go.safetensors", "rb").read()
n = struct.unpack("<Q", raw[:8])[0]
h = json.loads(raw[8:8 + n])
out = {}
for name, dt in (("bf", torch.bfloat16), ("h", torch.float16)):
    e = h[name]
    b, end = e["data_offsets"]
    assert e["dtype"] == {"bf": "BF16", "h": "F16"}[name], e
    v = torch.frombuffer(bytearray(raw[8 + n + b:8 + n + end]), dtype=dt).reshape(e["shape"])
    out[name] = {"shape": list(v.shape), "values": S(v.float().ravel().tolist())}
a = np.load(d + "/go.npy")
out["npy"] = {"dtype": a.dtype.str, "values": S(a.astype(np.float64).ravel().tolist())}
x = torch.tensor(json.loads(sys.argv[2]), dtype=torch.float32).reshape(2, 4)
out["torch_bf"] = S(x.bfloat16().float().ravel().tolist())
out["torch_h"] = S(x.half().float().ravel().tolist())
# PyTorch's file, for Go: the same layout, BF16 and F16.
names = [("tb", x.bfloat16(), "BF16"), ("th", x.half(), "F16")]
header, blobs, off = {}, b"", 0
for nm, t, code in names:
    bs = t.contiguous().view(torch.int16).numpy().tobytes()
    header[nm] = {"dtype": code, "shape": list(t.shape), "data_offsets": [off, off + len(bs)]}
    blobs += bs
    off += len(bs)
hb = json.dumps(header).encode()
hb += b" " * (-len(hb) % 8)
open(d + "/torch.safetensors", "wb").write(struct.pack("<Q", len(hb)) + hb + blobs)
np.save(d + "/torch.npy", x.half().numpy())
print(json.dumps(out))
`
	vals, _ := json.Marshal(halfValues)
	out, err := exec.Command(py, "-c", script, dir, string(vals)).Output()
	if err != nil {
		t.Fatalf("python: %v", err)
	}
	var got struct {
		BF, H struct {
			Shape  []int
			Values floats
		}
		Npy struct {
			DType  string
			Values floats
		}
		TorchBF floats `json:"torch_bf"`
		TorchH  floats `json:"torch_h"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	same := func(what string, a, b []float64) {
		t.Helper()
		if len(a) != len(b) {
			t.Fatalf("%s: %d values, want %d", what, len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Errorf("%s: value %d is %v, want %v", what, i, a[i], b[i])
			}
		}
	}
	// PyTorch reads Go's bits as the values Go holds, and they are the
	// values PyTorch's own conversion gives.
	same("PyTorch's read of Go's BF16", got.BF.Values, bf.Float64s())
	same("PyTorch's read of Go's F16", got.H.Values, f16.Float64s())
	same("PyTorch's bfloat16", got.TorchBF, bf.Float64s())
	same("PyTorch's float16", got.TorchH, x.AsType(tensor.Float16).Float64s())
	if got.Npy.DType != "<f2" {
		t.Errorf("numpy reads dtype %s, want <f2", got.Npy.DType)
	}
	same("numpy's read of Go's float16 .npy", got.Npy.Values, f16.Float64s())

	ts, _, err := LoadSafetensors(filepath.Join(dir, "torch.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if ts["tb"].DType() != tensor.BFloat16 || ts["th"].DType() != tensor.Float16 {
		t.Fatalf("loaded dtypes %v and %v", ts["tb"].DType(), ts["th"].DType())
	}
	same("Go's read of PyTorch's BF16", ts["tb"].Float64s(), got.TorchBF)
	same("Go's read of PyTorch's F16", ts["th"].Float64s(), got.TorchH)
	n, err := LoadNPY(filepath.Join(dir, "torch.npy"))
	if err != nil {
		t.Fatal(err)
	}
	if n.DType() != tensor.Float16 {
		t.Fatalf("numpy's float16 loads as %v", n.DType())
	}
	same("Go's read of numpy's float16", n.Float64s(), got.TorchH)
}

// floats reads a JSON list of Python float reprs ("1.5", "inf").
type floats []float64

func (f *floats) UnmarshalJSON(b []byte) error {
	var ss []string
	if err := json.Unmarshal(b, &ss); err != nil {
		return err
	}
	*f = make(floats, len(ss))
	for i, s := range ss {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return err
		}
		(*f)[i] = v
	}
	return nil
}
