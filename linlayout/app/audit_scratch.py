"""Scratch shared memory of a TritonGPU module's ops, as Triton 3.9's allocation analysis sizes it.

Triton gives some ops a *scratch* buffer, live only while the op runs (``lib/Analysis/Allocation.cpp``,
``defaultAllocationAnalysisScratchSizeFn``).  :mod:`linlayout.app.audit` prices the conversions
itself (the scratch of a ``ttg.convert_layout`` is the buffer of Triton's shared-memory round
trip, :func:`linlayout.plan.plan_conversion` with ``strategy="triton"``); this module sizes the
reductions and scans:

* ``tt.reduce``: no scratch when the reduced axis is not split across warps (the reduction stays
  inside each warp); else the buffer of the shared-memory round trips that move the warps' partial
  results into lanes (``ReduceOpHelper::getScratchSizeInBytes``: ``reducedRegLaneLayout``,
  ``getInterLayout`` and the swizzled conversion scratch), for every operand.
* ``tt.scan``: blocked layouts only, none when one warp spans the scanned axis; else
  ``warps x non-axis threads per warp x non-axis elements per thread x axis blocks x non-axis
  blocks`` elements of every operand (``ScanLoweringHelper::getScratchSizeInBytes``), counted on
  the layout with its broadcast registers removed.

Both are checked against Triton 3.9 compiling each op of the IR corpus alone
(``tests/oracles/triton-3.9-ir/scratch.jsonl``, ``tests/test_audit_scratch.py``).

    >>> from converters.mlir import parse_type
    >>> t = parse_type("tensor<4096xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
    ...                "warpsPerCTA = [8], order = [0]}>>")
    >>> reduce_scratch_bytes([t], 0), scan_scratch_bytes([t], 0)
    (32, 512)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

from converters.gluon import BlockedLayout
from converters.mlir.module import Module, Op
from converters.mlir.reader import Reader
from converters.mlir.types import MemDescType, TensorType, read_type

from ..errors import LayoutError, ParseError
from ..gf2 import rank as gf2_rank
from ..linear import LinearLayout
from ..plan import Plan, plan_conversion

__all__ = ["ScratchOp", "reduce_scratch_bytes", "scan_scratch_bytes", "region_ops", "buffer_bytes", "plan_scratch_bytes", "live_peak"]

_AXIS = re.compile(r"\baxis\s*=\s*(\d+)")
_TYPE_START = re.compile(r"tensor<")


@dataclass
class ScratchOp:
    """A ``tt.reduce`` / ``tt.scan`` with its operand types (read from the line closing its
    combine region), the axis and the scratch bytes Triton gives it."""

    line: int
    op: str
    location: str
    axis: int
    inputs: list[TensorType]
    num_warps: int
    partition: Optional[int]
    shared_bytes: int
    why: str

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "op": self.op, "location": self.location, "axis": self.axis,
                "inputs": [str(t) for t in self.inputs], "shape": list(self.inputs[0].shape) if self.inputs else [],
                "num_warps": self.num_warps, "partition": self.partition, "shared_bytes": self.shared_bytes, "why": self.why}


def _dim_bits(L: LinearLayout, in_dim: str, d: int) -> list[int]:
    """The components along out-dim ``d`` of ``in_dim``'s bases (zero bases kept)."""
    return [b[d] for b in L.bases.get(in_dim, ())]


def _rank_gf2(vectors: Sequence[int]) -> int:
    basis: list[int] = []
    for v in vectors:
        for b in basis:
            v = min(v, v ^ b)
        if v:
            basis.append(v)
    return len(basis)


