"""The swizzle search's shortcuts against the definitions they stand for (issue 19).

The search ranks an instruction pair by its bank conflicts and rounds without building its shared
layout: on bit masks when every basis is a unit vector, stopping early when no later pair can beat
a conflict-free one, with the fit tests of a tile pair precomputed.  Each shortcut is checked here
against the plain computation: the offset groups of :func:`_groups` (whose segment must be
:func:`_compute_segment`'s), :func:`side_bank_conflicts` on them, the exhaustive first-of-the-best
over every pair, and the conversion map's lane columns.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linlayout import LinearLayout
from linlayout.banks import _unit_images as _bank_unit_images
from linlayout.errors import DimensionError, LayoutError
from linlayout.gf2 import unit_complement
from linlayout.plan_smem import (
    LD_ST_MATRIX,
    LD_ST_MATRIX_TRANS,
    LD_ST_SHARED,
    MemOpTile,
    SwizzleChoice,
    SwizzleSearch,
    _choice_of,
    _choice_unit_images,
    _compute_segment,
    _conflicts,
    _groups,
    _layout_of,
    _rank_of_masks,
    conversion_map,
    optimal_swizzle,
    remove_broadcast_registers,
    side_bank_conflicts,
)
from strategies import with_swapped_bases

TILES = [LD_ST_SHARED, LD_ST_MATRIX, LD_ST_MATRIX_TRANS]


@st.composite
def distributed(draw, dim: int, d0: int, units: bool):
    """A register/lane/warp layout of a 2-D tensor of ``2**dim`` elements: a permutation of the
    unit vectors (XOR-mixed unless ``units``) split over the in-dims, with some broadcast
    (zero) registers and lanes; ``2**d0`` rows."""
    cols = [1 << i for i in draw(st.permutations(range(dim)))]
    if not units:
        for _ in range(draw(st.integers(0, 2 * dim))):
            i, j = draw(st.integers(0, dim - 1)), draw(st.integers(0, dim - 1))
            if i != j:
                cols[i] ^= cols[j]
    n_lane = draw(st.integers(0, min(5, dim)))
    n_warp = draw(st.integers(0, dim - n_lane))
    regs, lanes, warps = cols[:dim - n_lane - n_warp], cols[dim - n_lane - n_warp:dim - n_warp], cols[dim - n_warp:]
    while len(lanes) < 5 and draw(st.booleans()):  # broadcast lanes
        lanes.insert(draw(st.integers(0, len(lanes))), 0)
    if draw(st.booleans()):
        regs.insert(draw(st.integers(0, len(regs))), 0)
    return LinearLayout.from_flat({"register": regs, "lane": lanes, "warp": warps},
                                  [("dim0", 1 << d0), ("dim1", 1 << (dim - d0))])


@st.composite
def tile(draw):
    lanes = draw(st.permutations(range(6)))[:draw(st.integers(0, 5))]
    cut = draw(st.integers(0, len(lanes)))
    return MemOpTile(tuple(lanes[:cut]), tuple(lanes[cut:]), f"st{lanes}", f"ld{lanes}")


@st.composite
def searches(draw, units: bool | None = None):
    """Two layouts of one tensor and an element width; the second is often the first with a few
    hardware bits swapped (then they share registers and lanes: rounds, matrix tiles)."""
    dim = draw(st.integers(3, 12))
    if units is None:
        units = draw(st.booleans())
    d0 = draw(st.integers(0, dim))
    src = draw(distributed(dim, d0, units))
    if draw(st.booleans()):
        dst = draw(distributed(dim, d0, units))
    else:
        dst = draw(with_swapped_bases(src, ("register", "lane", "warp")))
    bits = draw(st.sampled_from([8, 16, 32, 64]))
    return src, dst, bits


def _exhaustive_best(search: SwizzleSearch, src_tiles, dst_tiles):
    """Every pair's swizzle built; the first of the fewest conflicts, then the most rounds."""
    best = None
    for ts in src_tiles:
        for td in dst_tiles:
            c = search.candidate(ts, td)
            if c is None:
                continue
            key = (c.store_conflicts + c.load_conflicts, -c.reps)
            if best is None or key < best[0]:
                best = (key, c)
    return search.ldst() if best is None else best[1]


