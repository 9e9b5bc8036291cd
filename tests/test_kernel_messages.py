"""Integration tests: every message type of the Jupyter protocol, sent with
Debian's jupyter_client (and, for what it would never send, raw pyzmq) to
the installed gotensor kernel.

Expected values come from the Jupyter messaging specification (version 5.3)
and from Go's own semantics, not from the kernel's output.
"""

import datetime
import hmac
import json
import os
import re
import signal
import time
import uuid

import pytest
import zmq

from conftest import (
    TIMEOUT,
    RawClient,
    drain,
    execute,
    get_reply,
    iopub_for,
    of_type,
    require_kernelspec,
    start_kernel,
    stop_kernel,
    stream_text,
    validated,
)

require_kernelspec()


@pytest.fixture(scope="module")
def kernel():
    km, kc = start_kernel()
    yield km, kc
    stop_kernel(km, kc)


@pytest.fixture
def kc(kernel):
    km, kc = kernel
    drain(kc)
    return kc


@pytest.fixture
def km(kernel):
    return kernel[0]


@pytest.fixture(scope="module")
def zctx():
    ctx = zmq.Context()
    yield ctx
    ctx.term()


@pytest.fixture
def raw(km, zctx):
    client = RawClient(zctx, km.get_connection_info())
    yield client
    client.close()


def result_text(msgs):
    """The text/plain of the only execute_result in msgs."""
    results = of_type(msgs, "execute_result")
    assert len(results) == 1, f"want one execute_result, got {[m['msg_type'] for m in msgs]}"
    return results[0]["content"]["data"]["text/plain"]


def assert_alive(kc, timeout=5):
    """The kernel still answers a good request, and still runs Go."""
    msg_id = kc.kernel_info()
    reply = get_reply(kc.shell_channel, msg_id, timeout)
    assert reply["content"]["status"] == "ok"
    iopub_for(kc, msg_id, timeout)
    reply, msgs = execute(kc, "20+22", timeout=timeout)
    assert reply["content"]["status"] == "ok"
    assert result_text(msgs) == "42"


def kernel_pid(km):
    return km.provisioner.process.pid


# kernel_info -----------------------------------------------------------------


def test_kernel_info(kc):
    msg_id = kc.kernel_info()
    reply = get_reply(kc.shell_channel, msg_id)
    c = reply["content"]
    assert c["status"] == "ok"
    major, minor = (int(x) for x in c["protocol_version"].split(".")[:2])
    assert (major, minor) >= (5, 3), c["protocol_version"]
    assert c["implementation"] == "gotensor"
    assert c["implementation_version"]
    assert c["banner"]
    li = c["language_info"]
    assert li["name"] == "go"
    assert li["version"]
    assert li["mimetype"] == "text/x-go"
    assert li["file_extension"] == ".go"
    assert li["pygments_lexer"] == "go"
    assert li["codemirror_mode"] == "go"
    assert c["help_links"], "help_links is empty"
    for link in c["help_links"]:
        assert link["text"] and link["url"].startswith("http"), link
    states = [m["content"]["execution_state"] for m in iopub_for(kc, msg_id) if m["msg_type"] == "status"]
    assert states == ["busy", "idle"]


def test_kernel_info_on_control_replies_on_control(kc):
    msg = kc.session.msg("kernel_info_request", {})
    kc.control_channel.send(msg)
    reply = get_reply(kc.control_channel, msg["header"]["msg_id"])
    assert reply["msg_type"] == "kernel_info_reply"
    assert reply["content"]["language_info"]["name"] == "go"


