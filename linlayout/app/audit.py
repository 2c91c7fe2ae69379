"""Audit a Triton kernel's layout conversions from its TritonGPU IR.

``audit(ir_text)`` reads a module (``compiled.asm["ttgir"]``, ``MLIR_ENABLE_DUMP`` output, a
``.ttgir`` file) with :mod:`converters.mlir` and finds every data movement between layouts:

==========================  ==================================================================
op                          what is planned or measured
==========================  ==================================================================
``ttg.convert_layout``      :func:`linlayout.plan.plan_conversion` (our best plan) and the
                            mechanism Triton 3.9 picks (``strategy="triton"``): noop, register
                            permutation, warp shuffles, shared-memory round trip (scratch
                            bytes, vectors, bank conflicts, barriers), cross-CTA
``ttg.local_alloc`` (with   register -> shared store: vector width and bank conflicts of the
a value), ``local_store``   register layout against the buffer's shared layout
``ttg.local_load``          shared -> register load, likewise
``ttng.tmem_store``,        register <-> tensor memory: whether the register layout is one of the
``ttng.tmem_load``          ``tcgen05.ld/st`` message layouts of the tensor-memory layout
==========================  ==================================================================

The number of warps (per warp-specialized partition) and the target come from the module
attributes (the target's matrix instructions go to the planner: ``ldmatrix`` from sm_75,
``stmatrix`` from sm_90).  Where a movement is not free, :mod:`.audit_suggest` looks for an
equivalent cheaper layout and says what is equivalent (same LinearLayout; same elements per
thread in another register order; a user that takes any layout; a shared layout of the same kind
with fewer bank conflicts) and what differs.

The kernel total compares the shared memory the module allocates plus the peak scratch (of
conversions, reductions, scans, gather, histogram, atomics, warp specialization and TMA
descriptors, :mod:`.audit_scratch`; Triton 3.9's sizes) with the
target's per-block limit (:data:`SHARED_MEMORY_LIMITS`, with sources), and says whether that total
is exact (no explicit buffers), an upper bound (buffers without liveness) or incomplete
(:attr:`AuditReport.shared_total_status`).  In a CTA cluster (``ttg.num-ctas`` > 1) every figure
is one CTA's, as Triton allocates: a buffer is its CTA's part (the CTAs its layout's ``block``
bases split it between, :func:`.audit_scratch.buffer_bytes`), a conversion's scratch its CTA's
share, as Triton sizes it also across CTAs (distributed shared memory) and between different CTA
splits (:func:`.audit_scratch.cvt_scratch_bytes`), and so are the steps of a reduction across CTAs.

    >>> ir = '''
    ... #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
    ... #blocked1 = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
    ... module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
    ...   %1 = ttg.convert_layout %0 : tensor<512xf32, #blocked> -> tensor<512xf32, #blocked1>
    ... }'''
    >>> r = audit(ir)
    >>> c = r.conversions[0]
    >>> c.line, c.kind, c.shape, c.dtype, c.num_warps, c.shared_bytes > 0
    (5, 'shared_memory', [512], 'f32', 4, True)
    >>> r.shared_limit
    232448
"""

from __future__ import annotations

import argparse
import html
import json
import sys
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Optional

from converters.gluon import TMEM_INSTR_VARIANTS, TensorMemoryLayout, TensorMemoryScalesLayout, tmem_reg_layout
from converters.mlir.module import Module, Op, parse_module
from converters.mlir.types import MemDescType, TensorType

from ..banks import bank_report
from ..errors import LayoutError, ParseError
from ..plan import Plan, plan_conversion
from .audit_scratch import OpScratch, ScratchOp, buffer_bytes, live_peak, other_scratch, plan_scratch_bytes, region_ops, warp_index_bytes, cvt_scratch_bytes
from .audit_suggest import buffer_suggestions, conversion_suggestions

__all__ = ["SHARED_MEMORY_LIMITS", "Conversion", "AuditReport", "audit", "shared_memory_limit", "add_arguments", "run"]

_GUIDE = "CUDA C++ Programming Guide, Compute Capabilities, 'Maximum amount of shared memory per thread block'"

