package kernel

import "encoding/binary"

// murmur2 returns the 32-bit MurmurHash2 of data: JupyterLab hashes a
// cell's code (UTF-8) with it to name the cell's source (see
// DebugAdapter.SourcePath).
func murmur2(data []byte, seed uint32) uint32 {
	const m = 0x5bd1e995
	h := seed ^ uint32(len(data))
	for ; len(data) >= 4; data = data[4:] {
		k := binary.LittleEndian.Uint32(data)
		k *= m
		k ^= k >> 24
		k *= m
		h = h*m ^ k
	}
	switch len(data) {
	case 3:
		h ^= uint32(data[2]) << 16
		fallthrough
	case 2:
		h ^= uint32(data[1]) << 8
		fallthrough
	case 1:
		h ^= uint32(data[0])
		h *= m
	}
	h ^= h >> 13
	h *= m
	h ^= h >> 15
	return h
}
