"""Compiled cells through the real kernel: a notebook that mixes compiled
cells (functions, methods, types, top-level loops) and interpreted ones,
declares a function again, panics in compiled code, interrupts a compiled
loop, and restarts. Expected values are what `go run` prints for the same
code."""

import threading
import time

import pytest
from jupyter_client.manager import start_new_kernel

from conftest import KERNEL_NAME, TIMEOUT, execute, require_kernelspec, stop_kernel, stream_text

require_kernelspec()

# A compiled cell builds a plugin: seconds on a busy machine.
BUILD = 180

DECLARE = """type point struct{ x, y float64 }
func (p point) norm() float64 { return math.Hypot(p.x, p.y) }
func sumsq(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += float64(i) * float64(i)
	}
	return s
}
func twice(n int) float64 { return 2 * sumsq(n) }
ps := []point{{3, 4}, {5, 12}}
fmt.Printf("%T %+v\\n", ps[0], ps)
"""


def result(msgs):
    return [m for m in msgs if m["msg_type"] == "execute_result"][0]["content"]["data"]["text/plain"]


@pytest.fixture(scope="module")
def kernel():
    km, kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=TIMEOUT)
    yield km, kc
    stop_kernel(km, kc)


def test_notebook_of_compiled_and_interpreted_cells(kernel):
    km, kc = kernel
    reply, msgs = execute(kc, DECLARE, timeout=BUILD)
    assert reply["content"]["status"] == "ok", (reply["content"], stream_text(msgs, "stderr"))
    assert stream_text(msgs) == "main.point [{x:3 y:4} {x:5 y:12}]\n"
    assert "interpreter" not in stream_text(msgs, "stderr"), stream_text(msgs, "stderr")
    # Interpreted glue reads what the compiled cell declared.
    reply, msgs = execute(kc, "len(ps)")
    assert result(msgs) == "2"
    reply, msgs = execute(kc, "twice(3)")
    assert result(msgs) == "10"
    # A compiled loop at the top level, over the interpreter's variable.
    reply, msgs = execute(kc, "k := 4", timeout=BUILD)
    reply, msgs = execute(kc, "t := 0.0\nfor _, p := range ps {\n\tt += p.norm() * float64(k)\n}\nt", timeout=BUILD)
    assert reply["content"]["status"] == "ok", reply["content"]
    assert result(msgs) == "72"
    # Declared again with the same signature: twice, compiled before, calls it.
    reply, msgs = execute(kc, "func sumsq(n int) float64 { return float64(n) }", timeout=BUILD)
    assert reply["content"]["status"] == "ok", reply["content"]
    reply, msgs = execute(kc, "twice(3)")
    assert result(msgs) == "6"


def test_panic_in_compiled_code(kernel):
    km, kc = kernel
    code = "func at(xs []int, i int) int {\n\treturn xs[i]\n}\nat([]int{1}, 3)"
    reply, msgs = execute(kc, code, timeout=BUILD)
    c = reply["content"]
    assert c["status"] == "error" and c["ename"] == "panic", c
    assert c["evalue"] == "runtime error: index out of range [3] with length 1", c
    assert any("line 2 in at" in line for line in c["traceback"]), c["traceback"]
    reply, msgs = execute(kc, "at([]int{7}, 0)")
    assert result(msgs) == "7"


def test_interrupt_compiled_loop(kernel):
    km, kc = kernel
    reply, msgs = execute(kc, "func spin() int {\n\tn := 0\n\tfor {\n\t\tn++\n\t}\n}\nfunc one() int { return 1 }", timeout=BUILD)
    assert reply["content"]["status"] == "ok", reply["content"]
    msg_id = kc.execute("spin()")
    time.sleep(1)
    km.interrupt_kernel()
    reply = kc.get_shell_msg(timeout=30)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kc.get_shell_msg(timeout=30)
    assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "Interrupted", reply["content"]
    reply, msgs = execute(kc, "one()")
    assert result(msgs) == "1"


def test_restart_runs_cached_cells(kernel):
    """After a restart the session is empty; the same cell compiled before
    comes from the cache."""
    km, kc = kernel
    km.restart_kernel(now=True)
    kc.wait_for_ready(timeout=TIMEOUT)
    reply, msgs = execute(kc, "len(ps)")
    assert reply["content"]["status"] == "error", "ps survived the restart"
    start = time.monotonic()
    reply, msgs = execute(kc, DECLARE, timeout=BUILD)
    assert reply["content"]["status"] == "ok", reply["content"]
    print(f"the cell compiled before ran again in {time.monotonic() - start:.3f} s after the restart")
    reply, msgs = execute(kc, "twice(3)")
    assert result(msgs) == "10"