@settings(max_examples=300, deadline=None)
@given(searches(), st.lists(tile(), max_size=3), st.data())
def test_every_pair_is_ranked_as_its_offset_groups_say(pair, extra, data):
    src, dst, bits = pair
    search = SwizzleSearch(src, dst, bits)
    fresh = SwizzleSearch(src, dst, bits)
    for ts in TILES + extra:
        for td in TILES + extra:
            rank = search._rank(ts, td)
            full = fresh._candidate(ts, td)
            if full is None:
                assert rank is None
                continue
            (vbasis, sbasis, segment, reps), tile_s, tile_d, w, r = full
            # the groups are the generic swizzle's: _compute_segment's segment bits, the
            # registers of both sides among them rounds (but the tiles' spare lanes' worth)
            dim = src.total_out_size_log2
            assert sbasis == _compute_segment(vbasis + tile_s, vbasis + tile_d, dim, len(sbasis))
            assert sorted(segment + reps) == sorted(sbasis)
            both = fresh._common
            assert all(v in both for v in reps)
            assert (w, r) == (side_bank_conflicts(segment, tile_s), side_bank_conflicts(segment, tile_d))
            assert _conflicts(segment, tile_s, tile_d) == (w, r)  # the elimination, whatever the vectors
            assert rank == (w, r, len(reps))


@settings(max_examples=300, deadline=None)
@given(searches(), st.lists(tile(), max_size=2), st.data())
def test_best_is_the_first_of_the_fewest_conflicts_then_most_rounds(pair, extra, data):
    src, dst, bits = pair
    tiles = TILES + extra
    src_tiles = data.draw(st.lists(st.sampled_from(tiles), max_size=4))
    dst_tiles = data.draw(st.lists(st.sampled_from(tiles), max_size=4))
    got = SwizzleSearch(src, dst, bits).best(src_tiles, dst_tiles)
    assert got == _exhaustive_best(SwizzleSearch(src, dst, bits), src_tiles, dst_tiles)


@settings(max_examples=100, deadline=None)
@given(searches())
def test_a_known_conversion_changes_nothing(pair):
    src, dst, bits = pair
    # the map of the layouts the search works on (without broadcast registers), as the planner gives it
    src, dst = remove_broadcast_registers(src), remove_broadcast_registers(dst)
    try:
        cvt = conversion_map(src, dst)
    except LayoutError:
        return
    plain, given_ = SwizzleSearch(src, dst, bits), SwizzleSearch(src, dst, bits, conversion=cvt)
    assert plain.best(TILES, TILES) == given_.best(TILES, TILES)
    # the lane columns read from the map: its register and lane parts
    if plain.convertible(0):
        for i, v in enumerate(cvt.flat_bases("lane")):
            assert given_.lane_image(0, i) == (cvt.get_basis("lane", i, "register"), cvt.get_basis("lane", i, "lane"))
            assert plain.lane_image(0, i) == given_.lane_image(0, i)
    # the other direction, read off the remembered facts of dst where it reaches every element
    try:
        back = conversion_map(dst, src)
    except LayoutError:
        back = None
    fresh = SwizzleSearch(src, dst, bits)
    assert fresh.convertible(1) == (back is not None)
    if back is not None:
        for i in range(len(back.flat_bases("lane"))):
            assert fresh.lane_image(1, i) == (back.get_basis("lane", i, "register"), back.get_basis("lane", i, "lane"))


@settings(max_examples=60, deadline=None)
@given(searches())
def test_the_chosen_layout_knows_its_rank(pair):
    src, dst, bits = pair
    lay = optimal_swizzle(src, dst, bits).layout
    rebuilt = LinearLayout.from_flat({d: lay.flat_bases(d) for d in lay.in_dim_names}, list(lay.out_dims.items()))
    assert lay == rebuilt and lay.rank() == rebuilt.rank() == lay.total_out_size_log2


def _no_broadcast(L: LinearLayout) -> LinearLayout:
    """``L`` without its zero bases (no broadcast registers or lanes)."""
    return LinearLayout.from_flat({d: [v for v in L.flat_bases(d) if v] for d in L.in_dim_names}, list(L.out_dims.items()))