@pytest.mark.parametrize(
    "send",
    [
        pytest.param(lambda kc: kc.kernel_info(), id="kernel_info"),
        pytest.param(lambda kc: kc.complete("fmt.Pr"), id="complete"),
        pytest.param(lambda kc: kc.inspect("fmt.Println"), id="inspect"),
        pytest.param(lambda kc: kc.is_complete("x := 1"), id="is_complete"),
        pytest.param(lambda kc: kc.history(hist_access_type="tail", n=1), id="history"),
        pytest.param(lambda kc: kc.comm_info(), id="comm_info"),
        pytest.param(lambda kc: kc.execute("1"), id="execute"),
    ],
)
def test_busy_idle_around_every_request(kc, send):
    msg_id = send(kc)
    reply = get_reply(kc.shell_channel, msg_id)
    assert reply["parent_header"]["msg_id"] == msg_id
    msgs = iopub_for(kc, msg_id)
    assert msgs[0]["msg_type"] == "status" and msgs[0]["content"]["execution_state"] == "busy"
    assert msgs[-1]["msg_type"] == "status" and msgs[-1]["content"]["execution_state"] == "idle"


# execute_request ---------------------------------------------------------------


def test_execution_count_and_execute_input(kc):
    code = 'fmt.Println("count me")'
    first, msgs = execute(kc, code)
    n = first["content"]["execution_count"]
    inputs = of_type(msgs, "execute_input")
    assert len(inputs) == 1
    assert inputs[0]["content"] == {"code": code, "execution_count": n}
    second, _ = execute(kc, code)
    assert second["content"]["execution_count"] == n + 1


def test_silent_and_no_history_do_not_count(kc):
    first, _ = execute(kc, "silentVar := 5")
    n = first["content"]["execution_count"]
    reply, msgs = execute(kc, 'silentVar++\nfmt.Println("quiet")\nsilentVar', silent=True)
    assert reply["content"]["status"] == "ok"
    # Silent: nothing but status on iopub (messaging spec, execute_request).
    assert [m["msg_type"] for m in msgs] == ["status", "status"]
    reply, _ = execute(kc, "silentVar++", store_history=False)
    assert reply["content"]["status"] == "ok"
    reply, msgs = execute(kc, "silentVar")
    assert reply["content"]["execution_count"] == n + 1
    assert result_text(msgs) == "7"


def test_stdout_and_stderr_streams(kc):
    code = 'import "os"\n\nfmt.Print("a")\nfmt.Println("b")\nfmt.Fprintln(os.Stderr, "oops")\nfmt.Printf("%d-%s\\n", 7, "x")'
    reply, msgs = execute(kc, code)
    assert reply["content"]["status"] == "ok"
    assert stream_text(msgs, "stdout") == "ab\n7-x\n"
    assert stream_text(msgs, "stderr") == "oops\n"


def test_compiled_code_writes_to_os_stdout_are_captured(kc):
    reply, msgs = execute(kc, 'import "os"\n\nos.Stdout.WriteString("direct out\\n")\nos.Stderr.WriteString("direct err\\n")')
    assert reply["content"]["status"] == "ok"
    assert "direct out\n" in stream_text(msgs, "stdout")
    assert "direct err\n" in stream_text(msgs, "stderr")


def test_output_streams_while_cell_runs(kc):
    code = 'import "time"\n\nfmt.Println("first")\ntime.Sleep(1500 * time.Millisecond)\nfmt.Println("second")'
    msg_id = kc.execute(code)
    seen = {}
    deadline = time.monotonic() + TIMEOUT
    while "second" not in seen and time.monotonic() < deadline:
        msg = kc.get_iopub_msg(timeout=TIMEOUT)
        if msg["parent_header"].get("msg_id") != msg_id or msg["msg_type"] != "stream":
            continue
        for word in ("first", "second"):
            if word in msg["content"]["text"]:
                seen.setdefault(word, time.monotonic())
    assert set(seen) == {"first", "second"}
    assert seen["second"] - seen["first"] > 1.0, "stdout was not streamed while the cell ran"
    assert get_reply(kc.shell_channel, msg_id)["content"]["status"] == "ok"


