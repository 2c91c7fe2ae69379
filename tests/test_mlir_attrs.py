"""converters.mlir attributes and types: Triton 3.9's printed text in, the same text out, the
Gluon layouts of the oracle corpora round-tripped, errors that name the field and position."""

from __future__ import annotations

import glob
import json

import pytest
from hypothesis import given, reject, strategies as st

from conftest import ORACLES
from converters.gluon import (
    AMDMFMALayout, AMDWMMALayout, BlockedLayout, DistributedLinearLayout, DotOperandLayout, NVMMADistributedLayout, NVMMASharedLayout,
    PaddedSharedLayout, SharedLinearLayout, SliceLayout, SwizzledSharedLayout, TensorMemoryLayout, TensorMemoryScalesLayout,
    from_dict,
)
from converters.mlir import MemDescType, TensorType, parse_attr, parse_type, to_mlir
from linlayout.contract import Kind, as_linear
from linlayout.errors import LayoutError, NotLinearError, ParseError

#: types printed by Triton 3.9 itself (str() of the types GluonOpBuilder builds; see make_ir_corpus.py)
PRINTED = [l.strip() for l in open(ORACLES / "triton-3.9-ir" / "printed_types.txt") if l.strip()]


@pytest.mark.parametrize("text", PRINTED)
def test_triton_printed_types_round_trip(text):
    t = parse_type(text)
    assert str(t) == text
    if isinstance(t, TensorType):
        assert t.kind is Kind.DISTRIBUTED
    else:
        assert t.kind in (Kind.SHARED, Kind.TENSOR_MEMORY)
    if isinstance(t.layout, PaddedSharedLayout):
        with pytest.raises(NotLinearError):
            t.to_linear()
    else:
        L = as_linear(t, list(t.shape))
        assert list(L.out_dims.values()) == list(t.shape)


def test_every_family_is_in_the_printed_text():
    names = {t.split("#", 1)[1].split("<", 1)[0] for t in PRINTED}
    from converters.mlir import ATTRIBUTE_NAMES
    # Gluon has no class for AMD's rotating shared layout: it is checked in the IR corpus (test_mlir_corpus.py);
    # generic_linear and partitioned_shared come from Triton's lit tests (test_mlir_lit.py)
    assert set(ATTRIBUTE_NAMES) - {"ttg.amd_rotating_shared", "ttg.generic_linear", "ttg.partitioned_shared"} <= names


def _oracle_layouts():
    out = []
    for f in sorted(glob.glob(str(ORACLES / "triton-3.9*" / "*.jsonl"))):
        for line in open(f):
            row = json.loads(line)
            for k in ("layout", "src", "dst"):
                d = row.get(k)
                if isinstance(d, dict) and "kind" in d:
                    try:
                        out.append(from_dict(d))
                    except LayoutError:
                        pass
    return out


def test_oracle_layouts_round_trip():
    layouts = _oracle_layouts()
    assert len(layouts) > 3000
    for L in layouts:
        text = to_mlir(L)
        P = parse_attr(text)
        assert to_mlir(P) == text
        # equal, or equal after Gluon's defaults are written out (elementBitWidth 32, tilesPerWarp all 1)
        assert P == L or _explicit_defaults(P, L), (L, P)


def _filled(x):
    """``x`` with Gluon's defaults written out (MFMA elementBitWidth 32, tilesPerWarp all 1)."""
    if isinstance(x, (DotOperandLayout, SliceLayout)):
        f = x.fields()
        f["parent"] = _filled(x.parent)
        return type(x)(**f)
    if isinstance(x, AMDMFMALayout):
        # Triton prints tilesPerWarp only when some entry is not 1: a list of ones of any length
        # (the rank's, the IR reader's rank + 1, or shorter) reads back as the default
        tpw = x.tiles_per_warp if x.tiles_per_warp and any(t != 1 for t in x.tiles_per_warp) else None
        return AMDMFMALayout(x.version, x.instr_shape, x.transposed, x.warps_per_cta, x.element_bitwidth or 32,
                             tpw or [1] * len(x.warps_per_cta), x.cga_layout)
    if isinstance(x, NVMMADistributedLayout):
        # the attribute has a major and a minor: Gluon's version list of another length reads back as two
        return NVMMADistributedLayout([x.version[0], x.version[1] if len(x.version) > 1 else 0], x.warps_per_cta,
                                      x.instr_shape, x.cga_layout)
    if isinstance(x, AMDWMMALayout) and not (x.warp_bases or x.reg_bases or x.cga_layout):
        # no basis says the rank: the attribute alone cannot (the tensor type fixes it, see test_wmma_rank_from_type)
        return AMDWMMALayout(x.version, x.transposed, [], [], x.instr_shape, [], 2)
    return x


