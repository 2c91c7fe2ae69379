"""locality.stays_within against its definition, enumerated: every element a unit (fixed values of
the non-local in-dims) holds in dst it already holds in src."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from linlayout import LinearLayout
from linlayout.locality import THREAD_DIMS, conversion_mechanism, stays_within

DIMS = ("register",) + THREAD_DIMS


@st.composite
def layout(draw, dim, sizes=None):
    sizes = sizes or {d: draw(st.integers(0, 3)) for d in DIMS}
    vec = st.integers(0, (1 << dim) - 1)
    flat = {d: [draw(vec) for _ in range(sizes[d])] for d in DIMS}
    return LinearLayout.from_flat(flat, [("dim0", 1 << (dim // 2)), ("dim1", 1 << (dim - dim // 2))])


def by_definition(src: LinearLayout, dst: LinearLayout, local) -> bool:
    if any(d not in local and src.in_dim_size(d) != dst.in_dim_size(d) for d in DIMS):
        return False
    others = [d for d in DIMS if d not in local]

    def held(L, unit):
        out = set()
        ranges = [range(L.in_dim_size(d)) for d in local]
        for xs in itertools.product(*ranges):
            point = dict(zip(local, xs), **dict(zip(others, unit)))
            out.add(tuple(sorted(L.apply(point).items())))  # an element by its coordinates' names
        return out

    for unit in itertools.product(*[range(src.in_dim_size(d)) for d in others]):
        if not held(dst, unit) <= held(src, unit):
            return False
    return True


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_stays_within_is_its_definition(data):
    dim = data.draw(st.integers(1, 5))
    src = data.draw(layout(dim))
    same = data.draw(st.booleans())
    dst = data.draw(layout(dim, {d: src.in_dim_size_log2(d) for d in DIMS} if same else None))
    k = data.draw(st.integers(0, 4))
    local = DIMS[:k]
    assert stays_within(src, dst, local) == by_definition(src, dst, local)
    # the order of dst's out-dims changes how coordinates are packed, not which elements it holds
    flipped = dst.transpose_outs(["dim1", "dim0"])
    assert stays_within(src, flipped, local) == by_definition(src, flipped, local) == by_definition(src, dst, local)


def test_stays_within_reads_out_dims_by_name():
    """Two layouts whose flat bases are equal numbers but whose out-dims are in other orders hold
    different elements: comparing the numbers (the out-dims compared as dicts, order-blind) said
    every thread already holds its elements."""
    hw = {"warp": [], "block": []}
    src = LinearLayout({"register": [[1, 0]], "lane": [[0, 1]], **hw}, {"dim0": 2, "dim1": 2})
    dst = LinearLayout({"register": [[1, 0]], "lane": [[0, 1]], **hw}, {"dim1": 2, "dim0": 2})
    assert src.flat_bases("register") == dst.flat_bases("register")  # the same numbers...
    assert not stays_within(src, dst, ("register",))  # ...but thread 0 holds (0, 0), (1, 0) in src, (0, 0), (0, 1) in dst
    assert not by_definition(src, dst, ("register",))
    assert stays_within(src, dst, ("register", "lane")) and by_definition(src, dst, ("register", "lane"))
    # a layout and its out-dims reordered hold the same elements everywhere
    same = src.transpose_outs(["dim1", "dim0"])
    assert stays_within(src, same, ()) and stays_within(same, src, ("register",))
    # other tensors: other names or sizes
    assert not stays_within(src, LinearLayout({"register": [[1, 0]], "lane": [[0, 1]]}, {"dim0": 2, "x": 2}), ("register", "lane"))
    assert not stays_within(src, LinearLayout({"register": [[1, 0]], "lane": [[0, 1]]}, {"dim0": 2, "dim1": 4},
                                              require_surjective=False), ("register", "lane"))


def test_mechanism_ladder():
    a = LinearLayout({"register": [[1]], "lane": [[2], [4]], "warp": [[8]]}, {"dim0": 16})
    b = LinearLayout({"register": [[1]], "lane": [[4], [2]], "warp": [[8]]}, {"dim0": 16})
    c = LinearLayout({"register": [[1]], "lane": [[2], [8]], "warp": [[4]]}, {"dim0": 16})
    r = LinearLayout({"register": [[1]], "lane": [[2], [4]], "warp": [[8]]}, {"dim0": 16})
    assert [conversion_mechanism(a, x) for x in (r, b, c)] == ["noop", "warp_shuffle", "shared_memory"]
    # a layout and its out-dims listed in another order: the same layout (as plan_conversion says)
    two = LinearLayout({"register": [[1, 0]], "lane": [[0, 1], [2, 0]]}, {"dim0": 4, "dim1": 2})
    assert conversion_mechanism(two, two.transpose_outs(["dim1", "dim0"])) == "noop"
    assert not stays_within(a, LinearLayout({"register": [[1]], "lane": [[2], [4]]}, {"dim0": 16}, require_surjective=False),
                            ("register",))