#: Shared memory a thread block (workgroup) may use, per target, with the source of the number.
SHARED_MEMORY_LIMITS: dict[str, tuple[int, str]] = {
    "cuda:80": (166912, f"{_GUIDE}: 163 KB on compute capability 8.0 (A100)"),
    "cuda:86": (101376, f"{_GUIDE}: 99 KB on 8.6"),
    "cuda:87": (166912, f"{_GUIDE}: 163 KB on 8.7"),
    "cuda:89": (101376, f"{_GUIDE}: 99 KB on 8.9"),
    "cuda:90": (232448, f"{_GUIDE}: 227 KB on 9.0 (H100)"),
    "cuda:100": (232448, f"{_GUIDE}: 227 KB on 10.0 (B200)"),
    "cuda:103": (232448, f"{_GUIDE}: 227 KB on 10.3"),
    "cuda:120": (101376, f"{_GUIDE}: 99 KB on 12.0"),
    "hip:gfx90a": (65536, "AMD Instinct MI200 (CDNA2) ISA: 64 KiB of LDS per workgroup"),
    "hip:gfx942": (65536, "AMD Instinct MI300 (CDNA3) ISA: 64 KiB of LDS per workgroup"),
    "hip:gfx950": (163840, "AMD Instinct MI350 (CDNA4) ISA: 160 KiB of LDS per workgroup"),
}


def shared_memory_limit(target: str) -> tuple[Optional[int], str]:
    """(bytes per block, source) for a target such as ``"cuda:90"``; ``(None, why)`` if unknown.

        >>> shared_memory_limit("cuda:90")[0], shared_memory_limit("cuda:99")
        (232448, (None, 'no shared-memory limit known for target cuda:99'))
    """
    if target in SHARED_MEMORY_LIMITS:
        return SHARED_MEMORY_LIMITS[target]
    return None, f"no shared-memory limit known for target {target or '(none given)'}"


#: the ops the audit reads, and the direction of the data
_OPS = {
    "ttg.convert_layout": "register -> register",
    "ttg.local_alloc": "register -> shared",
    "ttg.local_store": "register -> shared",
    "ttg.local_load": "shared -> register",
    "ttng.tmem_store": "register -> tensor memory",
    "ttng.tmem_load": "tensor memory -> register",
}


