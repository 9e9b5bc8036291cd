"""The notebooks users run first (issue 7): notebooks/mnist.ipynb and
notebooks/tour.ipynb, and notebooks/transformer.ipynb (issue 23).

Each notebook is executed twice, as CI and users execute notebooks: by
Debian's `jupyter nbconvert --execute` through the installed kernelspec
($GOTENSOR_KERNEL_NAME, see conftest.py), and by `gotensor run` without
Jupyter ($GOTENSOR_BIN, default bin/gotensor). Every check runs on both
executed copies:

- mnist.ipynb: no cell fails; the MLP reaches 97.5% test accuracy in 3
  epochs and the CNN 98.5% in 2; the reloaded CNN scores exactly what the
  trained one did and a fresh one about chance; the parameter counts,
  the pixel statistics and the error counts agree with numbers worked out
  by hand or from the accuracies; the digit grid, loss curves, confusion
  matrix and the grid of mistakes are PNG images that decode.
- tour.ipynb: the values it prints, worked out by hand.
- transformer.ipynb, run with GOTENSOR_TRANSFORMER_QUICK=1 (20 training
  steps): the parameter count worked out by hand, the loss starting at
  ln(vocabulary) and falling, samples of the asked length, an attention map
  whose rows sum to 1 with nothing above the diagonal, and a reloaded model
  that computes exactly what the trained one does.

And every cell of mnist.ipynb, run twice in a row on one kernel as people
do, still works; a re-run training cell starts over and gives the same
numbers. That run sets GOTENSOR_MNIST_QUICK=1 in the kernel's environment,
which makes the notebook train on 2560 images and test on 1000, so it takes
seconds. The two full MNIST runs take a minute or so each on a CPU.

MNIST comes from `gotensor data mnist`; the MNIST tests are skipped when it
cannot be fetched.
"""

import base64
import json
import math
import os
import re
import struct
import subprocess
import zlib

import pytest
from jupyter_client.manager import start_new_kernel

from conftest import KERNEL_NAME, execute, missing, require_kernelspec, stop_kernel, stream_text

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
NOTEBOOKS = os.path.join(ROOT, "notebooks")
GOTENSOR = os.environ.get("GOTENSOR_BIN") or os.path.join(ROOT, "bin", "gotensor")
JUPYTER = "/usr/bin/jupyter"
RUN_TIMEOUT = 900  # seconds for one execution of a whole notebook

MLP_TARGET, CNN_TARGET = 97.5, 98.5
MLP_EPOCHS, CNN_EPOCHS = 3, 2
TEST_SIZE, QUICK_TEST_SIZE = 10000, 1000

# Parameter counts worked out by hand from the layer sizes:
# MLP 784*512 + 512 + 512*10 + 10; CNN conv 1*8*25 + 8, batch norm 2*8,
# conv 8*16*25 + 16, batch norm 2*16, linear 256*64 + 64, 64*10 + 10.
MLP_PARAMS = 784 * 512 + 512 + 512 * 10 + 10
CNN_PARAMS = (1 * 8 * 25 + 8) + 2 * 8 + (8 * 16 * 25 + 16) + 2 * 16 + (256 * 64 + 64) + (64 * 10 + 10)
assert (MLP_PARAMS, CNN_PARAMS) == (407050, 20570)


# ---- running notebooks ------------------------------------------------------


def have_nbconvert():
    if not os.access(JUPYTER, os.X_OK):
        return False
    try:
        import nbconvert  # noqa: F401
    except ImportError:
        return False
    return True


def need_gotensor():
    if not os.access(GOTENSOR, os.X_OK):
        missing(f"no gotensor binary at {GOTENSOR}: make build (or set GOTENSOR_BIN)")


def tail(s, n=4000):
    return s[-n:]