def test_execute_result_and_state_across_cells(kc):
    reply, msgs = execute(kc, "1+1")
    assert result_text(msgs) == "2"
    result = of_type(msgs, "execute_result")[0]
    assert result["content"]["execution_count"] == reply["content"]["execution_count"]

    execute(kc, "stateX := 20")
    execute(kc, "func addTo(n int) int { return stateX + n }")
    _, msgs = execute(kc, "addTo(22)")
    assert result_text(msgs) == "42"


def test_statement_has_no_execute_result(kc):
    reply, msgs = execute(kc, "noResult := 3\n_ = noResult")
    assert reply["content"]["status"] == "ok"
    assert of_type(msgs, "execute_result") == []


def test_display_data(kc):
    reply, msgs = execute(kc, 'display.HTML("<b>bold</b>")\ndisplay.Markdown("# title")')
    assert reply["content"]["status"] == "ok"
    shown = [m["content"]["data"] for m in of_type(msgs, "display_data")]
    assert len(shown) == 2, shown
    assert shown[0]["text/html"] == "<b>bold</b>"
    assert shown[1]["text/markdown"] == "# title"


def test_clear_output(kc):
    reply, msgs = execute(kc, 'fmt.Println("gone")\ndisplay.ClearOutput(true)')
    assert reply["content"]["status"] == "ok"
    clears = of_type(msgs, "clear_output")
    assert [c["content"]["wait"] for c in clears] == [True]


def check_error(reply, msgs, *needles):
    assert reply["content"]["status"] == "error"
    errors = of_type(msgs, "error")
    assert len(errors) == 1, [m["msg_type"] for m in msgs]
    e = errors[0]["content"]
    assert e["ename"] == reply["content"]["ename"] and e["evalue"] == reply["content"]["evalue"]
    assert e["traceback"] and all(isinstance(line, str) for line in e["traceback"])
    text = e["evalue"] + "\n" + "\n".join(e["traceback"])
    for needle in needles:
        assert needle in text, f"{needle!r} not in error:\n{text}"
    return text


def test_error_panic(kc):
    reply, msgs = execute(kc, 'panic("boom-42")')
    check_error(reply, msgs, "boom-42")
    assert_alive(kc)


def test_error_runtime_panic(kc):
    # The Go runtime's own message for a write to a nil map.
    reply, msgs = execute(kc, 'var nilMap map[string]int\nnilMap["a"] = 1')
    check_error(reply, msgs, "assignment to entry in nil map")
    assert_alive(kc)


def test_error_compile(kc):
    reply, msgs = execute(kc, "ok := 1\n_ = ok\nundefinedName123 + 1")
    text = check_error(reply, msgs, "undefinedName123")
    assert re.search(r"line 3\b|:3:", text), f"error does not point at cell line 3:\n{text}"
    assert_alive(kc)


def test_stop_on_error_aborts_queued_cells(kc):
    failing = kc.execute('import "time"\n\ntime.Sleep(500 * time.Millisecond)\npanic("first fails")')
    queued = kc.execute('fmt.Println("must not run")')
    assert get_reply(kc.shell_channel, failing)["content"]["status"] == "error"
    reply = get_reply(kc.shell_channel, queued)
    assert reply["content"]["status"] == "aborted"
    assert "must not run" not in stream_text(iopub_for(kc, queued))
    # The queue runs again once the aborted requests are answered.
    reply, msgs = execute(kc, 'fmt.Println("runs again")')
    assert reply["content"]["status"] == "ok"
    assert stream_text(msgs) == "runs again\n"


def test_no_stop_on_error_runs_queued_cells(kc):
    failing = kc.execute('import "time"\n\ntime.Sleep(300 * time.Millisecond)\npanic("first fails")', stop_on_error=False)
    queued = kc.execute('fmt.Println("still runs")')
    assert get_reply(kc.shell_channel, failing)["content"]["status"] == "error"
    assert get_reply(kc.shell_channel, queued)["content"]["status"] == "ok"
    assert stream_text(iopub_for(kc, queued)) == "still runs\n"


