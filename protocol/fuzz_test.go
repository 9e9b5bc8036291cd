package protocol

import (
	"bytes"
	"reflect"
	"testing"
)

// fuzzFrames splits fuzz input into frames at NUL bytes, which JSON text
// never contains.
func fuzzFrames(data []byte) [][]byte { return bytes.Split(data, []byte{0}) }

// FuzzDecode checks that Decode never panics, and that whatever it accepts
// encodes and decodes back to the same message.
func FuzzDecode(f *testing.F) {
	hdr := `{"msg_id":"1","session":"s","username":"u","date":"2024-01-02T03:04:05.000000Z","msg_type":"execute_request","version":"5.3"}`
	for _, frames := range [][]string{
		{"peer", Delimiter, "", hdr, "{}", "{}", `{"code":"1+1","silent":false}`},
		{Delimiter, "", hdr, hdr, `{"a":[1,2,{"b":null}]}`, "{}", "buf1", "buf2"},
		{Delimiter, "", "{}", "{}", "{}", "{}"},
		{Delimiter, "", "{", "{}", "{}", "{}"},
		{"a", "b", Delimiter},
		{"no delimiter"},
	} {
		f.Add([]byte(joinFrames(frames)))
	}
	keyless := mustSigner(f, "", "")
	signed := mustSigner(f, SchemeHMACSHA256, "fuzz")
	f.Fuzz(func(t *testing.T, data []byte) {
		frames := fuzzFrames(data)
		_, _ = Decode(frames, signed)
		m, err := Decode(frames, keyless)
		if err != nil {
			return
		}
		out, err := m.Encode(signed)
		if err != nil {
			t.Fatalf("Encode of a decoded message: %v", err)
		}
		m2, err := Decode(out, signed)
		if err != nil {
			t.Fatalf("Decode of a re-encoded message: %v", err)
		}
		if !sameMessage(m, m2) {
			t.Fatalf("round trip changed the message:\n%+v\n%+v", m, m2)
		}
	})
}

func joinFrames(frames []string) string {
	var b bytes.Buffer
	for i, fr := range frames {
		if i > 0 {
			b.WriteByte(0)
		}
		b.WriteString(fr)
	}
	return b.String()
}

// sameMessage compares messages, treating nil and empty slices and maps as
// equal and content by its JSON value.
func sameMessage(a, b *Message) bool {
	if a.Header != b.Header || !reflect.DeepEqual(a.ParentHeader, b.ParentHeader) {
		return false
	}
	if len(a.Metadata) != len(b.Metadata) || (len(a.Metadata) > 0 && !reflect.DeepEqual(a.Metadata, b.Metadata)) {
		return false
	}
	if !bytes.Equal(a.Content, b.Content) || len(a.Identities) != len(b.Identities) || len(a.Buffers) != len(b.Buffers) {
		return false
	}
	for i := range a.Identities {
		if !bytes.Equal(a.Identities[i], b.Identities[i]) {
			return false
		}
	}
	for i := range a.Buffers {
		if !bytes.Equal(a.Buffers[i], b.Buffers[i]) {
			return false
		}
	}
	return true
}