def _without_shortcuts(search: SwizzleSearch) -> SwizzleSearch:
    """A fresh search of the same pair whose sides do not claim to be permutations (the fit
    tests then read the conversion map's lane columns)."""
    fresh = SwizzleSearch(search.src, search.dst, search.bitwidth)
    sides = []
    for side in fresh.sides:
        twin = copy.copy(side)
        twin.perm = False
        twin._usable, twin._addr = {}, {}
        sides.append(twin)
    fresh.sides = (sides[0], sides[1])
    return fresh


@settings(max_examples=300, deadline=None)
@given(searches(units=True), st.lists(tile(), max_size=3), st.booleans())
def test_a_permutation_side_fits_pairs_as_its_conversion_map_says(pair, extra, wide):
    src, dst, bits = pair
    if wide:  # no broadcast lanes or registers: both sides are often permutations of the bits
        src, dst = _no_broadcast(src), _no_broadcast(dst)
    search = SwizzleSearch(src, dst, bits)
    plain = _without_shortcuts(search)
    for ts in TILES + extra:
        for td in TILES + extra:
            assert search._rank(ts, td) == plain._rank(ts, td)


@settings(max_examples=300, deadline=None)
@given(searches(units=True), st.booleans())
def test_coordinates_on_masks_agree_with_the_solved_ones(pair, wide):
    """The matrix-row and round tests of a choice whose coordinates are read off masks (its
    basis: unit vectors and XOR pairs) agree with solving each vector in the basis."""
    from linlayout.plan import _matrix_rows_fit, _repaired, _rounds_fit

    src, dst, bits = pair
    if wide:
        src, dst = _no_broadcast(src), _no_broadcast(dst)
    search = SwizzleSearch(src, dst, bits)
    sa, sb = search.src, search.dst
    for ts in TILES:
        for td in TILES:
            c = search.candidate(ts, td)
            if c is None:
                continue
            bare = SwizzleChoice(c.layout, c.store_instr, c.load_instr, c.store_conflicts, c.load_conflicts, c.store_tile,
                                 c.load_tile, c.bitwidth)
            if "_unit_coords" in c.__dict__:
                assert c.layout.is_invertible()
            assert _repaired(c) == _repaired(bare)
            assert _matrix_rows_fit(c, sa, sb) == _matrix_rows_fit(bare, sa, sb)
            assert _rounds_fit(c, sa, sb) == _rounds_fit(bare, sa, sb)
            # the unit vectors' coordinates read off the masks are the solved ones
            got = _choice_unit_images(c)
            every = [v for d in ("vector", "bank", "segment", "reps") for v in c.layout.flat_bases(d)]
            assert got == (None if "_unit_coords" not in c.__dict__ else _bank_unit_images(tuple(every)))
            assert _choice_unit_images(bare) is None


@st.composite
def blocked_pairs(draw):
    """Two blocked layouts of one 2-D tensor (each dim's bits split over registers, lanes and
    warps in an order, the rest repeating registers: no copies) and an element width: pairs
    of permutations, often with matrix tiles that fit."""
    d0, d1 = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    n_warp = draw(st.integers(0, 2))
    if d0 + d1 < 5 + n_warp:
        d1 += 5 + n_warp - d0 - d1

    def one():
        order = draw(st.permutations([0, 1]))
        spt = [draw(st.integers(0, 3)), draw(st.integers(0, 3))]
        lane0 = draw(st.integers(0, 5))
        tpw, wpc = [lane0, 5 - lane0], [draw(st.integers(0, n_warp))]
        wpc.append(n_warp - wpc[0])
        sizes = [d0, d1]
        at = [0, 0]
        flat: dict[str, list[int]] = {"register": [], "lane": [], "warp": []}
        # registers, lanes, warps in ``order`` (each within what the dim has left), the rest registers
        for name, per in (("register", spt), ("lane", tpw), ("warp", wpc)):
            for d in order:
                for _ in range(per[d]):
                    if at[d] < sizes[d]:
                        flat[name].append(1 << (at[d] + (0 if d == 0 else d0)))
                        at[d] += 1
                    elif name != "register":  # a lane or warp the dim cannot take goes to the other
                        o = 1 - d
                        if at[o] >= sizes[o]:
                            return None
                        flat[name].append(1 << (at[o] + (0 if o == 0 else d0)))
                        at[o] += 1
        for d in order:
            while at[d] < sizes[d]:
                flat["register"].append(1 << (at[d] + (0 if d == 0 else d0)))
                at[d] += 1
        return LinearLayout.from_flat(flat, [("dim0", 1 << d0), ("dim1", 1 << d1)])

    src, dst = one(), one()
    if src is None or dst is None or src.in_dim_size("lane") != dst.in_dim_size("lane"):
        return None
    return src, dst, draw(st.sampled_from([8, 16, 32]))


