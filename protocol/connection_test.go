package protocol

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A connection file as jupyter_client 7.4.9 writes it.
const jupyterConnectionFile = `{
  "shell_port": 53715,
  "iopub_port": 53716,
  "stdin_port": 53717,
  "control_port": 53718,
  "hb_port": 53719,
  "ip": "127.0.0.1",
  "key": "8f5e3b2a-0c6b4a1e9d7f2c3b4a5d6e7f",
  "transport": "tcp",
  "signature_scheme": "hmac-sha256",
  "kernel_name": "gotensor"
}`

func TestReadConnectionFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kernel-1.json")
	if err := os.WriteFile(path, []byte(jupyterConnectionFile), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := ReadConnectionFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := ConnectionInfo{
		Transport: "tcp", IP: "127.0.0.1",
		ShellPort: 53715, ControlPort: 53718, StdinPort: 53717, IOPubPort: 53716, HBPort: 53719,
		SignatureScheme: "hmac-sha256", Key: "8f5e3b2a-0c6b4a1e9d7f2c3b4a5d6e7f", KernelName: "gotensor",
	}
	if *c != want {
		t.Errorf("ReadConnectionFile =\n%+v\nwant\n%+v", *c, want)
	}
	if got := c.Endpoint(c.ShellPort); got != "tcp://127.0.0.1:53715" {
		t.Errorf("Endpoint = %q", got)
	}
	s, err := c.Signer()
	if err != nil || !s.Enabled() {
		t.Errorf("Signer() = %v, %v; want an enabled signer", s, err)
	}

	if _, err := ReadConnectionFile(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("ReadConnectionFile(missing) succeeded")
	}
}

func TestEndpoint(t *testing.T) {
	for _, tc := range []struct {
		c    ConnectionInfo
		port int
		want string
	}{
		{ConnectionInfo{Transport: "tcp", IP: "0.0.0.0"}, 5555, "tcp://0.0.0.0:5555"},
		{ConnectionInfo{Transport: "tcp", IP: "::1"}, 5555, "tcp://[::1]:5555"},
		// jupyter_client's ipc convention: "%s-%i" % (ip, port).
		{ConnectionInfo{Transport: "ipc", IP: "/tmp/kernel-abc"}, 3, "ipc://" + "/tmp/kernel-abc-3"},
	} {
		if got := tc.c.Endpoint(tc.port); got != tc.want {
			t.Errorf("%+v.Endpoint(%d) = %q, want %q", tc.c, tc.port, got, tc.want)
		}
	}
}

func TestParseConnectionInfoErrors(t *testing.T) {
	base := `"shell_port":1,"control_port":2,"stdin_port":3,"iopub_port":4,"hb_port":5`
	for _, tc := range []struct {
		json, wantErr string
	}{
		{`{`, "not valid JSON"},
		{`{"ip":"127.0.0.1",` + base + `,"transport":"udp"}`, `unknown transport "udp"`},
		{`{` + base + `}`, `empty "ip"`},
		{`{"ip":"127.0.0.1","shell_port":1,"control_port":2,"stdin_port":3,"iopub_port":4}`, "hb_port 0 is out of range"},
		{`{"ip":"127.0.0.1","shell_port":1,"control_port":1,"stdin_port":3,"iopub_port":4,"hb_port":5}`, "shell_port and control_port are both 1"},
		{`{"ip":"127.0.0.1",` + base + `,"key":"k","signature_scheme":"hmac-sha1"}`, `unsupported signature_scheme "hmac-sha1"`},
		{`{"ip":"127.0.0.1",` + base + `,"key":"k"}`, `unsupported signature_scheme ""`},
	} {
		_, err := ParseConnectionInfo([]byte(tc.json))
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("ParseConnectionInfo(%s) error = %v, want one containing %q", tc.json, err, tc.wantErr)
		}
	}

	// No transport means tcp; ipc works.
	for _, tr := range []string{"", "ipc"} {
		c, err := ParseConnectionInfo([]byte(`{"ip":"kernel",` + base + `,"transport":"` + tr + `"}`))
		if err != nil {
			t.Fatalf("transport %q: %v", tr, err)
		}
		if tr == "" && c.Transport != "tcp" {
			t.Errorf("default transport = %q, want tcp", c.Transport)
		}
	}
}
