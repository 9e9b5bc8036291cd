package protocol

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ConnectionInfo is the content of a Jupyter connection file: where the
// kernel's five sockets listen and how messages are signed.
type ConnectionInfo struct {
	Transport       string `json:"transport"` // "tcp" or "ipc"
	IP              string `json:"ip"`        // for ipc, the path prefix of the socket files
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	SignatureScheme string `json:"signature_scheme"` // "hmac-sha256", or empty with an empty key
	Key             string `json:"key"`              // the HMAC key; empty means unsigned messages
	KernelName      string `json:"kernel_name,omitempty"`
}

// ReadConnectionFile reads and validates the connection file at path, as
// written by jupyter_client when it starts a kernel. A missing transport
// means "tcp".
func ReadConnectionFile(path string) (*ConnectionInfo, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("protocol: reading connection file: %w", err)
	}
	c, err := ParseConnectionInfo(data)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	return c, nil
}

// ParseConnectionInfo decodes and validates the JSON of a connection file.
func ParseConnectionInfo(data []byte) (*ConnectionInfo, error) {
	var c ConnectionInfo
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("protocol: connection file is not valid JSON: %w", err)
	}
	if c.Transport == "" {
		c.Transport = "tcp"
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// Validate reports whether c can be served: a known transport, an address,
// five distinct ports in range, and a known signature scheme.
func (c *ConnectionInfo) Validate() error {
	switch c.Transport {
	case "tcp", "ipc":
	default:
		return fmt.Errorf("protocol: connection file: unknown transport %q: want \"tcp\" or \"ipc\"", c.Transport)
	}
	if c.IP == "" {
		return fmt.Errorf("protocol: connection file: empty \"ip\": want an address such as 127.0.0.1 (tcp) or a path prefix (ipc)")
	}
	seen := make(map[int]string)
	for _, p := range c.ports() {
		if p.port < 1 || p.port > 65535 {
			return fmt.Errorf("protocol: connection file: %s %d is out of range 1-65535", p.name, p.port)
		}
		if other, ok := seen[p.port]; ok {
			return fmt.Errorf("protocol: connection file: %s and %s are both %d: each socket needs its own port", other, p.name, p.port)
		}
		seen[p.port] = p.name
	}
	if _, err := NewSigner(c.SignatureScheme, []byte(c.Key)); err != nil {
		return err
	}
	return nil
}

type namedPort struct {
	name string
	port int
}

func (c *ConnectionInfo) ports() []namedPort {
	return []namedPort{
		{"shell_port", c.ShellPort},
		{"control_port", c.ControlPort},
		{"stdin_port", c.StdinPort},
		{"iopub_port", c.IOPubPort},
		{"hb_port", c.HBPort},
	}
}

// Endpoint returns the ZeroMQ address of the socket on port: "tcp://IP:PORT",
// or for the ipc transport "ipc://IP-PORT", Jupyter's convention of one file
// per socket named after the ip field.
func (c *ConnectionInfo) Endpoint(port int) string {
	if c.Transport == "ipc" {
		return "ipc://" + c.IP + "-" + strconv.Itoa(port)
	}
	ip := c.IP
	if strings.Contains(ip, ":") && !strings.HasPrefix(ip, "[") {
		ip = "[" + ip + "]" // IPv6
	}
	return "tcp://" + ip + ":" + strconv.Itoa(port)
}

// Signer returns the Signer for c's signature scheme and key.
func (c *ConnectionInfo) Signer() (*Signer, error) {
	return NewSigner(c.SignatureScheme, []byte(c.Key))
}
