"""Shared-memory bank conflicts of a register layout stored to / loaded from a shared layout.

Shared memory is 32 banks of 4-byte words; a *line* is 128 bytes (one word in each bank).  A warp's
``ld.shared``/``st.shared`` of ``v``-element vectors is served in wavefronts; a wavefront that needs
two different words of the same bank is replayed.  :func:`bank_conflicts` counts, as Triton's
``gl.bank_conflicts`` does, the *excess* wavefronts per wavefront: 0 is conflict-free, 7 means
every wavefront is served 8 times.

Two counts, one unit.  ``bank_conflicts(reg, smem, bits)`` is Triton 3.9's linear *model*
(``gl.bank_conflicts``; tests/oracles/triton-3.9/bank_conflicts.jsonl, every row): Triton
chooses its shared layouts with it, and ``strategy="triton"`` reproduces those choices.
``bank_conflicts(..., hardware=True)`` is what the hardware executes (what
:func:`linlayout.simulate.simulate` counts, wavefront by wavefront): the wavefront's lanes'
*word* addresses (an aligned vector's start, the bits inside one 32-bit word dropped) collide
along ``2 ** (rank(words) - rank(their bank bits)) - 1``, for the vector the access really
moves (``vector=``; Triton's widest vector by default).  The two differ where Triton's model
splits the offset by elements (``vector | bank | segment``, ``1024 / (v * bits)`` elements per
line): with sub-word accesses (``v * bits < 32``) two lanes whose offsets differ by a line bit
and a byte inside the word hit the same bank in different words, a conflict the model misses;
and where the executed vector is not the model's widest one (its lanes per wavefront and
segment bits then differ).  The planner (:mod:`linlayout.plan`) claims the hardware count.

The count is linear algebra (Triton's ``bankConflictsMemDesc``): remove broadcast registers, pick
the widest vector (at most 128 bits) the register -> offset map allows, split the shared offset
bits into ``vector | bank | segment``; the lanes of one wavefront collide exactly along the span of
the segment bits they share, so the count is ``2 ** dim(span(segment) & span(lanes)) - 1``.
:func:`bank_report` also simulates one instruction and says which lanes collide on which bank;
:func:`word_cells` lists what each bank word holds (the one picture of it is
:func:`linlayout.draw.bank_picture`).

The TileLayout worked example: an (8, 64) fp16 tile stored row-major; a warp reading column 0 with
lanes 0..7 on the 8 rows.  Unswizzled, all rows start in bank 0; with ``Swizzle(3, 3, 3)`` row
``i`` sits at element ``72 * i`` (byte ``144 * i``), banks 0, 4, ..., 28:

    >>> from linlayout.linear import LinearLayout
    >>> from linlayout.swizzle import Swizzle
    >>> reg = LinearLayout({"register": [], "lane": [[1, 0], [2, 0], [4, 0], [0, 0], [0, 0]]},
    ...                    {"dim0": 8, "dim1": 64}, require_surjective=False)
    >>> plain = LinearLayout({"offset": [[0, 1 << k] for k in range(6)] + [[1, 0], [2, 0], [4, 0]]},
    ...                      {"dim0": 8, "dim1": 64})
    >>> bank_conflicts(reg, plain, 16)
    7
    >>> swz = swizzled_shared(plain, Swizzle(3, 3, 3))
    >>> bank_conflicts(reg, swz, 16), bank_report(reg, swz, 16).banks_of_lanes()[:8]
    (0, [0, 4, 8, 12, 16, 20, 24, 28])
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from . import gf2
from .checks import as_bool, as_int, check_pow2, expect, is_pow2
from .errors import DimensionError, NotSurjectiveError, SizeError
from .limits import as_list
from .contract import as_linear
from .linear import LinearLayout
from .swizzle import Swizzle

__all__ = [
    "NUM_BANKS",
    "BANK_BYTES",
    "LINE_BYTES",
    "bank_conflicts",
    "hardware_conflicts",
    "bank_report",
    "BankReport",
    "word_cells",
    "swizzled_shared",
    "check_bank_geometry",
]

NUM_BANKS = 32
BANK_BYTES = 4


def check_bank_geometry(banks: Any, bank_bytes: Any) -> tuple[int, int]:
    """``(banks, bank_bytes)`` when both are powers of two of sensible size (1..1024 banks of
    1..128 bytes); a :class:`~linlayout.errors.SizeError` otherwise.

        >>> check_bank_geometry(32, 4)
        (32, 4)
    """
    banks = check_pow2(banks, "banks")
    bank_bytes = check_pow2(bank_bytes, "bank_bytes")
    if banks > 1024 or bank_bytes > 128:
        raise SizeError(f"banks must be at most 1024 and bank_bytes at most 128, got {banks} and {bank_bytes}")
    return banks, bank_bytes
LINE_BYTES = NUM_BANKS * BANK_BYTES


# ----------------------------------------------------------------------------------- inputs
def _prepare(register_layout: Any, shared_layout: Any, bitwidth: int, shape: Sequence[int] | None):
    if not isinstance(bitwidth, int) or isinstance(bitwidth, bool) or bitwidth not in (1, 2, 4, 8, 16, 32, 64, 128):
        raise SizeError(f"bitwidth must be a power of two between 1 and 128, got {bitwidth!r}")
    reg = as_linear(register_layout, shape, what="register layout")
    smem = as_linear(shared_layout, shape, what="shared layout")
    if not smem.has_in_dim("offset"):
        raise DimensionError(f"the shared layout needs an 'offset' input dim, got {list(smem.in_dim_names)}")
    if not reg.has_in_dim("register") or not reg.has_in_dim("lane"):
        raise DimensionError(f"the register layout needs 'register' and 'lane' input dims, got {list(reg.in_dim_names)}")
    extra = set(smem.in_dim_names) - {"offset", "block"}
    if extra:
        raise DimensionError(f"the shared layout may only have 'offset' and 'block' input dims, got {sorted(extra)}")
    if set(reg.out_dim_names) != set(smem.out_dim_names):
        raise DimensionError(
            f"register layout dims {list(reg.out_dim_names)} and shared layout dims {list(smem.out_dim_names)} differ"
        )
    for n in smem.out_dim_names:
        if reg.out_dim_size(n) != smem.out_dim_size(n):
            raise SizeError(
                f"tensor dim {n!r}: the register layout covers {reg.out_dim_size(n)} and the shared layout "
                f"{smem.out_dim_size(n)}; they must describe the same tensor"
            )
    if not smem.is_surjective():
        raise NotSurjectiveError(
            "the shared layout does not cover the tensor: some elements have no shared-memory offset"
        )
    names = list(smem.out_dim_names)
    if list(reg.out_dim_names) != names:
        reg = reg.transpose_outs(names)
    # drop broadcast registers (zero bases): they repeat a value, no new access
    reg = reg.remove_zero_bases("register")
    return reg, smem, names


def _vectorisation(cvt: LinearLayout, bitwidth: int) -> int:
    """Triton's largestVectorisation: widest v <= 128 bits with registers -> offsets 1, 2, .., v/2."""
    others = [n for n in cvt.out_dim_names if n != "offset"]
    offsets = {d: cvt.sublayout([d], ["offset"]).flat_bases(d) for d in cvt.in_dim_names}
    elsewhere = cvt.sublayout(["register"], others).flat_bases("register") if others else ()
    regs = offsets.get("register", ())
    v = max(1, 128 // bitwidth)
    while v > 1:
        k = v.bit_length() - 1
        chosen = []
        for i in range(k):
            hit = [j for j, o in enumerate(regs) if o == (1 << i) and not (elsewhere and elsewhere[j])]
            if not hit:
                break
            chosen.append(hit[0])
        if len(chosen) == k:
            mask = v - 1
            ok = all(regs[j] & mask == 0 for j in range(len(regs)) if j not in chosen)
            if ok:
                ok = not any(o & mask for d, offs in offsets.items() if d != "register" for o in offs)
            if ok:
                return v
        v //= 2
    return 1


# ----------------------------------------------------------------------------------- the count
def _count(reg: LinearLayout, smem: LinearLayout, names: Sequence[str], bitwidth: int) -> tuple[LinearLayout, int, int, int]:
    """The conversion map register -> shared offset, the vector width, the conflict count and
    log2 of 32-bit words per vector (the arithmetic of :func:`bank_report`, without its simulation)."""
    cvt = reg.invert_and_compose(smem)
    vec = _vectorisation(cvt, bitwidth)
    total = 1 << smem.total_in_size_log2
    bank = min(NUM_BANKS * 32 // (vec * bitwidth), max(1, total // vec))
    vbits, bbits = vec.bit_length() - 1, bank.bit_length() - 1
    # flattened shared inputs: offset bits, then block bits
    # (both layouts have their out-dims in the order ``names``: flat bases pack them alike)
    sin = list(smem.flat_bases("offset")) + list(smem.flat_bases("block"))
    segment = sin[vbits + bbits:]
    lanes = reg.flat_bases("lane")
    log2vec_words = max(vec * bitwidth // 32, 1).bit_length() - 1
    lanes_wf = lanes[: max(0, len(lanes) - log2vec_words)]
    conflicts = (1 << gf2.intersection_dim([x for x in segment if x], [x for x in lanes_wf if x])) - 1
    return cvt, vec, conflicts, log2vec_words


def conflicts_of_bases(
    registers: Sequence[int], lanes: Sequence[int], others: Sequence[int], offsets: Sequence[int], bitwidth: int, dim: int
) -> int | None:
    """:func:`bank_conflicts` on flat bases, without checks: for the planner, whose inputs are its own.

    ``registers`` / ``lanes`` / ``others`` (warp, ...) are the flat tensor images of the register
    layout's in-dims (out-dims packed in the shared layout's order, broadcast registers may be
    included: they are skipped); ``offsets`` the flat images of the shared offset bits 0, 1, ...
    (no ``block`` dim), ``dim`` the tensor's log2 size.  ``bitwidth`` is one of 1, 2, .., 128.
    Only a shared layout that is a bijection is taken (then the conversion map is unique: each
    register-layout basis written over the offset bits); None otherwise, where the caller asks
    :func:`bank_conflicts`.  (The planner calls :func:`_conflicts_through` itself, with each
    side's bases kept per layout and each buffer's inverse read once for both of its sides.)

        >>> offs = [1 << k for k in range(5)] + [32 << k for k in range(5)]       # 32 x 32, dim0 fastest
        >>> conflicts_of_bases([], [32 << k for k in range(5)], [], offs, 32, 10)   # lane i: row i
        31
    """
    if len(offsets) != dim:
        return None
    inv = _unit_images(tuple(offsets))
    if inv is None:
        return None
    return _conflicts_through(inv, (*registers, *lanes, *others), len(registers), len(lanes), bitwidth, dim)


#: log2 of the most elements of one ld/st.shared vector (128 bits), per element width
_MAX_VECTOR_BITS = {bw: max(1, 128 // bw).bit_length() - 1 for bw in (1, 2, 4, 8, 16, 32, 64, 128)}


def _conflicts_through(units: dict[int, int], vectors: Sequence[int], n_registers: int, n_lanes: int, bitwidth: int,
                       dim: int) -> int | None:
    """:func:`conflicts_of_bases` with the shared offsets given by their inverse (``units``: the
    offset of each unit vector and of zero, as :func:`_unit_images` gives it) and the register
    layout's bases in one sequence: ``n_registers`` registers, ``n_lanes`` lanes, then the others
    (the planner keeps that sequence per layout and the inverse per buffer)."""
    # each basis written over the offset bits: a unit vector (most bases of real layouts) is one
    # look-up; of the lanes and others only the OR of the images is read, and the lanes' images
    # for the wavefront's
    images: list = list(map(units.get, vectors))
    if None in images:
        try:
            images = gf2.images_over_units(units, vectors)
        except KeyError:  # a vector outside the tensor: not this buffer's
            return None
    # Triton's largestVectorisation (:func:`_vectorisation` of the unique conversion map): the
    # widest 2**k elements (at most 128 bits) whose offsets 1, 2, .., 2**(k-1) are registers (the
    # first of each), with no other register, lane or other basis below offset 2**k; the first
    # two tests hold up to a bound, the last one is that exactly k registers reach below it
    k = _MAX_VECTOR_BITS[bitwidth]
    if k:
        mask = (1 << k) - 1
        rest = functools.reduce(operator.or_, images[n_registers:], 0) & mask  # lanes' and others' bits below 2**k
        if rest:
            k = (rest & -rest).bit_length() - 1
            mask = (1 << k) - 1
        reaching = [r for r in images[:n_registers] if r & mask]  # only these reach below 2**k
        i = 0
        while i < k and (1 << i) in reaching:
            i += 1
        k = i
        while k:
            mask = (1 << k) - 1
            n = 0
            for r in reaching:
                if r & mask:
                    n += 1
            if n == k:
                break
            k -= 1
    vec = 1 << k
    bank = min(NUM_BANKS * 32 // (vec * bitwidth), max(1, (1 << dim) // vec))
    low = (1 << (k + bank.bit_length() - 1)) - 1  # the offset bits below the segment bits
    log2vec_words = max(vec * bitwidth // 32, 1).bit_length() - 1
    # the wavefront's lanes: all but the last ``log2vec_words``
    wavefront = images[n_registers:n_registers + max(0, n_lanes - log2vec_words)]
    # the segment bits are the offset bits from ``low`` up: the lanes' meet with their span has
    # the dimension that masking them off takes from the lanes' rank (both eliminations at once)
    return (1 << gf2.masked_meet_dim(wavefront, low)) - 1


def _unit_images_of(offsets: Sequence[int]) -> dict[int, int] | None:
    """:func:`linlayout.gf2.unit_images` of a shared layout's offset bases as a map from each
    unit vector (and zero) to its offset; None when the offsets are no basis.

        >>> _unit_images_of([1, 6, 4])     # 2 = 6 ^ 4: basis vectors 1 and 2
        {1: 1, 2: 6, 4: 4, 0: 0}
    """
    inv = gf2.unit_images(offsets)
    if inv is None:
        return None
    out = dict(zip(_UNITS, inv)) if len(inv) <= len(_UNITS) else {1 << i: o for i, o in enumerate(inv)}
    out[0] = 0
    return out


@functools.lru_cache(maxsize=1024)
def _unit_images(offsets: tuple[int, ...]) -> dict[int, int] | None:
    """:func:`_unit_images_of`, remembered per tuple of offsets (:func:`conflicts_of_bases`)."""
    return _unit_images_of(offsets)


#: the unit vectors 1, 2, 4, .. of the offset spaces the planner meets
_UNITS = tuple(1 << i for i in range(64))


def bank_conflicts(register_layout: Any, shared_layout: Any, bitwidth: int, *, shape: Sequence[int] | None = None,
                   hardware: bool = False, vector: int | None = None) -> int:
    """Excess wavefronts per wavefront when ``register_layout`` is stored to / loaded from ``shared_layout``.

    Both are ``LinearLayout`` s over the same tensor (register layouts with in-dims ``register``,
    ``lane``, ``warp`` (``block``); shared layouts with ``offset`` (``block``)), or objects with
    ``to_linear(shape)`` plus ``shape=``.  ``bitwidth`` is the element size in bits.  By default
    Triton 3.9's model: agrees with its ``gl.bank_conflicts``.  ``hardware=True``: what the
    hardware executes (see the module docstring; :func:`linlayout.simulate.simulate` counts the
    same), each lane moving ``vector`` elements (a power of two of at most 128 bits; by default
    Triton's widest vector).  An 8-bit tensor whose lane 1 sits one byte and one 128-byte line
    past lane 0: Triton's model sees no conflict, the hardware replays the wavefront.

        >>> from linlayout.linear import LinearLayout
        >>> reg8 = LinearLayout({"register": [], "lane": [[129], [2], [4], [8], [16]]}, {"dim0": 256},
        ...                     require_surjective=False)
        >>> flat = LinearLayout.identity_1d(256, "offset", "dim0")
        >>> bank_conflicts(reg8, flat, 8), bank_conflicts(reg8, flat, 8, hardware=True)
        (0, 1)

        >>> from linlayout.linear import LinearLayout
        >>> reg = LinearLayout({"register": [], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16]]},
        ...                    {"dim0": 32, "dim1": 32}, require_surjective=False)  # lane i: (0, i)
        >>> col_major = LinearLayout({"offset": [[1 << k, 0] for k in range(5)] + [[0, 1 << k] for k in range(5)]},
        ...                          {"dim0": 32, "dim1": 32})
        >>> bank_conflicts(reg, col_major, 32)            # stride 32 words: all in bank 0
        31
        >>> bank_conflicts(reg, col_major.transpose_outs(["dim1", "dim0"]), 32)
        31
    """
    reg, smem, names = _prepare(register_layout, shared_layout, bitwidth, shape)
    if vector is not None and not hardware:
        raise SizeError("bank_conflicts: vector= is the executed vector of the hardware count; give hardware=True with it")
    cvt, vec, conflicts, _ = _count(reg, smem, names, bitwidth)
    if not hardware:
        return conflicts
    if vector is not None:
        vec = _check_vector(vector, bitwidth)
    lanes = cvt.sublayout(["lane"], ["offset"]).flat_bases("lane")
    return _hardware_conflicts(lanes, vec, bitwidth, smem.in_dim_size_log2("offset"))


def _check_vector(vector: Any, bitwidth: int) -> int:
    """``vector`` (elements of one access) when it is a power of two of at most 128 bits of
    ``bitwidth``-bit elements (one element always is); a SizeError otherwise."""
    vector = check_pow2(vector, "vector")
    if vector > 1 and vector * bitwidth > 128:
        raise SizeError(f"a vector of {vector} x {bitwidth}-bit elements is wider than 128 bits")
    return vector


def hardware_conflicts(lane_offsets: Sequence[int], vector: int, bitwidth: int, offset_bits: int, *,
                       matrix: bool = False) -> int:
    """The excess wavefronts per wavefront the hardware executes, from the element offsets of
    one warp's lanes (``lane_offsets[i]``: the offset lane ``2**i`` adds; the map is linear, so
    every wavefront of every instruction of every warp counts the same), each lane moving an
    aligned ``vector`` of ``bitwidth``-bit elements; ``offset_bits``: log2 of the buffer's
    elements (higher bits, a round's or a CTA's, are not part of the address).  A wavefront
    serves the lanes of one phase: all 32 up to 32-bit vectors, 16 for 64-bit, 8 for 128-bit
    (the last lane bits pick the phase).  ``matrix``: ``ldmatrix``/``stmatrix`` rows, one
    phase per 8x16-byte matrix; ``lane_offsets`` are then the three row steps of a matrix
    (the lanes, or for ``.trans`` the lanes and register, that pick its 8 rows).  The count is
    ``2 ** (rank(words) - rank(their bank bits)) - 1`` over the lanes' word addresses.

        >>> hardware_conflicts([32 << k for k in range(5)], 1, 32, 10)   # 32 lanes down a column of 32 words
        31
        >>> hardware_conflicts([129, 2, 4, 8, 16], 1, 8, 8)              # one byte and one line apart
        1
        >>> hardware_conflicts([4, 8, 16, 32, 64], 4, 32, 7)             # 128-bit vectors: 4 phases of 8 lanes
        0
    """
    bitwidth = check_pow2(bitwidth, "bitwidth")
    if bitwidth > 128:
        raise SizeError(f"bitwidth must be a power of two between 1 and 128, got {bitwidth}")
    vector = _check_vector(vector, bitwidth)
    offset_bits = as_int(offset_bits, "offset_bits")
    if not 0 <= offset_bits <= 64:
        raise SizeError(f"offset_bits must be between 0 and 64, got {offset_bits}")
    matrix = as_bool(matrix, "hardware_conflicts", "matrix")
    lanes = as_list(lane_offsets, "lane_offsets", 3 if matrix else 5)
    offs = [as_int(v, f"lane_offsets[{i}]") for i, v in enumerate(lanes)]
    if any(v < 0 or v >> offset_bits for v in offs):
        raise SizeError(f"lane_offsets must be element offsets in [0, 2**offset_bits = {1 << offset_bits}), got {offs}")
    return _hardware_conflicts(offs, vector, bitwidth, offset_bits, matrix=matrix)


def _hardware_conflicts(lane_offsets: Sequence[int], vector: int, bitwidth: int, offset_bits: int, *,
                        matrix: bool = False) -> int:
    """:func:`hardware_conflicts` without checks (the planner's, on its own inputs)."""
    b = bitwidth.bit_length() - 1
    if matrix:
        rows = lane_offsets
        drop = 7 - b  # a row is 16 bytes
    else:
        k = vector.bit_length() - 1
        words = k + b - 5  # log2 of the 32-bit words of one vector: the last lanes pick the phase
        rows = lane_offsets[: 5 - words] if words > 0 else lane_offsets  # lanes 0 .. 2**(5 - words) - 1
        # the element bits below an aligned vector's start or inside one 32-bit word
        drop = k if k > 5 - b else 5 - b
    keep = (1 << offset_bits) - 1
    if drop > 0:
        keep = keep >> drop << drop
    line = 10 - b  # element bits below the 128-byte line are the word's bank (and the byte in it)
    low = (1 << line) - 1 if line > 0 else 0
    # rank of the word addresses less the rank of their bank bits
    return (1 << gf2.masked_meet_dim([v & keep for v in rows], low)) - 1


@dataclass
class BankReport:
    """The explanation of a bank-conflict count.

    ``vector_elems``/``vector_bits``: the ld/st vector width; ``lanes_per_wavefront``: lanes one
    wavefront serves (32, 16 for 64-bit, 8 for 128-bit vectors); ``conflicts``: excess wavefronts
    per wavefront; ``wavefronts_per_instruction``: actual wavefronts of one warp instruction;
    ``lane_bytes``: byte address of each lane's vector in the simulated instruction (register 0,
    warp 0); ``collisions``: per wavefront, bank -> {line: [lanes]} for banks needing > 1 line.
    """

    bitwidth: int
    vector_elems: int
    lanes_per_wavefront: int
    conflicts: int
    wavefronts_per_instruction: int
    lane_bytes: list[int]
    collisions: list[dict[int, dict[int, list[int]]]] = field(default_factory=list)

    @property
    def vector_bits(self) -> int:
        """Bits moved per lane per instruction."""
        return self.vector_elems * self.bitwidth

    @property
    def ideal_wavefronts(self) -> int:
        """Wavefronts one instruction needs without conflicts (32 lanes x vector bytes / 128)."""
        return max(1, 32 // self.lanes_per_wavefront)

    def banks_of_lanes(self) -> list[int]:
        """The first bank each lane touches in the simulated instruction."""
        return [(a // BANK_BYTES) % NUM_BANKS for a in self.lane_bytes]

    def simulated_conflicts(self) -> int:
        """Excess wavefronts of the simulated instruction (max over its wavefronts)."""
        worst = 1
        for coll in self.collisions:
            for lines in coll.values():
                worst = max(worst, len(lines))
        return worst - 1

    def __str__(self) -> str:
        lines = [
            f"{self.vector_elems} x {self.bitwidth}-bit vectors ({self.vector_bits} bits per lane), "
            f"{self.lanes_per_wavefront} lanes per wavefront",
            f"bank conflicts: {self.conflicts} (each wavefront served {self.conflicts + 1} times; "
            f"{self.wavefronts_per_instruction} wavefronts per instruction, {self.ideal_wavefronts} without conflicts)",
        ]
        for w, coll in enumerate(self.collisions):
            for bank, by_line in sorted(coll.items()):
                desc = "; ".join(f"line {ln}: lanes {ls}" for ln, ls in sorted(by_line.items()))
                lines.append(f"  wavefront {w}, bank {bank}: {len(by_line)} lines ({desc})")
        if not any(self.collisions):
            lines.append("  no lane shares a bank with another line in the simulated instruction")
        return "\n".join(lines)


def bank_report(register_layout: Any, shared_layout: Any, bitwidth: int, *, shape: Sequence[int] | None = None) -> BankReport:
    """:func:`bank_conflicts` with its explanation (a :class:`BankReport`).

        >>> from linlayout.linear import LinearLayout
        >>> reg = LinearLayout({"register": [[0, 1]], "lane": [[0, 2], [0, 4], [0, 8], [0, 16], [1, 0]]},
        ...                    {"dim0": 2, "dim1": 32})
        >>> smem = LinearLayout({"offset": [[0, 1 << k] for k in range(5)] + [[1, 0]]}, {"dim0": 2, "dim1": 32})
        >>> r = bank_report(reg, smem, 16)
        >>> r.vector_elems, r.conflicts, r.lanes_per_wavefront
        (2, 0, 32)
    """
    reg, smem, names = _prepare(register_layout, shared_layout, bitwidth, shape)
    cvt, vec, conflicts, log2vec_words = _count(reg, smem, names, bitwidth)

    # --- simulate one instruction: register vector 0, warp 0, block 0, every lane
    nlanes = 1 << reg.in_dim_size_log2("lane")
    lanes_per_wf = max(1, 32 >> log2vec_words)
    lane_bytes = []
    for ln in range(nlanes):
        o = cvt.apply({"lane": ln})["offset"]
        lane_bytes.append(o * bitwidth // 8)
    vbytes = max(1, vec * bitwidth // 8)
    collisions = []
    for w0 in range(0, nlanes, lanes_per_wf):
        banks: dict[int, dict[int, list[int]]] = {}
        for ln in range(w0, min(nlanes, w0 + lanes_per_wf)):
            a = lane_bytes[ln]
            for word in range(a // BANK_BYTES, (a + vbytes - 1) // BANK_BYTES + 1):
                banks.setdefault(word % NUM_BANKS, {}).setdefault(word // NUM_BANKS, [])
                lst = banks[word % NUM_BANKS][word // NUM_BANKS]
                if ln not in lst:
                    lst.append(ln)
        collisions.append({b: d for b, d in banks.items() if len(d) > 1})
    ideal = max(1, 32 // lanes_per_wf)
    return BankReport(bitwidth, vec, lanes_per_wf, conflicts, ideal * (conflicts + 1), lane_bytes, collisions)


# ----------------------------------------------------------------------------------- helpers
def swizzled_shared(layout: LinearLayout, swizzle: Any) -> LinearLayout:
    """A shared layout with its element offsets XOR-swizzled: offset ``o`` holds ``layout(swizzle(o))``.

    ``swizzle`` is a :class:`~linlayout.swizzle.Swizzle` in element units (anything else is
    refused with a :class:`~linlayout.errors.LayoutError`).

        >>> from linlayout.swizzle import Swizzle
        >>> plain = LinearLayout.identity_1d(16, "offset", "dim0")
        >>> swizzled_shared(plain, Swizzle(1, 0, 2)).bases["offset"]
        ((1,), (2,), (5,), (8,))
    """
    expect(layout, LinearLayout, "swizzled_shared: layout")
    expect(swizzle, Swizzle, "swizzled_shared: swizzle")
    n = layout.in_dim_size("offset")
    sw = swizzle.to_linear(n, "offset", "offset")
    rest = {k: [list(b) for b in v] for k, v in layout.bases.items() if k != "offset"}
    sub = LinearLayout({"offset": [list(b) for b in layout.bases["offset"]]}, list(layout.out_dims.items()),
                       require_surjective=False)
    moved = sw.compose(sub)
    return LinearLayout({"offset": [list(b) for b in moved.bases["offset"]], **rest}, list(layout.out_dims.items()),
                        require_surjective=False)


def word_cells(
    shared: Any, bitwidth: int, *, banks: int = NUM_BANKS, bank_bytes: int = BANK_BYTES
) -> dict[tuple[int, int], list[tuple[int, ...]]]:
    """(line, bank) -> tensor coordinates of the elements stored in that bank word.

    ``shared`` is a shared layout of any form with an ``offset`` input dim, converted as
    :func:`bank_conflicts` converts it (:func:`~linlayout.contract.as_linear`); anything else is
    refused with a :class:`~linlayout.errors.LayoutError`.

    A line is ``banks * bank_bytes`` bytes (128 on NVIDIA GPUs); an element wider than a bank word
    appears in every word it covers.

        >>> L = LinearLayout({"offset": [[1], [2]]}, {"dim0": 4})
        >>> word_cells(L, 16)
        {(0, 0): [(0,), (1,)], (0, 1): [(2,), (3,)]}
    """
    banks, bank_bytes = check_bank_geometry(banks, bank_bytes)
    if not (is_pow2(bitwidth) and bitwidth <= 1024):
        raise SizeError(f"bitwidth must be a power of two up to 1024, got {bitwidth!r}")
    shared = as_linear(shared, what="word_cells: shared layout")
    if not shared.has_in_dim("offset"):
        raise DimensionError(f"word_cells: the shared layout needs an 'offset' input dim, got {list(shared.in_dim_names)}")
    names = list(shared.out_dim_names)
    sub = shared.sublayout(["offset"], names)
    table = sub.table()
    words_per_elem = max(1, bitwidth // (8 * bank_bytes))
    cells: dict[tuple[int, int], list[tuple[int, ...]]] = {}
    for o, row in enumerate(table.tolist()):
        first = o * bitwidth // (8 * bank_bytes)
        for w in range(first, first + words_per_elem):
            cells.setdefault(divmod(w, banks), []).append(tuple(row))
    return cells
