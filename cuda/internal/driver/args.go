package driver

import (
	"encoding/binary"
	"math"
)

// Args packs kernel arguments the way the CUDA ABI lays out a kernel's
// parameter buffer: each argument at an offset aligned to its own
// alignment, in declaration order. The same buffer goes to
// cuLaunchKernel (CU_LAUNCH_PARAM_BUFFER_POINTER) and to the emulator,
// which checks each argument's size against the kernel's signature.
//
// The zero Args is empty and ready to use.
type Args struct {
	buf     []byte
	offsets []int
	sizes   []int
}

// Reset empties a for reuse.
func (a *Args) Reset() {
	a.buf, a.offsets, a.sizes = a.buf[:0], a.offsets[:0], a.sizes[:0]
}

// Len returns the number of arguments.
func (a *Args) Len() int { return len(a.offsets) }

// Bytes returns the packed buffer.
func (a *Args) Bytes() []byte { return a.buf }

// Offsets returns each argument's offset in the buffer.
func (a *Args) Offsets() []int { return a.offsets }

// Sizes returns each argument's size in bytes.
func (a *Args) Sizes() []int { return a.sizes }

// slot reserves size bytes aligned to align and returns them.
func (a *Args) slot(size, align int) []byte {
	off := (len(a.buf) + align - 1) &^ (align - 1)
	for len(a.buf) < off+size {
		a.buf = append(a.buf, 0)
	}
	a.offsets = append(a.offsets, off)
	a.sizes = append(a.sizes, size)
	return a.buf[off : off+size]
}

// Ptr appends a device pointer (T* in the kernel).
func (a *Args) Ptr(p DevicePtr) *Args { return a.U64(uint64(p)) }

// I32 appends an int.
func (a *Args) I32(v int32) *Args {
	binary.LittleEndian.PutUint32(a.slot(4, 4), uint32(v))
	return a
}

// I64 appends a long long.
func (a *Args) I64(v int64) *Args { return a.U64(uint64(v)) }

// U64 appends an unsigned long long.
func (a *Args) U64(v uint64) *Args {
	binary.LittleEndian.PutUint64(a.slot(8, 8), v)
	return a
}

// F32 appends a float.
func (a *Args) F32(v float32) *Args {
	binary.LittleEndian.PutUint32(a.slot(4, 4), math.Float32bits(v))
	return a
}

// F64 appends a double.
func (a *Args) F64(v float64) *Args {
	binary.LittleEndian.PutUint64(a.slot(8, 8), math.Float64bits(v))
	return a
}

// Struct appends a struct passed by value, already laid out in b, with the
// given alignment.
func (a *Args) Struct(b []byte, align int) *Args {
	copy(a.slot(len(b), align), b)
	return a
}
