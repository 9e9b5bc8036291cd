package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Delimiter separates the routing identities from the message proper.
const Delimiter = "<IDS|MSG>"

var emptyObject = []byte("{}")

// Errors that Decode wraps; test for them with errors.Is.
var (
	ErrNoDelimiter  = errors.New("protocol: message has no " + Delimiter + " delimiter frame")
	ErrTooFewFrames = errors.New("protocol: message is truncated")
	ErrBadSignature = errors.New("protocol: message signature does not match the connection file's key")
)

// JSONError is returned by Decode when a frame is not a JSON object.
type JSONError struct {
	Frame string // "header", "parent_header", "metadata" or "content"
	Err   error
}

func (e *JSONError) Error() string {
	return "protocol: " + e.Frame + " frame is not a JSON object: " + e.Err.Error()
}

func (e *JSONError) Unwrap() error { return e.Err }

// Encode returns m as the frames of a multipart ZeroMQ message: the
// identities, the delimiter, the signature, the header, the parent header,
// the metadata, the content, then the buffers. s signs the message; a nil or
// keyless s leaves the signature frame empty.
func (m *Message) Encode(s *Signer) ([][]byte, error) {
	header, err := json.Marshal(m.Header)
	if err != nil {
		return nil, fmt.Errorf("protocol: encoding header: %w", err)
	}
	parent := emptyObject
	if m.ParentHeader != nil {
		if parent, err = json.Marshal(m.ParentHeader); err != nil {
			return nil, fmt.Errorf("protocol: encoding parent header: %w", err)
		}
	}
	metadata := emptyObject
	if len(m.Metadata) > 0 {
		if metadata, err = json.Marshal(m.Metadata); err != nil {
			return nil, fmt.Errorf("protocol: encoding %s metadata: %w", m.Header.MsgType, err)
		}
	}
	content := []byte(m.Content)
	if len(content) == 0 {
		content = emptyObject
	} else if !isObject(content) {
		return nil, fmt.Errorf("protocol: %s content is not a JSON object: %.40q", m.Header.MsgType, content)
	}

	frames := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	frames = append(frames, m.Identities...)
	frames = append(frames, []byte(Delimiter), s.Sign(header, parent, metadata, content))
	frames = append(frames, header, parent, metadata, content)
	frames = append(frames, m.Buffers...)
	return frames, nil
}

// Decode parses the frames of a multipart ZeroMQ message. It verifies the
// signature with s before it parses any JSON, and fails with an error
// wrapping ErrNoDelimiter, ErrTooFewFrames or ErrBadSignature, or with a
// *JSONError. The returned message shares no memory with frames' slices
// except the identities and buffers.
func Decode(frames [][]byte, s *Signer) (*Message, error) {
	delim := -1
	for i, f := range frames {
		if string(f) == Delimiter {
			delim = i
			break
		}
	}
	if delim < 0 {
		return nil, fmt.Errorf("%w (%d frames)", ErrNoDelimiter, len(frames))
	}
	rest := frames[delim+1:]
	if len(rest) < 5 {
		return nil, fmt.Errorf("%w: %d frames after the delimiter, want at least 5 (signature, header, parent_header, metadata, content)", ErrTooFewFrames, len(rest))
	}
	sig, parts := rest[0], rest[1:5]
	if s.Enabled() && len(sig) == 0 {
		return nil, fmt.Errorf("%w: the message is unsigned", ErrBadSignature)
	}
	if !s.Verify(sig, parts...) {
		return nil, ErrBadSignature
	}

	m := &Message{Identities: frames[:delim:delim]}
	if len(rest) > 5 {
		m.Buffers = rest[5:]
	}
	if err := decodeObject("header", parts[0], &m.Header); err != nil {
		return nil, err
	}
	var parent map[string]json.RawMessage
	if err := decodeObject("parent_header", parts[1], &parent); err != nil {
		return nil, err
	}
	if len(parent) > 0 {
		m.ParentHeader = new(Header)
		if err := decodeObject("parent_header", parts[1], m.ParentHeader); err != nil {
			return nil, err
		}
	}
	if err := decodeObject("metadata", parts[2], &m.Metadata); err != nil {
		return nil, err
	}
	if !isObject(parts[3]) || !json.Valid(parts[3]) {
		return nil, &JSONError{Frame: "content", Err: errors.New("invalid JSON object")}
	}
	m.Content = bytes.Clone(parts[3])
	return m, nil
}

// decodeObject unmarshals frame into v, requiring a JSON object.
func decodeObject(name string, frame []byte, v any) error {
	if !isObject(frame) {
		return &JSONError{Frame: name, Err: fmt.Errorf("got %.40q", frame)}
	}
	if err := json.Unmarshal(frame, v); err != nil {
		return &JSONError{Frame: name, Err: err}
	}
	return nil
}

// isObject reports whether b, after leading white space, starts with '{'.
// json.Unmarshal and json.Valid check the rest.
func isObject(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}
