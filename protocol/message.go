package protocol

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
)

// Version is the version of the messaging protocol this package speaks.
const Version = "5.3"

// Header is a message header. The same fields make up a parent header.
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"` // ISO 8601, see FormatDate
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is one Jupyter message.
type Message struct {
	// Identities are the ZeroMQ routing frames before the delimiter: on a
	// ROUTER socket, the peer that sent the message; on iopub, the topic.
	Identities [][]byte
	Header     Header
	// ParentHeader is the header of the request this message answers, or
	// nil for none; nil travels as {}.
	ParentHeader *Header
	// Metadata is free-form; nil travels as {}.
	Metadata map[string]any
	// Content is the JSON object the message type defines; empty travels as {}.
	Content json.RawMessage
	// Buffers are extra binary frames after the content.
	Buffers [][]byte
}

// DecodeContent unmarshals m's content into v.
func (m *Message) DecodeContent(v any) error {
	content := m.Content
	if len(content) == 0 {
		content = emptyObject
	}
	if err := json.Unmarshal(content, v); err != nil {
		return fmt.Errorf("protocol: %s content: %w", m.Header.MsgType, err)
	}
	return nil
}

// NewMsgID returns a random (version 4) UUID for a header's msg_id.
func NewMsgID() string {
	var u [16]byte
	rand.Read(u[:]) // never fails; see crypto/rand.Read
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}

// FormatDate formats t for a header's date field: RFC 3339 in UTC with
// microseconds, such as "2024-01-02T03:04:05.678901Z".
func FormatDate(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000Z07:00")
}

// Session stamps the messages a kernel sends with its session id and user
// name.
type Session struct {
	ID       string
	Username string
}

// NewSession returns a Session with a random id.
func NewSession(username string) Session {
	return Session{ID: NewMsgID(), Username: username}
}

// NewHeader returns a header of type msgType with a fresh msg_id and the
// current time.
func (s Session) NewHeader(msgType string) Header {
	return Header{
		MsgID:    NewMsgID(),
		Session:  s.ID,
		Username: s.Username,
		Date:     FormatDate(time.Now()),
		MsgType:  msgType,
		Version:  Version,
	}
}

// NewMessage returns a message of type msgType whose content is content
// encoded as JSON. When parent is not nil the message answers it: the parent
// header is parent's header, and the identities are parent's, so that a
// ROUTER socket routes it back to the sender.
//
// Content that is a json.RawMessage holding valid JSON is used as it is.
func (s Session) NewMessage(msgType string, parent *Message, content any) (m *Message, err error) {
	var raw []byte
	if r, ok := content.(json.RawMessage); ok && json.Valid(r) {
		raw = r // already JSON: no need to compact a copy
	} else if raw, err = json.Marshal(content); err != nil {
		return nil, fmt.Errorf("protocol: encoding %s content: %w", msgType, err)
	}
	m = &Message{Header: s.NewHeader(msgType), Content: raw}
	if parent != nil {
		ph := parent.Header
		m.ParentHeader = &ph
		m.Identities = parent.Identities
	}
	return m, nil
}
