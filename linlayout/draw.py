"""Pictures of layouts: text grids, SVG/PNG drawings, and the shared-memory line x bank view.

Every picture starts from a :class:`Picture`: a grid of cells, each with a label and a color.
A *distributed* layout (in-dims ``register``/``lane``/``warp``/``block``, out-dims ``dim0``, ...)
becomes a grid over the tensor's elements, each cell labelled with the thread and register that hold
it and colored by thread (as CuTe's ``print_svg``); a shared-memory layout (in-dim ``offset``) shows
the offset of each element; a layout written the CuTe way (in-dims ``dim0``, ``dim1`` -> an
``offset``) shows its value at each coordinate.

    >>> from linlayout import LinearLayout
    >>> L = LinearLayout({"register": [[0, 1]], "lane": [[0, 2], [1, 0]]}, {"dim0": 2, "dim1": 4})
    >>> print(text_grid(L))
          0     1     2     3
    0  T0:0  T0:1  T1:0  T1:1
    1  T2:0  T2:1  T3:0  T3:1
    cell = T<thread>:<register> that holds the element (thread = lane); a|b = broadcast copies, +n = n more, B<b> = CTA b
    >>> print(text_grid(L, style="tilus").splitlines()[1])
    0  0: 0  0: 1  1: 0  1: 1
    >>> print(hardware_view(L))
           R0     R1
    T0  (0,0)  (0,1)
    T1  (0,2)  (0,3)
    T2  (1,0)  (1,1)
    T3  (1,2)  (1,3)
    row T<t> = thread t (thread = lane), column R<r> = register r; cell = the tensor coordinate it holds
    >>> svg = to_svg(L)
    >>> svg.startswith("<svg") and 'data-row="1" data-col="3"' in svg
    True

Every picture carries a one-line legend (:data:`LEGENDS`) saying what its cells mean.  Drawn
pictures need no plotting library for SVG (:func:`to_svg`); PNG and interactive figures
(:func:`draw`, :func:`save` with ``.png``) use matplotlib, imported only when called (without it,
one line says to install the ``draw`` extra).  Pictures above 64 x 64 cells stay legible: PNG
labels take the font that fits a cell (or are left out), SVG cells turn colour-only with the label
in a tooltip.

In Jupyter every layout value of every form (the converters attach :func:`layout_html` to their
classes with :func:`attach_displays`), every plan (:func:`plan_html`) and every equivalence answer
(:func:`equivalence_html`) draws itself.
"""

from __future__ import annotations

import colorsys
import html
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .checks import as_int, expect, is_pow2
from .errors import DimensionError, LayoutError, SizeError, UnsupportedError
from .limits import MAX_INT
from .contract import as_linear
from .linear import LinearLayout

__all__ = [
    "Cell",
    "Picture",
    "thread_color",
    "layout_picture",
    "text_grid",
    "hardware_view",
    "to_svg",
    "draw",
    "save",
    "bank_picture",
    "linear_layout_svg",
    "linear_layout_html",
    "layout_svg",
    "layout_html",
    "plan_html",
    "equivalence_html",
    "attach_displays",
    "natural_shape",
    "require_matplotlib",
    "LEGENDS",
]

#: Largest number of cells a picture will hold (a 512 x 512 tile); bigger layouts are refused.
MAX_CELLS = 1 << 18
#: ``_repr_svg_`` / ``_repr_html_`` draw layouts up to this many cells, and stay silent above.
MAX_REPR_CELLS = 4096

#: SVG pictures with more cells than this (a 64 x 64 tile) draw colour-only cells, the label in a tooltip
MAX_LABELLED_CELLS = 4096
#: a 1-D layout longer than this is folded into rows of :data:`FOLD` elements
FOLD = 32

_DISTRIBUTED_DIMS = ("register", "lane", "warp", "block")

#: one-line legends: what a cell of each kind of picture shows
LEGENDS = {
    "gluon": "cell = T<thread>:<register> that holds the element ({thread}); a|b = broadcast copies, +n = n more, B<b> = CTA b",
    "tilus": "cell = <thread>: <register> that holds the element ({thread}); a|b = broadcast copies, +n = n more",
    "shared": "cell = shared-memory offset (in elements) of the element; colour = its bank{bits}",
    "tmem": "cell = tensor-memory row,col (lane, column) holding the element; +n = n more copies",
    "function": "cell = the layout's value at that coordinate (a CuTe layout: the offset of coordinate (row, col))",
    "generic": "cell = the inputs ({ins}) that land on the element",
    "hardware": "row T<t> = thread t ({thread}), column R<r> = register r; cell = the tensor coordinate it holds",
    "bank": "row L<n> = 128-byte line, column = bank (4-byte word); cell = coordinate of the word's first element, + = more elements share the word, * = read by the access",
}


def _thread_formula(L: LinearLayout) -> str:
    if L.has_in_dim("warp") and L.in_dim_size("warp") > 1:
        return f"thread = lane + {L.in_dim_size('lane') if L.has_in_dim('lane') else 1} * warp"
    return "thread = lane"


