"""Issue 20's reproducers, one test each: every one now gets a LayoutError (or, for the wrong
answers, the right answer).  Hangs are run under the fuzz harness's hard limit, so a regression
fails the test instead of stalling the suite.

CuTe's descriptor reproducers are at the end; the rest of CuTe's (``tile_to_shape``, ``idx2crd``, ``right_inverse``)
belong to the CuTe parsers' owner and are not here.
"""

from __future__ import annotations

import numpy as np
import pytest

from fuzz_targets import Target, check
from linlayout import LinearLayout, MixedRadixLayout, equivalent
from linlayout.errors import DimensionError, LayoutError, ParseError, SizeError
from linlayout.limits import MAX_TEXT


def _id(x: object) -> str:
    """A short test id for a long input."""
    s = str(x)
    return s if len(s) <= 30 else f"{s[:24]}..{len(s)}"


def _quick(fn, *args, limit: float = 20.0) -> str:
    """``fn(*args)`` under the fuzz harness: 'ok', 'refused' (a LayoutError) or a failure."""
    res = check(Target("repro", lambda _: fn(*args), lambda v: None, tuple, str), "", hard_limit=limit)
    return res.outcome if res.outcome in ("ok", "refused") else f"{res.outcome}: {res.detail}"


# ------------------------------------------------------------------------------ text parsers


def test_gluon_leading_zero_is_a_parse_error():
    from converters import gluon

    with pytest.raises(ParseError, match="leading zero"):
        gluon.parse("NVMMASharedLayout(01")
    with pytest.raises(ParseError, match="leading zero"):
        gluon.parse("SwizzledSharedLayout(01, 1, 1, [1, 0])")
    assert gluon.parse("SwizzledSharedLayout(0x8, 1, 8, [1, 0])").vec == 8  # hexadecimal is Gluon's (Python's)


@pytest.mark.parametrize("form, text", [
    ("gluon", "BlockedLayout(" + "[" * 100_000),
    ("gluon", "SliceLayout(0, " * 5000),
    ("linear", '{"bases": ' + "[" * 100_000),
    ("gluon", '{"kind": "SliceLayout", "dim": 0, "parent": ' * 3000),
    ("tilus", "local(" * 100_000),
    ("tilus", "local(1)" + ".local(1)" * 100_000),
    ("mlir", "#ttg.linear<{register = " + "[" * 100_000),
], ids=_id)
def test_deep_nesting_is_a_parse_error(form, text):
    from converters import registry

    with pytest.raises(ParseError, match="nest|deep|calls"):
        registry.parse(text, form)


@pytest.mark.parametrize("form, text", [
    ("tile", "S[(8,4):(" + "9" * 5000 + ",1)]"),
    ("linear", " - register=1 -> (" + "9" * 5000 + ")\nwhere out dims are: [dim0 (size 2)]"),
    ("linear", '{"bases": [["register", [[' + "9" * 5000 + ']]]], "out_dims": [["dim0", 2]]}'),
    ("gluon", "BlockedLayout([" + "9" * 5000 + "], [32], [4], [0])"),
    ("tilus", "local(" + "9" * 5000 + ")"),
    ("mlir", "tensor<" + "9" * 5000 + "xf16, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
             "warpsPerCTA = [4], order = [0]}>>"),
    ("linear", " - register=1 -> (" + "0" * 100_000 + ")\nwhere out dims are: [dim0 (size 2)]"),
], ids=_id)
def test_huge_integers_are_parse_errors(form, text):
    from converters import registry

    with pytest.raises(ParseError, match="out of range|leading zero"):
        registry.parse(text, form)


def test_non_ascii_digits_are_not_integers():
    with pytest.raises(ParseError, match="expected an integer"):
        LinearLayout.from_text(" - register=1 -> (\u0661)\nwhere out dims are: [dim0 (size 2)]")


def test_lone_surrogate_and_null_byte_are_layout_errors():
    from converters import registry

    with pytest.raises(LayoutError):
        registry.load("\ud800")
    with pytest.raises(LayoutError, match="cannot read the layout file"):
        registry.load("@\x00")
    with pytest.raises(LayoutError, match="cannot read the layout file"):
        registry.load("@\ud800")


@pytest.mark.parametrize("form, text", [
    ("gluon", "BlockedLayout([2, 2, 4], [8" + ",2" * 500_000 + "])"),
    ("gluon", "BlockedLayout(" + " " * (MAX_TEXT - 20) + ")"),
    ("tile", "S[(" + "2," * 500_000 + "2)]"),
    ("tile", "S[(7,16):(2,0@warpid" + "[" * (MAX_TEXT - 30)),
    ("tilus", "spatial(4, 8" + ",2" * 500_000 + ")"),
    ("mlir", "!ttg.memdesc<4x4xf16, #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1" + ",[1]" * 250_000),
    ("linear", '{"bases": [["offset", [[1]' + ",[1]" * 250_000 + "]]]}"),
], ids=_id)
def test_megabyte_inputs_are_answered(form, text):
    from converters import registry

    assert _quick(registry.parse, text[:MAX_TEXT], form) == "refused"


# ------------------------------------------------------------------------------ dict forms


@pytest.mark.parametrize("d", [
    {"kind": "SwizzledSharedLayout", "max_phase": 2, "order": [], "vec": 4},
    {"kind": "SliceLayout", "dim": 0, "parent": 3},
    {"kind": "SliceLayout", "dim": 0, "parent": {"vec": 1}},
    {"kind": "DotOperandLayout", "operand_index": 0, "parent": None, "k_width": 4},
    {"kind": ["BlockedLayout"]},
])
def test_bad_dicts_are_layout_errors(d):
    from converters import gluon

    with pytest.raises(LayoutError):
        gluon.from_dict(d)


def test_json_infinity_and_nan_are_parse_errors():
    from converters import registry

    for bad in ("Infinity", "-Infinity", "NaN"):
        text = ('{"kind": "BlockedLayout", "size_per_thread": [%s], "threads_per_warp": [32], '
                '"warps_per_cta": [4], "order": [0]}' % bad)
        with pytest.raises(ParseError, match="JSON has no"):
            registry.parse(text)


# ------------------------------------------------------------------------------ API


@pytest.mark.parametrize("digits", [[(2, 2**63, "m")], [(4, 2**62, "m")], [(2, -2**63, "m"), (2, 1, "m")]])
def test_mixed_radix_table_agrees_with_apply(digits):
    g = MixedRadixLayout({"x": digits})
    table = g.table()
    assert [int(v) for v in table[:, 0]] == [g.apply({"x": i})["m"] for i in range(g.in_dims["x"])]


def test_tile_table_agrees_with_apply_at_minus_two_to_the_63():
    from converters.tile import TileLayout

    t = TileLayout([(2, -2**63, "m"), (2, 1, "m")])
    g = t.place_general()
    (name,) = g.in_dims
    assert [int(v) for v in t.table()[:, 0]] == [g.apply({name: i})["m"] for i in range(4)]


def test_equivalent_of_a_large_general_layout_with_itself_is_identical():
    from converters import cute

    a, b = cute.parse("(224,131072):(131072,1)"), cute.parse("(224,131072):(131072,1)")
    assert equivalent(a, b).relation == "identical"


def test_equivalent_refuses_instead_of_answering_different_on_a_limit(monkeypatch):
    def over_limit(self, other):
        raise SizeError("a limit of this test")

    monkeypatch.setattr(MixedRadixLayout, "counterexample", over_limit)
    a = MixedRadixLayout({"x": [(3, 1, "m")]})
    with pytest.raises(SizeError, match="a limit of this test"):
        equivalent(a, a)


def test_equivalent_refuses_a_dimension_error_of_equal_in_dims(monkeypatch):
    """Once the in-dims agree, a DimensionError from the comparison is a refusal, not "different"."""
    def fails(self, other):
        raise DimensionError("an error of this test")

    monkeypatch.setattr(MixedRadixLayout, "counterexample", fails)
    a = MixedRadixLayout({"x": [(3, 1, "m")]})
    with pytest.raises(DimensionError, match="an error of this test"):
        equivalent(a, a)


