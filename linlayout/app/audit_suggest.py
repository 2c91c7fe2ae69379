"""Equivalent cheaper destinations for a kernel's layout conversions and shared-memory buffers.

:func:`linlayout.app.audit.audit` asks this module, for every data movement that is not free,
whether another layout would do the same job for less.  "Equivalent" is never assumed; each
:class:`Suggestion` says what stays the same and what differs:

``spelling``
    The destination's :class:`~linlayout.LinearLayout` equals the source's: only the attribute
    text differs, Triton folds the conversion.  (Two spellings of one linear layout always cost
    the same; a spelling change alone never makes a conversion cheaper.)
``register_order``
    A destination with the same element ownership as the requested one -- every thread holds the
    same elements, in the same lanes, warps and CTAs -- whose registers are ordered like the
    source's, for which Triton's lowering needs fewer loads or barriers (the counts checked against
    Triton's PTX; a difference only in modelled bank conflicts is not claimed).  The requested
    layout is one register permutation away (no data crosses threads).
``skip_conversion``
    The conversion's only users accept any distributed layout (``tt.store``, ``ttg.local_alloc``,
    ``ttg.local_store``): they could take the source layout as it is.  What differs is their own
    access: global stores are priced by instructions, 32-byte sectors and 128-byte line requests
    per warp (assuming the tensor is contiguous in row-major order, which the IR does not say),
    shared stores by vector width and bank conflicts.  Cheaper only when that access is no worse
    on every count; otherwise the entry says what the conversion buys (usually coalescing).
``shared_layout``
    For a buffer written and read with ``local_alloc`` / ``local_store`` / ``local_load``: the
    shared layout of the same kind (``swizzled_shared``: vec / perPhase / maxPhase in the same
    order; ``nvmma_shared``: the swizzle width, same ``transposed``) -- or, with one writer and one
    reader, the swizzle Triton's own round trip would use -- with the fewest shared-memory
    wavefronts over every priced access.  Other users of the buffer (MMA, TMA, async copies)
    are named and not priced.

    >>> from converters.mlir.module import parse_module
    >>> m = parse_module('''
    ... #b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
    ... #s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
    ... module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
    ...   %a = ttg.local_alloc %x : (tensor<128x32xf32, #b>) -> !ttg.memdesc<128x32xf32, #s, #ttg.shared_memory>
    ... }''')
    >>> s = buffer_suggestions(m)[5]
    >>> s.kind, s.layout        # each thread stores its row as 128-bit vectors: unswizzled, 8-way conflicts
    ('shared_layout', '#ttg.swizzled_shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]}>')
    >>> s.current["wavefronts"], s.suggested["wavefronts"]
    (256, 32)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Optional

from converters.gluon import NVMMASharedLayout, SwizzledSharedLayout, simplest_spelling
from converters.mlir import to_mlir
from converters.mlir.module import Module, Op
from converters.mlir.types import MemDescType, TensorType

from ..banks import bank_report
from ..errors import LayoutError
from ..linear import LinearLayout
from ..plan import Plan

__all__ = ["Suggestion", "users", "register_order_variant", "global_store_cost", "shared_cost", "buffer_suggestions",
           "conversion_suggestions"]


@dataclass
class Suggestion:
    """A cheaper (or explained) alternative: ``kind`` (see the module docstring), the suggested
    ``layout`` as attribute text, what is ``equivalent`` and what differs, the ``plan`` with it,
    whether it is ``cheaper`` than what the IR does, and the figures (``current`` / ``suggested``)."""

    kind: str
    layout: str
    equivalent: str
    plan: str
    cheaper: bool
    current: dict[str, Any] = field(default_factory=dict)
    suggested: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def __str__(self) -> str:
        head = "CHEAPER" if self.cheaper else "trade-off"
        return f"{head} [{self.kind}] {self.layout}: {self.equivalent} {self.plan}"


# ------------------------------------------------------------------------------------- uses
def _operand_text(op: Op) -> str:
    t = op.text
    return t.split("=", 1)[1] if op.result and "=" in t else t


_VALUE = re.compile(r"%[\w$.\-]+(?:#\d+)?")


def _use_index(m: Module) -> dict[str, list[Op]]:
    """SSA value name -> the ops naming it among their operands (built once per module)."""
    idx = getattr(m, "_linlayout_uses", None)
    if idx is None:
        idx = {}
        for o in m.ops:
            for v in set(_VALUE.findall(_operand_text(o))):
                idx.setdefault(v, []).append(o)
        setattr(m, "_linlayout_uses", idx)
    return idx


def users(m: Module, name: str, after: int = 0) -> list[Op]:
    """The ops (other than the definition on line ``after``) whose operands name the SSA value
    ``name`` (``%x``; a multi-result ``%x#1`` is its own value)."""
    if not name:
        return []
    return [o for o in _use_index(m).get(name, ()) if o.line != after]


def _spell(L: LinearLayout, shape: Sequence[int]) -> str:
    try:
        return to_mlir(simplest_spelling(L, list(shape)))
    except LayoutError:
        from converters.mlir import from_linear

        return to_mlir(from_linear(L))


# --------------------------------------------------------------------------- register order
def register_order_variant(src: LinearLayout, dst: LinearLayout) -> Optional[LinearLayout]:
    """``dst`` with its register bases reordered: those the source also holds in registers
    first, in the source's order, then the rest in ``dst``'s order -- same elements per thread,
    lane, warp and CTA.  ``None`` when that is ``dst`` itself.

        >>> s = LinearLayout({"register": [[1], [2]], "lane": [[4]]}, {"dim0": 8})
        >>> d = LinearLayout({"register": [[2], [4]], "lane": [[1]]}, {"dim0": 8})
        >>> register_order_variant(s, d) is None, register_order_variant(d, s).bases["register"]
        (True, ((2,), (1,)))
    """
    sreg = [tuple(b) for b in src.bases.get("register", ())]
    dreg = [tuple(b) for b in dst.bases.get("register", ())]
    common = [b for b in sreg if b in dreg]
    new = common + [b for b in dreg if b not in common]
    if new == dreg:
        return None
    bases = {n: [list(b) for b in (new if n == "register" else v)] for n, v in dst.bases.items()}
    return LinearLayout(bases, list(dst.out_dims.items()))


# ---------------------------------------------------------------------------- global stores
def global_store_cost(L: LinearLayout, bitwidth: int, shape: Sequence[int]) -> dict[str, int]:
    """Per thread, the ``st.global`` vectors of a tensor stored from layout ``L``, if the tensor is
    contiguous in row-major order: ``vector_bits``, ``instructions`` (per thread), ``sectors``
    (distinct 32-byte sectors one warp instruction touches, register vector 0 of warp 0), ``lines``
    (distinct 128-byte lines it touches), ``sectors_per_warp`` (instructions x sectors) and
    ``line_requests`` (instructions x lines: the memory requests one warp issues).

        >>> rows = LinearLayout({"register": [[0, 1], [0, 2]], "lane": [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]]},
        ...                     {"dim0": 4, "dim1": 32})
        >>> global_store_cost(rows, 32, [4, 32])
        {'vector_bits': 128, 'instructions': 1, 'sectors': 16, 'lines': 4, 'sectors_per_warp': 16, 'line_requests': 4}
    """
    names = list(L.out_dim_names)
    strides, acc = {}, 1
    for n, s in reversed(list(zip(names, shape))):
        strides[n] = acc
        acc *= s

    def flat(coords: dict[str, int]) -> int:
        return sum(coords[n] * strides[n] for n in names)

    R = L.remove_zero_bases("register")
    regs = R.bases.get("register", ())
    vec = 1
    while vec < len(regs) + 1 and vec * bitwidth < 128:
        k = vec.bit_length() - 1
        if k >= len(regs) or flat(dict(zip(names, regs[k]))) != vec:
            break
        vec *= 2
    n_regs = R.in_dim_size("register")
    nbytes = max(1, vec * bitwidth // 8)
    sectors: set[int] = set()
    for ln in range(R.in_dim_size("lane")):
        a = flat(R.apply({"lane": ln})) * bitwidth // 8
        sectors.update(range(a // 32, (a + nbytes - 1) // 32 + 1))
    instr = max(1, n_regs // vec)
    lines = len({x // 4 for x in sectors})
    return {"vector_bits": vec * bitwidth, "instructions": instr, "sectors": len(sectors), "lines": lines,
            "sectors_per_warp": instr * len(sectors), "line_requests": instr * lines}


# ---------------------------------------------------------------------------- shared access
def shared_cost(reg: LinearLayout, smem: LinearLayout, bitwidth: int) -> dict[str, int]:
    """One register <-> shared access priced with :func:`linlayout.banks.bank_report`:
    ``vector_bits``, ``instructions`` per thread, ``conflicts`` (extra wavefronts per
    wavefront) and ``wavefronts`` (per warp: instructions x wavefronts per instruction)."""
    rep = bank_report(reg, smem, bitwidth)
    n = reg.remove_zero_bases("register").in_dim_size("register")
    instr = max(1, n // max(rep.vector_elems, 1))
    return {"vector_bits": rep.vector_bits, "instructions": instr, "conflicts": rep.conflicts,
            "wavefronts": instr * rep.wavefronts_per_instruction}


# ------------------------------------------------------------------------------ conversions
_ANY_LAYOUT_SINKS = ("tt.store", "ttg.local_alloc", "ttg.local_store")


def conversion_suggestions(m: Module, op: Op, src: TensorType, dst: TensorType, tri: Plan, plan: Any) -> list[Suggestion]:
    """Alternatives to the destination of ``ttg.convert_layout`` ``op`` (Triton lowers it as
    ``tri``; ``plan(a, b, bitwidth, strategy)`` plans with the target's instructions), cheapest first."""
    out: list[Suggestion] = []
    a, b = src.to_linear(), dst.to_linear()
    bits = src.bitwidth
    if a == b:
        if src.layout_text != dst.layout_text:
            out.append(Suggestion("spelling", src.layout_text,
                                  "same LinearLayout as the destination: only the spelling differs.",
                                  "Already free: Triton folds the conversion (no instruction); writing the source's spelling "
                                  "removes the op from the IR, nothing from the kernel.", False))
        return out
    if tri.is_zero_cost:
        return out
    cur = {"kind": tri.kind, "cost": tri.cost, "loads": tri.loads, "barriers": tri.barriers, "stores": tri.stores,
           "shared_bytes": tri.shared_bytes, "description": tri.describe()}
    # 1. same ownership, registers in the source's order
    v = register_order_variant(a, b)
    if v is not None:
        p = plan(a, v, bits, "triton")
        back = plan(v, b, bits, "triton")
        # Claimed only on the counts checked against Triton's PTX (loads, barriers, stores: cvt_ptx.jsonl):
        # a cost difference from bank conflicts or store vectors alone is not (suggest_ptx.jsonl showed
        # Triton emitting the same code where only those differed).
        fewer = (p.loads, p.barriers) < (tri.loads, tri.barriers)
        if (p.kind != "shared_memory" or tri.kind != "shared_memory") and p.cost + back.cost < tri.cost or (
                p.kind == tri.kind == "shared_memory" and p.loads <= tri.loads and p.barriers <= tri.barriers
                and p.stores <= tri.stores and fewer and back.is_zero_cost):
            out.append(Suggestion(
                "register_order", _spell(v, dst.shape),
                "every thread holds the same elements as in the destination (same lanes, warps, CTAs); only the order of "
                f"its registers differs (to the requested spelling: a {back.kind} conversion, cost {back.cost:g}).",
                f"Triton lowers it as {p.kind}: {p.loads} loads and {p.barriers} barrier(s) per thread instead of {tri.loads} and "
                f"{tri.barriers}, with {p.shared_bytes} B of scratch instead of {tri.shared_bytes} B (cost {p.cost:g} instead of "
                f"{tri.cost:g}): {p.describe()}", True,
                cur, {"kind": p.kind, "cost": p.cost, "permutation_cost": back.cost, "loads": p.loads, "barriers": p.barriers,
                      "stores": p.stores, "shared_bytes": p.shared_bytes}))
    # 2. the users take any layout: skip the conversion
    us = users(m, op.result, op.line)
    if us and all(u.name in _ANY_LAYOUT_SINKS for u in us):
        for u in us[:1]:
            if u.name == "tt.store":
                s_cost, d_cost = global_store_cost(a, bits, src.shape), global_store_cost(b, bits, src.shape)
                better = all(s_cost[k] <= d_cost[k] for k in ("sectors_per_warp", "instructions", "line_requests"))
                what = (f"storing from the source: {s_cost['instructions']} x {s_cost['vector_bits']}-bit st.global per thread, "
                        f"{s_cost['sectors_per_warp']} 32-byte sectors and {s_cost['line_requests']} 128-byte line requests per "
                        f"warp; from the destination: {d_cost['instructions']} x {d_cost['vector_bits']}-bit, "
                        f"{d_cost['sectors_per_warp']} sectors and {d_cost['line_requests']} line requests (row-major contiguous "
                        "tensor assumed).")
                plan_txt = (what + (" No worse: drop the conversion (build the pointers and mask in the source layout)." if better else
                                    f" The conversion ({tri.kind}, cost {tri.cost:g}) buys the coalescing."))
                out.append(Suggestion("skip_conversion", src.layout_text,
                                      f"line {u.line}: tt.store accepts any distributed layout (its pointer and mask tensors "
                                      "must be in the same layout as the value).", plan_txt, better,
                                      {**cur, "store": d_cost}, {"kind": "noop", "cost": 0, "store": s_cost}))
            else:
                mems = [t for t in u.types if isinstance(t, MemDescType)]
                if not mems:
                    continue
                try:
                    smem = mems[-1].to_linear()
                    s_cost, d_cost = shared_cost(a, smem, bits), shared_cost(b, smem, bits)
                except LayoutError:
                    continue
                better = s_cost["wavefronts"] <= d_cost["wavefronts"]
                what = (f"writing the buffer from the source: {s_cost['instructions']} x {s_cost['vector_bits']}-bit stores, "
                        f"{s_cost['wavefronts']} wavefronts per warp; from the destination: {d_cost['instructions']} x "
                        f"{d_cost['vector_bits']}-bit, {d_cost['wavefronts']} wavefronts.")
                out.append(Suggestion(
                    "skip_conversion", src.layout_text,
                    f"line {u.line}: {u.name} writes shared memory from any distributed layout; the buffer's contents are the same.",
                    what + (" Drop the conversion: one shared-memory round trip fewer." if better else
                            f" The conversion ({tri.kind}, cost {tri.cost:g}) avoids the bank conflicts."), better,
                    {**cur, "shared_store": d_cost}, {"kind": "noop", "cost": 0, "shared_store": s_cost}))
    out.sort(key=lambda s: (not s.cheaper, s.suggested.get("cost", 0)))
    return out


# ---------------------------------------------------------------------------------- buffers
_VIEW_OPS = ("ttg.memdesc_index", "ttg.memdesc_subslice")
_IGNORED = ("ttg.local_dealloc",)


def _candidates(mem: MemDescType) -> list[Any]:
    lay = mem.layout
    bits = mem.bitwidth
    out: list[Any] = []
    if isinstance(lay, SwizzledSharedLayout):
        vecs = [v for v in (1, 2, 4, 8, 16) if v * bits <= 128]
        for vec in vecs:
            for pp in (1, 2, 4, 8):
                for mp in (1, 2, 4, 8, 16, 32):
                    try:
                        out.append(SwizzledSharedLayout(vec, pp, mp, list(lay.order), lay.cga_layout))
                    except LayoutError:
                        pass
    elif isinstance(lay, NVMMASharedLayout):
        for w in (0, 32, 64, 128):
            try:
                out.append(dataclasses.replace(lay, swizzle_byte_width=w))
            except LayoutError:
                pass
    return out


def _score(accesses: Sequence[tuple[Op, TensorType, bool]], mem: MemDescType) -> Optional[tuple[tuple[int, int], list[dict[str, int]]]]:
    """(total wavefronts, total instructions) over the accesses, and each access's figures."""
    try:
        smem = mem.to_linear()
        costs = [shared_cost(t.to_linear(), smem, t.bitwidth) for _, t, _ in accesses]
    except LayoutError:
        return None
    return (sum(c["wavefronts"] for c in costs), sum(c["instructions"] for c in costs)), costs


def buffer_suggestions(m: Module, plan: Any = None) -> dict[int, Suggestion]:
    """For every ``local_alloc`` buffer whose accesses (``local_alloc`` with a value,
    ``local_store``, ``local_load``; through ``memdesc_index`` / ``memdesc_subslice`` views too)
    are not all conflict-free: the shared layout of the same kind with the fewest wavefronts over
    those accesses, keyed by the line of each access it improves.  ``plan(a, b, bitwidth, strategy)``
    (optional) adds Triton's round-trip swizzle as a candidate when the buffer has one writer
    layout and one reader layout."""
    out: dict[int, Suggestion] = {}
    for alloc in m.ops_named("ttg.local_alloc"):
        mems = [t for t in alloc.types if isinstance(t, MemDescType)]
        if not alloc.result or not mems or mems[-1].kind.name != "SHARED":
            continue
        mem = mems[-1]
        names, accesses, others = [alloc.result], [], []
        regs = [t for t in alloc.types if isinstance(t, TensorType)]
        if regs:
            accesses.append((alloc, regs[0], True))
        k = 0
        while k < len(names):
            for u in users(m, names[k], alloc.line):
                ts = [t for t in u.types if isinstance(t, TensorType)]
                if u.name in _VIEW_OPS and u.result:
                    names.append(u.result)
                elif u.name in ("ttg.local_load", "ttg.local_store") and ts:
                    accesses.append((u, ts[0], u.name == "ttg.local_store"))
                elif u.name not in _IGNORED:
                    others.append(u.name)
            k += 1
        if not accesses or any(t.shape[-len(mem._linear_shape()):] != mem._linear_shape() for _, t, _ in accesses):
            continue
        cur = _score(accesses, mem)
        if cur is None or all(c["conflicts"] == 0 for c in cur[1]):
            continue
        cands = [dataclasses.replace(mem, layout=c) for c in _candidates(mem)]
        writers = {str(t) for _, t, st in accesses if st}
        readers = {str(t) for _, t, st in accesses if not st}
        if plan is not None and len(writers) == 1 and len(readers) == 1 and not others:
            w = next(t for _, t, st in accesses if st)
            r = next(t for _, t, st in accesses if not st)
            try:
                p = plan(w.to_linear(), r.to_linear(), w.bitwidth, "triton")
                if p.shared_layout is not None and p.kind == "shared_memory":
                    sl = p.shared_layout
                    if sl.has_in_dim("offset") and sl.in_dim_size("offset") == sl.total_out_size():
                        cands.append(dataclasses.replace(mem, layout=simplest_spelling(sl, list(mem._linear_shape()))))
            except LayoutError:
                pass
        best = None
        for c in cands:
            sc = _score(accesses, c)
            if sc is not None and sc[0] < cur[0] and (best is None or sc[0] < best[1][0]):
                best = (c, sc)
        if best is None:
            continue
        c, (total, costs) = best
        same = ("same kind of shared layout (" + type(mem.layout).__name__ + ")" if type(c.layout) is type(mem.layout)
                else f"a {type(c.layout).__name__} (Triton's swizzle for this round trip)")
        unpriced = f" Not priced: its use by {', '.join(sorted(set(others)))}." if others else ""
        per = "; ".join(f"line {o.line} {o.name.split('.', 1)[1]}: {x['conflicts']} -> {y['conflicts']} conflicts, "
                        f"{x['vector_bits']} -> {y['vector_bits']}-bit" for (o, _, _), x, y in zip(accesses, cur[1], costs))
        s = Suggestion("shared_layout", c.layout_text,
                       f"{same}, same shape and element type: every access reads and writes the same elements; only their "
                       f"addresses in shared memory differ.{unpriced}",
                       f"{cur[0][0]} -> {total[0]} shared wavefronts and {cur[0][1]} -> {total[1]} instructions per warp over the buffer's {len(accesses)} access(es) ({per}).",
                       True, {"layout": mem.layout_text, "wavefronts": cur[0][0], "instructions": cur[0][1], "accesses": cur[1]},
                       {"wavefronts": total[0], "instructions": total[1], "accesses": costs})
        for o, _, _ in accesses:
            out[o.line] = s
    return out
