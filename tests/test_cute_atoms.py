"""converters.cute.atoms: CUTLASS's MMA and copy atoms as TV layouts, against Gluon/Triton and
against tables read off CUTLASS's traits headers.

Header line numbers cite NVIDIA/cutlass at 7107b05535f8977f5ecb9d01ee203205b1fd9bc4,
``include/cute/atom/``.  The expected (thread, value) -> element tables below were worked out by
hand from the strides the headers state, not by running our code.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from converters import gluon
from converters.cute import CopyAtom, MMAAtom, TVLayout, atoms, copy_atom, mma_atom, parse_tv, smem_atom
from linlayout import LinearLayout
from linlayout.equiv import equivalent
from linlayout.errors import LayoutError, NotLinearError, SizeError, UnsupportedError

POW2_N = [8, 16, 32, 64, 128, 256]


def _nk(L: LinearLayout) -> LinearLayout:
    """Gluon's B operand is over (K, N); CuTe's over (N, K): swap the out-dims."""
    return L.transpose_outs(["dim1", "dim0"]).rename_out_dim("dim0", "k").rename_out_dim("dim1", "dim0").rename_out_dim("k", "dim1")


# ------------------------------------------------------------------------------ MMA vs Gluon
def test_sm80_16x8x16_c_is_nvmma_v2():
    for name in ("SM80_16x8x16_F16F16F16F16_TN", "SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x16_F32BF16BF16F32_TN"):
        atom = mma_atom(name)
        assert isinstance(atom, MMAAtom) and atom.shape_mnk == (16, 8, 16) and atom.num_threads == 32
        g = gluon.NVMMADistributedLayout([2, 0], [1, 1], [16, 8])
        assert equivalent(atom.c, g, shape=[16, 8]).relation == "identical"
        assert atom.c.to_linear() == g.to_linear([16, 8]).sublayout(["register", "lane", "warp"], ["dim0", "dim1"])


@pytest.mark.parametrize("n", POW2_N)
@pytest.mark.parametrize("types, k", [("F32F16F16_SS", 16), ("F16F16F16_RS", 16), ("F32BF16BF16_RS", 16),
                                      ("F32TF32TF32_SS_TN", 8), ("F32E4M3E5M2_RS_TN", 32), ("S32S8U8_SS_TN", 32)])
def test_sm90_accumulators_are_nvmma_v3(n, types, k):
    atom = mma_atom(f"SM90_64x{n}x{k}_{types}")
    assert atom.shape_mnk == (64, n, k) and atom.num_threads == 128
    g = gluon.NVMMADistributedLayout([3, 0], [4, 1], [16, n, 16])
    assert equivalent(atom.c, g, shape=[64, n]).relation == "identical"


@pytest.mark.parametrize("name, k_width", [("SM90_64x64x16_F32F16F16_RS", 2), ("SM90_64x64x8_F32TF32TF32_RS_TN", 1),
                                           ("SM90_64x64x32_F32E4M3E4M3_RS_TN", 4), ("SM90_64x32x32_S32U8S8_RS_TN", 4)])
def test_sm90_register_a_is_the_dot_operand(name, k_width):
    atom = mma_atom(name)
    _, n, k = atom.shape_mnk
    parent = gluon.NVMMADistributedLayout([3, 0], [4, 1], [16, n, k])
    assert equivalent(atom.a, gluon.DotOperandLayout(0, parent, k_width), shape=[64, k]).relation == "identical"
    # the other k_widths are different layouts: the comparison can fail
    other = 1 if k_width != 1 else 2
    assert equivalent(atom.a, gluon.DotOperandLayout(0, parent, other), shape=[64, k]).relation == "different"


@pytest.mark.parametrize("name, k_width", [("SM80_16x8x16_F32F16F16F32_TN", 2), ("SM80_16x8x8_F32TF32TF32F32_TN", 1),
                                           ("SM80_16x8x32_S32S8S8S32_TN", 4)])
def test_sm80_operands_are_the_dot_operands(name, k_width):
    atom = mma_atom(name)
    _, _, k = atom.shape_mnk
    parent = gluon.NVMMADistributedLayout([2, 0], [1, 1], [16, 8])
    assert equivalent(atom.a, gluon.DotOperandLayout(0, parent, k_width), shape=[16, k]).relation == "identical"
    b = _nk(gluon.DotOperandLayout(1, parent, k_width).to_linear([k, 8]))
    assert equivalent(atom.b, b).relation == "identical"


@pytest.mark.parametrize("name, tile, cpp", [
    # TiledMMA::get_layoutC_TV / get_layoutA_TV of make_tiled_mma(atom), as CuTe C++ prints them
    # (CUTLASS 7107b05, g++ host build): the atom's layout with unit modes appended
    ("SM80_16x8x16_F32F16F16F32_TN", "c", "((4,8),((2,2),(1,1))):((32,1),((16,8),(0,0))) -> (16,8)"),
    ("SM80_16x8x16_F32F16F16F32_TN", "a", "((4,8),((2,2,2),(1,1))):((32,1),((16,8,128),(0,0))) -> (16,16)"),
    ("SM80_16x8x16_F32F16F16F32_TN", "b", "((4,8),((2,2),(1,1))):((16,1),((8,64),(0,0))) -> (8,16)"),
    ("SM90_64x64x16_F32F16F16_RS", "c", "((4,8,4),((2,2,8),(1,1))):((128,1,16),((64,8,512),(0,0))) -> (64,64)"),
    ("SM90_64x64x16_F32F16F16_RS", "a", "((4,8,4),((2,2,2),(1,1))):((128,1,16),((64,8,512),(0,0))) -> (64,16)"),
])
def test_atoms_are_cutes_tiled_mma_layouts(name, tile, cpp):
    assert equivalent(getattr(mma_atom(name), tile), parse_tv(cpp)).relation == "identical"


def test_sm80_16x8x16_operands_by_hand():
    # mma_traits_sm80.hpp:78-90: A ((4,8),(2,2,2)):((32,1),(16,8,128)) over (M,K) = (16,16);
    # PTX: a0,a1 at (lane/4, 2*(lane%4) + {0,1}), a2,a3 at row + 8, a4..a7 at column + 8
    a = mma_atom("SM80_16x8x16_F16F16F16F16_TN").a
    for lane in range(32):
        for v in range(8):
            assert a(lane, v) == (lane // 4 + 8 * ((v >> 1) & 1), 2 * (lane % 4) + (v & 1) + 8 * (v >> 2))
    # B ((4,8),(2,2)):((16,1),(8,64)) over (N,K) = (8,16): b0,b1 at k = 2*(lane%4) + {0,1}, n = lane/4
    b = mma_atom("SM80_16x8x16_F16F16F16F16_TN").b
    assert [b(5, v) for v in range(4)] == [(1, 2), (1, 3), (1, 10), (1, 11)]


def test_sm90_non_power_of_two_n_has_a_general_form():
    atom = mma_atom("SM90_64x24x16_F32BF16BF16_RS")
    assert str(atom.c) == "((4,8,4),(2,2,3)):((128,1,16),(64,8,512)) -> (64,24)"
    with pytest.raises(SizeError, match="not a power of two"):
        atom.c.to_linear()
    g = atom.c.to_general()
    # the wgmma accumulator: thread t = 32w + 4r + q, value (j, h, i): row 16w + r + 8h, col 8i + 2q + j
    for t in (0, 5, 37, 127):
        w, r, q = t // 32, (t % 32) // 4, t % 4
        for v in range(12):
            j, h, i = v % 2, (v // 2) % 2, v // 4
            want = (16 * w + r + 8 * h, 8 * i + 2 * q + j)
            assert atom.c(t, v) == want
            assert tuple(g.apply(register=v, lane=t % 32, warp=t // 32).values()) == want


def test_sm100_umma_atoms():
    atom = mma_atom("SM100_MMA_F16BF16_SS_128x256x16")
    assert atom.shape_mnk == (128, 256, 16) and atom.num_threads == 1
    # mma_traits_sm100.hpp:240-245: (1,(M,N)):(0,(1,M)): the one issuing thread holds the tile
    assert atom.c(0, 5 + 128 * 7) == (5, 7)
    L = atom.c.to_linear()
    assert L.in_dims == {"register": 128 * 256, "lane": 1, "warp": 1} and L.is_invertible()
    assert mma_atom("SM100_MMA_S8_TS_64x8x32").shape_mnk == (64, 8, 32)
    with pytest.raises(LayoutError, match="unknown MMA atom"):
        mma_atom("SM100_MMA_S8_SS_64x24x32")  # 8-bit UMMA takes N = 8 or a multiple of 16


# ---------------------------------------------------------------------------- copy atoms, tables
# (name, bits, side, [((thread, value), element or tile coordinate)], header line)
COPY_TABLES = [
    # copy_traits_sm75.hpp:42: Src ((8,4),128):((128,0),1), Dst (32,32):(32,1) bits
    ("SM75_U32x1_LDSM_N", 32, "dst", [((0, 0), (0,)), ((5, 0), (5,)), ((31, 0), (31,))]),
    ("SM75_U32x1_LDSM_N", 32, "src", [((0, 0), (0,)), ((1, 0), (4,)), ((7, 3), (31,)), ((8, 0), (0,)), ((13, 2), (22,))]),
    ("SM75_U32x1_LDSM_N", 16, "dst", [((5, 1), (11,)), ((31, 1), (63,))]),
    # copy_traits_sm75.hpp:59: Src ((16,2),128):((128,0),1), Dst (32,(32,2)):(32,(1,1024))
    ("SM75_U32x2_LDSM_N", 32, "dst", [((7, 1), (39,)), ((0, 1), (32,))]),
    ("SM75_U32x2_LDSM_N", 32, "src", [((17, 2), (6,)), ((15, 3), (63,))]),
    # copy_traits_sm75.hpp:76: Src (32,128):(128,1), Dst (32,(32,4)):(32,(1,1024))
    ("SM75_U32x4_LDSM_N", 16, "src", [((3, 5), (29,)), ((31, 7), (255,))]),
    ("SM75_U32x4_LDSM_N", 16, "dst", [((1, 0), (2,)), ((1, 3), (67,)), ((31, 7), (255,))]),
    # copy_traits_sm75.hpp:93: Src ((8,4),128):((128,0),1), Dst ((4,8),(16,2)):((256,16),(1,128))
    ("SM75_U16x2_LDSM_T", 16, "dst", [((0, 0), (0,)), ((1, 0), (16,)), ((4, 0), (1,)), ((5, 1), (25,)), ((31, 1), (63,))]),
    ("SM75_U16x2_LDSM_T", 16, "src", [((2, 5), (21,)), ((10, 5), (21,))]),
    # copy_traits_sm75.hpp:127: Dst ((4,8),(16,2,4)):((256,16),(1,128,1024))
    ("SM75_U16x8_LDSM_T", 16, "dst", [((6, 5), (169,)), ((31, 7), (255,))]),
    # copy_traits_sm90.hpp:43: STSM = LDSM with Src and Dst exchanged
    ("SM90_U32x1_STSM_N", 32, "src", [((5, 0), (5,))]),
    ("SM90_U32x1_STSM_N", 32, "dst", [((13, 2), (22,))]),
    ("SM90_U16x2_STSM_T", 16, "src", [((5, 1), (25,))]),
    # copy_traits_sm100.hpp:1458: Dst (32,32):(32,1), ValID (32,32):(1,DP_b): tile (column, data path)
    ("SM100_TMEM_LOAD_32dp32b1x", 32, "dst", [((0, 0), (0, 0)), ((17, 0), (0, 17))]),
    ("SM100_TMEM_LOAD_32dp32b1x", 32, "src", [((0, 0), (0, 0)), ((9, 0), (0, 0)), ((9, 13), (0, 13))]),
    # copy_traits_sm100.hpp:1492: Dst (32,64):(64,1)
    ("SM100_TMEM_LOAD_32dp32b2x", 32, "dst", [((7, 1), (1, 7))]),
    # copy_traits_sm100.hpp:467: Dst ((4,8),(64,2)):((64,256),(1,2048)), ValID (256,16)
    ("SM100_TMEM_LOAD_16dp256b1x", 32, "dst", [((5, 3), (3, 9)), ((31, 2), (6, 15)), ((0, 1), (1, 0))]),
    # copy_traits_sm100.hpp:676: Dst ((4,8),(32,2)):((32,128),(1,1024)), ValID (128,16)
    ("SM100_TMEM_LOAD_16dp128b1x", 32, "dst", [((6, 1), (2, 9)), ((3, 0), (3, 0))]),
    # copy_traits_sm100.hpp:914: Dst ((2,2,8),32):((512,32,64),1), ValID (64,16)
    ("SM100_TMEM_LOAD_16dp64b1x", 32, "dst", [((7, 0), (1, 9)), ((4, 0), (0, 1)), ((1, 0), (0, 8))]),
    # copy_traits_sm100.hpp:1186: Dst ((16,2),32):((64,32),1), ValID (64,16)
    ("SM100_TMEM_LOAD_16dp32b1x", 32, "dst", [((17, 0), (1, 1)), ((16, 0), (1, 0)), ((15, 0), (0, 15))]),
    # copy_traits_sm100.hpp:2550: the store's Src is the load's Dst
    ("SM100_TMEM_STORE_32dp32b1x", 32, "src", [((17, 0), (0, 17))]),
]


@pytest.mark.parametrize("name, bits, side, table", COPY_TABLES, ids=[f"{r[0]}-{r[1]}-{r[2]}" for r in COPY_TABLES])
def test_copy_atoms_against_the_headers(name, bits, side, table):
    atom = copy_atom(name, bits=bits)
    assert isinstance(atom, CopyAtom) and atom.bits == bits
    tv = getattr(atom, side)
    for (t, v), want in table:
        assert tv(t, v) == want, (t, v)


def test_copy_atom_defaults_and_sides():
    assert copy_atom("SM75_U16x8_LDSM_T").bits == 16 and copy_atom("SM75_U32x4_LDSM_N").bits == 32
    assert copy_atom("SM100_TMEM_LOAD_16dp256b4x").bits == 32
    ld, st = copy_atom("SM75_U16x4_LDSM_T"), copy_atom("SM90_U16x4_STSM_T")
    assert (ld.src, ld.dst) == (st.dst, st.src) and ld.registers == st.registers == ld.dst
    tl, ts = copy_atom("SM100_TMEM_LOAD_16dp128b8x"), copy_atom("SM100_TMEM_STORE_16dp128b8x")
    assert tl.registers == ts.registers == tl.dst == ts.src
    # ldmatrix's source: only 8 (x1) / 16 (x2) threads give row addresses, the rest are broadcast
    L = copy_atom("SM75_U32x1_LDSM_N").src.to_linear()
    assert L.bases["lane"][3:] == ((0,), (0,))


@pytest.mark.parametrize("variant, name", [("32x32b", "SM100_TMEM_LOAD_32dp32b{r}x"), ("16x256b", "SM100_TMEM_LOAD_16dp256b{r}x"),
                                           ("16x128b", "SM100_TMEM_LOAD_16dp128b{r}x"), ("16x64b", "SM100_TMEM_LOAD_16dp64b{r}x")])
@pytest.mark.parametrize("cols", [32, 64, 128])
def test_tcgen05_over_a_warpgroup_is_gluons_register_layout(variant, name, cols):
    per = {"32x32b": 1, "16x256b": 8, "16x128b": 4, "16x64b": 2}[variant]  # 32-bit columns per repetition
    reps = cols // per
    tv = copy_atom(name.format(r=reps)).over_warps(4)
    assert tv.tile == (128, cols) and tv.num_threads == 128
    g = gluon.tmem_reg_layout(gluon.TensorMemoryLayout([128, cols], 1), [128, cols], element_bitwidth=32,
                              num_warps=4, instr_variant=variant)
    assert equivalent(tv, g, shape=[128, cols]).relation == "identical"


def test_over_warps_refusals():
    with pytest.raises(UnsupportedError, match="not a tcgen05"):
        copy_atom("SM75_U32x1_LDSM_N").over_warps()
    with pytest.raises(SizeError, match="1, 2 or 4"):
        copy_atom("SM100_TMEM_LOAD_32dp32b1x").over_warps(8)
    assert copy_atom("SM100_TMEM_LOAD_32dp32b1x").over_warps(2).tile == (64, 1)


# -------------------------------------------------------------------------------- the library
def test_names_and_errors():
    names = atoms()
    assert len(names) == len(set(names)) == len(atoms("mma")) + len(atoms("copy")) + len(atoms("smem"))
    assert {"SM80_16x8x32_S32S8S8S32_TN", "SM90_64x256x16_F32BF16BF16_RS", "SM90_64x248x32_F16E5M2E4M3_SS_TN",
            "SM100_MMA_F8F6F4_SS_128x256x32", "SM75_U16x8_LDSM_T", "SM100_TMEM_STORE_16dp256b32x"} <= set(names)
    with pytest.raises(LayoutError, match=r"unknown copy atom 'SM75_U32x3_LDSM_N'; did you mean SM75_U32x\d_LDSM_N"):
        copy_atom("SM75_U32x3_LDSM_N")
    with pytest.raises(LayoutError, match="did you mean SM90_64x64x16_F32F16F16_RS"):
        mma_atom("SM90_64x64x16_F32F16F16_R")
    with pytest.raises(LayoutError, match="unknown MMA atom 'nonsense'"):
        mma_atom("nonsense")
    with pytest.raises(LayoutError, match="a name is a string"):
        mma_atom(3)
    with pytest.raises(SizeError, match="power of two"):
        copy_atom("SM75_U32x1_LDSM_N", bits=12)
    with pytest.raises(LayoutError, match="kind is .mma., .copy., .smem. or None"):
        atoms("tma")


def test_sub_byte_recast_refused_where_cute_refuses():
    # upcast<64> of ldmatrix's (32,32):(32,1): stride 32 divides 64, so CuTe allows it: half a column
    assert copy_atom("SM75_U32x1_LDSM_N", bits=64).dst.num_values == 1
    with pytest.raises(SizeError, match="not a multiple of 128-bit"):
        copy_atom("SM100_TMEM_LOAD_32dp32b1x", bits=128)


SAMPLE = sorted(set((atoms("mma") + atoms("copy"))[::7] + [n for n in atoms() if n.startswith(("SM80", "SM75", "SM90_U"))]))


@given(st.sampled_from(SAMPLE))
def test_every_tv_layout_round_trips(name):
    atom = mma_atom(name) if name in set(atoms("mma")) else copy_atom(name)
    layouts = (atom.a, atom.b, atom.c) if isinstance(atom, MMAAtom) else (atom.src, atom.dst)
    for tv in layouts:
        assert isinstance(tv, TVLayout) and parse_tv(str(tv)) == tv
        try:
            L = tv.to_linear()
        except (SizeError, NotLinearError):
            # a non-power-of-two tile (64 x 24 ...): only the general form
            g = tv.to_general()
            assert g.out_dims == {f"dim{i}": t for i, t in enumerate(tv.tile)}
            back = TVLayout.from_general(g)
            assert back.tile == tv.tile and equivalent(back.to_general(), g).relation == "identical"
            assert np.array_equal(back.table(), tv.table())
            continue
        back = TVLayout.from_linear(L)
        assert back.to_linear() == L
        assert equivalent(back, tv).relation == "identical"


def test_planning_between_an_mma_fragment_and_a_tv_layout():
    import linlayout
    from converters.cute import Layout, make_layout_tv

    c = mma_atom("SM80_16x8x16_F32F16F16F32_TN").c
    swapped = parse_tv("((4,8),(2,2)):((32,1),(8,16)) -> (16,8)")
    plan = linlayout.plan_conversion(c, swapped, shape=[16, 8], bitwidth=32)
    assert plan.kind == "register" and plan.is_zero_cost
    # 8x4 threads each holding a 2x2 block: the lanes move, so warp shuffles
    blocks = make_layout_tv(Layout((8, 4), (4, 1)), Layout((2, 2), (1, 2)))
    plan = linlayout.plan_conversion(c, blocks, shape=[16, 8], bitwidth=32)
    assert plan.kind == "warp_shuffle" and plan.shuffles == 4 and plan.shared_bytes == 0


# ----------------------------------------------------------------------- shared-memory atoms
SMEM_SWIZZLE = {"INTER": 0, "SW32": 32, "SW64": 64, "SW128": 128}


@pytest.mark.parametrize("bits", [4, 8, 16, 32, 64])
@pytest.mark.parametrize("name", [n for n in atoms("smem") if "32B" not in n])
def test_smem_atoms_are_linlayouts_mma_atoms(name, bits):
    from converters.cute import to_linear
    from linlayout.smem_atoms import MmaAtom

    c = smem_atom(name, bits)
    major = "K" if "_K_" in name else "MN"
    core = MmaAtom(bits, SMEM_SWIZZLE[name.split("_")[2]], major)
    assert c.size() == core.shape[0] * core.shape[1] and c.shape == core.shape
    # the CuTe atom is a memory map (MN, K) -> offset; both linear forms map offset -> (MN, K)
    assert equivalent(to_linear(c), core.to_linear()).relation == "identical"


def test_smem_atoms_by_hand():
    # mma_traits_sm90_gmma.hpp:84: Swizzle<3,4,3> on bytes over (8,1024):(1024,1) bits; fp16:
    # row r, column c at byte 128r + 2c, 16-byte chunk (c / 8) XOR r
    c = smem_atom("GMMA::Layout_K_SW128_Atom", 16)
    assert str(c) == "S<3,3,3> o 0 o (8,64):(64,1)"
    for r in range(8):
        for col in range(64):
            assert c((r, col)) == 64 * r + 8 * ((col // 8) ^ r) + col % 8
    # mma_traits_sm100.hpp:73: Swizzle<2,5,2> over (1024,4):(1,1024) bits: 32-byte chunks
    u = smem_atom("UMMA::Layout_MN_SW128_32B_Atom", 32)
    assert str(u) == "S<2,3,2> o 0 o (32,4):(1,32)"
    assert u((8, 1)) == 32 + (8 ^ (1 << 3))  # chunk 1 of row 1 moves to chunk 0: XOR bits 3-4 with bits 5-6
    assert smem_atom("UMMA::Layout_K_SW64_Atom", 8) == smem_atom("GMMA::Layout_K_SW64_Atom", 8)
    with pytest.raises(SizeError, match="4-, 8-, 16-, 32- or 64-bit"):
        smem_atom("GMMA::Layout_K_SW64_Atom", 12)
    with pytest.raises(LayoutError, match="unknown shared-memory atom 'GMMA::Layout_MN_SW128_32B_Atom'"):
        smem_atom("GMMA::Layout_MN_SW128_32B_Atom", 32)  # Blackwell only
