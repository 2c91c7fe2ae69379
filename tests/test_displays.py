"""The rich Jupyter display of every layout value of every form, of plans and of equivalence
answers: an HTML block whose SVG picture has one cell per tensor element with the right label."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

import linlayout
from linlayout import LinearLayout, draw
from converters import registry

SVG_NS = "{http://www.w3.org/2000/svg}"


def svg_cells(html: str) -> dict[tuple[int, int], str]:
    """(row, col) -> label of every cell of the (first) SVG picture in an HTML display."""
    m = re.search(r"<svg.*?</svg>", html, re.S)
    assert m, "the display has no SVG picture"
    root = ET.fromstring(m.group(0))
    cells: dict[tuple[int, int], str] = {}
    last = None
    for el in root:
        if el.tag == SVG_NS + "rect" and "data-row" in el.attrib:
            last = (int(el.attrib["data-row"]), int(el.attrib["data-col"]))
            cells[last] = ""
        elif el.tag == SVG_NS + "text" and last is not None and cells[last] == "":
            cells[last] = el.text or ""
            last = None
    return cells


BLOCKED_IR = "#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>"

# text of a value in each form -> (expected grid shape, {(row, col): label})
CASES = {
    "gluon": ("BlockedLayout([1, 2], [8, 4], [1, 1], [1, 0])", (8, 8), {(0, 0): "T0:0", (0, 1): "T0:1", (0, 2): "T1:0", (1, 0): "T4:0"}),
    "cute layout": ("(4,8):(8,1)", (4, 8), {(0, 0): "0", (1, 0): "8", (3, 7): "31"}),
    "cute composed": ("S<1,0,3> o 0 o (4,8):(8,1)", (4, 8), {(0, 0): "0", (1, 0): "9", (1, 1): "8"}),
    "cute tv": ("((4,8),(2,2)):((32,1),(16,8)) -> (16,8)", (16, 8), {}),
    "tirx": ("S[(4,32):(1@warpid,1@laneid)] shape=(128)", (4, 32), {(0, 0): "T0:0", (0, 1): "T1:0", (1, 0): "T32:0"}),
    "tilus": ("local(2,1).spatial(8,4).local(1,2)", (16, 8), {(0, 0): "T0:0", (0, 1): "T0:1", (0, 2): "T1:0", (1, 0): "T4:0", (8, 0): "T0:2"}),
    "mlir attribute": (BLOCKED_IR, (8, 8), {(0, 0): "T0:0", (1, 0): "T4:0"}),
    "mlir tensor": (f"tensor<8x8xf16, {BLOCKED_IR}>", (8, 8), {(0, 2): "T1:0"}),
    "mlir memdesc": ("!ttg.memdesc<16x16xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, "
                     "#ttg.shared_memory, mutable>", (16, 16), {(0, 0): "0", (0, 1): "1", (1, 0): "16"}),
    "linear": ("LinearLayout({'register': [[1]], 'lane': [[2], [4]]}, ['dim0'])", None, None),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_form_draws_itself(name):
    text, shape, labels = CASES[name]
    if shape is None:  # the core's own value
        value = LinearLayout({"register": [[1]], "lane": [[2], [4]]}, {"dim0": 8})
        shape, labels = (1, 8), {(0, 0): "T0:0", (0, 1): "T0:1", (0, 2): "T1:0"}
    else:
        _, value = registry.load(text)
    html = value._repr_html_()
    assert html.startswith("<div class='linlayout'>")
    cells = svg_cells(html)
    assert max(cells)[0] + 1 == shape[0] and max(c for _, c in cells) + 1 == shape[1]
    assert len(cells) == shape[0] * shape[1] and all(cells.values())  # every element drawn and labelled
    for rc, label in labels.items():
        assert cells[rc] == label, (rc, cells[rc], label)
    # the labels are the same as the text grid's: one picture, several renderings
    pic = draw.layout_picture(value, draw.natural_shape(value))
    assert [[cells[(r, c)] for c in range(shape[1])] for r in range(shape[0])] == pic.labels()


def test_tv_layout_cells_are_its_threads():
    _, tv = registry.load(CASES["cute tv"][0])
    cells = svg_cells(tv._repr_html_())
    L = linlayout.as_linear(tv)
    for (r, c), label in list(cells.items())[:40]:
        thread, reg = (int(x) for x in label[1:].split("|")[0].split(":"))
        lane, warp = thread % 32, thread // 32
        hits = [x for x in range(L.in_dim_size("register")) if L(register=x, lane=lane, warp=warp) == {"dim0": r, "dim1": c}]
        assert reg in hits


def test_a_shapeless_or_non_linear_value_says_why():
    _, slc = registry.load("SliceLayout(1, BlockedLayout([1,1],[32,1],[4,1],[1,0]))")
    html = slc._repr_html_()
    assert "no picture" in html and "shape" in html  # how to give a shape, instead of nothing
    _, acc = registry.load("S[(128,224):(1@TLane,1@TCol)] shape=(128,224)")
    html = acc._repr_html_()
    assert "not GF(2)-linear" in html and html.count("power-of-two piece") >= 1
    assert "dim1&#x27;: 128}" in html and "dim1&#x27;: 192}" in html  # the 128 + 64 + 32 column pieces


def test_plan_and_equivalence_display():
    src = registry.load("BlockedLayout([1,1],[1,32],[1,4],[1,0])")[1]
    dst = registry.load("BlockedLayout([1,1],[32,1],[4,1],[0,1])")[1]
    plan = linlayout.plan_conversion(src, dst, shape=[128, 128], bitwidth=16)
    html = plan._repr_html_()
    assert "shared_memory" in html and "<td>st.shared</td>" in html and "32768" in html
    multi = linlayout.cheapest_path(src.to_linear([128, 128]), dst.to_linear([128, 128]), {"mid": src.to_linear([128, 128])},
                                    bitwidth=16)._repr_html_()
    assert "src -&gt; dst" in multi and "<td>st.shared</td>" in multi
    a = registry.load("BlockedLayout([1],[32],[4],[0])")[1]
    b = registry.load("BlockedLayout([1],[16],[4],[0])")[1]
    same = linlayout.equivalent(a, a, shape=[128])._repr_html_()
    diff = linlayout.equivalent(a, b, shape=[128])._repr_html_()
    assert "EQUIVALENT" in same and "DIFFERENT" in diff and "{&#x27;lane&#x27;: 16}" in diff


def test_large_pictures_stay_legible():
    """At 64 x 64 and beyond: the PNG's labels fit their cells (font from the cell size) or are
    left out with a legend; the SVG switches to colour-only cells with tooltips above 64 x 64."""
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    mma = registry.load("NVMMADistributedLayout([2, 0], [4, 1], [16, 8])")[1]
    pic = draw.layout_picture(mma, [64, 64])
    assert max(len(x) for row in pic.labels() for x in row) >= 6  # e.g. T100:10
    fig = pic.draw()
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    cell_px = ax.transData.transform((1, 0))[0] - ax.transData.transform((0, 0))[0]
    assert ax.texts, "a 64 x 64 picture keeps its labels"
    widest = max(t.get_window_extent(renderer).width for t in ax.texts)
    assert widest <= cell_px, (widest, cell_px)
    big = draw.layout_picture(mma, [128, 128]).to_svg()
    assert big.count("<rect ") == 128 * 128 and big.count("<title>") == 128 * 128 and "labels omitted" in big


def test_hardware_view_is_per_thread():
    _, b = registry.load("BlockedLayout([2,4],[16,2],[2,2],[1,0])")
    hw = draw.layout_picture(b, [64, 16], style="hardware")
    grid = draw.layout_picture(b, [64, 16])
    assert hw.shape == (128, 8) and grid.shape == (64, 16)  # threads x registers vs the tensor
    assert hw.row_labels[:2] == ["T0", "T1"] and hw.labels()[1][0] == "(0,4)"
    assert draw.to_svg(b, [64, 16], style="hardware") != draw.to_svg(b, [64, 16])


def test_ipython_displays_planning_values_imported_directly():
    """In a running IPython, a Plan imported straight from linlayout.plan (the package attached
    nothing yet: planning loads on first use) still displays as HTML."""
    pytest.importorskip("IPython")
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "shell = InteractiveShell.instance()\n"
        "import linlayout\n"
        "from linlayout.plan import plan_conversion\n"
        "from linlayout.linear import LinearLayout\n"
        "L = LinearLayout.identity_1d(32, 'lane', 'dim0')\n"
        "data, _ = shell.display_formatter.format(plan_conversion(L, L))\n"
        "print('<div class=' in data.get('text/html', ''))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       cwd=Path(__file__).resolve().parents[1])
    assert r.stdout.strip().endswith("True"), r.stderr