@dataclass
class Conversion:
    """One data movement between layouts (see the module docstring).  ``src``/``dst`` are the
    layouts as attribute text (aliases expanded); counts are per thread; ``shared_bytes`` is the
    shared memory the op itself needs (a conversion's scratch buffer, or the buffer a
    ``local_alloc`` creates; 0 for a load or store into an existing buffer)."""

    line: int
    location: str
    op: str
    direction: str
    src: str
    dst: str
    shape: list[int]
    dtype: str
    bitwidth: int
    num_warps: int
    partition: Optional[int]
    kind: str
    zero_cost: bool
    shared_bytes: int
    description: str
    counts: dict[str, Any] = field(default_factory=dict)
    triton_kind: Optional[str] = None
    cheaper: Optional[str] = None
    #: equivalent destinations / shared layouts considered (:mod:`.audit_suggest`), cheapest first
    suggestions: list[dict[str, Any]] = field(default_factory=list)
    #: the full types (``tensor<...>`` / ``!ttg.memdesc<...>``, aliases expanded)
    src_type: str = ""
    dst_type: str = ""

    @property
    def better_layout(self) -> Optional[dict[str, Any]]:
        """The cheapest equivalent layout that is cheaper than the IR's (a suggestion dict), or None."""
        return next((s for s in self.suggestions if s["cheaper"]), None)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class AuditReport:
    """What :func:`audit` found: the conversions in text order and the kernel totals."""

    target: str
    num_warps: int
    threads_per_warp: int
    num_ctas: int
    conversions: list[Conversion]
    buffers_bytes: int
    scratch_peak_bytes: int
    shared_limit: Optional[int]
    shared_limit_source: str
    skipped: list[dict[str, Any]] = field(default_factory=list)
    #: ops whose scratch shared memory the total does not count (warp specialization, atomics ...): name -> how many
    uncounted: dict[str, int] = field(default_factory=dict)
    #: the reductions and scans, with the scratch Triton 3.9 gives them (:mod:`.audit_scratch`)
    regions: list[ScratchOp] = field(default_factory=list)
    #: the other ops Triton 3.9 gives scratch (gather, histogram, atomics, warp specialization
    #: captures, TMA descriptors: :func:`.audit_scratch.other_scratch`), 0-byte ones included
    other_scratch: list[OpScratch] = field(default_factory=list)
    #: the most bytes live at one op (buffers by liveness + that op's scratch) and that op's line:
    #: a lower bound of what Triton allocates (:func:`.audit_scratch.live_peak`)
    live_peak_bytes: int = 0
    live_peak_line: int = 0

    @property
    def shared_total_bytes(self) -> int:
        """The upper end: buffers allocated in the module (every ``local_alloc``, as if all live at
        once) plus the largest scratch buffer (conversions, reductions, scans; Triton 3.9's sizes).
        :attr:`live_peak_bytes` is the lower end; :attr:`shared_total_status` says what they are."""
        return self.buffers_bytes + self.scratch_peak_bytes

    @property
    def shared_total_status(self) -> str:
        """``"exact"``: the lower and upper ends agree (no buffers, or buffers that are live
        together anyway), so Triton allocates that; ``"range"``: Triton allocates between
        :attr:`live_peak_bytes` and :attr:`shared_total_bytes` (its liveness may keep buffers live
        longer -- around loops -- and its offsets may fragment); ``"incomplete"``: some ops'
        scratch (:attr:`uncounted`) is not modelled (a ``tt.call``'s callee; a cluster buffer whose layout
        gives no shape per CTA), so both
        ends may miss."""
        if self.uncounted:
            return "incomplete"
        return "exact" if self.live_peak_bytes == self.shared_total_bytes else "range"

    @property
    def by_kind(self) -> dict[str, int]:
        """How many conversions of each kind."""
        return dict(Counter(c.kind for c in self.conversions))

    @property
    def over_limit(self) -> Optional[bool]:
        return None if self.shared_limit is None else self.shared_total_bytes > self.shared_limit

    def totals(self) -> dict[str, Any]:
        return {
            "conversions": len(self.conversions),
            "by_kind": self.by_kind,
            "zero_cost": sum(c.zero_cost for c in self.conversions),
            "cheaper_plans": sum(c.cheaper is not None for c in self.conversions),
            "better_layouts": sum(c.better_layout is not None for c in self.conversions),
            "buffers_bytes": self.buffers_bytes,
            "scratch_peak_bytes": self.scratch_peak_bytes,
            "shared_total_bytes": self.shared_total_bytes,
            "shared_live_peak_bytes": self.live_peak_bytes,
            "shared_live_peak_line": self.live_peak_line,
            "shared_limit": self.shared_limit,
            "shared_limit_source": self.shared_limit_source,
            "over_limit": self.over_limit,
            "shared_total_status": self.shared_total_status,
            "scratch_not_counted": self.uncounted,
            "scratch_by_op": self.scratch_by_op(),
        }

    def scratch_by_op(self) -> list[dict[str, Any]]:
        """Every op with scratch shared memory (Triton 3.9's size, exact): line, op, bytes."""
        out = [{"line": c.line, "op": c.op, "bytes": c.counts["triton"]["shared_bytes"]}
               for c in self.conversions if c.op == "ttg.convert_layout" and c.counts["triton"]["shared_bytes"]]
        out += [{"line": r.line, "op": r.op, "bytes": r.shared_bytes} for r in self.regions if r.shared_bytes]
        out += [{"line": o.line, "op": o.op, "bytes": o.shared_bytes} for o in self.other_scratch if o.shared_bytes]
        return sorted(out, key=lambda d: d["line"])

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready report: module facts, ``conversions`` (a list of dicts with at least
        ``line``, ``src``, ``dst``, ``shape``, ``dtype``, ``num_warps``, ``kind``,
        ``shared_bytes``), ``totals``, the limit table and what was skipped."""
        return {
            "target": self.target,
            "num_warps": self.num_warps,
            "threads_per_warp": self.threads_per_warp,
            "num_ctas": self.num_ctas,
            "conversions": [c.to_dict() for c in self.conversions],
            "totals": self.totals(),
            "reductions": [r.to_dict() for r in self.regions],
            "shared_memory_limits": {t: {"bytes": b, "source": s} for t, (b, s) in SHARED_MEMORY_LIMITS.items()},
            "skipped": self.skipped,
        }

    def to_json(self, indent: Optional[int] = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent)

    def format(self) -> str:
        """A readable table: one row per conversion, then the kernel totals."""
        head = ["line", "op", "kind", "shape", "dtype", "warps", "smem B", "cost / note"]
        rows = []
        for c in self.conversions:
            note = c.description
            if c.cheaper:
                note += f" CHEAPER: {c.cheaper}"
            b = c.better_layout
            if b:
                note += f" BETTER LAYOUT [{b['kind']}]: {b['layout']} -- {b['equivalent']} {b['plan']}"
            part = "" if c.partition is None else f" (p{c.partition})"
            rows.append([str(c.line), c.op.split(".", 1)[1], ("* " if c.zero_cost else "") + c.kind,
                         "x".join(map(str, c.shape)), c.dtype, f"{c.num_warps}{part}", str(c.shared_bytes), note])
        widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(head[:-1])]
        out = [f"target {self.target or '?'}, {self.num_warps} warps x {self.threads_per_warp} threads, "
               f"{self.num_ctas} CTA(s): {len(self.conversions)} layout conversions / transfers (* = zero cost)"]
        out.append("  ".join(h.ljust(w) for h, w in zip(head, widths)) + "  " + head[-1])
        for r in rows:
            out.append("  ".join(v.ljust(w) for v, w in zip(r, widths)) + "  " + r[-1])
        t = self.totals()
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(t["by_kind"].items()))
        out.append(f"by kind: {kinds or 'none'}; zero cost: {t['zero_cost']}; cheaper plan available: {t['cheaper_plans']}; "
                   f"equivalent cheaper layout: {t['better_layouts']}")
        lim = "unknown" if self.shared_limit is None else f"{self.shared_limit} B"
        verdict = "" if self.over_limit is None else (" OVER THE LIMIT" if self.over_limit else " (within the limit)")
        for g in self.regions:
            out.append(f"line {g.line}: {g.op} axis {g.axis} of {'x'.join(map(str, g.inputs[0].shape))} "
                       f"({len(g.inputs)} operand(s)): scratch {g.shared_bytes} B -- {g.why}")
        live = (f"at least {self.live_peak_bytes} B (buffers live at line {self.live_peak_line} + its scratch), at most "
                f"{self.shared_total_bytes} B (buffers {self.buffers_bytes} B, all counted live + peak scratch "
                f"{self.scratch_peak_bytes} B)")
        why = "no buffers" if not self.buffers_bytes else "the buffers are live together"
        status = {"exact": f"EXACT: {why}; the scratch sizes are Triton 3.9's",
                  "range": "RANGE: " + live,
                  "incomplete": "INCOMPLETE: the scratch of " + ", ".join(f"{n} {k}" for k, n in sorted(self.uncounted.items()))
                                + f" is not modelled; {live}"}[self.shared_total_status]
        if self.over_limit and self.live_peak_bytes <= (self.shared_limit or 0):
            verdict = " (MAY EXCEED the limit)"
        amount = (f"{self.shared_total_bytes} B" if self.live_peak_bytes == self.shared_total_bytes
                  else f"{self.live_peak_bytes}..{self.shared_total_bytes} B")
        out.append(f"shared memory: {amount} of {lim}{verdict} [{status}] [limit: {self.shared_limit_source}]")
        if self.skipped:
            out.append(f"skipped {len(self.skipped)} op(s): " + "; ".join(f"line {s['line']}: {s['why']}" for s in self.skipped[:5]))
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def to_html(self, ir_text: Optional[str] = None, *, max_cells: int = 4096) -> str:
        """A self-contained HTML report: the totals, the table, the suggestions (every equivalent
        layout considered, with what it changes), and for each conversion or transfer its source,
        destination and suggested layouts drawn (SVG, colored by thread, or by address for shared
        memory; tensors of more than ``max_cells`` elements are not drawn).  ``ir_text``, if given,
        adds the op's source line."""
        from converters.mlir import parse_type

        from ..draw import to_svg

        lines = ir_text.splitlines() if ir_text else []
        esc = html.escape
        out = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>linlayout audit</title><style>",
               "body{font-family:sans-serif;margin:1em} table{border-collapse:collapse} td,th{border:1px solid #ccc;"
               "padding:2px 6px;font-size:13px;vertical-align:top} .zero{color:#080} .cheap{color:#a40} "
               "code{font-size:12px} .pics{display:flex;gap:1em;overflow-x:auto} .pics div{flex:none} "
               ".pics svg{max-width:520px;height:auto}</style></head><body>",
               f"<h1>Layout audit: {esc(self.target or 'unknown target')}</h1>",
               f"<p>{self.num_warps} warps x {self.threads_per_warp} threads, {self.num_ctas} CTA(s); "
               f"{len(self.conversions)} conversions / transfers.</p>"]
        t = self.totals()
        text = self.format().splitlines()
        out.append("<p>" + esc(next(x for x in text if x.startswith("shared memory:"))) + "</p>")
        out.append("<p>By kind: " + esc(", ".join(f"{k} {n}" for k, n in sorted(t["by_kind"].items()))) +
                   f"; zero cost: {t['zero_cost']}; cheaper plan: {t['cheaper_plans']}; equivalent cheaper layout: "
                   f"{t['better_layouts']}</p>")
        if self.regions:
            out.append("<h2>Reductions and scans</h2><ul>" + "".join(
                f"<li>line {r.line}: {esc(r.op)} axis {r.axis} of {'x'.join(map(str, r.inputs[0].shape))}: scratch "
                f"{r.shared_bytes} B ({esc(r.why)})</li>" for r in self.regions) + "</ul>")
        out.append("<h2>Conversions and transfers</h2><table><tr><th>line</th><th>op</th><th>kind</th><th>shape</th><th>dtype</th>"
                   "<th>warps</th><th>shared B</th><th>plan</th><th>equivalent cheaper layout</th></tr>")
        for i, c in enumerate(self.conversions):
            b = c.better_layout
            cls = "zero" if c.zero_cost else ("cheap" if c.cheaper or b else "")
            note = esc(c.description) + (f"<br><b>cheaper plan:</b> {esc(c.cheaper)}" if c.cheaper else "")
            better = f"<b>{esc(b['kind'])}</b>: <code>{esc(b['layout'])}</code>" if b else ""
            out.append(f"<tr class='{cls}'><td><a href='#c{i}'>{c.line}</a></td><td>{esc(c.op)}</td><td>{esc(c.kind)}</td>"
                       f"<td>{'x'.join(map(str, c.shape))}</td><td>{esc(c.dtype)}</td><td>{c.num_warps}</td>"
                       f"<td>{c.shared_bytes}</td><td>{note}</td><td>{better}</td></tr>")
        out.append("</table>")
        sugg = [(i, c, s) for i, c in enumerate(self.conversions) for s in c.suggestions]
        out.append(f"<h2>Suggestions ({sum(s['cheaper'] for *_, s in sugg)} cheaper, "
                   f"{sum(not s['cheaper'] for *_, s in sugg)} explained trade-offs)</h2>")
        if sugg:
            out.append("<table><tr><th>line</th><th>op</th><th>verdict</th><th>kind</th><th>layout</th><th>what is equivalent</th>"
                       "<th>plan with it</th></tr>")
            for i, c, s in sugg:
                out.append(f"<tr class='{'cheap' if s['cheaper'] else ''}'><td><a href='#c{i}'>{c.line}</a></td><td>{esc(c.op)}</td>"
                           f"<td>{'cheaper' if s['cheaper'] else 'trade-off'}</td><td>{esc(s['kind'])}</td>"
                           f"<td><code>{esc(s['layout'])}</code></td><td>{esc(s['equivalent'])}</td><td>{esc(s['plan'])}</td></tr>")
            out.append("</table>")
        else:
            out.append("<p>none: every conversion is free or has no cheaper equivalent the audit knows of.</p>")

        drawn: dict[str, str] = {}  # type text -> anchor of its picture (each type is drawn once)

        def picture(type_text: str, title: str) -> str:
            if type_text in drawn:
                return f"<div><p>{esc(title)}: <a href='#{drawn[type_text]}'>drawn above</a></p></div>"
            try:
                ty = parse_type(type_text)
                L = ty.to_linear()
                if L.total_out_size > max_cells:
                    return f"<div><p>{esc(title)}: not drawn ({L.total_out_size} elements &gt; {max_cells})</p></div>"
                shared = isinstance(ty, MemDescType)
                svg = to_svg(L, bitwidth=ty.bitwidth) if shared else to_svg(L)
            except LayoutError as e:
                return f"<div><p>{esc(title)}: not drawn ({esc(str(e).splitlines()[0])})</p></div>"
            drawn[type_text] = f"p{len(drawn)}"
            what = " (offsets, colored by bank)" if shared else " (thread:register)"
            return f"<div id='{drawn[type_text]}'><p>{esc(title)}{what}</p>{svg}</div>"

        for i, c in enumerate(self.conversions):
            out.append(f"<h3 id='c{i}'>line {c.line}: {esc(c.op)} ({esc(c.location)})</h3>")
            if 0 < c.line <= len(lines):
                out.append(f"<pre><code>{esc(lines[c.line - 1].strip())}</code></pre>")
            out.append(f"<p>src <code>{esc(c.src_type or c.src)}</code><br>dst <code>{esc(c.dst_type or c.dst)}</code></p>"
                       "<div class='pics'>")
            if c.src_type and c.dst_type:
                out.append(picture(c.src_type, "source"))
                out.append(picture(c.dst_type, "destination"))
                b = c.better_layout
                if b and b["kind"] in ("register_order", "shared_layout"):
                    # the layout it replaces: the destination's, or for a shared layout the memdesc side's
                    base, old = ((c.dst_type, c.dst) if b["kind"] == "register_order" or c.dst_type.startswith("!")
                                 else (c.src_type, c.src))
                    out.append(picture(base.replace(old, b["layout"], 1), f"suggested ({b['kind']})"))
            out.append("</div>")
        out.append("</body></html>")
        return "\n".join(out)


