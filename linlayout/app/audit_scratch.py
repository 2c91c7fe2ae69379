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
(``tests/oracles/triton-3.9-ir/scratch.jsonl``, ``tests/test_audit_scratch.py``).  The other ops
Triton gives scratch (:func:`other_scratch`):

* ``tt.gather``: none when the gather is warp-local (no warp or CTA basis of the source or the
  indices moves along the gather axis, the warps and CTAs hold the same part of the other dims in
  both, and so do the lanes: ``GatherLoweringHelper::isWarpLocal``); else the whole source tensor.
* ``tt.histogram``: ``max(bins, threads per warp)`` elements of the result.
* ``tt.atomic_rmw`` / ``tt.atomic_cas`` whose result is used: one element for a scalar, the
  tensor (one CTA's part) when its layout broadcasts (a free variable: some thread holds a copy),
  else none; elements of at least one byte.
* ``ttg.warp_specialize``: its captures packed (``getCaptureSize``: ``ceil(bits / 8)`` bytes per
  integer or float, 8 per pointer or tensor descriptor, ``8 + 4 * rank`` per shared-memory
  descriptor, 8 per tensor-memory one), and the function holds one byte per partition warp for
  its whole run (:func:`warp_index_bytes`; Triton's total grows by 4 bytes per 4 such warps).
* ``ttng.tensormap_create``: 128 bytes (a TMA descriptor is built in shared memory).

Those are checked against Triton 3.9 compiling one-op modules
(``tests/oracles/triton-3.9-ir/scratch_ops.jsonl``).

    >>> from converters.mlir import parse_type
    >>> t = parse_type("tensor<4096xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
    ...                "warpsPerCTA = [8], order = [0]}>>")
    >>> reduce_scratch_bytes([t], 0), scan_scratch_bytes([t], 0)
    (32, 512)
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

from converters.gluon import BlockedLayout
from converters.mlir.module import Module
from converters.mlir.reader import Reader
from converters.mlir.types import MemDescType, TensorType, read_type

from ..contract import Kind
from ..errors import LayoutError, ParseError
from ..gf2 import rank as gf2_rank
from ..limits import split_top_level
from ..linear import LinearLayout
from ..plan import Plan, plan_conversion
from ..plan_sides import cluster_scratch_elems_39

__all__ = ["ScratchOp", "OpScratch", "reduce_scratch_bytes", "scan_scratch_bytes", "region_ops", "other_scratch", "warp_index_bytes",
           "gather_scratch_bytes", "histogram_scratch_bytes", "atomic_scratch_bytes", "capture_bytes", "buffer_bytes",
           "plan_scratch_bytes", "cvt_scratch_bytes", "live_peak"]

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
    steps of a reduction across CTAs; a conversion's, across CTAs or between different CTA splits,
    is :func:`cvt_scratch_bytes`'s; other plans' buffers are already one CTA's.

        >>> from converters.mlir import parse_type
        >>> lay = ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], "
        ...        "CGALayout = %s}>")
        >>> a, b = (parse_type(f"tensor<64x128xf16, {lay % c}>").to_linear() for c in ("[[0, 1]]", "[[1, 0]]"))
        >>> p = plan_conversion(a, b, bitwidth=16, strategy="triton")
        >>> p.kind, p.shared_bytes, plan_scratch_bytes(p)   # Triton 3.9's metadata.shared: 4096
        ('cross_cta', 8192, 4096)
    """
    return p.shared_bytes >> gf2_rank(p.src.flat_bases("block")) if p.kind == "cross_cta" else p.shared_bytes


def cvt_scratch_bytes(p: Plan, stmatrix: bool) -> int:
    """The scratch one CTA allocates for a conversion whose ``strategy="triton"`` plan is ``p``,
    as Triton 3.9 sizes it (``getNumScratchElemsSwizzledCvt``): :func:`plan_scratch_bytes`, but
    for a round trip across CTAs, or inside CTAs whose CGA layouts split the tensor differently
    (the source's and destination's ``block`` bases differ): there Triton's buffer keeps the
    source's ``block`` bases as its own in-dim and its stores may use ``stmatrix`` (where the
    target has it: ``stmatrix``) but its loads never ``ldmatrix``
    (:func:`linlayout.plan_sides.cluster_scratch_elems_39`; cvt_cluster.jsonl: 312/312).

        >>> from converters.mlir import parse_type
        >>> lay = ("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0], "
        ...        "CGALayout = %s}>")
        >>> a, b = (parse_type(f"tensor<64x128xf16, {lay % c}>").to_linear() for c in ("[[0, 0]]", "[[0, 1]]"))
        >>> p = plan_conversion(a, b, bitwidth=16, strategy="triton")
        >>> p.kind, cvt_scratch_bytes(p, stmatrix=True)   # Triton 3.9's metadata.shared: 4096
        ('shared_memory', 4096)
    """
    if p.kind == "cross_cta" or (p.kind == "shared_memory" and p.src.flat_bases("block") != p.dst.flat_bases("block")):
        return cluster_scratch_elems_39(p.kind, p.src, p.dst, p.bitwidth, stmatrix) * max(p.bitwidth, 8) // 8
    return plan_scratch_bytes(p)


def reduce_scratch_bytes(inputs: Sequence[TensorType], axis: int) -> int:
    """Scratch bytes of a ``tt.reduce`` over ``axis`` of tensors ``inputs`` (one per operand, same
    shape and layout), as Triton 3.9 sizes it (``ReduceOpHelper::getScratchSizeInBytes``): each
    thread and then each warp reduces on its own; what is left of the axis lies across warps, and
    each step moves those warp (and CTA) bases into lanes through a shared-memory round trip
    (``getInterLayout``), whose buffer is Triton's swizzled conversion scratch
    (:func:`linlayout.plan.plan_conversion`, ``strategy="triton"``, plain ``ld/st.shared``; a step
    across CTAs sized by :func:`cvt_scratch_bytes`, as Triton sizes a conversion across CTAs).
    The largest step's buffer, for every operand, is the scratch; 0 when no warp or CTA splits the
    axis.

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
            n += cvt_scratch_bytes(p, stmatrix=False)
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


