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
	header := m.Header.appendJSON(nil)
	parent := emptyObject
	if m.ParentHeader != nil {
		parent = m.ParentHeader.appendJSON(nil)
	}

	var err error
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

// appendJSON appends h as a JSON object to b, as json.Marshal writes it
// but without reflection.
func (h *Header) appendJSON(b []byte) []byte {
	if b == nil {
		b = make([]byte, 0, 96+len(h.MsgID)+len(h.Session)+len(h.Username)+len(h.Date)+len(h.MsgType)+len(h.Version))
	}
	b = append(b, `{"msg_id":`...)
	b = appendJSONString(b, h.MsgID)
	b = append(b, `,"session":`...)
	b = appendJSONString(b, h.Session)
	b = append(b, `,"username":`...)
	b = appendJSONString(b, h.Username)
	b = append(b, `,"date":`...)
	b = appendJSONString(b, h.Date)
	b = append(b, `,"msg_type":`...)
	b = appendJSONString(b, h.MsgType)
	b = append(b, `,"version":`...)
	b = appendJSONString(b, h.Version)
	return append(b, '}')
}

// appendJSONString appends s as a JSON string. Strings of printable ASCII
// without quotes, backslashes or the characters json.Marshal escapes for
// HTML (the usual ids, dates and types) are copied; others are left to
// json.Marshal.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
