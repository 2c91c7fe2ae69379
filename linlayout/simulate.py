"""Execution: run a conversion :class:`~linlayout.plan.Plan` on a virtual CTA and check it.

A plan is a claim; :func:`simulate` turns it into a proof (or a counterexample).  It lowers the
plan to per-thread instructions from the plan's own data and nothing else — the exchange
schedule of an in-warp plan (:func:`linlayout.plan.shuffle_schedule`: the destination register,
source lane and source register of every thread in every round), the chosen shared layout of a
round trip (vector / bank / segment offset bits and the repetitions), the store and load
instructions and their vector widths — and executes them on a virtual CTA (or cluster):

* every thread has a register file holding *element ids* (the flat tensor coordinate, first
  out-dim in the lowest bits), filled from the source layout;
* ``shfl.sync.idx``: in each round every thread reads one register from one lane of its warp;
  a lane asked for two different registers in one round is an error; rounds whose every thread
  reads itself are register moves, and rounds that share their source lanes are packed into one
  32-bit shuffle (as the plan's ``pack`` bits say);
* ``st.shared`` / ``ld.shared`` of ``v``-element vectors at the offsets the shared layout gives
  (aligned, contiguous), ``stmatrix`` / ``ldmatrix`` (``.x1/.x2/.x4``, ``.trans``) with the
  PTX fragment semantics (lane ``8i + r`` supplies the address of row ``r`` of matrix ``i``;
  thread ``t`` holds row ``t // 4``, 32-bit word ``t % 4`` of each matrix, transposed for
  ``.trans``), one round per repetition with barriers between them; a load must read what a
  store of the same round wrote (no race, no stale data);
* cross-CTA plans run the same way over one cluster-wide buffer (distributed shared memory).

Every destination register of every thread must end up holding the element the destination
layout puts there; the report gives the first wrong ``(thread, register)``, what it held and
what it should, and the shared-memory wavefronts counted per instruction (32 banks of 4 bytes;
a 64-/128-bit access is served in 2/4 phases of 16/8 lanes; a matrix instruction in one phase per
8x16-byte matrix; a phase takes as many wavefronts as the most distinct words any bank holds).

    >>> from linlayout import LinearLayout, plan_conversion
    >>> src = LinearLayout({"register": [[0, 1]], "lane": [[0, 2], [0, 4], [0, 8], [0, 16], [0, 32]],
    ...                     "warp": [[1, 0], [2, 0]]}, {"dim0": 4, "dim1": 64})
    >>> dst = LinearLayout({"register": [[1, 0]], "lane": [[2, 0], [0, 1], [0, 2], [0, 4], [0, 8]],
    ...                     "warp": [[0, 16], [0, 32]]}, {"dim0": 4, "dim1": 64})
    >>> report = simulate(plan_conversion(src, dst))
    >>> report.ok, report.kind, report.stores, report.loads
    (True, 'shared_memory', 1, 2)
"""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass, field
from typing import TypedDict

import numpy as np

from . import gf2
from .checks import expect
from .errors import LayoutError
from .linear import LinearLayout
from .plan import Plan, shuffle_schedule

__all__ = ["Access", "MemOp", "Program", "SimulationReport", "lower", "run", "simulate"]

_NUM_BANKS = 32
_WORD_BYTES = 4


@dataclass(frozen=True)
class Access:
    """One warp-wide shared-memory instruction of the program: its op, round, index within the
    round, and the wavefronts counted (the most over all warps) against the ideal (one per
    phase that has an active lane, i.e. conflict-free)."""

    op: str
    round: int
    index: int
    bits: int
    wavefronts: int
    ideal: int

    @property
    def excess(self) -> int:
        """Extra wavefronts from bank conflicts."""
        return self.wavefronts - self.ideal


@dataclass
class MemOp:
    """The shared-memory accesses of one round on one side (``store`` or ``load``).

    ``op`` is the instruction (``st.shared``, ``ld.shared``, ``stmatrix``, ``ldmatrix`` and their
    ``.trans`` forms).  Arrays are indexed by thread (lane fastest, then warp, then block) and
    instruction ``k``:

    * vector ops: ``addr[t, k]`` the element offset of the vector, ``regs[t, k, v]`` the register
      of vector element ``v``;
    * matrix ops: ``addr[t, k]`` the offset this lane supplies (row ``lane % 8`` of matrix
      ``lane // 8``), ``regs[t, k, i, v]`` the register of element ``v`` of the 32-bit word of
      matrix ``i``.

    ``active[t]`` (stores): whether thread ``t`` stores; threads holding only copies that an
    earlier thread also holds (a free variable of the layout set in their index, as Triton's
    redundant-thread predicate) are predicated off.  ``None``: every thread.
    """

    op: str
    addr: np.ndarray
    regs: np.ndarray
    active: np.ndarray | None = None

    @property
    def matrix(self) -> bool:
        return "matrix" in self.op

    @property
    def trans(self) -> bool:
        return self.op.endswith(".trans")