# ------------------------------------------------------------------- the other ops' scratch
@dataclass
class OpScratch:
    """An op other than a reduction or scan that Triton 3.9 gives scratch shared memory
    (:func:`other_scratch`): its line, name, location, warps and partition, the bytes and why."""

    line: int
    op: str
    location: str
    num_warps: int
    partition: Optional[int]
    shared_bytes: int
    why: str
    #: the bytes its buffer can take with its alignment (8 for a capture buffer: Triton places it
    #: at a multiple of 8, so the total can grow by more than ``shared_bytes``)
    footprint: int = 0

    def __post_init__(self) -> None:
        self.footprint = max(self.footprint, self.shared_bytes)

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "op": self.op, "location": self.location, "num_warps": self.num_warps,
                "partition": self.partition, "shared_bytes": self.shared_bytes, "why": self.why}


#: ``ttng.tensormap_create``: Triton's ``kTMASize`` (a TMA descriptor is built in shared memory)
TMA_DESCRIPTOR_BYTES = 128


def _shape_per_cta(t: TensorType) -> int:
    """Elements of one CTA's part of ``t`` (its layout's ``block`` bases split it)."""
    return math.prod(t.shape) >> gf2_rank(t.to_linear().flat_bases("block"))


def gather_scratch_bytes(src: TensorType, idx: TensorType, axis: int) -> int:
    """Scratch bytes of a ``tt.gather`` of ``src`` along ``axis`` at the indices ``idx``
    (``GatherLoweringHelper``): none when the gather is warp-local -- no warp or CTA basis of
    either layout moves along the axis, both put the warps and CTAs on the same part of the other
    dims, and the lanes too -- else the whole source tensor, ``ceil(bits / 8)`` bytes an element.

        >>> from converters.mlir import parse_type
        >>> lay = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>"
        >>> t, i = parse_type(f"tensor<16x32xf32, {lay}>"), parse_type(f"tensor<16x32xi32, {lay}>")
        >>> gather_scratch_bytes(t, i, 1), gather_scratch_bytes(t, i, 0)   # warps split dim 0
        (0, 2048)
    """
    S, I = src.to_linear(), idx.to_linear()
    names = list(S.out_dim_names)
    if not 0 <= axis < len(names):
        raise LayoutError(f"tt.gather: axis {axis} of a rank-{len(names)} tensor")
    ax, others = names[axis], [n for i, n in enumerate(names) if i != axis]
    hw = [d for d in ("block", "warp") if d in S.in_dim_names and d in I.in_dim_names]

    def part(L: LinearLayout, ins: Sequence[str], outs: Sequence[str]) -> LinearLayout:
        return L.sublayout([d for d in ins if d in L.in_dim_names], outs)

    local = (not any(v for L in (S, I) for d in hw for v in L.sublayout([d], [ax]).flat_bases(d))
             and part(S, hw, others) == part(I, hw, others)
             and part(S, ["lane"], others) == part(I, ["lane"], others))
    return 0 if local else math.prod(src.shape) * ((src.bitwidth + 7) // 8)


def histogram_scratch_bytes(result: TensorType, threads_per_warp: int) -> int:
    """Scratch bytes of a ``tt.histogram`` into ``result``: ``max(bins, threads per warp)``
    elements of it.

        >>> from converters.mlir import parse_type
        >>> h = parse_type("tensor<16xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>")
        >>> histogram_scratch_bytes(h, 32), histogram_scratch_bytes(h, 64)
        (128, 256)
    """
    return max(math.prod(result.shape), threads_per_warp) * result.bitwidth // 8


def atomic_scratch_bytes(result: Optional[TensorType], bits: int, used: bool) -> int:
    """Scratch bytes of a ``tt.atomic_rmw`` / ``tt.atomic_cas`` (``result``: its tensor type, None
    for a scalar; ``bits``: the element's; ``used``: whether anything reads the result).  Every
    thread that shares a part of the tensor must see the same values, so a used scalar result is
    broadcast through one element, and a tensor whose layout broadcasts (a free variable: some
    threads hold copies) through one CTA's part of it; elements of at least one byte.

        >>> from converters.mlir import parse_type
        >>> t = parse_type("tensor<64xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>")
        >>> atomic_scratch_bytes(t, 32, True), atomic_scratch_bytes(t, 32, False), atomic_scratch_bytes(None, 16, True)
        (256, 0, 2)
    """
    if not used:
        return 0
    if result is None:
        elems = 1
    elif any(result.to_linear().free_variable_masks().values()):
        elems = _shape_per_cta(result)
    else:
        return 0
    return elems * max(8, bits) // 8


_SCALAR = re.compile(r"^(?:i(\d+)|f(\d+)|bf16|tf32|f8\w*|f4\w*|f6\w*|index)$")


def _capture_size(text: str, aliases: Any) -> int:
    """Triton's ``getSharedMemorySize`` of one captured value's type."""
    t = text.strip()
    m = _SCALAR.match(t)
    if m:
        if t == "index":
            return 8
        if t == "bf16":
            return 2
        if t == "tf32":
            return 4
        if m.group(1) or m.group(2):
            return (int(m.group(1) or m.group(2)) + 7) // 8
        return 1  # 8-, 6- and 4-bit floats
    if t.startswith(("!tt.ptr<", "!tt.tensordesc<")):
        return 8
    if t.startswith("!ttg.memdesc<"):
        mem = read_type(Reader(t, 0), aliases)
        return 8 + 4 * len(mem.shape) if mem.kind is not Kind.TENSOR_MEMORY else 8
    raise LayoutError(f"a warp_specialize capture of type {t!r}: Triton 3.9 gives no shared-memory size for it")


def capture_bytes(types: Sequence[str], aliases: Any = None) -> int:
    """Scratch bytes of a ``ttg.warp_specialize`` capturing values of ``types`` (type texts),
    packed tightly (``WarpSpecializeOp::getCaptureSize``).

        >>> capture_bytes(["!tt.ptr<f32>", "i32", "f16"])
        14
    """
    return sum(_capture_size(t, aliases) for t in types)


_PARTITION = re.compile(r"^\s*partition\d+\s*\(.*\)\s*num_warps\((\d+)\)")
_WS_CLOSE = re.compile(r"^\s*\}\s*:\s*\((.*)\)\s*->\s*\(\s*\)")


def _warp_specialize(lines: Sequence[str], start: int) -> tuple[list[str], int, int]:
    """The capture types, partition warps and closing line index of the ``ttg.warp_specialize``
    on line ``start`` (0-based)."""
    depth, warps = 0, 0
    for i in range(start, len(lines)):
        before = depth
        depth += lines[i].count("{") - lines[i].count("}")
        if i > start and before == 0:
            p = _PARTITION.match(lines[i])
            if p:
                warps += int(p.group(1))
        c = _WS_CLOSE.match(lines[i]) if i > start and depth == 0 else None
        if c:
            return split_top_level(c.group(1)), warps, i
    raise LayoutError(f"line {start + 1}: ttg.warp_specialize without the closing '}} : (captures) -> ()' line")


def warp_index_bytes(m: Module) -> int:
    """Shared memory a function with warp specialization holds for its whole run: one byte per
    warp of its partitions (the most over its ``ttg.warp_specialize`` ops), as Triton 3.9's
    total grows -- 4 bytes per started 4 warps (measured: ``scratch_ops.jsonl``).

        >>> from converters.mlir.module import parse_module
        >>> text = '''module attributes {"ttg.num-warps" = 4 : i32} {
        ...   tt.func public @k(%p: !tt.ptr<f32>) {
        ...     ttg.warp_specialize(%p)
        ...     default {
        ...       ttg.warp_yield
        ...     }
        ...     partition0(%a: !tt.ptr<f32>) num_warps(2) {
        ...       ttg.warp_return
        ...     } : (!tt.ptr<f32>) -> ()
        ...     tt.return
        ...   }
        ... }'''
        >>> warp_index_bytes(parse_module(text)), [o.shared_bytes for o in other_scratch(parse_module(text))]
        (4, [8])
    """
    lines = m.text.splitlines()
    most = 0
    for op in m.ops_named("ttg.warp_specialize"):
        most = max(most, _warp_specialize(lines, op.line - 1)[1])
    return -(-most // 4) * 4


def other_scratch(m: Module) -> list[OpScratch]:
    """Every op of ``m`` other than ``tt.reduce`` / ``tt.scan`` / ``ttg.convert_layout`` that
    Triton 3.9 gives scratch (the module docstring's list), with its bytes (0 included, with why)."""
    from .audit_suggest import users  # one definition of "uses"

    lines = m.text.splitlines()
    out = []
    for op in m.ops_named("tt.gather", "tt.histogram", "tt.atomic_rmw", "tt.atomic_cas", "ttg.warp_specialize",
                          "ttng.tensormap_create"):
        tensors = [t for t in op.types if isinstance(t, TensorType)]
        if op.name == "tt.gather":
            a = _AXIS.search(op.text)
            if not a or len(tensors) < 2:
                raise LayoutError(f"line {op.line}: tt.gather needs an axis and its source and index tensor types")
            n = gather_scratch_bytes(tensors[0], tensors[1], int(a.group(1)))
            why = ("warp-local: each warp holds what its indices reach" if n == 0 else
                   "the whole source tensor goes through shared memory (not warp-local)")
        elif op.name == "tt.histogram":
            if not tensors:
                raise LayoutError(f"line {op.line}: tt.histogram without its result tensor type")
            n = histogram_scratch_bytes(tensors[-1], m.threads_per_warp)
            why = "the bins, at least one per lane"
        elif op.name.startswith("tt.atomic"):
            used = bool(users(m, op.result, op.line))
            if tensors:
                n = atomic_scratch_bytes(tensors[-1], tensors[-1].bitwidth, used)
            else:
                res = op.text.rsplit("->", 1)
                bits = _capture_size(res[1].split(" loc(", 1)[0], m.aliases) * 8 if len(res) == 2 else 0
                if not bits:
                    raise LayoutError(f"line {op.line}: {op.name} without its result type")
                n = atomic_scratch_bytes(None, bits, used)
            why = ("the result is not used" if not used else "the result is broadcast to the threads sharing it" if n
                   else "no thread holds a copy of the result")
        elif op.name == "ttg.warp_specialize":
            types, _, _ = _warp_specialize(lines, op.line - 1)
            n = capture_bytes(types, m.aliases)
            why = f"its {len(types)} capture(s), packed"
        else:
            n, why = TMA_DESCRIPTOR_BYTES, "a TMA descriptor is built in shared memory"
        pad = -(-n // 8) * 8 if op.name == "ttg.warp_specialize" else n
        out.append(OpScratch(op.line, op.name, op.location, op.num_warps, op.partition, n, why, pad))
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


def live_peak(m: Module, scratch: dict[int, int], sizes: Optional[dict[int, int]] = None, resident: int = 0) -> tuple[int, int]:
    """A lower bound of the shared memory Triton allocates: the most bytes live at any op (text
    line), counting each ``local_alloc`` buffer from its line to the last use of it or of a view of
    it (any op using it that yields a memdesc, e.g. ``memdesc_index``; ``local_dealloc`` is a use),
    plus the scratch of the op on that line (``scratch``: line -> bytes) and ``resident`` bytes held
    throughout (:func:`warp_index_bytes`).  A buffer's bytes are
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
    best, where = resident, 0
    for line in sorted({o.line for o in m.ops} | set(scratch)):
        live = sum(n for a, b, n in ranges if a <= line <= b) + scratch.get(line, 0) + resident
        if live > best:
            best, where = live, line
    return best, where
