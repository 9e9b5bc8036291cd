"""Checks the kernel's wire protocol with jupyter_kernel_test.

jupyter_client starts the kernel package's test binary (TestServeConnectionFile,
the fake interpreter of fake_test.go) from a temporary kernelspec, and
jupyter_kernel_test validates every message against the protocol schema.
Run from the repository root with Debian's Python:

    /usr/bin/python3 kernel/testdata/conformance.py

GOFLAGS_EXTRA adds flags to the `go test -c` build (for example an -overlay).
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import jupyter_kernel_test

tmp = tempfile.mkdtemp(prefix="gotensor-conformance-")
binary = os.path.join(tmp, "kernel.test")
subprocess.run(["go", "test", "-c", "-o", binary] + os.environ.get("GOFLAGS_EXTRA", "").split() + ["./kernel"], check=True)
spec = os.path.join(tmp, "kernels", "gotensor-fake")
os.makedirs(spec)
with open(os.path.join(spec, "kernel.json"), "w") as f:
    json.dump({
        "argv": [binary, "-test.run=^TestServeConnectionFile$", "-test.timeout=0",
                 "-connection-file", "{connection_file}"],
        "display_name": "gotensor fake",
        "language": "go",
        "interrupt_mode": "message",
    }, f)
os.environ["JUPYTER_PATH"] = tmp


class FakeKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "gotensor-fake"
    language_name = "go"
    file_extension = ".go"
    code_hello_world = "print hello, world"
    code_stderr = "eprint oops"
    completion_samples = [{"text": "fmt.Pr", "matches": {"Printf", "Println"}}]
    complete_code_samples = ["x := 1"]
    incomplete_code_samples = ["for {"]
    invalid_code_samples = ["f())"]
    code_generate_error = "fail boom"
    code_execute_result = [{"code": "value 3", "result": "3"}, {"code": "value 4", "result": "4"},
                           {"code": "value 3", "result": "3"}]
    code_display_data = [{"code": "display d1", "mime": "text/plain"}]
    code_history_pattern = "value 3"
    supported_history_operations = ("tail", "range", "search")
    code_inspect_sample = "fmt.Println"
    code_clear_output = "clear"

    def test_interrupt_and_shutdown_on_control(self):
        self.flush_channels()
        msg_id = self.kc.execute("block")
        self.kc.get_iopub_msg(timeout=5)  # busy
        msg = self.kc.session.msg("interrupt_request", {})
        self.kc.control_channel.send(msg)
        ctrl = self.kc.get_control_msg(timeout=5)
        self.assertEqual(ctrl["msg_type"], "interrupt_reply")
        jupyter_kernel_test.validate_message(ctrl, "interrupt_reply", msg["header"]["msg_id"])
        shell = self.kc.get_shell_msg(timeout=5)
        jupyter_kernel_test.validate_message(shell, "execute_reply", msg_id)
        self.assertEqual(shell["content"]["ename"], "Interrupted")

    def test_heartbeat(self):
        self.assertTrue(self.kc.hb_channel.is_beating())
        self.assertTrue(self.kc.is_alive())

    def test_stdin(self):
        self.flush_channels()
        msg_id = self.kc.execute("input name?", allow_stdin=True)
        req = self.kc.get_stdin_msg(timeout=5)
        # Not validate_message: jupyter_kernel_test 0.4.5's schema wants a
        # number for "password", where the spec and ipykernel send a bool.
        self.assertEqual(req["msg_type"], "input_request")
        self.assertEqual(req["parent_header"]["msg_id"], msg_id)
        self.assertEqual(req["content"], {"prompt": "name?", "password": False})
        self.kc.input("gopher")
        reply = self.kc.get_shell_msg(timeout=5)
        self.assertEqual(reply["content"]["status"], "ok")


if __name__ == "__main__":
    sys.argv[1:1] = ["-v"]
    unittest.main()