def require_matplotlib(what: str) -> None:
    """Raise a one-line :class:`~linlayout.errors.UnsupportedError` naming the extra to install
    when matplotlib is missing (SVG pictures need nothing)."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise UnsupportedError(f"{what} needs matplotlib, which is not installed; install it with: pip install 'linlayout[draw]' "
                               "(or write an .svg, which needs nothing)")


# --------------------------------------------------------------------------------------- colors


def thread_color(index: int) -> str:
    """The pastel color of thread (or bank, or row) ``index`` as ``#rrggbb``.

    Hues are spread by the golden ratio, so neighbouring threads get clearly different colors and
    the same thread always gets the same color.

        >>> thread_color(0)
        '#f0a8a8'
        >>> thread_color(1) != thread_color(0) and thread_color(33) != thread_color(1)
        True
    """
    index = as_int(index, "thread_color: index", LayoutError)
    if index < 0 or index > MAX_INT:
        raise LayoutError(f"thread_color: index must be in [0, 2**62), got {index if index.bit_length() < 200 else 'a huge int'}")
    hue = (index * 0.6180339887498949) % 1.0
    light = 0.80 if (index // 8) % 2 == 0 else 0.70
    r, g, b = colorsys.hls_to_rgb(hue, light, 0.70)
    return "#{:02x}{:02x}{:02x}".format(round(r * 255), round(g * 255), round(b * 255))


HIGHLIGHT = "#e8453c"  #: fill of highlighted cells (an access pattern in the bank view)
EMPTY = "#ffffff"  #: fill of cells no input reaches


# -------------------------------------------------------------------------------------- picture


@dataclass
class Cell:
    """One cell of a :class:`Picture`: its text and fill color (``#rrggbb``).

        >>> Cell("T0:0", "#ffffff").label
        'T0:0'
    """

    label: str
    color: str = EMPTY
    bold: bool = False


@dataclass
class Picture:
    """A grid of labelled, colored cells with row and column headers.

    ``cells[r][c]`` is a :class:`Cell`.  Render it as text (:meth:`to_text`), SVG (:meth:`to_svg`),
    or with matplotlib (:meth:`draw`, :meth:`save`).  In Jupyter it shows itself as SVG.

        >>> p = Picture([[Cell("a", "#ff0000"), Cell("b")]], title="tiny")
        >>> p.shape
        (1, 2)
        >>> print(p.to_text())
        tiny
           0  1
        0  a  b
    """

    cells: list[list[Cell]]
    title: str = ""
    row_labels: list[str] | None = None
    col_labels: list[str] | None = None
    legend: str = ""
    #: machine-readable facts about the picture (e.g. the bank view's conflict count)
    info: dict = field(default_factory=dict)

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self.cells), len(self.cells[0]) if self.cells else 0)

    def _headers(self) -> tuple[list[str], list[str]]:
        rows, cols = self.shape
        rl = self.row_labels if self.row_labels is not None else [str(r) for r in range(rows)]
        cl = self.col_labels if self.col_labels is not None else [str(c) for c in range(cols)]
        return rl, cl

    def labels(self) -> list[list[str]]:
        """The cell labels as a list of rows.

            >>> Picture([[Cell("x"), Cell("y")]]).labels()
            [['x', 'y']]
        """
        return [[c.label for c in row] for row in self.cells]

    def colors(self) -> list[list[str]]:
        """The cell fill colors as a list of rows."""
        return [[c.color for c in row] for row in self.cells]

    # ------------------------------------------------------------------ text
    def to_text(self) -> str:
        """An aligned text table with row and column headers, the title and the legend; a
        highlighted (bold) cell is marked ``*``."""
        rl, cl = self._headers()
        labels = [[("*" if c.bold else "") + c.label for c in row] for row in self.cells]
        width = max([len(x) for row in labels for x in row] + [len(x) for x in cl] + [1])
        rw = max([len(x) for x in rl] + [1])
        lines = []
        if self.title:
            lines.append(self.title)
        lines.append(" " * rw + "".join("  " + x.rjust(width) for x in cl))
        for name, row in zip(rl, labels):
            lines.append(name.ljust(rw) + "".join("  " + x.rjust(width) for x in row))
        if self.legend:
            lines.append(self.legend)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()

    # ------------------------------------------------------------------- svg
    def to_svg(self, cell_width: int | None = None, cell_height: int = 22, font_size: int = 11) -> str:
        """An SVG document (a string).  Each cell is a ``<rect>`` with ``data-row``/``data-col``
        attributes and its fill color, followed by a ``<text>`` with its label.

            >>> s = Picture([[Cell("T0:0", "#abcdef")]]).to_svg()
            >>> '<rect x="' in s and 'fill="#abcdef" data-row="0" data-col="0"' in s and ">T0:0</text>" in s
            True
        """
        rows, cols = self.shape
        rl, cl = self._headers()
        compact = rows * cols > MAX_LABELLED_CELLS
        if compact:  # colour-only cells: labels would not fit; the legend says what colours mean
            cell_height, font_size = 10, 9
            cl = [x if c % 8 == 0 else "" for c, x in enumerate(cl)]
            rl = [x if r % 8 == 0 else "" for r, x in enumerate(rl)]
        longest = max([len(c.label) for row in self.cells for c in row] + [len(x) for x in cl] + [1]) if not compact else 0
        cw = cell_width or (10 if compact else max(28, int(longest * font_size * 0.62) + 8))
        ch = cell_height
        left = max(24, int(max(len(x) for x in rl) * font_size * 0.62) + 10) if rl else 24
        top = ch + (ch if self.title else 0)
        width = left + cols * cw + 4
        height = top + rows * ch + 4 + (24 if self.legend or compact else 0)
        width = max(width, int(len(self.legend) * font_size * 0.62) + 80 if self.legend else 0)
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="monospace" font-size="{font_size}">'
        ]
        if self.title:
            out.append(f'<text x="2" y="{ch - 6}" font-weight="bold">{html.escape(self.title)}</text>')
        hy = top - 6
        for c, name in enumerate(cl):
            out.append(f'<text x="{left + c * cw + cw // 2}" y="{hy}" text-anchor="middle" fill="#555">{html.escape(name)}</text>')
        for r, name in enumerate(rl):
            out.append(f'<text x="{left - 4}" y="{top + r * ch + ch // 2 + 4}" text-anchor="end" fill="#555">{html.escape(name)}</text>')
        for r, row in enumerate(self.cells):
            y = top + r * ch
            for c, cell in enumerate(row):
                x = left + c * cw
                stroke = ' stroke="#000" stroke-width="2"' if cell.bold else ' stroke="#666" stroke-width="0.5"'
                tip = f"<title>{html.escape(cell.label)}</title>" if compact and cell.label else ""
                out.append(
                    f'<rect x="{x}" y="{y}" width="{cw}" height="{ch}"{stroke} '
                    f'fill="{cell.color}" data-row="{r}" data-col="{c}"' + (f">{tip}</rect>" if tip else "/>")
                )
                if cell.label and not compact:
                    weight = ' font-weight="bold"' if cell.bold else ""
                    out.append(
                        f'<text x="{x + cw // 2}" y="{y + ch // 2 + 4}" text-anchor="middle"{weight}>'
                        f"{html.escape(cell.label)}</text>"
                    )
        legend = self.legend + (" (labels omitted at this size; hover a cell for it)" if compact else "")
        if legend:
            out.append(f'<text x="2" y="{top + rows * ch + 18}" fill="#333">{html.escape(legend)}</text>')
        out.append("</svg>")
        return "\n".join(out)

    def _repr_svg_(self) -> str | None:
        rows, cols = self.shape
        return self.to_svg() if rows * cols <= MAX_REPR_CELLS else None

    # ------------------------------------------------------------ matplotlib
    def draw(self, ax: Any = None, *, labels: bool | None = None, font_size: float | None = None) -> Any:
        """Draw with matplotlib on ``ax`` (a new figure if None); returns the figure.

        Cell ``(r, c)`` covers data coordinates ``[c, c+1] x [r, r+1]`` (row 0 at the top).
        ``labels`` defaults to True when the grid has at most 4096 cells.
        """
        require_matplotlib("drawing a picture")
        if ax is None:
            import matplotlib.pyplot as plt

            rows, cols = self.shape
            fig, ax = plt.subplots(figsize=(min(2 + cols * 0.55, 40), min(1 + rows * 0.32, 40)))
        else:
            fig = ax.figure
        from matplotlib.colors import to_rgb

        rows, cols = self.shape
        img = np.array([[to_rgb(c.color) for c in row] for row in self.cells]).reshape(rows, cols, 3)
        ax.imshow(img, extent=(0, cols, rows, 0), interpolation="nearest", aspect="auto")
        longest = max(1, max(len(c.label) for row in self.cells for c in row))
        # the font that fits a cell: its size in points, from the axes' size on the figure
        box = ax.get_position()
        cell_w = fig.get_figwidth() * box.width * 72 / max(1, cols)
        cell_h = fig.get_figheight() * box.height * 72 / max(1, rows)
        fs = font_size or min(9.0, cell_w / (0.62 * longest), cell_h * 0.75)
        if labels is None:
            labels = rows * cols <= MAX_REPR_CELLS and fs >= 4.0
        if labels:
            for r, row in enumerate(self.cells):
                for c, cell in enumerate(row):
                    if cell.label:
                        ax.text(c + 0.5, r + 0.5, cell.label, ha="center", va="center", fontsize=fs,
                                fontweight="bold" if cell.bold else "normal")
        if rows * cols <= MAX_REPR_CELLS:
            ax.set_xticks(np.arange(cols) + 0.5)
            ax.set_yticks(np.arange(rows) + 0.5)
            rl, cl = self._headers()
            ax.set_xticklabels(cl, fontsize=7)
            ax.set_yticklabels(rl, fontsize=7)
            ax.set_xticks(np.arange(cols + 1), minor=True)
            ax.set_yticks(np.arange(rows + 1), minor=True)
            ax.grid(which="minor", color="#666", linewidth=0.4)
            ax.tick_params(which="minor", length=0)
        ax.xaxis.tick_top()
        if self.title:
            ax.set_title(self.title, fontsize=10)
        legend = self.legend + ("" if labels else " (labels omitted at this size: colour only)")
        if legend.strip():
            ax.set_xlabel(legend.strip(), fontsize=8)
        return fig

    def save(self, path: str, *, dpi: int = 100) -> None:
        """Write to ``path``: ``.svg`` uses :meth:`to_svg` (no matplotlib), anything else
        (``.png``, ``.pdf``) is drawn with matplotlib."""
        if str(path).lower().endswith(".svg"):
            with open(path, "w", encoding="utf-8") as f:
                f.write(self.to_svg())
            return
        require_matplotlib(f"writing {path}")
        import matplotlib

        if "pyplot" not in getattr(matplotlib, "__dict__", {}):
            matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt

        fig = self.draw()
        fig.savefig(path, dpi=dpi, bbox_inches="tight")
        plt.close(fig)


# --------------------------------------------------------------------------------- layouts


def _kind(L: LinearLayout) -> str:
    ins = set(L.in_dim_names)
    outs = L.out_dim_names
    if ins & {"register", "lane", "warp"}:
        return "distributed"
    if "offset" in ins:
        return "shared"
    if {"row", "col"} <= ins:
        return "tmem"
    if outs and all(o.startswith("dim") for o in outs):
        return "generic"
    if L.in_dim_names and all(i.startswith("dim") for i in L.in_dim_names):
        return "function"
    return "generic"


def _grid_shape(sizes: Sequence[int]) -> tuple[int, int]:
    if not sizes:
        return (1, 1)
    if len(sizes) == 1:
        n = sizes[0]
        return (n // FOLD, FOLD) if n > 2 * FOLD and n % FOLD == 0 else (1, n)
    return (int(np.prod(sizes[:-1])), sizes[-1])


def _row_labels(sizes: Sequence[int], rows: int, cols: int) -> list[str] | None:
    """Row headers of a folded 1-D grid: the index of each row's first element."""
    if len(sizes) == 1 and rows > 1:
        return [str(r * cols) for r in range(rows)]
    return None


def _coord_str(flat: int, sizes: Sequence[int]) -> str:
    coords = []
    for s in reversed(sizes):
        coords.append(flat % s)
        flat //= s
    return "(" + ",".join(str(c) for c in reversed(coords)) + ")"


def _inputs(L: LinearLayout) -> dict[str, np.ndarray]:
    """Per in-dim, its value at every flat input (first in-dim in the lowest bits)."""
    n = L.total_in_size
    k = np.arange(n, dtype=np.int64)
    out = {}
    shift = 0
    for name in L.in_dim_names:
        b = L.in_dim_size_log2(name)
        out[name] = (k >> shift) & ((1 << b) - 1)
        shift += b
    return out


def _elements(L: LinearLayout) -> np.ndarray:
    """Row-major flat element index (over the out-dims, first out-dim slowest) of every input."""
    t = L.table()
    flat = np.zeros(t.shape[0], dtype=np.int64)
    for k, name in enumerate(L.out_dim_names):
        flat = flat * L.out_dim_size(name) + t[:, k]
    return flat


def _check_cells(n: int) -> None:
    if n > MAX_CELLS:
        raise SizeError(f"the picture would have {n} cells; at most {MAX_CELLS} can be drawn (pass a smaller shape)")


def _owners(L: LinearLayout) -> tuple[dict[str, np.ndarray], list[list[int]]]:
    """(inputs, groups): ``groups[e]`` lists the flat inputs that land on element ``e``, ordered by
    (block, thread, register)."""
    total_out = int(np.prod([L.out_dim_size(o) for o in L.out_dim_names])) if L.out_dim_names else 1
    _check_cells(total_out)
    if L.total_in_size_log2 > 24:
        raise SizeError(f"the layout has 2**{L.total_in_size_log2} inputs; at most 2**24 can be drawn")
    ins = _inputs(L)
    elem = _elements(L)
    z = np.zeros_like(elem)
    lanes = L.in_dim_size("lane") if L.has_in_dim("lane") else 1
    thread = ins.get("lane", z) + lanes * ins.get("warp", z)
    order = np.lexsort((ins.get("register", z), thread, ins.get("block", z), elem))
    groups: list[list[int]] = [[] for _ in range(total_out)]
    for k in order.tolist():
        groups[int(elem[k])].append(k)
    return ins, groups


def _thread_of(ins: Mapping[str, np.ndarray], k: int, lanes: int) -> int:
    lane = int(ins["lane"][k]) if "lane" in ins else 0
    warp = int(ins["warp"][k]) if "warp" in ins else 0
    return lane + lanes * warp


def _bitwidth(bitwidth: Any, what: str) -> int:
    """An element width the pictures color by: a power of two from 8 to 1024 bits."""
    bitwidth = as_int(bitwidth, what)
    if not (is_pow2(bitwidth) and 8 <= bitwidth <= 1024):
        raise SizeError(f"{what} must be a power of two (8, 16, 32, 64), got {bitwidth}")
    return bitwidth


def layout_picture(
    layout: Any,
    shape: Sequence[int] | None = None,
    *,
    style: str = "gluon",
    max_replicas: int = 4,
    bitwidth: int | None = None,
    title: str | None = None,
) -> Picture:
    """The :class:`Picture` of a layout.

    * distributed layouts: a grid over the tensor (rows = ``dim0``, or every dim but the last
      flattened; columns = the last dim); each cell names the thread(s) and register holding the
      element, ``T{thread}:{register}`` (``style="gluon"``) or ``{thread}: {register}``
      (``style="tilus"``), broadcast copies joined by ``|``, colored by its first thread.  Thread ids
      are ``lane + lanes_per_warp * warp``; a ``block`` other than 0 prefixes ``B{block}``.
    * shared layouts (in-dim ``offset``): the offset of each element, colored by its bank when
      ``bitwidth`` is given (by the offset otherwise).
    * tensor-memory layouts (in-dims ``row``, ``col``): ``row,col`` of each element.
    * layouts over coordinates (in-dims ``dim0, dim1, ...``, as CuTe's): the value at each coordinate.

        >>> L = LinearLayout({"lane": [[0, 1], [1, 0]], "warp": [[0, 0]]}, {"dim0": 2, "dim1": 2})
        >>> layout_picture(L).labels()
        [['T0:0|T4:0', 'T1:0|T5:0'], ['T2:0|T6:0', 'T3:0|T7:0']]
        >>> layout_picture(L).cells[0][1].color == thread_color(1)
        True
    """
    if not isinstance(style, str) or style not in ("gluon", "tilus", "hardware"):
        raise LayoutError(f"style must be 'gluon', 'tilus' or 'hardware', got {style!r:.80}")
    max_replicas = as_int(max_replicas, "layout_picture: max_replicas", LayoutError)
    if max_replicas < 0:
        raise LayoutError(f"layout_picture: max_replicas must be >= 0, got {max_replicas}")
    if bitwidth is not None:
        bitwidth = _bitwidth(bitwidth, "layout_picture: bitwidth")
    if title is not None and not isinstance(title, str):
        raise LayoutError(f"layout_picture: title must be text, got {type(title).__name__} {title!r:.80}")
    if style == "hardware":
        return hardware_picture(layout, shape)
    L = as_linear(layout, shape)
    kind = _kind(L)
    if kind == "function":
        return _function_picture(L, title=title)
    sizes = [L.out_dim_size(o) for o in L.out_dim_names]
    rows, cols = _grid_shape(sizes)
    ins, groups = _owners(L)
    lanes = L.in_dim_size("lane") if L.has_in_dim("lane") else 1
    cells: list[list[Cell]] = [[Cell("", EMPTY) for _ in range(cols)] for _ in range(rows)]
    for e, ks in enumerate(groups):
        if not ks:
            continue
        parts = []
        color = EMPTY
        if kind == "distributed":
            for j, k in enumerate(ks):
                if j == max_replicas:
                    parts.append(f"+{len(ks) - max_replicas}")
                    break
                t = _thread_of(ins, k, lanes)
                reg = int(ins["register"][k]) if "register" in ins else 0
                blk = int(ins["block"][k]) if "block" in ins else 0
                pre = f"B{blk}" if blk else ""
                parts.append(f"{pre}T{t}:{reg}" if style == "gluon" else f"{pre}{t}: {reg}")
            color = thread_color(_thread_of(ins, ks[0], lanes))
        elif kind == "shared":
            seen = []
            for k in ks:
                o = int(ins["offset"][k])
                if o not in seen:
                    seen.append(o)
            parts = [str(o) for o in seen[:max_replicas]] + ([f"+{len(seen) - max_replicas}"] if len(seen) > max_replicas else [])
            if bitwidth:
                color = thread_color((seen[0] * bitwidth // 32) % 32)
            else:
                color = thread_color(seen[0] % 64)
        elif kind == "tmem":
            k = ks[0]
            parts = [f"{int(ins['row'][k])},{int(ins['col'][k])}"] + ([f"+{len(ks) - 1}"] if len(ks) > 1 else [])
            color = thread_color(int(ins["row"][k]) % 64)
        else:
            k = ks[0]
            parts = [",".join(str(int(ins[n][k])) for n in L.in_dim_names)] + ([f"+{len(ks) - 1}"] if len(ks) > 1 else [])
            color = thread_color(k % 64)
        cells[e // cols][e % cols] = Cell("|".join(parts), color)
    legend = LEGENDS[style if kind == "distributed" else kind].format(
        thread=_thread_formula(L), ins=", ".join(L.in_dim_names), bits=f" ({bitwidth}-bit elements)" if bitwidth else " (as if 32-bit)")
    return Picture(cells, title=title or "", row_labels=_row_labels(sizes, rows, cols), legend=legend)


def _function_picture(L: LinearLayout, title: str | None = None) -> Picture:
    sizes = [L.in_dim_size(n) for n in L.in_dim_names]
    rows, cols = _grid_shape(sizes)
    _check_cells(rows * cols)
    t = L.table()
    # table rows are flat inputs with the first in-dim fastest; the grid wants dim0 as rows.
    n_in = len(sizes)
    idx = np.arange(t.shape[0]).reshape(list(reversed(sizes))).transpose(list(reversed(range(n_in)))).reshape(-1)
    cells: list[list[Cell]] = []
    for r in range(rows):
        row = []
        for c in range(cols):
            vals = t[idx[r * cols + c]]
            label = ",".join(str(int(v)) for v in vals)
            row.append(Cell(label, thread_color(int(vals[0]) % 64 if len(vals) else 0)))
        cells.append(row)
    return Picture(cells, title=title or "", row_labels=_row_labels(sizes, rows, cols), legend=LEGENDS["function"])


def text_grid(layout: Any, shape: Sequence[int] | None = None, *, style: str = "gluon", max_replicas: int = 4) -> str:
    """The element grid of a layout as text (see :func:`layout_picture` for the cell format).

        >>> L = LinearLayout({"lane": [[1], [2]]}, {"dim0": 4})
        >>> print(text_grid(L))
              0     1     2     3
        0  T0:0  T1:0  T2:0  T3:0
        cell = T<thread>:<register> that holds the element (thread = lane); a|b = broadcast copies, +n = n more, B<b> = CTA b
    """
    return layout_picture(layout, shape, style=style, max_replicas=max_replicas).to_text()


def hardware_view(layout: Any, shape: Sequence[int] | None = None) -> str:
    """The hardware point of view: one row per thread (``T{thread}``, with ``B{block}`` when there
    are several blocks), one column per register, each cell the element coordinate it holds.

        >>> L = LinearLayout({"register": [[1]], "lane": [[2]]}, {"dim0": 4})
        >>> print(hardware_view(L).splitlines()[:3])
        ['     R0   R1', 'T0  (0)  (1)', 'T1  (2)  (3)']
    """
    return hardware_picture(layout, shape).to_text()


def hardware_picture(layout: Any, shape: Sequence[int] | None = None) -> Picture:
    """:func:`hardware_view` as a :class:`Picture` (rows = threads, columns = registers)."""
    L = as_linear(layout, shape)
    if _kind(L) != "distributed":
        raise UnsupportedError(
            f"the hardware view needs a distributed layout (in-dims register/lane/warp/block), got in-dims {list(L.in_dim_names)}"
        )
    regs = L.in_dim_size("register") if L.has_in_dim("register") else 1
    lanes = L.in_dim_size("lane") if L.has_in_dim("lane") else 1
    warps = L.in_dim_size("warp") if L.has_in_dim("warp") else 1
    blocks = L.in_dim_size("block") if L.has_in_dim("block") else 1
    threads = lanes * warps
    _check_cells(regs * threads * blocks)
    ins = _inputs(L)
    elem = _elements(L)
    sizes = [L.out_dim_size(o) for o in L.out_dim_names]
    z = np.zeros_like(elem)
    thread = ins.get("lane", z) + lanes * ins.get("warp", z)
    row = ins.get("block", z) * threads + thread
    grid = np.zeros((blocks * threads, regs), dtype=np.int64)
    grid[row, ins.get("register", z)] = elem
    cells = [[Cell(_coord_str(int(grid[r, c]), sizes), thread_color(r % threads)) for c in range(regs)] for r in range(blocks * threads)]
    row_labels = [(f"B{r // threads}" if blocks > 1 else "") + f"T{r % threads}" for r in range(blocks * threads)]
    return Picture(cells, row_labels=row_labels, col_labels=[f"R{c}" for c in range(regs)], legend=LEGENDS["hardware"].format(thread=_thread_formula(L)))


def to_svg(layout: Any, shape: Sequence[int] | None = None, **kwargs: Any) -> str:
    """An SVG picture of a layout (see :func:`layout_picture`), colored by thread with the
    register index in each cell, like CuTe's ``print_svg``.  Needs no plotting library.

        >>> s = to_svg(LinearLayout({"lane": [[1], [2]]}, {"dim0": 4}))
        >>> s.count("<rect ")
        4
    """
    return layout_picture(layout, shape, **kwargs).to_svg()


def draw(layout: Any, shape: Sequence[int] | None = None, ax: Any = None, **kwargs: Any) -> Any:
    """Draw a layout with matplotlib (on ``ax``, or a new figure); returns the figure."""
    return layout_picture(layout, shape, **kwargs).draw(ax)


def save(layout: Any, path: str, shape: Sequence[int] | None = None, **kwargs: Any) -> None:
    """Save a picture of a layout: ``.svg`` without matplotlib, ``.png``/``.pdf`` with it."""
    layout_picture(layout, shape, **kwargs).save(path)


# --------------------------------------------------------------------------------- bank view


def _access_test(access: Any, sizes: Sequence[int]):
    """A predicate on coordinates for an access pattern: a list of coordinates (checked against
    the tensor's shape) or a predicate itself."""
    if access is None:
        return lambda c: False
    if callable(access):
        return access
    out: set[tuple[int, ...]] = set()
    try:
        coords = [((int(c),) if isinstance(c, (int, np.integer)) else tuple(as_int(x, "an access coordinate", DimensionError) for x in c))
                  for c in access]
    except TypeError:
        raise DimensionError(f"access must be a list of coordinate tuples, got {type(access).__name__}") from None
    for coord in coords:
        if len(coord) != len(sizes) or any(not 0 <= x < s for x, s in zip(coord, sizes)):
            raise DimensionError(f"access coordinate {coord} is outside the tensor of shape {tuple(sizes)}")
        out.add(coord)
    return out.__contains__


def bank_picture(
    shared: Any,
    bitwidth: int,
    shape: Sequence[int] | None = None,
    *,
    access: Iterable[Sequence[int]] | Callable[[tuple[int, ...]], bool] | None = None,
    banks: int = 32,
    bank_bytes: int = 4,
    max_lines: int = 256,
) -> Picture:
    """The shared-memory line x bank view (the one bank picture: text, SVG, PNG, Jupyter): rows
    are 128-byte lines (``banks * bank_bytes``), columns are banks; each cell is one bank word and
    shows the tensor coordinate of its first element (``+`` when the word holds more), colored by
    the element's row (so a swizzle shows as a staircase).  Elements listed in ``access``
    (coordinates, e.g. one column read by a warp, or a predicate on a coordinate) are drawn in red
    and bold (``*`` in text); the title counts how many distinct words of one bank the access
    touches (1 = conflict-free), and ``info`` has it as numbers: ``ways``, ``banks`` (the banks
    touched), ``lines``.

    ``shared`` is a shared-memory layout (``offset`` -> ``dim0, dim1, ...`` as Triton's), or any
    form with ``to_linear(shape)``.

        >>> rowmajor = LinearLayout({"offset": [[0, 1], [0, 2], [1, 0], [2, 0]]}, {"dim0": 4, "dim1": 4})
        >>> p = bank_picture(rowmajor, 32, access=[(i, 0) for i in range(4)], banks=4)
        >>> p.labels()
        [['0,0', '0,1', '0,2', '0,3'], ['1,0', '1,1', '1,2', '1,3'], ['2,0', '2,1', '2,2', '2,3'], ['3,0', '3,1', '3,2', '3,3']]
        >>> p.title, p.info["ways"]
        ('line x bank (32-bit elements): up to 4 different words per bank (4-way conflict)', 4)
        >>> print(p.to_text().splitlines()[2])
        L0  *0,0   0,1   0,2   0,3
    """
    from .banks import check_bank_geometry, word_cells  # loaded on first use: import linlayout stays fast

    banks, bank_bytes = check_bank_geometry(banks, bank_bytes)
    max_lines = as_int(max_lines, "max_lines")
    L = as_linear(shared, shape)
    if not L.has_in_dim("offset"):
        raise UnsupportedError(f"the bank view needs a shared-memory layout with an 'offset' in-dim, got in-dims {list(L.in_dim_names)}")
    bitwidth = _bitwidth(bitwidth, "bitwidth")
    sizes = [L.out_dim_size(o) for o in L.out_dim_names]
    lines = max(1, -(-L.in_dim_size("offset") * bitwidth // 8 // (banks * bank_bytes)))
    if lines > max_lines:
        raise SizeError(f"the bank view would have {lines} lines; at most {max_lines} (pass max_lines=...)")
    hit_test = _access_test(access, sizes)
    cells = [[Cell("", EMPTY) for _ in range(banks)] for _ in range(lines)]
    touched: dict[int, set[int]] = {}
    for (line, bank), coords in word_cells(L, bitwidth, banks=banks, bank_bytes=bank_bytes).items():
        first = coords[0]
        label = ",".join(map(str, first)) + ("+" if len(coords) > 1 else "")
        hit = any(hit_test(c) for c in coords)
        cells[line][bank] = Cell(label, HIGHLIGHT if hit else thread_color(first[0] % 64), bold=hit)
        if hit:
            touched.setdefault(bank, set()).add(line)
    title = f"line x bank ({bitwidth}-bit elements)"
    info: dict[str, Any] = {"bitwidth": bitwidth, "lines": lines, "banks": sorted(touched), "ways": None}
    if touched or access is not None:
        ways = max(len(v) for v in touched.values()) if touched else 0
        info["ways"] = ways
        what = "conflict-free" if ways <= 1 else f"{ways}-way conflict"
        title += f": up to {ways} different word{'s' if ways != 1 else ''} per bank ({what})"
    return Picture(cells, title=title, row_labels=[f"L{r}" for r in range(lines)], col_labels=[str(b) for b in range(banks)],
                   legend=LEGENDS["bank"], info=info)


# ------------------------------------------------------------------------- Jupyter hooks


def linear_layout_svg(layout: LinearLayout) -> str | None:
    """The SVG that ``LinearLayout._repr_svg_`` shows in Jupyter, or None (Jupyter then falls
    back to text) when the layout has more than :data:`MAX_REPR_CELLS` cells or cannot be drawn.

        >>> linear_layout_svg(LinearLayout.identity_1d(4, "lane", "dim0")).startswith("<svg")
        True
        >>> linear_layout_svg(LinearLayout.identity_1d(1 << 16, "lane", "dim0")) is None
        True
    """
    expect(layout, LinearLayout, "linear_layout_svg: layout")
    try:
        n = layout.total_out_size if _kind(layout) != "function" else layout.total_in_size
        if n > MAX_REPR_CELLS or layout.total_in_size_log2 > 16:
            return None
        return layout_picture(layout).to_svg()
    except LayoutError:
        return None


def linear_layout_html(layout: LinearLayout) -> str:
    """The HTML that ``LinearLayout._repr_html_`` shows: the bases as a table, then the picture.

        >>> "<table" in linear_layout_html(LinearLayout.identity_1d(4, "lane", "dim0"))
        True
    """
    expect(layout, LinearLayout, "linear_layout_html: layout")
    outs = ", ".join(f"{html.escape(n)}: {s}" for n, s in layout.out_dims.items())
    rows = []
    for name, vecs in layout.bases.items():
        vals = ", ".join("(" + ", ".join(str(x) for x in v) + ")" for v in vecs) or "&mdash;"
        rows.append(f"<tr><td><b>{html.escape(name)}</b> ({layout.in_dim_size(name)})</td><td style='text-align:left'>{vals}</td></tr>")
    table = (
        "<table><tr><th>in-dim</th><th style='text-align:left'>bases (image of 1, 2, 4, ...)</th></tr>"
        + "".join(rows)
        + f"</table><div>out-dims: {outs}</div>"
    )
    svg = linear_layout_svg(layout)
    return f"<div class='linlayout'>{table}{svg or ''}</div>"


# ------------------------------------------------------------- Jupyter displays of every value


def _esc(x: Any) -> str:
    return html.escape(str(x))


def _table(rows: Sequence[tuple[Any, Any]], head: tuple[str, str] | None = None) -> str:
    h = f"<tr><th>{_esc(head[0])}</th><th style='text-align:left'>{_esc(head[1])}</th></tr>" if head else ""
    body = "".join(f"<tr><td><b>{_esc(k)}</b></td><td style='text-align:left'>{v}</td></tr>" for k, v in rows)
    return f"<table>{h}{body}</table>"


def layout_svg(value: Any, shape: Sequence[int] | None = None, *, style: str = "gluon") -> str | None:
    """The SVG picture of any layout value (a Gluon, CuTe, TIRx, Tilus or Triton IR layout, a
    LinearLayout, ...), or None when it cannot be drawn without more (a shape) or is larger than
    :data:`MAX_REPR_CELLS` cells.

        >>> layout_svg(LinearLayout.identity_1d(4, "lane", "dim0")).count("<rect ")
        4
    """
    try:
        L = as_linear(value, shape)
        n = L.total_out_size if _kind(L) != "function" else L.total_in_size
        if n > MAX_REPR_CELLS or L.total_in_size_log2 > 16:
            return None
        return layout_picture(L, style=style).to_svg()
    except LayoutError:
        return None


def layout_html(value: Any, shape: Sequence[int] | None = None) -> str:
    """The rich Jupyter display of any layout value: its spelling and kind, its linear bases,
    and its picture; for a layout that is not GF(2)-linear (a non-power-of-two size), its
    mixed-radix form and power-of-two pieces; for a layout that needs a tensor shape, a line
    saying how to give one.  Attached as ``_repr_html_`` to every form's classes.

        >>> h = layout_html(LinearLayout.identity_1d(4, "lane", "dim0"))
        >>> h.startswith("<div class='linlayout'>") and "<svg" in h and "lane" in h
        True
    """
    from .contract import as_layout

    kind = getattr(value, "kind", None)
    head = [("layout", f"<code>{_esc(value)}</code>"), ("type", _esc(type(value).__name__))]
    if kind is not None and not callable(kind):
        head.append(("kind", _esc(getattr(kind, "value", kind))))
    parts = [_table(head)]
    if shape is None:
        shape = natural_shape(value)
        if shape is not None:
            parts.append(f"<div>drawn on its smallest tensor, shape {list(shape)}</div>")
    try:
        L = as_linear(value, shape)
    except LayoutError as e:
        msg = str(e).splitlines()[0]
        try:
            g = as_layout(value, shape)
        except LayoutError:
            g = None
        if g is not None and not isinstance(g, LinearLayout):
            parts.append(f"<div>not GF(2)-linear ({_esc(msg)}); mixed-radix form: <code>{_esc(repr(g))}</code></div>")
            try:
                pieces = g.split_pow2()
            except LayoutError:
                pieces = []
            if pieces:
                parts.append(_table([(f"piece {i}", f"inputs from {_esc(p.in_start)}, size {_esc(p.layout.in_dims)}, "
                                                   f"offset {_esc(p.offset)}") for i, p in enumerate(pieces)],
                                    ("power-of-two piece", "where (each piece is GF(2)-linear)")))
        else:
            parts.append(f"<div>no picture: {_esc(msg)}</div>")
        return "<div class='linlayout'>" + "".join(parts) + "</div>"
    if L is not value:
        parts.append(linear_layout_html(L))
    else:
        return linear_layout_html(L)
    return "<div class='linlayout'>" + "".join(parts) + "</div>"


def natural_shape(value: Any) -> list[int] | None:
    """The smallest tensor a blocked-style distributed layout covers once (``sizePerThread *
    threadsPerWarp * warpsPerCTA`` per dim), for drawing one that came without a shape; None for
    other values.

        >>> from types import SimpleNamespace as NS
        >>> natural_shape(NS(size_per_thread=[2, 4], threads_per_warp=[16, 2], warps_per_cta=[2, 2]))
        [64, 16]
    """
    value = getattr(value, "layout", value)  # an IR attribute wraps the layout it denotes
    try:
        spt, tpw, wpc = value.size_per_thread, value.threads_per_warp, value.warps_per_cta
        return [int(a) * int(b) * int(c) for a, b, c in zip(spt, tpw, wpc)]
    except (AttributeError, TypeError, ValueError):
        return None


def plan_html(plan: Any) -> str:
    """The Jupyter display of a conversion plan (``Plan``, ``MultiStepPlan``): its sentence and a
    table of its steps and costs.

        >>> class P:
        ...     def __str__(self): return "a register permutation"
        ...     def to_dict(self): return {"kind": "register", "steps": [{"op": "mov", "count": 2, "bits": 32, "note": ""}]}
        >>> "<td>mov</td>" in plan_html(P())
        True
    """
    if hasattr(plan, "plans") and hasattr(plan, "names"):  # a multi-step plan: one block per step
        rows = [(f"{a} -> {b}", plan_html(p)) for a, b, p in zip(plan.names, plan.names[1:], plan.plans)]
        return (f"<div class='linlayout'><div><b>{len(rows)}-step conversion, cost {_esc(plan.cost)}</b></div>"
                f"{_table(rows) if rows else '<div>nothing to do</div>'}</div>")
    d = plan.to_dict() if hasattr(plan, "to_dict") else {}
    steps = d.get("steps") or []
    step_rows = "".join(
        "<tr>" + "".join(f"<td>{_esc(s.get(k, ''))}</td>" for k in ("op", "count", "bits", "note")) + "</tr>"
        for s in steps if isinstance(s, Mapping)
    )
    table = f"<table><tr><th>op</th><th>count</th><th>bits</th><th>note</th></tr>{step_rows}</table>" if step_rows else ""
    facts = [(k, _esc(d[k])) for k in ("kind", "bitwidth", "cost", "shared_bytes", "store_conflicts", "load_conflicts") if k in d]
    return f"<div class='linlayout'><div><b>{_esc(plan)}</b></div>{_table(facts) if facts else ''}{table}</div>"


def equivalence_html(result: Any) -> str:
    """The Jupyter display of an equivalence answer: the relation, why, and the counterexample
    (the input, and what each layout gives there).

        >>> from types import SimpleNamespace as NS
        >>> r = NS(relation="different", reason="", method="linear",
        ...        counterexample=NS(point={"lane": 16}, left={"dim0": 16}, right=None, reason="base"))
        >>> "lane" in equivalence_html(r) and "DIFFERENT" in equivalence_html(r)
        True
    """
    if not isinstance(result, str) and not hasattr(result, "relation"):
        raise LayoutError(f"equivalence_html: expected an Equivalence (linlayout.equivalent's answer), "
                          f"got {type(result).__name__}")
    rel = str(getattr(result, "relation", result))
    same = rel == "identical"
    colour = "#2a7" if rel != "different" else "#c33"
    rows = [("relation", _esc(rel))]
    if getattr(result, "reason", ""):
        rows.append(("why", _esc(result.reason)))
    cex = getattr(result, "counterexample", None)
    if cex is not None:
        rows += [("at input", _esc(cex.point)), ("first layout gives", _esc(cex.left)),
                 ("second layout gives", _esc(cex.right)), ("kind of difference", _esc(cex.reason))]
    word = "EQUIVALENT" if same else ("ZERO-COST (same up to register order)" if rel != "different" else "DIFFERENT")
    return f"<div class='linlayout'><div style='color:{colour}'><b>{word}</b></div>{_table(rows)}</div>"


def attach_displays(*classes: type) -> None:
    """Give layout classes the rich Jupyter display (:func:`layout_html`, :func:`layout_svg`);
    each form's package calls it for its classes.

        >>> class Demo:
        ...     def to_linear(self, shape=None): return LinearLayout.identity_1d(4, "lane", "dim0")
        >>> attach_displays(Demo)
        >>> "<svg" in Demo()._repr_html_()
        True
    """
    for cls in classes:
        cls._repr_html_ = layout_html  # type: ignore[attr-defined]
