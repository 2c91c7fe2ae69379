"""Reading the text Triton prints for a linear layout.

Triton's ``LinearLayout::toString`` (and our ``str(layout)``) prints one line per basis and the
out-dims with their sizes.  :func:`read_linear_text` reads that text into the dict form of
:meth:`~linlayout.LinearLayout.to_dict`, and :meth:`~linlayout.LinearLayout.from_text` builds the
layout from it, so a layout copied from a Triton debug dump or an MLIR diagnostic becomes a layout
object again (this module sits below ``linear.py`` and does not import it)::

    >>> text = '''
    ...  - register=1 -> (0, 1)
    ...    register=2 -> (0, 2)
    ...  - lane=1 -> (1, 0)
    ...  - warp is a size 1 dimension
    ... where out dims are: [dim0 (size 2), dim1 (size 4)]'''
    >>> read_linear_text(text)
    {'bases': [['register', [(0, 1), (0, 2)]], ['lane', [(1, 0)]], ['warp', []]], 'out_dims': [['dim0', 2], ['dim1', 4]]}

The JSON form (``LinearLayout.to_dict``) is read by :func:`read_linear_text` too.
"""

from __future__ import annotations

import re

from typing import Any

from .errors import ParseError, SizeError
from .limits import check_text, parse_int, read_json

__all__ = ["read_linear_text", "triton_layout_str"]

_BASIS = re.compile(r"^\s*(?:-\s*)?([A-Za-z_][\w.]*)=([0-9]+)\s*->\s*\(([^)]*)\)\s*$")
_SIZE1 = re.compile(r"^\s*(?:-\s*)?([A-Za-z_][\w.]*) is a size 1 dimension\s*$")
# (one way to split trailing space around the optional ')': two \s* around it were quadratic)
_OUTS = re.compile(r"^\s*where out dims are:\s*\[(.*)\]\s*(?:\)\s*)?$")
_OUT = re.compile(r"^\s*([A-Za-z_][\w.]*) \(size ([0-9]+)\)\s*$")
_EMPTY = re.compile(r"^\s*\(empty layout(?: with out-dims \[(.*)\])?\)\s*$")


def _outs(spec: str, text: str, pos: int) -> list[tuple[str, int]]:
    outs: list[tuple[str, int]] = []
    if not spec.strip():
        return outs
    offset = 0
    for part in spec.split(","):
        m = _OUT.match(part)
        if not m:
            raise ParseError("expected an out-dim as 'name (size N)'", text, pos + offset)
        outs.append((m.group(1), parse_int(m.group(2), "an out-dim size", text, pos + offset + m.start(2))))
        offset += len(part) + 1
    return outs


def read_linear_text(text: str) -> Any:
    """Triton's printed form of a linear layout (or our JSON form) as the dict form
    ``{"bases": [[in, [vector, ...]], ...], "out_dims": [[out, size], ...]}``.

    Raises :class:`~linlayout.errors.ParseError` with the position of the first line it cannot
    read.
    """
    check_text(text, "linear layout text")
    stripped = text.strip()
    if stripped.startswith("{"):
        return read_json(stripped)
    if stripped.startswith("LinearLayout(") and stripped.endswith(")"):
        stripped = stripped[len("LinearLayout("):-1]
        text = stripped
    bases: dict[str, list[tuple[int, ...]]] = {}
    outs: list[tuple[str, int]] | None = None
    pos = 0
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\n")
        here = pos
        pos += len(line)
        if not body.strip():
            continue
        if outs is not None:
            raise ParseError("unexpected text after the out-dims line", text, here)
        m = _EMPTY.match(body)
        if m:
            outs = _outs(m.group(1) or "", text, here + (m.start(1) if m.group(1) else 0))
            continue
        m = _BASIS.match(body)
        if m:
            name, value, vec = m.group(1), parse_int(m.group(2), "a basis input", text, here + m.start(2)), m.group(3)
            got = bases.setdefault(name, [])
            if value != 1 << len(got):
                raise ParseError(f"expected {name}={1 << len(got)} next (bases are listed for 1, 2, 4, ...), got {name}={value}", text, here + m.start(2))
            at = here + m.start(3)
            got.append(tuple(parse_int(x.strip(), "a basis vector of integers", text, at) for x in vec.split(","))
                       if vec.strip() else ())
            continue
        m = _SIZE1.match(body)
        if m:
            bases.setdefault(m.group(1), [])
            continue
        m = _OUTS.match(body)
        if m:
            outs = _outs(m.group(1), text, here + m.start(1))
            continue
        raise ParseError(
            "expected a line 'dim=2^i -> (v0, v1, ...)', 'dim is a size 1 dimension' or 'where out dims are: [...]'",
            text,
            here + (len(body) - len(body.lstrip())),
        )
    if outs is None:
        raise ParseError("missing the line 'where out dims are: [name (size N), ...]'", text, len(text))
    return {"bases": [[n, v] for n, v in bases.items()], "out_dims": [[n, size] for n, size in outs]}


