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
attributes; the kernel total compares the shared memory the module allocates plus the peak
conversion scratch with the target's per-block limit (:data:`SHARED_MEMORY_LIMITS`, with sources).

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
    #: ops whose scratch shared memory the total does not count (reductions across warps ...): name -> how many
    uncounted: dict[str, int] = field(default_factory=dict)

    @property
    def shared_total_bytes(self) -> int:
        """Buffers allocated in the module (every ``local_alloc``; no liveness analysis) plus the
        largest conversion scratch buffer: an upper bound of what Triton allocates, except for the
        scratch of the ops in :attr:`uncounted` (reductions across warps and the like)."""
        return self.buffers_bytes + self.scratch_peak_bytes

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
            "buffers_bytes": self.buffers_bytes,
            "scratch_peak_bytes": self.scratch_peak_bytes,
            "shared_total_bytes": self.shared_total_bytes,
            "shared_limit": self.shared_limit,
            "shared_limit_source": self.shared_limit_source,
            "over_limit": self.over_limit,
            "scratch_not_counted": self.uncounted,
        }

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
        out.append(f"by kind: {kinds or 'none'}; zero cost: {t['zero_cost']}; cheaper plan available: {t['cheaper_plans']}")
        lim = "unknown" if self.shared_limit is None else f"{self.shared_limit} B"
        verdict = "" if self.over_limit is None else (" OVER THE LIMIT" if self.over_limit else " (within the limit)")
        out.append(f"shared memory: buffers {self.buffers_bytes} B + peak conversion scratch {self.scratch_peak_bytes} B = "
                   f"{self.shared_total_bytes} B of {lim}{verdict} [{self.shared_limit_source}]")
        if self.uncounted:
            out.append("not counted: the scratch of " + ", ".join(f"{n} {k}" for k, n in sorted(self.uncounted.items())))
        if self.skipped:
            out.append(f"skipped {len(self.skipped)} op(s): " + "; ".join(f"line {s['line']}: {s['why']}" for s in self.skipped[:5]))
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()

    def to_html(self, ir_text: Optional[str] = None, *, max_cells: int = 4096) -> str:
        """A self-contained HTML report: the table, the totals, and for each conversion the
        source and destination layouts drawn (SVG, colored by thread; layouts of more than
        ``max_cells`` elements are not drawn).  ``ir_text``, if given, adds the op's source line."""
        from ..draw import to_svg

        lines = ir_text.splitlines() if ir_text else []
        esc = html.escape
        out = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>linlayout audit</title><style>",
               "body{font-family:sans-serif;margin:1em} table{border-collapse:collapse} td,th{border:1px solid #ccc;"
               "padding:2px 6px;font-size:13px;vertical-align:top} .zero{color:#080} .cheap{color:#a40} "
               "code{font-size:12px} .pics{display:flex;gap:1em;overflow-x:auto}</style></head><body>",
               f"<h1>Layout audit: {esc(self.target or 'unknown target')}</h1>",
               f"<p>{self.num_warps} warps x {self.threads_per_warp} threads, {self.num_ctas} CTA(s); "
               f"{len(self.conversions)} conversions / transfers.</p>"]
        t = self.totals()
        out.append("<p>" + esc(self.format().splitlines()[-1 if not self.skipped else -2]) + "</p>")
        out.append("<p>By kind: " + esc(", ".join(f"{k} {n}" for k, n in sorted(t["by_kind"].items()))) + "</p>")
        out.append("<table><tr><th>line</th><th>op</th><th>kind</th><th>shape</th><th>dtype</th><th>warps</th>"
                   "<th>shared B</th><th>plan</th></tr>")
        for i, c in enumerate(self.conversions):
            cls = "zero" if c.zero_cost else ("cheap" if c.cheaper else "")
            note = esc(c.description) + (f"<br><b>cheaper:</b> {esc(c.cheaper)}" if c.cheaper else "")
            out.append(f"<tr class='{cls}'><td><a href='#c{i}'>{c.line}</a></td><td>{esc(c.op)}</td><td>{esc(c.kind)}</td>"
                       f"<td>{'x'.join(map(str, c.shape))}</td><td>{esc(c.dtype)}</td><td>{c.num_warps}</td>"
                       f"<td>{c.shared_bytes}</td><td>{note}</td></tr>")
        out.append("</table>")
        for i, c in enumerate(self.conversions):
            out.append(f"<h3 id='c{i}'>line {c.line}: {esc(c.op)} ({esc(c.location)})</h3>")
            if 0 < c.line <= len(lines):
                out.append(f"<pre><code>{esc(lines[c.line - 1].strip())}</code></pre>")
            out.append(f"<p>src <code>{esc(c.src)}</code><br>dst <code>{esc(c.dst)}</code></p><div class='pics'>")
            n = 1
            for s in c.shape:
                n *= s
            for side in (c.src, c.dst):
                if n > max_cells or not side.startswith(("#ttg.blocked", "#ttg.slice", "#ttg.nvidia_mma", "#ttg.dot_op",
                                                         "#ttg.linear", "#ttg.amd_")):
                    continue
                try:
                    from converters.mlir import parse_attr

                    out.append("<div>" + to_svg(parse_attr(side).to_linear(list(c.shape))) + "</div>")
                except LayoutError as e:
                    out.append(f"<p>(not drawn: {esc(str(e).splitlines()[0])})</p>")
            out.append("</div>")
        out.append("</body></html>")
        return "\n".join(out)