@settings(max_examples=300, deadline=None)
@given(st.one_of(searches(units=True), blocked_pairs()))
def test_a_choice_between_permutations_needs_no_repair_rows_or_rounds_test(pair):
    """What the planner skips for a pair of permutation layouts (plan._unbudgeted_choice): the
    swizzle of every pair of the planner's tiles (``.trans`` for 16-bit elements only: at other
    widths its lanes would not start at the element step), built on masks, is a bijection, fits
    its matrix rows and has no round a thread's index moves."""
    from linlayout.plan import _matrix_rows_fit, _matrix_tiles, _repaired, _rounds_fit

    if pair is None:
        return
    src, dst, bits = pair
    src, dst = _no_broadcast(src), _no_broadcast(dst)
    search = SwizzleSearch(src, dst, bits)
    if not (search.sides[0].perm and search.sides[1].perm):
        return
    tiles = _matrix_tiles(search.bitwidth, True)
    choices = [search.candidate(ts, td) for ts in tiles for td in tiles] + [search.ldst()]
    for c in choices:
        if c is None or "_unit_coords" not in c.__dict__:
            continue
        assert _repaired(c) is c
        assert _matrix_rows_fit(c, search.src, search.dst)
        assert _rounds_fit(c, search.src, search.dst) is c


def test_triton_layouts_need_no_repair_rows_or_rounds_test():
    """The same on Triton's layouts (blocked, MMA v2/v3, dot operands, tensor memory) of a few
    shapes and widths, where the matrix tiles fit."""
    from converters.gluon import TensorMemoryLayout, from_dict
    from converters.gluon.tmem import tmem_reg_layout
    from linlayout.plan import _matrix_rows_fit, _matrix_tiles, _repaired, _rounds_fit

    def blocked(spt, tpw, wpc, order, shape):
        return from_dict({"kind": "BlockedLayout", "size_per_thread": spt, "threads_per_warp": tpw, "warps_per_cta": wpc,
                          "order": order}).to_linear(shape)

    mma2 = {"kind": "NVMMADistributedLayout", "version": [2, 0], "warps_per_cta": [4, 1], "instr_shape": [16, 8]}
    mma3 = {"kind": "NVMMADistributedLayout", "version": [3, 0], "warps_per_cta": [4, 1], "instr_shape": [16, 64, 16]}
    matrix = 0
    for shape in ([64, 64], [128, 128], [64, 128]):
        layouts = [blocked([1, 4], [1, 32], [4, 1], [1, 0], shape), blocked([4, 1], [32, 1], [1, 4], [0, 1], shape),
                   blocked([1, 8], [4, 8], [4, 1], [1, 0], shape), blocked([2, 2], [8, 4], [2, 2], [0, 1], shape)]
        layouts += [from_dict(d).to_linear(shape) for d in (
            mma2, mma3, {"kind": "DotOperandLayout", "operand_index": 0, "parent": mma2, "k_width": 2},
            {"kind": "DotOperandLayout", "operand_index": 1, "parent": mma2, "k_width": 2})]
        layouts.append(tmem_reg_layout(TensorMemoryLayout(shape, 1), shape, element_bitwidth=16).to_linear(shape))
        for src in layouts:
            for dst in layouts:
                for bits in (8, 16, 32):
                    search = SwizzleSearch(src, dst, bits)
                    if not (search.sides[0].perm and search.sides[1].perm):
                        continue
                    tiles = _matrix_tiles(search.bitwidth, True)
                    for c in [search.candidate(ts, td) for ts in tiles for td in tiles] + [search.ldst()]:
                        if c is None or "_unit_coords" not in c.__dict__:
                            continue
                        matrix += "matrix" in c.store_instr + c.load_instr
                        assert _repaired(c) is c
                        assert _matrix_rows_fit(c, search.src, search.dst)
                        assert _rounds_fit(c, search.src, search.dst) is c
    assert matrix > 100  # the claim is tested where it matters: matrix sides


