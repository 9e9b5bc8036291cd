"""End-to-end checks of rich output (issue 6).

notebooks/display.ipynb, which shows every kind of output the display
package makes, is executed on the installed kernel by Debian's
`jupyter nbconvert`, the way CI runs notebooks. The executed notebook is
checked output by output (MIME types, PNG sizes decoded from the bytes,
values worked out by hand), its HTML export is checked for each kind of
output, and headless Chromium opens that HTML and reports, for every image
on the page, whether it loaded and the size it decoded to.

The whole module is skipped when nbconvert or the kernelspec is missing,
the browser check when chromium is missing (scripts/setup.sh installs
Debian's chromium package); with GOTENSOR_REQUIRE_TOOLS=1 each skip is a
failure (see conftest.missing).
"""

import base64
import html
import json
import os
import re
import shutil
import struct
import subprocess
import zlib

import pytest

from conftest import KERNEL_NAME, missing, require_kernelspec

JUPYTER = "/usr/bin/jupyter"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
BROWSER_TIMEOUT = 120  # seconds for chromium to load the page and report
NOTEBOOK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "notebooks", "display.ipynb")
TIMEOUT = 300  # seconds for one nbconvert run; the notebook takes about 10


def _have_nbconvert():
    if not os.access(JUPYTER, os.X_OK):
        return False
    try:
        import nbconvert  # noqa: F401
        import nbformat  # noqa: F401
    except ImportError:
        return False
    return True


if not _have_nbconvert():
    missing("jupyter nbconvert is not installed (Debian: jupyter-nbconvert; scripts/setup.sh installs it)", module_level=True)
require_kernelspec()

import nbconvert  # noqa: E402
import nbformat  # noqa: E402


def nbconvert_run(args, cwd):
    """Runs jupyter nbconvert with args in cwd on the kernel under test."""
    cmd = [
        JUPYTER, "nbconvert",
        f"--ExecutePreprocessor.kernel_name={KERNEL_NAME}",
        "--ExecutePreprocessor.timeout=120",
        *args,
    ]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT)


def tail(s, n=3000):
    return s[-n:]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    d = tmp_path_factory.mktemp("display-notebook")
    shutil.copy(NOTEBOOK, d / "display.ipynb")
    return d


@pytest.fixture(scope="module")
def executed(workdir):
    """The notebook executed to .ipynb, errors allowed so that every cell
    runs and each check below reports on its own output."""
    r = nbconvert_run(["--execute", "--allow-errors", "--to", "notebook", "--output", "executed.ipynb", "display.ipynb"], workdir)
    assert r.returncode == 0, f"nbconvert --execute --to notebook failed:\n{tail(r.stderr)}"
    return nbformat.read(str(workdir / "executed.ipynb"), as_version=4)


@pytest.fixture(scope="module")
def html_file(workdir, executed):
    """The executed notebook exported to HTML (no second execution)."""
    r = subprocess.run([JUPYTER, "nbconvert", "--to", "html", "--output", "executed.html", "executed.ipynb"],
                       cwd=workdir, capture_output=True, text=True, timeout=TIMEOUT)
    assert r.returncode == 0, f"nbconvert --to html failed:\n{tail(r.stderr)}"
    return workdir / "executed.html"


@pytest.fixture(scope="module")
def page(html_file):
    return html_file.read_text()


def cell(nb, snippet):
    """Returns the one code cell whose source is snippet or contains it."""
    found = [c for c in nb.cells if c.cell_type == "code" and c.source.strip() == snippet]
    found = found or [c for c in nb.cells if c.cell_type == "code" and snippet in c.source]
    assert len(found) == 1, f"{len(found)} code cells contain {snippet!r}"
    return found[0]


def rich(c, output_type=None):
    """Returns the outputs of c that carry data, with no error among them."""
    errors = [o for o in c.outputs if o.output_type == "error"]
    assert not errors, f"cell failed: {errors[0].ename}: {errors[0].evalue}\n--- cell ---\n{c.source}"
    outs = [o for o in c.outputs if "data" in o]
    if output_type:
        assert [o.output_type for o in outs] == [output_type] * len(outs), [o.output_type for o in outs]
    return outs


