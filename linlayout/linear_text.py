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

from .errors import ParseError
from .limits import check_text, parse_int, read_json

__all__ = ["read_linear_text"]

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
