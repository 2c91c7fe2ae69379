"""Pictures: text grids, SVG and PNG cells (labels and colors), the bank view, Jupyter hooks."""

from __future__ import annotations

import re

import pytest

from linlayout import LayoutError, LinearLayout
from linlayout import draw
from linlayout.app.space import spelling_to_linear

# BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0]) on [64, 16]: the seed example of Gluon's docs.
BLOCKED = {"kind": "BlockedLayout", "size_per_thread": [2, 4], "threads_per_warp": [16, 2], "warps_per_cta": [2, 2], "order": [1, 0], "cga_layout": []}


@pytest.fixture(scope="module")
def blocked():
    return spelling_to_linear(BLOCKED, [64, 16])


def test_text_grid_gluon_and_tilus_styles(blocked):
    p = draw.layout_picture(blocked)
    assert p.shape == (64, 16)
    lab = p.labels()
    # thread 0 holds a 2x4 block: registers 0..3 along the row, 4..7 on the next row
    assert lab[0][:4] == ["T0:0", "T0:1", "T0:2", "T0:3"]
    assert lab[1][:4] == ["T0:4", "T0:5", "T0:6", "T0:7"]
    assert lab[0][4] == "T1:0"  # the next lane along dim1 (threads_per_warp[1] = 2)
    assert lab[2][0] == "T2:0"  # lanes 2, 4, ... go down dim0
    assert lab[0][8] == "T32:0"  # warp 1 sits to the right (warps_per_cta = [2, 2], order [1, 0])
    assert lab[32][0] == "T64:0"  # warp 2 below
    text = draw.text_grid(blocked, style="tilus")
    assert text.splitlines()[1].split()[1:3] == ["0:", "0"]
    assert "T33:7" in draw.text_grid(blocked)


def test_broadcast_shows_every_copy(blocked):
    small = spelling_to_linear(BLOCKED, [32, 8])  # each warp pair holds a full copy
    lab = draw.layout_picture(small).labels()
    assert lab[0][0] == "T0:0|T32:0|T64:0|T96:0"
    assert draw.layout_picture(small, max_replicas=2).labels()[0][0] == "T0:0|T32:0|+2"


def test_hardware_view(blocked):
    hw = draw.hardware_picture(blocked)
    assert hw.shape == (128, 8)
    assert hw.labels()[0] == ["(0,0)", "(0,1)", "(0,2)", "(0,3)", "(1,0)", "(1,1)", "(1,2)", "(1,3)"]
    assert hw.labels()[33][0] == "(0,12)"
    assert draw.hardware_view(blocked).splitlines()[1].startswith("T0 ")


def _svg_cells(svg: str) -> dict[tuple[int, int], tuple[str, str]]:
    cells = {}
    for m in re.finditer(r'<rect [^>]*fill="(#[0-9a-f]{6})" data-row="(\d+)" data-col="(\d+)"/>\n<text [^>]*>([^<]*)</text>', svg):
        cells[(int(m.group(2)), int(m.group(3)))] = (m.group(1), m.group(4))
    return cells


def test_svg_cells_colored_by_thread(blocked, tmp_path):
    svg = draw.to_svg(blocked)
    cells = _svg_cells(svg)
    assert len(cells) == 64 * 16
    assert cells[(0, 0)] == (draw.thread_color(0), "T0:0")
    assert cells[(1, 3)] == (draw.thread_color(0), "T0:7")
    assert cells[(0, 4)] == (draw.thread_color(1), "T1:0")
    assert cells[(32, 8)] == (draw.thread_color(96), "T96:0")
    assert draw.thread_color(0) != draw.thread_color(1) != draw.thread_color(96)
    draw.save(blocked, str(tmp_path / "b.svg"))
    assert (tmp_path / "b.svg").read_text() == svg