# interrupts ---------------------------------------------------------------------


def interrupt_loop(kc, interrupt, fn):
    """Runs an endless loop, checks control and heartbeat answer while it
    runs, interrupts it with interrupt(), and checks the session survives:
    the closure fn, defined before, still works."""
    execute(kc, fn + " := func(x int) int { return x * 10 }")
    msg_id = kc.execute("for {\n}")
    time.sleep(0.5)

    info = kc.session.msg("kernel_info_request", {})
    kc.control_channel.send(info)
    get_reply(kc.control_channel, info["header"]["msg_id"], timeout=5)
    assert kc.hb_channel.is_beating()

    interrupt()
    reply = get_reply(kc.shell_channel, msg_id, timeout=10)  # a hang guard, not a speed check
    assert reply["content"]["status"] == "error"
    assert len(of_type(iopub_for(kc, msg_id), "error")) == 1

    # Closures defined before the interrupt still work (docs/design.md: yaegi's
    # own cancellation breaks them).
    reply, msgs = execute(kc, fn + "(3)")
    assert reply["content"]["status"] == "ok"
    assert result_text(msgs) == "30"


def test_interrupt_request(kc):
    def interrupt():
        msg = kc.session.msg("interrupt_request", {})
        kc.control_channel.send(msg)
        reply = get_reply(kc.control_channel, msg["header"]["msg_id"], timeout=5)
        assert reply["content"]["status"] == "ok"

    interrupt_loop(kc, interrupt, "tenfoldA")


def test_sigint_interrupts(kc, km):
    interrupt_loop(kc, lambda: os.kill(kernel_pid(km), signal.SIGINT), "tenfoldB")


def test_interrupt_when_idle_is_harmless(kc):
    msg = kc.session.msg("interrupt_request", {})
    kc.control_channel.send(msg)
    assert get_reply(kc.control_channel, msg["header"]["msg_id"])["content"]["status"] == "ok"
    assert_alive(kc)


# stdin ------------------------------------------------------------------------


def test_input_request_round_trip(kc):
    msg_id = kc.execute('var name string\nfmt.Scanln(&name)\nfmt.Println("hello,", name)', allow_stdin=True)
    req = validated(kc.get_stdin_msg(timeout=TIMEOUT))
    assert req["msg_type"] == "input_request"
    assert req["parent_header"]["msg_id"] == msg_id
    assert isinstance(req["content"]["prompt"], str) and req["content"]["password"] is False
    kc.input("gopher")
    assert get_reply(kc.shell_channel, msg_id)["content"]["status"] == "ok"
    assert stream_text(iopub_for(kc, msg_id)) == "hello, gopher\n"


def test_input_without_stdin_fails_fast(kc):
    reply, msgs = execute(kc, 'var s string\n_, err := fmt.Scanln(&s)\nfmt.Println(err != nil)', allow_stdin=False, timeout=5)
    assert reply["content"]["status"] == "ok"
    assert stream_text(msgs) == "true\n"


# comms --------------------------------------------------------------------------


def test_comm_info(kc):
    msg_id = kc.comm_info()
    reply = get_reply(kc.shell_channel, msg_id)
    assert reply["content"] == {"status": "ok", "comms": {}}
    msg_id = kc.comm_info(target_name="jupyter.widget")
    assert get_reply(kc.shell_channel, msg_id)["content"]["comms"] == {}


def test_comm_open_unknown_target_is_closed(kc):
    comm_id = uuid.uuid4().hex
    msg = kc.session.msg("comm_open", {"comm_id": comm_id, "target_name": "gotensor.no_such_target", "data": {}})
    kc.shell_channel.send(msg)
    msgs = iopub_for(kc, msg["header"]["msg_id"])
    closes = of_type(msgs, "comm_close")
    assert [c["content"]["comm_id"] for c in closes] == [comm_id]
    for msg_type, content in [
        ("comm_msg", {"comm_id": comm_id, "data": {"x": 1}}),
        ("comm_close", {"comm_id": comm_id, "data": {}}),
    ]:
        msg = kc.session.msg(msg_type, content)
        kc.shell_channel.send(msg)
    assert_alive(kc)