#: ops that may take scratch shared memory the audit does not model (Triton's allocation analysis gives them some)
_UNCOUNTED_SCRATCH = ("tt.reduce", "tt.scan", "tt.histogram", "tt.gather", "tt.atomic_rmw", "tt.atomic_cas", "ttg.warp_specialize")


def _plan_counts(p: Plan) -> dict[str, Any]:
    return {k: getattr(p, k) for k in ("shuffles", "selects", "stores", "loads", "store_vector", "load_vector", "store_instr",
                                       "load_instr", "barriers", "store_conflicts", "load_conflicts", "reps", "register_moves")}


def _plan(a: Any, b: Any, bits: int, arch: Optional[int], strategy: str) -> Plan:
    """Plan with the matrix instructions the target has: ``ldmatrix`` from sm_75, ``stmatrix``
    from sm_90, none on AMD.  ``plan_conversion`` has one switch for both, so before sm_90 a
    plan that would store with ``stmatrix`` is made again without matrix instructions."""
    p = plan_conversion(a, b, bitwidth=bits, matrix_instructions=arch is not None and arch >= 75, strategy=strategy)
    if arch is not None and arch < 90 and p.uses_stmatrix:
        p = plan_conversion(a, b, bitwidth=bits, matrix_instructions=False, strategy=strategy)
    return p


def _convert(op: Op, src: TensorType, dst: TensorType, arch: Optional[int]) -> Conversion:
    bits = src.bitwidth
    a, b = src.to_linear(), dst.to_linear()
    best = _plan(a, b, bits, arch, "best")
    tri = _plan(a, b, bits, arch, "triton")
    cheaper = None
    if best.cost < tri.cost:
        cheaper = (f"Triton 3.9 lowers this as {tri.kind} (cost {tri.cost:g}); a {best.kind} plan costs {best.cost:g}: "
                   f"{best.describe()}")
    return Conversion(
        op.line, op.location, op.name, _OPS[op.name], src.layout_text, dst.layout_text, list(src.shape), src.dtype, bits,
        op.num_warps, op.partition, best.kind, best.is_zero_cost, best.shared_bytes, tri.describe() if cheaper else best.describe(),
        {**_plan_counts(best), "cost": best.cost, "triton_cost": tri.cost,
         "triton": {**_plan_counts(tri), "shared_bytes": tri.shared_bytes}}, tri.kind, cheaper,
    )


def _shared_transfer(op: Op, reg: TensorType, mem: MemDescType, store: bool) -> Conversion:
    bits = reg.bitwidth
    kind = "shared_store" if store else "shared_load"
    src, dst = (reg, mem) if store else (mem, reg)
    nbytes = mem.nbytes if op.name == "ttg.local_alloc" else 0
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
                      bits, op.num_warps, op.partition, kind, False, nbytes, desc, counts)


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
                      bits, op.num_warps, op.partition, kind, False, 0, desc, counts)


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
    buffers = 0
    for op in m.ops:
        if op.name == "ttg.local_alloc":
            mems = [t for t in op.types if isinstance(t, MemDescType)]
            if mems:
                buffers += mems[-1].nbytes
        if op.name not in _OPS:
            continue
        regs = [t for t in op.types if isinstance(t, TensorType)]
        mems = [t for t in op.types if isinstance(t, MemDescType)]
        try:
            if op.name == "ttg.convert_layout":
                if len(regs) != 2:
                    raise LayoutError(f"expected two tensor types, found {len(regs)}")
                conversions.append(_convert(op, regs[0], regs[1], arch))
            elif not regs or not mems:
                if op.name != "ttg.local_alloc":  # an allocation without a value moves no data
                    raise LayoutError("expected a tensor type and a memdesc type")
            elif op.name.startswith("ttg."):
                conversions.append(_shared_transfer(op, regs[0], mems[0], op.name != "ttg.local_load"))
            else:
                conversions.append(_tmem_transfer(op, regs[0], mems[0], op.name == "ttng.tmem_store"))
        except ParseError:
            raise
        except LayoutError as e:
            skipped.append({"line": op.line, "op": op.name, "why": str(e).splitlines()[0]})
    scratch = max((c.shared_bytes for c in conversions if c.op == "ttg.convert_layout"), default=0)
    limit, source = shared_memory_limit(tgt)
    uncounted = dict(Counter(o.name for o in m.ops if o.name in _UNCOUNTED_SCRATCH))
    return AuditReport(tgt, m.num_warps, m.threads_per_warp, m.num_ctas, conversions, buffers, scratch, limit, source, skipped,
                       uncounted)


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
