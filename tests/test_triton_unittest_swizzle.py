"""Triton's ``unittest/Dialect/TritonGPU/SwizzleTest.cpp`` (optimal swizzling and bank conflicts) in
our words: Triton's ``optimalSwizzlingLdSt`` is our :func:`linlayout.plan_smem.ldst_choice_39`
(:func:`~linlayout.plan_smem.optimal_swizzle` where the test gives its own access tiles), its
``bankConflictsLdSt`` the conflicts that choice reports, and ``bankConflictsMemDesc`` our
:func:`linlayout.banks.bank_conflicts`.

Source text: facebookexperimental/triton release/3.8.x at 673692051346 (upstream main c147f0988de7
has 6 of these tests; the other four came with upstream PRs the branch cherry-picked).  The
fork's ``MixedLayoutPreservesPow2TileSwizzle`` (non-power-of-two shapes) is not upstream and not
ported: 10 tests, 2 skipped (AMD's 64-bank LDS and 64-lane wavefront phases, which we do not
model).
"""

from __future__ import annotations

import pytest

from converters.gluon import BlockedLayout, DotOperandLayout, NVMMADistributedLayout, NVMMASharedLayout, SwizzledSharedLayout
from linlayout import LinearLayout
from linlayout.banks import bank_conflicts
from linlayout.plan_smem import LD_ST_SHARED, MemOpTile, ldst_choice_39, optimal_swizzle, remove_broadcast_registers


def regs(register, lane, warp, shape):
    return LinearLayout({"register": register, "lane": lane, "warp": warp, "block": []},
                        {f"dim{i}": s for i, s in enumerate(shape)})


def transposed(layout):
    """Triton's ``transposeLinearLayout(layout, {1, 0})`` of a 2-D layout: dim0 and dim1 swap."""
    return LinearLayout({n: [[v[1], v[0]] for v in vs] for n, vs in layout.bases.items()},
                        {"dim0": layout.out_dim_size("dim1"), "dim1": layout.out_dim_size("dim0")})


F8 = regs([[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0]], [[0, 16], [0, 32], [0, 64], [4, 0], [8, 0]],
          [[16, 0], [32, 0], [64, 0]], [128, 128])

#: (Triton test, store layout, load layout, element bits): Triton's choice has no conflict either way
NO_CONFLICT = [
    ("Test128x128Float8Transpose", F8, transposed(F8), 8),
    ("Test16x16Bf16BlockedMma",
     regs([[0, 1], [0, 2], [0, 4]], [[0, 8], [1, 0], [2, 0], [4, 0], [8, 0]], [], [16, 16]),
     regs([[0, 1], [8, 0], [0, 8]], [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], [], [16, 16]), 16),
    ("Test16x256U4Mma",
     regs([[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0], [8, 0]], [[0, 32], [0, 64], [0, 128], [1, 0], [2, 0]], [], [16, 256]),
     regs([[0, 1], [0, 2], [0, 4], [8, 0], [0, 32], [0, 64], [0, 128]], [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]], [], [16, 256]), 4),
    ("Test32x16F32Transpose",
     regs([[4, 0], [8, 0], [16, 0]], [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]], [[2, 0]], [32, 16]),
     regs([[0, 2], [0, 4], [0, 8]], [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], [[0, 1]], [32, 16]), 32),
    ("Test128x128F16Transpose",
     regs([[1, 0], [2, 0], [4, 0], [0, 32], [0, 64]], [[8, 0], [16, 0], [32, 0], [64, 0], [0, 1]], [[0, 2], [0, 4], [0, 8], [0, 16]],
          [128, 128]),
     regs([[0, 1], [0, 2], [0, 4], [32, 0], [64, 0]], [[0, 8], [0, 16], [0, 32], [0, 64], [1, 0]], [[2, 0], [4, 0], [8, 0], [16, 0]],
          [128, 128]), 16),
]


@pytest.mark.parametrize("name, src, dst, bits", NO_CONFLICT, ids=[c[0] for c in NO_CONFLICT])
def test_optimal_swizzling_has_no_conflict(name, src, dst, bits):
    choice = ldst_choice_39(src, dst, bits)
    assert (choice.load_conflicts, choice.store_conflicts) == (0, 0)
    # the chosen layout holds the whole tensor once (one round), every element at its own offset
    assert choice.layout.in_dim_size("reps") == 1 and choice.layout.is_invertible()


def test_Test64x128F16BlockedLinear32Bank():
    # a 64-lane wavefront over 32 banks; the load's lanes are served 0, 1, 4 first (an AMD
    # ds_read_b128 lane order); the store keeps the plain order (lanes 0, 1, 2)
    src = regs([[0, 1], [0, 2], [0, 4], [16, 0], [32, 0]], [[0, 8], [0, 16], [0, 32], [0, 64], [1, 0], [2, 0]],
               [[4, 0], [8, 0]], [64, 128])
    dst = regs([[0, 1], [0, 2], [0, 8], [0, 16], [0, 32], [0, 64], [32, 0]], [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]],
               [[0, 0], [0, 0]], [64, 128])
    assert LD_ST_SHARED.lane_addr == (0, 1, 2)
    choice = optimal_swizzle(src, dst, 16, src_tiles=[LD_ST_SHARED],
                             dst_tiles=[MemOpTile((), (0, 1, 4), "st.shared", "ld.shared")])
    assert (choice.load_conflicts, choice.store_conflicts) == (0, 0)


# ----------------------------------------------------------------- bank conflicts, brute force


