package protocol

import (
	"encoding/json"
	"regexp"
	"testing"
	"time"
)

func TestNewMsgID(t *testing.T) {
	uuid4 := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := make(map[string]bool)
	for range 100 {
		id := NewMsgID()
		if !uuid4.MatchString(id) {
			t.Fatalf("NewMsgID() = %q, not a version 4 UUID", id)
		}
		if seen[id] {
			t.Fatalf("NewMsgID() repeated %q", id)
		}
		seen[id] = true
	}
}

func TestFormatDate(t *testing.T) {
	loc := time.FixedZone("X", 2*3600)
	d := time.Date(2024, 1, 2, 5, 4, 5, 678901234, loc)
	if got, want := FormatDate(d), "2024-01-02T03:04:05.678901Z"; got != want {
		t.Errorf("FormatDate = %q, want %q", got, want)
	}
	if got, want := FormatDate(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)), "2024-01-02T03:04:05.000000Z"; got != want {
		t.Errorf("FormatDate = %q, want %q", got, want)
	}
}

func TestSessionNewMessage(t *testing.T) {
	s := Session{ID: "sess", Username: "kernel"}
	req := &Message{
		Identities: [][]byte{[]byte("peer")},
		Header:     Header{MsgID: "req-1", MsgType: "kernel_info_request", Session: "client", Version: "5.3"},
	}
	before := time.Now().UTC().Add(-time.Second)
	m, err := s.NewMessage("kernel_info_reply", req, map[string]string{"status": "ok"})
	if err != nil {
		t.Fatal(err)
	}
	h := m.Header
	if h.MsgType != "kernel_info_reply" || h.Session != "sess" || h.Username != "kernel" || h.Version != "5.3" || h.MsgID == "" {
		t.Errorf("header = %+v", h)
	}
	d, err := time.Parse(time.RFC3339Nano, h.Date)
	if err != nil || d.Before(before) || d.After(time.Now().Add(time.Second)) {
		t.Errorf("date %q: %v", h.Date, err)
	}
	if m.ParentHeader == nil || *m.ParentHeader != req.Header {
		t.Errorf("parent header = %+v, want %+v", m.ParentHeader, req.Header)
	}
	if len(m.Identities) != 1 || string(m.Identities[0]) != "peer" {
		t.Errorf("identities = %q", m.Identities)
	}
	if string(m.Content) != `{"status":"ok"}` {
		t.Errorf("content = %s", m.Content)
	}

	if _, err := s.NewMessage("x", nil, func() {}); err == nil {
		t.Error("NewMessage with unencodable content succeeded")
	}
}

// TestHeaderJSON checks that a header is encoded as json.Marshal encodes
// it, for plain values and for ones that need escaping.
func TestHeaderJSON(t *testing.T) {
	for _, v := range []string{"", "abc-123", "2024-01-02T03:04:05.678901Z", `q"uote`, `back\slash`, "tab\there", "<b>&", "é ü", "\u2028", "\x7f"} {
		h := Header{MsgID: v, Session: "s" + v, Username: v + "u", Date: v, MsgType: "status", Version: Version}
		want, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		if got := h.appendJSON(nil); string(got) != string(want) {
			t.Errorf("header with %q:\n got %s\nwant %s", v, got, want)
		}
	}
}

// BenchmarkStatusMessage measures making and encoding a status message;
// the kernel sends two for every request.
func BenchmarkStatusMessage(b *testing.B) {
	s := NewSession("kernel")
	signer, err := NewSigner(SchemeHMACSHA256, []byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		b.Fatal(err)
	}
	parent, _ := s.NewMessage("execute_request", nil, map[string]any{"code": "1+1"})
	busy := json.RawMessage(`{"execution_state":"busy"}`)
	b.ReportAllocs()
	for b.Loop() {
		m, err := s.NewMessage("status", parent, busy)
		if err != nil {
			b.Fatal(err)
		}
		m.Identities = [][]byte{[]byte("kernel." + s.ID + ".status")}
		if _, err := m.Encode(signer); err != nil {
			b.Fatal(err)
		}
	}
}
