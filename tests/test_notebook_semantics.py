"""Issue 4 through the real kernel: notebook semantics on yaegi.

Interrupts of native tensor work and sleeps, typed tensor errors, rich
display of a cell's own types, %who with tensor details, completion and
inspection of a tensor variable's methods, and memory that stays bounded
when a cell making a large tensor runs many times.
"""

import os
import time

import pytest

from conftest import (
    drain,
    execute,
    get_reply,
    iopub_for,
    of_type,
    require_kernelspec,
    start_kernel,
    stop_kernel,
    stream_text,
)

require_kernelspec()


@pytest.fixture(scope="module")
def kernel():
    km, kc = start_kernel()
    yield km, kc
    stop_kernel(km, kc)


@pytest.fixture
def kc(kernel):
    drain(kernel[1])
    return kernel[1]


@pytest.fixture
def km(kernel):
    return kernel[0]


def ok(kc, code, timeout=30):
    reply, msgs = execute(kc, code, timeout=timeout)
    assert reply["content"]["status"] == "ok", reply["content"]
    return msgs


def result(msgs):
    results = of_type(msgs, "execute_result")
    assert len(results) == 1, [m["msg_type"] for m in msgs]
    return results[0]["content"]["data"]


def interrupt(kc):
    msg = kc.session.msg("interrupt_request", {})
    kc.control_channel.send(msg)
    assert get_reply(kc.control_channel, msg["header"]["msg_id"], timeout=5)["content"]["status"] == "ok"


@pytest.mark.parametrize(
    "code",
    [
        "for { big = big.Exp().Log() }",  # native ops in an interpreted loop
        "tensor.NoGrad(func() { for { small.MatMul(small) } })",
        'import "time"\ntime.Sleep(time.Hour)',  # a sleep wakes up
    ],
)
def test_interrupt_native_work(kc, code):
    ok(kc, "big := tensor.Rand(1000, 1000)\nsmall := tensor.Rand(200, 200)\ntwice := func(x int) int { return 2 * x }")
    msg_id = kc.execute(code)
    time.sleep(0.5)
    interrupt(kc)
    reply = get_reply(kc.shell_channel, msg_id, timeout=10)  # a hang guard, not a speed check
    assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "Interrupted", reply["content"]
    iopub_for(kc, msg_id)
    data = result(ok(kc, "fmt.Sprint(twice(21), big.Shape(), tensor.Ones(2, 2).Sum().Item())"))
    assert data["text/plain"] == "42 [1000 1000] 4"


def test_typed_tensor_error(kc):
    reply, msgs = execute(kc, "a := tensor.Zeros(2, 3)\nb := tensor.Zeros(4, 5)\n\nc := a.MatMul(b)")
    c = reply["content"]
    assert c["status"] == "error"
    assert c["ename"] == "*tensor.ShapeError"
    assert "MatMul" in c["evalue"] and "[2 3]" in c["evalue"] and "[4 5]" in c["evalue"]
    assert not c["evalue"].startswith("*tensor"), c["evalue"]
    assert any("line 4" in line for line in c["traceback"]), c["traceback"]


def test_rich_display_of_cell_type(kc):
    ok(kc, 'type badge struct{ label string }\nfunc (b badge) HTML() string { return "<span>" + b.label + "</span>" }')
    data = result(ok(kc, 'badge{"ok"}'))
    assert data["text/html"] == "<span>ok</span>"
    assert data["text/plain"] == "{ok}"


def test_who_shows_tensors(kc):
    ok(kc, "%reset")
    ok(kc, "w := tensor.Zeros(1000, 1000)\nn := 3")
    out = stream_text(ok(kc, "%who"))
    # 1000*1000 float32s are 4,000,000 bytes: 3.8 MiB to the one decimal
    # that every size the kernel prints has (backend.ByteSize).
    size = "%.1f MiB" % (1000 * 1000 * 4 / 2**20)
    assert any(line.split()[:2] == ["w", "*tensor.Tensor"] and "[1000 1000] float32 cpu " + size in line for line in out.splitlines()), out
    assert any(line.split() == ["n", "int", "3"] for line in out.splitlines()), out


def test_complete_and_inspect_tensor_methods(kc):
    ok(kc, "x := tensor.Zeros(2, 3)")
    code = "x.MatM"
    msg_id = kc.complete(code, len(code))
    c = get_reply(kc.shell_channel, msg_id)["content"]
    assert "MatMul" in c["matches"] and c["cursor_start"] == 2 and c["cursor_end"] == len(code)
    iopub_for(kc, msg_id)
    code = "x.MatMul"
    msg_id = kc.inspect(code, len(code))
    c = get_reply(kc.shell_channel, msg_id)["content"]
    assert c["found"] and "MatMul returns the matrix product" in c["data"]["text/plain"], c
    iopub_for(kc, msg_id)


def rss(km):
    with open(f"/proc/{km.provisioner.process.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    pytest.skip("no VmRSS")


def test_memory_bounded(kc, km):
    code = "x := tensor.Zeros(1000, 1000)"  # 4 MB
    for _ in range(5):
        ok(kc, code)
    before = rss(km)
    for _ in range(100):
        ok(kc, code)
    grew = rss(km) - before
    # 100 tensors would be 400 MB.
    assert grew < 100 << 20, f"the kernel grew by {grew >> 20} MB over 100 runs"
