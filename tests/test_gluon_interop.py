"""converters.gluon.interop against real Triton objects (triton 3.9).

Every row of gluon_ll.jsonl and gluon_amd.jsonl that Triton accepted (2073 of 2150; the whole
corpus runs in about a second, so nothing is sampled): ``to_triton(ours)`` fed to Triton's own
builder (``GluonOpBuilder.to_linear_layout``) gives our ``to_linear``, and
``from_triton(to_triton(x)) == x``.  The missing-Triton path is tested without Triton too.
"""

from __future__ import annotations

import collections
import sys

import pytest

from conftest import load_oracle
from converters import gluon
from converters.gluon import interop
from converters.gluon.interop import from_triton, linear_from_triton, linear_to_triton, to_triton
from linlayout import LayoutError, LinearLayout
from linlayout.errors import UnsupportedError

ROWS = load_oracle("triton-3.9/gluon_ll.jsonl") + load_oracle("triton-3.9/gluon_amd.jsonl")
ACCEPTED = [r for r in ROWS if "error" not in r]


def triton_linear(builder, obj, shape) -> LinearLayout:
    """Triton's own answer: the builder's to_linear_layout, read back as our LinearLayout."""
    return linear_from_triton(builder.to_linear_layout(obj._to_ir(builder), list(shape)))


@pytest.mark.reference
def test_every_accepted_row_through_triton(builder):
    tally = collections.Counter()
    for i, row in enumerate(ACCEPTED):
        ours = gluon.from_dict(row["layout"])
        theirs = to_triton(ours)
        assert type(theirs).__name__ == ours.family
        assert from_triton(theirs) == ours, f"row {i}: {ours} -> {theirs}"
        want = ours.to_linear(row["shape"])
        assert triton_linear(builder, theirs, row["shape"]) == want, f"row {i}: {ours} on {row['shape']}"
        tally[ours.family] += 1
    assert sum(tally.values()) == len(ACCEPTED) == 2073
    assert len(tally) == 9, tally


@pytest.mark.reference
def test_linear_gluon_classes_through_triton(builder):
    gl = pytest.importorskip("triton.experimental.gluon.language")
    dll = gluon.DistributedLinearLayout([[1, 0]], [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], [[8, 0], [0, 8]])
    t = to_triton(dll)
    assert t == gl.DistributedLinearLayout([[1, 0]], [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], [[8, 0], [0, 8]], [], [16, 16])
    assert from_triton(t) == dll
    assert triton_linear(builder, t, [16, 16]) == dll.to_linear([16, 16])
    sll = gluon.SharedLinearLayout([[0, 1], [0, 2], [1, 0], [2, 1]], alignment=32)
    assert from_triton(to_triton(sll)) == sll
    assert triton_linear(builder, to_triton(sll), sll.shape) == sll.to_linear(sll.shape)
    padded = gluon.PaddedSharedLayout([[2, 1], [4, 2]], [[1], [2], [4]], [], [8])
    assert from_triton(to_triton(padded)) == padded
    # what gl.to_linear_layout hands back for a tensor-memory layout
    tm = gluon.TensorMemoryLayout([64, 64], 1)
    assert triton_linear(builder, to_triton(tm), [128, 64]) == tm.to_linear([128, 64])


@pytest.mark.reference
def test_constexpr_and_nesting_unwrapped():
    gl = pytest.importorskip("triton.experimental.gluon.language")
    c = gl.constexpr
    b = gl.BlockedLayout(c([1, 4]), [c(8), c(4)], [4, 1], [1, 0])
    assert from_triton(c(gl.SliceLayout(c(0), b))) == gluon.SliceLayout(0, gluon.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0]))
    assert from_triton(gluon.BlockedLayout([1], [32], [4], [0])) == gluon.BlockedLayout([1], [32], [4], [0])


@pytest.mark.reference
def test_triton_filled_defaults_come_back_as_ours():
    amd = pytest.importorskip("triton.experimental.gluon.language.amd")
    t = amd.AMDMFMALayout(4, [16, 16, 32], False, [2, 2])
    assert (t.element_bitwidth, t.tiles_per_warp) == (32, [1, 1])
    ours = from_triton(t)
    assert ours.element_bitwidth is None and ours.tiles_per_warp is None


