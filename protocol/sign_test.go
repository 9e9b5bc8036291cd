package protocol

import (
	"strings"
	"testing"
)

// The expected signatures were computed independently with Python:
//
//	/usr/bin/python3 -c 'import hmac, hashlib
//	h = hmac.new(KEY, digestmod=hashlib.sha256)
//	for p in PARTS: h.update(p)
//	print(h.hexdigest())'
var signTests = []struct {
	key   string
	parts []string
	want  string
}{
	{
		key:   "secret-key",
		parts: []string{`{"msg_id":"1"}`, `{}`, `{}`, `{"code":"1+1"}`},
		want:  "f29edc2ae347e99e996cf426a9068abd72bbac08f131d7b7d863f0430600434a",
	},
	{
		key: "a1b2c3d4-e5f6-7788-99aa-bbccddeeff00",
		parts: []string{
			`{"date":"2024-01-02T03:04:05.678901Z","msg_id":"abc","msg_type":"kernel_info_request","session":"s1","username":"u","version":"5.3"}`,
			`{}`, `{}`, `{}`,
		},
		want: "4dd27f96af0dedab4bdecc2f7e260a106a5ca6333589f140f436597c55364c81",
	},
}

func TestSign(t *testing.T) {
	for i, tc := range signTests {
		s, err := NewSigner(SchemeHMACSHA256, []byte(tc.key))
		if err != nil {
			t.Fatal(err)
		}
		parts := make([][]byte, len(tc.parts))
		for j, p := range tc.parts {
			parts[j] = []byte(p)
		}
		if got := string(s.Sign(parts...)); got != tc.want {
			t.Errorf("case %d: Sign = %s, want %s", i, got, tc.want)
		}
		if !s.Verify([]byte(tc.want), parts...) {
			t.Errorf("case %d: Verify rejects the right signature", i)
		}
		if !s.Verify([]byte(strings.ToUpper(tc.want)), parts...) {
			t.Errorf("case %d: Verify rejects the right signature in upper case", i)
		}
		bad := []byte(tc.want)
		bad[10] ^= 1
		if s.Verify(bad, parts...) {
			t.Errorf("case %d: Verify accepts a wrong signature", i)
		}
		if s.Verify([]byte("not hex"), parts...) {
			t.Errorf("case %d: Verify accepts a non-hex signature", i)
		}
		if s.Verify([]byte(tc.want[:32]), parts...) {
			t.Errorf("case %d: Verify accepts a truncated signature", i)
		}
	}
}

func TestSignerUnsigned(t *testing.T) {
	for _, s := range []*Signer{nil, mustSigner(t, "", "")} {
		if s.Enabled() {
			t.Errorf("%v: Enabled = true, want false", s)
		}
		if sig := s.Sign([]byte("x")); sig != nil {
			t.Errorf("Sign = %q, want nil", sig)
		}
		if !s.Verify([]byte("anything"), []byte("x")) {
			t.Errorf("keyless Verify = false, want true")
		}
	}
}

func TestNewSignerScheme(t *testing.T) {
	for _, tc := range []struct {
		scheme, key string
		ok          bool
	}{
		{"hmac-sha256", "k", true},
		{"hmac-sha256", "", true},
		{"", "", true},
		{"", "k", false},
		{"hmac-md5", "k", false},
		{"HMAC-SHA256", "k", false},
	} {
		_, err := NewSigner(tc.scheme, []byte(tc.key))
		if (err == nil) != tc.ok {
			t.Errorf("NewSigner(%q, %q) error = %v, want ok=%v", tc.scheme, tc.key, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "hmac-sha256") {
			t.Errorf("NewSigner(%q) error %q does not name the supported scheme", tc.scheme, err)
		}
	}
}

func mustSigner(t testing.TB, scheme, key string) *Signer {
	t.Helper()
	s, err := NewSigner(scheme, []byte(key))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
