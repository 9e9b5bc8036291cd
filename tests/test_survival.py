"""Issue 15 through the real kernel: nothing a cell does kills the session,
and what still ends the process (a Go runtime fatal error) is written to
the kernel's log first.
"""

import os
import tempfile
import time

import pytest
from jupyter_client.manager import start_new_kernel

from conftest import KERNEL_NAME, TIMEOUT, drain, execute, require_kernelspec, stop_kernel, stream_text

require_kernelspec()


def test_fatal_error_is_logged():
    """concurrent map writes is a Go runtime fatal error: no recover can
    catch it and the process ends. The kernel has the runtime write the
    reason and the goroutines' stacks to its log (the stderr Jupyter gave
    it), not only to fd 2, which points at the notebook's output."""
    with tempfile.TemporaryFile("w+") as log:
        km, kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=TIMEOUT, stderr=log)
        try:
            reply, _ = execute(kc, "keep := 42\nkeep")
            assert reply["content"]["status"] == "ok", reply["content"]
            code = (
                'import "time"\n'
                "m := map[int]int{}\n"
                "for g := 0; g < 4; g++ {\n"
                "\tgo func() { for i := 0; ; i++ { m[i%64] = i } }()\n"
                "}\n"
                "time.Sleep(10 * time.Second)\n"
            )
            kc.execute(code)
            deadline = time.monotonic() + 30
            while km.is_alive() and time.monotonic() < deadline:
                time.sleep(0.2)
            assert not km.is_alive(), "the kernel survived concurrent map writes (the test expects the Go runtime to end it)"
            log.seek(0)
            text = log.read()
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
    assert "fatal error: concurrent map writes" in text, text[:3000]
    assert "goroutine " in text, text[:3000]


@pytest.fixture(scope="module", params=["interpreted", "compiled"])
def kernel(request):
    """A kernel whose session holds a variable, a tensor on the emulated
    GPU, a type with a method and a function that recurses for ever,
    recording in reached how many nested calls of it were entered: once
    with every cell interpreted ($GOTENSOR_COMPILE=0), once with the
    cells that declare compiled (the default where Go is installed)."""
    env = dict(os.environ, GOTENSOR_COMPILE="0" if request.param == "interpreted" else "1")
    km, kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=TIMEOUT, env=env)
    reply, msgs = execute(kc, SETUP, timeout=180)
    assert reply["content"]["status"] == "ok", reply["content"]
    if request.param == "compiled":
        assert "interpreter" not in stream_text(msgs, "stderr"), stream_text(msgs, "stderr")
    km.mode = request.param
    yield km, kc
    stop_kernel(km, kc)


SETUP = """import ("os"; "log"; "runtime"; "time")
cuda.UseEmulator(cuda.EmulatorConfig{Memory: 64 << 20})
keep := tensor.Ones(2, 2)
g := tensor.Ones(2, 2).To(tensor.CUDA(0))
type point struct{ X, Y int }
func (p point) Sum() int { return p.X + p.Y }
var reached int
var ranOn bool
func deep(n int) int { reached = n + 1; return deep(n+1) + 1 }
log.SetFlags(0)
"""

# What a following cell reads: a variable, a GPU tensor, a type with a
# method, all defined before the cell that failed.
CHECK = 'fmt.Sprint(keep.Sum().Item(), " ", g.Sum().Item(), " ", g.Device(), " ", point{1, 2}.Sum())'
CHECK_WANT = "4 4 cuda:0 3"

# A cell that a goroutine ends sets ranOn after a 30 s sleep: it never
# gets there when the goroutine's event ends the cell at once.
RAN_ON = "\nranOn = true"

# The recursion limit (interp.DefaultMaxDepth): deep's calls are refused
# past this many nested calls, and the error says so.
MAX_DEPTH = 10000
TOO_DEEP = f"runaway recursion: deep went deeper than {MAX_DEPTH} nested calls"

