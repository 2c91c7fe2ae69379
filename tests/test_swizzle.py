"""linlayout.swizzle: CuTe/TIRx/Triton/NVMMA swizzle spellings, units, linear form, laws."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from linlayout import LayoutError, LinearLayout
from linlayout.errors import SizeError, SwizzleError, UnsupportedError
from linlayout.swizzle import (
    Swizzle,
    element_bitwidth,
    nvmma_swizzle_params,
    swizzle_for,
    swizzle_mode_bytes,
    triton_swizzle_layout,
)

from conftest import load_oracle


@st.composite
def swizzles(draw, allow_negative: bool = True):
    b = draw(st.integers(0, 4))
    m = draw(st.integers(0, 5))
    s = draw(st.integers(b, b + 4))
    if allow_negative and draw(st.booleans()):
        s = -s
        m = max(m, 0)
    return Swizzle(b, m, s)


# ---------------------------------------------------------------------------- CuTe's definition
def test_cute_worked_example_128B_bytes():
    sw = Swizzle(3, 4, 3)
    assert sw(0x80) == 0x90
    assert sw(0x3F0) == 0x380
    assert sw(0x18) == 0x18
    # the source field is [M + S, M + S + B) = bits 7..9, the target [M, M + B) = bits 4..6
    assert sw.yyy_mask == 0b1110000000 and sw.zzz_mask == 0b1110000


def test_not_the_absolute_position_reading():
    """A write-up's "XOR bits [S, S+B) into [M, M+B)" is a different map and no involution."""

    def wrong(x, B=3, M=4, S=3):
        return x ^ (((x >> S) & ((1 << B) - 1)) << M)

    sw = Swizzle(3, 4, 3)
    xs = np.arange(1024)
    assert not np.array_equal(sw(xs), wrong(xs))
    assert wrong(0x18) != 0x18
    assert any(wrong(wrong(int(x))) != x for x in xs)
    assert np.array_equal(sw(sw(xs)), xs)


def test_negative_shift():
    sw = Swizzle(2, 0, -2)
    assert sw(0b0011) == 0b1111
    assert sw(0b1100) == 0b1100
    assert sw.zzz_mask == 0b1100 and sw.yyy_mask == 0b0011
    L = sw.to_linear()
    assert L.is_invertible() and L.in_dim_size("offset") == 16
    with pytest.raises(SizeError):
        sw.to_linear(4)


@pytest.mark.reference
@given(swizzles())
@settings(max_examples=40)
def test_agrees_with_pycute(sw):
    pycute = pytest.importorskip("pycute")
    if sw.shift == 0:  # pycute's shiftr/shiftl recurse forever on a zero shift
        return
    ref = pycute.Swizzle(sw.bits, sw.base, sw.shift)
    for x in range(0, 1 << min(14, sw.span_bits + 1)):
        assert sw(x) == ref(x)


def test_tirx_corpus_rows_with_a_swizzle():
    from converters.tile import parse_tile

    rows = [r for r in load_oracle("tirx/tile_layout.jsonl") if "swizzle" in r]
    assert len(rows) == 34
    checked = refused = 0
    for r in rows:
        sw = Swizzle.from_tirx(*r["swizzle"])
        tile = parse_tile(r["spec"])
        for coord, want in r["points"]:
            if "error" in want:
                # TIRx refuses a swizzle over a layout that places data off the memory axis m
                assert set(tile.axes) != {"m"}, r["spec"]
                refused += 1
                continue
            plain = tile.apply(*coord, shape=r["shape"])
            assert set(plain) == {"m"} == set(want)
            assert sw(plain["m"]) == want["m"], (r["spec"], r["swizzle"], coord)
            checked += 1
    assert checked >= 78 and refused > 0


# ---------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("bms", [(3, 4, 2), (2, 0, -1), (1, 0, 0)])
def test_s_smaller_than_b_refused(bms):
    with pytest.raises(SwizzleError, match=r"\|S\| >= B"):
        Swizzle(*bms)


@pytest.mark.parametrize("mode", [48, 16, 256, "96B", "wide", -32])
def test_bad_swizzle_width(mode):
    with pytest.raises(SwizzleError):
        swizzle_for("float16", mode)


def test_bad_other_inputs():
    with pytest.raises(SwizzleError):
        Swizzle(-1, 0, 1)
    with pytest.raises(SwizzleError):
        Swizzle(1.5, 0, 2)
    with pytest.raises(SizeError):
        Swizzle(30, 30, 30)
    with pytest.raises(LayoutError):
        element_bitwidth("float17")
    with pytest.raises(SizeError):
        element_bitwidth(12)
    with pytest.raises(UnsupportedError):
        Swizzle(3, 1, 3).to_elements(4)  # moves bytes inside a 4-byte element
    with pytest.raises(SizeError):
        Swizzle(3, 4, 3).to_bytes(3)
    with pytest.raises(SizeError):
        Swizzle.from_triton(3, 1, 8, 64)
    with pytest.raises(UnsupportedError):
        Swizzle(3, 3, 3).to_triton(32)  # target reaches past a 32-element row
    with pytest.raises(UnsupportedError):
        Swizzle(1, 0, 1).to_triton(64)  # source inside the row
    assert isinstance(SwizzleError("x"), LayoutError)


