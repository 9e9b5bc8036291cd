package data

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// pixel is the test images' pixel formula: image k, row r, column c.
func pixel(k, r, c int) byte { return byte((k*31 + r*7 + c*3) % 256) }

// label is the test labels' formula.
func label(k int) byte { return byte((k*3 + 1) % 10) }

// idxImages returns an IDX images file of n rows x cols images, written
// byte by byte from the format's description (magic 0x00000803, three
// big-endian uint32 sizes, then the pixels).
func idxImages(n, rows, cols int) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, []uint32{0x803, uint32(n), uint32(rows), uint32(cols)})
	for k := 0; k < n; k++ {
		for r := 0; r < rows; r++ {
			for c := 0; c < cols; c++ {
				b.WriteByte(pixel(k, r, c))
			}
		}
	}
	return b.Bytes()
}

// idxLabels returns an IDX labels file of n labels (magic 0x00000801).
func idxLabels(n int) []byte {
	var b bytes.Buffer
	binary.Write(&b, binary.BigEndian, []uint32{0x801, uint32(n)})
	for k := 0; k < n; k++ {
		b.WriteByte(label(k))
	}
	return b.Bytes()
}

func gzipped(b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}

// writeSet writes a small MNIST-format set (nTrain and nTest 28x28
// images) into dir under the standard names, gzipped when gz is true.
func writeSet(t *testing.T, dir string, nTrain, nTest int, gz bool) {
	t.Helper()
	files := map[string][]byte{
		trainImages: idxImages(nTrain, 28, 28), trainLabels: idxLabels(nTrain),
		testImages: idxImages(nTest, 28, 28), testLabels: idxLabels(nTest),
	}
	for name, b := range files {
		if gz {
			name, b = name+".gz", gzipped(b)
		}
		writeFile(t, filepath.Join(dir, name), b)
	}
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