# ------------------------------------------------------------- Triton's triton-tensor-layout text

#: the largest tensor :func:`triton_layout_str` prints (2**16 elements: the text grows with it)
_DUMP_MAX_LOG2 = 16


def _digits_pad(value: int, count: int) -> str:
    """``value`` right-aligned to the width of ``count - 1`` (Triton pads every index to the
    widest one of its range)."""
    return str(value).rjust(len(str(max(count - 1, 0))))


def _nested(cells: list[str], shape: list[int], sep: str) -> str:
    """The cells of a row-major tensor as Triton's layout dump nests them: one ``[`` per dim a
    cell starts, one ``]`` per dim it ends, a line per innermost row, each new line indented by
    the dims still open."""
    rank = len(shape)
    total = len(cells)

    def index(i: int) -> list[int]:
        out = []
        for s in reversed(shape):
            out.append(i % s)
            i //= s
        return out[::-1]

    parts: list[str] = []
    new_line = True
    for i in range(total):
        idx = index(i)
        opened = 0
        for j in range(rank - 1, -1, -1):
            if idx[j] != 0:
                break
            parts.append("[")
            opened += 1
        if new_line:
            parts.append(" " * (rank - opened))
            new_line = False
        parts.append(cells[i])
        nxt = index((i + 1) % total)
        for j in range(rank - 1, -1, -1):
            if nxt[j] != 0:
                break
            parts.append("]")
        if nxt[-1] == 0:
            parts.append("\n")
            new_line = True
        else:
            parts.append(sep)
    return "".join(parts)


def triton_layout_str(layout: Any, *, hw_view: bool = False) -> str:
    """The text Triton's ``triton-tensor-layout`` tool prints for a layout (Triton's
    ``getLayoutStr``), character for character.

    ``layout`` is a :class:`~linlayout.LinearLayout`: a distributed one (in-dims ``register``,
    ``lane``, ``warp``, ``block``) or a shared one (``offset``, ``block``).  The tensor view
    (``hw_view=False``) prints the tensor row-major, nested in brackets: for a distributed layout
    each element lists the threads holding it as ``T<thread>:<register>`` (``B<block>:`` first
    when there are several CTAs), for a shared layout each offset (read as a position of the
    tensor, row-major) shows the element stored there as ``(<dim0>:<dim1>...)``.  The hardware view
    lists, per warp and register, the element of every lane, or per block every offset's element.
    Indices are padded to the width of their range.

        >>> from linlayout import LinearLayout
        >>> L = LinearLayout({"register": [], "lane": [[1], [2], [0]], "warp": [[0], [0]], "block": []}, ["dim0"])
        >>> print(triton_layout_str(L), end="")
        [ T0:0| T4:0| T8:0|T12:0|T16:0|T20:0|T24:0|T28:0,  T1:0| T5:0| T9:0|T13:0|T17:0|T21:0|T25:0|T29:0,  T2:0| T6:0|T10:0|T14:0|T18:0|T22:0|T26:0|T30:0,  T3:0| T7:0|T11:0|T15:0|T19:0|T23:0|T27:0|T31:0]
        >>> print(triton_layout_str(L, hw_view=True).splitlines()[1])
        (0), (1), (2), (3), (0), (1), (2), (3)
        >>> S = LinearLayout({"offset": [[0, 1], [1, 1]], "block": []}, ["dim0", "dim1"])
        >>> print(triton_layout_str(S), end="")
        [[(0:0),(0:1)]
        [ (1:1),(1:0)]]
    """
    try:
        in_dims = dict(layout.in_dims)
        outs = list(layout.out_dims.items())
    except AttributeError:
        raise ParseError(f"triton_layout_str: expected a LinearLayout, got {type(layout).__name__}") from None
    if not outs:
        raise ParseError("triton_layout_str: the layout has no out-dims to print")
    shape = [s for _, s in outs]
    total = 1
    for s in shape:
        total *= s
    if total.bit_length() - 1 > _DUMP_MAX_LOG2:
        raise SizeError(f"triton_layout_str: {total} elements; at most 2**{_DUMP_MAX_LOG2} are printed")
    names = [n for n, _ in outs]
    if "offset" in in_dims:
        if set(in_dims) - {"offset", "block"}:
            raise ParseError(f"triton_layout_str: a shared layout has in-dims offset and block, got {list(in_dims)}")
        return _shared_str(layout, in_dims, names, shape, total, hw_view)
    need = {"register", "lane", "warp"}
    if not need <= set(in_dims) or set(in_dims) - need - {"block"}:
        raise ParseError(
            f"triton_layout_str: expected a distributed layout (register, lane, warp, block) or a shared one "
            f"(offset, block); got in-dims {list(in_dims)}")
    return _distributed_str(layout, in_dims, names, shape, total, hw_view)


