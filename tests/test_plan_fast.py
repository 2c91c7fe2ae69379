"""The planner's internal fast paths equal the general functions they replace (property-based)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from linlayout import LinearLayout
from linlayout.plan import HARDWARE_DIMS, _trivial_over


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_trivial_over_is_is_trivial_over(data):
    """On conversion-map-shaped layouts (hardware dims in and out, sizes may differ), often with
    identity blocks, _trivial_over(d) == is_trivial_over([d])."""
    in_k = {d: data.draw(st.integers(0, 3)) for d in HARDWARE_DIMS}
    out_k = {d: in_k[d] if data.draw(st.booleans()) else data.draw(st.integers(0, 3)) for d in HARDWARE_DIMS}
    order = list(HARDWARE_DIMS) if data.draw(st.booleans()) else data.draw(st.permutations(HARDWARE_DIMS))
    outs = [(d, 1 << out_k[d]) for d in order]
    dim = sum(out_k.values())
    shift = {}
    at = 0
    for d in order:
        shift[d] = at
        at += out_k[d]
    flat = {}
    for d in HARDWARE_DIMS:
        if in_k[d] == out_k[d] and data.draw(st.booleans()):
            vs = [1 << (shift[d] + i) for i in range(in_k[d])]  # an identity block
            if vs and data.draw(st.booleans()):
                vs[data.draw(st.integers(0, len(vs) - 1))] ^= data.draw(st.integers(0, (1 << dim) - 1))
        else:
            vs = [data.draw(st.integers(0, (1 << dim) - 1)) for _ in range(in_k[d])]
        flat[d] = vs
    L = LinearLayout.from_flat(flat, outs)
    for d in HARDWARE_DIMS:
        assert _trivial_over(L, d) == L.is_trivial_over([d]), d
    absent = LinearLayout.from_flat({"register": flat["register"]}, outs)
    assert _trivial_over(absent, "lane") == absent.is_trivial_over(["lane"])


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_conversion_map_is_invert_and_compose(data):
    """The planner's conversion map (solved against the source's remembered column span unless
    Triton's broadcasting heuristic may apply) is dst.invert_and_compose(src): bijective sources,
    sources with broadcast registers, pairs sharing a dim's bases, pairs with no map at all."""
    import pytest

    from linlayout.errors import LayoutError
    from linlayout.plan_smem import conversion_map

    k = {d: data.draw(st.integers(0, 3)) for d in HARDWARE_DIMS}
    dim = sum(k.values())
    outs = [("dim0", 1 << (dim // 2)), ("dim1", 1 << (dim - dim // 2))]

    def layout(bijective: bool) -> dict:
        vs = data.draw(st.permutations([1 << i for i in range(dim)]))
        flat, at = {}, 0
        for d in HARDWARE_DIMS:
            flat[d] = list(vs[at:at + k[d]])
            at += k[d]
        if not bijective:  # a broadcast register: no longer a bijection
            flat["register"].insert(data.draw(st.integers(0, len(flat["register"]))), 0)
        return flat

    fa = layout(data.draw(st.booleans()))
    fb = layout(data.draw(st.booleans()))
    shared = data.draw(st.sampled_from(("none",) + HARDWARE_DIMS))
    if shared != "none" and len(fa[shared]) == len(fb[shared]):
        fb[shared] = list(fa[shared])  # the same bases: the identity heuristic may keep the dim
        for d in HARDWARE_DIMS:  # keep b a map onto the tensor when it can be
            if d != shared:
                fb[d] = [v for v in fb[d] if v not in fa[shared]]
    a = LinearLayout.from_flat(fa, outs)
    b = LinearLayout.from_flat(fb, outs)
    try:
        expected = b.invert_and_compose(a)
    except LayoutError as e:
        with pytest.raises(type(e)):
            conversion_map(a, b)
        return
    assert conversion_map(a, b) == expected


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_conversion_map_is_invert_and_compose_on_any_bases(data):
    """As above on arbitrary bases (not only permutations of unit vectors): dependent and zero
    columns, sources that do not reach every element, dims shared by both layouts whose bits
    other dims also touch (the heuristic must refuse them) or do not, dims of one layout only,
    out-dims of other sizes or in another order (left to the general method)."""
    import pytest

    from linlayout.errors import LayoutError
    from linlayout.plan_smem import conversion_map

    dim = data.draw(st.integers(0, 6))
    split = data.draw(st.integers(0, dim))
    outs = [("dim0", 1 << split), ("dim1", 1 << (dim - split))]
    vec = st.integers(0, (1 << dim) - 1)
    unit = st.sampled_from([1 << i for i in range(dim)] or [0])

    def layout() -> dict:
        dims = [d for d in HARDWARE_DIMS if data.draw(st.integers(0, 5))]  # a dim may be absent
        return {d: data.draw(st.lists(st.one_of(unit, vec), max_size=4)) for d in dims}

    fa, fb = layout(), layout()
    for d in set(fa) & set(fb):
        if data.draw(st.booleans()):
            fb[d] = list(fa[d])  # the same bases: a candidate of the identity heuristic
            if data.draw(st.booleans()):  # ... and no other dim touches its bits
                mask = 0
                for v in fa[d]:
                    mask |= v
                for f in (fa, fb):
                    for m in f:
                        if m != d:
                            f[m] = [v & ~mask for v in f[m]]
    a = LinearLayout.from_flat(fa, outs)
    b_outs = outs
    how = data.draw(st.sampled_from(["same", "same", "same", "reordered", "larger"]))
    if how == "reordered" and dim:
        b_outs = outs[::-1]
        fb = {d: [((v >> split) | (v << (dim - split))) & ((1 << dim) - 1) for v in f] for d, f in fb.items()}
    elif how == "larger":
        b_outs = [("dim0", 1 << split), ("dim1", 1 << (dim - split + 1))]
    b = LinearLayout.from_flat(fb, b_outs) if how != "larger" else LinearLayout.from_flat(fb, outs)
    if how == "larger":  # b smaller than a: invert_and_compose reads b inside a's larger space
        a = LinearLayout.from_flat(fa, b_outs)
    try:
        expected = b.invert_and_compose(a)
    except LayoutError as e:
        with pytest.raises(type(e), match="^" + __import__("re").escape(str(e)) + "$"):
            conversion_map(a, b)
        return
    got = conversion_map(a, b)
    assert got == expected and got.in_dim_names == expected.in_dim_names and got.out_dims == expected.out_dims


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_without_trivial_is_sublayout(data):
    """Removing the dims a conversion map is trivial over (slowest first, as the planner does)
    from flat bases equals the general sublayout, out-dims in hardware order or shuffled."""
    from linlayout.plan import _trivial_over, _without_trivial

    k = {d: data.draw(st.integers(0, 3)) for d in HARDWARE_DIMS}
    order = list(HARDWARE_DIMS) if data.draw(st.booleans()) else data.draw(st.permutations(HARDWARE_DIMS))
    outs = [(d, 1 << k[d]) for d in order]
    shift, at = {}, 0
    for d in order:
        shift[d] = at
        at += k[d]
    dim = at
    trivial_n = data.draw(st.integers(0, 4))  # block, warp, ... made trivial
    slow = ("block", "warp", "lane", "register")[:trivial_n]
    mask = sum(((1 << k[d]) - 1) << shift[d] for d in slow)
    flat = {}
    for d in HARDWARE_DIMS:
        if d in slow:
            flat[d] = [1 << (shift[d] + i) for i in range(k[d])]
        else:
            flat[d] = [data.draw(st.integers(0, (1 << dim) - 1)) & ~mask for _ in range(k[d])]
    L = LinearLayout.from_flat(flat, outs)
    removed = [d for d in slow if _trivial_over(L, d)]
    if not removed:
        return
    want = L.sublayout([n for n in L.in_dim_names if n not in removed], [n for n in L.out_dim_names if n not in removed])
    got = _without_trivial(L, removed)
    assert got == want and list(got.out_dims.items()) == list(want.out_dims.items()) and got.in_dim_names == want.in_dim_names


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_trivial_prefix_is_is_trivial_over_slowest_first(data):
    """The dims _minimal removes (trivial over each, slowest first, up to the first that is not)
    are those is_trivial_over names, on maps with identity blocks."""
    from linlayout.plan import _SLOWEST_FIRST, _trivial_prefix

    k = {d: data.draw(st.integers(0, 3)) for d in HARDWARE_DIMS}
    order = list(HARDWARE_DIMS) if data.draw(st.booleans()) else data.draw(st.permutations(HARDWARE_DIMS))
    present = [d for d in order if data.draw(st.integers(0, 5))]  # an out-dim may be absent
    outs = [(d, 1 << k[d]) for d in present]
    shift, at = {}, 0
    for d in present:
        shift[d] = at
        at += k[d]
    flat = {}
    for d in HARDWARE_DIMS:
        if d in present and data.draw(st.booleans()):
            vs = [1 << (shift[d] + i) for i in range(k[d])]
            if vs and not data.draw(st.integers(0, 3)):
                vs[data.draw(st.integers(0, len(vs) - 1))] ^= data.draw(st.integers(0, (1 << at) - 1))
        else:
            vs = [data.draw(st.integers(0, (1 << at) - 1)) for _ in range(data.draw(st.integers(0, 3)))]
        if data.draw(st.integers(0, 5)):  # an in-dim may be absent
            flat[d] = vs
    L = LinearLayout.from_flat(flat, outs)
    want = []
    for d in _SLOWEST_FIRST:
        if not L.is_trivial_over([d]):
            break
        want.append(d)
    assert _trivial_prefix(L, _SLOWEST_FIRST) == want


def _hardware_layout(data, sizes, outs, bits):
    """A layout with the in-dims of ``sizes`` (name -> bases): often a permutation of the unit
    vectors (surjective where there are enough bases), sometimes zero or repeated bases."""
    units = data.draw(st.permutations([1 << i for i in range(bits)]))
    flat, at = {}, 0
    for d, n in sizes.items():
        flat[d] = [units[at + i] if at + i < len(units) and data.draw(st.integers(0, 7)) else
                   data.draw(st.sampled_from(units + [0])) for i in range(n)]
        at += n
    return LinearLayout.from_flat(flat, outs)


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_pair_is_the_checks_one_by_one(data):
    """_pair's answer from remembered per-layout facts is that of the checks one by one: the same
    normalized layouts (dst in src's order of out-dims), or the same error word for word
    (different hardware, other tensors, out-dims in another order, not surjective, not a
    distributed layout)."""
    import pytest

    from linlayout.errors import LayoutError
    from linlayout.plan import _checked_pair, _normalize, _pair, clear_caches

    if data.draw(st.booleans()):
        clear_caches()
    bits = data.draw(st.integers(0, 5))
    split = data.draw(st.integers(0, bits))
    outs = [("dim0", 1 << split), ("dim1", 1 << (bits - split))]
    names = list(HARDWARE_DIMS) + (["offset"] if not data.draw(st.integers(0, 30)) else [])

    shared = {d: data.draw(st.integers(0, 2)) for d in names}
    shared["register"] = bits  # enough bases to reach every element

    def draw_layout():
        dims = [d for d in names if d == "register" or data.draw(st.integers(0, 4))]  # a size-1 dim may be left out
        if data.draw(st.booleans()):
            dims = data.draw(st.permutations(dims))
        sizes = {d: shared[d] if data.draw(st.integers(0, 6)) else data.draw(st.integers(0, 2)) for d in dims}
        sizes = {d: n for d, n in sizes.items() if n or d in ("register", "offset") or data.draw(st.booleans())}
        o = outs if data.draw(st.integers(0, 4)) else data.draw(st.sampled_from([outs[::-1], [("dim0", 1 << bits)], [("x", 1 << split), ("dim1", 1 << (bits - split))]]))
        return _hardware_layout(data, sizes, o, sum(s.bit_length() - 1 for _, s in o))

    src = draw_layout()
    dst = src if not data.draw(st.integers(0, 5)) else draw_layout()
    try:
        want = _checked_pair(_normalize(src, "src"), _normalize(dst, "dst"))
    except LayoutError as e:
        with pytest.raises(type(e), match="^" + __import__("re").escape(str(e)) + "$"):
            _pair(src, dst, None)
        return
    for _ in range(2):  # cold, then from the remembered facts
        got = _pair(src, dst, None)
        assert got == want
        assert [(L.in_dim_names, list(L.out_dims.items())) for L in got] == [(L.in_dim_names, list(L.out_dims.items())) for L in want]


def test_pair_refuses_layouts_past_the_limits_as_before():
    """Layouts past MAX_REGISTERS_PER_THREAD / MAX_ELEMENTS are refused with the checks' words,
    whether their facts are remembered or not (surjectivity is not asked of them first)."""
    import pytest

    from linlayout.errors import SizeError
    from linlayout.plan import MAX_ELEMENTS, MAX_REGISTERS_PER_THREAD, _pair, clear_caches

    regs = MAX_REGISTERS_PER_THREAD.bit_length()  # one bit past the limit
    many = LinearLayout.from_flat({"register": [1 << i for i in range(regs)]}, [("dim0", 1 << regs)])
    bits = MAX_ELEMENTS.bit_length()
    huge = LinearLayout.from_flat({"register": [1 << i for i in range(8)], "lane": [1 << i for i in range(8, bits)]},
                                  [("dim0", 1 << bits)])
    for L, words in ((many, "registers per thread; plan_conversion accepts at most"),
                     (huge, f"is a tensor of 2**{bits} elements; plan_conversion accepts at most")):
        clear_caches()
        for _ in range(2):
            with pytest.raises(SizeError, match="^src .*" + words.replace("*", r"\*")):
                _pair(L, L, None)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_minimal_conversion_does_not_depend_on_the_order_of_out_dims(data):
    """minimal_conversion of dst with its out-dims reordered is the same map (the order packs an
    element's coordinates; it does not move elements).  Reading reordered out-dims as if in
    src's order once made it fail with a NotSurjectiveError."""
    from linlayout.errors import LayoutError
    from linlayout.plan import minimal_conversion

    bits = data.draw(st.integers(1, 6))
    split = data.draw(st.integers(0, bits))
    outs = [("dim0", 1 << split), ("dim1", 1 << (bits - split))]
    shared = {d: data.draw(st.integers(0, 2)) for d in HARDWARE_DIMS}
    shared["register"] = bits
    a = _hardware_layout(data, shared, outs, bits)
    b = _hardware_layout(data, shared, outs, bits)
    strategy = data.draw(st.sampled_from(["best", "triton"]))
    try:
        want = minimal_conversion(a, b, strategy=strategy)
    except LayoutError:
        return
    assert minimal_conversion(a, b.transpose_outs(["dim1", "dim0"]), strategy=strategy) == want


def test_clear_caches_forgets_the_front_end_facts():
    """Every per-layout fact the front end remembers (_pair's, the conversion map's, the
    restrictions _minimal re-solves on) is forgotten by clear_caches, so cold timings are cold."""
    from linlayout.plan import _distributed, _map_side, _restricted, clear_caches, plan_conversion

    # s is broadcast over warps: each thread of d finds its data in its own registers (the map is re-solved)
    s = LinearLayout({"register": [[1], [64]], "lane": [[2], [4], [8], [16], [32]], "warp": [[0], [0]]}, {"dim0": 128})
    d = LinearLayout({"register": [[64]], "lane": [[2], [4], [8], [16], [32]], "warp": [[1], [0]]}, {"dim0": 128})
    assert plan_conversion(s, d).kind == "register"  # every thread already holds its elements, in some warp
    caches = (_distributed, _map_side, _restricted)
    assert all(f.cache_info().currsize for f in caches)
    clear_caches()
    assert not any(f.cache_info().currsize for f in caches)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_register_moves_count_every_register(data):
    """A register plan's ``register_moves`` (counted from the kernel of P + I) equals the number of
    destination registers whose source register differs, read point by point from the map."""
    from linlayout.plan import plan_conversion

    n = data.draw(st.integers(1, 6))
    perm = data.draw(st.permutations(range(n)))
    src = LinearLayout.from_flat({"register": [1 << i for i in range(n)], "lane": [1 << n, 1 << (n + 1)]}, [("dim0", 1 << (n + 2))])
    # an invertible mix of the register bits (triangular in the permuted order); the lanes stay
    mix = [(1 << perm[i]) ^ ((1 << perm[i - 1]) if i and data.draw(st.booleans()) else 0) for i in range(n)]
    dst = LinearLayout.from_flat({"register": mix, "lane": [1 << n, 1 << (n + 1)]}, [("dim0", 1 << (n + 2))])
    p = plan_conversion(src, dst)
    assert p.kind in ("noop", "register")
    if p.kind == "noop":
        return
    conv = p.conversion.sublayout(["register"], ["register"])
    moved = sum(conv.apply({"register": i})["register"] != i for i in range(1 << n))
    assert p.register_moves == moved


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_plans_built_fast_equal_plans_built_by_the_dataclass(data):
    """``Plan._new`` / ``_step`` (no per-field ``object.__setattr__``) build the value the frozen
    dataclass builds: equal, the same hash, the same ``__dict__`` once the lazy fields are read,
    and the lazy fields lazy until then."""
    import dataclasses

    from linlayout.plan import Plan, Step, _later, _step, plan_conversion

    k = {d: data.draw(st.integers(0, 2)) for d in ("register", "lane", "warp")}
    dim = sum(k.values())
    outs = [("dim0", 1 << (dim // 2)), ("dim1", 1 << (dim - dim // 2))]

    def layout() -> LinearLayout:
        vs = data.draw(st.permutations([1 << i for i in range(dim)]))
        flat, at = {}, 0
        for d in ("register", "lane", "warp"):
            flat[d] = vs[at : at + k[d]]
            at += k[d]
        return LinearLayout.from_flat(flat, outs)

    p = plan_conversion(layout(), layout(), bitwidth=data.draw(st.sampled_from([8, 16, 32])))
    slow = Plan(**{f.name: getattr(p, f.name) for f in dataclasses.fields(Plan)})
    assert slow == p and hash(slow) == hash(p)
    assert {n: v for n, v in slow.__dict__.items() if n != "_cost"} == {n: v for n, v in p.__dict__.items() if n != "_cost"}
    for s in p.steps:
        fast = _step(s.op, s.count, s.bits, s.note)
        assert fast == s == Step(s.op, s.count, s.bits, s.note) and hash(fast) == hash(s) and fast.__dict__ == s.__dict__
    calls = []
    lazy = Plan._new("noop", p.src, p.dst, p.conversion, p.bitwidth, shuffle_schedule=_later(lambda: calls.append(1) or None))
    assert calls == [] and lazy == Plan("noop", p.src, p.dst, p.conversion, p.bitwidth)
    assert lazy.shuffle_schedule is None and calls == [1] and lazy.rejected == ()


@settings(max_examples=500, deadline=None)
@given(st.data())
def test_unit_shape_agrees_with_the_general_reading_of_offset_bits(data):
    """Where _unit_shape reads a swizzle's offset bits off masks (the shape of unit vectors and
    XOR pairs), the general analysis finds the same bank bits and coordinate masks; drawn near
    that shape (units, pairs of unused units, a repeated or zero vector, a triple) and anywhere."""
    from linlayout.plan_smem import _banks_and_coords, _bits, _unit_shape

    dim = data.draw(st.integers(1, 12))
    units = [1 << i for i in range(dim)]
    pool = list(data.draw(st.permutations(units)))
    nv = data.draw(st.integers(0, min(3, dim)))
    vbasis, pool = pool[:nv], pool[nv:]
    sbasis = []
    while pool and data.draw(st.booleans()):
        kind = data.draw(st.sampled_from(["unit", "pair", "pair", "any"]))
        if kind == "pair" and len(pool) >= 2:
            lo, hi = pool.pop(), pool.pop()
            sbasis.append(lo ^ hi)
        elif kind == "any":
            sbasis.append(data.draw(st.integers(0, (1 << dim) - 1)))
        else:
            sbasis.append(pool.pop())
    if vbasis and data.draw(st.integers(0, 9)) == 0:
        vbasis[0] = data.draw(st.integers(0, (1 << dim) - 1))
    singles = [v for v in sbasis if v and not v & (v - 1)]
    reps = [v for v in singles if data.draw(st.booleans())]
    if data.draw(st.integers(0, 9)) == 0:
        reps.append(data.draw(st.integers(0, (1 << dim) - 1)))
    outs = (("dim0", 1 << dim),)
    shape = _unit_shape(vbasis, sbasis, reps)
    bbasis, coords = _banks_and_coords(list(vbasis), list(sbasis), list(reps), dim, outs)
    if shape is not None:
        lows, vmask, rmask = shape
        assert _bits(((1 << dim) - 1) & ~lows) == bbasis
        assert coords == (vmask, rmask, outs)
