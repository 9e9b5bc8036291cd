"""Issue 15 through the real kernel: nothing a cell does kills the session,
and what still ends the process (a Go runtime fatal error) is written to
the kernel's log first.
"""

import os
import tempfile
import time

from jupyter_client.manager import start_new_kernel

from conftest import KERNEL_NAME, TIMEOUT, execute, require_kernelspec, stop_kernel

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
