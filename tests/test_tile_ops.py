"""TIRx's layout algebra (``converters.tile.algebra``) against TIRx itself.

* ``tests/oracles/tirx/ops.jsonl`` (TIRx 0.1.0a4's answers, see its README): every row, our
  answer equal to TIRx's (text, iters, values) or refused where TIRx refuses;
* algebraic laws (hypothesis): pack/unpack, permutations, tiling pointwise, canonical forms;
* a live differential run against ``tvm_tirx`` (marked ``reference``; skipped without it).
"""

from __future__ import annotations

import collections
import math
import os
import random
from typing import Any

import pytest
from conftest import load_oracle, oracle_generator
from hypothesis import assume, given
from hypothesis import strategies as st

from converters.tile import ComposeLayout, TileLayout, parse_tile
from converters.tile.axes import ScopeError
from linlayout.errors import DimensionError, LayoutError, SizeError

ROWS = load_oracle("tirx/ops.jsonl")

#: Operations whose result TIRx canonicalizes, which sorts replica iters by a structural hash:
#: their replica order is TIRx's own; ours keeps the given order (the same places either way).
_SORTS_REPLICAS = {"canonicalize", "tile", "tile_to"}


def _tile(d: dict) -> TileLayout:
    return TileLayout(d["shard"], d["replica"], d["offset"])


def _layout(row: dict) -> TileLayout | ComposeLayout:
    L = _tile(row)
    assert L == parse_tile(row["spec"]), row["spec"]  # the text names the same layout
    if "swizzle" in row:
        sw = row["swizzle"]
        return ComposeLayout(sw[0], sw[1], sw[2], L, *sw[3:])
    return L


