package backend

import (
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gotensor/gotensor/internal/testenv"
)

// TestHalfAgainstPyTorch checks the conversions bit for bit against
// PyTorch's (testdata/half_ref.py): every 16-bit pattern to float32, and
// float32 and float64 values around every rounding point to both 16-bit
// formats. NaNs must stay NaNs; for float16 their sign must match too
// (PyTorch's bfloat16 NaN bits vary by code path).
func TestHalfAgainstPyTorch(t *testing.T) {
	const py = "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import torch, numpy").Run(); err != nil {
		testenv.Missing(t, "Debian's python3-torch is not available (scripts/setup.sh installs it): %v", err)
	}
	dir := t.TempDir()
	if out, err := exec.Command(py, "testdata/half_ref.py", dir).CombinedOutput(); err != nil {
		t.Fatalf("testdata/half_ref.py: %v\n%s", err, out)
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	u16 := func(b []byte, i int) uint16 { return binary.LittleEndian.Uint16(b[2*i:]) }
	u32 := func(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }

	for _, c := range []struct {
		name string
		conv func(uint16) float32
	}{
		{"bf16_to_f32.bin", func(b uint16) float32 { return BF16(b).Float32() }},
		{"f16_to_f32.bin", func(b uint16) float32 { return F16(b).Float32() }},
	} {
		want := read(c.name)
		bad := 0
		for i := 0; i < 1<<16; i++ {
			got, w := math.Float32bits(c.conv(uint16(i))), u32(want, i)
			if got != w && !(isNaN32(got) && isNaN32(w)) {
				if bad++; bad <= 5 {
					t.Errorf("%s: %#04x: got %#08x, PyTorch %#08x", c.name, i, got, w)
				}
			}
		}
	}

	check := func(what string, n int, in func(i int) float64, got func(i int) uint16, want []byte, isNaN func(uint16) bool, signedNaN bool) {
		bad := 0
		for i := 0; i < n; i++ {
			g, w := got(i), u16(want, i)
			if g == w || isNaN(g) && isNaN(w) && (!signedNaN || g>>15 == w>>15) {
				continue
			}
			if bad++; bad <= 5 {
				t.Errorf("%s: %v (%#x): got %#04x, PyTorch %#04x", what, in(i), math.Float64bits(in(i)), g, w)
			}
		}
		if bad > 5 {
			t.Errorf("%s: %d of %d differ", what, bad, n)
		}
	}
	bfNaN := func(b uint16) bool { return b&0x7fff > 0x7f80 }
	hNaN := func(b uint16) bool { return b&0x7fff > 0x7c00 }

	f32 := read("f32.bin")
	n := len(f32) / 4
	x := func(i int) float32 { return math.Float32frombits(u32(f32, i)) }
	in32 := func(i int) float64 { return float64(x(i)) }
	check("float32 to bfloat16", n, in32, func(i int) uint16 { return uint16(BF16FromFloat32(x(i))) }, read("f32_to_bf16.bin"), bfNaN, false)
	check("float32 to float16", n, in32, func(i int) uint16 { return uint16(F16FromFloat32(x(i))) }, read("f32_to_f16.bin"), hNaN, true)

	f64 := read("f64.bin")
	m := len(f64) / 8
	d := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(f64[8*i:])) }
	check("float64 to bfloat16", m, d, func(i int) uint16 { return uint16(BF16FromFloat32(float32(d(i)))) }, read("f64_to_bf16.bin"), bfNaN, false)
	check("float64 to float16", m, d, func(i int) uint16 { return uint16(F16FromFloat32(float32(d(i)))) }, read("f64_to_f16.bin"), hNaN, true)
}

func isNaN32(b uint32) bool { return b&0x7fffffff > 0x7f800000 }

// TestHalfRoundTrip checks that every 16-bit value survives a round trip
// through float32, and a few values by hand.
func TestHalfRoundTrip(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		if b := BF16(i); !isNaN32(math.Float32bits(b.Float32())) && BF16FromFloat32(b.Float32()) != b {
			t.Fatalf("bfloat16 %#04x does not round-trip", i)
		}
		if h := F16(i); h&0x7fff <= 0x7c00 && F16FromFloat32(h.Float32()) != h {
			t.Fatalf("float16 %#04x does not round-trip", i)
		}
	}
	for _, c := range []struct {
		f    float32
		bf   BF16
		half F16
	}{
		{1, 0x3f80, 0x3c00},
		{-2, 0xc000, 0xc000},
		{65504, 0x4780, 0x7bff},
		{65520, 0x4780, 0x7c00},                     // float16 overflows to Inf
		{float32(math.Pow(2, -24)), 0x3380, 0x0001}, // the smallest float16 subnormal
		{float32(math.Pow(2, -25)), 0x3300, 0x0000}, // a tie, to even
		{1 + 1.0/256, 0x3f80, 0x3c04},               // a bfloat16 tie, to even
		{1 + 3.0/256, 0x3f82, 0x3c0c},               // a bfloat16 tie, up to even
	} {
		if got := BF16FromFloat32(c.f); got != c.bf {
			t.Errorf("BF16FromFloat32(%v) = %#04x, want %#04x", c.f, got, c.bf)
		}
		if got := F16FromFloat32(c.f); got != c.half {
			t.Errorf("F16FromFloat32(%v) = %#04x, want %#04x", c.f, got, c.half)
		}
	}
}