def one(c, output_type, mimes, optional=()):
    """Returns c's only rich output, of the given type, with exactly these
    MIME types and perhaps some of the optional ones."""
    outs = rich(c, output_type)
    assert len(outs) == 1, f"want 1 {output_type}, got {len(outs)}"
    assert set(mimes) <= set(outs[0].data) <= set(mimes) | set(optional), sorted(outs[0].data)
    return outs[0]


def png_size(b64):
    """Decodes a base64 PNG far enough to trust it: signature, chunk CRCs,
    and the inflated image data's length against IHDR (8-bit samples, no
    interlacing). Returns (width, height)."""
    data = base64.b64decode(b64)
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks = 8, []
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n : pos + 12 + n])
        assert zlib.crc32(kind + body) == crc, f"bad CRC in {kind!r} chunk"
        chunks.append((kind, body))
        pos += 12 + n
    assert chunks[0][0] == b"IHDR" and chunks[-1][0] == b"IEND", [k for k, _ in chunks]
    w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert depth == 8 and interlace == 0, (depth, interlace)
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[ctype]
    raw = zlib.decompress(b"".join(b for k, b in chunks if k == b"IDAT"))
    assert len(raw) == h * (1 + w * channels), "image data does not match the header"
    return w, h


# ---- the executed notebook, output by output ----


def test_no_cell_failed(executed):
    failed = []
    for i, c in enumerate(executed.cells):
        for o in c.get("outputs", []):
            if o.output_type == "error":
                failed.append(f"cell {i}: {o.ename}: {o.evalue}\n{c.source}")
            elif o.output_type == "stream" and o.name == "stderr":
                failed.append(f"cell {i} wrote to stderr: {o.text}\n{c.source}")
    assert not failed, "\n\n".join(failed)


@pytest.mark.parametrize("snippet, header", [
    ("tensor.Arange(0, 5, 1)", "shape</span> [5]"),
    ("Reshape(3, 4)", "shape</span> [3, 4]"),
    ("Reshape(2, 3, 4)", "shape</span> [2, 3, 4]"),
    ("tensor.Randn(200, 300)", "shape</span> [200, 300]"),
    ("SetRequiresGrad(true)", "requires_grad</span> true"),
    ("w.MulScalar(2).Sum()", "grad_fn</span>"),
])
def test_tensor_out(executed, snippet, header):
    data = one(cell(executed, snippet), "execute_result", {"text/html", "text/plain"}).data
    h, text = data["text/html"], data["text/plain"]
    assert 'class="gt-tensor"' in h and "<table" in h and header in h, h[:600]
    assert "dtype</span> float32" in h and "device</span> cpu" in h.lower(), h[:600]
    assert text.startswith("tensor("), text


def test_tensor_values(executed):
    """Items, slices and summaries, as PyTorch prints them."""
    one_d = one(cell(executed, "tensor.Arange(0, 5, 1)"), "execute_result", {"text/html", "text/plain"}).data
    assert one_d["text/plain"] == "tensor([0., 1., 2., 3., 4.])"
    assert [f"<td>{v}.</td>" in one_d["text/html"] for v in range(5)] == [True] * 5
    two_d = one(cell(executed, "Reshape(3, 4)"), "execute_result", {"text/html", "text/plain"}).data
    assert "2.7500" in two_d["text/html"] and two_d["text/html"].count("<tr") >= 3
    three_d = one(cell(executed, "Reshape(2, 3, 4)"), "execute_result", {"text/html", "text/plain"}).data
    assert "[0, :, :]" in three_d["text/html"] and "[1, :, :]" in three_d["text/html"]
    assert "<td>23.</td>" in three_d["text/html"]
    big = one(cell(executed, "tensor.Randn(200, 300)"), "execute_result", {"text/html", "text/plain"}).data
    assert "summarised" in big["text/html"] and "…" in big["text/html"] and "⋮" in big["text/html"]
    # 6 rows of 6 items and ellipses, not 60000 cells
    assert big["text/html"].count("<td") < 100
    assert "..." in big["text/plain"]
    grad = one(cell(executed, "w.MulScalar(2).Sum()"), "execute_result", {"text/html", "text/plain"}).data
    assert "grad_fn=" in grad["text/plain"]