def _ours(row: dict) -> Any:
    """Our answer to the row's call."""
    L, a, op = _layout(row), row["args"], row["op"]
    if op == "tile":
        outer = _tile(a["outer"])
        if isinstance(L, ComposeLayout):
            return L.tile_by(outer, a["outer_shape"], a["inner_shape"])
        return L.tile(outer, a["outer_shape"], a["inner_shape"])
    if op == "tile_to":
        return L.tile_to(a["to_shape"], a["current_shape"])
    if op in ("span", "size"):
        return getattr(L, op)(a["axis"])
    if op == "group":
        assert isinstance(L, TileLayout)
        return L.group(a["shape"])
    if op in ("pack", "unpack"):
        return getattr(L, op)(a["num"], *([a["axis"]] if "axis" in a else []))
    if op == "pack_unpacked":
        assert isinstance(L, TileLayout)
        return L.unpack(a["num"] * a["by"], a["axis"]).pack(a["num"], a["axis"])
    if op == "permute_dims":
        assert isinstance(L, TileLayout)
        return L.permute_dims(a["perm"])
    if op == "permute_by_groups":
        assert isinstance(L, TileLayout)
        return L.permute_by_groups(a["seps"], a["perm"])
    if op in ("apply_flat", "apply_iters"):
        return [[c, L.apply(*c)] for c, _ in row["result"]] if "result" in row else [L.apply(0)]
    if op == "apply":
        shape = a["shape"]
        coords = [[(f // math.prod(shape[k + 1:])) % shape[k] for k in range(len(shape))] for f in a["points"]]
        return [[c, L.apply(*c, shape=shape)] for c in coords]
    return getattr(L, op)()


def _described(x: Any) -> Any:
    """Our answer in the corpus's form (the generator's ``describe``)."""
    if isinstance(x, ComposeLayout):
        return {"text": x.to_tirx_source(), "per_element": x.per_element, "swizzle_len": x.swizzle_len,
                "atom_len": x.atom_len, "swizzle_inner": x.swizzle_inner, "tile": _described(x.tile)}
    if isinstance(x, TileLayout):
        its = lambda xs: [[i.extent, i.stride, i.axis] for i in xs]  # noqa: E731
        return {"text": x.to_tirx_source(), "shard": its(x.shard), "replica": its(x.replica), "offset": dict(x.offset)}
    if isinstance(x, (tuple, list)):
        return [_described(y) for y in x]
    return x


def _in_tirx_replica_order(ours: Any, theirs: Any) -> Any:
    """``ours`` with its replica iters in TIRx's order, when they are the same iters (else as is)."""
    if isinstance(ours, ComposeLayout) and isinstance(theirs, dict) and "tile" in theirs:
        t = _in_tirx_replica_order(ours.tile, theirs["tile"])
        return ComposeLayout(ours.per_element, ours.swizzle_len, ours.atom_len, t, ours.swizzle_inner)
    if isinstance(ours, TileLayout) and isinstance(theirs, dict) and "replica" in theirs:
        reps = [tuple(r) for r in theirs["replica"]]
        if sorted(reps) == sorted((i.extent, i.stride, i.axis) for i in ours.replica):
            return TileLayout(ours.shard, reps, ours.offset, shape=ours.shape)
    return ours


def check_row(row: dict) -> str:
    """``"agree"`` when our answer to the row is TIRx's (or both refuse); else a description."""
    try:
        got = _ours(row)
    except LayoutError as e:
        return "agree" if "error" in row else f"we refuse ({type(e).__name__}: {e}); TIRx answers {row['result']}"
    if "error" in row:
        return f"TIRx refuses ({row['error']}); we answer {_described(got)}"
    if row["op"] in _SORTS_REPLICAS:
        got = _in_tirx_replica_order(got, row["result"])
    mine = _described(got)
    return "agree" if mine == row["result"] else f"we answer {mine}; TIRx answers {row['result']}"


def test_ops_corpus_every_row_agrees():
    counts: collections.Counter[tuple[str, bool]] = collections.Counter()
    bad = []
    for row in ROWS:
        verdict = check_row(row)
        op = row["op"] + (" (compose)" if "swizzle" in row else "")
        counts[op, "error" in row] += 1
        if verdict != "agree" and len(bad) < 5:
            bad.append((row["op"], row["spec"], row.get("swizzle"), row["args"], verdict))
    assert not bad, bad
    assert len(ROWS) == 7280
    # every operation is exercised both ways where TIRx refuses some calls
    for op in ("tile", "tile_to", "group", "pack", "permute_dims", "permute_by_groups", "canonicalize", "get_scope",
               "check_well_formed", "is_trivial", "pack (compose)", "unpack (compose)", "span (compose)", "size (compose)"):
        assert counts[op, False] > 0 and counts[op, True] > 0, op
    for op in ("unpack", "is_contiguous", "size", "span", "apply", "apply_flat", "apply_iters", "apply_flat (compose)", "apply (compose)", "tile (compose)", "tile_to (compose)",
               "pack_unpacked"):
        assert counts[op, False] > 0, op


def test_ops_corpus_answers_round_trip_as_text():
    """Every layout we answer prints as text that parses back to it (TileLayout and ComposeLayout)."""
    n = 0
    for row in ROWS:
        if "error" in row or row["op"] == "apply":
            continue
        got = _ours(row)
        for x in got if isinstance(got, tuple) else (got,):
            if isinstance(x, TileLayout):
                assert parse_tile(str(x)) == x
                n += 1
            elif isinstance(x, ComposeLayout):
                assert ComposeLayout.parse(str(x)) == x
                n += 1
    assert n > 2500


def test_ops_corpus_contiguous_rows_are_the_identity_plus_an_offset():
    """TIRx's ``is_contiguous`` answer, read against the layout's own values."""
    seen = {True: 0, False: 0}
    for row in ROWS:
        if row["op"] != "is_contiguous":
            continue
        L = _tile(row)
        if row["result"]:
            base = L.offset.get("m", 0)
            assert all(L.apply(f) == {"m": f + base} for f in range(L.size())), row["spec"]
        seen[row["result"]] += 1
    assert seen[True] > 20 and seen[False] > 100


# ------------------------------------------------------------------ worked refusals


def test_refusals_name_what_where_and_expected():
    L = TileLayout.parse("S[(4,6):(6,1)]")
    with pytest.raises(SizeError, match=r"innermost shard iter 6:1 .* not packable into 4 elements; expected stride 1"):
        L.pack(4)
    with pytest.raises(SizeError, match=r"stride on 'm' that is not a multiple of 4"):
        TileLayout.parse("S[(4,8):(6,1)]").pack(4)
    with pytest.raises(SizeError, match=r"offset 2 on 'm' .* not a multiple of 4"):
        TileLayout.parse("S[(4,8):(8,1)] + 2").pack(4)
    with pytest.raises(DimensionError, match=r"perm \[0\] has 1 entries but .* has 2 shard iters"):
        L.permute_dims([0])
    with pytest.raises(DimensionError, match=r"entry 0 = 2 is out of range for 2 shard iters"):
        L.permute_dims([2, 0])
    with pytest.raises(DimensionError, match=r"not a permutation of the 2 groups"):
        L.permute_by_groups([0, 1, 2], [0, 0])
    with pytest.raises(DimensionError, match=r"outer_shape \[2\] has 1 dims but inner_shape \[4, 6\] has 2"):
        L.tile(TileLayout.parse("S[2:1]"), [2], [4, 6])
    with pytest.raises(SizeError, match=r"cannot be grouped by shape \[3, 8\]: dim 0 \(size 3\) ends inside shard iter 1"):
        TileLayout.parse("S[(4,6):(1,4)]").tile(TileLayout.parse("S[2:1]"), [2, 1], [3, 8])
    with pytest.raises(SizeError, match=r"expected at least one whole tile"):
        L.tile_to([3, 6], [4, 6])
    with pytest.raises(ScopeError, match=r"conflicting scopes"):
        TileLayout.parse("S[(4,4):(1@cbx,1@bx)]").get_scope()
    with pytest.raises(ScopeError, match=r"axis 'foo' is neither a thread axis"):
        TileLayout.parse("S[(4,4):(1@foo,1)]").canonicalize()
    with pytest.raises(SizeError, match=r"expected a power of two"):
        ComposeLayout(1, 2, 3, TileLayout.parse("S[8:1]")).unpack(3)
    with pytest.raises(SizeError, match=r"per_element = 1 is less than log2\(4\) = 2"):
        ComposeLayout(1, 2, 3, TileLayout.parse("S[8:1]")).pack(4)


# ------------------------------------------------------------------ laws (hypothesis)

_AXES = ["m", "TCol", "TLane", "laneid", "warpid"]


@st.composite
def layouts(draw: Any, replicas: bool = True) -> TileLayout:
    """TileLayouts whose thread axes chain (laneid within warpid), any strides, replicas, offsets."""
    shard = draw(st.lists(st.tuples(st.integers(1, 6), st.integers(0, 40), st.sampled_from(_AXES)), min_size=1, max_size=4))
    rep = draw(st.lists(st.tuples(st.integers(1, 3), st.integers(0, 40), st.sampled_from(_AXES)), max_size=2)) if replicas else []
    off = draw(st.dictionaries(st.sampled_from(_AXES), st.integers(0, 70), max_size=2)) if replicas else {}
    return TileLayout(shard, rep, off)


def _runs(draw: Any, L: TileLayout) -> list[int]:
    """A shape that groups ``L``: products of runs of its shard extents."""
    n = len(L.shard)
    cuts = [0] + sorted(draw(st.sets(st.integers(1, n - 1), max_size=n - 1))) + [n] if n > 1 else [0, n]
    return [math.prod(i.extent for i in L.shard[a:b]) for a, b in zip(cuts, cuts[1:])]


def _values(L: TileLayout, f: int) -> dict[str, int]:
    """The nonzero values at flat index ``f`` (an axis ``apply`` leaves out is 0)."""
    return {a: v for a, v in sorted(L.apply(f).items()) if v}


def _places(L: TileLayout, f: int) -> list[list[tuple[str, int]]]:
    return sorted(sorted((a, v) for a, v in p.items() if v) for p in L.places(f))


@given(layouts(), st.integers(1, 4), st.sampled_from(_AXES))
def test_pack_undoes_unpack(L, n, axis):
    U = L.unpack(n, axis)
    assert U.size() == L.size() * n
    # pack(unpack(L, n), n) is L with an extent-1 innermost iter on the axis (as TIRx, which keeps it)
    assert U.pack(n, axis) == TileLayout(L.shard + ((1, 1, axis),), L.replica, L.offset)
    assert parse_tile(str(U)) == U
    # each element of L is n elements of U, consecutive on the axis
    for f in range(0, L.size(), max(1, L.size() // 5)):
        for j in range(n):
            want = {a: v * n if a == axis else v for a, v in _values(L, f).items()}
            want[axis] = want.get(axis, 0) + j
            assert _values(U, f * n + j) == {a: v for a, v in sorted(want.items()) if v}


@given(layouts(), st.sampled_from([1, 2, 4]))
def test_unpack_undoes_pack_pointwise(L, n):
    try:
        P = L.pack(n)
    except SizeError:
        return
    U = P.unpack(n)
    assert U.size() == L.size()
    assert all(_values(U, f) == _values(L, f) for f in range(L.size()))


@given(st.data())
def test_permute_dims_by_a_permutation_and_its_inverse(data):
    L = data.draw(layouts())
    perm = data.draw(st.permutations(range(len(L.shard))))
    inv = [0] * len(perm)
    for k, p in enumerate(perm):
        inv[p] = k
    P = L.permute_dims(perm)
    assert P.permute_dims(inv) == L
    assert [P.shard[k] for k in inv] == list(L.shard)
    assert P.size() == L.size() and P.span() == L.span()


@given(st.data())
def test_permute_by_groups_is_permute_dims_of_the_runs(data):
    L = data.draw(layouts())
    shape = _runs(data.draw, L)
    G, seps = L.group(shape)
    perm = data.draw(st.permutations(range(len(shape))))
    P = G.permute_by_groups(seps, perm)
    assert [list(P.shard[k] for k in range(len(P.shard)))] == [[i for g in perm for i in G.shard[seps[g]: seps[g + 1]]]]


@given(layouts())
def test_canonicalize_keeps_every_value_and_place(L):
    C = L.canonicalize()
    assert C.size() == L.size() and C.canonicalize() == C
    assert parse_tile(str(C)) == C
    for f in range(0, L.size(), max(1, L.size() // 7)):
        assert _values(C, f) == _values(L, f)
        assert _places(C, f) == _places(L, f)


@given(st.data())
def test_group_keeps_every_value(data):
    L = data.draw(layouts())
    shape = _runs(data.draw, L)
    G, seps = L.group(shape)
    assert seps[0] == 0 and seps[-1] == len(G.shard) and len(seps) == len(shape) + 1
    assert [math.prod(i.extent for i in G.shard[a:b]) for a, b in zip(seps, seps[1:])] == shape
    assert all(_values(G, f) == _values(L, f) for f in range(0, L.size(), max(1, L.size() // 7)))


def _tiling(inner: TileLayout, outer: TileLayout, oshape: list[int], ishape: list[int], x: list[int]) -> dict[str, int]:
    """The tiling definition at coordinate ``x`` of the tiled shape: inner at ``x mod ishape`` plus
    outer at ``x // ishape``, outer's strides scaled by inner's span on each axis inner's shard
    (canonically) uses."""
    xi = [c % s for c, s in zip(x, ishape)]
    xo = [c // s for c, s in zip(x, ishape)]
    fi = sum(c * math.prod(ishape[k + 1:]) for k, c in enumerate(xi))
    fo = sum(c * math.prod(oshape[k + 1:]) for k, c in enumerate(xo))
    ci = inner.canonicalize()
    scale = {i.axis: ci.span(i.axis) for i in ci.shard}
    out = dict(_values(inner, fi))
    for a, v in _values(outer, fo).items():
        out[a] = out.get(a, 0) + (v - outer.offset.get(a, 0)) * scale.get(a, 1) + outer.offset.get(a, 0)
    return {a: v for a, v in sorted(out.items()) if v}


def _coords(shape: list[int], n: int) -> list[list[int]]:
    size = math.prod(shape)
    return [[(f // math.prod(shape[k + 1:])) % shape[k] for k in range(len(shape))] for f in range(0, size, max(1, size // n))]


@given(st.data())
def test_tile_agrees_pointwise_with_the_tiling_definition(data):
    inner = data.draw(layouts())
    outer = data.draw(layouts(replicas=False))
    ishape = _runs(data.draw, inner)
    oshape = _runs(data.draw, outer)
    assume(len(ishape) == len(oshape))
    R = inner.tile(outer, oshape, ishape)
    full = [o * i for o, i in zip(oshape, ishape)]
    assert R.size() == math.prod(full)
    for x in _coords(full, 9):
        f = sum(c * math.prod(full[k + 1:]) for k, c in enumerate(x))
        assert _values(R, f) == _tiling(inner, outer, oshape, ishape, x), (str(R), x)


@given(st.data())
def test_tile_to_agrees_pointwise_with_the_tiling_definition(data):
    L = data.draw(layouts())
    cur = _runs(data.draw, L)
    mult = data.draw(st.lists(st.integers(1, 3), min_size=len(cur), max_size=len(cur)))
    extra = data.draw(st.lists(st.integers(0, 1), min_size=len(cur), max_size=len(cur)))
    to = [c * m + e * (c > 1) for c, m, e in zip(cur, mult, extra)]  # not a multiple: whole tiles only
    R = L.tile_to(to, cur)
    tiles = [t // c for t, c in zip(to, cur)]
    full = [t * c for t, c in zip(tiles, cur)]
    outer = TileLayout([(n, math.prod(tiles[k + 1:]), "m") for k, n in enumerate(tiles)])
    for x in _coords(full, 9):
        f = sum(c * math.prod(full[k + 1:]) for k, c in enumerate(x))
        assert _values(R, f) == _tiling(L, outer, tiles, cur, x), (str(R), x)


@given(layouts())
def test_scope_queries_agree(L):
    try:
        scope = L.get_scope()
    except ScopeError:
        with pytest.raises(ScopeError):
            L.check_well_formed()
        return
    L.check_well_formed()
    threads = [i.axis for i in L.shard if i.axis in ("laneid", "warpid")]
    assert scope == (None if not threads else ("cuda.thread" if "laneid" in L.axes or "laneid" in L.offset else "cuda.warp",
                                               "cuda.warp" if set(L.axes + tuple(L.offset)) & {"laneid", "warpid"} == {"laneid"} else "cuda.cta"))


@given(layouts())
def test_contiguous_means_the_identity_plus_an_offset(L):
    if L.is_contiguous():
        base = L.offset.get("m", 0)
        assert all(L.apply(f) == {"m": f + base} for f in range(L.size()))
    if L.is_trivial():
        C = L.canonicalize()
        assert not C.replica and not C.offset and len(C.shard) == 1 and C.shard[0].stride == 1


# ------------------------------------------------------------------ live differential (optional)


@pytest.mark.reference
def test_live_differential_against_tvm_tirx():
    """Fresh random layouts and calls, run through TIRx and through us.  The seed is fixed (the
    test repeats); ``TIRX_DIFF_SEED=<n> TIRX_DIFF_LAYOUTS=<count>`` explores others."""
    t = pytest.importorskip("tvm_tirx.tirx.layout")
    gen = oracle_generator("tirx/generate_ops.py")
    seed = int(os.environ.get("TIRX_DIFF_SEED", "20261124"))
    count = int(os.environ.get("TIRX_DIFF_LAYOUTS", "120"))
    rng = random.Random(seed)
    bad, n = [], 0
    for _ in range(count):
        shard, replica, offset = gen.random_layout(rng, memory_only=rng.random() < 0.2)
        ref = gen.tirx_layout(t, shard, replica, offset)
        for op, args in gen.tile_ops(rng, shard, replica, offset):
            row = {"op": op, **gen.layout_row(shard, replica, offset), "args": args, **gen.run_tile_op(t, ref, op, args)}
            verdict = check_row(row)
            n += 1
            if verdict != "agree":
                bad.append((op, row["spec"], args, verdict))
    # ComposeLayouts (with swizzle_inner both ways) through apply and the element-size ops
    for _ in range(count // 3):
        k = rng.randint(1, 3)
        shard = gen.compact_iters([rng.choice([2, 4, 8]) for _ in range(k)], ["m"] * k, rng)
        sl = rng.randint(0, 3)
        sw = [rng.randint(0, 3), sl, rng.randint(sl, sl + 2), rng.random() < 0.5]
        offset = {"m": rng.choice([0, 8, 64])}
        C = t.ComposeLayout(*sw[:3], gen.tirx_layout(t, shard, [], offset), sw[3])
        size = math.prod(e for e, _, _ in shard)
        base = {**gen.layout_row(shard, [], offset), "swizzle": sw}
        for op, args in (("apply", {"shape": gen.factorize(size, rng.randint(1, 2), rng), "points": list(range(size))}),
                         ("unpack", {"num": rng.choice([1, 2, 4])}), ("pack", {"num": rng.choice([1, 2, 4])})):
            if op == "apply":
                res = gen.call(t, lambda args=args: gen.apply_points(t, C, args["shape"], args["points"]), raw=True)
            else:
                res = gen.call(t, lambda op=op, args=args: getattr(C, op)(args["num"]))
            row = {"op": op, **base, "args": args, **res}
            verdict = check_row(row)
            n += 1
            if verdict != "agree":
                bad.append((op, row["spec"], sw, args, verdict))
    assert not bad, (len(bad), n, bad[:5])
