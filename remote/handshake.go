package remote

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Handshake is what the launcher writes, as one line of JSON, on the node
// process's standard input before anything else. It carries the signing
// key, which is why it takes that way and no other.
type Handshake struct {
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
	KernelName      string `json:"kernel_name,omitempty"`
	NodeOptions
}

// NodeOptions say how the node side binds, what it reports and how it
// watches its launcher. The package of a Starter supplies them (see
// slurm.Options.Node).
type NodeOptions struct {
	// Bind is the address the kernel's sockets bind on the node. Empty
	// means the address of the node's interface that routes to Toward.
	// An unspecified address (0.0.0.0) binds them all.
	Bind string `json:"bind,omitempty"`
	// Toward is the launcher's address as the node sees it. The node
	// expands $VARIABLES in it from its own environment, so that a
	// scheduler can fill it in ("$SLURM_LAUNCH_NODE_IPADDR").
	Toward string `json:"toward,omitempty"`
	// Report names environment variables of the node process whose values
	// come back in Ready.Report (SLURM_JOB_ID, say).
	Report []string `json:"report,omitempty"`
	// Release is the command, with $VARIABLES expanded on the node, that
	// the node runs when it loses its launcher, to give its machine back
	// ("scancel", "$SLURM_JOB_ID"). Empty: none.
	Release []string `json:"release,omitempty"`
	// LifelineMS is how long, in milliseconds, the node waits without a
	// byte from the launcher before it decides the launcher is gone; the
	// launcher writes a keepalive four times as often. 0 disables the
	// timeout; the node still stops when its stdin closes.
	LifelineMS int64 `json:"lifeline_ms,omitempty"`
}

// ReadyPrefix starts the line the node prints on its standard output when
// its ports are chosen; JSON of a Ready follows on the same line.
const ReadyPrefix = "gotensor-remote-ready "

// Ready is what the node side prints once it has chosen where to listen:
// the address the launcher dials and the five ports, with the node's host
// name, process id and the reported environment.
type Ready struct {
	IP          string            `json:"ip"`
	ShellPort   int               `json:"shell_port"`
	ControlPort int               `json:"control_port"`
	StdinPort   int               `json:"stdin_port"`
	IOPubPort   int               `json:"iopub_port"`
	HBPort      int               `json:"hb_port"`
	Host        string            `json:"host"`
	PID         int               `json:"pid"`
	Report      map[string]string `json:"report,omitempty"`
}

// String formats r as the Ready line, without its newline.
func (r Ready) String() string {
	js, _ := json.Marshal(r) // cannot fail: strings and ints
	return ReadyPrefix + string(js)
}

// ParseReady decodes a Ready line (with or without its newline). ok is
// false when line is not one.
func ParseReady(line string) (r Ready, ok bool, err error) {
	rest, found := strings.CutPrefix(strings.TrimRight(line, "\r\n"), ReadyPrefix)
	if !found {
		return Ready{}, false, nil
	}
	if err := json.Unmarshal([]byte(rest), &r); err != nil {
		return Ready{}, true, fmt.Errorf("remote: the node's ready line is not valid JSON: %w", err)
	}
	if r.IP == "" {
		return Ready{}, true, fmt.Errorf("remote: the node's ready line has no address")
	}
	for _, p := range []int{r.ShellPort, r.ControlPort, r.StdinPort, r.IOPubPort, r.HBPort} {
		if p < 1 || p > 65535 {
			return Ready{}, true, fmt.Errorf("remote: the node's ready line has port %d, out of range 1-65535", p)
		}
	}
	return r, true, nil
}

// port returns r's port of the channel named name ("shell", "iopub"...).
func (r Ready) port(name string) int {
	switch name {
	case "shell":
		return r.ShellPort
	case "control":
		return r.ControlPort
	case "stdin":
		return r.StdinPort
	case "iopub":
		return r.IOPubPort
	case "hb":
		return r.HBPort
	}
	return 0
}