# ---------------------------------------------------------------------------- modes and units
def test_modes_in_element_and_byte_units():
    assert swizzle_for("float16", "128B") == Swizzle(3, 3, 3)
    assert swizzle_for("bf16", "64B") == Swizzle(2, 3, 3)
    assert swizzle_for("fp16", "32B") == Swizzle(1, 3, 3)
    assert swizzle_for("fp16", "none").is_identity()
    assert swizzle_for("float32", 128) == Swizzle(3, 2, 3)
    assert swizzle_for("fp8", 128) == Swizzle(3, 4, 3)
    assert swizzle_for("fp64", 128) == Swizzle(3, 1, 3)
    assert swizzle_for("fp4", 128) == Swizzle(3, 5, 3)
    for bits in (8, 16, 32, 64):
        for w in (32, 64, 128):
            e = swizzle_for(bits, w)
            assert e.to_bytes(bits // 8) == swizzle_for(bits, w, unit="byte") == Swizzle(w.bit_length() - 5, 4, 3)
            assert e.to_nvmma_width(bits) == w
            # 16-byte runs stay contiguous: M = log2(16 bytes / element bytes)
            assert 1 << e.base == 128 // bits
    assert swizzle_mode_bytes("SW128") == 128 and swizzle_mode_bytes(None) == 0


def test_byte_and_element_forms_are_the_same_permutation():
    for bits in (8, 16, 32, 64):
        eb = bits // 8
        for w in (32, 64, 128):
            e, b = swizzle_for(bits, w), swizzle_for(bits, w, unit="byte")
            for x in range(4096):
                assert b(x * eb) == e(x) * eb


def test_triton_spelling_matches_nvmma_params():
    for bits in (8, 16, 32):
        for w in (32, 64, 128):
            vec, pp, mp = nvmma_swizzle_params(bits, w)
            row = 8 * w // bits
            assert Swizzle.from_triton(vec, pp, mp, row) == swizzle_for(bits, w)
            assert swizzle_for(bits, w).to_triton(row) == (vec, pp, mp)


def test_triton_spelling_matches_triton_2d_layout():
    for vec, pp, mp, rows, cols in [(8, 1, 8, 16, 64), (4, 2, 4, 32, 16), (2, 4, 2, 16, 8), (1, 1, 8, 8, 8), (8, 1, 8, 8, 16)]:
        L = triton_swizzle_layout(vec, pp, mp, (rows, cols))
        sw = Swizzle.from_triton(vec, pp, mp, cols)
        inv = sw.to_linear(rows * cols, "offset", "offset")
        for o in range(rows * cols):
            out = L(offset=o)
            # Triton maps offset -> (row, col); the swizzle maps logical offset -> physical offset
            assert sw(out["dim0"] * cols + out["dim1"]) == o
        assert inv.is_invertible()


# ---------------------------------------------------------------------------- laws (hypothesis)
@given(swizzles())
def test_involution(sw):
    xs = np.arange(1 << min(12, sw.span_bits + 2))
    assert np.array_equal(sw(sw(xs)), xs)
    L = sw.to_linear()
    assert L.compose(L) == LinearLayout.identity_1d(L.in_dim_size("offset"), "offset", "offset")
    assert sw.invert() == sw


@given(swizzles())
def test_linear_form_agrees_pointwise(sw):
    L = sw.to_linear()
    n = L.in_dim_size("offset")
    assert np.array_equal(L.flat_table(), sw(np.arange(n)))
    assert Swizzle.from_linear(L) == sw


@given(swizzles(allow_negative=False), st.integers(0, 3))
def test_unit_round_trip(sw, k):
    eb = 1 << k
    assert sw.to_bytes(eb).to_elements(eb) == sw


@given(swizzles(allow_negative=False))
def test_tirx_round_trip(sw):
    assert Swizzle.from_tirx(*sw.to_tirx()) == sw


@given(st.integers(0, 4), st.integers(0, 3), st.integers(0, 3), st.integers(0, 4))
def test_triton_round_trip(lv, lp, lm, extra):
    lc = lv + lm + extra  # rows long enough for the whole XOR field
    if lc == 0 or lm == 0:
        return
    sw = Swizzle.from_triton(1 << lv, 1 << lp, 1 << lm, 1 << lc)
    assert sw.to_triton(1 << lc) == (1 << lv, 1 << lp, 1 << lm)
    assert Swizzle.from_triton(*sw.to_triton(1 << lc), 1 << lc) == sw