def run_nbconvert(name, workdir, extra_env=None):
    """Executes notebooks/name with nbconvert on the kernel under test and
    returns the executed notebook (a dict), its HTML export under "_html"."""
    if not have_nbconvert():
        missing("jupyter nbconvert is not installed (Debian: jupyter-nbconvert; scripts/setup.sh installs it)")
    require_kernelspec()
    out = os.path.join(workdir, "nbconvert-" + name)
    cmd = [
        JUPYTER, "nbconvert", "--execute", "--to", "notebook",
        f"--ExecutePreprocessor.kernel_name={KERNEL_NAME}",
        f"--ExecutePreprocessor.timeout={RUN_TIMEOUT}",
        "--output-dir", workdir, "--output", os.path.basename(out),
        os.path.join(NOTEBOOKS, name),
    ]
    env = dict(os.environ, PYDEVD_DISABLE_FILE_VALIDATION="1")
    env.pop("GOTENSOR_MNIST_QUICK", None)
    env.update(extra_env or {})
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT, env=env)
    assert r.returncode == 0, f"nbconvert --execute {name} failed:\n{tail(r.stderr)}"
    with open(out) as f:
        nb = json.load(f)
    # The HTML export of the executed copy, as scripts/mnist.sh makes it.
    r = subprocess.run([JUPYTER, "nbconvert", "--to", "html", out], capture_output=True, text=True,
                       timeout=RUN_TIMEOUT, env=env)
    assert r.returncode == 0, f"nbconvert --to html {name} failed:\n{tail(r.stderr)}"
    with open(out[: -len(".ipynb")] + ".html") as f:
        nb["_html"] = f.read()
    return nb


def run_gotensor(name, workdir, extra_env=None):
    """Executes notebooks/name with `gotensor run` and returns the executed
    notebook (a dict), the page --html wrote under "_html"."""
    need_gotensor()
    out = os.path.join(workdir, "run-" + name)
    page = out[: -len(".ipynb")] + ".html"
    env = dict(os.environ)
    env.pop("GOTENSOR_MNIST_QUICK", None)
    env.update(extra_env or {})
    r = subprocess.run([GOTENSOR, "run", os.path.join(NOTEBOOKS, name), "-o", out, "--html", page],
                       capture_output=True, text=True, timeout=RUN_TIMEOUT, env=env)
    assert r.returncode == 0, f"gotensor run {name} failed:\n{tail(r.stderr)}"
    with open(out) as f:
        nb = json.load(f)
    with open(page) as f:
        nb["_html"] = f.read()
    return nb