def test_show_tensor(executed):
    outs = rich(cell(executed, "display.Show(tensor.Eye(n))"), "display_data")
    assert [sorted(o.data) for o in outs] == [["text/html", "text/plain"]] * 2
    assert "shape</span> [2, 2]" in outs[0].data["text/html"]
    assert "shape</span> [3, 3]" in outs[1].data["text/html"]


@pytest.mark.parametrize("snippet", ["display.Image(rgb)", "display.Grid(digits, 8)", "display.GridLabeled(digits"])
def test_images(executed, snippet):
    o = one(cell(executed, snippet), "display_data", {"image/png", "text/plain"})
    w, h = png_size(o.data["image/png"])
    meta = o.metadata["image/png"]
    assert (meta["width"], meta["height"]) == (w, h)
    if snippet == "display.Image(rgb)":
        # a 64x64 tensor scaled up by a whole factor to at least 112 pixels
        assert w == h and w % 64 == 0 and w >= 112, (w, h)
    else:
        # 16 tiles of at least 56 px, 8 to a row
        assert w >= 8 * 56 and h >= 2 * 56 and w > 2 * h, (w, h)


def test_grid_labels_add_height(executed):
    plain = png_size(one(cell(executed, "display.Grid(digits, 8)"), "display_data", {"image/png", "text/plain"}).data["image/png"])
    labeled = png_size(one(cell(executed, "display.GridLabeled(digits"), "display_data", {"image/png", "text/plain"}).data["image/png"])
    assert labeled[1] > plain[1], (plain, labeled)


def test_png_bytes(executed):
    """display.PNG shows the bytes it is given: the 64x64 image encoded in the cell."""
    o = one(cell(executed, "display.PNG(buf.Bytes())"), "display_data", {"image/png", "text/plain"})
    assert png_size(o.data["image/png"]) == (64, 64)


@pytest.mark.parametrize("snippet, title", [
    ('display.LinePlot("loss"', '"loss"'),
    ("display.Histogram(", "n=10000"),
    # 500 items, wrong where i%7 == 0 or i%23 == 0: 72 + 22 - 4 = 90 wrong
    ("display.ConfusionMatrix(", "accuracy 82.00% of 500"),
])
def test_plots(executed, snippet, title):
    o = one(cell(executed, snippet), "display_data", {"image/png", "text/plain"})
    assert title in o.data["text/plain"], o.data["text/plain"]
    meta = o.metadata["image/png"]
    assert (meta["width"], meta["height"]) == (600, 360), meta  # display.PlotWidth, PlotHeight
    assert png_size(o.data["image/png"]) == (1200, 720)  # drawn at twice the resolution


def test_plot_svg(executed):
    # text/html may carry the drawing as an <img> too, for nbconvert 6.5 (see test_html_svg)
    o = one(cell(executed, "display.PlotSVG(p)"), "display_data", {"image/svg+xml", "text/plain"}, {"text/html"})
    svg = o.data["image/svg+xml"]
    assert "<svg" in svg and "sine and cosine" in svg and "x (radians)" in svg, svg[:300]
    assert "<path" in svg or "<polyline" in svg, svg[:300]


def test_live_plot_replaced_in_place(executed):
    """Updates replace the live plot's one output; its final image is the
    plot of all the points, as the LivePlot shows itself afterwards."""
    live = one(cell(executed, "display.NewLivePlot("), "display_data", {"image/png", "text/plain"})
    assert '"training loss"' in live.data["text/plain"]
    after = one(cell(executed, "curve"), "execute_result", {"image/png", "text/plain"})
    assert png_size(live.data["image/png"]) == (1200, 720)
    assert live.data["image/png"] == after.data["image/png"], "the live plot's output is not its final state"


def test_progress_final_state(executed):
    o = one(cell(executed, "display.NewProgress(250)"), "display_data", {"text/html", "text/plain"})
    text, h = o.data["text/plain"], o.data["text/html"]
    assert text.startswith("epoch 1 [" + "#" * 20 + "] 250/250 "), text
    assert "250/250" in h and "width:100.0%" in h and "100%" in h, h


