package protocol

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"sync"
)

// SchemeHMACSHA256 is the only signature scheme Jupyter front ends use.
const SchemeHMACSHA256 = "hmac-sha256"

// Signer signs and verifies messages with a connection file's key. A Signer
// with an empty key, and a nil *Signer, sign nothing: the signature frame is
// empty and every signature verifies, as Jupyter does without a key.
// A Signer is safe for concurrent use.
type Signer struct {
	key  []byte
	macs sync.Pool // of hash.Hash: keyed HMACs, reset after use
}

// NewSigner returns a Signer for scheme and key. The scheme must be
// "hmac-sha256", or empty when key is empty.
func NewSigner(scheme string, key []byte) (*Signer, error) {
	switch {
	case scheme == SchemeHMACSHA256:
	case scheme == "" && len(key) == 0:
	default:
		return nil, fmt.Errorf("protocol: unsupported signature_scheme %q: only %q is implemented", scheme, SchemeHMACSHA256)
	}
	return &Signer{key: append([]byte(nil), key...)}, nil
}

// Enabled reports whether s signs messages.
func (s *Signer) Enabled() bool { return s != nil && len(s.key) > 0 }

// sum appends the HMAC of the concatenated parts to b. Keyed HMACs are
// reused: making one hashes the key and allocates.
func (s *Signer) sum(b []byte, parts [][]byte) []byte {
	h, _ := s.macs.Get().(hash.Hash)
	if h == nil {
		h = hmac.New(sha256.New, s.key)
	}
	for _, p := range parts {
		h.Write(p)
	}
	b = h.Sum(b)
	h.Reset()
	s.macs.Put(h)
	return b
}

// Sign returns the lower-case hex HMAC of the concatenated parts (header,
// parent header, metadata and content, in that order), or nil when s does
// not sign.
func (s *Signer) Sign(parts ...[]byte) []byte {
	if !s.Enabled() {
		return nil
	}
	var buf [sha256.Size]byte
	sum := s.sum(buf[:0], parts)
	out := make([]byte, hex.EncodedLen(len(sum)))
	hex.Encode(out, sum)
	return out
}

// Verify reports whether sig, in hex, is the HMAC of parts. It compares in
// constant time. When s does not sign, Verify returns true.
func (s *Signer) Verify(sig []byte, parts ...[]byte) bool {
	if !s.Enabled() {
		return true
	}
	got := make([]byte, hex.DecodedLen(len(sig)))
	if _, err := hex.Decode(got, sig); err != nil {
		return false
	}
	var buf [sha256.Size]byte
	return hmac.Equal(got, s.sum(buf[:0], parts))
}