def _explicit_defaults(P, L):
    return _filled(P) == _filled(L)


# ---------------------------------------------------------------------------- the law over random layouts
pow2 = st.sampled_from([1, 2, 4, 8])


@st.composite
def cga(draw, rank):
    n = draw(st.integers(0, 2))
    out = []
    nxt = [1] * rank
    for _ in range(n):
        v = [0] * rank
        if draw(st.booleans()):
            d = draw(st.integers(0, rank - 1))
            v[d] = nxt[d]
            nxt[d] *= 2
        out.append(v)
    return out


@st.composite
def blocked(draw, rank=None):
    rank = rank or draw(st.integers(1, 3))
    tpw = [1] * rank
    for _ in range(5):
        tpw[draw(st.integers(0, rank - 1))] *= 2
    wpc = [1] * rank
    for _ in range(draw(st.integers(0, 3))):
        wpc[draw(st.integers(0, rank - 1))] *= 2
    order = draw(st.permutations(list(range(rank))))
    return BlockedLayout([draw(pow2) for _ in range(rank)], tpw, wpc, order, draw(cga(rank)))


@st.composite
def distributed(draw):
    which = draw(st.integers(0, 5))
    if which == 0:
        return draw(blocked())
    if which == 1:
        p = draw(blocked(draw(st.integers(2, 3))))
        return SliceLayout(draw(st.integers(0, p.rank - 1)), p)
    if which == 2:
        v3 = draw(st.booleans())
        wpc = draw(st.sampled_from([[4, 1], [8, 1], [4, 2]] if v3 else [[1, 1], [2, 2], [4, 1], [1, 4]]))
        instr = [16, draw(st.sampled_from([8, 16, 64, 128, 256])), 16] if v3 else [16, 8]
        return NVMMADistributedLayout([3 if v3 else 2, 0], wpc, instr, draw(cga(2)))
    if which == 3:
        parent = NVMMADistributedLayout([2, 0], draw(st.sampled_from([[2, 2], [4, 1]])), [16, 8])
        return DotOperandLayout(draw(st.integers(0, 1)), parent, draw(st.sampled_from([1, 2, 4, 8])))
    if which == 4:
        return AMDMFMALayout(draw(st.integers(1, 4)), draw(st.sampled_from([[32, 32, 8], [16, 16, 16]])), draw(st.booleans()),
                             draw(st.sampled_from([[1, 4], [2, 2], [4, 1]])),
                             draw(st.sampled_from([None, 64])), draw(st.sampled_from([None, [2, 1], [1, 2]])))
    b = draw(blocked(2))
    return DistributedLinearLayout.from_linear(b.to_linear([64, 64]))