#: ops that may take scratch shared memory the audit does not model (Triton's allocation analysis gives them some)
#: ops whose scratch the audit does not size: a call holds its callee's shared memory (not read)
_UNCOUNTED_SCRATCH = ("tt.call",)
#: what the audit cannot size per CTA in a cluster (``ttg.num-ctas`` > 1), as named in :attr:`AuditReport.uncounted`
_UNSIZED = "ttg.local_alloc in a CTA cluster whose layout gives no shape per CTA (counted whole)"


def _plan_counts(p: Plan) -> dict[str, Any]:
    return {k: getattr(p, k) for k in ("shuffles", "selects", "stores", "loads", "store_vector", "load_vector", "store_instr",
                                       "load_instr", "barriers", "store_conflicts", "load_conflicts", "reps", "register_moves")}


def _plan(a: Any, b: Any, bits: int, arch: Optional[int], strategy: str) -> Plan:
    """Plan with the matrix instructions the target has: ``ldmatrix`` from sm_75, ``stmatrix``
    from sm_90, neither on AMD (the planner's ``ldmatrix=`` / ``stmatrix=`` switches)."""
    return plan_conversion(a, b, bitwidth=bits, strategy=strategy, ldmatrix=arch is not None and arch >= 75,
                           stmatrix=arch is not None and arch >= 90)


