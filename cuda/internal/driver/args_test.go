package driver

import (
	"slices"
	"testing"
)

// TestArgsLayout checks the packing against the C ABI: each argument at
// the next multiple of its alignment.
func TestArgsLayout(t *testing.T) {
	var a Args
	a.I32(7).Ptr(0x1000).F32(1.5).F64(2).Struct(make([]byte, 12), 4).I64(-1).Struct(make([]byte, 16), 8)
	if want := []int{0, 8, 16, 24, 32, 48, 56}; !slices.Equal(a.Offsets(), want) {
		t.Errorf("offsets %v, want %v", a.Offsets(), want)
	}
	if want := []int{4, 8, 4, 8, 12, 8, 16}; !slices.Equal(a.Sizes(), want) {
		t.Errorf("sizes %v, want %v", a.Sizes(), want)
	}
	if len(a.Bytes()) != 72 || a.Bytes()[0] != 7 || a.Bytes()[9] != 0x10 || a.Bytes()[48] != 0xff {
		t.Errorf("buffer %v", a.Bytes())
	}
	a.Reset()
	if a.Len() != 0 || len(a.Bytes()) != 0 {
		t.Error("Reset left arguments")
	}
}
