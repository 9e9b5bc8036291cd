package protocol

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"testing"
)

// TestDecodeJupyterClient decodes a message that jupyter_client's Session
// serialized (testdata/gen_session_fixture.py).
func TestDecodeJupyterClient(t *testing.T) {
	data, err := os.ReadFile("testdata/session_fixture.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Key    string
		Frames []string
	}
	if err := json.Unmarshal(data, &fx); err != nil {
		t.Fatal(err)
	}
	frames := make([][]byte, len(fx.Frames))
	for i, f := range fx.Frames {
		if frames[i], err = base64.StdEncoding.DecodeString(f); err != nil {
			t.Fatal(err)
		}
	}
	m, err := Decode(frames, mustSigner(t, SchemeHMACSHA256, fx.Key))
	if err != nil {
		t.Fatal(err)
	}
	wantHeader := Header{MsgID: "reply-1", Session: "sess-1", Username: "alice", Date: "2024-01-02T03:04:06.000001Z", MsgType: "execute_reply", Version: "5.3"}
	wantParent := Header{MsgID: "parent-1", Session: "sess-1", Username: "alice", Date: "2024-01-02T03:04:05.678901Z", MsgType: "execute_request", Version: "5.3"}
	if m.Header != wantHeader {
		t.Errorf("header = %+v, want %+v", m.Header, wantHeader)
	}
	if m.ParentHeader == nil || *m.ParentHeader != wantParent {
		t.Errorf("parent = %+v, want %+v", m.ParentHeader, wantParent)
	}
	if !reflect.DeepEqual(m.Metadata, map[string]any{"m": 1.0}) {
		t.Errorf("metadata = %v", m.Metadata)
	}
	var content struct {
		Status         string
		ExecutionCount int `json:"execution_count"`
	}
	if err := m.DecodeContent(&content); err != nil || content.Status != "ok" || content.ExecutionCount != 3 {
		t.Errorf("content = %+v, %v", content, err)
	}
	if len(m.Identities) != 1 || string(m.Identities[0]) != "peer-id" {
		t.Errorf("identities = %q", m.Identities)
	}
	if len(m.Buffers) != 1 || string(m.Buffers[0]) != "\x00\x01binary" {
		t.Errorf("buffers = %q", m.Buffers)
	}

	// A different key must reject it.
	if _, err := Decode(frames, mustSigner(t, SchemeHMACSHA256, "other")); !errors.Is(err, ErrBadSignature) {
		t.Errorf("Decode with the wrong key: error = %v, want ErrBadSignature", err)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	s := mustSigner(t, SchemeHMACSHA256, "round-trip")
	m := &Message{
		Identities:   [][]byte{[]byte("a"), []byte("b")},
		Header:       Header{MsgID: "1", Session: "s", Username: "u", Date: "2024-01-02T03:04:05.000000Z", MsgType: "stream", Version: "5.3"},
		ParentHeader: &Header{MsgID: "0", MsgType: "execute_request"},
		Metadata:     map[string]any{"k": "v"},
		Content:      json.RawMessage(`{"name":"stdout","text":"hi\n"}`),
		Buffers:      [][]byte{{0, 1, 2}, {}},
	}
	frames, err := m.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(frames); n != 2+1+5+2 {
		t.Fatalf("Encode gave %d frames, want 10", n)
	}
	if string(frames[2]) != Delimiter {
		t.Errorf("frame 2 = %q, want the delimiter", frames[2])
	}
	if want := s.Sign(frames[4:8]...); !bytes.Equal(frames[3], want) {
		t.Errorf("signature frame = %s, want %s", frames[3], want)
	}
	got, err := Decode(frames, s)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, m) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, m)
	}
}