# history --------------------------------------------------------------------------


def history(kc, **kwargs):
    msg_id = kc.history(raw=True, **kwargs)
    reply = get_reply(kc.shell_channel, msg_id)
    assert reply["content"]["status"] == "ok"
    return reply["content"]["history"]


def test_history_tail_and_search(kc):
    codes = ["histmark_a := 101", "histmark_b := 202", "histmark_a + histmark_b"]
    counts = [execute(kc, c)[0]["content"]["execution_count"] for c in codes]

    tail = history(kc, hist_access_type="tail", n=3, output=False)
    assert [h[2] for h in tail] == codes
    assert [h[1] for h in tail] == counts
    assert len({h[0] for h in tail}) == 1

    tail = history(kc, hist_access_type="tail", n=1, output=True)
    assert tail[0][2][0] == codes[2]
    assert tail[0][2][1] == "303"

    found = history(kc, hist_access_type="search", pattern="histmark_? := *", output=False)
    assert [h[2] for h in found] == codes[:2]

    execute(kc, codes[2])
    found = history(kc, hist_access_type="search", pattern="histmark_a + *", output=False)
    assert [h[2] for h in found] == [codes[2], codes[2]]
    found = history(kc, hist_access_type="search", pattern="histmark_a + *", output=False, unique=True)
    assert [h[2] for h in found] == [codes[2]]
    found = history(kc, hist_access_type="search", pattern="histmark_*", output=False, n=3)
    assert [h[2] for h in found] == [codes[1], codes[2], codes[2]]


# is_complete, inspect, complete -------------------------------------------------------


@pytest.mark.parametrize(
    "code,status",
    [
        ('fmt.Println("x")', "complete"),
        ("func f() int {\n\treturn 1\n}", "complete"),
        ("func f() int {", "incomplete"),
        ("if true {\n\tfmt.Println(1)", "incomplete"),
        ('fmt.Println("a",', "incomplete"),
        ("x := )", "invalid"),
        ("}", "invalid"),
    ],
)
def test_is_complete(kc, code, status):
    msg_id = kc.is_complete(code)
    c = get_reply(kc.shell_channel, msg_id)["content"]
    assert c["status"] == status
    if status == "incomplete":
        assert c["indent"].strip(" \t") == ""


@pytest.mark.parametrize(
    "code,cursor",
    [("fmt.Println", None), ("fmt.Println(1)", 6), ("x := math.Sqrt(2)", 12)],
)
def test_inspect_found(kc, code, cursor):
    msg_id = kc.inspect(code, cursor_pos=len(code) if cursor is None else cursor)
    c = get_reply(kc.shell_channel, msg_id)["content"]
    assert c["status"] == "ok" and c["found"] is True
    name = "Sqrt" if "Sqrt" in code else "Println"
    assert name in c["data"]["text/plain"]


def test_inspect_user_variable_and_unknown(kc):
    execute(kc, "inspectMe := 42")
    c = get_reply(kc.shell_channel, kc.inspect("inspectMe"))["content"]
    assert c["status"] == "ok" and c["found"] is True
    c = get_reply(kc.shell_channel, kc.inspect("zzzNotDefinedAnywhere"))["content"]
    assert c["status"] == "ok" and c["found"] is False


def applied_completions(kc, code, cursor=None):
    """The texts the front end would show after accepting each match."""
    cursor = len(code) if cursor is None else cursor
    c = get_reply(kc.shell_channel, kc.complete(code, cursor))["content"]
    assert c["status"] == "ok"
    assert 0 <= c["cursor_start"] <= c["cursor_end"] <= len(code)
    return {code[: c["cursor_start"]] + m + code[c["cursor_end"] :] for m in c["matches"]}