# Issue 15's table, each row in the cell's own code and inside a goroutine
# the cell starts: (code, ename, substrings of evalue, substring of stderr).
ROWS = [
    ('fmt.Println("before")\nos.Exit(3)', "Exit", ["exit status 3"], ""),
    ("go os.Exit(3)\ntime.Sleep(30 * time.Second)" + RAN_ON, "Exit", ["exit status 3"], ""),
    ('log.Fatal("boom")', "Exit", ["exit status 1"], "boom"),
    ('go log.Fatal("boom")\ntime.Sleep(30 * time.Second)' + RAN_ON, "Exit", ["exit status 1"], "boom"),
    ("deep(0)", "RecursionError", [TOO_DEEP], ""),
    ("go deep(0)\ntime.Sleep(30 * time.Second)" + RAN_ON, "RecursionError", [TOO_DEEP], ""),
    ("b := make([]byte, 1<<42)\nlen(b)", "panic", ["out of memory", "4.0 TiB"], ""),
    ("go func() { _ = make([]byte, 1<<42) }()\ntime.Sleep(time.Second)", None, [], "4.0 TiB"),
    ("runtime.Goexit()", "Goexit", ["runtime.Goexit"], ""),
    ("done := make(chan int)\ngo func() { defer close(done); runtime.Goexit() }()\n<-done", None, [], ""),
    ("x := tensor.Zeros(200000, 200000)\nx.Numel()", None, ["out of memory", "149.0 GiB"], ""),
]


def value(kc, expr):
    """Returns the text/plain of expr's value in the kernel's session."""
    reply, msgs = execute(kc, expr)
    assert reply["content"]["status"] == "ok", reply["content"]
    return [m for m in msgs if m["msg_type"] == "execute_result"][0]["content"]["data"]["text/plain"]


@pytest.mark.parametrize("code,ename,values,stderr", ROWS, ids=[r[0].split("\n")[0][:40] for r in ROWS])
def test_cell_ends_session_lives(kernel, code, ename, values, stderr):
    """Each row ends its cell with an error reply (or, for what Go does not
    treat as fatal in a goroutine, runs it); a goroutine's exit or runaway
    recursion ends the cell at once, so the statements after its sleep never
    run; runaway recursion stops at the limit; and a following cell reads
    what was defined before."""
    km, kc = kernel
    drain(kc)
    reply, msgs = execute(kc, code, timeout=60)
    c = reply["content"]
    if ename is None and not values:
        assert c["status"] == "ok", c
    else:
        assert c["status"] == "error", c
        if ename is not None:
            assert c["ename"] == ename, c
        for v in values:
            if v == TOO_DEEP and km.mode == "compiled":
                # Compiled code recurses until its goroutine's stack is
                # 256 MB deep, far below Go's 1 GB that ends a process.
                v = "runaway recursion: deep made its goroutine's stack deeper than 256 MB"
            assert v in c["evalue"], c
    assert stderr in stream_text(msgs, "stderr"), msgs
    assert km.is_alive()
    if RAN_ON in code:
        assert value(kc, "ranOn") == "false", f"{code!r} ran past its sleep: its goroutine did not end it"
    if ename == "RecursionError":
        got = value(kc, "reached")
        if km.mode == "compiled":
            assert int(got) > 100 * MAX_DEPTH, f"compiled deep entered only {got} nested calls"
        else:
            assert got == str(MAX_DEPTH), f"deep entered {got} nested calls, want the limit {MAX_DEPTH}"
    reply, msgs = execute(kc, CHECK)
    assert reply["content"]["status"] == "ok", reply["content"]
    data = [m for m in msgs if m["msg_type"] == "execute_result"][0]["content"]["data"]
    assert data["text/plain"] == CHECK_WANT, data


def test_output_before_exit_comes_first(kernel):
    """What a cell printed before os.Exit reaches the notebook before the
    error reply, and deferred calls do not run (as in Go)."""
    km, kc = kernel
    drain(kc)
    reply, msgs = execute(kc, 'import "os"\nfmt.Println("first")\ndefer fmt.Println("deferred")\nos.Exit(2)')
    assert reply["content"]["status"] == "error" and reply["content"]["evalue"] == "exit status 2", reply["content"]
    assert stream_text(msgs) == "first\n", msgs
    kinds = [m["msg_type"] for m in msgs]
    assert kinds.index("stream") < kinds.index("error"), kinds