@dataclass
class Program:
    """A plan lowered to per-thread instructions (see :func:`lower`); mutable so that tests can
    break it on purpose.

    ``src_regs`` / ``dst_regs``: the element id each (thread, register) holds before / must hold
    after.  In-warp plans: ``dst_reg``, ``src_lane``, ``src_reg`` and ``keep`` (whether the
    receiver keeps the value) of shape ``(threads, rounds, pack)``.  Round trips: ``stores[r]`` / ``loads[r]`` per round ``r``, ``buffer`` elements.
    """

    kind: str
    bitwidth: int
    lanes: int
    src_regs: np.ndarray
    dst_regs: np.ndarray
    dst_copy_of: np.ndarray
    dst_reg: np.ndarray | None = None
    src_lane: np.ndarray | None = None
    src_reg: np.ndarray | None = None
    keep: np.ndarray | None = None
    stores: list[MemOp] = field(default_factory=list)
    loads: list[MemOp] = field(default_factory=list)
    buffer: int = 0
    ctas: int = 1


@dataclass(frozen=True)
class SimulationReport:
    """What :func:`simulate` found.

    ``ok``: every destination register of every thread holds the right element and nothing
    illegal happened (``error`` says what did otherwise).  ``first_wrong``: the first wrong
    ``(thread, register)`` as ``({'lane': .., 'warp': .., 'block': ..}, register)``; ``held`` /
    ``expected``: the tensor coordinates it held and should hold (``None`` = never written).
    Counts are per thread as executed; ``accesses`` the wavefronts per shared-memory instruction.
    """

    ok: bool
    kind: str
    error: str = ""
    first_wrong: tuple[dict[str, int], int] | None = None
    held: dict[str, int] | None = None
    expected: dict[str, int] | None = None
    shuffles: int = 0
    register_rounds: int = 0
    stores: int = 0
    loads: int = 0
    barriers: int = 0
    rounds: int = 0
    accesses: tuple[Access, ...] = ()
    count_mismatches: tuple[str, ...] = ()

    @property
    def wavefronts(self) -> dict[str, int]:
        """Total wavefronts per warp over all store / load instructions."""
        out: dict[str, int] = {}
        for a in self.accesses:
            key = "store" if a.op.startswith("st") else "load"
            out[key] = out.get(key, 0) + a.wavefronts
        return out

    @property
    def excess_wavefronts(self) -> dict[str, int]:
        """Extra wavefronts from bank conflicts over all store / load instructions."""
        out = {"store": 0, "load": 0}
        for a in self.accesses:
            out["store" if a.op.startswith("st") else "load"] += a.excess
        return out

    def __str__(self) -> str:
        if self.ok:
            head = f"ok: every destination register holds its element ({self.kind})"
        elif self.error or self.first_wrong is None:
            head = f"FAILED ({self.kind}): {self.error}"
        else:
            head = f"FAILED ({self.kind}): thread {self.first_wrong[0]} register {self.first_wrong[1]} holds {self.held}, expected {self.expected}"
        return f"{head}; {self.shuffles} shfl, {self.stores} stores, {self.loads} loads, {self.barriers} barriers per thread"


# ------------------------------------------------------------------------------------ lowering


def _threads_regs(L: LinearLayout) -> np.ndarray:
    """Element id of every (thread, register): rows are threads (lane fastest), columns registers."""
    return L.flat_table().reshape(-1, L.in_dim_size("register"))


def _register_copies(L: LinearLayout) -> tuple[list[int], np.ndarray]:
    """The independent register bits, and for each register the register with only those bits
    that holds the same element (itself when it is not a copy)."""
    basis = gf2.SpanBasis()
    indep: list[int] = []
    r = np.arange(L.in_dim_size("register"), dtype=np.int64)
    rep = r.copy()
    for j, v in enumerate(L.flat_bases("register")):
        if basis.insert(v):
            indep.append(j)
            continue
        comb = basis.reduce(v)[1]  # v is in the span: its combination over insertion indices = register bits
        flip = (1 << j) ^ comb
        rep ^= ((r >> j) & 1) * flip
    return indep, rep


def _copy_of(L: LinearLayout) -> np.ndarray:
    return _register_copies(L)[1]