@st.composite
def memory(draw):
    which = draw(st.integers(0, 5))
    if which == 0:
        w = draw(st.sampled_from([0, 32, 64, 128]))
        bits = draw(st.sampled_from([8, 16, 32]))
        rank = draw(st.integers(2, 3))
        return NVMMASharedLayout(w, bits, rank, draw(st.booleans()), w == 128 and bits == 8 and draw(st.booleans()),
                                 draw(cga(rank)) or None)
    if which == 1:
        rank = draw(st.integers(1, 3))
        return SwizzledSharedLayout(draw(pow2), draw(pow2), draw(pow2), draw(st.permutations(list(range(rank)))), draw(cga(rank)) or None)
    if which == 2:
        shape = [draw(st.sampled_from([2, 4, 8])), draw(st.sampled_from([2, 4, 8]))]
        perm = draw(st.permutations([[0, 1 << i] for i in range(shape[1].bit_length() - 1)] + [[1 << i, 0] for i in range(shape[0].bit_length() - 1)]))
        return SharedLinearLayout(perm, [], draw(st.sampled_from([16, 128])))
    if which == 3:
        shape = [draw(st.sampled_from([4, 8])), draw(st.sampled_from([16, 32]))]
        order = draw(st.permutations([0, 1]))
        from converters.mlir.attrs import identity_bases
        bases = identity_bases(shape, order)
        if draw(st.booleans()):
            bases[0], bases[1] = bases[1], bases[0]
        return PaddedSharedLayout([[draw(st.sampled_from([16, 32])), draw(st.sampled_from([1, 4]))]], bases, [], shape)
    if which == 4:
        two = draw(st.booleans())
        return TensorMemoryLayout([draw(st.sampled_from([64, 128])), draw(st.sampled_from([32, 64, 256]))],
                                  draw(st.sampled_from([1, 2])), [[1, 0]] if two else draw(cga(2)), two)
    return TensorMemoryScalesLayout(draw(cga(2)))


def _valid(strategy):
    """Draws of ``strategy`` (a thunk building a layout) that the Gluon classes accept."""

    @st.composite
    def inner(draw):
        try:
            return draw(strategy())
        except LayoutError:
            reject()

    return inner()


@given(st.one_of(_valid(distributed), _valid(memory)))
def test_law_parse_of_print_is_identity(x):
    assert parse_attr(to_mlir(x)) == x


# ---------------------------------------------------------------------------- types
def test_tensor_type_is_a_layout_value_with_its_shape():
    t = parse_type("tensor<64x128xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>>")
    assert t.shape == (64, 128) and t.dtype == "f32" and t.bitwidth == 32
    assert t.to_linear() == NVMMADistributedLayout([3, 0], [4, 1], [16, 128, 16]).to_linear([64, 128])
    with pytest.raises(LayoutError, match="not \\[32, 128\\]"):
        t.to_linear([32, 128])


def test_memdesc_types():
    t = parse_type("!ttg.memdesc<128x4xi8, #ttng.tensor_memory_scales_encoding<>, #ttng.tensor_memory>")
    assert isinstance(t, MemDescType) and t.kind is Kind.TENSOR_MEMORY and not t.mutable
    assert list(t.to_linear().in_dim_names) == ["row", "col"]
    p = parse_type("tensor<64x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>>")
    assert p.dtype == "!tt.ptr<f16>" and p.bitwidth == 64


def test_wmma_rank_from_type():
    t = parse_type("tensor<2x32x16xf16, #ttg.amd_wmma<{version = 3, isTranspose = false, ctaLayout = {}, instrShape = [32, 16, 64]}>>")
    assert t.layout == AMDWMMALayout(3, False, [], instr_shape=[32, 16, 64], rank=3)


def test_aliases():
    b = parse_attr("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>")
    t = parse_type("tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked}>>", aliases={"blocked": b})
    assert t.layout == SliceLayout(1, b)
    with pytest.raises(ParseError, match="unknown attribute alias #blocked2") as e:
        parse_type("tensor<128xf32, #ttg.slice<{dim = 1, parent = #blocked2}>>", aliases={"blocked": b})
    assert e.value.position == len("tensor<128xf32, #ttg.slice<{dim = 1, parent = ")