@pytest.mark.parametrize("a, b", [
    (MixedRadixLayout({"x": [(3, 1, "m")], "y": [(1, 0, "m")]}), MixedRadixLayout({"x": [(3, 1, "m")]})),
    (MixedRadixLayout({"x": [(3, 1, "m")], "y": []}, replicas=[(2, 3, "m")]),
     MixedRadixLayout({"x": [(3, 1, "m")]}, replicas=[(2, 3, "m")])),
    (LinearLayout({"x": [[1]], "y": []}, {"m": 2}), MixedRadixLayout({"x": [(2, 1, "m")]})),
    (MixedRadixLayout({"w": [], "x": [(5, 2, "m")]}), MixedRadixLayout({"x": [(5, 2, "m")], "v": [(1, 7, "m")]})),
], ids=["extent-1 digit", "no digits, replicas", "linear vs general", "one each side"])
def test_equivalent_ignores_an_in_dim_of_size_1_on_one_side(a, b):
    """An in-dim of size 1 present on one side only changes no image: the general path once
    answered "different" ("in-dims differ") for these equal layouts."""
    assert equivalent(a, b).relation == "identical"
    assert equivalent(b, a).relation == "identical"


def test_equivalent_with_a_size_1_in_dim_still_finds_a_difference():
    a = MixedRadixLayout({"x": [(3, 1, "m")], "y": [(1, 0, "m")]})
    e = equivalent(a, MixedRadixLayout({"x": [(3, 2, "m")]}))
    assert e.relation == "different" and e.counterexample is not None
    assert e.counterexample.point == {"x": 1}
    assert equivalent(a, MixedRadixLayout({"x": [(5, 1, "m")]})).relation == "different"

def test_bank_picture_and_canonical_check_their_arguments():
    from converters import gluon
    from linlayout import draw

    shared = gluon.parse("SwizzledSharedLayout(8, 1, 8, [1, 0])").to_linear([64, 64])
    with pytest.raises(SizeError, match="bitwidth"):
        draw.bank_picture(shared, None)
    with pytest.raises(SizeError, match="banks"):
        draw.bank_picture(shared, 16, banks=0)
    with pytest.raises(DimensionError, match="outside the tensor"):
        draw.bank_picture(shared, 16, access=[(0, 4294967296)])
    blocked = gluon.parse("BlockedLayout([1], [32], [4], [0])")
    with pytest.raises(LayoutError, match="shape"):
        gluon.canonical(blocked, None)
    with pytest.raises(LayoutError, match="shape"):
        gluon.canonical(blocked, ["x"])


def test_tilus_visualize_of_a_huge_layout_is_refused():
    from converters import tilus

    with pytest.raises(SizeError, match="at most"):
        tilus.parse("local(65536, 65536)").visualize()


def test_tilus_constructors_refuse_ranks_past_the_limit():
    from converters import tilus

    assert _quick(tilus.local, *([1] * 100_000)) == "refused"
    with pytest.raises(SizeError, match="out of range"):
        tilus.parse("local(4611686018427387904).spatial(4)")


@pytest.mark.parametrize("shape, warps", [([128] * 8, 64), ([2] * 5, 2)])
def test_spelling_sweeps_are_counted_before_they_are_enumerated(shape, warps):
    from linlayout.app import spellings

    with pytest.raises(SizeError, match="spellings; at most"):
        spellings.blocked_spellings(shape, warps)


# ------------------------------------------------------------------------------ hangs


def test_detection_is_linear_on_runs_of_newlines():
    from converters import registry

    assert _quick(registry.detect, "A" + "\n" * 4000 + "x", limit=10) == "refused"
    assert _quick(registry.detect, " - register=1 -> (1)" + "\n" * 100_000 + "where out dims are: [dim0 (size 2)]") == "ok"


def test_long_tile_shape_without_strides_is_refused():
    from converters import tile

    with pytest.raises(ParseError, match="more than 64 entries"):
        tile.parse("S[(" + "2," * 300_000 + "2)]")


# ------------------------------------------------------------------------------ wrong answers


def test_triton_empty_layout_is_detected_as_linear():
    from converters import registry

    empty = LinearLayout({}, {})
    assert registry.detect(str(empty)) == "linear"
    assert registry.parse(str(empty)) == empty


def test_tilus_form_of_a_bare_int_is_refused():
    from converters import registry

    with pytest.raises(ParseError, match="must build a layout"):
        registry.load("7", "tilus")


@pytest.mark.parametrize("name", [" dim1", "dim1 ", "x y", ">arp", "dim-1", ""])
def test_dim_names_the_text_form_cannot_read_are_refused(name):
    with pytest.raises(DimensionError):
        LinearLayout({"register": [[1]]}, {name: 2})
    with pytest.raises(DimensionError):
        LinearLayout({name: [[1]]}, {"dim0": 2})


# ------------------------------------------------------------------------------ files


def test_binary_and_endless_files_are_bad_input(tmp_path):
    from converters import registry

    binary = tmp_path / "layout.bin"
    binary.write_bytes(b"\xff\xfe\x00(4,8):(8,1)")
    with pytest.raises(ParseError, match="not UTF-8"):
        registry.load(f"@{binary}")
    with pytest.raises(ParseError, match="longer than"):
        registry.load("@/dev/zero")


@pytest.mark.parametrize("build", [
    lambda: MixedRadixLayout({"x": 5}),
    lambda: MixedRadixLayout(None),
    lambda: MixedRadixLayout({"x": [(2, 1, "m")]}, replicas=3),
    lambda: MixedRadixLayout({"x": [(2, 1, "m")]}, offset=[1]),
], ids=["digits-int", "digits-none", "replicas-int", "offset-list"])
def test_mixed_radix_constructor_refuses_non_lists(build):
    with pytest.raises(LayoutError):
        build()


@pytest.mark.parametrize("args", [(None,), ([(2, 1, "m")], 7), ([(2, 1, "m")], (), [1])], ids=["shard", "replica", "offset"])
def test_tile_constructor_refuses_non_lists(args):
    from converters.tile import TileLayout

    with pytest.raises(LayoutError):
        TileLayout(*args)


def test_binary_standard_input_is_bad_input(monkeypatch):
    import io
    import sys

    from converters import registry

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xff\xfe(4,8):(8,1)")))
    with pytest.raises(ParseError, match="not UTF-8"):
        registry.load("-")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"(4,8):(8,1)\n")))
    assert registry.load("-")[0] == "cute"


# ------------------------------------------------------------------------------ found by the fuzzer


def test_json_numbers_out_of_float_range_are_parse_errors():
    from converters import registry

    with pytest.raises(ParseError, match="out of range"):
        registry.parse('{"kind": "SwizzledSharedLayout", "max_phase": 4, "order": [1e999, 0], "per_phase": 2, "vec": 8}')


def test_dict_lists_are_capped_like_text_lists():
    from converters import gluon

    d = {"kind": "BlockedLayout", "size_per_thread": [1], "threads_per_warp": [32], "warps_per_cta": [1],
         "order": [0], "cga_layout": [[0]] * 65}
    with pytest.raises(LayoutError, match="at most 64"):
        gluon.from_dict(d)


def test_out_dims_line_with_trailing_space_is_linear():
    text = " - register=1 -> (1)\nwhere out dims are: [dim0 (size 2)]" + " " * 100_000 + "x"
    assert _quick(LinearLayout.from_text, text, limit=10) == "refused"


def test_long_dim_names_are_refused():
    with pytest.raises(DimensionError, match="at most 256"):
        LinearLayout({"r" * 257: [[1]]}, {"dim0": 2})


def test_rank_zero_tensor_type_round_trips():
    from converters import mlir

    for text in ("tensor<f16, #ttg.nvmma_shared<{swizzlingByteWidth = 32, transposed = true, elementBitWidth = 32}>>",
                 "tensor<!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], "
                 "warpsPerCTA = [4, 1], order = [1, 0]}>>"):
        t = mlir.parse(text)
        assert str(t) == text and mlir.parse(str(t)) == t


def test_long_dotted_class_names_are_refused_early():
    from converters import gluon

    assert _quick(gluon.parse, "gl" + ".Nope" * 200_000, limit=10) == "refused"


def test_a_long_cute_shape_is_refused_before_any_work():
    """A 300 KB CuTe shape with no strides: refused at the rank cap, not after computing every
    stride (MemoryError, +1.8 GB before)."""
    from converters import registry

    with pytest.raises(LayoutError, match="more than 64 modes"):
        registry.load("(" + ",".join(["16"] * 75000) + ")")