def test_markup(executed):
    h = one(cell(executed, "display.HTML("), "display_data", {"text/html", "text/plain"}).data
    assert "gotensor says <b>hello</b>" in h["text/html"]
    m = one(cell(executed, "display.Markdown("), "display_data", {"text/markdown", "text/plain"}).data
    assert "| MLP | **98.1%** |" in m["text/markdown"]
    tex = one(cell(executed, "display.Latex("), "display_data", {"text/latex", "text/plain"}).data
    assert r"\frac{e^{x_i}}{\sum_j e^{x_j}}" in tex["text/latex"]
    svg = one(cell(executed, "display.SVG("), "display_data", {"image/svg+xml", "text/plain"}, {"text/html"}).data
    assert '<circle cx="30" cy="30" r="16"' in svg["image/svg+xml"]


def test_json(executed):
    data = one(cell(executed, "display.JSON("), "display_data", {"application/json", "text/plain"}).data
    assert data["application/json"] == {"model": "mlp", "layers": [784, 256, 10], "lr": 0.001, "adam": True}
    assert json.loads(data["text/plain"]) == data["application/json"]


def test_table(executed):
    data = one(cell(executed, "display.Table("), "display_data", {"text/html", "text/plain"}).data
    h = data["text/html"]
    assert "<table" in h and "<th" in h and h.count("<tr") == 5, h  # header and four rows
    assert "200960" in h and "200960" in data["text/plain"]


def test_model_summary(executed):
    data = one(cell(executed, "nn.Summary(model"), "execute_result", {"text/html", "text/plain"}).data
    # 784*256+256 + 256*10+10 parameters
    assert "<table" in data["text/html"] and "203,530" in data["text/html"], data["text/html"][-400:]
    assert "[1 10]" in data["text/plain"]


def test_user_type_html(executed):
    data = one(cell(executed, "func (b Badge) HTML()"), "execute_result", {"text/html", "text/plain"}).data
    assert 'class="gt-badge"' in data["text/html"] and ">passing</span>" in data["text/html"]


def test_user_type_svg(executed):
    svg = one(cell(executed, "func (d Dot) SVG()"), "execute_result", {"image/svg+xml", "text/plain"}, {"text/html"}).data["image/svg+xml"]
    assert 'class="gt-dot"' in svg and 'r="20"' in svg, svg


# ---- the HTML export ----


def test_nbconvert_execute_to_html(workdir):
    """The command CI runs: execute and export in one go, stopping at the
    first failing cell."""
    r = nbconvert_run(["--execute", "--to", "html", "--output", "ci.html", "display.ipynb"], workdir)
    assert r.returncode == 0, f"jupyter nbconvert --execute --to html failed:\n{tail(r.stderr)}"
    page = (workdir / "ci.html").read_text()
    assert 'class="gt-tensor"' in page and "data:image/png;base64," in page


def outputs_of(page, kind):
    """Returns the inner HTML of each output area div of the given
    jp-Rendered kind (HTMLCommon, Image, SVG, Latex, Text, ...)."""
    return re.findall(r'<div class="jp-Rendered%s jp-OutputArea-output[^"]*"[^>]*>(.*?)</div>\s*</div>' % kind, page, re.S)


def test_html_tensors(page):
    assert page.count('<div class="gt-tensor">') == 8
    for header in ["shape</span> [5]", "shape</span> [2, 3, 4]", "summarised", "requires_grad</span> true", "grad_fn</span>"]:
        assert header in page, header
    assert re.search(r'<div class="gt-tensor">.*?<table class="gt-t">', page, re.S)