@pytest.mark.reference
def test_unknown_objects_are_named():
    gl = pytest.importorskip("triton.experimental.gluon.language")
    with pytest.raises(LayoutError, match="CoalescedLayout"):
        from_triton(gl.CoalescedLayout())
    with pytest.raises(LayoutError, match="builtins.int"):
        from_triton(3)
    with pytest.raises(LayoutError, match="linear_from_triton"):
        from_triton(linear_to_triton(LinearLayout({"offset": [[1]]}, {"dim0": 2})))
    with pytest.raises(LayoutError, match="needs a shape|give the tensor shape"):
        linear_from_triton(gl.BlockedLayout([1], [32], [4], [0]))


@pytest.mark.reference
def test_linear_layout_binding_round_trip():
    pytest.importorskip("triton")
    for row in ACCEPTED[::97]:
        L = gluon.from_dict(row["layout"]).to_linear(row["shape"])
        t = linear_to_triton(L)
        assert t.out_dims == list(L.out_dims.items())
        assert linear_from_triton(t) == L
        assert to_triton(L).bases == t.bases


@pytest.mark.reference
def test_older_gluon_fields():
    """Triton <= 3.5 spelled the CGA as ctas_per_cga / cta_split_num / cta_order, MFMA's accumulator
    width as elem_type, and tensor memory's column stride as unpacked."""
    from dataclasses import dataclass
    from typing import Optional

    pytest.importorskip("triton")
    from triton._C.libtriton import gluon_ir

    @dataclass(frozen=True)
    class BlockedLayout:  # shaped like Triton 3.5's
        size_per_thread: list
        threads_per_warp: list
        warps_per_cta: list
        order: list
        ctas_per_cga: Optional[list] = None
        cta_split_num: Optional[list] = None
        cta_order: Optional[list] = None

    old = BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0], [4, 2], [2, 2], [0, 1])
    cga = [list(v) for v in gluon_ir.make_cga_layout([4, 2], [2, 2], [0, 1])]  # Triton's conversion
    assert from_triton(old) == gluon.BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0], cga)
    assert from_triton(BlockedLayout([1], [32], [4], [0])) == gluon.BlockedLayout([1], [32], [4], [0])

    @dataclass(frozen=True)
    class TensorMemoryLayout:  # Triton 3.4's
        block: tuple
        unpacked: bool
        cta_split_num: Optional[tuple] = None

    assert from_triton(TensorMemoryLayout((128, 64), False)) == gluon.TensorMemoryLayout([128, 64], 1)
    with pytest.raises(UnsupportedError, match="col_stride"):
        from_triton(TensorMemoryLayout((128, 64), True))

    import triton.language as tl

    @dataclass(frozen=True)
    class AMDMFMALayout:  # Triton 3.4's
        version: int
        instr_shape: list
        transposed: bool
        warps_per_cta: list
        elem_type: object = tl.float32
        tiles_per_warp: Optional[list] = None
        ctas_per_cga: Optional[list] = None
        cta_split_num: Optional[list] = None
        cta_order: Optional[list] = None

    assert from_triton(AMDMFMALayout(3, [32, 32, 8], False, [2, 1])) == gluon.AMDMFMALayout(3, [32, 32, 8], False, [2, 1])


def test_without_triton_everything_says_pip_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "triton", None)  # `import triton` now fails
    L = LinearLayout({"offset": [[1]]}, {"dim0": 2})
    b = gluon.BlockedLayout([1], [32], [4], [0])
    for call in (lambda: to_triton(b), lambda: to_triton(L), lambda: linear_to_triton(L),
                 lambda: from_triton(object()), lambda: linear_from_triton(object())):
        with pytest.raises(UnsupportedError, match="pip install triton"):
            call()
    assert interop.triton_available() is False
    # our own objects need no Triton
    assert from_triton(b) is b
    assert linear_from_triton(L) is L


@pytest.mark.reference
@pytest.mark.reference
def test_amd_wmma_by_name(builder):
    """AMDWMMALayout goes through the generic by-name path (skipped until our class is registered)."""
    try:
        wmma = gluon.lookup("AMDWMMALayout")
    except LayoutError:
        pytest.skip("converters.gluon has no AMDWMMALayout yet")
    cases = [
        (wmma(2, False, [[0, 1], [0, 2]]), [32, 64]),
        (wmma(1, True, []), [16, 16]),
        (wmma(2, True, [[1, 0]], reg_bases=[[0, 1]]), [64, 64]),
        (wmma(3, False, [[0, 1]], instr_shape=[16, 16, 32]), [32, 32]),
    ]
    for ours, shape in cases:
        theirs = to_triton(ours)
        assert from_triton(theirs) == ours
        assert triton_linear(builder, theirs, shape) == ours.to_linear(shape), f"{ours} on {shape}"
