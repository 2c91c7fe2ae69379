"""linlayout.contract: the one coercion reads a shape argument once, the same way everywhere."""

from __future__ import annotations

import numpy as np
import pytest

from linlayout import LinearLayout, MixedRadixLayout
from linlayout.contract import as_layout, as_linear, check_shape_matches
from linlayout.errors import SizeError

L = LinearLayout.identity_1d(8, "lane", "dim0")
G = MixedRadixLayout({"lane": [(6, 1, "dim0")]}, out_dims={"dim0": 6})


@pytest.mark.parametrize("shape", [[8], (8,), [np.int64(8)], np.zeros((8, 2)).shape[:1]])
def test_a_shape_is_any_sequence_of_integers(shape):
    assert as_linear(L, shape) is L and as_layout(L, shape) is L
    check_shape_matches(L, shape)


@pytest.mark.parametrize("shape", [[8.0], [True], "8", 8, [8, None]])
@pytest.mark.parametrize("fn", [as_linear, as_layout, check_shape_matches])
def test_a_shape_that_is_no_list_of_integers_is_refused_alike(fn, shape):
    """Before, check_shape_matches read [8.0] as [8] while as_linear refused it."""
    with pytest.raises(SizeError, match=r"^layout: a shape is a list of integers, got"):
        fn(L, shape)


def test_a_shape_that_disagrees_names_both():
    for fn, x in ((as_linear, L), (as_layout, L), (as_layout, G), (check_shape_matches, G)):
        with pytest.raises(SizeError, match=r"covers a tensor of shape \[\d\], not the requested shape \[4\]"):
            fn(x, [4])
    assert as_layout(G, [6]) is G
