"""Shared helpers for the tests that drive the installed gotensor kernel.

The kernelspec is found by name, $GOTENSOR_KERNEL_NAME (default "gotensor"),
the way Jupyter finds it: scripts/test.sh installs a fresh one into a
temporary $JUPYTER_DATA_DIR before running these tests.
"""

import datetime
import hashlib
import hmac
import json
import os
import queue
import time
import uuid

import pytest
from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
from jupyter_client.manager import start_new_kernel
from jupyter_client.utils import run_sync
from jupyter_kernel_test.msgspec_v5 import msg_structure_validator, schema_fragments, validate_message

KERNEL_NAME = os.environ.get("GOTENSOR_KERNEL_NAME", "gotensor")
# How long a test waits for the kernel: a hang shows as a failure after
# it. A cell that compiles (compiled cells: it declares a function or
# loops) builds a plugin, seconds on a busy two-core machine.
TIMEOUT = 90


def missing(reason, module_level=False):
    """Says that something a test needs is missing (a program, the
    kernelspec, data): it skips the test (or the calling module), or fails
    it when GOTENSOR_REQUIRE_TOOLS=1, which scripts/test.sh sets after
    scripts/setup.sh has installed everything, so that CI cannot pass by
    skipping. Go's tests read the same variable (internal/testenv)."""
    if os.environ.get("GOTENSOR_REQUIRE_TOOLS") == "1":
        pytest.fail(f"missing (GOTENSOR_REQUIRE_TOOLS=1): {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=module_level)


def require_kernelspec():
    """Skips the calling test module when the kernelspec is not installed
    (see missing)."""
    try:
        KernelSpecManager().get_kernel_spec(KERNEL_NAME)
    except NoSuchKernel:
        missing(
            f"no kernelspec {KERNEL_NAME!r}: run scripts/test.sh, or "
            f"bin/gotensor install --name {KERNEL_NAME}",
            module_level=True,
        )


def start_kernel():
    """Starts the kernel; returns its manager and a ready blocking client."""
    return start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=TIMEOUT)


def stop_kernel(km, kc):
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def validated(msg):
    """Validates msg against jupyter_kernel_test's version 5 message schemas
    and returns it. Some messages are checked by hand instead, where those
    schemas disagree with the messaging specification: an 'aborted'
    execute_reply and the comm messages (unknown to them), and input_request
    (whose 'password' they want a number; the specification says boolean)."""
    t, c = msg["msg_type"], msg["content"]
    if t == "execute_reply" and c.get("status") == "aborted":
        assert set(c) >= {"status"}, c
    elif t == "input_request":
        assert isinstance(c.get("prompt"), str) and isinstance(c.get("password"), bool), c
    elif t not in schema_fragments:  # comm_open, comm_msg, comm_close
        msg_structure_validator.validate(msg)
        assert isinstance(c.get("comm_id"), str) and isinstance(c.get("data", {}), dict), c
    else:
        validate_message(msg)
    return msg


def get_reply(channel, msg_id, timeout=TIMEOUT):
    """Returns the reply to msg_id from a shell, control or stdin channel,
    skipping replies to other requests."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no reply to {msg_id} within {timeout}s")
        try:
            msg = run_sync(channel.get_msg)(timeout=left)
        except queue.Empty:
            continue
        if msg["parent_header"].get("msg_id") == msg_id:
            return validated(msg)


def messages_of(kc, msg_id, timeout=TIMEOUT, what="idle status"):
    """Yields the iopub messages caused by request msg_id as they arrive,
    dropping the others; a TimeoutError names what the caller waited for."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"no {what} for {msg_id} within {timeout}s")
        try:
            msg = kc.get_iopub_msg(timeout=left)
        except queue.Empty:
            continue
        if msg["parent_header"].get("msg_id") == msg_id:
            yield msg


def iopub_for(kc, msg_id, timeout=TIMEOUT):
    """Returns the iopub messages caused by request msg_id, from its
    'busy' status through its 'idle' status, both included."""
    msgs = []
    for msg in messages_of(kc, msg_id, timeout):
        msgs.append(validated(msg))
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return msgs


def wait_for_output(kc, msg_id, text, timeout=TIMEOUT):
    """Reads iopub until request msg_id's cell prints text: a test that acts
    on a running loop waits for it to run, since a cell that compiles starts
    a second or more after its request. The messages read are dropped."""
    for msg in messages_of(kc, msg_id, timeout, what=f"output {text!r}"):
        if msg["msg_type"] == "stream" and text in msg["content"]["text"]:
            return
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            raise AssertionError(f"the cell of {msg_id} ended without printing {text!r}")


def execute(kc, code, timeout=TIMEOUT, **kwargs):
    """Runs code; returns the execute_reply and its iopub messages."""
    msg_id = kc.execute(code, **kwargs)
    reply = get_reply(kc.shell_channel, msg_id, timeout)
    return reply, iopub_for(kc, msg_id, timeout)


def stream_text(msgs, name="stdout"):
    """Joins the text of the stream messages named name."""
    return "".join(m["content"]["text"] for m in msgs if m["msg_type"] == "stream" and m["content"]["name"] == name)


def of_type(msgs, msg_type):
    return [m for m in msgs if m["msg_type"] == msg_type]


def drain(kc):
    """Discards pending iopub and shell messages."""
    for get in (kc.get_iopub_msg, kc.get_shell_msg):
        while True:
            try:
                get(timeout=0.05)
            except queue.Empty:
                break


class RawClient:
    """A bare ZeroMQ client that builds and signs wire messages itself, to
    send what jupyter_client never would: bad signatures, broken JSON,
    truncated multipart messages."""

    DELIM = b"<IDS|MSG>"

    def __init__(self, ctx, info, channel="shell"):
        import zmq

        key = info["key"]
        self.key = key.encode() if isinstance(key, str) else key
        self.session = uuid.uuid4().hex
        self.sock = ctx.socket(zmq.DEALER)
        self.sock.linger = 0
        self.sock.connect(f"{info['transport']}://{info['ip']}:{info[channel + '_port']}")

    def close(self):
        self.sock.close()

    def sign(self, *frames):
        if not self.key:
            return b""
        h = hmac.new(self.key, digestmod=hashlib.sha256)
        for f in frames:
            h.update(f)
        return h.hexdigest().encode()

    def header(self, msg_type):
        return {
            "msg_id": uuid.uuid4().hex,
            "session": self.session,
            "username": "test",
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
            "msg_type": msg_type,
            "version": "5.3",
        }

    def frames(self, msg_type, content=None, ids=()):
        """Returns a signed message's frames and its header."""
        hdr = self.header(msg_type)
        parts = [json.dumps(p).encode() for p in (hdr, {}, {}, content or {})]
        return [*ids, self.DELIM, self.sign(*parts), *parts], hdr

    def send(self, msg_type, content=None, ids=()):
        frames, hdr = self.frames(msg_type, content, ids)
        self.sock.send_multipart(frames)
        return hdr

    def send_frames(self, frames):
        self.sock.send_multipart(frames)

    def recv(self, timeout=TIMEOUT):
        """Returns (identities, signature, [header, parent, metadata, content])
        of the next message, or None after timeout seconds."""
        if not self.sock.poll(int(timeout * 1000)):
            return None
        frames = self.sock.recv_multipart()
        i = frames.index(self.DELIM)
        sig, parts = frames[i + 1], frames[i + 2 : i + 6]
        return frames[:i], sig, [json.loads(p) for p in parts], parts