def _convert(m: Module, op: Op, src: TensorType, dst: TensorType, arch: Optional[int]) -> Conversion:
    bits = src.bitwidth
    a, b = src.to_linear(), dst.to_linear()
    best = _plan(a, b, bits, arch, "best")
    tri = _plan(a, b, bits, arch, "triton")
    tri_bytes = cvt_scratch_bytes(tri, stmatrix=arch is not None and arch >= 90)
    cheaper = None
    try:  # a suggestion that cannot be priced is left out; the conversion's own audit stands
        sugg = conversion_suggestions(m, op, src, dst, tri, lambda x, y, bw, st: _plan(x, y, bw, arch, st))
    except LayoutError:
        sugg = []
    if best.cost < tri.cost:
        cheaper = (f"Triton 3.9 lowers this as {tri.kind} (cost {tri.cost:g}); a {best.kind} plan costs {best.cost:g}: "
                   f"{best.describe()}")
    return Conversion(
        op.line, op.location, op.name, _OPS[op.name], src.layout_text, dst.layout_text, list(src.shape), src.dtype, bits,
        op.num_warps, op.partition, best.kind, best.is_zero_cost, plan_scratch_bytes(best), tri.describe() if cheaper else best.describe(),
        {**_plan_counts(best), "cost": best.cost, "triton_cost": tri.cost,
         "triton": {**_plan_counts(tri), "shared_bytes": tri_bytes}},
        tri.kind, cheaper, [s.to_dict() for s in sugg],
        str(src), str(dst),
    )