def test_png_pixels_match_cell_colors(tmp_path):
    import matplotlib as mpl
    mpl.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.colors import to_rgb

    L = LinearLayout({"register": [[0, 1]], "lane": [[0, 2], [1, 0]]}, {"dim0": 2, "dim1": 4})
    pic = draw.layout_picture(L)
    fig = pic.draw()
    fig.canvas.draw()
    ax = fig.axes[0]
    img = np.asarray(fig.canvas.buffer_rgba())[..., :3] / 255.0
    h = img.shape[0]
    for (r, c), t in {(0, 0): 0, (0, 2): 1, (1, 0): 2, (1, 3): 3}.items():
        x, y = ax.transData.transform((c + 0.12, r + 0.15))
        px = img[int(round(h - y)), int(round(x))]
        assert np.allclose(px, to_rgb(draw.thread_color(t)), atol=0.03), (r, c, px)
    assert [t.get_text() for t in ax.texts][:3] == ["T0:0", "T0:1", "T1:0"]
    plt.close(fig)
    draw.save(L, str(tmp_path / "l.png"))
    assert (tmp_path / "l.png").read_bytes()[:4] == b"\x89PNG"


def test_shared_and_function_pictures():
    # a row-major 4x4 shared layout: offset -> (dim0, dim1)
    sh = LinearLayout({"offset": [[0, 1], [0, 2], [1, 0], [2, 0]]}, {"dim0": 4, "dim1": 4})
    assert draw.layout_picture(sh).labels()[1] == ["4", "5", "6", "7"]
    # the CuTe direction: coordinates -> offset, (4,8):(8,1)
    f = LinearLayout({"dim0": [[8], [16]], "dim1": [[1], [2], [4]]}, {"offset": 32})
    assert draw.layout_picture(f).labels()[1][:3] == ["8", "9", "10"]


def test_bank_view_fp16_8x64():
    # (8, 64) float16 stored row-major: column 0 lives in bank 0 of every line (8-way conflict).
    bits = [[0, 1 << i] for i in range(6)] + [[1 << i, 0] for i in range(3)]
    rowmajor = LinearLayout({"offset": bits}, {"dim0": 8, "dim1": 64})
    col0 = [(i, 0) for i in range(8)]
    p = draw.bank_picture(rowmajor, 16, access=col0)
    assert p.shape == (8, 32)
    assert p.labels()[0][0] == "0,0+" and p.labels()[3][1] == "3,2+"
    assert [p.cells[i][0].color for i in range(8)] == [draw.HIGHLIGHT] * 8
    assert "8-way conflict" in p.title
    # Swizzle<3,3,3> in elements: bits 6..8 of the offset XOR into bits 3..5
    sw = []
    for i in range(9):
        v = 1 << i
        v ^= ((v >> 6) & 7) << 3
        sw.append(v)
    inv = LinearLayout({"offset": [[0, 1 << i] for i in range(6)] + [[1 << i, 0] for i in range(3)]}, {"dim0": 8, "dim1": 64})
    # offset o holds element rowmajor(swizzle(o)); swizzle is an involution
    swizzled = LinearLayout({"offset": [[(v >> 6) & 7, v & 63] for v in sw]}, {"dim0": 8, "dim1": 64})
    del inv
    q = draw.bank_picture(swizzled, 16, access=col0)
    assert "conflict-free" in q.title
    hit_banks = sorted(b for r in range(8) for b in range(32) if q.cells[r][b].color == draw.HIGHLIGHT)
    assert hit_banks == list(range(0, 32, 4))
    assert draw.bank_picture(swizzled, 16).to_text().startswith("line x bank (16-bit elements)")


def test_bad_input():
    L = LinearLayout({"lane": [[1]]}, {"dim0": 2})
    with pytest.raises(LayoutError):
        draw.layout_picture(L, style="cute")
    with pytest.raises(LayoutError):
        draw.bank_picture(L, 16)
    with pytest.raises(LayoutError):
        draw.hardware_view(LinearLayout({"offset": [[1]]}, {"dim0": 2}))
    with pytest.raises(LayoutError, match="at most"):
        draw.layout_picture(LinearLayout.identity_1d(1 << 20, "lane", "dim0"))
    with pytest.raises(LayoutError):
        draw.text_grid(object())


def test_jupyter_hooks():
    L = LinearLayout.identity_1d(8, "lane", "dim0")
    assert draw.linear_layout_svg(L).startswith("<svg")
    assert "<table" in draw.linear_layout_html(L) and "<svg" in draw.linear_layout_html(L)
    big = LinearLayout.identity_1d(1 << 14, "lane", "dim0")
    assert draw.linear_layout_svg(big) is None
    assert "<svg" not in draw.linear_layout_html(big)
