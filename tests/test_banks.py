"""linlayout.banks: bank conflicts (Triton 3.9's definition), the report, the physical grid."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import load_oracle
from linlayout import LayoutError, LinearLayout
from linlayout import draw
from linlayout.banks import bank_conflicts, bank_report, conflicts_of_bases, swizzled_shared
from linlayout.errors import NotSurjectiveError, SizeError
from linlayout.smem_atoms import MmaAtom, tile_by_atoms
from linlayout.swizzle import Swizzle, swizzle_for

from converters import gluon


def test_bank_conflicts_oracle_every_row():
    rows = load_oracle("triton-3.9/bank_conflicts.jsonl")
    agree = 0
    physical_higher = 0
    for r in rows:
        reg = gluon.from_dict(r["register_layout"])
        smem = gluon.from_dict(r["shared_layout"])
        rep = bank_report(reg, smem, r["bitwidth"], shape=r["shape"])
        assert rep.conflicts == r["conflicts"], r
        # the same through explicit linear layouts
        if agree % 97 == 0:
            assert bank_conflicts(reg.to_linear(r["shape"]), smem.to_linear(r["shape"]), r["bitwidth"]) == r["conflicts"]
        agree += 1
        sim = rep.simulated_conflicts()
        # the hardware count (what the planner claims) is the simulated instruction's, every row
        assert bank_conflicts(reg, smem, r["bitwidth"], shape=r["shape"], hardware=True) == sim, r
        if r["bitwidth"] == 32:
            assert sim == rep.conflicts, r  # word-sized elements: Triton's count is the hardware's
        else:
            # Triton's formula ignores a lane that differs from a segment basis only inside a
            # 4-byte word; the simulated instruction can then show more replays, never fewer
            assert sim >= rep.conflicts, r
            physical_higher += sim > rep.conflicts
    assert agree == 1000
    assert physical_higher == 27


def _flat_args(reg: LinearLayout, smem: LinearLayout) -> tuple:
    """The arguments of conflicts_of_bases for a register and a shared layout (smem's out order)."""
    reg = reg.transpose_outs(list(smem.out_dim_names))
    others = [v for d in reg.in_dim_names if d not in ("register", "lane") for v in reg.flat_bases(d)]
    return reg.flat_bases("register"), reg.flat_bases("lane"), others, smem.flat_bases("offset")


def test_planner_fast_count_agrees_on_every_oracle_row():
    """The planner's unchecked count on flat bases gives Triton's count on every row whose shared
    layout is a bijection (offset only), and declines (None) the others."""
    taken = 0
    for r in load_oracle("triton-3.9/bank_conflicts.jsonl"):
        reg = gluon.from_dict(r["register_layout"]).to_linear(r["shape"])
        smem = gluon.from_dict(r["shared_layout"]).to_linear(r["shape"])
        got = conflicts_of_bases(*_flat_args(reg, smem), r["bitwidth"], smem.total_out_size_log2)
        if not smem.flat_bases("block") and smem.is_invertible():
            assert got == r["conflicts"], r
            taken += 1
        else:
            assert got is None, r
    print(f"fast count taken on {taken} of 1000 rows")
    assert taken > 500


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_planner_fast_count_equals_bank_conflicts(data):
    """On random register layouts and random bijective shared layouts of a 2-D tensor, the fast
    count equals :func:`bank_conflicts` (which checks its inputs and builds the conversion map)."""
    d0, d1 = data.draw(st.integers(0, 5)), data.draw(st.integers(0, 5))
    dim = d0 + d1
    outs = {"dim0": 1 << d0, "dim1": 1 << d1}
    units = [1 << i for i in range(dim)]
    perm = data.draw(st.permutations(units))
    # a random invertible map: a permutation of units, then XORs of later vectors into earlier ones
    offs = list(perm)
    for i in range(dim):
        for j in range(i + 1, dim):
            if data.draw(st.booleans()) and data.draw(st.booleans()):
                offs[i] ^= offs[j]
    vec = st.integers(0, (1 << dim) - 1)
    regs = data.draw(st.lists(vec, max_size=5))
    lanes = data.draw(st.lists(vec, min_size=0, max_size=5))
    warps = data.draw(st.lists(vec, max_size=3))
    # sometimes unit-vector registers and lanes, as real layouts have
    if data.draw(st.booleans()):
        regs = [units[i] for i in range(min(len(units), len(regs)))]

    def unflat(v):
        return [v & ((1 << d0) - 1), v >> d0]

    bits = data.draw(st.sampled_from([8, 16, 32, 64, 128]))
    reg = LinearLayout({"register": [unflat(v) for v in regs], "lane": [unflat(v) for v in lanes],
                        "warp": [unflat(v) for v in warps]}, outs, require_surjective=False)
    smem = LinearLayout({"offset": [unflat(v) for v in offs]}, outs)
    got = conflicts_of_bases(regs, lanes, warps, offs, bits, dim)
    assert got == bank_conflicts(reg, smem, bits)
    # the hardware count is what one simulated instruction takes (Triton's widest vector)
    assert bank_conflicts(reg, smem, bits, hardware=True) == bank_report(reg, smem, bits).simulated_conflicts()
    if dim >= 2:  # a shared layout that is no bijection is declined (the caller asks bank_conflicts)
        assert conflicts_of_bases(regs, lanes, warps, offs[:-1], bits, dim) is None
        assert conflicts_of_bases(regs, lanes, warps, offs[:-1] + [offs[0]], bits, dim) is None


def _rows8x64():
    plain = LinearLayout({"offset": [[0, 1 << k] for k in range(6)] + [[1, 0], [2, 0], [4, 0]]}, {"dim0": 8, "dim1": 64})
    # lanes 0..7 read column 0 of rows 0..7 (the other lanes repeat them)
    reg = LinearLayout({"register": [], "lane": [[1, 0], [2, 0], [4, 0], [0, 0], [0, 0]]}, {"dim0": 8, "dim1": 64},
                       require_surjective=False)
    return plain, reg


def test_tile_layout_worked_example():
    plain, reg = _rows8x64()
    r = bank_report(reg, plain, 16)
    assert r.banks_of_lanes()[:8] == [0] * 8  # one bank, fully serialized
    assert r.conflicts == 7 and r.simulated_conflicts() == 7
    swz = swizzled_shared(plain, Swizzle(3, 3, 3))
    r = bank_report(reg, swz, 16)
    assert r.banks_of_lanes()[:8] == list(range(0, 32, 4))
    # element (i, 0) is at element address 72 i
    assert [b // 2 for b in r.lane_bytes[:8]] == [72 * i for i in range(8)]
    assert r.conflicts == 0 and r.simulated_conflicts() == 0
    assert "no lane shares a bank" in str(r)
    assert "bank 0: 8 lines" in str(bank_report(reg, plain, 16))


@pytest.mark.parametrize("bits,mode", list(itertools.product((8, 16, 32, 64), (0, 32, 64, 128))))
def test_any_swizzle_mode_reads_an_8_by_16_byte_column_conflict_free(bits, mode):
    atom = MmaAtom(bits, mode)
    vec = 128 // bits  # elements in 16 bytes
    L = atom.to_linear()
    where = {}
    for o in range(atom.shape[0] * atom.shape[1]):
        c = L(offset=o)
        where[(c["dim0"], c["dim1"])] = o * bits // 8
    for j in range(atom.shape[1] // vec):  # every 16-byte column of the atom
        groups = {(where[(r, j * vec)] // 16) % 8 for r in range(8)}
        assert len(groups) == 8  # 8 rows x 16 bytes cover all 32 banks once
    # and as Triton counts it, over a taller tile: 16-byte vectors, lanes down 32 rows
    shape = (32, atom.shape[1])
    smem = tile_by_atoms(atom, shape)
    reg = LinearLayout(
        {"register": [[0, 1 << k] for k in range(vec.bit_length() - 1)],
         "lane": [[1 << k, 0] for k in range(5)]},
        {"dim0": shape[0], "dim1": shape[1]},
        require_surjective=False,
    )
    assert bank_conflicts(reg, smem, bits) == 0


def test_swizzle_for_every_mode_matches_atoms():
    for bits, mode in itertools.product((8, 16, 32), (32, 64, 128)):
        assert MmaAtom(bits, mode).swizzle() == swizzle_for(bits, mode)


def test_bad_input():
    plain, reg = _rows8x64()
    with pytest.raises(SizeError):
        bank_conflicts(reg, plain, 12)
    small = LinearLayout({"offset": [[0, 1 << k] for k in range(6)] + [[1, 0], [2, 0]]}, {"dim0": 8, "dim1": 64},
                         require_surjective=False)
    with pytest.raises(NotSurjectiveError, match="does not cover"):
        bank_conflicts(reg, small, 16)
    other = LinearLayout({"offset": [[0, 1 << k] for k in range(6)] + [[1, 0]]}, {"dim0": 2, "dim1": 64})
    with pytest.raises(SizeError):
        bank_conflicts(reg, other, 16)
    with pytest.raises(LayoutError, match="shape="):
        bank_conflicts(gluon.from_dict({"kind": "BlockedLayout", "size_per_thread": [1, 1], "threads_per_warp": [8, 4],
                                        "warps_per_cta": [1, 1], "order": [1, 0]}), plain, 16)
    with pytest.raises(LayoutError):
        bank_conflicts(reg, "not a layout", 16)
    # the executed vector is the hardware count's: a power of two of at most 128 bits
    with pytest.raises(SizeError, match="hardware=True"):
        bank_conflicts(reg, plain, 16, vector=2)
    for bad in (3, 0, 16, True, "2"):
        with pytest.raises(LayoutError):
            bank_conflicts(reg, plain, 16, hardware=True, vector=bad)


def test_hardware_count_follows_the_executed_vector():
    """The hardware count is that of the vector the access moves: 8 lanes of 16-bit elements one
    row (128 bytes) apart, each moving 8 consecutive elements: with 128-bit vectors a phase is 8
    lanes in 8 lines (7 excess wavefronts); moving 64 bits, a phase takes 16 lanes in 16 lines (15
    excess), 16 bits all 32 (31).  Triton's model counts its widest vector only."""
    rows = LinearLayout({"offset": [[0, 1 << k] for k in range(6)] + [[1 << k, 0] for k in range(5)]},
                        {"dim0": 32, "dim1": 64})
    reg = LinearLayout({"register": [[0, 1], [0, 2], [0, 4]], "lane": [[1 << k, 0] for k in range(5)]},
                       {"dim0": 32, "dim1": 64}, require_surjective=False)
    assert bank_conflicts(reg, rows, 16) == bank_conflicts(reg, rows, 16, hardware=True, vector=8) == 7
    assert bank_conflicts(reg, rows, 16, hardware=True, vector=4) == 15
    assert bank_conflicts(reg, rows, 16, hardware=True, vector=1) == 31


def test_grid_text_and_picture():
    """The one bank picture (draw.bank_picture): text marks the accessed words with '*'."""
    plain, _ = _rows8x64()
    swz = swizzled_shared(plain, Swizzle(3, 3, 3))
    pic = draw.bank_picture(swz, 16, access=lambda c: c[1] == 0)
    lines = pic.to_text().splitlines()
    grid = lines[2:2 + 8]  # title, header, then 8 lines of 128 bytes
    marked = [(li, b) for li, line in enumerate(grid) for b, cell in enumerate(line.split()[1:]) if cell.startswith("*")]
    assert [li for li, _ in marked] == list(range(8)) and [b for _, b in marked] == list(range(0, 32, 4))
    assert "*0,0+" in grid[0].split() and pic.info["ways"] == 1
    plain_pic = draw.bank_picture(plain, 16, access={(i, 0) for i in range(8)})
    assert all(line.split()[1].startswith("*") for line in plain_pic.to_text().splitlines()[2:10])  # all in bank 0
    assert plain_pic.info["ways"] == 8 and plain_pic.info["banks"] == [0]
    import matplotlib
    matplotlib.use("Agg")
    fig = pic.draw()
    assert len(fig.axes[0].texts) == 8 * 32
