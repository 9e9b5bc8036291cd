package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
)

// IDX magic numbers: two zero bytes, the element type (0x08, unsigned
// byte) and the number of dimensions.
const (
	idxImagesMagic = 0x00000803 // 2051: ubyte, 3 dims (N, rows, cols)
	idxLabelsMagic = 0x00000801 // 2049: ubyte, 1 dim (N)
)

// idxHeader is the decoded header of an IDX file of unsigned bytes.
type idxHeader struct {
	magic uint32
	dims  []int
}

// payloadLen returns the number of data bytes the header announces.
func (h idxHeader) payloadLen() int {
	n := 1
	for _, d := range h.dims {
		n *= d
	}
	return n
}

// headerLen returns the size of the header in bytes.
func (h idxHeader) headerLen() int { return 4 + 4*len(h.dims) }

// parseIDXHeader reads an IDX header from r and checks its magic number
// against want.
func parseIDXHeader(r io.Reader, want uint32) (idxHeader, error) {
	var m [4]byte
	if _, err := io.ReadFull(r, m[:]); err != nil {
		return idxHeader{}, fmt.Errorf("too short for an IDX header: %w", err)
	}
	magic := binary.BigEndian.Uint32(m[:])
	if magic != want {
		return idxHeader{}, fmt.Errorf("magic number is %d (%#08x), want %d (%#08x); this is not an IDX %s file",
			magic, magic, want, want, idxKind(want))
	}
	h := idxHeader{magic: magic, dims: make([]int, m[3])}
	for i := range h.dims {
		if _, err := io.ReadFull(r, m[:]); err != nil {
			return idxHeader{}, fmt.Errorf("header ends inside dimension %d: %w", i, err)
		}
		d := binary.BigEndian.Uint32(m[:])
		if d == 0 && i > 0 || d > 1<<28 {
			return idxHeader{}, fmt.Errorf("dimension %d has implausible size %d", i, d)
		}
		h.dims[i] = int(d)
	}
	return h, nil
}

func idxKind(magic uint32) string {
	if magic == idxImagesMagic {
		return "images (idx3-ubyte)"
	}
	return "labels (idx1-ubyte)"
}

// readIDX reads the IDX file at path, raw or gzip-compressed (recognised by
// its content, not its name), checks its magic number against want and
// that it holds exactly the bytes its header announces, and returns the
// header and the data bytes.
func readIDX(path string, want uint32) (idxHeader, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return idxHeader{}, nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	var r io.Reader = br
	gz := false
	if b, _ := br.Peek(2); len(b) == 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return idxHeader{}, nil, fmt.Errorf("%s: bad gzip data: %w", path, err)
		}
		defer zr.Close()
		r, gz = zr, true
	}
	h, err := parseIDXHeader(r, want)
	if err != nil {
		return idxHeader{}, nil, fmt.Errorf("%s: %w", path, err)
	}
	n := h.payloadLen()
	if !gz {
		// A raw file's size is known up front: check it before reading.
		if st, err := f.Stat(); err == nil && st.Size() != int64(h.headerLen()+n) {
			return idxHeader{}, nil, fmt.Errorf("%s: file has %d bytes, its header %v announces %d; the file is truncated or corrupt, delete it and fetch it again",
				path, st.Size(), h.dims, h.headerLen()+n)
		}
	}
	buf := make([]byte, n)
	if got, err := io.ReadFull(r, buf); err != nil {
		return idxHeader{}, nil, fmt.Errorf("%s: data ends after %d of the %d bytes its header %v announces (%v); the file is truncated or corrupt, delete it and fetch it again",
			path, got, n, h.dims, err)
	}
	if gz {
		var extra [1]byte
		if k, _ := io.ReadFull(r, extra[:]); k > 0 {
			return idxHeader{}, nil, fmt.Errorf("%s: more data than the %d bytes its header %v announces; the file is corrupt, delete it and fetch it again",
				path, n, h.dims)
		}
	}
	return h, buf, nil
}

// checkIDXBytes validates a whole IDX file held in memory (raw or gzip)
// and returns its header and raw (uncompressed) bytes.
func checkIDXBytes(name string, b []byte, want uint32) (idxHeader, []byte, error) {
	raw := b
	if len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return idxHeader{}, nil, fmt.Errorf("%s: bad gzip data: %w", name, err)
		}
		if raw, err = io.ReadAll(zr); err != nil {
			return idxHeader{}, nil, fmt.Errorf("%s: bad gzip data: %w", name, err)
		}
	}
	h, err := parseIDXHeader(bytes.NewReader(raw), want)
	if err != nil {
		return idxHeader{}, nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(raw) != h.headerLen()+h.payloadLen() {
		return idxHeader{}, nil, fmt.Errorf("%s: %d bytes, its header %v announces %d", name, len(raw), h.dims, h.headerLen()+h.payloadLen())
	}
	return h, raw, nil
}

// byteScale maps a pixel byte to its float32 value in [0,1], computed as
// torchvision's ToTensor does (float32 division by 255).
var byteScale = func() (t [256]float32) {
	for i := range t {
		t[i] = float32(i) / 255
	}
	return t
}()

// bytesToUnit converts pixel bytes to float32 values in [0,1], splitting
// the work across the available CPUs.
func bytesToUnit(b []byte) []float32 {
	out := make([]float32, len(b))
	parts := runtime.GOMAXPROCS(0)
	if len(b) < 1<<20 || parts < 2 {
		convertBytes(out, b)
		return out
	}
	var wg sync.WaitGroup
	chunk := (len(b) + parts - 1) / parts
	for lo := 0; lo < len(b); lo += chunk {
		hi := lo + chunk
		if hi > len(b) {
			hi = len(b)
		}
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			convertBytes(out[lo:hi], b[lo:hi])
		}(lo, hi)
	}
	wg.Wait()
	return out
}

func convertBytes(dst []float32, src []byte) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = byteScale[v]
	}
}

var errNotFound = errors.New("not found")
