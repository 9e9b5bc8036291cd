"""The kernel on a machine without Go: $GOROOT is an empty folder and no go
command is on $PATH, as on a GPU server or in a container the binary was
copied to. Generic code of the standard library (slices, maps, iter) runs
from the source the kernel embeds (interp/internal/stdsrc). Expected
outputs are what `go run` prints for the same program."""

import os
import shutil
import tempfile

import pytest
from jupyter_client.manager import start_new_kernel

from conftest import KERNEL_NAME, TIMEOUT, execute, require_kernelspec, stop_kernel, stream_text

require_kernelspec()

CELLS = [
    ('import ("iter"; "maps"; "slices")', ""),
    ("xs := []int{3, 1, 2}\nslices.Sort(xs)\nfmt.Println(xs)", "[1 2 3]\n"),
    ('fmt.Println(slices.Sorted(maps.Keys(map[string]int{"b": 1, "a": 2, "c": 3})))', "[a b c]\n"),
    (
        "func squares(n int) iter.Seq[int] {\n"
        "\treturn func(yield func(int) bool) {\n"
        "\t\tfor i := range n {\n"
        "\t\t\tif !yield(i * i) {\n"
        "\t\t\t\treturn\n"
        "\t\t\t}\n"
        "\t\t}\n"
        "\t}\n"
        "}\n"
        "fmt.Println(slices.Collect(squares(4)))",
        "[0 1 4 9]\n",
    ),
]


def test_generic_std_without_go():
    with tempfile.TemporaryDirectory() as empty:
        path = "/usr/bin:/bin"
        assert shutil.which("go", path=path) is None, "a go command on /usr/bin:/bin"
        env = dict(os.environ, GOROOT=empty, PATH=path)
        km, kc = start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=TIMEOUT, env=env)
        try:
            for code, want in CELLS:
                reply, msgs = execute(kc, code)
                assert reply["content"]["status"] == "ok", (code, reply["content"], stream_text(msgs, "stderr"))
                assert stream_text(msgs) == want, code
        finally:
            stop_kernel(km, kc)