# ---------------------------------------------------------------------------- errors
@pytest.mark.parametrize("text, message, at", [
    ("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], foo = 1}>",
     "#ttg.blocked: unknown field 'foo'", "foo"),
    ("#ttg.blocked<{sizePerThread = 1, threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>",
     "field 'sizePerThread' must be a list of integers, got 1", "1,"),
    ("#ttg.slice<{dim = x, parent = #blocked}>", "expected a value", "x,"),
    ("#ttg.dot_op<{opIdx = 0, parent = 3, kWidth = 2}>", "field 'parent' must be a distributed layout attribute", "3,"),
    ("#ttg.slice<{dim = 0, parent = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>}>",
     "field 'parent' must be a distributed layout attribute, got SwizzledSharedLayout", "#ttg.swizzled"),
    ("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [1]}>",
     "field 'CGALayout' must be a list of bases (lists of integers), got [1]", "[1]}"),
    ("#ttg.nvmma_shared<{swizzlingByteWidth = 96, transposed = false, elementBitWidth = 16}>",
     "#ttg.nvmma_shared: NVMMASharedLayout: swizzle_byte_width must be 0, 32, 64 or 128", None),
    ("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8]", "expected ',' or '}'", "END"),
    ("#ttg.mystery<{a = 1}>", "not a layout attribute Triton 3.9 has", None),
    ("#ttg.padded_shared<{order = [1, 0], shape = [4, 32]}>", "missing the [interval:+padding", None),
    ("#ttg.padded_shared<[32:4] {order = [1, 0], shape = [4, 32]}>", "expected '+' before the padding", "4]"),
    ("#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, twoCTAs = 1>",
     "field 'twoCTAs' must be true or false", "1>"),
    ("", "empty text", None),
    ("#ttg.shared_memory", "memory space, not a layout", None),
])
def test_errors_name_field_and_position(text, message, at):
    with pytest.raises(ParseError) as e:
        parse_attr(text)
    assert message in str(e.value)
    want = 0 if at is None else len(text) if at == "END" else text.index(at)
    assert e.value.position == want


def test_to_mlir_refuses_other_values():
    with pytest.raises(LayoutError, match="no MLIR attribute for a int"):
        to_mlir(3)


# ---------------------------------------------------------------------------- the form's entry points
def test_parse_reads_attributes_and_types():
    from converters.mlir import parse

    assert parse(PRINTED[0]) == parse_type(PRINTED[0])
    attr = PRINTED[0].split(", ", 1)[1][:-1]
    assert parse(attr) == parse_type(PRINTED[0]).layout


@pytest.mark.parametrize("text", [t for t in PRINTED if "padded_shared" not in t and "tensor_memory" not in t])
def test_from_linear_spells_the_same_layout(text):
    from converters.mlir import from_linear

    t = parse_type(text)
    L = t.to_linear()
    spelled = parse_attr(to_mlir(from_linear(L)))
    assert to_mlir(spelled).startswith(("#ttg.linear<", "#ttg.shared_linear<"))
    assert spelled.to_linear(list(L.out_dims.values())) == L


def test_looks_like():
    from converters.mlir import looks_like

    assert all(looks_like(t) for t in PRINTED)
    assert looks_like((ORACLES / "triton-3.9-ir" / "ir" / "vector_add.sm_90.ttgir").read_text())
    assert not looks_like("(4,8):(8,1)") and not looks_like("gl.BlockedLayout([1], [32], [4], [0])")


# ---------------------------------------------------------------------------- Triton's reader rules
# (found by the lit corpus, tests/test_mlir_lit.py; each text is from Triton's lit tests)
@pytest.mark.parametrize("text, message", [
    ("#ttg.linear<{register = [[1], [3]], lane = [], warp = [], block = []}>", "permutation matrix"),
    ("#ttg.linear<{register = [[1, 1], [1, 0]], lane = [], warp = [], block = []}>", "permutation matrix"),
    ("#ttg.linear<{register = [[1]], lane = [[2]], warp = []}>", "missing field 'block'"),
    ("#ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = [], alignment = 16}>", "outside of the linear layout braces"),
    ("#ttg.shared_linear<{offset = [[0, 1], [1, 0]], block = []}>", "missing field 'alignment'"),
    ("#ttg.padded_shared<[2:+1, 4:+2] {offset = [[1, 0], [3, 0]], block = []}>", "0 or a power of two"),
    ("#ttg.padded_shared<[2:+1, 4:+2] {offset = [[1, 0], [1, 1]], block = []}>", "at most one dimension"),
    ("#ttg.padded_shared<[2:+1] {offset = [[0]], block = []}>", "broadcasting in the offset dimension"),
    ("#ttg.padded_shared<[2:+1, 4:+2] {offset = [[0, 1]]}>", "missing field 'block'"),
    ("#ttg.dot_op<{opIdx = 1, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
     "order = [1, 0]}>, kWidth = 8}>", "blocked layout"),
])
def test_refuses_what_tritons_reader_refuses(text, message):
    with pytest.raises(ParseError, match=message):
        parse_attr(text)


