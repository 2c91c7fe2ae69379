"""Every failure of the CuTe algebra on bad or degenerate input is a LayoutError, never a foreign
exception (ZeroDivisionError, TypeError, ...): extent-0 modes, negative strides, swizzled
composed layouts, wrong argument types, all through every operation."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from converters.cute import algebra as A
from converters.cute import ComposedLayout, Layout, Swizzle
from linlayout.errors import LayoutError

UNARY = ["coalesce", "filter", "filter_zeros", "right_inverse", "left_inverse", "complement"]
BINARY = [
    "composition", "complement", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
    "logical_product", "zipped_product", "tiled_product", "flat_product", "blocked_product",
    "raked_product", "tile_to_shape",
]


@st.composite
def layouts(draw):
    r = draw(st.integers(1, 3))
    shape = tuple(draw(st.sampled_from([0, 1, 2, 3, 4, 8])) for _ in range(r))
    stride = tuple(draw(st.sampled_from([-3, -1, 0, 1, 2, 4, 7])) for _ in range(r))
    L = Layout(shape, stride) if r > 1 or draw(st.booleans()) else Layout(shape[0], stride[0])
    if draw(st.integers(0, 4)) == 0:
        sw = Swizzle(draw(st.sampled_from([1, 2])), draw(st.sampled_from([0, 2])), draw(st.sampled_from([2, 3])))
        L = ComposedLayout(sw, draw(st.sampled_from([0, 3])), L)
    return L


ARGS = st.one_of(
    layouts(), st.integers(-2, 4), st.none(), st.tuples(layouts(), st.none()),
    st.just(Swizzle(1, 0, 1)), st.just("junk"), st.tuples(st.sampled_from([2, 4]), st.sampled_from([1, 2])),
)


def _exercise(r):
    if hasattr(r, "table"):
        r.table()
    if isinstance(r, Layout):
        r.idx2crd(3)
        if 0 < r.size() < 1000:
            r(r.size() - 1)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(UNARY), layouts())
def test_unary_ops_raise_only_layout_errors(op, L):
    try:
        _exercise(getattr(A, op)(L))
    except LayoutError:
        pass


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(BINARY), st.one_of(layouts(), ARGS), ARGS)
def test_binary_ops_raise_only_layout_errors(op, a, b):
    try:
        _exercise(getattr(A, op)(a, b))
    except LayoutError:
        pass


def test_named_zero_extent_cases():
    with pytest.raises(LayoutError, match="empty"):
        A.tile_to_shape(Layout(0, 1), 8)
    with pytest.raises(LayoutError, match="extent-0"):
        Layout((0, 4)).idx2crd(5)
    with pytest.raises(LayoutError, match="extent-0"):
        Layout((0, 4))(5)
    assert Layout((4, 0)).idx2crd(5) == (1, 1)  # only the last mode may be empty: it is not divided
    with pytest.raises(LayoutError, match="not congruent"):
        Layout((2, 3)).idx2crd((1, 1, 1))