def test_tile_round_trip_keeps_an_extent_one_thread_axis():
    """``S[(1,):(4@warpid,)] + R[2:1]`` is a distributed layout; its linear form and back must stay
    one (it came back as a memory layout)."""
    import linlayout
    from converters import tile

    t = tile.parse("S[(1,):(4@warpid,)] + R[2:1]")
    back = tile.TileLayout.from_linear(t.to_linear())
    assert t.kind == back.kind == "distributed" and linlayout.equivalent(t, back)


@pytest.mark.parametrize("codomain", [(0,), (-4,), (4, 0)])
def test_normalize_descriptor_refuses_non_positive_codomain_extents(codomain):
    from converters.cute import normalize_descriptor, parse_descriptor

    with pytest.raises(LayoutError, match="extents are positive integers"):
        normalize_descriptor((2,), parse_descriptor("(1@0)"), codomain=codomain)


# ------------------------------------------------------------------------------ CuTe


@pytest.mark.parametrize("desc", ["(1@100000000)", "((1@0, 8@1), 1@2147483648)", "(1@99999999999999)"])
def test_normalize_descriptor_refuses_a_codomain_mode_past_max_rank(desc):
    """The codomain was sized by the largest '@' index: (1@100000000) took 15 s and 1.5 GB."""
    from converters import cute
    from linlayout.errors import BasisError

    d = cute.parse_descriptor(desc)
    tree_shape = tuple(2 if not isinstance(t, tuple) else (2,) * len(t) for t in d.tree)
    assert _quick(cute.normalize_descriptor, tree_shape, d, limit=5.0) == "refused"
    with pytest.raises(BasisError, match="MAX_RANK"):
        cute.normalize_descriptor(tree_shape, d)


def test_descriptor_tuple_past_max_rank_is_a_parse_error():
    from converters import cute

    with pytest.raises(ParseError, match="MAX_RANK"):
        cute.parse_descriptor("(" + ",".join(["1@0"] * 65) + ")")
    assert len(cute.parse_descriptor("(" + ",".join(["1@0"] * 64) + ")").tree) == 64


@pytest.mark.parametrize("text", ["2:-1 -> (1); warp_size=\u00b2", "4:1 -> 16; warp_size=\u00b2\u00b2\u00b2",
                                  "(32,4):(4,1) -> (16,8); warp_size=" + "9" * 30])
def test_tv_warp_size_is_our_integer_grammar(text):
    """The fuzzer's find: str.isdigit accepts '\u00b2', int() does not (ValueError, 62 of 100,000 inputs)."""
    from converters import cute

    with pytest.raises(ParseError):
        cute.parse_tv(text)


# ------------------------------------------------------------------------------ API round 3 (issue 20's remainder)

_HUGE = range(10**12)  # a "list" of 10**12 entries: list() of it is a MemoryError


def _deep(n: int) -> object:
    t: object = 1
    for _ in range(n):
        t = (t,)
    return t


def _api_round3_cases():
    from converters import cute
    from converters.gluon import BlockedLayout, NVMMADistributedLayout
    from converters.tile.layout import TileLayout
    from linlayout import checks, smem_atoms, tabulate
    from linlayout.app import space

    blocked = BlockedLayout([1, 1], [4, 8], [2, 2], [1, 0])
    mma = NVMMADistributedLayout([2, 0], [2, 2], [16, 8])
    L = cute.parse("(2,2):(1,2)")
    return {
        "TileLayout.group": lambda: TileLayout.parse("S[(4,4):(3@laneid,12@laneid)]").group(_HUGE),
        "TileLayout.group 10**5 ones": lambda: TileLayout.parse("S[(4,4):(3@laneid,12@laneid)]").group([1] * 100_000),
        "cute.offset_map in_dims": lambda: cute.offset_map(L, in_dims=_HUGE),
        "cute.offset_map flat in_dims": lambda: cute.offset_map(L, flat=True, in_dims=_HUGE),
        "cute.to_general shape": lambda: cute.to_general(L, shape=_HUGE),
        "space.classify": lambda: space.classify(_HUGE, [128]),
        "LinearLayout.from_flat bases": lambda: LinearLayout.from_flat({"i": _HUGE}, [("o", 4)]),
        "MixedRadixLayout digits": lambda: MixedRadixLayout(_HUGE),
        "MixedRadixLayout digit list": lambda: MixedRadixLayout({"i": _HUGE}),
        "select_swizzle_width": lambda: smem_atoms.select_swizzle_width(_HUGE, "fp16"),
        "select_swizzle_width cga": lambda: smem_atoms.select_swizzle_width([64, 64], "fp16", cga_layout=[["x"]]),
        "tile_by_atoms '-1'": lambda: smem_atoms.tile_by_atoms("m", "-1"),
        "tile_by_atoms atom": lambda: smem_atoms.tile_by_atoms(smem_atoms.MmaAtom(16, 128), ["-", 1]),
        "Blocked.dot_operand_builder(True)": lambda: blocked.dot_operand_builder(True, 1, [16, 16], []),
        "NVMMA.dot_operand_builder shape []": lambda: mma.dot_operand_builder(print, 4, [], ""),
        "NVMMA.dot_operand_builder shape rank": lambda: mma.dot_operand_builder(0, 2, [], []),
        "cute.Layout.crd2idx 900 deep": lambda: L.crd2idx(_deep(900)),
        "checks.span_sizes rank": lambda: checks.span_sizes("offset", 0),
        "checks.span_sizes vector": lambda: checks.span_sizes([[2**62]], 0),
        "checks.span_sizes huge rank": lambda: checks.span_sizes([], 2**62),
        "tabulate.value_range": lambda: tabulate.value_range([[-1]], "\x00", "128B"),
        "tabulate.smallest_dtype str": lambda: tabulate.smallest_dtype("x", 3),
        "tabulate.smallest_dtype nan": lambda: tabulate.smallest_dtype(float("nan"), 3),
    }


@pytest.mark.parametrize("name", sorted(_api_round3_cases()))
def test_api_round3_foreign_exceptions_are_layout_errors(name):
    """The API fuzzer's remaining foreign exceptions (MemoryError from a range(10**12) where a
    list goes, int('-'), IndexError, RecursionError): each a LayoutError now, at once."""
    assert _quick(_api_round3_cases()[name], limit=5.0) == "refused"


def test_api_round3_fixes_keep_the_good_path():
    from converters import cute
    from converters.gluon import BlockedLayout, DotOperandLayout
    from linlayout import checks, smem_atoms, tabulate
    import numpy as np

    L = cute.parse("(2,2):(1,2)")
    assert list(cute.offset_map(L, in_dims=("a", "b")).in_dims) == ["a", "b"]
    assert checks.span_sizes(iter([(0, 1), (3, 0)]), 2) == [4, 2]
    assert tabulate.value_range([(3, (1, 0)), (2, (0, -5))], (0, 1), "add") == (-4, 2)
    assert smem_atoms.select_swizzle_width(range(64, 129, 64), "fp16") == 128
    assert smem_atoms.tile_by_atoms(smem_atoms.MmaAtom(16, 128), (np.int64(16), 128)) == \
        smem_atoms.tile_by_atoms(smem_atoms.MmaAtom(16, 128), (16, 128))
    assert LinearLayout.from_flat({"i": range(1, 3)}, [("o", 4)]).bases["i"] == ((1,), (2,))
    dot = DotOperandLayout(0, BlockedLayout([1, 1], [4, 8], [2, 2], [1, 0]), 1)
    assert dot.to_linear([16, 16]) == dot.to_linear((16, 16))
    from converters.cute.layout import format_int_tuple

    assert "(...)" in format_int_tuple(_deep(100))


@pytest.mark.parametrize("value, ok", [("9223372036854775807", False), ("-1", False), ("65537", False),
                                       ("65536", True), ("0", True)])
def test_show_max_cells_is_capped_at_max_grid_cells(value, ok, capsys):
    """`show --max-cells 2**63` printed a 16,384-cell grid at 870 MB of peak memory; the option is
    now refused above linlayout.limits.MAX_GRID_CELLS."""
    from linlayout.app.cli import main
    from linlayout.limits import MAX_GRID_CELLS

    assert MAX_GRID_CELLS == 65536
    rc = main(["show", "BlockedLayout([1],[32],[4],[0])", "--shape", "128", "--max-cells", value])
    err = capsys.readouterr().err
    assert (rc == 0) == ok, err
    if not ok:
        assert rc == 2 and "MAX_GRID_CELLS" in err and err.strip().count("\n") == 0