def test_takes_what_tritons_reader_takes():
    """Triton's MMA / MFMA / WMMA / linear readers skip keys they do not know and have defaults."""
    old = parse_attr("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], CTAsPerCGA = [1, 1], "
                     "CTASplitNum = [1, 1], CTAOrder = [1, 0], instrShape = [16, 256, 32]}>")
    assert to_mlir(old) == "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 256, 32]}>"
    assert to_mlir(parse_attr("#ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>")).startswith(
        "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0,")
    w = parse_attr("#ttg.amd_wmma<{version = 1, rank = 3, ctaLayout = {warp = [[0, 0, 1], [0, 0, 2], [1, 0, 0]]}}>")
    assert to_mlir(w) == "#ttg.amd_wmma<{version = 1, isTranspose = false, ctaLayout = {warp = [[0, 0, 1], [0, 0, 2], [1, 0, 0]]}}>"
    lin = parse_attr("#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [], block = [], order = [1, 0]}>")
    assert to_mlir(lin) == "#ttg.linear<{register = [[0, 1]], lane = [[1, 0]], warp = [], block = []}>"
    # Triton's getOrder for a padded layout whose offsets move no dim: [rank - 1, ..., 0]
    assert to_mlir(parse_attr("#ttg.padded_shared<[32:+4] {order = [0, 1, 2], shape = [1, 1, 1]}>")) == \
        "#ttg.padded_shared<[32:+4] {order = [2, 1, 0], shape = [1, 1, 1]}>"


def test_general_linear_bases_print_as_generic_linear():
    """Triton reads #ttg.linear only for a permutation matrix: a Gluon linear layout with XOR-combined
    bases prints as #ttg.generic_linear (as the cvt_general corpus spells them), which reads back to
    the same linear layout."""
    x = DistributedLinearLayout([[1, 0], [0, 1]], [[2, 0], [4, 0], [8, 0], [0, 2], [0, 4]], [[16, 8], [0, 8]])
    text = to_mlir(x)
    assert text.startswith("#ttg.generic_linear<{")
    y = parse_attr(text)
    assert to_mlir(y) == text and y.to_linear([32, 16]) == x.to_linear([32, 16])
    perm = DistributedLinearLayout([[1, 0], [0, 1]], [[2, 0], [4, 0], [8, 0], [0, 2], [0, 4]], [[16, 0], [0, 8]])
    assert to_mlir(perm).startswith("#ttg.linear<{") and parse_attr(to_mlir(perm)) == perm


def test_padded_block_bases_are_element_coordinates():
    """A padded layout's ``block`` bases are element coordinates; Gluon's ``cga_layout`` counts CTA
    tiles.  Triton 3.9's ``get_gluon_layout_from_memdesc`` of this type (the alias of
    test/TritonGPU/amd/amd-convert-tensor-ops.mlir) answers ``PaddedSharedLayout(interval_padding_pairs=
    [(128, 8)], offset_bases=[...], cga_layout=[[0, 0], [1, 0]], shape=[128, 16])``."""
    off = "[[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]]"
    text = f"!ttg.memdesc<128x16xf16, #ttg.padded_shared<[128:+8] {{offset = {off}, block = [[0, 0], [64, 0]]}}>, #ttg.shared_memory, mutable>"
    t = parse_type(text)
    assert t.layout == PaddedSharedLayout([[128, 8]], json.loads(off), [[0, 0], [1, 0]], [128, 16])
    assert str(t) == text
    with pytest.raises(ParseError, match="whole CTA tiles"):  # Triton aborts: no CTA x CGA factoring
        parse_attr("#ttg.padded_shared<[2:+1] {offset = [[1, 0], [0, 1]], block = [[1, 0], [2, 0]]}>")
    with pytest.raises(ParseError, match="takes no CGALayout"):
        parse_attr("#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [4, 32], CGALayout = [[1, 0]]}>")