def _shared_transfer(op: Op, reg: TensorType, mem: MemDescType, store: bool, alloc_bytes: int) -> Conversion:
    bits = reg.bitwidth
    kind = "shared_store" if store else "shared_load"
    src, dst = (reg, mem) if store else (mem, reg)
    nbytes = alloc_bytes if op.name == "ttg.local_alloc" else 0
    counts: dict[str, Any] = {}
    try:
        rep = bank_report(reg.to_linear(), mem.to_linear(), bits)
        n_regs = reg.to_linear().in_dim_size("register")
        instr = max(1, n_regs // max(rep.vector_elems, 1))
        counts = {"vector_bits": rep.vector_bits, "instructions": instr, "bank_conflicts": rep.conflicts}
        verb = "stores" if store else "loads"
        conf = "conflict-free" if rep.conflicts == 0 else f"{rep.conflicts} extra wavefront(s) per access from bank conflicts"
        desc = f"each thread {verb} {instr} x {rep.vector_bits}-bit vector(s); {conf}."
    except LayoutError as e:
        desc = f"not measured: {e}"
    return Conversion(op.line, op.location, op.name, _OPS[op.name], src.layout_text, dst.layout_text, list(reg.shape), reg.dtype,
                      bits, op.num_warps, op.partition, kind, False, nbytes, desc, counts, src_type=str(src), dst_type=str(dst))


def _tmem_transfer(op: Op, reg: TensorType, mem: MemDescType, store: bool) -> Conversion:
    bits = reg.bitwidth
    kind = "tmem_store" if store else "tmem_load"
    src, dst = (reg, mem) if store else (mem, reg)
    variant = None
    counts: dict[str, Any] = {}
    if isinstance(mem.layout, (TensorMemoryLayout, TensorMemoryScalesLayout)):
        want = reg.to_linear()
        for v in TMEM_INSTR_VARIANTS:
            try:
                L = tmem_reg_layout(mem.layout, list(reg.shape), element_bitwidth=bits, num_warps=op.num_warps, instr_variant=v,
                                    alloc_shape=list(mem.alloc_shape) if mem.alloc_shape else None)
            except LayoutError:
                continue
            if L.to_linear(list(reg.shape)) == want:
                variant = v
                break
    instr = "tcgen05.st" if store else "tcgen05.ld"
    if variant:
        counts = {"message": f"{instr}.{variant}"}
        desc = f"a {instr}.{variant} message layout: registers move straight to/from tensor memory."
    else:
        desc = f"the register layout is none of the {instr} message layouts of this tensor-memory layout (Triton needs a conversion or refuses)."
    return Conversion(op.line, op.location, op.name, _OPS[op.name], src.layout_text, dst.layout_text, list(reg.shape), reg.dtype,
                      bits, op.num_warps, op.partition, kind, False, 0, desc, counts, src_type=str(src), dst_type=str(dst))


def _cuda_arch(target: str) -> Optional[int]:
    """80 for ``"cuda:80"``; ``None`` for other targets (AMD: no matrix load/store instructions)."""
    if not target.startswith("cuda:"):
        return None
    try:
        return int(target.split(":", 1)[1].rstrip("af"))
    except ValueError:
        return None


def audit(ir_text: str, *, target: Optional[str] = None) -> AuditReport:
    """Audit every layout conversion and register <-> shared / tensor-memory transfer in a
    TritonGPU module (see the module docstring).  ``target`` overrides the module's
    ``ttg.target`` (``"cuda:90"``, ``"hip:gfx942"``).  Malformed IR raises a
    :class:`~linlayout.errors.ParseError` naming the line and position."""
    m: Module = parse_module(ir_text)
    tgt = target or m.target
    arch = _cuda_arch(tgt)
    conversions: list[Conversion] = []
    skipped: list[dict[str, Any]] = []
    sizes: dict[int, int] = {}  # line of a local_alloc -> one CTA's bytes of its buffer
    unsized = 0
    for op in m.ops:
        if op.name == "ttg.local_alloc":
            mems = [t for t in op.types if isinstance(t, MemDescType)]
            if mems:
                try:
                    sizes[op.line] = buffer_bytes(mems[-1], m.num_ctas)
                except ParseError:
                    raise
                except LayoutError as e:  # no per-CTA shape: the whole allocation, and the total is incomplete
                    sizes[op.line] = mems[-1].nbytes
                    unsized += 1
                    skipped.append({"line": op.line, "op": op.name, "why": f"buffer not sized per CTA: {str(e).splitlines()[0]}"})
        if op.name not in _OPS:
            continue
        regs = [t for t in op.types if isinstance(t, TensorType)]
        mems = [t for t in op.types if isinstance(t, MemDescType)]
        try:
            if op.name == "ttg.convert_layout":
                if len(regs) != 2:
                    raise LayoutError(f"expected two tensor types, found {len(regs)}")
                conversions.append(_convert(m, op, regs[0], regs[1], arch))
            elif not regs or not mems:
                if op.name != "ttg.local_alloc":  # an allocation without a value moves no data
                    raise LayoutError("expected a tensor type and a memdesc type")
            elif op.name.startswith("ttg."):
                conversions.append(_shared_transfer(op, regs[0], mems[0], op.name != "ttg.local_load", sizes.get(op.line, 0)))
            else:
                conversions.append(_tmem_transfer(op, regs[0], mems[0], op.name == "ttng.tmem_store"))
        except ParseError:
            raise
        except LayoutError as e:
            skipped.append({"line": op.line, "op": op.name, "why": str(e).splitlines()[0]})
    # bank conflicts are NVIDIA's 32 x 4-byte banks (linlayout.banks): no shared-layout advice for other targets
    try:
        advice = buffer_suggestions(m, lambda x, y, bw, st: _plan(x, y, bw, arch, st)) if arch is not None else {}
    except LayoutError:
        advice = {}
    for line, sug in advice.items():
        for c in conversions:
            if c.line == line:
                c.suggestions.insert(0, sug.to_dict())
    regions = []
    try:
        regions = region_ops(m)
    except ParseError:
        raise
    except LayoutError as e:
        skipped.append({"line": 0, "op": "tt.reduce/tt.scan", "why": str(e).splitlines()[0]})
    buffers = sum(sizes.values())
    cvts = [c for c in conversions if c.op == "ttg.convert_layout"]  # scratch per CTA, a cluster's too
    scratch = max([c.counts["triton"]["shared_bytes"] for c in cvts] + [r.shared_bytes for r in regions], default=0)
    others: list[OpScratch] = []
    resident = 0
    try:
        others, resident = other_scratch(m), warp_index_bytes(m)
    except ParseError:
        raise
    except LayoutError as e:
        skipped.append({"line": 0, "op": "scratch of other ops", "why": str(e).splitlines()[0]})
    # the upper end counts what the buffers can take with their alignment (a capture buffer sits
    # at a multiple of 8, and so may the warp indices after it)
    scratch = max([scratch] + [o.footprint for o in others])
    buffers += -(-resident // 8) * 8  # the warp-specialized function's warp indices, live throughout
    limit, source = shared_memory_limit(tgt)
    uncounted = dict(Counter(o.name for o in m.ops if o.name in _UNCOUNTED_SCRATCH))
    if unsized:
        uncounted[_UNSIZED] = unsized
    by_line: dict[int, int] = {}
    for ln, n in ([(c.line, c.counts["triton"]["shared_bytes"]) for c in cvts]
                  + [(r.line, r.shared_bytes) for r in regions] + [(o.line, o.shared_bytes) for o in others]):
        by_line[ln] = by_line.get(ln, 0) + n
    peak, where = live_peak(m, by_line, sizes, resident)
    return AuditReport(tgt, m.num_warps, m.threads_per_warp, m.num_ctas, conversions, buffers, scratch, limit, source, skipped,
                       uncounted, regions, others, peak, where)


# ---------------------------------------------------------------------------- the command
def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``audit`` command's arguments (for ``linlayout audit``)."""
    p.add_argument("file", help="a TritonGPU module (.ttgir, MLIR_ENABLE_DUMP output); '-' reads stdin")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--html", metavar="PATH", help="also write an HTML report with the layouts drawn")
    p.add_argument("--target", help="override the module's ttg.target (e.g. cuda:90, hip:gfx942)")


def run(args: argparse.Namespace) -> int:
    """Run the ``audit`` command (errors are :class:`~linlayout.errors.LayoutError`: one line, exit 2)."""
    from linlayout.limits import MAX_TEXT  # the size cap of layout files (/dev/zero: MemoryError before)

    if args.file == "-":
        text = sys.stdin.read(MAX_TEXT + 1)
    else:
        try:
            with open(args.file, encoding="utf-8") as f:
                text = f.read(MAX_TEXT + 1)
        except (OSError, UnicodeDecodeError) as e:
            raise LayoutError(f"cannot read {args.file}: {getattr(e, 'strerror', None) or e}") from None
    if len(text) > MAX_TEXT:
        raise LayoutError(f"cannot read {args.file}: longer than the limit of {MAX_TEXT} characters")
    report = audit(text, target=args.target)
    if args.html:
        try:
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(report.to_html(text))
        except OSError as e:
            raise LayoutError(f"cannot write {args.html}: {e.strerror}") from None
    print(report.to_json() if args.json else report.format())
    return 0
