"""JupyterLab's visual debugger, through jupyter_client, as ipykernel's
test_debugger.py drives it: debug_request on the control channel,
debug_reply back, debug_event on iopub. A breakpoint in a function of an
earlier cell stops with the stack and the variables the Go code has, next
steps by line, continue ends the cell with its output, a tensor shows its
shape and its rich view, and after disconnect cells run as before.

The cell's source path is computed here as JupyterLab computes it, from
debugInfo's prefix, seed and suffix, with ipykernel's murmur2 as the
independent reference."""

import queue
import time

import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.utils import run_sync

from conftest import KERNEL_NAME, TIMEOUT, execute, require_kernelspec, start_kernel, stop_kernel, stream_text

require_kernelspec()

try:
    from ipykernel.compiler import murmur2_x86
except ImportError:  # pragma: no cover
    murmur2_x86 = None


class DAP:
    """A debug adapter client over the kernel's control and iopub channels."""

    def __init__(self, kc):
        self.kc = kc
        self.seq = 0
        self.iopub = []  # every iopub message read while waiting for events

    def request(self, command, arguments=None):
        self.seq += 1
        msg = self.kc.session.msg(
            "debug_request",
            {"type": "request", "seq": self.seq, "command": command, "arguments": arguments or {}},
        )
        self.kc.control_channel.send(msg)
        deadline = time.monotonic() + TIMEOUT
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no debug_reply to {command} within {TIMEOUT}s"
            try:
                reply = run_sync(self.kc.control_channel.get_msg)(timeout=left)
            except queue.Empty:
                continue
            if reply["parent_header"].get("msg_id") == msg["header"]["msg_id"]:
                break
        assert reply["msg_type"] == "debug_reply"
        c = reply["content"]
        assert c["type"] == "response" and c["request_seq"] == self.seq and c["command"] == command, c
        return c

    def ok(self, command, arguments=None):
        c = self.request(command, arguments)
        assert c["success"], c
        return c.get("body", {})

    def event(self, name):
        """Waits for the debug_event named name and returns its body."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no {name} debug_event within {TIMEOUT}s"
            try:
                msg = self.kc.get_iopub_msg(timeout=left)
            except queue.Empty:
                continue
            self.iopub.append(msg)
            if msg["msg_type"] == "debug_event" and msg["content"]["event"] == name:
                return msg["content"]["body"]

    def stack(self):
        frames = self.ok("stackTrace", {"threadId": 1})["stackFrames"]
        return frames, [f"{f['name']}:{f['line']}" for f in frames]

    def variables(self, frame_id, scope):
        for s in self.ok("scopes", {"frameId": frame_id})["scopes"]:
            if s["name"] == scope:
                vs = self.ok("variables", {"variablesReference": s["variablesReference"]})["variables"]
                return {v["name"]: v for v in vs}
        raise AssertionError(f"no scope {scope}")


def cell_path(info, code):
    return info["tmpFilePrefix"] + str(murmur2_x86(code, info["hashSeed"])) + info["tmpFileSuffix"]


@pytest.fixture
def kc():
    km, kc = start_kernel()
    yield kc
    stop_kernel(km, kc)


def test_announced(kc):
    spec = KernelSpecManager().get_kernel_spec(KERNEL_NAME)
    assert spec.metadata.get("debugger") is True
    msg_id = kc.kernel_info()
    reply = kc.get_shell_msg(timeout=TIMEOUT)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kc.get_shell_msg(timeout=TIMEOUT)
    assert reply["content"]["debugger"] is True
    assert "debugger" in reply["content"]["supported_features"]


@pytest.mark.skipif(murmur2_x86 is None, reason="ipykernel's murmur2 is the reference")
def test_breakpoint_step_continue(kc):
    cell1 = "func f(a int) int {\n\tb := a * 2\n\treturn b + 1\n}"
    reply, _ = execute(kc, cell1)
    assert reply["content"]["status"] == "ok"

    dap = DAP(kc)
    assert dap.ok("initialize", {"clientID": "test", "adapterID": "", "pathFormat": "path", "linesStartAt1": True, "columnsStartAt1": True})["supportsConfigurationDoneRequest"]
    dap.ok("attach")
    info = dap.ok("debugInfo")
    assert info["hashMethod"] == "Murmur2" and info["isStarted"] and info["tmpFileSuffix"] == ".go"
    path1 = dap.ok("dumpCell", {"code": cell1})["sourcePath"]
    assert path1 == cell_path(info, cell1)
    bps = dap.ok("setBreakpoints", {"source": {"path": path1}, "breakpoints": [{"line": 3}], "sourceModified": False})["breakpoints"]
    assert bps[0]["verified"] and bps[0]["line"] == 3 and bps[0]["source"]["path"] == path1
    assert path1 in [b["source"] for b in dap.ok("debugInfo")["breakpoints"]]
    dap.ok("setExceptionBreakpoints", {"filters": []})
    dap.ok("configurationDone")

    cell2 = "x := 10\ny := f(x)\nfmt.Println(y)"
    path2 = cell_path(info, cell2)
    msg_id = kc.execute(cell2)
    stop = dap.event("stopped")
    assert stop["reason"] == "breakpoint" and stop["threadId"] == 1
    assert any(t["id"] == 1 for t in dap.ok("threads")["threads"])
    frames, names = dap.stack()
    assert names[:2] == ["f:3", "<cell>:2"], names
    assert frames[0]["source"]["path"] == path1 and frames[1]["source"]["path"] == path2
    assert dap.ok("source", {"source": {"path": path1}})["content"] == cell1
    local = dap.variables(frames[0]["id"], "Locals")
    assert local["a"]["value"] == "10" and local["b"]["value"] == "20" and local["a"]["type"] == "int"
    assert dap.variables(frames[0]["id"], "Globals")["x"]["value"] == "10"
    assert dap.ok("evaluate", {"expression": "b", "frameId": frames[0]["id"], "context": "watch"})["result"] == "20"
    refused = dap.request("evaluate", {"expression": "b * 2", "frameId": frames[0]["id"], "context": "repl"})
    assert not refused["success"] and "cannot evaluate" in refused["message"]

    dap.ok("next", {"threadId": 1})
    dap.event("stopped")
    assert dap.stack()[1][0] == "<cell>:2"
    dap.ok("next", {"threadId": 1})
    assert dap.event("stopped")["reason"] == "step"
    frames, names = dap.stack()
    assert names[0] == "<cell>:3"
    assert dap.variables(frames[0]["id"], "Globals")["y"]["value"] == "21"
    dap.ok("continue", {"threadId": 1})

    deadline = time.monotonic() + TIMEOUT
    while not any(m["msg_type"] == "status" and m["content"]["execution_state"] == "idle" and m["parent_header"].get("msg_id") == msg_id for m in dap.iopub):
        assert time.monotonic() < deadline, "the cell did not end"
        try:
            dap.iopub.append(kc.get_iopub_msg(timeout=1))
        except queue.Empty:
            pass
    ours = [m for m in dap.iopub if m["parent_header"].get("msg_id") == msg_id]
    assert stream_text(ours) == "21\n"

    # A tensor: its shape, dtype and device in the panel, its table as the rich view.
    reply, _ = execute(kc, "t := tensor.Ones(2, 3)")
    assert reply["content"]["status"] == "ok"
    listed = {v["name"]: v for v in dap.ok("inspectVariables")["variables"]}
    assert listed["t"]["value"].startswith("[2 3] float32 cpu"), listed["t"]
    rich = dap.ok("richInspectVariables", {"variableName": "t"})
    assert "<table" in rich["data"]["text/html"] and rich["data"]["text/html"].count("<tr") >= 2

    dap.ok("disconnect", {"restart": False, "terminateDebuggee": True})
    assert not dap.ok("debugInfo")["isStarted"]
    # After the debug session the next cell runs as before, without stopping.
    reply, msgs = execute(kc, "fmt.Println(f(1))")
    assert reply["content"]["status"] == "ok" and stream_text(msgs) == "3\n"
    assert not [m for m in msgs if m["msg_type"] == "debug_event"]


def test_panic_stops_with_exception_breakpoint(kc):
    dap = DAP(kc)
    dap.ok("initialize", {"clientID": "test", "adapterID": "", "pathFormat": "path", "linesStartAt1": True, "columnsStartAt1": True})
    dap.ok("attach")
    filters = [f["filter"] for f in dap.ok("initialize")["exceptionBreakpointFilters"]]
    dap.ok("setExceptionBreakpoints", {"filters": filters})
    dap.ok("configurationDone")
    cell = "var a []int\ni := 3\nfmt.Println(a[i])"
    msg_id = kc.execute(cell)
    stop = dap.event("stopped")
    assert stop["reason"] == "exception" and "index out of range" in stop["text"], stop
    frames, names = dap.stack()
    assert names[0] == "<cell>:3" and frames[0]["source"]["path"] == cell_path(dap.ok("debugInfo"), cell), names
    assert dap.ok("debugInfo")["stoppedThreads"] == [1]
    dap.ok("continue", {"threadId": 1})
    reply = kc.get_shell_msg(timeout=TIMEOUT)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kc.get_shell_msg(timeout=TIMEOUT)
    assert reply["content"]["status"] == "error" and "index out of range" in reply["content"]["evalue"]
    dap.ok("disconnect")