def test_a_built_choice_is_the_dataclass_with_those_fields():
    """The search writes a choice's fields in place: they must be the dataclass's, and the choice
    equal (and hash alike) to one made by its constructor."""
    c = _choice_of(([1], [6], [6], []), 3, (("dim0", 8),), "st.shared", "ldmatrix", 1, 0, [2], [4], 16)
    plain = SwizzleChoice(c.layout, "st.shared", "ldmatrix", 1, 0, (2,), (4,), 16)
    assert [f.name for f in dataclasses.fields(SwizzleChoice)] == [k for k in c.__dict__ if not k.startswith("_")]
    assert c == plain and hash(c) == hash(plain) and repr(c) == repr(plain)
    assert pickle.loads(pickle.dumps(c)) == plain


def test_mem_op_tile_lanes_are_lane_bits():
    with pytest.raises(DimensionError, match="non-negative"):
        MemOpTile((-1,), (0, 1, 2), "st", "ld")
    with pytest.raises(DimensionError, match="integer"):
        MemOpTile((0.5,), (0, 1, 2), "st", "ld")
    with pytest.raises(LayoutError, match="must be a list"):
        MemOpTile(3, (0, 1, 2), "st", "ld")  # type: ignore[arg-type]
    t = MemOpTile((np.int64(0), 1), [2, 3, 4], "stmatrix", "ldmatrix")  # type: ignore[list-item, arg-type]
    assert t == LD_ST_MATRIX and hash(t) == hash(LD_ST_MATRIX) and t._key == LD_ST_MATRIX._key
    assert type(t.lane_contig[0]) is int and t.lane_addr == (2, 3, 4)
    # a renamed tile is another tile, with the same candidates
    other = MemOpTile(LD_ST_MATRIX.lane_contig, LD_ST_MATRIX.lane_addr, "x", "y")
    assert other != LD_ST_MATRIX and other._key == LD_ST_MATRIX._key
    src = LinearLayout({"register": [[0, 1]], "lane": [[0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], "warp": [[1, 0], [2, 0]]},
                       {"dim0": 4, "dim1": 64})
    search = SwizzleSearch(src, src, 16)
    a, b = search.candidate(LD_ST_MATRIX, LD_ST_SHARED), search.candidate(other, LD_ST_SHARED)
    assert (a is None) == (b is None)
    if a is not None and b is not None:
        assert b.store_instr == "x" and (a.layout, a.store_conflicts) == (b.layout, b.store_conflicts)


def test_groups_take_xor_pairs_when_unit_vectors_run_out():
    # 4 bits, vector bit 1, tiles {2, 4} and {8, 4}: no unused unit vector, so a segment bit is an
    # XOR pair of one tile's own vector and the other's (no conflict) ...
    assert _groups(frozenset(), 4, 1, [1], [2, 4], [8, 4]) == ([1], [10], [10], [])
    assert _compute_segment([1, 2, 4], [1, 8, 4], 4, 1) == [10]
    assert _conflicts([10], [2, 4], [8, 4], True) == _conflicts([10], [2, 4], [8, 4]) == (0, 0)
    # ... and with room for more, the raw vectors (a conflict on each side)
    assert _groups(frozenset(), 4, 3, [1], [2, 4], [8, 4]) == ([1], [2, 8], [2, 8], [])
    assert _conflicts([2, 8], [2, 4], [8, 4], True) == _conflicts([2, 8], [2, 4], [8, 4]) == (1, 1)
    # registers of both sides are rounds, but the first ``leave_reps``
    vbasis, sbasis, segment, reps = _groups(frozenset({2, 8}), 5, 3, [1], [2, 4], [8, 4], leave_reps=1)
    assert sbasis == [16, 2, 8] and segment == [16, 2] and reps == [8]
    assert _conflicts(segment, [2, 4], [8, 4], True) == _conflicts(segment, [2, 4], [8, 4]) == (1, 0)


@st.composite
def unit_swizzle_inputs(draw):
    """What :func:`_groups` reads, of unit vectors: distinct vector bits, two tiles drawn from the
    other units (sharing some, with zeros: broadcast lanes), registers of both sides among all
    units, a segment length and the reps to leave."""
    dim = draw(st.integers(1, 12))
    units = [1 << i for i in draw(st.permutations(range(dim)))]
    nv = draw(st.integers(0, min(4, dim)))
    vbasis, rest = units[:nv], units[nv:]
    pool = rest + vbasis + [0]
    tile_s = draw(st.lists(st.sampled_from(pool), max_size=4, unique=True)) if pool else []
    tile_d = draw(st.lists(st.sampled_from(pool), max_size=4, unique=True)) if pool else []
    common = frozenset(draw(st.lists(st.sampled_from(units), max_size=dim, unique=True)))
    len_s = draw(st.integers(0, dim - nv))
    leave = draw(st.integers(-2, 3))
    return dim, vbasis, tile_s, tile_d, common, len_s, leave


@settings(max_examples=1000, deadline=None)
@given(unit_swizzle_inputs())
def test_ranks_on_masks_count_what_the_groups_hold(args):
    dim, vbasis, tile_s, tile_d, common, len_s, leave = args
    _, sbasis, segment, reps = _groups(common, dim, len_s, list(vbasis), tile_s, tile_d, leave)
    want = (side_bank_conflicts(segment, tile_s), side_bank_conflicts(segment, tile_d), len(reps))
    assert _conflicts(segment, tile_s, tile_d, True) == want[:2]
    assert len(set(sbasis)) == len(sbasis)  # distinct: the rounds are distinct registers
    vbm, st_, ld = (sum(set(v)) for v in (vbasis, tile_s, tile_d))
    assert _groups(common, dim, len_s, list(vbasis), tile_s, tile_d, leave, (vbm, st_, ld)) == (vbasis, sbasis, segment, reps)
    assert _rank_of_masks(vbm, st_, ld, (1 << dim) - 1, len_s, sum(common), leave) == want


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 10).flatmap(lambda dim: st.tuples(st.just(dim), st.lists(st.one_of(
    st.integers(0, (1 << dim) - 1), st.integers(0, dim - 1).map(lambda i: 1 << i)), max_size=dim))), st.data())