def _side(plan: Plan, L: LinearLayout, instr: str, vector: int, off_of: np.ndarray, rep_of: np.ndarray,
          reps: int, offset_bases: list[int], store: bool) -> list[MemOp]:
    """The accesses of one side (the layout ``L``), one :class:`MemOp` per round.

    ``ld/st.shared``: see :func:`_vector_op`.  Matrix instructions: the 32-bit word of each
    matrix is the registers holding ``4 // bytes`` consecutive offsets (the plan's vector bits, as
    register masks: a word may sit in XOR combinations of register bases); the next two register
    bits pick the matrices of an ``.x4`` (``.x2``/``.x1`` when fewer are left); the rest count
    instructions.  A thread whose word comes permuted (its offsets XOR the low bits) renames its
    registers inside it.  Those register bits are masks too, taken from the registers whose elements
    lie in round 0 (:func:`_round_masks`), so that one instruction never mixes two rounds; a
    thread whose registers meet the rounds in another order than thread 0's is refused, as for
    vectors.
    """
    table = _threads_regs(L)
    n_threads, n_reg = table.shape
    eb = max(plan.bitwidth, 8) // 8
    regs_flat = L.flat_bases("register")
    indep = _register_copies(L)[0]
    matrix = "matrix" in instr
    trans = instr.endswith(".trans")
    thread = np.arange(n_threads, dtype=np.int64)
    free = L.free_variable_masks()
    free_bits = 0
    at = 0
    for d in ("lane", "warp", "block"):
        if d != "block" or plan.kind == "cross_cta":  # each CTA fills its own buffer otherwise
            free_bits |= free.get(d, 0) << at
        at += L.in_dim_size_log2(d)
    active = (thread & free_bits) == 0 if store and free_bits and not matrix else None
    if not matrix:
        n_vec = max(vector, 1)
        all_regs = np.zeros(1, dtype=np.int64)
        for i in indep:
            all_regs = np.concatenate((all_regs, all_regs ^ (1 << i)))
        return [_vector_op(instr, table, np.sort(all_regs), off_of, rep_of, r, n_vec, active) for r in range(reps)]
    epw = max(_WORD_BYTES // eb, 1)
    nv = epw.bit_length() - 1
    # registers are named by masks over register bits: a vector element may sit in an XOR
    # combination of register bases (a register index whose element is the XOR of theirs)
    span = gf2.SpanBasis()
    for v in regs_flat:
        span.insert(v)
    vec_bits: list[int] = []
    for j in range(nv if not trans else 0):
        m = span.express(offset_bases[j]) if j < len(offset_bases) else None
        if m is None:
            raise LayoutError(f"{instr}: a {1 << nv}-element vector needs offset bit {j} to be held by registers of the layout, and it is not")
        vec_bits.append(m)
    used = gf2.SpanBasis()
    for m in vec_bits:
        used.insert(m)
    kernel, rep_bits = _round_masks(indep, regs_flat, rep_of, reps)
    rest = [m for m in kernel if used.insert(m)]
    if trans:
        if not rest:
            raise LayoutError(f"{instr}: no register bit is left for the two halves of a 32-bit word")
        vec_bits, rest = [rest[0]], rest[1:]
    mat_bits = rest[:2] if matrix else []
    inst_bits = [m for m in rest if m not in mat_bits]
    n_vec, n_mat, n_inst = 1 << len(vec_bits), 1 << len(mat_bits), 1 << len(inst_bits)

    def compose(masks: list[int], values: np.ndarray) -> np.ndarray:
        out = np.zeros_like(values)
        for k, m in enumerate(masks):
            out ^= ((values >> k) & 1) * m
        return out

    vec_part = compose(vec_bits, np.arange(n_vec, dtype=np.int64))
    mat_part = compose(mat_bits, np.arange(n_mat, dtype=np.int64))
    inst_part = compose(inst_bits, np.arange(n_inst, dtype=np.int64))
    rep_part = compose(rep_bits, np.arange(1 << len(rep_bits), dtype=np.int64))
    # registers of (rep value, instruction, matrix, vector element)
    regs = (rep_part[:, None, None, None] ^ inst_part[None, :, None, None] ^ mat_part[None, None, :, None]
            ^ vec_part[None, None, None, :])
    lanes = plan.src.in_dim_size("lane")
    ops = []
    # the round of each register group, per thread: the same in every thread, or the registers of
    # a round would depend on the lane (a lane or warp vector with a reps component)
    t_idx = thread[:, None]
    rep_round = rep_of[table[t_idx, regs[None, :, 0, 0, 0]]]  # (threads, groups)
    if np.any(rep_round != rep_round[:1]):
        th = int(np.argwhere(np.any(rep_round != rep_round[:1], axis=1))[0][0])
        raise LayoutError(f"thread {th} meets the rounds in other registers than thread 0; "
                          "the rounds would need lane-dependent register selection")
    if np.any(np.sort(rep_round, axis=1) != np.arange(reps)[None, :]):
        raise LayoutError("the repetitions of the shared layout are not register bits of the layout: a round would hold no register or two")
    group_of = np.empty_like(rep_round)
    np.put_along_axis(group_of, rep_round, np.broadcast_to(np.arange(reps)[None, :], rep_round.shape), axis=1)
    for r in range(reps):
        rg = regs[group_of[:, r]]  # (threads, inst, mat, vec)
        elems = np.take_along_axis(table[:, None, None, :], rg.reshape(n_threads, 1, 1, -1), axis=3).reshape(rg.shape)
        # the offset lane L supplies: row L % 8 of matrix L // 8 starts at the element held by
        # lane 4 * row (word 0) -- or, transposed, by lane row // 2 (half row % 2)
        lane = thread % lanes
        base = thread - lane
        i_mat = lane // 8
        row = lane % 8
        i_mat = np.where(i_mat < n_mat, i_mat, 0)
        if trans:
            who = base + row // 2
            elt = (row % 2) if n_vec > 1 else np.zeros_like(row)
        else:
            who = base + 4 * row
            elt = np.zeros_like(row)
        ew = elems[who]  # what the lane supplying each row holds
        addr = off_of[ew[thread[:, None], np.arange(rg.shape[1])[None, :], i_mat[:, None], elt[:, None]]]
        regs_t = rg.copy()
        if not trans and n_vec > 1:
            # a word's elements sit at o ^ v: the row starts at the aligned word, and a thread whose
            # word comes permuted renames its registers inside it (free, as for vectors)
            addr &= ~(n_vec - 1)
            low = off_of[elems[..., 0]] & (n_vec - 1)  # (threads, inst, mat)
            slot_of = np.arange(n_vec, dtype=np.int64) ^ low[..., None]
            regs_t = np.take_along_axis(regs_t, slot_of, axis=3)
        ops.append(MemOp(instr, addr, regs_t, active))
    return ops


def _round_masks(indep: list[int], regs_flat: tuple[int, ...] | list[int], rep_of: np.ndarray,
                 reps: int) -> tuple[list[int], list[int]]:
    """Register masks (over the independent register bits) of a matrix side: a basis of the
    registers whose elements lie in round 0 (round coordinate zero; unit bits where they are), in
    bit order, and for each reps bit ``k`` a register whose element's round is ``2**k``.  A
    register base that mixes a round with an offset (e.g. ``reps ^ bank``) is not a round of its
    own: the round-0 basis takes it XORed with the register of that round."""
    piv = gf2.SpanBasis()  # over round values; insertion index k -> pivot register mask pmask[k]
    pmask: list[int] = []
    kernel: list[tuple[int, int]] = []
    for i in sorted(indep, key=lambda i: rep_of[regs_flat[i]] == 0):  # registers that move the round first
        r = int(rep_of[regs_flat[i]])
        rem, c = piv.reduce(r)
        if rem:
            piv.insert(r)
            pmask.append(1 << i)
            continue
        m = 1 << i
        for k, pm in enumerate(pmask):
            if c >> k & 1:
                m ^= pm
        kernel.append((i, m))
    rounds = []
    for k in range(reps.bit_length() - 1):
        rem, c = piv.reduce(1 << k)
        if rem:
            raise LayoutError("the repetitions of the shared layout are not register bits of the layout: a round would hold no register")
        m = 0
        for j, pm in enumerate(pmask):
            if c >> j & 1:
                m ^= pm
        rounds.append(m)
    return [m for _, m in sorted(kernel)], rounds


def _vector_op(instr: str, table: np.ndarray, regs: np.ndarray, off_of: np.ndarray, rep_of: np.ndarray, rnd: int,
               n_vec: int, active: np.ndarray | None) -> MemOp:
    """Round ``rnd`` of ``ld/st.shared``: the registers the shared layout puts in this round, cut
    into aligned ``n_vec``-element vectors; an instruction names the same registers in every
    thread (SIMT), ordered by thread 0's offsets.  A thread whose offsets differ from thread 0's
    inside a vector (an XOR of the low bits) takes the vector's registers in that order (a
    renaming inside the thread)."""
    elems = table[:, regs]
    off = off_of[elems]
    mine = np.nonzero(rep_of[elems[0]] == rnd)[0]
    group = mine[np.argsort(off[0, mine], kind="stable")].reshape(-1, n_vec)  # (inst, vec) of thread 0
    if np.any(rep_of[elems[:, group]] != rnd):
        th = int(np.argwhere(np.any(rep_of[elems[:, group]] != rnd, axis=(1, 2)))[0][0])
        raise LayoutError(f"round {rnd}: thread {th} holds elements of another round in the registers thread 0 stores now; "
                          "the rounds would need lane-dependent register selection")
    o = off[:, group]  # (threads, inst, vec)
    low = o[:, :, 0] & (n_vec - 1)
    base = o[:, :, 0] - low
    slot = o - base[:, :, None]
    if np.any(np.sort(slot, axis=2) != np.arange(n_vec)):
        th = int(np.argwhere(np.any(np.sort(slot, axis=2) != np.arange(n_vec), axis=2))[0][0])
        raise LayoutError(
            f"{instr}: thread {th} has no aligned run of {n_vec} consecutive offsets in round {rnd}; the plan's "
            f"{n_vec}-element vectors do not exist in this shared layout"
        )
    order = np.argsort(slot, axis=2)
    reg_t = np.take_along_axis(np.broadcast_to(regs[group][None], o.shape), order, axis=2)
    return MemOp(instr, base, reg_t, active)


def lower(plan: Plan) -> Program:
    """The per-thread program a plan describes (see the module docstring).

        >>> from linlayout import LinearLayout, plan_conversion
        >>> s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
        >>> d = LinearLayout({"register": [[32]], "lane": [[2], [4], [8], [16], [1]]}, {"dim0": 64})
        >>> prog = lower(plan_conversion(s, d))
        >>> prog.src_lane[0].tolist(), prog.dst_reg[0].tolist()   # lane 0: round 0 reads itself, round 1 lane 16
        ([[0], [16]], [[0], [1]])
    """
    expect(plan, Plan, "simulate.lower: plan")
    src, dst = plan.src, plan.dst
    if dst.out_dim_names != src.out_dim_names:
        dst = dst.transpose_outs(src.out_dim_names)
    prog = Program(plan.kind, plan.bitwidth, src.in_dim_size("lane"), _threads_regs(src), _threads_regs(dst), _copy_of(dst))
    if plan.kind in ("noop", "register", "warp_shuffle"):
        sch = plan.shuffle_schedule if plan.shuffle_schedule is not None else shuffle_schedule(src, dst, plan.bitwidth)
        n_threads = prog.src_regs.shape[0]
        rounds = sch.in_dim_size("round") * (sch.in_dim_size("extra") if sch.has_in_dim("extra") else 1)
        t = sch.table().reshape(n_threads, rounds, sch.in_dim_size("pack"), -1)
        prog.dst_reg, prog.src_lane, prog.src_reg = t[..., 0].copy(), t[..., 1].copy(), t[..., 2].copy()
        prog.keep = t[..., 3] == 0 if t.shape[-1] > 3 else np.ones(t.shape[:-1], dtype=bool)
        return prog
    lay = plan.shared_layout
    if lay is None:
        raise LayoutError(f"a {plan.kind} plan needs its shared layout to be simulated")
    table = lay.flat_table()
    n = src.total_out_size
    if len(table) != n or len(np.unique(table)) != n:
        raise LayoutError("the plan's shared layout is not a bijection between buffer offsets and tensor elements")
    reps = lay.in_dim_size("reps")
    per_round = n // reps
    where = np.empty(n, dtype=np.int64)
    where[table] = np.arange(n, dtype=np.int64)
    # a cluster's buffer layout has a ``block`` in-dim (before ``reps``): each CTA's buffer holds
    # one CTA's part, and an element's offset leaves out its block bits
    buffer = per_round // (lay.in_dim_size("block") if lay.has_in_dim("block") else 1)
    off_of, rep_of = where % buffer, where // per_round
    offset_bases = list(lay.flat_bases("vector")) + list(lay.flat_bases("bank")) + list(lay.flat_bases("segment"))
    prog.buffer = buffer
    prog.ctas = src.in_dim_size("block")
    prog.stores = _side(plan, src, plan.store_instr, plan.store_vector, off_of, rep_of, reps, offset_bases, True)
    prog.loads = _side(plan, dst, plan.load_instr, plan.load_vector, off_of, rep_of, reps, offset_bases, False)
    return prog


# ----------------------------------------------------------------------------------- execution


class _Failure(Exception):
    pass


def _matrix_cells(op: MemOp, lanes: int, eb: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For a matrix op: (thread, register, memory offset) of every element it moves."""
    n_threads, n_inst = op.addr.shape
    n_mat, n_vec = op.regs.shape[2], op.regs.shape[3]
    epw = max(_WORD_BYTES // eb, 1)
    thread = np.arange(n_threads, dtype=np.int64)
    lane = thread % lanes
    base = thread - lane
    ts, rs, offs = [], [], []
    for i in range(n_mat):
        for v in range(n_vec):
            if op.trans:
                # thread t holds fragment (row t // 4, col 2 (t % 4) + v) = memory (row 2 (t % 4) + v, col t // 4)
                mrow = 2 * (lane % 4) + v
                col = lane // 4
            else:
                mrow = lane // 4
                col = (lane % 4) * epw + v
            supplier = base + 8 * i + mrow
            off = op.addr[supplier, :] + col[:, None]
            ts.append(np.broadcast_to(thread[:, None], off.shape))
            rs.append(op.regs[:, :, i, v])
            offs.append(off)
    return np.stack(ts, -1), np.stack(rs, -1), np.stack(offs, -1)


def _cells(op: MemOp, lanes: int, eb: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(thread, register, offset) arrays of shape (threads, instructions, elements)."""
    if op.matrix:
        return _matrix_cells(op, lanes, eb)
    n_threads, n_inst = op.addr.shape
    nvec = op.regs.shape[2]
    thread = np.broadcast_to(np.arange(n_threads, dtype=np.int64)[:, None, None], op.regs.shape)
    off = op.addr[:, :, None] + np.arange(nvec, dtype=np.int64)[None, None, :]
    if op.active is not None:
        return thread[op.active], op.regs[op.active], off[op.active]
    return thread, op.regs, off


def _wavefronts(op: MemOp, lanes: int, eb: int, rnd: int, bits: int) -> list[Access]:
    """Wavefronts of every instruction of ``op`` (the most over all warps)."""
    n_threads, n_inst = op.addr.shape
    warps = n_threads // lanes
    if op.matrix:
        # one phase per matrix: 8 rows of 16 bytes from the addresses lanes 8i..8i+7 supply
        n_mat = op.regs.shape[2]
        a = op.addr.reshape(warps, lanes, n_inst)[:, : 8 * n_mat, :]
        words = (a * eb) // _WORD_BYTES
        words = words[..., None] + np.arange(4, dtype=np.int64)
        phase = np.broadcast_to((np.arange(8 * n_mat) // 8)[None, :, None, None], words.shape)
        nph = n_mat
        vec_bytes = 16
    else:
        nvec = op.regs.shape[2]
        vec_bytes = nvec * eb
        nw = max(vec_bytes // _WORD_BYTES, 1)
        per_phase = lanes // nw if vec_bytes > _WORD_BYTES else lanes
        a = op.addr.reshape(warps, lanes, n_inst)
        words = (a * eb) // _WORD_BYTES
        words = words[..., None] + np.arange(nw, dtype=np.int64)
        phase = np.broadcast_to((np.arange(lanes) // per_phase)[None, :, None, None], words.shape)
        nph = lanes // per_phase
    inst = np.broadcast_to(np.arange(n_inst)[None, None, :, None], words.shape)
    warp = np.broadcast_to(np.arange(warps)[:, None, None, None], words.shape)
    group = (warp * n_inst + inst) * nph + phase
    keys = group.astype(np.int64) * (1 << 34) + words
    if op.active is not None and not op.matrix:
        keys = keys[np.broadcast_to(op.active.reshape(warps, lanes)[:, :, None, None], keys.shape)]
    key = np.unique(keys.ravel())
    g, w = key >> 34, key & ((1 << 34) - 1)
    counts = np.bincount(g * _NUM_BANKS + (w % _NUM_BANKS), minlength=warps * n_inst * nph * _NUM_BANKS)
    per_phase_wf = counts.reshape(warps, n_inst, nph, _NUM_BANKS).max(-1)
    per_inst = per_phase_wf.sum(-1).max(0)
    ideal = (per_phase_wf > 0).sum(-1).max(0)  # phases with an active lane: one wavefront each
    return [Access(op.op, rnd, k, vec_bytes * 8 if not op.matrix else 128 * op.regs.shape[2], int(per_inst[k]), int(ideal[k]))
            for k in range(n_inst)]


class _Counts(TypedDict, total=False):
    """The per-thread counts one execution gives (the count fields of :class:`SimulationReport`)."""

    shuffles: int
    register_rounds: int
    stores: int
    loads: int
    barriers: int
    rounds: int


def _run_exchange(prog: Program) -> tuple[np.ndarray, _Counts]:
    dst_reg, src_lane, src_reg = prog.dst_reg, prog.src_lane, prog.src_reg
    if dst_reg is None or src_lane is None or src_reg is None:
        raise _Failure("an in-warp program needs dst_reg, src_lane and src_reg (one of them is None)")
    n_threads = prog.src_regs.shape[0]
    lanes = prog.lanes
    t = np.arange(n_threads, dtype=np.int64)[:, None, None]
    lane = t % lanes
    sender = t - lane + src_lane
    if np.any(src_lane < 0) or np.any(src_lane >= lanes):
        raise _Failure("a shuffle reads a lane outside the warp")
    n_rounds, n_pack = dst_reg.shape[1], dst_reg.shape[2]
    rnd = np.broadcast_to(np.arange(n_rounds)[None, :, None], dst_reg.shape)
    pk = np.broadcast_to(np.arange(n_pack)[None, None, :], dst_reg.shape)
    moving = np.any(src_lane != lane, axis=(0, 2))  # rounds that need a shuffle
    # in a shuffle round each sending lane offers one register per pack slot (rounds where every
    # thread reads itself are register moves and may read any register)
    key = ((sender * n_rounds + rnd) * n_pack + pk).ravel()
    live = np.broadcast_to(moving[None, :, None], dst_reg.shape).ravel()
    asked = np.full(n_threads * n_rounds * n_pack, -1, dtype=np.int64)
    asked[key[live]] = src_reg.ravel()[live]
    bad = np.nonzero(live & (asked[key] != src_reg.ravel()))[0]
    if len(bad):
        i = bad[0]
        s = int(np.broadcast_to(sender, src_reg.shape).ravel()[i])
        raise _Failure(
            f"round {int(rnd.ravel()[i])}: lane {s % lanes} of warp {s // lanes} is asked for registers "
            f"{int(asked[key[i]])} and {int(src_reg.ravel()[i])} at once (a shuffle sends one value)"
        )
    keep = prog.keep if prog.keep is not None else np.ones(dst_reg.shape, dtype=bool)
    value = prog.src_regs[np.broadcast_to(sender, src_reg.shape), src_reg][keep]
    out = np.full(prog.dst_regs.shape, -1, dtype=np.int64)
    hits = np.zeros(prog.dst_regs.shape, dtype=np.int64)
    tt = np.broadcast_to(t, dst_reg.shape)[keep]
    dr = dst_reg[keep]
    np.add.at(hits, (tt, dr), 1)
    if np.any(hits > 1):
        th, r = np.argwhere(hits > 1)[0]
        raise _Failure(f"thread {int(th)} register {int(r)} is written in two rounds")
    out[tt, dr] = value
    words = max(prog.bitwidth // 32, 1)
    return out, {"shuffles": int(moving.sum()) * words, "register_rounds": int((~moving).sum())}


def _run_shared(prog: Program, accesses: list[Access]) -> tuple[np.ndarray, _Counts]:
    eb = max(prog.bitwidth, 8) // 8
    own = prog.kind == "shared_memory"  # one buffer per CTA (else one for the cluster)
    banks = prog.ctas if own else 1
    per_cta = prog.src_regs.shape[0] // prog.ctas
    mem = np.full(prog.buffer * banks, -1, dtype=np.int64)
    written = np.full(prog.buffer * banks, -1, dtype=np.int64)
    out = np.full(prog.dst_regs.shape, -1, dtype=np.int64)
    barriers = stores = loads = 0
    bits = prog.bitwidth
    for r, (st, ld) in enumerate(zip(prog.stores, prog.loads)):
        if r:
            barriers += 1  # the previous round's loads finish before this round's stores
        for op, what in ((st, "store"), (ld, "load")):
            vec_elems = op.regs.shape[-1] * (op.regs.shape[2] if op.matrix else 1)
            on = op.active if op.active is not None else np.ones(op.addr.shape[0], dtype=bool)
            if not op.matrix and np.any(op.addr[on] % vec_elems):
                th, k = np.argwhere((op.addr % vec_elems != 0) & on[:, None])[0]
                raise _Failure(f"round {r}: thread {int(th)} {what}s a {vec_elems}-element vector at offset {int(op.addr[th, k])}, not aligned")
            if op.matrix and np.any((op.addr * eb) % 16):
                th, k = np.argwhere((op.addr * eb) % 16)[0]
                raise _Failure(f"round {r}: lane {int(th) % prog.lanes} supplies {op.op} row offset {int(op.addr[th, k])}, not 16-byte aligned")
            th, rg, off = _cells(op, prog.lanes, eb)
            if np.any(off < 0) or np.any(off >= prog.buffer):
                raise _Failure(f"round {r}: a {what} reaches outside the {prog.buffer * eb}-byte buffer")
            accesses.extend(_wavefronts(op, prog.lanes, eb, r, bits))
            th, rg, off = th.ravel(), rg.ravel(), off.ravel()
            if own:
                off = off + (th // per_cta) * prog.buffer
            if what == "store":
                val = prog.src_regs[th, rg]
                mem[off] = val
                clash = np.nonzero(mem[off] != val)[0]
                if len(clash):
                    i = clash[0]
                    raise _Failure(f"round {r}: two threads store different elements to offset {int(off[i])}")
                written[off] = r
                stores += op.addr.shape[1]
                barriers += 1
            else:
                stale = np.nonzero(written[off] != r)[0]
                if len(stale):
                    i = stale[0]
                    raise _Failure(f"round {r}: thread {int(th[i])} loads offset {int(off[i])}, which no store of this round wrote")
                if np.any(out[th, rg] >= 0):
                    raise _Failure(f"round {r}: a destination register is loaded twice")
                out[th, rg] = mem[off]
                loads += op.addr.shape[1]
    return out, {"stores": stores, "loads": loads, "barriers": barriers, "rounds": len(prog.stores)}


def _coords(L: LinearLayout, e: int) -> dict[str, int]:
    out, s = {}, 0
    for n in L.out_dim_names:
        k = L.out_dim_size_log2(n)
        out[n] = (e >> s) & ((1 << k) - 1)
        s += k
    return out


def run(prog: Program, plan: Plan | None = None) -> SimulationReport:
    """Execute a :class:`Program` and check every destination register (see :func:`simulate`);
    with ``plan``, also compare the executed counts with the plan's and name coordinates.

        >>> from linlayout import LinearLayout, plan_conversion
        >>> s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
        >>> d = LinearLayout({"register": [[32]], "lane": [[2], [4], [8], [16], [1]]}, {"dim0": 64})
        >>> p = plan_conversion(s, d)
        >>> prog = lower(p)
        >>> prog.src_lane[0, 1, 0] = 17                      # lane 0 reads the wrong lane in round 1
        >>> r = run(prog, p)
        >>> r.ok, r.first_wrong, r.held, r.expected
        (False, ({'lane': 0, 'warp': 0, 'block': 0}, 1), {'dim0': 34}, {'dim0': 32})
    """
    accesses: list[Access] = []
    counts: _Counts = {}
    try:
        if prog.dst_reg is not None:
            out, counts = _run_exchange(prog)
        else:
            out, counts = _run_shared(prog, accesses)
    except _Failure as e:
        return SimulationReport(False, prog.kind, error=str(e), accesses=tuple(accesses))
    # registers that copy another one (broadcast) are register moves after the exchange
    filled = out[:, prog.dst_copy_of]
    own = prog.dst_copy_of == np.arange(len(prog.dst_copy_of))
    stray = out[:, ~own] >= 0
    wrong = np.argwhere(filled != prog.dst_regs)
    mism = _mismatches(plan, counts) if plan is not None else ()
    if np.any(stray):
        th, r = np.argwhere(stray)[0]
        return SimulationReport(False, prog.kind, error=f"thread {int(th)} writes register {int(np.nonzero(~own)[0][r])}, a broadcast copy", accesses=tuple(accesses), **counts)
    if len(wrong):
        th, r = (int(x) for x in wrong[0])
        lanes = prog.lanes
        warps = plan.src.in_dim_size("warp") if plan is not None else 1
        thread = {"lane": th % lanes, "warp": (th // lanes) % warps, "block": th // (lanes * warps)}
        L = plan.dst if plan is not None else None
        held = int(filled[th, r])
        exp = int(prog.dst_regs[th, r])
        return SimulationReport(
            False, prog.kind, first_wrong=(thread, r),
            held=None if held < 0 else (_coords(L, held) if L is not None else {"flat": held}),
            expected=_coords(L, exp) if L is not None else {"flat": exp},
            accesses=tuple(accesses), count_mismatches=mism, **counts,
        )
    return SimulationReport(True, prog.kind, accesses=tuple(accesses), count_mismatches=mism, **counts)


def _mismatches(plan: Plan, counts: _Counts) -> tuple[str, ...]:
    out = []
    for name, executed in counts.items():
        if name in ("shuffles", "stores", "loads", "barriers") and executed != getattr(plan, name):
            out.append(f"{name}: plan says {getattr(plan, name)}, executed {executed}")
    return tuple(out)


def simulate(plan: Plan) -> SimulationReport:
    """Run ``plan`` on a virtual CTA and check that every destination register of every thread
    ends up holding the element the destination layout puts there (see the module docstring).

    A plan whose data cannot even be lowered (a vector the shared layout does not make
    contiguous, repetitions that are not registers...) gives a failed report saying why.

        >>> from linlayout import LinearLayout, plan_conversion
        >>> s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
        >>> d = LinearLayout({"register": [[32]], "lane": [[2], [4], [8], [16], [1]]}, {"dim0": 64})
        >>> r = simulate(plan_conversion(s, d))
        >>> r.ok, r.shuffles, r.register_rounds
        (True, 1, 1)
    """
    if not isinstance(plan, Plan):
        raise LayoutError(f"simulate expects a Plan (from plan_conversion), got {type(plan).__name__}")
    try:
        prog = lower(plan)
    except LayoutError as e:
        return SimulationReport(False, plan.kind, error=f"cannot lower the plan: {e}")
    return run(prog, plan)


class _CallableModule(types.ModuleType):
    """``linlayout.simulate`` names both this module and its function: importing the submodule
    makes the package attribute the module, so calling the module runs :func:`simulate`."""

    def __call__(self, plan: Plan) -> SimulationReport:
        return simulate(plan)


sys.modules[__name__].__class__ = _CallableModule