@pytest.fixture(scope="module")
def mnist_data():
    """Makes sure MNIST is in gotensor's data directory, or skips."""
    need_gotensor()
    r = subprocess.run([GOTENSOR, "data", "mnist"], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        missing(f"MNIST could not be fetched (gotensor data mnist): {tail(r.stderr, 500)}")


@pytest.fixture(scope="module", params=["nbconvert", "gotensor-run"])
def mnist(request, mnist_data, tmp_path_factory):
    workdir = str(tmp_path_factory.mktemp("mnist-" + request.param))
    run = run_nbconvert if request.param == "nbconvert" else run_gotensor
    return run("mnist.ipynb", workdir)


@pytest.fixture(scope="module")
def fortunes_data():
    """Makes sure the fortunes are in gotensor's data directory, or skips."""
    need_gotensor()
    r = subprocess.run([GOTENSOR, "data", "fortunes"], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        missing(f"the fortunes could not be fetched (gotensor data fortunes): {tail(r.stderr, 500)}")


@pytest.fixture(scope="module", params=["nbconvert", "gotensor-run"])
def transformer(request, fortunes_data, tmp_path_factory):
    """transformer.ipynb, run with GOTENSOR_TRANSFORMER_QUICK=1 (20 steps):
    the full run takes minutes on a CPU."""
    workdir = str(tmp_path_factory.mktemp("transformer-" + request.param))
    run = run_nbconvert if request.param == "nbconvert" else run_gotensor
    return run("transformer.ipynb", workdir, {"GOTENSOR_TRANSFORMER_QUICK": "1"})


@pytest.fixture(scope="module", params=["nbconvert", "gotensor-run"])
def tour(request, tmp_path_factory):
    workdir = str(tmp_path_factory.mktemp("tour-" + request.param))
    run = run_nbconvert if request.param == "nbconvert" else run_gotensor
    return run("tour.ipynb", workdir)


# ---- reading executed notebooks ---------------------------------------------


def text(v):
    """Joins nbformat's multi-line strings (a string or a list of lines)."""
    return "".join(v) if isinstance(v, list) else v


def cell(nb, cell_id):
    """Returns the code cell with id cell_id after checking it ran cleanly."""
    found = [c for c in nb["cells"] if c.get("id") == cell_id]
    assert len(found) == 1, f"{len(found)} cells have id {cell_id!r}"
    c = found[0]
    assert c["cell_type"] == "code"
    errors = [o for o in c["outputs"] if o["output_type"] == "error"]
    assert not errors, f"cell {cell_id} failed: {errors[0]['ename']}: {errors[0]['evalue']}"
    return c


def stdout(c):
    return "".join(text(o["text"]) for o in c["outputs"] if o["output_type"] == "stream" and o["name"] == "stdout")


def rich(c, mime):
    """Returns the values of mime in c's display_data and execute_result
    outputs, in order."""
    return [text(o["data"][mime]) for o in c["outputs"]
            if o["output_type"] in ("display_data", "execute_result") and mime in o["data"]]


def result_text(c):
    results = [o for o in c["outputs"] if o["output_type"] == "execute_result"]
    assert len(results) == 1, [o["output_type"] for o in c["outputs"]]
    return text(results[0]["data"]["text/plain"])


def numbers(s):
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", s)]


def decode_png(b64):
    """Decodes a base64 PNG of 8-bit channels far enough to check it: the
    signature, every chunk's CRC, the header, and the pixel rows inflated and
    unfiltered. Returns (width, height, channels, rows), rows as bytearrays."""
    b = base64.b64decode(b64)
    assert b[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(b):
        (n,) = struct.unpack(">I", b[pos:pos + 4])
        kind, body = b[pos + 4:pos + 8], b[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", b[pos + 8 + n:pos + 12 + n])
        assert zlib.crc32(kind + body) == crc, f"bad CRC in chunk {kind!r}"
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
        if kind == b"IEND":
            break
    assert header, "no IHDR chunk"
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and interlace == 0, f"unexpected PNG format {header}"
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[color]
    raw = zlib.decompress(idat)
    stride = width * channels
    assert len(raw) == height * (stride + 1), "pixel data has the wrong size"
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            up, c = prev[i], prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + up) & 255
            elif f == 3:
                line[i] = (line[i] + (a + up) // 2) & 255
            elif f == 4:
                p = a + up - c
                pa, pb, pc = abs(p - a), abs(p - up), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else up if pb <= pc else c)) & 255
            else:
                assert f == 0, f"unknown PNG filter {f}"
        rows.append(line)
        prev = line
    return width, height, channels, rows


def one_png(c, plain_pattern):
    """Returns the decoded PNG of c's one image output whose text/plain
    matches plain_pattern."""
    outs = [o for o in c["outputs"] if "data" in o and "image/png" in o["data"]
            and re.search(plain_pattern, text(o["data"].get("text/plain", "")))]
    assert len(outs) == 1, [text(o["data"].get("text/plain", "")) for o in c["outputs"] if "data" in o]
    return decode_png(text(outs[0]["data"]["image/png"]))


def grey_levels(rows):
    return len({v for r in rows for v in r})


def summary(nb):
    """Returns the accuracies (in percent) the final cell prints."""
    out = stdout(cell(nb, "summary"))
    acc = {}
    for name in ("MLP", "CNN", "Reloaded CNN"):
        m = re.search(rf"^{name} test accuracy: ([0-9.]+)%", out, re.M)
        assert m, f"no {name!r} line in the summary:\n{out}"
        acc[name] = float(m.group(1))
    return acc, out


# ---- mnist.ipynb --------------------------------------------------------------


def test_mnist_every_cell_ran(mnist):
    code = [c for c in mnist["cells"] if c["cell_type"] == "code"]
    assert len(code) >= 10
    for c in code:
        cell(mnist, c["id"])
        assert c["execution_count"], f"cell {c['id']} did not run"


def test_mnist_accuracies_reach_the_targets(mnist):
    acc, out = summary(mnist)
    assert acc["MLP"] >= MLP_TARGET, out
    assert acc["CNN"] >= CNN_TARGET, out
    assert f"({MLP_EPOCHS} epochs," in out and f"({CNN_EPOCHS} epochs," in out, out


def test_mnist_reported_each_epoch(mnist):
    acc, _ = summary(mnist)
    for cid, name, epochs in (("mlp-train", "MLP", MLP_EPOCHS), ("cnn-train", "CNN", CNN_EPOCHS)):
        out = stdout(cell(mnist, cid))
        got = re.findall(rf"^{name} epoch (\d+): test accuracy ([0-9.]+)%", out, re.M)
        assert [int(e) for e, _ in got] == list(range(1, epochs + 1)), out
        assert float(got[-1][1]) == acc[name], out
        assert float(got[0][1]) > 90, out  # one epoch already learns most of it


def test_mnist_reloaded_model_matches(mnist):
    acc, out = summary(mnist)
    assert acc["Reloaded CNN"] == acc["CNN"], out
    line = stdout(cell(mnist, "save-load"))
    fresh, loaded, trained = numbers(re.search(r"a fresh CNN: .*", line).group(0))[:3]
    assert fresh < 30, line  # an untrained network guesses: about 10%
    assert loaded == trained == acc["CNN"], line


def test_mnist_steered_by_widgets(mnist):
    """The learning-rate slider and Stop button of "Steering a run by
    hand": run headless nobody clicks, so the loop runs its 300 batches,
    and the widgets are saved as nbconvert --execute saves them: the
    view in the cell's outputs, the state under metadata.widgets (version
    2 of the widget state schema), the log slider's range in decades."""
    out = stdout(cell(mnist, "steer-train"))
    assert re.search(r"^300 more batches \(stopped by hand: false\): MLP test accuracy [0-9.]+%", out, re.M), out
    views = rich(cell(mnist, "steer-controls"), "application/vnd.jupyter.widget-view+json")
    assert len(views) == 1 and views[0]["version_major"] == 2, views
    state = mnist["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]
    assert state["version_major"] == 2 and views[0]["model_id"] in state["state"]
    models = {}
    for m in state["state"].values():
        models.setdefault(m["model_name"], []).append(m["state"])
    (lr,) = models["FloatLogSliderModel"]
    assert (lr["min"], lr["max"], lr["value"], lr["description"]) == (-5, -2, 1e-4, "learning rate")
    (progress,) = models["FloatProgressModel"]
    assert progress["value"] == 300 and progress["max"] == 300
    assert len(models["ButtonModel"]) == 1 and models["VBoxModel"]


def test_mnist_data_and_normalisation(mnist):
    out = stdout(cell(mnist, "load"))
    assert "Dataset(60000 examples, images [60000 1 28 28] float32, labels [60000] int64)" in out, out
    assert "Dataset(10000 examples, images [10000 1 28 28] float32, labels [10000] int64)" in out, out
    # MNIST's well-known pixel statistics.
    assert "pixel mean 0.1307, standard deviation 0.3081" in stdout(cell(mnist, "normalize"))


def test_mnist_model_summaries(mnist):
    mlp = result_text(cell(mnist, "mlp"))
    assert f"Total params: {MLP_PARAMS:,}" in mlp, mlp
    cnn = result_text(cell(mnist, "cnn"))
    assert f"Total params: {CNN_PARAMS:,}" in cnn, cnn
    # The shapes noted in the code: [1 8 12 12] after the first pooling,
    # [1 16 4 4] after the second, [1 256] flattened.
    for shape in ("[1 8 12 12]", "[1 16 4 4]", "[1 256]", "[1 10]"):
        assert shape in cnn, cnn


def test_mnist_digit_grid(mnist):
    c = cell(mnist, "digits")
    w, h, _, rows = one_png(c, r"grid of 32 images")
    assert w > h > 0, (w, h)  # 4 rows of 8
    assert grey_levels(rows) > 32, "the digit grid looks blank"


def test_mnist_live_outputs(mnist):
    for cid, name, epochs in (("mlp-train", "MLP", MLP_EPOCHS), ("cnn-train", "CNN", CNN_EPOCHS)):
        c = cell(mnist, cid)
        w, h, _, rows = one_png(c, rf'plot "{name} loss"')
        assert w > 100 and h > 100 and grey_levels(rows) > 8
        bars = [s for s in rich(c, "text/plain") if re.search(r"\] \d+/\d+", s)]
        assert len(bars) == 1, rich(c, "text/plain")
        done, total = map(int, re.search(r"\] (\d+)/(\d+)", bars[0]).groups())
        assert done == total == epochs * 469, bars[0]  # 60000/128 rounded up: 469 batches an epoch


def test_mnist_confusion_matrix(mnist):
    acc, _ = summary(mnist)
    c = cell(mnist, "confusion")
    w, h, _, rows = one_png(c, r"confusion matrix")
    assert w > 100 and h > 100 and grey_levels(rows) > 8
    title = rich(c, "text/plain")[0]
    # The plot counts the right answers itself: it must agree with evaluate.
    m = re.search(r"accuracy ([0-9.]+)% of (\d+)", title)
    assert m and float(m.group(1)) == acc["MLP"] and int(m.group(2)) == TEST_SIZE, title


def test_mnist_confident_mistakes(mnist):
    acc, _ = summary(mnist)
    c = cell(mnist, "wrong")
    md = "".join(rich(c, "text/markdown"))
    m = re.search(r"\*\*(\d+)\*\* of (\d+) test digits are wrong", md)
    assert m, md
    wrong, total = int(m.group(1)), int(m.group(2))
    assert total == TEST_SIZE and wrong == round(TEST_SIZE * (1 - acc["MLP"] / 100)), (md, acc)
    w, h, _, rows = one_png(c, r"grid of 16 images")
    assert w > h > 0 and grey_levels(rows) > 32


def test_mnist_comparison_table(mnist):
    acc, _ = summary(mnist)
    table = rich(cell(mnist, "compare"), "text/plain")[0]
    for name, params in (("MLP", MLP_PARAMS), ("CNN", CNN_PARAMS)):
        row = next((line for line in table.splitlines() if line.startswith(name)), None)
        assert row, table
        cols = row.split()
        assert int(cols[1]) == params, row
        assert int(cols[4]) == round(TEST_SIZE * (1 - acc[name] / 100)), row  # test errors
        assert cols[5] == f"{acc[name]:.2f}%", row
    assert "<table" in rich(cell(mnist, "compare"), "text/html")[0]


def test_mnist_html_export(mnist):
    page = mnist["_html"]
    assert page.count("data:image/png;base64,") >= 5, "the HTML page lacks the notebook's images"
    assert "MLP test accuracy:" in page


# ---- mnist.ipynb, every cell twice -----------------------------------------


def test_mnist_cells_run_twice(mnist_data):
    """Runs every code cell of mnist.ipynb twice in a row on one kernel,
    with GOTENSOR_MNIST_QUICK=1, and checks both runs of each cell succeed,
    that a re-run training cell starts over (same numbers), and that the
    notebook's end still holds together."""
    require_kernelspec()
    with open(os.path.join(NOTEBOOKS, "mnist.ipynb")) as f:
        nb = json.load(f)
    env = dict(os.environ, GOTENSOR_MNIST_QUICK="1")
    km, kc = start_kernel_env(env)
    try:
        outs = {}
        for c in nb["cells"]:
            if c["cell_type"] != "code":
                continue
            src = text(c["source"])
            runs = []
            for attempt in (1, 2):
                reply, msgs = execute(kc, src, timeout=300)
                content = reply["content"]
                assert content["status"] == "ok", (
                    f"cell {c['id']}, run {attempt}: {content.get('ename')}: {content.get('evalue')}\n"
                    f"{stream_text(msgs, 'stderr')}")
                runs.append(stream_text(msgs))
            outs[c["id"]] = runs
    finally:
        stop_kernel(km, kc)
    for cid, name in (("mlp-train", "MLP"), ("cnn-train", "CNN")):
        first, second = (re.findall(rf"{name} epoch \d+: test accuracy [0-9.]+%", r) for r in outs[cid])
        assert first and first == second, f"{cid} gave other numbers when run again:\n{first}\n{second}"
    last = outs["summary"][1]
    m = re.search(r"^CNN test accuracy: ([0-9.]+)%.*\n^Reloaded CNN test accuracy: ([0-9.]+)%", last, re.M)
    assert m and m.group(1) == m.group(2), last
    assert "1000 examples" in outs["load"][1], outs["load"][1]  # quick mode took effect


def start_kernel_env(env):
    """Starts the kernel under test with env as its environment; returns
    its manager and a ready client."""
    return start_new_kernel(kernel_name=KERNEL_NAME, startup_timeout=30, env=env)


# ---- tour.ipynb ---------------------------------------------------------------


def test_tour_every_cell_ran(tour):
    for c in tour["cells"]:
        if c["cell_type"] == "code":
            cell(tour, c["id"])


def test_tour_tensors(tour):
    x = result_text(cell(tour, "tensor-x"))
    assert numbers(x) == [0, 1, 2, 3, 4, 5], x
    meta = stdout(cell(tour, "tensor-meta"))
    assert "shape: [2 3]" in meta and "dtype: float32" in meta and "elements: 6" in meta, meta
    # x @ x.T for x = [[0 1 2] [3 4 5]]: 0+1+4, 0+4+10, 9+16+25.
    assert numbers(result_text(cell(tour, "tensor-matmul"))) == [5, 14, 14, 50]
    red = stdout(cell(tour, "tensor-reduce"))
    assert "column sums: [3 5 7]" in red and "row means:   [1 4]" in red, red
    assert "row argmax:  [2 2]" in red and "total:       15" in red, red


def test_tour_broadcasting(tour):
    c = cell(tour, "broadcast")
    printed = numbers(stdout(c))
    assert printed == [10, 21, 32, 13, 24, 35, 100, 101, 102, 203, 204, 205], printed
    assert numbers(result_text(c)) == [1000, 2000, 3000, 2000, 4000, 6000]
    err = stdout(cell(tour, "broadcast-error"))
    assert "Add" in err and "[2 3]" in err and "[2]" in err and "broadcast" in err, err


def test_tour_views(tour):
    c = cell(tour, "views")
    assert "shares storage: true" in stdout(c)
    assert numbers(result_text(c)) == [0, 1, 2, -1, -1, -1]
    s = stdout(cell(tour, "strides"))
    assert "y strides: [3 1]  y.T() strides: [1 3]  contiguous: false" in s, s
    assert "after Contiguous: strides [2 1]  shares storage: false" in s, s


def test_tour_autograd(tour):
    # c = a*b + a^2 at a=2, b=3: c = 10, dc/da = b + 2a = 7, dc/db = a = 2.
    assert "c = 10, dc/da = 7, dc/db = 2" in stdout(cell(tour, "autograd"))
    acc = stdout(cell(tour, "autograd-accumulate"))
    assert "dc/da after two backward passes: 14" in acc, acc
    fit = stdout(cell(tour, "fit-line"))
    assert "w = 3.000, bias = 1.000" in fit, fit


def test_tour_devices_and_display(tour):
    dev = stdout(cell(tour, "devices"))
    assert re.search(r"default device: (cpu|cuda:\d+)\s+z is on: (cpu|cuda:\d+)", dev), dev
    assert "back on the CPU: [0 1 2 3 4 5]" in dev, dev
    c = cell(tour, "display-plot")
    assert "w = 3.00" in "".join(rich(c, "text/markdown"))
    w, h, _, rows = one_png(c, r"fitting y = 3x \+ 1")
    assert w > 100 and h > 100 and grey_levels(rows) > 8
    c = cell(tour, "display-table")
    assert "<table" in rich(c, "text/html")[0]
    w, h, _, rows = one_png(c, r"grid of 8 images")
    assert w > h > 0


# ---- transformer.ipynb --------------------------------------------------------


def transformer_vocab(nb):
    m = re.search(r"^(\d+) characters, (\d+) distinct$", stdout(cell(nb, "data")), re.M)
    assert m, stdout(cell(nb, "data"))
    return int(m.group(1)), int(m.group(2))


def test_transformer_every_cell_ran(transformer):
    for c in transformer["cells"]:
        if c["cell_type"] == "code":
            cell(transformer, c["id"])
    assert "training on" in stdout(cell(transformer, "setup"))


def test_transformer_data_and_parameters(transformer):
    n, vocab = transformer_vocab(transformer)
    assert n > 2_000_000 and 60 <= vocab <= 200, (n, vocab)
    # By hand: embeddings, two blocks (attention in/out projections, the
    # feed-forward block of 4x width, two layer norms), the final norm and
    # the head, for width 64.
    w, block = 64, 3 * 64 * 64 + 3 * 64 + 64 * 64 + 64 + 64 * 256 + 256 + 256 * 64 + 64 + 4 * 64
    want = vocab * w + 64 * w + 2 * block + 2 * w + w * vocab + vocab
    assert f"parameters: {want}" in stdout(cell(transformer, "model"))


def test_transformer_learns(transformer):
    out = stdout(cell(transformer, "train"))
    m = re.search(r"first loss ([0-9.]+), last loss ([0-9.]+), validation loss ([0-9.]+)", out)
    assert m, out
    first, last, val = map(float, m.groups())
    _, vocab = transformer_vocab(transformer)
    # An untrained model is close to uniform: ln(vocab). Twenty steps at
    # 3e-3 already take the loss well below it (to the unigram level).
    assert abs(first - math.log(vocab)) < 0.5, (first, math.log(vocab))
    assert last < first - 1 and val < first - 1, (first, last, val)
    one_png(cell(transformer, "train"), "character-level loss")


def test_transformer_samples(transformer):
    out = stdout(cell(transformer, "sample"))
    samples = re.findall(r"^--- temperature ([0-9.]+), top-10:\n(.*?)(?=^--- |\Z)", out, re.M | re.S)
    assert [t for t, _ in samples] == ["0.5", "1.0"], out
    for _, s in samples:
        assert s.startswith("The ") and len(s.rstrip("\n")) == 204, repr(s)


def test_transformer_attention_map(transformer):
    c = cell(transformer, "attention")
    line = "A fool and his money are soon parted."
    assert f"weights [{len(line)} {len(line)}], rows sum to 1.0000, above the diagonal 0.0000" in stdout(c)
    width, height, _, rows = one_png(c, "block 0, averaged over the heads")
    assert width > 500 and height > 300 and grey_levels(rows) > 20


def test_transformer_save_and_reload(transformer):
    out = stdout(cell(transformer, "save"))
    assert "30 tensors, among them pos: [64 64]" in out
    assert "fresh model computes the same: false" in out
    assert "reloaded model computes the same: true" in out
