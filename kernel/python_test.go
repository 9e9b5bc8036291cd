package kernel

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gotensor/gotensor/protocol"
)

// jupyterClientCheck is run by /usr/bin/python3 against a kernel serving
// the fake interpreter. jupyter_client (over pyzmq and libzmq) is the
// reference for the wire: the handshake, framing, routing by identity and
// iopub's subscription filter of the kernel's own sockets must satisfy
// it. It prints "ok" when every check passed.
const jupyterClientCheck = `
import sys, zmq
from jupyter_client import BlockingKernelClient

conn = sys.argv[1]

def client():
    kc = BlockingKernelClient(connection_file=conn)
    kc.load_connection_file()
    kc.start_channels()
    kc.wait_for_ready(timeout=30)
    return kc

def run(kc, code):
    """Executes code; returns the reply and the iopub messages of the
    request, up to and including its idle status."""
    msg_id = kc.execute(code)
    reply = kc.get_shell_msg(timeout=30)
    assert reply["parent_header"]["msg_id"] == msg_id, reply
    msgs = []
    while True:
        m = kc.get_iopub_msg(timeout=30)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        msgs.append(m)
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            return reply, msgs

def kinds(msgs):
    return [m["msg_type"] + ("/" + m["content"]["execution_state"] if m["msg_type"] == "status" else "") for m in msgs]

a, b = client(), client()
info = a.kernel_info(reply=True, timeout=30)
assert info["content"]["status"] == "ok", info

for i in range(50):
    reply, msgs = run(a, "value %d" % i)
    assert reply["content"]["status"] == "ok", reply
    assert kinds(msgs) == ["status/busy", "execute_input", "execute_result", "status/idle"], kinds(msgs)
    assert msgs[2]["content"]["data"]["text/plain"] == str(i), msgs[2]

big = "x" * 100000
reply, msgs = run(a, "print hello\nprint " + big + "\nvalue 3")
assert kinds(msgs) == ["status/busy", "execute_input", "stream", "stream", "execute_result", "status/idle"], kinds(msgs)
assert msgs[3]["content"]["text"] == big + "\n"

# The other client sees the same iopub messages, in the same order.
seen = []
while True:
    m = b.get_iopub_msg(timeout=30)
    if m["parent_header"].get("msg_id") == reply["parent_header"]["msg_id"]:
        seen.append(m["header"]["msg_id"])
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            break
assert seen == [m["header"]["msg_id"] for m in msgs], (seen, msgs)

# A failing cell: error on iopub, then the error reply.
reply, msgs = run(b, "fail boom")
assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "FakeError", reply
assert kinds(msgs) == ["status/busy", "execute_input", "error", "status/idle"], kinds(msgs)

# Raw sockets: a DEALER with no identity gets its reply routed back; a
# SUB whose topic matches nothing gets nothing, one for "kernel." all.
ctx = zmq.Context()
dealer = ctx.socket(zmq.DEALER)
dealer.connect("tcp://%s:%d" % (a.ip, a.shell_port))
none, some = ctx.socket(zmq.SUB), ctx.socket(zmq.SUB)
for s, topic in ((none, b"nomatch"), (some, b"kernel.")):
    s.setsockopt(zmq.SUBSCRIBE, topic)
    s.connect("tcp://%s:%d" % (a.ip, a.iopub_port))
for attempt in range(300):
    a.session.send(dealer, "kernel_info_request", {})
    if dealer.poll(100):
        idents, m = a.session.feed_identities(dealer.recv_multipart())
        m = a.session.deserialize(m)
        assert m["msg_type"] == "kernel_info_reply", m
        if some.poll(100):
            break
else:
    raise AssertionError("no kernel_info_reply, or no iopub message for the kernel. subscriber")
assert not none.poll(200), "a subscriber to 'nomatch' got an iopub message"
some.setsockopt(zmq.UNSUBSCRIBE, b"kernel.")
while some.poll(200):
    some.recv_multipart()
run(a, "value 1")
assert not some.poll(200), "a subscriber that cancelled its topic got an iopub message"
for s in (dealer, none, some):
    s.close(linger=0)

a.shutdown()
print("ok")
`

// TestJupyterClient checks the kernel's sockets with jupyter_client, an
// implementation of the protocol independent of this package's (pyzmq
// over libzmq). It is skipped where /usr/bin/python3 lacks
// jupyter_client.
func TestJupyterClient(t *testing.T) {
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import jupyter_client, zmq").Run(); err != nil {
		t.Skipf("needs %s with jupyter_client and pyzmq: %v", python, err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "kernel.json")
	p := freePorts(t, 5)
	file := fmt.Sprintf(`{"transport":"tcp","ip":"127.0.0.1","shell_port":%d,"control_port":%d,"stdin_port":%d,"iopub_port":%d,"hb_port":%d,"signature_scheme":"hmac-sha256","key":"test-key-%d","kernel_name":"gotensor"}`,
		p[0], p[1], p[2], p[3], p[4], time.Now().UnixNano())
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	conn, err := protocol.ReadConnectionFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, Config{Conn: conn, Interp: fakeInterp{}, Implementation: "gotensor-fake", LanguageVersion: "1.26"})
		done <- err
	}()
	out, err := exec.CommandContext(ctx, python, "-c", jupyterClientCheck, path).CombinedOutput()
	if err != nil || string(out) != "ok\n" {
		t.Fatalf("jupyter_client's checks failed: %v\n%s", err, out)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-ctx.Done():
		t.Fatal("the kernel did not stop after shutdown_request")
	}
}
