"""linlayout.checks: the shared integer / power-of-two checks (one wording for every module)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from linlayout.checks import as_int, check_pow2, is_pow2, log2_exact, span_sizes
from linlayout.errors import BasisError, LayoutError, SizeError

_INT_TYPES = [int, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@given(st.integers(0, 127), st.sampled_from(_INT_TYPES))
def test_as_int_takes_every_integer_type_as_a_python_int(n, t):
    v = as_int(t(n), "size")
    assert v == n and type(v) is int


@pytest.mark.parametrize("bad, shown", [(True, "the boolean True"), (np.True_, "the boolean True"), (3.0, "float 3.0"),
                                        ("3", "str '3'"), (None, "NoneType None"), (np.float32(2), "float32 2.0")])
@pytest.mark.parametrize("error", [SizeError, LayoutError, BasisError])
def test_as_int_refuses_non_integers_with_the_callers_error(bad, shown, error):
    """Callers pick the error class (mixed_radix: LayoutError, linear: BasisError, sizes: SizeError);
    the message names the argument and what it got."""
    with pytest.raises(error) as e:
        as_int(bad, "offset on axis 'm'", error)
    assert type(e.value) is error
    assert str(e.value) == f"offset on axis 'm' must be an integer, got {shown}"


@given(st.integers(-(1 << 70), 1 << 70))
def test_pow2_checks_agree(n):
    want = n > 0 and (n & (n - 1)) == 0
    assert is_pow2(n) is want
    if want:
        assert 1 << log2_exact(n, "n") == n and check_pow2(n, "n") == n
    else:
        with pytest.raises(SizeError, match="n must be a positive power of two"):
            log2_exact(n, "n")


@given(st.integers(1, 4).flatmap(lambda r: st.tuples(st.just(r), st.lists(st.lists(st.integers(0, 1 << 20), min_size=r, max_size=r)))))
def test_span_sizes_are_the_smallest_powers_of_two_above_every_entry(case):
    rank, vecs = case
    sizes = span_sizes(vecs, rank)
    for d, n in enumerate(sizes):
        top = max((v[d] for v in vecs), default=0)
        assert is_pow2(n) and top < n and (n == 1 or n // 2 <= top)
