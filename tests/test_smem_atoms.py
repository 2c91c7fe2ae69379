"""linlayout.smem_atoms: MMA swizzle atoms, tiling by atoms, the swizzle selector."""

from __future__ import annotations

import itertools

import pytest

from converters.gluon.shared import NVMMASharedLayout
from linlayout import LayoutError
from linlayout.errors import SizeError, SwizzleError
from linlayout.smem_atoms import MmaAtom, mma_atoms, select_atom, select_swizzle_width, tile_by_atoms
from linlayout.swizzle import Swizzle

def _nv(layout, shape):
    """The offset part of a shared layout's linear layout (no CGA: the block dim is empty)."""
    from linlayout import LinearLayout

    L = layout.to_linear(list(shape))
    return LinearLayout({"offset": L.bases["offset"]}, L.out_dims)


# CuTe's K-major atom shapes (elements): 128B / 64B / 32B / interleaved
K_MAJOR_SHAPES = {
    8: {128: (8, 128), 64: (8, 64), 32: (8, 32), 0: (8, 16)},
    16: {128: (8, 64), 64: (8, 32), 32: (8, 16), 0: (8, 8)},
    32: {128: (8, 32), 64: (8, 16), 32: (8, 8), 0: (8, 4)},
}


@pytest.mark.parametrize("bits,width", list(itertools.product((8, 16, 32), (0, 32, 64, 128))))
def test_atom_shapes_and_swizzles(bits, width):
    k = MmaAtom(bits, width)
    assert k.shape == K_MAJOR_SHAPES[bits][width]
    mn = MmaAtom(bits, width, "MN")
    assert mn.shape == k.shape[::-1] and mn.transpose() == k
    # CuTe: Swizzle<log2(W/16), 4, 3> on bytes
    assert k.swizzle("byte") == (Swizzle(width.bit_length() - 5, 4, 3) if width else Swizzle(0, 0, 0))
    # the MN-major atom is the transpose of the K-major one
    Lk, Lm = k.to_linear(), mn.to_linear()
    assert Lk.is_invertible() and Lm.is_invertible()
    for o in range(k.shape[0] * k.shape[1]):
        a, b = Lk(offset=o), Lm(offset=o)
        assert (a["dim0"], a["dim1"]) == (b["dim1"], b["dim0"])


def test_fp16_k_major_128B_atom():
    a = MmaAtom("float16", "128B")
    assert a.shape == (8, 64) and a.swizzle() == Swizzle(3, 3, 3)
    L = a.to_linear()
    # row i's 16-byte chunk j sits at chunk j ^ i: element (i, 8j) at offset 64 i + 8 (j ^ i)
    for i in range(8):
        for j in range(8):
            assert L(offset=64 * i + 8 * (j ^ i)) == {"dim0": i, "dim1": 8 * j}
    assert len(mma_atoms()) == 24


def test_atom_equals_nvmma_core_matrix():
    for bits, width in itertools.product((8, 16, 32), (32, 64, 128)):
        a = MmaAtom(bits, width)
        assert _nv(NVMMASharedLayout(width, bits), a.shape) == tile_by_atoms(a, a.shape)
        m = MmaAtom(bits, width, "MN")
        assert _nv(NVMMASharedLayout(width, bits, transposed=True), m.shape) == tile_by_atoms(m, m.shape)


@pytest.mark.parametrize("bits,width", list(itertools.product((8, 16, 32), (32, 64, 128))))
def test_nvmma_is_a_tiling_by_atoms(bits, width):
    """Gluon's 2-D NVMMA layouts are atoms down dim 0 first (K-major) / along dim 1 first (MN-major)."""
    for rows, mult in itertools.product((8, 32, 256), (1, 2, 4)):
        a = MmaAtom(bits, width)
        shape = (rows, a.shape[1] * mult)
        assert _nv(NVMMASharedLayout(width, bits), shape) == tile_by_atoms(a, shape, "col")
        m = a.transpose()
        tshape = shape[::-1]
        assert _nv(NVMMASharedLayout(width, bits, transposed=True), tshape) == tile_by_atoms(m, tshape, "row")


def test_selector_examples():
    assert select_atom((128, 32), "fp16").swizzle_bytes == 64  # K = 64 bytes
    assert select_atom((128, 64), "fp16").swizzle_bytes == 128  # K = 128 bytes
    assert select_atom((128, 256), "fp16").swizzle_bytes == 128  # K = 512 bytes
    assert select_atom((128, 16), "fp16").swizzle_bytes == 32
    assert select_atom((128, 8), "fp16").swizzle_bytes == 0
    assert select_atom((128, 48), "fp16").swizzle_bytes == 32  # 96 bytes: a multiple of 32 only
    assert select_atom((4, 64), "fp16").swizzle_bytes == 0  # fewer than 8 rows
    assert select_atom((64, 4), "fp16", major="MN").swizzle_bytes == 0
    assert select_swizzle_width([64], 16) == 0  # rank 1
    assert select_swizzle_width([2, 4, 64], 16) == 128  # 8 rows across the outer dims
    assert select_swizzle_width([16, 128], 8, fp4_padded=True) == 128


def test_selector_bad_input():
    with pytest.raises(LayoutError):
        select_atom((64, 64), "fp16", major="N")
    with pytest.raises(SizeError):
        select_swizzle_width([], 16)
    with pytest.raises(SizeError):
        tile_by_atoms(MmaAtom(16, 128), (16, 32))
    with pytest.raises(SwizzleError):
        MmaAtom(16, 96)
    with pytest.raises(LayoutError):
        tile_by_atoms(MmaAtom(16, 128), (16, 64), order="diagonal")


def _all_shapes():
    sizes = (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512)
    for rank in (1, 2, 3):
        for shp in itertools.product(sizes if rank < 3 else (1, 2, 8, 64), repeat=rank):
            yield list(shp)


@pytest.mark.reference
def test_selector_matches_gluon_get_default_for_on_every_shape():
    gl = pytest.importorskip("triton.experimental.gluon.language")
    dtypes = [gl.float16, gl.float8e5, gl.float32, gl.int8, gl.bfloat16, gl.float64]
    n = 0
    for shape in _all_shapes():
        for dt in dtypes:
            for transposed in (False, True):
                if transposed and len(shape) < 2:
                    continue
                ref = gl.NVMMASharedLayout.get_default_for(shape, dt, transposed=transposed)
                ours = NVMMASharedLayout.get_default_for(shape, dt.primitive_bitwidth, transposed=transposed)
                assert (ours.swizzle_byte_width, ours.element_bitwidth, ours.rank, ours.transposed) == (
                    ref.swizzle_byte_width, ref.element_bitwidth, ref.rank, ref.transposed), (shape, dt, transposed)
                n += 1
        # fp4 padding and a CGA split
        if len(shape) == 2:
            try:
                ref = gl.NVMMASharedLayout.get_default_for(shape, gl.int8, fp4_padded=True)
            except AssertionError:  # Gluon: fp4_padded only with the 128B swizzle
                assert select_swizzle_width(shape, 8, fp4_padded=True) != 128
            else:
                assert select_swizzle_width(shape, 8, fp4_padded=True) == ref.swizzle_byte_width
            if shape[0] % 2 == 0:
                ref = gl.NVMMASharedLayout.get_default_for(shape, gl.float16, cga_layout=[[1, 0]])
                assert select_swizzle_width(shape, 16, cga_layout=[[1, 0]]) == ref.swizzle_byte_width
    assert n > 2000
