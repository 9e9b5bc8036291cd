"""The gotensor kernel against jupyter_kernel_test's conformance suite.

Every sample the suite asks for is filled in, so no test of it skips, and
every message it receives is validated against the Jupyter message schemas.
Run with scripts/test.sh, which installs the kernelspec first.
"""

import unittest

import jupyter_kernel_test

from conftest import KERNEL_NAME, require_kernelspec

require_kernelspec()


class GotensorKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = KERNEL_NAME
    language_name = "go"
    file_extension = ".go"

    code_hello_world = 'fmt.Println("hello, world")'
    code_stderr = 'import "os"\n\nfmt.Fprintln(os.Stderr, "to stderr")'

    completion_samples = [
        {"text": "fmt.Prin"},
        {"text": "math.Sq"},
    ]

    complete_code_samples = [
        "1+1",
        "x := 1",
        'fmt.Println("done")',
        "func twice(n int) int {\n\treturn 2 * n\n}",
        'import "strings"',
        "for i := 0; i < 3; i++ {\n\tfmt.Println(i)\n}",
    ]
    incomplete_code_samples = [
        "func f() int {",
        "for i := 0; i < 3; i++ {",
        "xs := []int{1,\n2,",
        "fmt.Println(",
        "s := `raw string",
    ]
    invalid_code_samples = [
        "x := )",
        "fmt.Println(1))",
        "}",
    ]

    # Exactly one output: the error, nothing on stdout or stderr.
    code_generate_error = 'panic("gotensor test error")'

    # Values worked out by hand: len counts bytes, and é is two in UTF-8.
    code_execute_result = [
        {"code": "1+1", "result": "2"},
        {"code": "6*7", "result": "42"},
        {"code": 'len("héllo")', "result": "6"},
    ]
    code_history_pattern = "1?1"  # a glob, as in IPython: matches only "1+1"
    supported_history_operations = ("tail", "range", "search")

    # ?NAME pages NAME's documentation, as in IPython: a "page" payload.
    code_page_something = "?fmt.Println"

    code_display_data = [
        {"code": 'display.HTML("<b>gotensor</b>")', "mime": "text/html"},
        {"code": 'display.Markdown("# gotensor")', "mime": "text/markdown"},
    ]

    code_inspect_sample = "fmt.Println"
    code_clear_output = "display.ClearOutput(false)"


if __name__ == "__main__":
    unittest.main()