def _brute_conflicts(reg, smem, bits):
    """Excess wavefronts per wavefront of storing ``reg`` to ``smem``, by listing the 32-bit words
    every wavefront touches (Triton's ``bruteforceBankConflictsPerWavefront``, written anew):
    registers -> offsets without the broadcast registers, the widest vector (offsets 1, 2, ...
    held by registers, at most 128 bits) first, then per instruction (a vector of registers, a
    warp) and per wavefront (32 / words-per-lane lanes), the busiest bank's distinct words."""
    cvt = reg.invert_and_compose(smem)
    assert cvt.is_trivial_over(["block"])
    cvt = remove_broadcast_registers(cvt.sublayout(["register", "lane", "warp"], ["offset"]))
    reg_offsets = [v[0] for v in cvt.bases["register"]]
    k = 0
    while (2 << k) * bits <= 128 and (1 << k) in reg_offsets:
        k += 1
    first = [reg_offsets.index(1 << i) for i in range(k)]
    order = first + [i for i in range(len(reg_offsets)) if i not in first]
    cvt = cvt.apply_column_action("register", order)
    vec = 1 << k
    words_per_lane = max(1, -(-bits * vec // 32))
    lanes_per_wave = 32 // words_per_lane
    n_reg, n_lane, n_warp = (cvt.in_dim_size(n) for n in ("register", "lane", "warp"))
    waves = served = 0
    for r0 in range(0, n_reg, vec):
        for w in range(n_warp):
            for l0 in range(0, n_lane, lanes_per_wave):
                words = {cvt(register=r0 + v, lane=l0 + lane, warp=w)["offset"] * bits // 32
                         for lane in range(lanes_per_wave) for v in range(vec)}
                per_bank = [0] * 32
                for word in words:
                    per_bank[word % 32] += 1
                served += max(per_bank)
                waves += 1
    assert served % waves == 0  # every wavefront alike
    return served // waves - 1


def _mma(version, warps, instr):
    return NVMMADistributedLayout(version, warps, instr)


MMA_V2 = _mma([2, 0], [1, 4], [16, 8])

#: (register layout, shared layout, shape, element bits): Triton's bankConflicts cases
BANK_CASES = [
    (BlockedLayout([1], [32], [4], [0]), SwizzledSharedLayout(1, 1, 1, [0]), [32], 32),
    (BlockedLayout([1], [32], [4], [0]), SwizzledSharedLayout(1, 1, 1, [0]), [32], 16),
    (_mma([3, 0], [4, 1], [16, 32, 16]), NVMMASharedLayout(128, 16), [128, 128], 16),
    (DotOperandLayout(1, MMA_V2, 2), NVMMASharedLayout(64, 16), [64, 32], 16),
    (DotOperandLayout(0, MMA_V2, 2), NVMMASharedLayout(64, 16, transposed=True), [32, 64], 16),
    (DotOperandLayout(1, MMA_V2, 1), NVMMASharedLayout(32, 8), [8, 32], 8),
    (_mma([2, 0], [4, 1], [16, 8]), NVMMASharedLayout(64, 16, transposed=True), [64, 64], 16),
    (_mma([3, 0], [2, 2], [16, 32, 16]), NVMMASharedLayout(64, 16), [64, 32], 16),
    (_mma([2, 0], [4, 1], [16, 8]), NVMMASharedLayout(32, 8), [32, 32], 8),
    (DotOperandLayout(1, _mma([2, 0], [2, 4], [16, 8]), 2), NVMMASharedLayout(0, 16), [4, 64], 16),
    (_mma([3, 0], [4, 1], [16, 32, 16]), NVMMASharedLayout(128, 32), [128, 64], 32),
]


def test_BankConflictTest_bankConflicts():
    # Triton: the linear-algebra count equals the brute-force count, case by case
    for reg, shared, shape, bits in BANK_CASES:
        R, S = reg.to_linear(shape), shared.to_linear(shape)
        assert bank_conflicts(R, S, bits) == _brute_conflicts(R, S, bits), (reg, shared, shape, bits)


def test_BankConflictTest_F64MmaV2BSharedLayout():
    # fp64 B operand of an MMAv2 (8x8 instructions) from a 2x16-lane blocked layout, over [4, 16].
    # Triton derives the shared layout from the operand (vec 4, perPhase 1, maxPhase 4); that
    # derivation (SwizzledSharedEncodingAttr::get from a dot operand) is not ours: the shared
    # layout is given here as those facts.
    shape = [4, 16]
    src = BlockedLayout([1, 1], [2, 16], [4, 1], [1, 0]).to_linear(shape)
    dst = DotOperandLayout(1, _mma([2, 0], [4, 1], [8, 8]), 1).to_linear(shape)
    shared = SwizzledSharedLayout(4, 1, 4, [1, 0]).to_linear(shape)
    assert bank_conflicts(src, shared, 64) == 0
    assert bank_conflicts(dst, shared, 64) == 0
    assert _brute_conflicts(src, shared, 64) == 0 and _brute_conflicts(dst, shared, 64) == 0
    choice = ldst_choice_39(remove_broadcast_registers(src), remove_broadcast_registers(dst), 64)
    assert (choice.load_conflicts, choice.store_conflicts) == (0, 0)


AMD_64 = {
    "Test64x128F16BlockedMfma64Bank": "a 64-bank LDS (gfx950): our swizzle search and bank counts model 32 banks of 4 bytes",
    "BankConflictTest_bankConflictsWavefront64": "AMD 64-lane wavefronts served in 8 or 4 phases with their own lane grouping, "
                                                 "and 64 banks: banks.bank_conflicts models NVIDIA's 32-lane warps on 32 banks",
}


@pytest.mark.parametrize("name", sorted(AMD_64))
def test_not_modelled(name):
    pytest.skip(f"{name}: {AMD_64[name]}")