def test_complete_package_member(kc):
    got = applied_completions(kc, "fmt.Prin")
    assert {"fmt.Print", "fmt.Printf", "fmt.Println"} <= got
    assert all(g.startswith("fmt.Prin") for g in got), got


def test_complete_user_variable_after_unicode(kc):
    execute(kc, "completeMeVariable := 1")
    code = 'é := "ü"\n_ = é\ncompleteMeV'  # the cursor counts code points
    assert code + "ariable" in applied_completions(kc, code)


# wire-level robustness -------------------------------------------------------------


def test_reply_headers_identities_and_signature(raw):
    hdr = raw.send("kernel_info_request", ids=[b"route-a", b"route-b"])
    got = raw.recv()
    assert got is not None, "no kernel_info_reply"
    ids, sig, (header, parent, metadata, content), parts = got
    assert ids == [b"route-a", b"route-b"], "identities not echoed in order"
    assert hmac.compare_digest(sig, raw.sign(*parts)), "bad reply signature"
    assert parent == hdr
    assert header["msg_type"] == "kernel_info_reply"
    assert header["version"].startswith("5.")
    for field in ("msg_id", "session", "username"):
        assert isinstance(header[field], str) and header[field], field
    date = datetime.datetime.fromisoformat(header["date"].replace("Z", "+00:00"))
    assert date.tzinfo is not None, "date has no time zone"
    assert abs((datetime.datetime.now(datetime.timezone.utc) - date).total_seconds()) < 60
    assert content["status"] == "ok"


def no_reply(raw, kc, marker, wait=1.0):
    """Asserts that nothing comes back on raw and no output with marker
    appears on iopub for wait seconds."""
    assert raw.recv(timeout=wait) is None, "the kernel answered a message it should have dropped"
    deadline = time.monotonic() + 0.3
    while time.monotonic() < deadline:
        try:
            msg = kc.get_iopub_msg(timeout=0.1)
        except Exception:
            continue
        assert marker not in str(msg["content"]), f"dropped message ran: {msg}"


@pytest.mark.parametrize("sig", [b"0" * 64, b"", b"not-hex", None], ids=["wrong", "empty", "garbage", "other-key"])
def test_bad_signature_is_dropped(raw, kc, sig):
    frames, _ = raw.frames("execute_request", {"code": 'fmt.Println("pwned-by-signature")', "silent": False})
    i = frames.index(RawClient.DELIM)
    if sig is None:
        sig = hmac.new(b"some other key", b"".join(frames[i + 2 :]), "sha256").hexdigest().encode()
    frames[i + 1] = sig
    raw.send_frames(frames)
    no_reply(raw, kc, "pwned-by-signature")
    assert_alive(kc)


def signed(raw, *parts):
    return [RawClient.DELIM, raw.sign(*parts), *parts]


def test_malformed_messages_do_not_kill_the_kernel(raw, kc):
    hdr = raw.header("execute_request")
    good_hdr = json.dumps(hdr).encode()
    bad = [
        signed(raw, b"{not json", b"{}", b"{}", b"{}"),
        signed(raw, good_hdr, b"{}", b"{}", b'{"code": '),
        signed(raw, good_hdr, b"{}", b"{}", b"[1, 2]"),
        signed(raw, good_hdr, b"{}", b"{}", b'{"code": 5}'),
        signed(raw, b'{"msg_id": "x"}', b"{}", b"{}", b"{}"),
        signed(raw, b"[]", b"{}", b"{}", b"{}"),
        signed(raw, b"null", b"null", b"null", b"null"),
        signed(raw, good_hdr, b"{}"),
        signed(raw, good_hdr),
        [RawClient.DELIM],
        [RawClient.DELIM, raw.sign()],
        [b"no delimiter at all"],
        [b""],
        [b"\xff\xfe\x00", RawClient.DELIM, b"\xff" * 64, b"\xff", b"\x00", b"", b"\x80"],
    ]
    for frames in bad:
        raw.send_frames(frames)
    assert_alive(kc)
    # A request on control with a bad signature is dropped too.
    ctl = RawClient(raw.sock.context, kc.get_connection_info(), "control")
    try:
        frames, _ = ctl.frames("shutdown_request", {"restart": False})
        frames[frames.index(RawClient.DELIM) + 1] = b"0" * 64
        ctl.send_frames(frames)
        assert ctl.recv(timeout=1) is None
    finally:
        ctl.close()
    assert_alive(kc)