def test_html_images(executed, page):
    imgs = re.findall(r'<img src="data:image/png;base64,([A-Za-z0-9+/=\s]+)"', page)
    want = [o.data["image/png"] for c in executed.cells for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
    # Image, Grid, GridLabeled, PNG, three plots, the live plot once, the live plot as a value
    assert len(want) == 9 and len(imgs) == 9, (len(want), len(imgs))
    assert [i.replace("\n", "") for i in imgs] == [w.replace("\n", "") for w in want]
    for i in imgs:
        png_size(i)


def test_html_markup(page):
    text = html.unescape(page)
    assert "gotensor says <b>hello</b>" in page
    assert "<strong>98.1%</strong>" in page  # the Markdown, rendered by nbconvert
    latex = outputs_of(page, "Latex")
    assert any(r"\frac{e^{x_i}}{\sum_j e^{x_j}}" in html.unescape(x) for x in latex), latex
    assert '"layers": [\n    784,' in text  # JSON, shown as its indented text form
    assert 'class="gt-table"' in page and "200960" in page
    assert "Total params: 203,530" in page
    assert 'class="gt-progress"' in page and "250/250" in page and "width:100.0%" in page
    assert page.count('class="gt-progress"') == 1


def test_html_user_type(page):
    ok = 'class="gt-badge"' in page and ">passing</span>" in page
    assert ok, "the HTML of the Badge type declared in a cell is not in the page"


def test_html_svg(page):
    """SVG outputs keep their drawing. Debian 12's nbconvert 6.5 passes inline
    SVG through lxml's HTML cleaner, which drops every element inside <svg>
    (jupyter/nbconvert#1849, fixed in 7.x), so the display package also
    sends each SVG as an HTML <img> with a data: URI, which nbconvert
    prefers: all three (PlotSVG, SVG, the user's Dot) must be there."""
    imgs = re.findall(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(imgs) == 3, len(imgs)
    drawn = [base64.b64decode(i).decode() for i in imgs]
    assert all("<circle" in s or "<path" in s for s in drawn), [s[:200] for s in drawn]


# ---- the HTML export in a real browser ----

# A script added to a copy of the page: once the page has loaded, it writes
# each image's state into the DOM, which chromium --dump-dom prints.
IMAGE_REPORT = """<script>
window.addEventListener("load", () => {
  const report = [...document.images].map(i => ({
    src: i.src.slice(0, 30), complete: i.complete, width: i.naturalWidth, height: i.naturalHeight,
  }));
  const out = document.createElement("pre");
  out.id = "gt-image-report";
  out.textContent = JSON.stringify(report);
  document.body.appendChild(out);
});
</script>
"""


@pytest.fixture(scope="module")
def browser_images(workdir, page):
    """Loads the HTML export in headless Chromium and returns, in page
    order, what it reports for each <img>: whether it loaded and its
    decoded width and height."""
    if not os.access(CHROMIUM, os.X_OK):
        missing("chromium is not installed (Debian: chromium; scripts/setup.sh installs it)")
    checked = workdir / "browser.html"
    i = page.rindex("</body>")
    checked.write_text(page[:i] + IMAGE_REPORT + page[i:])
    r = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={workdir / 'chromium'}",
         "--virtual-time-budget=20000", "--dump-dom", checked.as_uri()],
        capture_output=True, text=True, timeout=BROWSER_TIMEOUT,
    )
    m = re.search(r'<pre id="gt-image-report">(.*?)</pre>', r.stdout, re.S)
    assert r.returncode == 0 and m, f"chromium did not report the images (status {r.returncode}):\n{tail(r.stderr)}"
    return json.loads(html.unescape(m.group(1)))


def test_browser_loads_images(executed, browser_images):
    """Every image of the page loads in a real browser, and decodes to its
    size: each PNG to the size read from its bytes, each SVG to a drawing
    of some size."""
    pngs = [o.data["image/png"] for c in executed.cells for o in c.get("outputs", []) if "image/png" in o.get("data", {})]
    got_png = [i for i in browser_images if i["src"].startswith("data:image/png")]
    got_svg = [i for i in browser_images if i["src"].startswith("data:image/svg+xml")]
    assert len(got_png) == len(pngs) == 9 and len(got_svg) == 3, [i["src"] for i in browser_images]
    assert len(browser_images) == 12, [i["src"] for i in browser_images]
    for img, b64 in zip(got_png, pngs):
        assert img["complete"] and (img["width"], img["height"]) == png_size(b64), img
    for img in got_svg:
        assert img["complete"] and img["width"] > 0 and img["height"] > 0, img
