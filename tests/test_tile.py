"""TVM TIRx TileLayout / ComposeLayout: oracle corpus, documentation examples, bridges, bad input."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from converters.tile import ComposeLayout, TileLayout, parse_tile, swizzle_address
from converters.tile.hardware import to_hardware
from linlayout.mixed_radix import MixedRadixLayout
from linlayout.errors import (
    LayoutError,
    NotInvertibleError,
    NotLinearError,
    ParseError,
    SizeError,
    UnsupportedError,
)

ORACLE = Path(__file__).parent / "oracles" / "tirx" / "tile_layout.jsonl"
ROWS = [json.loads(line) for line in ORACLE.read_text().splitlines() if line.strip()]


def _eval(row, coord):
    L = parse_tile(row["spec"])
    try:
        if "swizzle" in row:
            return ComposeLayout(*row["swizzle"], L).apply(*coord, shape=row["shape"])
        return L.apply(*coord, shape=row["shape"])
    except LayoutError:
        return {"error": "RuntimeError"}


def test_oracle_every_point_agrees():
    total = agree = 0
    bad = []
    for row in ROWS:
        for coord, expected in row["points"]:
            total += 1
            got = _eval(row, coord)
            if got == expected:
                agree += 1
            elif len(bad) < 5:
                bad.append((row["spec"], row["shape"], coord, got, expected))
    assert total == 11246
    assert agree == total, bad


def test_oracle_text_round_trip_and_canonical():
    for row in ROWS:
        L = parse_tile(row["spec"])
        assert str(L) == row["spec"]
        assert parse_tile(str(L)) == L
        if "canonical" in row:
            assert L.canonicalize().to_tirx_source() == row["canonical"]


def test_oracle_general_bridge_same_map():
    """TileLayout -> MixedRadixLayout in TIRx's direction (flat and shaped) gives apply's values on
    every point."""
    for row in ROWS:
        if "swizzle" in row:
            continue
        L = parse_tile(row["spec"])
        g = L.place_general()
        gs = L.place_general(row["shape"])
        for coord, expected in row["points"]:
            f = 0
            for c, s in zip(coord, row["shape"]):
                f = f * s + c
            base = g.apply(x=f)
            assert {a: base[a] for a in expected} == expected
            shaped = gs.apply({f"dim{k}": c for k, c in enumerate(coord)})
            assert {a: shaped[a] for a in expected} == expected
        back, shape = TileLayout.from_place_general(gs)
        assert shape == tuple(row["shape"])
        assert back.place_general().is_equivalent(g)


def _hardware_place(L, place):
    """A TIRx place (``{axis: value}`` as ``places`` gives) in the in-dims of the hardware-first
    forms (the renaming the package docstring states)."""
    thread = any(a in ("laneid", "warpid", "tx", "wgid", "tid_in_wg", "wid_in_wg") for a in L.axes)
    out: dict[str, int] = {}
    for a, v in place.items():
        if a in ("tx", "tid_in_wg"):
            out["lane"] = out.get("lane", 0) + v % 32
            out["warp"] = out.get("warp", 0) + v // 32
            continue
        name = {"laneid": "lane", "warpid": "warp", "wid_in_wg": "warp", "TLane": "row", "TCol": "col"}.get(a, a)
        if a == "wgid":
            name, v = "warp", 4 * v
        if a == "m":
            name = "register" if thread else "offset"
        out[name] = out.get(name, 0) + v
    return out


def _no_unit_dims(g):
    """``g`` without its in-dims of size 1 (they hold no information: a one-element TileLayout does
    not say which axis its extent-1 iters were on once they are grouped away)."""
    return MixedRadixLayout({n: dl for n, dl in g.digits.items() if g.in_dims[n] > 1}, g.replicas, g.offset, g.out_dims)


def test_oracle_to_general_is_hardware_to_coordinates():
    """The contract's direction on the corpus: to_general(shape) exists exactly for the layouts
    whose places (replicas included) cover the hardware box once; it maps every place TIRx's
    ``places`` gives for a coordinate back to that coordinate, agrees with to_linear wherever that
    exists (to_linear refuses the others too), and from_general reads it back."""
    inverted = refused = linear = 0
    for row in ROWS:
        if "swizzle" in row:
            continue
        L = parse_tile(row["spec"])
        shape = tuple(row["shape"])
        # every place of every element, replicas included (TIRx's direction), in hardware names
        g = L.place_general()
        t = g.full_table().reshape(-1, len(g.axes)).astype(np.int64)
        cols: dict[str, np.ndarray] = {}
        for k, a in enumerate(g.axes):
            for name, v in _hardware_place(L, {a: t[:, k]}).items():
                cols[name] = cols.get(name, 0) + v
        places = np.stack(list(cols.values()), axis=1)
        box = math.prod(int(places[:, k].max()) + 1 for k in range(places.shape[1]))
        covered_once = places.min() >= 0 and len(np.unique(places, axis=0)) == len(places) == box
        try:
            h = L.to_general(shape)
        except NotInvertibleError:
            refused += 1
            assert not covered_once, row["spec"]
            with pytest.raises((NotInvertibleError, NotLinearError)):
                L.to_linear(shape)
            continue
        assert covered_once, row["spec"]
        inverted += 1
        assert h.out_dims == {f"dim{k}": s for k, s in enumerate(shape)}
        assert math.prod(h.in_dims.values()) == L.size() * math.prod(i.extent for i in L.replica)
        for f in range(0, L.size(), max(1, L.size() // 16)):
            coord = np.unravel_index(f, shape)
            want = {f"dim{k}": int(c) for k, c in enumerate(coord)}
            for place in L.places(f, shape=(L.size(),)):
                hp = _hardware_place(L, place)  # an axis of extent 1 is no in-dim: its place is 0
                assert all(v == 0 for a, v in hp.items() if a not in h.in_dims), (row["spec"], place)
                assert h.apply({a: v for a, v in hp.items() if a in h.in_dims}) == want, (row["spec"], shape, place)
        try:
            ll = L.to_linear(shape)
        except NotLinearError:
            assert not h.is_linear()
        else:
            linear += 1
            assert ll.in_dims == h.in_dims and MixedRadixLayout.from_linear(ll).is_equivalent(h), row["spec"]
        back = TileLayout.from_general(h)
        assert back.shape == shape and _no_unit_dims(back.to_general()).is_equivalent(_no_unit_dims(h))
    assert inverted + refused == sum("swizzle" not in r for r in ROWS)
    assert (inverted, refused, linear) == (47, 719, 26)  # most of the corpus has gaps or offsets


def test_swizzle_refusals_match_tirx():
    # TIRx refuses a swizzle over a layout that places data on an axis other than m
    assert all(
        ("error" in exp) == (any(i.axis != "m" and i.extent > 1 for i in parse_tile(r["spec"]).shard) or any(a != "m" for a in parse_tile(r["spec"]).offset) or "error" in exp)
        for r in ROWS
        if "swizzle" in r
        for _, exp in r["points"]
    )
    with pytest.raises(UnsupportedError):  # built as TIRx builds it, refused where TIRx refuses: at apply
        ComposeLayout(1, 1, 3, parse_tile("S[(4,):(112,)] + 1@TLane")).apply(0)
    with pytest.raises(UnsupportedError):  # a unit iter on TCol is kept for shape [1]: refused at apply
        ComposeLayout(2, 3, 4, parse_tile("S[(1,):(1@TCol,)] + R[2:1@TCol]")).apply(0, shape=[1])
    with pytest.raises(SizeError):
        ComposeLayout(1, 4, 3, parse_tile("S[8:1]"))


# ------------------------------------------------------------------ documentation worked examples


def test_tensor_core_tile():
    L = parse_tile("S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid] + 5@warpid")
    for f in (0, 1, 2, 16, 127):
        i, j = divmod(f, 16)
        expected = {"laneid": 4 * i + (j // 2) % 4, "warpid": j // 8 + 5, "m": j % 2}
        assert L.apply(i, j, shape=(8, 16)) == expected
        assert L.apply(f, shape=(128,)) == expected
        copies = L.places(i, j, shape=(8, 16))
        assert copies == [expected, {**expected, "warpid": expected["warpid"] + 4}]
    warps = {p["warpid"] for f in range(128) for p in L.places(f)}
    assert warps == {5, 6, 9, 10}
    assert L.size() == 128 and L.span("warpid") == 11


def test_blackwell_tmem_224_columns():
    L = parse_tile("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]")
    shape = (2, 128, 112)
    for (a, l, c), (lane, col) in {(0, 0, 0): (0, 0), (0, 5, 3): (5, 3), (1, 0, 0): (0, 112), (1, 127, 111): (127, 223)}.items():
        assert L.apply(a, l, c, shape=shape) == {"TLane": lane, "TCol": col}
    assert L.span("TCol") == 224 and L.span("TLane") == 128
    g = L.place_general(shape)
    t = g.table()
    assert t[:, 0].max() == 223 and len({tuple(r) for r in t.tolist()}) == 2 * 128 * 112
    with pytest.raises(NotLinearError, match="112"):
        L.to_linear(shape)
    pieces = g.split_pow2()
    assert sum(int(np.prod(list(p.layout.in_dims.values()))) for p in pieces) == 2 * 128 * 112
    for p in pieces:  # every piece is GF(2)-ready or at least mixed-radix
        sub = p.layout
        for pt in [dict(zip(sub.in_dims, (0,) * 3)), {n: s - 1 for n, s in sub.in_dims.items()}]:
            full = {n: p.in_start[n] + pt[n] for n in sub.in_dims}
            v = sub.apply(pt)
            assert {a: v[a] + p.offset[a] for a in v} == g.apply(full)


def test_scale_factor_atom():
    sf_per_mma = 4
    L = parse_tile(f"S[(32,{sf_per_mma}):(1@TLane,1@TCol)] + R[4:32@TLane]")
    for r in range(32):
        for c in range(sf_per_mma):
            places = L.places(r, c, shape=(32, sf_per_mma))
            # one group of 32 lanes feeds all four warps' lane quarters
            assert [p["TLane"] for p in places] == [r, r + 32, r + 64, r + 96]
            assert {p["TCol"] for p in places} == {c}
    full = parse_tile("S[(4,32,4):(4@TCol,1@TLane,1@TCol)] + R[4:32@TLane]")
    assert full.apply(1, 3, 2, shape=(4, 32, 4)) == {"TCol": 6, "TLane": 3}
    assert full.span("TLane") == 128 and full.span("TCol") == 16


# ------------------------------------------------------------------ LinearLayout bridge


def test_to_linear_and_back():
    L = parse_tile("S[(4,8,2):(1@warpid,1@laneid,1)] + R[4:8@laneid]")
    ll = L.to_linear((4, 16))
    assert ll.in_dim_names == ("register", "lane", "warp")
    for i in range(4):
        for j in range(16):
            for p in L.places(i, j, shape=(4, 16)):
                assert ll.apply({"register": p["m"], "lane": p["laneid"], "warp": p["warpid"]}) == {"dim0": i, "dim1": j}
    back = TileLayout.from_linear(ll)
    assert back.shape == (4, 16) and back == parse_tile(f"{L} shape=(4,16)")
    assert parse_tile(str(back)) == back and back.to_linear() == ll
    with pytest.raises(SizeError, match="not the requested shape"):
        back.to_linear((2, 32))
    fwd = L.to_linear((4, 16), hardware_first=False)
    assert fwd.in_dim_names == ("dim0", "dim1", "replica")


def test_not_linear_message_names_the_contracts_direction():
    L = parse_tile("S[(3,8):(1@laneid,1)]")
    with pytest.raises(NotLinearError, match=r"^to_linear: the map hardware -> coordinates \(register, lane -> dim0\) "
                                             r"is not linear, since the coordinates -> hardware map it inverts is not: "
                                             r"there, digit 1 of in-dim 'dim0' \(3:1@lane\) has extent 3"):
        L.to_linear()
    # the forward map is the coordinate-first one: its own wording stands
    with pytest.raises(NotLinearError, match=r"^to_linear: digit 1 of in-dim 'dim0'"):
        L.to_linear(hardware_first=False)


def test_to_linear_refusals():
    with pytest.raises(NotLinearError, match="offset"):
        parse_tile("S[(8,4):(1@laneid,1)] + 5@warpid").to_linear()
    with pytest.raises(NotLinearError, match="overlaps"):
        parse_tile("S[(4,4):(3,1)]").to_linear()
    with pytest.raises(NotInvertibleError):
        parse_tile("S[(4,):(2@laneid,)]").to_linear()
    assert parse_tile("S[(4,):(2@laneid,)]").to_linear(hardware_first=False).bases == {"dim0": ((2,), (4,))}


def test_tid_splits_into_lane_and_warp():
    L = parse_tile("S[(128,2):(1@tx,1)]")
    ll = L.to_linear((128, 2))
    assert ll.in_dims == {"register": 2, "lane": 32, "warp": 4}
    assert ll.apply({"register": 1, "lane": 3, "warp": 2}) == {"dim0": 67, "dim1": 1}


def test_compose_layout_linear():
    C = ComposeLayout(0, 3, 3, parse_tile("S[(8,8):(8,1)]"))
    ll = C.to_linear((8, 8))
    for i in range(8):
        for j in range(8):
            assert ll.apply({"offset": C.apply(i, j, shape=(8, 8))["m"]}) == {"dim0": i, "dim1": j}
    assert swizzle_address(np.arange(4), 0, 1, 1).tolist() == [0, 1, 3, 2]


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    "text, pos, what",
    [
        ("S[(8,2):(4@laneid)]", 8, "2 extents but 1 strides"),
        ("S[(8,2):(4@,1)]", 11, "axis name"),
        ("S[(8,2):(4,1)", 13, "']'"),
        ("S[(8,2):(4,1)] +", 16, "S[...]"),
        ("S[(8,2):(4,1)] + R[2:4@warpid] + R[2:1]", 33, "second R"),
        ("S[(8,x):(4,1)]", 5, "extent"),
        ("S[(8,2):(4,1)] $ 3", 15, "unexpected character"),
        ("R[2:1]", 0, "missing the shard"),
        ("S[(0,2):(4,1)]", 1, "positive"),
    ],
)
def test_parse_errors(text, pos, what):
    with pytest.raises(ParseError) as ei:
        parse_tile(text)
    assert ei.value.position == pos
    assert what in str(ei.value)


def test_shape_size_mismatch_names_both_numbers():
    L = parse_tile("S[(2,7):(1@TLane,32@TLane)]")
    with pytest.raises(SizeError) as ei:
        L.apply(0, shape=[15])
    assert "15" in str(ei.value) and "14" in str(ei.value)
    with pytest.raises(LayoutError):
        L.apply(14, shape=[14])
    with pytest.raises(LayoutError):
        TileLayout([(0, 1, "m")])


@pytest.mark.parametrize("call, message", [
    (lambda L: L.apply(1, 2, shape=(4, 8.5)), "shape [4, 8.5]: entry 1 must be an integer, got float 8.5"),
    (lambda L: L.to_general((4, 8.0)), "shape [4, 8.0]: entry 1 must be an integer, got float 8.0"),
    (lambda L: L.apply(1, True, shape=(4, 8)), "apply: coordinate 1 must be an integer, got the boolean True"),
    (lambda L: L.apply(1.0, 2, shape=(4, 8)), "apply: coordinate 0 must be an integer, got float 1.0"),
    (lambda L: TileLayout(L.shard, offset={"m": 2.0}), "offset on 'm' must be an integer, got float 2.0"),
    (lambda L: ComposeLayout(3, 2.0, 3, L), "ComposeLayout: swizzle_len must be an integer, got float 2.0"),
    (lambda L: L.place_general("48"), "shape must be a sequence of ints, got '48'"),
])
def test_non_integers_are_refused_not_truncated(call, message):
    """A float shape entry was once truncated (8.5 read as 8); every integer argument is read by
    linlayout.checks.as_int, numpy integers included."""
    L = parse_tile("S[(4,8):(8,1)]")
    with pytest.raises(LayoutError) as e:
        call(L)
    assert str(e.value) == message
    assert L.apply(np.int64(1), np.uint8(2), shape=np.array([4, 8])) == L.apply(1, 2, shape=(4, 8)) == {"m": 10}


def test_group_matches_tirx():
    L = parse_tile("S[(4,4):(3@laneid,12@laneid)]")
    g, seps = L.group([2, 8])
    assert str(g) == "S[(2,2,4):(6@laneid,3@laneid,12@laneid)]" and seps == [0, 1, 3]
    with pytest.raises(SizeError):
        parse_tile("S[(2,3):(32@warpid,1)]").group([3, 2])
    # apply still works without a grouping (every iter's axis is reported)
    assert parse_tile("S[(1,2,3):(5@laneid,32@warpid,1)]").apply(0, 1, shape=[3, 2]) == {"laneid": 0, "warpid": 0, "m": 1}


# ------------------------------------------------------------------ properties

_axis = st.sampled_from(["m", "laneid", "warpid", "TLane", "TCol", "myaxis"])
_iter = st.tuples(st.integers(1, 6), st.integers(-3, 40), _axis)


@st.composite
def tile_layouts(draw):
    shard = draw(st.lists(_iter, min_size=1, max_size=4))
    rep = draw(st.lists(st.tuples(st.integers(1, 4), st.integers(0, 40), _axis), max_size=2))
    off = draw(st.dictionaries(_axis, st.integers(-5, 70), max_size=2))
    return TileLayout(shard, rep, off)


@settings(max_examples=60, deadline=None)
@given(tile_layouts())
def test_text_round_trip(L):
    assert parse_tile(str(L)) == L


def test_general_round_trip_keeps_a_register_replica_beside_tensor_memory():
    """A tensor-memory layout with an extent-1 thread iter and a replica on the unnamed axis
    (hypothesis found it in CI): its hardware-first form has a ``register`` in-dim, and the
    TileLayout read back from it must name that axis ``register`` again, not ``offset`` (an
    extent-1 ``laneid`` iter, which adds nothing to any place, keeps it)."""
    L = TileLayout.parse("S[(1,2):(0@laneid,1@TLane)] + R[2:1]")
    h = L.to_general()
    back = TileLayout.from_general(h)
    assert h.in_dims == {"register": 2, "row": 2} and back.to_general().in_dims == h.in_dims
    assert back.to_general().is_equivalent(h)
    assert TileLayout.from_linear(L.to_linear()).to_linear() == L.to_linear()


@settings(max_examples=40, deadline=None)
@given(tile_layouts())
def test_general_round_trip(L):
    g = L.place_general()
    back, _ = TileLayout.from_place_general(g)
    assert back.place_general().is_equivalent(g)
    try:
        h = L.to_general()
    except NotInvertibleError:
        pass
    else:  # hardware -> coordinates undoes coordinates -> places, replicas included
        hw = to_hardware(g)
        for x in range(0, L.size(), max(1, L.size() // 7)):
            # an extent-1 hardware axis is not an in-dim of h (as in to_linear): its coordinate is 0
            assert all(h.apply({k: v for k, v in p.items() if k in h.in_dims or v}) == {"dim0": x}
                       for p in hw.apply_all(x=x))
        assert _no_unit_dims(TileLayout.from_general(h).to_general()).is_equivalent(_no_unit_dims(h))
    t = g.table()
    for f in range(0, L.size(), max(1, L.size() // 7)):
        base = L.apply(f)
        assert all(base[a] == t[f, g.axes.index(a)] for a in base)
        assert sorted(map(sorted, (p.items() for p in L.places(f)))) == sorted(map(sorted, (p.items() for p in g.apply_all(x=f))))


# ------------------------------------------------------------------ reference (optional)


@pytest.mark.reference
def test_against_tvm_tirx():
    """apply, live: shard, replica and offset on memory and thread axes, read over flat and
    multi-dim shapes (grouped or not), and ComposeLayouts with the swizzle both ways."""
    tirx = pytest.importorskip("tvm_tirx.tirx.layout")
    import tvm_tirx

    simplify = tvm_tirx.sym.Analyzer().simplify
    rng = np.random.default_rng(0)
    axes = ["m", "laneid", "warpid", "TLane", "TCol", "tx", "wgid"]
    pick = lambda: axes[int(rng.integers(0, len(axes)))]  # noqa: E731
    checked = 0
    for k in range(160):
        n = int(rng.integers(1, 5))
        shard = [(int(rng.integers(1, 6)), int(rng.integers(0, 9)), pick()) for _ in range(n)]
        replica = [(int(rng.integers(1, 4)), int(rng.integers(0, 33)), pick()) for _ in range(int(rng.integers(0, 3)))]
        offset = {pick(): int(rng.integers(0, 9)) for _ in range(int(rng.integers(0, 3)))}
        ours = TileLayout(shard, replica, offset)
        ref = tirx.TileLayout.from_iters([tirx.Iter(*s) for s in shard], [tirx.Iter(*s) for s in replica], offset)
        size = ours.size()
        shapes = [[size], [i.extent for i in ours.shard]]
        if size % 2 == 0:
            shapes.append([2, size // 2])
        for shape in shapes:
            for f in range(size):
                coord = [(f // math.prod(shape[j + 1:])) % shape[j] for j in range(len(shape))]
                got = {str(a): int(v) for a, v in ref.apply(*coord, shape=shape).items()}
                assert ours.apply(*coord, shape=shape) == got, (str(ours), shape, coord)
                checked += 1
        if k % 4 == 0:  # a swizzle over a memory tile
            m = [(e, s, "m") for e, s, _ in shard]
            sl = int(rng.integers(0, 3))
            sw = (int(rng.integers(0, 3)), sl, sl + int(rng.integers(0, 3)), bool(rng.integers(0, 2)))
            c_ours = ComposeLayout(*sw[:3], TileLayout(m, [], {"m": offset.get("m", 0)}), sw[3])
            c_ref = tirx.ComposeLayout(*sw[:3], tirx.TileLayout.from_iters([tirx.Iter(*s) for s in m], [], {"m": offset.get("m", 0)}), sw[3])
            for f in range(size):
                got = {str(a): int(simplify(v)) for a, v in c_ref.apply(f, shape=[size]).items()}
                assert c_ours.apply(f, shape=[size]) == got, (repr(c_ours), f)
                checked += 1
    assert checked > 5000
