"""A whole TritonGPU module (``.ttgir``, ``MLIR_ENABLE_DUMP`` output, ``compiled.asm["ttgir"]``):
attribute aliases resolved, module attributes read, every op line with its types, source line
and location.

Only what layouts need is read: ``#name = ...`` alias lines (layouts, memory spaces, locations),
``module attributes {...}``, and each op line's ``tensor<...>`` / ``!ttg.memdesc<...>`` types.
Warp-specialized partitions (``partitionN(...) num_warps(K) {``) give the ops inside them their
own number of warps.  An ``MLIR_ENABLE_DUMP`` log (one module after each pass, each under a
``// -----// IR Dump ...`` header) is read as its last module, with the log's line numbers.

    >>> m = parse_module('''
    ... #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
    ... #blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
    ... #loc3 = loc("k.py":12:8)
    ... module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
    ...   %y = ttg.convert_layout %x : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked1> loc(#loc3)
    ... }''')
    >>> m.num_warps, m.target, m.threads_per_warp
    (4, 'cuda:90', 32)
    >>> op = m.ops_named("ttg.convert_layout")[0]
    >>> op.line, op.location, [str(t.shape) for t in op.types]
    (6, 'k.py:12:8', ['(256,)', '(256,)'])
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Optional

from linlayout.errors import LayoutError, ParseError

from .attrs import ATTRIBUTE_NAMES, read_attr
from .reader import Reader
from .types import read_type

__all__ = ["Op", "Module", "parse_module"]

_ALIAS = re.compile(r"\s*#([A-Za-z_][A-Za-z_0-9$.\-]*)\s*=\s*")
_OP = re.compile(r"^\s*(?:(%[^=]+?)\s*=\s*)?\"?([a-z_][a-z_0-9]*\.[a-z_0-9.]+)\"?")
_TYPE_START = re.compile(r"tensor<|!ttg\.memdesc<")
_LOC_TAIL = re.compile(r"\bloc\((.*)\)\s*$")
_PARTITION = re.compile(r"\bpartition(\d+)\(.*\)\s*num_warps\((\d+)\)\s*\{\s*$")
_FILE_LOC = re.compile(r'"([^"]*)":(\d+):(\d+)')


@dataclass(frozen=True)
class Op:
    """One op line: its name (``ttg.convert_layout``), 1-based ``line`` in the text, the line's
    text, its types in order of appearance (:class:`TensorType` / :class:`MemDescType`), its
    ``location`` (``file:line:col`` when it resolves to one, else the ``loc(...)`` text, else ``""``),
    the warps that run it (the module's, or its warp-specialized partition's) and the partition
    (``None`` outside one; 0, 1, ... inside ``partitionN``)."""

    name: str
    line: int
    text: str
    types: tuple[Any, ...]
    location: str
    num_warps: int
    partition: Optional[int] = None
    result: str = ""


@dataclass
class Module:
    """A parsed TritonGPU module (see the module docstring)."""

    text: str
    aliases: dict[str, Any] = field(default_factory=dict)
    attributes: dict[str, Any] = field(default_factory=dict)
    ops: list[Op] = field(default_factory=list)

    @property
    def num_warps(self) -> int:
        """``"ttg.num-warps"`` (4 when absent, Triton's default)."""
        return self._int_attr("ttg.num-warps", 4)

    @property
    def threads_per_warp(self) -> int:
        """``"ttg.threads-per-warp"`` (32 when absent)."""
        return self._int_attr("ttg.threads-per-warp", 32)

    @property
    def num_ctas(self) -> int:
        return self._int_attr("ttg.num-ctas", 1)

    def _int_attr(self, key: str, default: int) -> int:
        """The module attribute ``key`` as a positive int (``default`` when absent)."""
        v = self.attributes.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise LayoutError(f"module attribute {key!r} must be a positive integer, got {v!r}")
        return v

    @property
    def target(self) -> str:
        """``ttg.target``: ``"cuda:90"``, ``"hip:gfx942"`` ... (``""`` when absent)."""
        return str(self.attributes.get("ttg.target", ""))

    def ops_named(self, *names: str) -> list[Op]:
        """The ops with one of these names, in text order."""
        return [o for o in self.ops if o.name in names]

    def types(self) -> Iterator[tuple[Op, Any]]:
        """Every (op, type) pair, in text order."""
        for o in self.ops:
            for t in o.types:
                yield o, t


def _resolve_loc(body: str, locs: dict[str, str], depth: int = 0) -> str:
    """``"file":12:3`` -> ``file:12:3``; ``#loc7`` and ``"name"(#loc7)`` / ``callsite(...)`` follow
    the reference to the first file location."""
    m = _FILE_LOC.search(body)
    if m:
        return f"{m.group(1)}:{m.group(2)}:{m.group(3)}"
    if depth < 16:
        for ref in re.findall(r"#(loc[0-9]*)", body):
            if ref in locs:
                return _resolve_loc(locs[ref], locs, depth + 1)
    return ""


def _module_attrs(line: str, r: Reader, start: int) -> dict[str, Any]:
    r.pos = start + line.index("attributes") + len("attributes")
    d = r.dict_()
    return {k: v.value for k, v in d.items()}


def _last_dump(lines: list[str]) -> int:
    """The index of the first line of the last module in an ``MLIR_ENABLE_DUMP`` log (one module
    per pass, each after a ``// -----// IR Dump ...`` header); 0 for a single module."""
    headers = [i for i, ln in enumerate(lines) if ln.startswith("// -----//")]
    modules = sum(1 for ln in lines if ln.lstrip().startswith("module") and "{" in ln)
    if modules < 2 or not headers:
        return 0
    return headers[-1] + 1


def _first_line(e: ParseError) -> str:
    return str(e).splitlines()[0].rsplit(" (at position", 1)[0]


def parse_module(text: str) -> Module:
    """Read a TritonGPU module's text (see the module docstring).  Malformed layouts, types or
    aliases raise :class:`~linlayout.errors.ParseError` with the line and the position in it."""
    if not isinstance(text, str):
        raise ParseError(f"expected the IR as text, got {type(text).__name__}")
    m = Module(text)
    locs: dict[str, str] = {}
    lines = text.splitlines()
    first = _last_dump(lines)
    if first:  # an MLIR_ENABLE_DUMP log: read its last module, keep the log's line numbers
        lines = [""] * first + lines[first:]
    # aliases first: they may be defined after use (#loc lines come at the end)
    pending: list[tuple[int, str, str]] = []
    for i, ln in enumerate(lines):
        a = _ALIAS.match(ln)
        if not a or not ln.lstrip().startswith("#"):
            continue
        name, rhs = a.group(1), ln[a.end():]
        if rhs.startswith("loc("):
            locs[name] = rhs
        else:
            pending.append((i, name, rhs))
    for i, name, rhs in pending:
        ln = lines[i]
        if not rhs.startswith("#"):
            continue  # an alias of something other than an attribute (affine maps ...): not ours
        r = Reader(ln, len(ln) - len(rhs))
        try:
            m.aliases[name] = read_attr(r, m.aliases)
        except ParseError as e:
            err = ParseError(f"line {i + 1}: {_first_line(e)}", ln, e.position)
            if rhs.split("<", 1)[0][1:] in ATTRIBUTE_NAMES:
                raise err from None
            m.aliases[name] = err  # not a layout we know (another dialect's attribute): an error only where used
    # ops
    region: list[Optional[tuple[int, int]]] = []  # per open brace: (partition, warps) or None
    for i, ln in enumerate(lines):
        s = ln.strip()
        if not s or s.startswith(("#", "//")):
            continue
        if s.startswith("module") and "attributes" in s and not m.attributes:
            r = Reader(ln)
            try:
                m.attributes = _module_attrs(ln, r, 0)
            except ParseError as e:
                raise ParseError(f"line {i + 1}: module attributes: {_first_line(e)}", ln, e.position) from None
        part = _PARTITION.search(s)
        opened = ln.count("{") - ln.count("}")
        current = next((x for x in reversed(region) if x is not None), None)
        o = _OP.match(ln)
        if o and not s.startswith("module"):
            types = []
            for tm in _TYPE_START.finditer(ln):
                r = Reader(ln, tm.start())
                try:
                    t = read_type(r, m.aliases)
                except ParseError as e:
                    raise ParseError(f"line {i + 1}: {_first_line(e)}", ln, e.position) from None
                except LayoutError as e:
                    raise ParseError(f"line {i + 1}: {e}", ln, tm.start()) from None
                if t is not None:
                    types.append(t)
            lt = _LOC_TAIL.search(ln)
            loc = _resolve_loc(lt.group(1), locs) if lt else ""
            if lt and not loc:
                loc = lt.group(0)
            nw = current[1] if current else m.num_warps
            m.ops.append(Op(o.group(2), i + 1, s, tuple(types), loc, nw, current[0] if current else None, (o.group(1) or "").strip()))
        # region bookkeeping (after the op: a partition header opens its own region)
        if opened > 0:
            for k in range(opened):
                region.append((int(part.group(1)), int(part.group(2))) if part and k == opened - 1 else None)
        elif opened < 0:
            for _ in range(-opened):
                if region:
                    region.pop()
    return m
