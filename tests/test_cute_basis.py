"""Basis-stride layouts (CuTe's ``E<i>`` scaled bases, the descriptor grammar ``(1@0, 8@1)``):
their linear form ``offset -> dim0, dim1, ...`` (the map itself: flat index -> coordinate, kind
``memory``), back from a linear layout, and round trips through text, ``convert`` and ``equiv``."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import linlayout
from converters import registry
from converters.cute import E, Layout, basis_layout, from_linear, parse, parse_descriptor
from converters.cute.bridge import basis_from_linear
from converters.cute.memory_map import codomain_shape
from linlayout.contract import Kind, kind_of
from linlayout.errors import LayoutError, NotLinearError, SizeError


def _points(L: Layout) -> list[tuple[int, ...]]:
    """Every flat index's coordinate, by CuTe's own evaluation (the oracle for the linear form)."""
    return [tuple(L(i)) for i in range(L.size())]


def _linear_points(L: Layout) -> list[tuple[int, ...]]:
    LL = L.to_linear()
    names = LL.out_dim_names
    return [tuple(LL.apply({"offset": i})[n] for n in names) for i in range(L.size())]


@pytest.mark.parametrize("text", ["(4,8):(1@0,1@1)", "(4,8):(1@1,1@0)", "(2,(2,4)):(4@1,(1@0,1@1))",
                                  "(2,2):(4@0,0)", "((2,2),8):((1@2,2@0),1@1)", "16:2@0"])
def test_linear_form_is_the_map_itself(text):
    L = parse(text)
    LL = L.to_linear()
    assert LL.in_dim_names == ("offset",) and kind_of(L) is Kind.MEMORY
    assert _linear_points(L) == _points(L)
    assert list(LL.out_dims.values()) == [1 << (e - 1).bit_length() for e in codomain_shape(L)]
    # and back: the basis spelling of the linear form computes the same map
    B = basis_from_linear(LL)
    assert B.to_linear() == LL and _points(B) == _points(L)


def test_identity_layout_is_the_column_major_map():
    # the identity (4,8):(1@0,1@1) sends offset o to (o % 4, o // 4): CuTe's (4,8):(1,4), inverted
    assert linlayout.equivalent(parse("(4,8):(1@0,1@1)"), parse("(4,8):(1,4)"))
    # the transposed identity is the row-major map of the (8,4) tensor
    assert linlayout.equivalent(parse("(4,8):(1@1,1@0)"), parse("(8,4):(4,1)"))
    assert not linlayout.equivalent(parse("(4,8):(1@1,1@0)"), parse("(4,8):(1,4)"))


def test_descriptor_text_becomes_the_same_layout():
    L = basis_layout((8, 4), parse_descriptor("(1@0, 8@1)"))
    assert L == parse("(8,4):(1@0,8@1)") and L.is_basis()
    assert _linear_points(L) == _points(L)
    assert list(L.to_linear().out_dims.values()) == [8, 32]


def test_from_linear_prefers_offsets_and_falls_back_to_bases():
    L = parse("(4,8):(1@1,1@0)")
    assert from_linear(L.to_linear()) == parse("(8,4):(4,1)")  # invertible: the memory layout
    assert from_linear(L.to_linear(), basis=True) == L
    bcast = parse("(2,4):(0,1@0)")  # a broadcast has no inverse: only the basis spelling exists
    assert from_linear(bcast.to_linear()) == bcast


def test_mixed_radix_form():
    L = parse("(3,(5,2)):(1@1,(1@0,5@0))")
    G = L.to_general()
    for i in range(L.size()):
        got = G.apply(offset=i)
        assert (got["dim0"], got["dim1"]) == L(i)
    assert linlayout.equivalent(L, L.to_general())


def test_refusals_are_layout_errors():
    with pytest.raises(NotLinearError, match="not a power of two"):
        parse("(3,4):(1@0,1@1)").to_linear()
    with pytest.raises(NotLinearError, match="overlaps"):
        parse("(4,4):(1@0,2@0)").to_linear()
    with pytest.raises(NotLinearError, match="negative"):
        Layout((4,), (E(-1, 0),)).to_linear()
    with pytest.raises(SizeError, match="codomain of shape"):
        parse("(4,8):(1@0,1@1)").to_linear([8, 4])
    parse("(4,8):(1@0,1@1)").to_linear([4, 8])
    with pytest.raises(LayoutError, match="moves 2 coordinates"):
        basis_from_linear(linlayout.LinearLayout({"offset": [[1, 1]]}, {"dim0": 2, "dim1": 2}, require_surjective=False))


@st.composite
def basis_layouts(draw):
    """A random GF(2)-linear basis-stride layout: each coordinate's bits dealt out to the modes."""
    k = draw(st.integers(1, 3))
    free = {i: list(range(draw(st.integers(0, 4)))) for i in range(k)}
    shape, stride = [], []
    for _ in range(draw(st.integers(1, 4))):
        choices = [i for i in free if free[i]]
        if not choices or draw(st.booleans()) and draw(st.booleans()):
            shape.append(1 << draw(st.integers(0, 2)))
            stride.append(0)
            continue
        i = draw(st.sampled_from(choices))
        n = draw(st.integers(1, len(free[i])))
        bit = draw(st.sampled_from(free[i][: len(free[i]) - n + 1]))
        run = [b for b in range(bit, bit + n) if b in free[i]]
        if len(run) != n:
            run = [bit]
        for b in run:
            free[i].remove(b)
        shape.append(1 << len(run))
        stride.append(E(1 << run[0], i))
    if not any(isinstance(d, E) for d in stride):
        shape.append(2)
        stride.append(E(1 << 5, 0))
    return Layout(tuple(shape), tuple(stride))


@settings(max_examples=150, deadline=None)
@given(basis_layouts())
def test_round_trips(L):
    LL = L.to_linear()
    assert _linear_points(L) == _points(L)
    B = basis_from_linear(LL)
    assert B.to_linear() == LL
    assert parse(str(L)) == L  # text
    assert linlayout.equivalent(L, B)
    y = registry.convert(L, "linear")
    assert y == LL
    assert linlayout.equivalent(registry.convert(y, "cute"), L)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "linlayout", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("text", ["(4,8):(1@1,1@0)", "(2,4):(0,1@0)"])
def test_cli_convert_and_equiv(text):
    for to in ("linear", "cute", "gluon"):
        r = _cli("convert", text, "--to", to)
        assert r.returncode == 0, r.stderr
        e = _cli("equiv", text, r.stdout.strip())
        assert e.returncode == 0 and "EQUIVALENT" in e.stdout, (to, r.stdout, e.stdout, e.stderr)
    table = np.array(_points(parse(text)))
    assert table.shape[0] == parse(text).size()