func TestEmptyParentRoundTrip(t *testing.T) {
	frames := [][]byte{
		[]byte(Delimiter), nil,
		[]byte(`{"msg_id":"1","session":"s","username":"u","date":"","msg_type":"status","version":"5.3"}`),
		[]byte(`{}`), []byte(`{}`), []byte(`{"execution_state":"starting"}`),
	}
	m, err := Decode(frames, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.ParentHeader != nil {
		t.Errorf("parent of {} = %+v, want nil", m.ParentHeader)
	}
	out, err := m.Encode(nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(out[1]) != "" || string(out[3]) != "{}" || string(out[4]) != "{}" {
		t.Errorf("unsigned encode of empty parent/metadata: signature %q, parent %q, metadata %q; want \"\", {}, {}", out[1], out[3], out[4])
	}
	if string(out[5]) != `{"execution_state":"starting"}` {
		t.Errorf("content = %s", out[5])
	}
}

func TestDecodeErrors(t *testing.T) {
	s := mustSigner(t, SchemeHMACSHA256, "k")
	valid := func() [][]byte {
		m := &Message{Header: Header{MsgID: "1", MsgType: "kernel_info_request"}}
		f, err := m.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	// resign replaces frames[from:] and signs the result, so that the test
	// reaches the JSON checks.
	resign := func(header, parent, metadata, content string) [][]byte {
		f := [][]byte{[]byte(Delimiter), nil, []byte(header), []byte(parent), []byte(metadata), []byte(content)}
		f[1] = s.Sign(f[2:6]...)
		return f
	}
	hdr := `{"msg_id":"1","msg_type":"x"}`
	tests := []struct {
		name   string
		frames [][]byte
		is     error
		frame  string // for *JSONError
	}{
		{"no frames", nil, ErrNoDelimiter, ""},
		{"no delimiter", valid()[1:], ErrNoDelimiter, ""},
		{"truncated", valid()[:5], ErrTooFewFrames, ""},
		{"only delimiter", [][]byte{[]byte(Delimiter)}, ErrTooFewFrames, ""},
		{"unsigned", func() [][]byte { f := valid(); f[1] = nil; return f }(), ErrBadSignature, ""},
		{"tampered content", func() [][]byte { f := valid(); f[5] = []byte(`{"code":"evil"}`); return f }(), ErrBadSignature, ""},
		{"wrong signature", func() [][]byte { f := valid(); f[1] = bytes.Repeat([]byte("0"), 64); return f }(), ErrBadSignature, ""},
		{"header not JSON", resign(`{"msg_id":`, `{}`, `{}`, `{}`), nil, "header"},
		{"header an array", resign(`[]`, `{}`, `{}`, `{}`), nil, "header"},
		{"header bad field type", resign(`{"msg_id":5}`, `{}`, `{}`, `{}`), nil, "header"},
		{"parent not JSON", resign(hdr, `{]`, `{}`, `{}`), nil, "parent_header"},
		{"parent null", resign(hdr, `null`, `{}`, `{}`), nil, "parent_header"},
		{"metadata a string", resign(hdr, `{}`, `"x"`, `{}`), nil, "metadata"},
		{"content truncated", resign(hdr, `{}`, `{}`, `{"code":`), nil, "content"},
		{"content a number", resign(hdr, `{}`, `{}`, `1`), nil, "content"},
		{"content empty", resign(hdr, `{}`, `{}`, ``), nil, "content"},
	}
	for _, tc := range tests {
		m, err := Decode(tc.frames, s)
		if err == nil {
			t.Errorf("%s: Decode succeeded: %+v", tc.name, m)
			continue
		}
		if tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: error = %v, want %v", tc.name, err, tc.is)
		}
		if tc.frame != "" {
			var je *JSONError
			if !errors.As(err, &je) || je.Frame != tc.frame {
				t.Errorf("%s: error = %v, want a *JSONError for frame %q", tc.name, err, tc.frame)
			}
		}
	}

	// The valid message decodes, and so does one with extra identities.
	f := append([][]byte{[]byte("id1"), []byte("id2")}, valid()...)
	m, err := Decode(f, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Identities) != 2 || m.Header.MsgType != "kernel_info_request" {
		t.Errorf("decoded %+v", m)
	}
}

func TestEncodeRejectsNonObjectContent(t *testing.T) {
	m := &Message{Header: Header{MsgType: "x"}, Content: json.RawMessage(`[1]`)}
	if _, err := m.Encode(nil); err == nil {
		t.Error("Encode of array content succeeded")
	}
}
