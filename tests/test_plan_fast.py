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


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_conversion_map_is_invert_and_compose(data):
    """The plan's conversion map (read from the source's remembered span when the source is a
    bijection) is dst.invert_and_compose(src), bijective source or not."""
    from linlayout.plan import _conversion_map

    k = {d: data.draw(st.integers(0, 3)) for d in HARDWARE_DIMS}
    dim = sum(k.values())
    outs = [("dim0", 1 << (dim // 2)), ("dim1", 1 << (dim - dim // 2))]

    def layout(bijective: bool) -> LinearLayout:
        vs = data.draw(st.permutations([1 << i for i in range(dim)]))
        flat, at = {}, 0
        for d in HARDWARE_DIMS:
            flat[d] = list(vs[at:at + k[d]])
            at += k[d]
        if not bijective:  # a broadcast register: no longer a bijection
            flat["register"].insert(data.draw(st.integers(0, len(flat["register"]))), 0)
        return LinearLayout.from_flat(flat, outs)

    a = layout(data.draw(st.booleans()))
    b = layout(True)
    assert _conversion_map(a, b) == b.invert_and_compose(a)