def test_unknown_message_type_is_not_fatal(raw, kc):
    raw.send("gotensor_no_such_request", {"x": 1})
    raw.send("execute_request", {"code": "1", "silent": False, "store_history": False, "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
    got = raw.recv()
    assert got is not None
    while got is not None and got[2][0]["msg_type"] != "execute_reply":
        got = raw.recv()
    assert got is not None and got[2][3]["status"] == "ok"
    assert_alive(kc)


def test_flood_of_kernel_info_requests(raw, kc):
    sent = {raw.send("kernel_info_request")["msg_id"] for _ in range(200)}
    answered = set()
    deadline = time.monotonic() + 30
    while answered != sent and time.monotonic() < deadline:
        got = raw.recv(timeout=max(0.1, deadline - time.monotonic()))
        if got is None:
            break
        answered.add(got[2][1].get("msg_id"))
    assert answered == sent, f"{len(sent - answered)} of 200 requests unanswered"
    assert_alive(kc)


def test_heartbeat_echoes(km, zctx):
    info = km.get_connection_info()
    sock = zctx.socket(zmq.REQ)
    sock.linger = 0
    sock.connect(f"{info['transport']}://{info['ip']}:{info['hb_port']}")
    try:
        for payload in (b"ping", b"\x00\x01binary\xff", b"x" * 10000):
            sock.send(payload)
            assert sock.poll(5000), "no heartbeat echo"
            assert sock.recv() == payload
    finally:
        sock.close()


def listening_sockets(pid):
    """The (ip, port) of the TCP sockets that process pid listens on, from
    /proc (Linux)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            m = re.match(r"socket:\[(\d+)\]", os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            continue
        if m:
            inodes.add(m.group(1))
    found = set()
    for table, width in (("/proc/net/tcp", 4), ("/proc/net/tcp6", 16)):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            if f[3] != "0A" or f[9] not in inodes:  # 0A: LISTEN
                continue
            addr, port = f[1].split(":")
            raw = bytes.fromhex(addr)
            if width == 4:
                ip = ".".join(str(b) for b in reversed(raw))
            else:
                words = [raw[i : i + 4][::-1] for i in range(0, 16, 4)]
                ip = ":".join(b"".join(words).hex()[i : i + 4] for i in range(0, 32, 4))
            found.add((ip, int(port, 16)))
    return found


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs Linux /proc")
def test_listens_only_on_connection_file_address(km):
    info = km.get_connection_info()
    want = {(info["ip"], info[p]) for p in ("shell_port", "control_port", "stdin_port", "iopub_port", "hb_port")}
    got = listening_sockets(kernel_pid(km))
    assert got == want


# shutdown -----------------------------------------------------------------------------


@pytest.mark.parametrize("restart", [False, True])
def test_shutdown(restart):
    km, kc = start_kernel()
    try:
        msg_id = kc.shutdown(restart=restart)
        reply = get_reply(kc.control_channel, msg_id)
        assert reply["content"] == {"status": "ok", "restart": restart}
        proc = km.provisioner.process
        assert proc.wait(timeout=10) == 0, "the kernel did not exit cleanly"
    finally:
        stop_kernel(km, kc)