def _elem_bytes(types: Sequence[TensorType]) -> int:
    return sum((t.bitwidth + 7) // 8 for t in types)


def _bases(L: LinearLayout) -> dict[str, list[list[int]]]:
    return {n: [list(b) for b in L.bases.get(n, ())] for n in ("register", "lane", "warp", "block")}


def _make(bases: dict[str, list[list[int]]], outs: Sequence[tuple[str, int]]) -> LinearLayout:
    return LinearLayout({n: bases[n] for n in ("register", "lane", "warp", "block")}, list(outs), require_surjective=False)


def _zero_along(bases: dict[str, list[list[int]]], outs: list[tuple[str, int]], axis: int, in_dim: str) -> LinearLayout:
    """Triton's ``zeroBasesAlongDimAndReorder``: drop ``in_dim``'s components along ``axis``, then
    renumber the remaining components along ``axis`` 1, 2, 4, ... (in-dims in order)."""
    new = {n: [list(b) for b in v] for n, v in bases.items()}
    for b in new[in_dim]:
        b[axis] = 0
    nxt = 1
    for n in ("register", "lane", "warp", "block"):
        for b in new[n]:
            if b[axis]:
                b[axis] = nxt
                nxt *= 2
    outs = list(outs)
    outs[axis] = (outs[axis][0], nxt)
    return _make(new, outs)


def _drop_zero_regs(L: LinearLayout) -> LinearLayout:
    return L.remove_zero_bases("register")


def _reduced_reg_lane(t: TensorType, axis: int) -> LinearLayout:
    """Triton's ``ReduceOpHelper::reducedRegLaneLayout``: the layout after each thread, then each
    warp, has reduced along ``axis`` (what is left crosses warps or CTAs)."""
    L = _drop_zero_regs(t.to_linear())
    outs = list(L.out_dims.items())
    b = _bases(L)
    regs = b["register"]
    b["register"] = [r for r in regs if r[axis]] + [r for r in regs if not r[axis]]
    L = _drop_zero_regs(_zero_along(b, outs, axis, "register"))
    return _zero_along(_bases(L), list(L.out_dims.items()), axis, "lane")


def _inter_layout(L: LinearLayout, axis: int) -> LinearLayout:
    """Triton's ``ReduceOpHelper::getInterLayout``: move the warp (and CTA) bases along ``axis``
    into lanes -- zero lanes first, else the leading lanes."""
    b = _bases(L)
    lanes, warps, blocks = b["lane"], b["warp"], b["block"]
    wax = [i for i, v in enumerate(warps) if v[axis]]
    bax = [i for i, v in enumerate(blocks) if v[axis]]
    zero = [i for i, v in enumerate(lanes) if not any(v)]
    moved = [(warps, i) for i in wax] + [(blocks, i) for i in bax]
    if len(zero) >= len(moved):
        slots = zero
    elif len(moved) <= len(lanes):
        slots = list(range(len(lanes)))
    else:
        moved = [(warps, i) for i in wax][:len(lanes)]
        slots = list(range(len(lanes)))
    for k, (src, i) in enumerate(moved):
        j = slots[k]
        lanes[j], src[i] = src[i], lanes[j]
    return _make(b, list(L.out_dims.items()))


def plan_scratch_bytes(p: Plan) -> int:
    """The scratch one CTA allocates for a conversion plan (``strategy="triton"``).  A cross-CTA
    round trip's buffer (distributed shared memory) spans the cluster: each of the source's
    distinct parts (2^rank of its ``block`` bases) holds its share -- Triton 3.9's figure for the
    steps of a reduction across CTAs, and for most conversions across CTAs (where it is not,
    :mod:`.audit` says so); other plans' buffers are already one CTA's.

        >>> from converters.mlir import parse_type
        >>> lay = ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], "
        ...        "CGALayout = %s}>")
        >>> a, b = (parse_type(f"tensor<64x128xf16, {lay % c}>").to_linear() for c in ("[[0, 1]]", "[[1, 0]]"))
        >>> p = plan_conversion(a, b, bitwidth=16, strategy="triton")
        >>> p.kind, p.shared_bytes, plan_scratch_bytes(p)   # Triton 3.9's metadata.shared: 4096
        ('cross_cta', 8192, 4096)
    """
    return p.shared_bytes >> gf2_rank(p.src.flat_bases("block")) if p.kind == "cross_cta" else p.shared_bytes


def reduce_scratch_bytes(inputs: Sequence[TensorType], axis: int) -> int:
    """Scratch bytes of a ``tt.reduce`` over ``axis`` of tensors ``inputs`` (one per operand, same
    shape and layout), as Triton 3.9 sizes it (``ReduceOpHelper::getScratchSizeInBytes``): each
    thread and then each warp reduces on its own; what is left of the axis lies across warps, and
    each step moves those warp bases into lanes through a shared-memory round trip
    (``getInterLayout``), whose buffer is Triton's swizzled conversion scratch
    (:func:`linlayout.plan.plan_conversion`, ``strategy="triton"``).  The largest step's buffer,
    for every operand, is the scratch; 0 when no warp splits the axis.

        >>> from converters.mlir import parse_type
        >>> t = parse_type("tensor<64x128xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], "
        ...                "warpsPerCTA = [1, 4], order = [1, 0]}>>")
        >>> reduce_scratch_bytes([t], 1), reduce_scratch_bytes([t], 0)   # Triton 3.9: 128 and 0 (scratch.jsonl)
        (128, 0)
    """
    reg = _reduced_reg_lane(inputs[0], axis)
    best = 0
    while reg.out_dim_size(reg.out_dim_names[axis]) > 1:
        tmp = _inter_layout(reg, axis)
        n = 0
        for t in inputs:
            p = plan_conversion(reg, tmp, bitwidth=max(8, t.bitwidth), strategy="triton", matrix_instructions=False)
            n += plan_scratch_bytes(p)
        best = max(best, n)
        reg = _zero_along(_bases(tmp), list(tmp.out_dims.items()), axis, "lane")
    return best


def _per_dim(L: LinearLayout, in_dim: str, rank: int) -> list[int]:
    """Per out-dim, 2 ** (number of ``in_dim`` bases pointing into it); zero bases are skipped."""
    out = [1] * rank
    for b in L.bases.get(in_dim, ()):
        for d in range(rank):
            if b[d]:
                out[d] *= 2
                break
    return out


def _contig(L: LinearLayout, rank: int) -> list[int]:
    """Per out-dim, the elements a thread holds contiguously: the leading register bases of that
    dim that are 1, 2, 4, ... along it."""
    out = []
    for d in range(rank):
        n = 1
        for b in L.bases.get("register", ()):
            if not any(b[e] for e in range(rank) if e != d) and b[d]:
                if b[d] != n:
                    break
                n *= 2
        out.append(n)
    return out


def scan_scratch_bytes(inputs: Sequence[TensorType], axis: int) -> int:
    """Scratch bytes of a ``tt.scan`` along ``axis`` (0 for a layout other than blocked, which
    Triton does not lower, and when one warp spans the axis).

        >>> from converters.mlir import parse_type
        >>> t = parse_type("tensor<2048xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
        ...                "warpsPerCTA = [4], order = [0]}>>")
        >>> scan_scratch_bytes([t], 0)    # 4 warps x 16 blocks of 128 elements x 4 bytes
        256
    """
    t = inputs[0]
    if not isinstance(t.layout, BlockedLayout):
        return 0
    L = t.to_linear().remove_zero_bases("register")
    rank = len(t.shape)
    contig, threads, warps = _contig(L, rank), _per_dim(L, "lane", rank), _per_dim(L, "warp", rank)
    shape = [s // c for s, c in zip(t.shape, _per_dim(L, "block", rank))]  # one CTA's part (getShapePerCTA)
    if warps[axis] == 1:
        return 0
    num_warps = 1
    for w in warps:
        num_warps *= w
    non_axis_threads = non_axis_elems = non_axis_blocks = 1
    for d in range(rank):
        if d == axis:
            continue
        non_axis_threads *= threads[d]
        non_axis_elems *= contig[d]
        non_axis_blocks *= -(-shape[d] // (contig[d] * threads[d] * warps[d]))
    axis_blocks = -(-shape[axis] // (contig[axis] * threads[axis] * warps[axis]))
    return _elem_bytes(inputs) * num_warps * non_axis_threads * non_axis_elems * axis_blocks * non_axis_blocks


def _region_close(lines: Sequence[str], start: int) -> int:
    """The index of the line closing the region the op on line ``start`` (0-based) opens."""
    depth = 0
    for i in range(start, len(lines)):
        depth += lines[i].count("{") - lines[i].count("}")
        if i > start and depth <= 0:
            return i
    raise LayoutError(f"line {start + 1}: the op's region is not closed")


def _input_types(line: str, lineno: int, aliases: Any) -> list[TensorType]:
    """The tensor types between ``: (`` and ``) ->`` on a region's closing line."""
    head = line.split("->", 1)[0]
    out = []
    for m in _TYPE_START.finditer(head):
        r = Reader(line, m.start())
        try:
            t = read_type(r, aliases)
        except ParseError as e:
            raise ParseError(f"line {lineno}: {str(e).splitlines()[0]}", line, e.position) from None
        if isinstance(t, TensorType):
            out.append(t)
    return out


def region_ops(m: Module) -> list[ScratchOp]:
    """Every ``tt.reduce`` and ``tt.scan`` of a module with its scratch bytes.  A reduction to a
    scalar or over a layout without warps along the axis gets 0 bytes, with the reason."""
    lines = m.text.splitlines()
    out = []
    for op in m.ops_named("tt.reduce", "tt.scan"):
        a = _AXIS.search(op.text)
        if not a:
            raise LayoutError(f"line {op.line}: {op.name} without an axis attribute")
        axis = int(a.group(1))
        close = _region_close(lines, op.line - 1)
        inputs = _input_types(lines[close], close + 1, m.aliases)
        if not inputs:
            raise LayoutError(f"line {close + 1}: expected the {op.name}'s operand types on the line closing its region")
        if axis >= len(inputs[0].shape):
            raise LayoutError(f"line {op.line}: axis {axis} of a rank-{len(inputs[0].shape)} tensor")
        if op.name == "tt.reduce":
            n = reduce_scratch_bytes(inputs, axis)
            why = ("the reduced axis stays inside each warp: no scratch" if n == 0 else
                   "partial results of the warps along the reduced axis meet in shared memory")
        else:
            n = scan_scratch_bytes(inputs, axis)
            why = ("one warp spans the scanned axis (or the layout is not blocked): no scratch" if n == 0 else
                   "the warps along the scanned axis exchange their carries through shared memory")
        out.append(ScratchOp(op.line, op.name, op.location, axis, inputs, op.num_warps, op.partition, n, why))
    return out


def buffer_bytes(mem: MemDescType, num_ctas: int = 1) -> int:
    """The bytes one CTA allocates for a shared-memory buffer, as Triton 3.9 sizes it: the
    allocation (its alloc shape, else its shape) divided by the number of CTAs of a cluster that
    split it between them (``getAllocationShapePerCTA``: the shape per CTA of the layout's CGA
    layout).  That number is 2^rank of the layout's ``block`` bases: a zero basis is a CTA holding
    a copy (a broadcast), so it divides nothing.  With one CTA (``num_ctas = 1``) the layout is not
    read.  A layout without a linear form raises :class:`~linlayout.errors.LayoutError`.

        >>> from converters.mlir import parse_type
        >>> def t(cga):
        ...     return parse_type("!ttg.memdesc<64x256xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, "
        ...                       f"transposed = false, elementBitWidth = 16, CGALayout = {cga}}}>, #ttg.shared_memory>")
        >>> buffer_bytes(t("[[0, 1]]"), 2), buffer_bytes(t("[[0, 0]]"), 2), buffer_bytes(t("[[0, 0]]"))
        (16384, 32768, 32768)
    """
    if num_ctas <= 1:
        return mem.nbytes
    return mem.nbytes >> gf2_rank(mem.to_linear().flat_bases("block"))


def live_peak(m: Module, scratch: dict[int, int], sizes: Optional[dict[int, int]] = None) -> tuple[int, int]:
    """A lower bound of the shared memory Triton allocates: the most bytes live at any op (text
    line), counting each ``local_alloc`` buffer from its line to the last use of it or of a view of
    it (any op using it that yields a memdesc, e.g. ``memdesc_index``; ``local_dealloc`` is a use),
    plus the scratch of the op on that line (``scratch``: line -> bytes).  A buffer's bytes are
    ``sizes[line of its local_alloc]`` where given (one CTA's part in a cluster,
    :func:`buffer_bytes`), else its whole allocation.  Returns (bytes, line).

    Triton's liveness (MLIR's, in the same op order) covers at least these ranges -- it also keeps
    a buffer live around a loop that uses it, and through loop-carried aliases this reading does not
    follow -- and its offsets can only add fragmentation, so the peak never exceeds what it allocates.
    """
    from .audit_suggest import users  # one definition of "uses"

    ranges: list[tuple[int, int, int]] = []
    for alloc in m.ops_named("ttg.local_alloc"):
        mems = [t for t in alloc.types if isinstance(t, MemDescType)]
        if not mems or not alloc.result:
            continue
        end, names, k = alloc.line, [alloc.result], 0
        while k < len(names):
            for u in users(m, names[k], alloc.line):
                end = max(end, u.line)
                if u.result and u.name.startswith(("ttg.memdesc", "ttng.memdesc")) and u.result not in names:
                    names.append(u.result)
            k += 1
        ranges.append((alloc.line, end, (sizes or {}).get(alloc.line, mems[-1].nbytes)))
    best, where = 0, 0
    for line in sorted({o.line for o in m.ops} | set(scratch)):
        live = sum(n for a, b, n in ranges if a <= line <= b) + scratch.get(line, 0)
        if live > best:
            best, where = live, line
    return best, where