def _shared_str(layout: Any, in_dims: dict[str, int], names: list[str], shape: list[int], total: int, hw_view: bool) -> str:
    blocks = in_dims.get("block", 1)
    per_block = total // blocks
    cells: list[str] = []
    lines: list[str] = []
    for b in range(blocks):
        lines.append(f"Block: {b}:")
        for off in range(per_block):
            out = layout.apply({"offset": off, "block": b} if "block" in in_dims else {"offset": off})
            padded = [_digits_pad(out[n], s) for n, s in zip(names, shape)]
            cells.append("(" + ":".join(padded) + ")")
            lines.append(f"Offset: {off} -> (" + ",".join(padded) + ")")
    if hw_view:
        return "\n".join(lines) + "\n"
    cells += [""] * (total - len(cells))
    return _nested(cells, shape, ",")


def _distributed_str(layout: Any, in_dims: dict[str, int], names: list[str], shape: list[int], total: int,
                     hw_view: bool) -> str:
    blocks, warps, lanes, regs = (in_dims.get(n, 1) for n in ("block", "warp", "lane", "register"))
    holders: list[list[str]] = [[] for _ in range(total)]
    coords: dict[tuple[int, int, int, int], str] = {}
    threads = warps * lanes
    for b in range(blocks):
        for w in range(warps):
            for t in range(lanes):
                for r in range(regs):
                    x = {"register": r, "lane": t, "warp": w}
                    if "block" in in_dims:
                        x["block"] = b
                    out = layout.apply(x)
                    flat = 0
                    for n, s in zip(names, shape):
                        flat = flat * s + out[n]
                    thread = t + w * lanes
                    pad = (len(str(blocks - 1)) - len(str(b)) + len(str(threads - 1)) - len(str(thread))
                           + len(str(regs - 1)) - len(str(r)))
                    holders[flat].append(" " * pad + (f"B{b}:" if blocks > 1 else "") + f"T{thread}:{r}")
                    coords[b, w, t, r] = "(" + ",".join(_digits_pad(out[n], s) for n, s in zip(names, shape)) + ")"
    if not hw_view:
        return _nested(["|".join(h) for h in holders], shape, ", ")
    lines: list[str] = []
    for b in range(blocks):
        if blocks > 1:
            lines.append(f"Block{b}:")
        for w in range(warps):
            lines.append(f"Warp{w}:")
            for r in range(regs):
                lines.append(", ".join(coords[b, w, t, r] for t in range(lanes)))
    return "\n".join(lines) + "\n"