@pytest.mark.parametrize("shape, warps", [([8, 8, 2], 2), ([128, 64], 128), ([256, 128], 128)])
def test_slice_spellings_streams(shape, warps):
    """slice_spellings([8, 8, 2], 2) built a list of 688,128 dicts (3-7 s, up to 1 GB); it is now
    the lazy sequence: its length at once, any spelling by index, the same spellings as slice_space."""
    import tracemalloc

    from linlayout.app import spellings

    tracemalloc.start()
    try:
        sp = spellings.slice_spellings(shape, warps)
        n = len(sp)
        last = sp[-1]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    lazy = spellings.slice_space(shape, warps)
    assert n == len(lazy) > 100_000 and last == lazy[n - 1] and sp[n // 2] == lazy[n // 2]
    assert peak < 10 << 20, peak  # the list was ~900 bytes a spelling


def _wrong_type_cases():
    import numpy as np

    from converters import cute, registry
    from converters.cute.algebra import make_ordered_layout
    from converters.cute.descriptor import Basis
    from converters.gluon import BlockedLayout, NVMMASharedLayout, SliceLayout
    from converters.gluon.tmem import tmem_view_layout
    from converters.tile.layout import TileLayout
    from converters.tilus import local
    from linlayout import draw
    from linlayout.app import spellings
    from linlayout.swizzle import Swizzle

    L = LinearLayout({"lane": [[1], [2]], "warp": [[4]]}, {"dim0": 8})
    G = MixedRadixLayout({"x": [(3, 1, "m"), (4, 8, "laneid")]})
    R = local(2, 4)
    return {
        "LinearLayout.apply(int)": lambda: L.apply(2147483648),
        "LinearLayout.apply_flat(tuple)": lambda: L.apply_flat((1,)),
        "LinearLayout.sublayout(layout)": lambda: L.sublayout("lane", L),
        "LinearLayout.sublayout(unhashable)": lambda: L.sublayout([["lane"]], ["dim0"]),
        "MixedRadixLayout.apply(int)": lambda: G.apply(0),
        "MixedRadixLayout.apply_all(int)": lambda: G.apply_all(64),
        "MixedRadixLayout.to_linear(out_dims=tuple)": lambda: MixedRadixLayout({"x": [(2, 1, "m")]}).to_linear(out_dims=(2, 2)),
        "cute Layout.same_function(str)": lambda: cute.parse("(2,2):(1,2)").same_function("0x10"),
        "cute Basis(float)": lambda: Basis("lane", 0.5, index=32),
        "cute make_ordered_layout(order=Swizzle)": lambda: make_ordered_layout((2, 2), order=Swizzle(3, 4, 3)),
        "TileLayout.from_general(LinearLayout)": lambda: TileLayout.from_general(L),
        "TileLayout.span(list)": lambda: TileLayout.parse("S[(4,8):(1@TLane,1@TCol)]").span(["TLane"]),
        "Swizzle.from_linear(list)": lambda: Swizzle.from_linear([1, 2]),
        "draw.thread_color(dict)": lambda: draw.thread_color({"x": [None]}),
        "dot_operand_spellings(int)": lambda: spellings.dot_operand_spellings(np.int64(-1)),
        "dot_operand_spellings([str])": lambda: spellings.dot_operand_spellings(["x"]),
        "blocked_space(max_size_per_thread=list)": lambda: spellings.blocked_space([64, 64], 16, max_size_per_thread=[16, 16]),
        "mma_spellings(versions=int)": lambda: spellings.mma_spellings([64, 64], 4, versions=3),
        "tilus with_shape(int)": lambda: R.with_shape(3),
        "tilus get_global(list)": lambda: R.get_global(spatial_index=[-1], local_index=0),
        "registry.convert(form=bytearray)": lambda: registry.convert(L, bytearray(b"12")),
        "NVMMASharedLayout.get_default_for(bool)": lambda: NVMMASharedLayout.get_default_for(True, "fp16"),
        "tmem_view_layout(SliceLayout)": lambda: tmem_view_layout(SliceLayout(1, BlockedLayout([1, 4], [8, 4], [2, 2], [1, 0])), (4, 8), element_ty=8),
    }


@pytest.mark.parametrize("name", sorted(_wrong_type_cases()))
def test_wrong_type_arguments_are_layout_errors(name):
    """The API fuzzer's wrong-type class (a TypeError/AttributeError from an argument of the wrong
    Python type), checked at the public entry point now."""
    assert _quick(_wrong_type_cases()[name], limit=5.0) == "refused"


def test_tv_table_of_a_huge_tile_extent():
    """TVLayout.table() computed `idx % extent` in the layout table's own (uint8) dtype:
    OverflowError for a tile extent of 2**62 - 1 (17 of 30,000 API calls on the merged code)."""
    from converters.cute.tv import parse_tv

    t = parse_tv("(8,(2,2)):(2,(1,16)) -> (4611686018427387903)")
    assert t.table().dtype == np.int64
    assert t.table()[:, :, 0].tolist() == [[t(th, v)[0] for v in range(t.num_values)] for th in range(t.num_threads)]
    assert t.to_general().apply(register=3, lane=5) == {"dim0": 10 + 1 + 16}
    assert _quick(t.to_general, _HUGE, limit=5.0) == "refused"


def test_tabulate_xor_dtype_syntax_error():
    """np.dtype('01') raises SyntaxError (numpy evaluates the string)."""
    from linlayout import tabulate
    from linlayout.dtypes import element_bitwidth

    assert _quick(tabulate.tabulate_xor, [1], [(0, 1)], "01") == "refused"
    assert _quick(tabulate.tabulate, [(2, (1,))], (0,), "add", "01") == "refused"
    assert _quick(element_bitwidth, "01") == "refused"


def _classify_in_a_daemon(_: int) -> int:
    from linlayout.app import space

    sp = [{"kind": "BlockedLayout", "size_per_thread": [1], "threads_per_warp": [32], "warps_per_cta": [4], "order": [0]}] * 600
    return space.classify(sp, [128]).num_classes


def test_classify_in_a_daemonic_worker_runs_serially():
    """classify of over SERIAL_THRESHOLD listed spellings started a process pool, which a
    multiprocessing worker (daemonic) may not: AssertionError 'daemonic processes are not allowed
    to have children'."""
    import multiprocessing as mp

    with mp.get_context("fork").Pool(1) as pool:
        assert pool.apply(_classify_in_a_daemon, (0,)) == 1


def test_a_cute_layout_of_100000_modes_is_refused_quickly_by_draw():
    """The API fuzzer's hang: to_svg of a CuTe layout with 100,000 unit modes built a LinearLayout
    of 100,000 out-dims and looked each up by a linear scan (over 20 s); layouts have at most
    MAX_RANK out-dims, checked wherever one is built."""
    import time

    from converters import cute
    from linlayout import draw
    from linlayout.errors import SizeError
    from linlayout.limits import MAX_RANK

    L = cute.Layout(tuple([1] * 100_000), tuple([1] * 100_000))
    t = time.perf_counter()
    with pytest.raises(SizeError, match=f"at most {MAX_RANK}"):
        draw.to_svg(L)
    assert time.perf_counter() - t < 10  # a loose guard against a hang, not a timing target
    with pytest.raises(SizeError, match=f"more than {MAX_RANK}"):
        LinearLayout({}, [f"d{i}" for i in range(MAX_RANK + 1)])


def test_a_sweep_of_chained_spaces_is_capped_as_a_whole():
    """The CLI fuzzer's hang: `space --shape 256,8,1 --kind slice --max-size-per-thread 2**32`
    chained slice spaces of < MAX_SPELLINGS each into 1,935,360 spellings; the chain is checked."""
    from linlayout.app import spellings
    from linlayout.errors import SizeError

    with pytest.raises(SizeError, match="1935360 spellings"):
        spellings.slice_space([256, 8, 1], 4, max_size_per_thread=2**32)
    assert len(spellings.slice_space([128, 128], 4)) == 145152  # a legitimate chain still passes


def test_a_typed_ir_value_without_a_general_form_is_refused_not_crashed():
    """The CLI fuzzer's find: `equiv` of a tensor type against a non-power-of-two CuTe TV layout
    asked the tensor type's Blocked layout for to_general (AttributeError, exit 3)."""
    from converters import mlir
    from linlayout.errors import LayoutError

    t = mlir.parse("tensor<2048xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
                   "warpsPerCTA = [4], order = [0]}>>")
    with pytest.raises(LayoutError):
        t.to_general()
    with pytest.raises(LayoutError, match="not \\[8, 16, 4\\]"):
        equivalent(t, t, shape=[8, 16, 4])
    assert equivalent(t, t).relation == "identical"


# ------------------------------------------------------------------------------ wrong-type arguments (API fuzzer, seed 1)
# Each one raised a TypeError, AttributeError or numpy's "truth value of an array" before.


def test_descriptor_of_a_non_basis_tree_is_refused():
    """`basis_layout(shape, Descriptor(<a RegisterLayout, an int, a set ...>))`: AttributeError 'den'."""
    from converters.cute.descriptor import Basis, Descriptor, basis_layout, parse_descriptor
    from linlayout.errors import BasisError

    for tree in (3, {1}, np.int64(2), (parse_descriptor("(1@0)").tree[0], "x"), LinearLayout.empty()):
        with pytest.raises(BasisError, match="leaf must be a Basis"):
            Descriptor(tree)
    assert isinstance(parse_descriptor("(1@0, 8@1)").tree[1], Basis)
    assert basis_layout((4, 8), "(1@0, 1@1)")((3, 2)) == (3, 2)


@pytest.mark.parametrize("shape", [type, 2147483648, 3, LinearLayout.empty(), MixedRadixLayout({"x": [(2, 1, "m")]}),
                                   [np.array([1, 2]), 4], [16, 4.0]], ids=_id)
def test_tilus_shape_of_the_wrong_type_is_refused(shape):
    from converters.tilus import local

    L = local(2, 1).spatial(8, 4)
    for method in (L.to_linear, L.to_general):
        with pytest.raises(SizeError, match="a shape is a list of integers|must be an int"):
            method(shape)
    assert L.to_linear((16, 4)) == L.to_linear([np.int64(16), 4])


def test_text_grid_style_and_max_replicas_of_the_wrong_type():
    from linlayout import draw

    L = LinearLayout({"lane": [[0, 1], [1, 0]], "warp": [[0, 0]]}, {"dim0": 2, "dim1": 2})
    with pytest.raises(LayoutError, match="style must be"):
        draw.text_grid(L, style=np.zeros((2, 2), dtype=np.uint8))
    for bad in (None, "2", 1.5):
        with pytest.raises(LayoutError, match="max_replicas must be an integer"):
            draw.text_grid(L, max_replicas=bad)
    with pytest.raises(LayoutError, match=">= 0"):
        draw.text_grid(L, max_replicas=-1)
    assert draw.text_grid(L, max_replicas=np.int64(1)) == draw.text_grid(L, max_replicas=1)


def test_tensor_memory_alloc_shape_and_instr_variant_of_the_wrong_type():
    from converters.cute.descriptor import parse_descriptor
    from converters.gluon import BlockedLayout, SliceLayout, TensorMemoryLayout, TensorMemoryScalesLayout
    from converters.gluon.tmem import tmem_reg_layout

    for alloc in (np.float64("nan"), parse_descriptor("(1@0)"), (128, 64.0)):
        with pytest.raises(LayoutError, match="alloc_shape"):
            TensorMemoryScalesLayout().cta_split((4, 8), alloc_shape=alloc)
    t = TensorMemoryLayout([128, 64], 1)
    for variant in (np.zeros((2, 2)), np.array([1, 2]), 3):
        with pytest.raises(LayoutError, match="unknown instr_variant"):
            t.reg_layout((128, 64), element_bitwidth=32, instr_variant=variant)
        with pytest.raises(LayoutError, match="unknown instr_variant"):
            tmem_reg_layout(SliceLayout(1, BlockedLayout([1, 4], [8, 4], [2, 2], [1, 0])), [128, 64],
                            element_bitwidth=32, instr_variant=variant)


def test_cute_tmem_layout_shape_of_the_wrong_type():
    from converters.cute.tmem import TmemLayout

    t = TmemLayout.accumulator(128, 8, value_bits=16)
    for shape in (LinearLayout.empty(), 5, "128,8"):
        with pytest.raises(LayoutError, match="shape"):
            t.to_linear(shape)
    assert t.to_linear([128, 8]) == t.to_linear()


def test_sweep_executor_without_submit_is_refused():
    from linlayout.app.space import classify
    from linlayout.app.sweep import sweep

    with pytest.raises(LayoutError, match="executor must be an Executor"):
        classify([9223372036854775808], (2, 2), executor=[[1, 2], [3]])
    with pytest.raises(LayoutError, match="executor must be an Executor"):
        sweep(abs, list(range(300)), executor=object())
    assert sweep(abs, [-1, 2], executor="serial") == [1, 2]


def test_spellings_limit_and_atoms_kind_and_nvmma_shared_fields_of_the_wrong_type():
    from converters.cute.atoms import atoms
    from converters.gluon import BlockedLayout, NVMMASharedLayout
    from converters.gluon.spell import spellings

    L = BlockedLayout([1, 1], [8, 4], [2, 2], [1, 0]).to_linear([16, 8])
    for limit in (object(), 1.5, -1):
        with pytest.raises(LayoutError, match="spellings: limit"):
            spellings(L, [16, 8], limit=limit)
    assert len(spellings(L, [16, 8], limit=np.int64(1))) == 1
    with pytest.raises(LayoutError, match="atoms: kind"):
        atoms(kind=np.array([1, 2]))
    with pytest.raises(SizeError, match="element_bitwidth must be an integer"):
        NVMMASharedLayout(0, np.array([1, 2]))
    with pytest.raises(LayoutError, match="swizzle_byte_width must be an integer"):
        NVMMASharedLayout([128], 16)
    assert NVMMASharedLayout(np.int64(128), np.int64(16)) == NVMMASharedLayout(128, 16)


def test_classify_up_to_and_nvmma_swizzle_unit_of_the_wrong_type():
    from converters.gluon import NVMMASharedLayout
    from linlayout.app.space import classify

    with pytest.raises(LayoutError, match="up_to must be"):
        classify(7, ["x"], executor="block", up_to=np.zeros((2, 2), dtype=np.uint8))
    lay = NVMMASharedLayout(128, 16)
    with pytest.raises(LayoutError, match="unit must be"):
        lay.swizzle(np.array([], dtype=np.int64))
    assert lay.swizzle() == lay.swizzle("element")


# ------------------------------------------------------------------------------ the same, found with seeds 2, 3 and 20


def test_normalize_descriptor_reads_a_list_shape_as_a_tuple():
    from converters.cute.descriptor import normalize_descriptor
    from linlayout.errors import BasisError

    with pytest.raises(BasisError, match="not congruent"):
        normalize_descriptor([32], "-1")  # TypeError: list - int, before
    assert normalize_descriptor((4, [2, 2]), "(1@0,(1@1,2@1))") == normalize_descriptor((4, (2, 2)), "(1@0,(1@1,2@1))")


def test_mixed_radix_complement_in_dim_must_be_a_name():
    with pytest.raises(DimensionError, match="in_dim must be a name"):
        MixedRadixLayout({"x": [(4, 2, "m")]}).complement({"m": 16}, in_dim=[1])
    assert MixedRadixLayout({"x": [(4, 2, "m")]}).complement({"m": 16}, in_dim="r").in_dim_names == ("r",)


def test_tmem_accumulator_ctas_of_the_wrong_type():
    from converters.cute.tmem import TmemLayout

    with pytest.raises(SizeError, match="ctas must be an integer"):
        TmemLayout.accumulator(3, 0, value_bits=64, ctas=" register", storage_bits="offset")
    with pytest.raises(SizeError, match="ctas must be >= 1"):
        TmemLayout.accumulator(128, 8, ctas=0)


def test_check_dot_operand_hooks_check_their_arguments():
    from converters.gluon import AMDMFMALayout, AMDWMMALayout, BlockedLayout, NVMMADistributedLayout

    for parent in (BlockedLayout([1, 1], [8, 4], [2, 2], [1, 0]), AMDWMMALayout(2, False, []),
                   NVMMADistributedLayout([2, 0], [2, 2], [16, 8]), AMDMFMALayout(3, [16, 16, 16], False, [2, 2])):
        with pytest.raises(LayoutError, match="k_width must be an int"):
            parent.check_dot_operand(0, LinearLayout.empty(), "who")
        with pytest.raises(LayoutError, match="operand_index must be 0"):
            parent.check_dot_operand(np.zeros((2, 2)), 8, "who")
        parent.check_dot_operand(0, 8, "who")


def test_layout_picture_bitwidth_and_title_of_the_wrong_type():
    from converters.cute import Layout
    from linlayout import draw

    L = Layout((8, 4), (4, 1))
    for bad in (type, Layout((2,), (1,)), 12):
        with pytest.raises(LayoutError, match="bitwidth"):
            draw.layout_picture(L, bitwidth=bad)
    with pytest.raises(LayoutError, match="title must be text"):
        draw.layout_picture(L, title=3)
    assert draw.layout_picture(L, bitwidth=np.int64(16)).labels() == draw.layout_picture(L, bitwidth=16).labels()


def test_a_tiler_nested_too_deep_is_refused_not_a_recursion_error():
    from converters.cute import Layout
    from converters.cute.algebra import flat_divide, logical_divide, zipped_divide, zipped_product

    deep: object = 1
    for _ in range(900):
        deep = (deep,)
    for op, A in ((flat_divide, Layout(0, 1)), (zipped_product, Layout((256, 128), (1, 256))), (logical_divide, Layout(0, 1))):
        assert _quick(op, A, deep) == "refused"
        with pytest.raises(LayoutError, match="nested deeper than 64"):
            op(A, deep)
    assert str(zipped_divide(Layout((8, 8), (8, 1)), (2, 4))) == "((2,4),(4,2)):((8,1),(16,4))"


def test_tilus_flatten_dims_and_tirx_swizzle_address_of_the_wrong_type():
    from converters.tile.compose import swizzle_address
    from converters.tilus import flatten, local

    L = local(2, 3, 4)
    for start, end in ((2, [0]), (bytearray(b"x"), -1), (10**52, -1)):
        with pytest.raises(DimensionError):
            flatten(L, start, end)
    assert flatten(L, np.int64(1)).shape == (2, 12)
    with pytest.raises(SizeError, match="swizzle_address: x"):
        swizzle_address("0x10", 4, 7, 0)
    with pytest.raises(SizeError, match="addresses must be integers"):
        swizzle_address(np.array([1.5]), 0, 2, 3)
    assert swizzle_address(10, 0, 2, 3) == 11 and swizzle_address(np.array([10]), 0, 2, 3).tolist() == [11]


def test_sweep_progress_and_dot_operand_spellings_bitwidth_of_the_wrong_type():
    from linlayout.app.space import classify
    from linlayout.app.spellings import dot_operand_spellings, mma_spellings

    sp = [{"kind": "BlockedLayout", "size_per_thread": [1], "threads_per_warp": [32], "warps_per_cta": [4], "order": [0]}]
    with pytest.raises(LayoutError, match="progress must be a bool"):
        classify(sp, [128], progress=np.array([], dtype=np.int64))
    assert classify(sp, [128], progress=0).class_sizes() == [1]
    parent = mma_spellings([64, 64], 4, versions=[2])[0]
    with pytest.raises(SizeError, match="bitwidth must be an integer"):
        dot_operand_spellings([parent], bitwidth=np.array([1, 2]))
    assert dot_operand_spellings([parent], bitwidth=np.int64(16)) == dot_operand_spellings([parent])


def test_composition_with_a_deep_tiler_and_offset_map_names_and_complement_sizes():
    from converters.cute import Layout
    from converters.cute.algebra import composition
    from converters.cute.memory_map import offset_map

    deep: object = 1
    for _ in range(900):
        deep = (deep,)
    assert _quick(composition, Layout((4, (2, 2)), (1, (4, 8))), deep) == "refused"  # RecursionError before
    with pytest.raises(DimensionError, match="dim names are strings"):
        offset_map(Layout((8, 4), (1, 8)), in_dims=[[1], "b"])
    with pytest.raises(DimensionError, match="dim names are strings"):
        offset_map(Layout((8, 4), (1, 8)), out_dim=["offset"])
    m = MixedRadixLayout({"x": [(4, 2, "m")]})
    with pytest.raises(DimensionError, match="out_dims must map"):
        m.complement(np.zeros((2, 2), dtype=np.uint8), "linear")
    with pytest.raises(SizeError, match=r"out_dims\['m'\] must be an integer"):
        m.complement({"m": "x"})


def test_a_cute_layout_of_100000_modes_is_refused_before_any_work_per_mode():
    """`Layout.to_linear()`, `offset_map` and `draw.bank_picture` of 100,000 unit modes took 2.0-2.5 s
    on the loaded machine (over the fuzz bound) before refusing the 100,000 out-dims."""
    from converters.cute import Layout
    from converters.cute.memory_map import offset_map
    from linlayout import draw

    L = Layout((1,) * 100_000, (1,) * 100_000)
    for fn, args in ((L.to_linear, ()), (offset_map, (L,)), (draw.bank_picture, (L, 128))):
        assert _quick(fn, *args, limit=1.0) == "refused"
    with pytest.raises(SizeError, match="100000 top-level modes"):
        offset_map(L)
    assert offset_map(Layout((1,) * 1000, (1,) * 1000), flat=True).in_dims == {"index": 1}


def test_composed_cosize_of_an_empty_domain_and_tile_size_axis_of_the_wrong_type():
    from converters.cute import parse
    from converters.tile import TileLayout

    assert parse("S<1,0,1> o 0 o (2,0):(1,2)").cosize() == 0  # numpy's max of an empty array, before
    assert parse("S<1,0,1> o 0 o (2,2):(1,2)").cosize() == 4
    L = TileLayout.parse("S[(2,7):(5@laneid,32)]")
    with pytest.raises(LayoutError, match="size: axis"):
        L.size(np.zeros((2, 2), dtype=np.uint8))
    assert (L.size(), L.size("laneid")) == (14, 2)


def test_shared_wavefronts_reads_its_counts_as_integers():
    """`shared_wavefronts('x', 2, array)` failed with numpy's ambiguous truth value (fuzz seed 1):
    anything with ``__index__`` passed the check, a 1-d array included."""
    from linlayout.cost import shared_wavefronts

    with pytest.raises(LayoutError, match="conflicts must be an integer"):
        shared_wavefronts("st.shared", 2, np.zeros(2, dtype=np.int64))
    with pytest.raises(LayoutError, match="bits must be an integer"):
        shared_wavefronts("st.shared", True, 0)
    assert shared_wavefronts("st.shared", np.int64(128), np.uint8(1)) == 8


def test_dim_name_arguments_of_the_wrong_type_are_refused_by_name():
    """`LinearLayout.has_in_dim(array)`, `has_out_dim`, `flat_bases` (numpy's ambiguous truth
    value), `quotient([[1, 2], [3]])`, `is_trivial_over([["a"]])` (unhashable list) and
    `transpose_ins([array, ...])` (a ufunc error) failed with foreign exceptions (fuzz seeds 1-20)."""
    from linlayout import LinearLayout
    from linlayout.errors import DimensionError

    L = LinearLayout({"register": [[1]], "lane": [[2]]}, {"dim0": 4})
    calls = [lambda: L.has_in_dim(np.zeros(2)), lambda: L.has_out_dim(np.zeros(2)), lambda: L.flat_bases(np.zeros(2)),
             lambda: L.flat_bases(["lane"]), lambda: L.quotient([[1, 2], [3]]), lambda: L.is_trivial_over([["a"]]),
             lambda: L.transpose_ins([np.zeros(2), "lane"])]
    for call in calls:
        with pytest.raises(DimensionError, match="names must be non-empty strings"):
            call()
    assert L.has_in_dim("lane") and not L.has_in_dim("warp") and L.flat_bases("warp") == ()
    assert L.is_trivial_over(["warp"]) is False


# ------------------------------------------------------------------------------ wrong-type round 4


@pytest.mark.parametrize("bad", [[], 0.5, 3, "01", b"", (), {"x": None}, np.zeros((2, 2), dtype=np.uint8), iter([1])], ids=_id)
def test_word_cells_refuses_what_is_not_a_layout(bad):
    """`banks.word_cells(<not a layout>, 8)` failed with AttributeError `.out_dim_names` (fuzz seeds
    1-20, most of the wrong-type outcomes left): it now reads its layout as `bank_conflicts` does."""
    from linlayout.banks import word_cells

    with pytest.raises(LayoutError, match="word_cells: shared layout"):
        word_cells(bad, 8)


def test_word_cells_converts_layouts_of_other_forms_as_bank_conflicts_does():
    """A CuTe `Layout` or a `MixedRadixLayout` is converted (`as_linear`), not an AttributeError;
    without an 'offset' in-dim, a DimensionError."""
    from converters.cute import Layout
    from linlayout.banks import word_cells

    L = LinearLayout({"offset": [[1], [2]]}, {"dim0": 4})
    assert word_cells(L, 16) == {(0, 0): [(0,), (1,)], (0, 1): [(2,), (3,)]}
    cute = Layout(4, 1)
    assert word_cells(cute, 16) == word_cells(cute.to_linear(None), 16)
    with pytest.raises(DimensionError, match="'offset' input dim"):
        word_cells(LinearLayout({"register": [[1]]}, {"dim0": 2}), 16)
    with pytest.raises(LayoutError):
        word_cells(MixedRadixLayout({"x": [(3, 1, "m")]}), 16)


@pytest.mark.parametrize("bad", [None, "x", LinearLayout({"offset": [[1]]}, {"offset": 2}), np.zeros(2)], ids=_id)
def test_swizzled_shared_takes_a_swizzle(bad):
    """`swizzled_shared(L, SharedLinearLayout(...))` failed with a TypeError from that class's
    `to_linear` signature, `(L, None)` with AttributeError (fuzz seeds 1-20)."""
    from linlayout.banks import swizzled_shared
    from linlayout.swizzle import Swizzle

    plain = LinearLayout.identity_1d(16, "offset", "dim0")
    with pytest.raises(LayoutError, match="swizzled_shared: swizzle must be a Swizzle"):
        swizzled_shared(plain, bad)
    assert swizzled_shared(plain, Swizzle(1, 0, 2)).bases["offset"] == ((1,), (2,), (5,), (8,))


def test_swizzle_dim_names_and_unit_of_the_wrong_type():
    """`Swizzle.to_linear(in_dim={...})` / `(out_dim=[...])` (unhashable), `swizzle_for(unit=array)`
    (numpy's ambiguous truth value) (fuzz seeds 1, 20)."""
    from linlayout.swizzle import Swizzle, swizzle_for

    sw = Swizzle(1, 0, 1)
    for kw in ({"in_dim": {None: 1}}, {"out_dim": [1] * 100}, {"out_dim": set()}, {"out_dim": np.zeros((2, 2))}):
        with pytest.raises(DimensionError, match="must be dim names"):
            sw.to_linear(**kw)
    assert sw.to_linear(in_dim="a", out_dim="b").bases["a"] == ((1,), (3,))
    for unit in (np.array([1, 2]), np.array([]), None):
        with pytest.raises(LayoutError, match="unit must be"):
            swizzle_for("fp16", "128B", unit=unit)
    assert swizzle_for("fp16", "128B", unit="byte") == Swizzle(3, 4, 3)


def test_smem_atom_major_and_order_of_the_wrong_type():
    """`select_atom(..., major=array)` and `tile_by_atoms(..., order=array)` (numpy's ambiguous
    truth value; fuzz seeds 2, 3, 20)."""
    from linlayout.smem_atoms import MmaAtom, select_atom, tile_by_atoms

    with pytest.raises(LayoutError, match="major must be"):
        select_atom((64, 64), "fp16", major=np.array([1, 2]))
    with pytest.raises(LayoutError, match="major must be"):
        MmaAtom(16, 128, np.array([1, 2]))
    with pytest.raises(LayoutError, match="order must be"):
        tile_by_atoms(MmaAtom(16, 128), (16, 128), order=np.zeros((2, 2), dtype=np.uint8))
    assert select_atom((64, 64), "fp16", major="MN") == MmaAtom(16, 128, "MN")


def test_tabulate_refuses_a_huge_base_before_listing_it_and_an_op_of_the_wrong_type():
    """`tabulate(L, range(10**12))` listed the range (a MemoryError under the fuzzer's cap; fuzz
    seeds 2, 20); `tabulate(..., op=array)` and `value_range(..., array)` failed with numpy's
    ambiguous truth value."""
    from linlayout.tabulate import tabulate, value_range

    assert _quick(tabulate, [(2, (1,))], range(10**12)) == "refused"
    assert _quick(tabulate, [(2, range(10**12))], (0,)) == "refused"
    with pytest.raises(SizeError, match="the base has more than"):
        tabulate([(2, (1,))], range(10**12))
    with pytest.raises(LayoutError, match="digits must be a list"):
        tabulate(LinearLayout({"register": [[1]]}, {"dim0": 2}), (0,))
    for op in (np.array([1, 2]), np.array([])):
        with pytest.raises(LayoutError, match="op must be"):
            tabulate([(2, (1,))], (0,), op=op)
        with pytest.raises(LayoutError, match="op must be"):
            value_range([(2, (1,))], (0,), op)
    assert tabulate(iter([(2, (1,)), (2, (2,))]), range(1)).ravel().tolist() == [0, 1, 2, 3]


def test_schedule_counts_reads_its_bitwidth_and_as_int_shows_deep_values_in_a_line():
    """`schedule_counts(s, bitwidth=<a tuple nested 100,000 deep>)`: the bitwidth was not checked,
    and `as_int`'s message hit the recursion limit in `repr`."""
    from linlayout.checks import as_int
    from linlayout.plan import shuffle_schedule
    from linlayout.plan_shuffle import schedule_counts

    deep: object = 1
    for _ in range(100_000):
        deep = (deep,)
    with pytest.raises(SizeError, match=r"got tuple \(\(\(\(\.\.\.\),\),\),\)"):
        as_int(deep, "x")
    s = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
    d = LinearLayout({"register": [[32]], "lane": [[2], [4], [8], [16], [1]]}, {"dim0": 64})
    sched = shuffle_schedule(s, d)
    for bad in (deep, 3, -8, 2048, 2.0, True, np.zeros(2)):
        with pytest.raises(SizeError, match="schedule_counts: bitwidth"):
            schedule_counts(sched, bad)
    assert schedule_counts(sched, np.int64(32)) == schedule_counts(sched) == (1, 4)


def test_tv_table_of_tile_extents_or_indices_past_int64():
    """CuTe `TVLayout.table()` / `to_general()` of a tile extent past 2**63 raised OverflowError
    "int too large to convert to C long" (fuzz seeds 2, 6); a uint64 index table of indices past
    2**63 was cast to int64, wrapping to negative indices (a wrong table)."""
    from converters.cute import Layout
    from converters.cute.tv import TVLayout

    t = TVLayout(Layout((2, 2), (1, 2)), (4, 2**70))
    assert t.table().tolist() == [[[0, 0], [2, 0]], [[1, 0], [3, 0]]]
    assert t.to_general().apply(register=1, lane=1) == {"dim0": 3, "dim1": 0}
    m = 2**61  # index 2**63 at thread 3, value 3: coordinates (0, 2) of the (2**62, 16) tile
    wide = TVLayout(Layout(((2, 2), (2, 2)), ((m, m), (m, m))), (2**62, 16))
    table = wide.table()
    assert table.dtype == np.int64 and table[3, 3].tolist() == [0, 2]
    assert all(wide(th, v) == tuple(table[th, v].tolist()) for th in range(4) for v in range(4))
    with pytest.raises(SizeError, match="does not fit in 64 bits"):
        TVLayout(Layout(((2, 2), (2, 2)), ((m, m), (m, m))), (2**64, 16)).table()


def test_cute_format_layout_reads_cpp_as_a_flag():
    """`format_layout(<composed>, cpp=array([]))` failed with numpy's ambiguous truth value (fuzz seed 2)."""
    from converters.cute import parse
    from converters.cute.text import format_layout

    c = parse("S<3,4,3> o 0 o (8,64):(64,1)")
    for bad in (np.array([]), np.array([1, 2]), "yes", 2):
        with pytest.raises(LayoutError, match="format_layout: cpp must be a bool"):
            format_layout(c, cpp=bad)
    assert format_layout(c, cpp=np.True_) == format_layout(c, cpp=1) == c.to_cpp()
    with pytest.raises(LayoutError, match="got list"):
        format_layout([1] * 10**5)


def test_flags_forms_and_lists_of_the_wrong_type_found_on_seeds_4_to_9():
    """Seeds 4-9 (after the seed 1-20 fixes): `plan_conversion(stmatrix=array)` and its other
    matrix flags, `registry.parse(form=array)`, `TileLayout.to_linear(hardware_first=array)`
    (numpy's ambiguous truth value), `MixedRadixLayout.from_table(.., axes=2.0)`,
    `RegisterLayout.from_tile(L, 5)` (no len), and a foreign MemoryError from
    `SwizzledSharedLayout(1, 8, 32, range(10**12))`, which listed its order in full."""
    from converters import registry
    from converters.gluon.shared import SwizzledSharedLayout
    from converters.tile import TileLayout
    from converters.tilus import RegisterLayout
    from linlayout import LinearLayout
    from linlayout.mixed_radix import MixedRadixLayout
    from linlayout.plan import plan_conversion

    L = LinearLayout({"register": [[1]], "lane": [[2], [4], [8], [16], [32]]}, {"dim0": 64})
    for flag in ("stmatrix", "ldmatrix", "matrix_instructions"):
        with pytest.raises(LayoutError, match=f"{flag} must be a bool"):
            plan_conversion(L, L, **{flag: np.zeros(2)})
    assert plan_conversion(L, L, matrix_instructions=1).kind == "noop"
    with pytest.raises(LayoutError, match="form must be a form name"):
        registry.parse("[1]", form=np.zeros(2))
    with pytest.raises(LayoutError, match="hardware_first must be a bool"):
        TileLayout.parse("S[(2,7):(5@laneid,32)]").to_linear(hardware_first=np.zeros(2))
    t = MixedRadixLayout({"x": [(3, 1, "m"), (2, 10, "m")]}).table()
    with pytest.raises(LayoutError, match="axes must be a list"):
        MixedRadixLayout.from_table({"x": 6}, t, 2.0)
    tile = TileLayout.parse("S[(2,8,4,2):(2,4@laneid,1@laneid,1)]")
    with pytest.raises(LayoutError, match="shape must be a list"):
        RegisterLayout.from_tile(tile, 5)
    assert tuple(RegisterLayout.from_tile(tile, (16, 8)).shape) == (16, 8)
    assert _quick(SwizzledSharedLayout, 1, 8, 32, range(10**12), limit=1.0) == "refused"


def test_tmem_frg_mode_of_the_wrong_type_found_on_seed_43():
    """``tmem_frg(8, None, mode=<2x2 array>)`` (API fuzzer, seed 43): the membership test of the
    mode asked numpy for an array's truth value (a foreign ValueError); now a LayoutError naming
    the modes."""
    from converters.cute.tmem import tmem_frg

    with pytest.raises(LayoutError, match="mode is one of interleaved"):
        tmem_frg(8, None, mode=np.zeros((2, 2), np.uint8))
    with pytest.raises(LayoutError, match="mode is one of interleaved"):
        tmem_frg(8, (128, 64), mode=["interleaved"])


def test_offset_map_flag_and_from_matrix_range_found_on_seeds_45_46():
    """API fuzzer seeds 45 and 46: ``offset_map(..., flat=<array>)`` asked numpy for an array's
    truth value (now a LayoutError naming the flag), and ``LinearLayout.from_matrix(range(10**12),
    ...)`` had numpy copy the whole range (a MemoryError; now a SizeError before any copy)."""
    from converters.cute import Layout
    from converters.cute.memory_map import offset_map

    with pytest.raises(LayoutError, match="flat must be a bool"):
        offset_map(Layout((4, 8), (8, 1)), flat=np.zeros((2, 2), np.uint8))
    assert offset_map(Layout((4, 8), (8, 1)), flat=1).in_dim_names == ("index",)
    with pytest.raises(SizeError, match="1000000000000 rows, expected 64"):
        LinearLayout.from_matrix(range(10**12), [("a", 1 << 32), ("b", 1 << 32)], [("d", 2)] * 64)
    with pytest.raises(SizeError, match="rows must have 2 entries"):
        LinearLayout.from_matrix([range(10**12), [0, 1]], {"lane": 4}, {"dim0": 4})
    assert LinearLayout.from_matrix([[0, 1], [1, 0]], {"lane": 4}, {"dim0": 4}).bases == {"lane": ((2,), (1,))}


def test_mma_spellings_versions_of_the_wrong_type_found_on_seed_51():
    """API fuzzer seed 51: ``mma_spellings(..., versions=<2x2 array>)`` compared rows of the array
    with 2 (numpy's truth-value error); each version is now read as an int."""
    from linlayout.app.spellings import mma_spellings

    with pytest.raises(LayoutError, match="a version"):
        mma_spellings([64, 64], 16, versions=np.zeros((2, 2), np.uint8))
    assert len(mma_spellings([64, 64], 4, versions=np.array([3]))) == len(mma_spellings([64, 64], 4, versions=[3]))


def test_invert_names_and_swizzle_shape_iterator_found_on_seeds_60_62():
    """API fuzzer seeds 60 and 62: ``MixedRadixLayout.invert(in_dim_names=<nested list>)`` built a
    set of unhashable names (a TypeError; now a DimensionError naming the bad entry), and
    ``triton_swizzle_layout(..., shape=<iterator>)`` read the consumed iterator again for the
    out-dim sizes (a TypeError; now the list it read is used)."""
    from linlayout.swizzle import triton_swizzle_layout

    g = MixedRadixLayout({"x": [(3, 1, "m"), (2, 3, "m")]})
    with pytest.raises(DimensionError, match="in_dim_names must be a non-empty string"):
        g.invert(in_dim_names=[[["a"]]])
    assert g.invert(in_dim_names=["y"]).out_dims == {"y": 6}
    assert triton_swizzle_layout(2, 1, 4, iter([4, 8])) == triton_swizzle_layout(2, 1, 4, (4, 8))


def test_hardware_conflicts_checks_its_arguments():
    """The API fuzzer's default run on the merged honest-bank-count work: the new public
    ``banks.hardware_conflicts`` read its arguments unchecked (``bitwidth=[...]``: an
    AttributeError); each is now checked, and the planner calls the unchecked core."""
    from linlayout.banks import hardware_conflicts

    with pytest.raises(SizeError, match="bitwidth must be an integer"):
        hardware_conflicts([1.5, 2], "dim1", [2] * 65, 3)
    with pytest.raises(SizeError, match="more than 5 entries"):
        hardware_conflicts([1] * 7, 1, 32, 10)
    with pytest.raises(SizeError, match="wider than 128 bits"):
        hardware_conflicts([1], 8, 32, 10)
    with pytest.raises(SizeError, match=r"lane_offsets\[0\] must be an integer"):
        hardware_conflicts([1.5], 1, 32, 10)
    assert hardware_conflicts([32 << k for k in range(5)], 1, 32, 10) == 31


def test_select_swizzle_width_reads_an_array_cga_layout():
    """API fuzzer seed 1 (after this session's merges): ``select_swizzle_width(...,
    cga_layout=np.array([1, 2]))`` tested the array's truth value (numpy's ValueError); the
    layout is read as a list of bases first, so a flat array is refused by name and a 2-D one
    read as bases."""
    from linlayout.smem_atoms import select_swizzle_width

    with pytest.raises(LayoutError, match="cga_layout basis must be a list"):
        select_swizzle_width([256, 128], "fp8", cga_layout=np.array([1, 2]))
    assert select_swizzle_width([256, 128], "fp8", cga_layout=np.array([[1, 0]])) == \
        select_swizzle_width([256, 128], "fp8", cga_layout=[[1, 0]])


def test_format_coord_checks_its_flag_and_coordinate():
    """API fuzzer seed 1 after the CuTe slicing work: ``format_coord(c, cpp=<array>)`` tested an
    array's truth value; the flag is read as a bool."""
    from converters.cute.layout import _, format_coord

    with pytest.raises(LayoutError, match="cpp must be a bool"):
        format_coord(10**30, cpp=np.zeros((2, 2), np.uint8))
    assert format_coord((1, _), cpp=np.True_) == "(_1,_)"