def test_bank_bits_complete_the_other_offset_bits(args, data):
    """The bank bits are the unit vectors :func:`unit_complement` adds (read off the lowest bits
    when those are distinct), and the layout's known rank is its rank."""
    dim, vecs = args
    cut = data.draw(st.integers(0, len(vecs)))
    lay = _layout_of((vecs[:cut], vecs[cut:], vecs[cut:], []), dim, (("dim0", 1 << dim),))
    assert list(lay.flat_bases("bank")) == unit_complement(vecs, dim)
    assert lay.rank() == LinearLayout.from_flat({d: lay.flat_bases(d) for d in lay.in_dim_names}, [("dim0", 1 << dim)]).rank()


@settings(max_examples=30, deadline=None)
@given(searches())
def test_a_choice_remembers_its_hash_and_offsets_but_pickles_its_fields_only(pair):
    import dataclasses
    import pickle

    src, dst, bits = pair
    c = optimal_swizzle(src, dst, bits)
    fresh = dataclasses.replace(c)  # the same fields, nothing remembered
    assert hash(c) == hash(fresh) and c == fresh
    lay = c.layout
    want = list(lay.flat_bases("vector") + lay.flat_bases("bank") + lay.flat_bases("segment"))
    assert c.offset_bases() == want and c.offset_bases() == want  # the second read is the remembered one
    c.offset_bases().append(-1)  # a caller's copy: the choice keeps its own
    assert c.offset_bases() == want
    back = pickle.loads(pickle.dumps(c))
    assert not any(k.startswith("_") for k in vars(back))
    assert back == c and hash(back) == hash(c) and back.offset_bases() == want
