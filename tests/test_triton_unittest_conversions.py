"""Triton's ``unittest/Dialect/TritonGPU/LinearLayoutConversionsTest.cpp``, every test, through our
Gluon forms (``converters.gluon``) and our own constructors.

Source text: facebookexperimental/triton release/3.8.x at 673692051346 (Triton 3.9's own tree is
not in our mirrors; that branch carries upstream main up to its fork point plus the upstream PRs
it cherry-picked, #10202, #10571, #10941 among them, which add ``TensorMemory_fp4Padded``,
``CanonicalScaleSmemLayout`` and ``TensorMemoryScales_BlockRepOrder``).  Its three tests of the
fork's non-power-of-two layouts (``NpotFmaDotUsesModularIdentity``, ``NpotMfmaUsesModularIdentity``,
``SliceOfBlockedPreservesNpotSize``) are not upstream Triton and are not ported: 112 tests remain.

How each is ported:

* 100 tests compare ``to_linear`` with the bases Triton's test expects (``CASES``: the test's
  name, our Gluon constructor text, the shape, the expected bases; one row per assertion, 240
  rows).  Triton's helpers map onto Gluon's constructors: ``blocked``/``mma``/``shared``/
  ``nvmmaShared`` take (CTAs per CGA, CTA split, CTA order), which we write as Gluon's
  ``cga_layout`` bases (a CTA beyond the split holds a copy: a zero basis); AMD's WMMA warps
  (``chooseWmmaCTALinearLayout``) are Gluon's ``warp_bases``, last dim first; ``AMDRotatingShared``
  is our ``converters.mlir.AMDRotatingSharedLayout`` (Gluon 3.9 has no such class).  Eight MFMA
  dot-operand tests also assert that a transposed MFMA parent gives the same operand layout
  (``SAME``, 24 rows).
* Two are written out: ``TensorMemory_CTASplit``, ``TensorMemoryScales_BlockRepOrder``.
* 10 are skipped, each with its reason (functions of Triton's that are not a layout family and
  that we have no equivalent of, or a parameter we do not model): ``CanonicalScaleSmemLayout``,
  the four ``*_trans_fp4_mn_packed`` (``chooseDsReadTrLayout``), the three ``ChooseShmemLayout*``,
  ``SM120DotScaledScaleLayout``, ``NvmmaSharedToLinearLayout_TMAModeIndependence``.

Two differences of form, not of substance, are spelled out where they apply: Triton's C++
tensor-memory layouts carry a ``block`` in-dim of size 1 where Gluon's (and ours) have none without
a CGA; and ``Blocked4D`` expects two zero ``register`` bases that Triton 3.9 itself
(``GluonOpBuilder.to_linear_layout``) drops, as we do.  The ``reference`` tests at the end check
every row against installed Triton 3.9.
"""

from __future__ import annotations

import pytest

from converters.gluon import (
    AMDMFMALayout,
    AMDWMMALayout,
    BlockedLayout,
    DotOperandLayout,
    NVMMADistributedLayout,
    NVMMASharedLayout,
    SliceLayout,
    SwizzledSharedLayout,
    TensorMemoryLayout,
    TensorMemoryScalesLayout,
    parse,
)
from converters.mlir import AMDRotatingSharedLayout
from linlayout import LinearLayout

I = LinearLayout.identity_1d
Z = LinearLayout.zeros_1d

#: (Triton test, our layout, shape, the bases Triton's test expects); out-dims dim0.. of the shape
CASES = [
    ("SimpleBlocked", "BlockedLayout([1], [4], [4], [0])", [16], {"register": [], "lane": [[1], [2]], "warp": [[4], [8]], "block": []}),
    ("CTADuplication", "BlockedLayout([1], [4], [4], [0], cga_layout=[[1], [0]])", [32],
     {"register": [], "lane": [[1], [2]], "warp": [[4], [8]], "block": [[16], [0]]}),
    ("CTABroadcast", "BlockedLayout([8, 1], [8, 4], [1, 4], [0, 1], cga_layout=[[0, 1]])", [64, 128],
     {"register": [[1, 0], [2, 0], [4, 0], [0, 16], [0, 32]], "lane": [[8, 0], [16, 0], [32, 0], [0, 1], [0, 2]],
      "warp": [[0, 4], [0, 8]], "block": [[0, 64]]}),
    ("ShapeLargerThanLayout", "BlockedLayout([1], [4], [4], [0])", [128],
     {"register": [[16], [32], [64]], "lane": [[1], [2]], "warp": [[4], [8]], "block": []}),
    ("ShapeLargerThanLayout2DDegenerate", "BlockedLayout([1, 1], [4, 1], [4, 1], [0, 1])", [128, 1],
     {"register": [[16, 0], [32, 0], [64, 0]], "lane": [[1, 0], [2, 0]], "warp": [[4, 0], [8, 0]], "block": []}),
    ("ShapeSmallerThanLayout", "BlockedLayout([4], [4], [4], [0])", [8],
     {"register": [[1], [2]], "lane": [[4], [0]], "warp": [[0], [0]], "block": []}),
    ("ReversedOrder", "BlockedLayout([1, 1], [32, 1], [1, 8], [0, 1])", [1, 64],
     {"register": [[0, 8], [0, 16], [0, 32]], "lane": [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]], "warp": [[0, 1], [0, 2], [0, 4]],
      "block": []}),
    ("ReplicateInRegisterDim", "BlockedLayout([2], [4], [1], [0])", [32],
     {"register": [[1], [8], [16]], "lane": [[2], [4]], "warp": [], "block": []}),
    ("OneDimTooLargeAnotherTooSmall", "BlockedLayout([1, 4], [8, 4], [4, 1], [1, 0], cga_layout=[[0, 0], [1, 0]])", [128, 16],
     {"register": [[0, 1], [0, 2], [32, 0]], "lane": [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]], "warp": [[8, 0], [16, 0]],
      "block": [[0, 0], [64, 0]]}),
    ("RepeatInCTGDimFirst", "BlockedLayout([1], [1], [4], [0], cga_layout=[[1]])", [4],
     {"register": [], "lane": [], "warp": [[1], [0]], "block": [[2]]}),
    ("SmallerThanCGALayout", "BlockedLayout([1], [1], [1], [0], cga_layout=[[1], [2]])", [2],
     {"register": [], "lane": [], "warp": [], "block": [[1], [0]]}),
    ("Skinny", "BlockedLayout([8, 1], [8, 4], [1, 4], [0, 1], cga_layout=[[0, 1]])", [64, 1],
     {"register": [[1, 0], [2, 0], [4, 0]], "lane": [[8, 0], [16, 0], [32, 0], [0, 0], [0, 0]], "warp": [[0, 0], [0, 0]],
      "block": [[0, 0]]}),
    ("BlockedOrder", "BlockedLayout([2, 2], [4, 8], [2, 2], [1, 0], cga_layout=[[0, 1], [1, 0]])", [1024, 128],
     {"register": [[0, 1], [1, 0], [0, 32], [16, 0], [32, 0], [64, 0], [128, 0], [256, 0]],
      "lane": [[0, 2], [0, 4], [0, 8], [2, 0], [4, 0]], "warp": [[0, 16], [8, 0]], "block": [[0, 64], [512, 0]]}),
    ("Blocked4D", "BlockedLayout([1, 1, 1, 4], [2, 1, 1, 16], [1, 2, 4, 1], [3, 0, 1, 2])", [2, 1, 1, 1],
     {"register": [[0, 0, 0, 0], [0, 0, 0, 0]], "lane": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]],
      "warp": [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], "block": []}),
    ("BlockedDotOperandLhs", "DotOperandLayout(0, BlockedLayout([2, 4], [8, 4], [2, 4], [1, 0]), 0)", [32, 16],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]], "lane": [[0, 0], [0, 0], [2, 0], [4, 0], [8, 0]],
      "warp": [[0, 0], [0, 0], [16, 0]], "block": []}),
    ("BlockedDot3dOperandLhs", "DotOperandLayout(0, BlockedLayout([2, 2, 4], [2, 4, 4], [2, 2, 2], [2, 1, 0]), 0)", [16, 32, 4],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 1, 0], [1, 0, 0], [0, 16, 0], [8, 0, 0]],
      "lane": [[0, 0, 0], [0, 0, 0], [0, 2, 0], [0, 4, 0], [2, 0, 0]], "warp": [[0, 0, 0], [0, 8, 0], [4, 0, 0]], "block": []}),
    ("BlockedDotOperandRhs", "DotOperandLayout(1, BlockedLayout([2, 4], [8, 4], [2, 4], [1, 0]), 0)", [16, 64],
     {"register": [[0, 1], [0, 2], [1, 0], [2, 0], [4, 0], [8, 0]], "lane": [[0, 4], [0, 8], [0, 0], [0, 0], [0, 0]],
      "warp": [[0, 16], [0, 32], [0, 0]], "block": []}),
    ("BlockedDot3dOperandRhs", "DotOperandLayout(1, BlockedLayout([2, 2, 4], [2, 4, 4], [2, 2, 2], [2, 1, 0]), 0)", [16, 4, 64],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 1, 0], [0, 2, 0], [1, 0, 0], [0, 0, 32], [8, 0, 0]],
      "lane": [[0, 0, 4], [0, 0, 8], [0, 0, 0], [0, 0, 0], [2, 0, 0]], "warp": [[0, 0, 16], [0, 0, 0], [4, 0, 0]], "block": []}),
    ("MMAv2_16x16", "NVMMADistributedLayout([2, 0], [1, 1], [16, 8])", [16, 16],
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [], "block": []}),
    ("MMAv2_32x32", "NVMMADistributedLayout([2, 0], [1, 1], [16, 8])", [32, 32],
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16], [16, 0]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [], "block": []}),
    ("MMAv2_ExtendDim2", "NVMMADistributedLayout([2, 0], [1, 1], [16, 8])", [16, 128],
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [],
      "block": []}),
    ("MMAv2_Cga", "NVMMADistributedLayout([2, 0], [16, 1, 1], [1, 16, 8], cga_layout=[[0, 0, 0], [0, 1, 0], [1, 0, 0], [2, 0, 0]])", [64, 128, 128],
     {"register": [[0, 0, 1], [0, 8, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32], [0, 0, 64], [0, 16, 0], [0, 32, 0]],
      "lane": [[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]], "warp": [[1, 0, 0], [2, 0, 0], [4, 0, 0], [8, 0, 0]],
      "block": [[0, 0, 0], [0, 64, 0], [16, 0, 0], [32, 0, 0]]}),
    ("MMAv2_Small3D", "NVMMADistributedLayout([2, 0], [16, 1, 1], [1, 16, 8], cga_layout=[[0, 0, 0], [0, 1, 0], [1, 0, 0], [2, 0, 0]])", [1, 128, 128],
     {"register": [[0, 0, 1], [0, 8, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32], [0, 0, 64], [0, 16, 0], [0, 32, 0]],
      "lane": [[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]], "warp": [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]],
      "block": [[0, 0, 0], [0, 64, 0], [0, 0, 0], [0, 0, 0]]}),
    ("MMAv3_64x16", "NVMMADistributedLayout([3, 0], [4, 1], [16, 16, 8])", [64, 16],
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [[16, 0], [32, 0]], "block": []}),
    ("MMAv3_64x16", "NVMMADistributedLayout([3, 0], [4, 1], [16, 8, 8])", [64, 16],
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [[16, 0], [32, 0]], "block": []}),
    ("MMAv3_128x16", "NVMMADistributedLayout([3, 0], [4, 1], [16, 16, 8])", [128, 16],
     {"register": [[0, 1], [8, 0], [0, 8], [64, 0]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [[16, 0], [32, 0]],
      "block": []}),
    ("MMAv3_1024x1024", "NVMMADistributedLayout([3, 0], [4, 1], [16, 16, 8])", [1024, 1024],
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64], [0, 128], [0, 256], [0, 512], [64, 0], [128, 0], [256, 0], [512, 0]],
      "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [[16, 0], [32, 0]], "block": []}),
    ("MMAv3_4x2Warps", "NVMMADistributedLayout([3, 0], [4, 2], [16, 32, 16])", [64, 32],
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
      "warp": [[16, 0], [32, 0], [0, 0]], "block": []}),
    ("MMAv3_4x2Warps", "NVMMADistributedLayout([3, 0], [4, 2], [16, 32, 16])", [64, 64],
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
      "warp": [[16, 0], [32, 0], [0, 32]], "block": []}),
    ("MMAv3_4x2Warps", "NVMMADistributedLayout([3, 0], [4, 2], [16, 32, 16])", [128, 64],
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16], [64, 0]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
      "warp": [[16, 0], [32, 0], [0, 32]], "block": []}),
    ("MMAv3_4x2Warps", "NVMMADistributedLayout([3, 0], [4, 2], [16, 32, 16])", [256, 64],
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16], [64, 0], [128, 0]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
      "warp": [[16, 0], [32, 0], [0, 32]], "block": []}),
    ("MMAv3_4x4Warps", "NVMMADistributedLayout([3, 0], [4, 4], [16, 16, 8])", [16, 16],
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [[0, 0], [0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("MMAv3_4x4Warps", "NVMMADistributedLayout([3, 0], [4, 4], [16, 16, 8])", [32, 16],
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [[16, 0], [0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("MMAv3_4x4Warps", "NVMMADistributedLayout([3, 0], [4, 4], [16, 16, 8])", [64, 16],
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [[16, 0], [32, 0], [0, 0], [0, 0]],
      "block": []}),
    ("MMAv3_4x4Warps", "NVMMADistributedLayout([3, 0], [4, 4], [16, 16, 8])", [128, 16],
     {"register": [[0, 1], [8, 0], [0, 8], [64, 0]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
      "warp": [[16, 0], [32, 0], [0, 0], [0, 0]], "block": []}),
    ("MMAv3_4x4Warps", "NVMMADistributedLayout([3, 0], [4, 4], [16, 16, 8])", [32, 32],
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [[16, 0], [0, 0], [0, 16], [0, 0]],
      "block": []}),
    ("MMAv3_4x4Warps", "NVMMADistributedLayout([3, 0], [4, 4], [16, 16, 8])", [64, 32],
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
      "warp": [[16, 0], [32, 0], [0, 16], [0, 0]], "block": []}),
    ("DotMMAv2_tile_kwidth8", "DotOperandLayout(0, NVMMADistributedLayout([2, 0], [1, 1], [16, 8]), 8)", [16, 64],
     {"register": [[0, 1], [0, 2], [0, 4], [8, 0], [0, 32]], "lane": [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]], "warp": [], "block": []}),
    ("DotMMAv2_tile_kwidth8", "DotOperandLayout(1, NVMMADistributedLayout([2, 0], [1, 1], [16, 8]), 8)", [64, 8],
     {"register": [[1, 0], [2, 0], [4, 0], [32, 0]], "lane": [[8, 0], [16, 0], [0, 1], [0, 2], [0, 4]], "warp": [], "block": []}),
    ("DotMMAv2_large_warp4_kwidth8", "DotOperandLayout(0, NVMMADistributedLayout([2, 0], [4, 1], [16, 8]), 8)", [128, 128],
     {"register": [[0, 1], [0, 2], [0, 4], [8, 0], [0, 32], [0, 64], [64, 0]], "lane": [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]],
      "warp": [[16, 0], [32, 0]], "block": []}),
    ("DotMMAv2_large_warp4_kwidth8", "DotOperandLayout(1, NVMMADistributedLayout([2, 0], [4, 1], [16, 8]), 8)", [128, 64],
     {"register": [[1, 0], [2, 0], [4, 0], [32, 0], [64, 0], [0, 8], [0, 16], [0, 32]],
      "lane": [[8, 0], [16, 0], [0, 1], [0, 2], [0, 4]], "warp": [[0, 0], [0, 0]], "block": []}),
    ("DotMMAv2_large_warp4_kwidth8", "DotOperandLayout(1, NVMMADistributedLayout([2, 0], [4, 1], [16, 8]), 8)", [64, 128],
     {"register": [[1, 0], [2, 0], [4, 0], [32, 0], [0, 8], [0, 16], [0, 32], [0, 64]],
      "lane": [[8, 0], [16, 0], [0, 1], [0, 2], [0, 4]], "warp": [[0, 0], [0, 0]], "block": []}),
    ("DotMMAv2_3D", "DotOperandLayout(0, NVMMADistributedLayout([2, 0], [2, 4, 2], [1, 16, 8]), 8)", [16, 128, 128],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 8, 0], [0, 0, 32], [0, 0, 64], [0, 64, 0], [2, 0, 0], [4, 0, 0], [8, 0, 0]],
      "lane": [[0, 0, 8], [0, 0, 16], [0, 1, 0], [0, 2, 0], [0, 4, 0]], "warp": [[0, 0, 0], [0, 16, 0], [0, 32, 0], [1, 0, 0]],
      "block": []}),
    ("DotMMAv2_3D", "DotOperandLayout(1, NVMMADistributedLayout([2, 0], [2, 4, 2], [1, 16, 8]), 8)", [8, 128, 64],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 32, 0], [0, 64, 0], [0, 0, 16], [0, 0, 32], [2, 0, 0], [4, 0, 0]],
      "lane": [[0, 8, 0], [0, 16, 0], [0, 0, 1], [0, 0, 2], [0, 0, 4]], "warp": [[0, 0, 8], [0, 0, 0], [0, 0, 0], [1, 0, 0]],
      "block": []}),
    ("DotMMAv3_warp4_kwidth2", "DotOperandLayout(0, NVMMADistributedLayout([3, 0], [4, 1], [16, 16, 8]), 2)", [64, 16],
     {"register": [[0, 1], [8, 0], [0, 8]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [[16, 0], [32, 0]], "block": []}),
    ("DotMMAv3_warp4_kwidth2", "DotOperandLayout(0, NVMMADistributedLayout([3, 0], [4, 1], [16, 16, 8]), 2)", [128, 16],
     {"register": [[0, 1], [8, 0], [0, 8], [64, 0]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], "warp": [[16, 0], [32, 0]],
      "block": []}),
    ("DotMMAv3_warp4_kwidth2", "DotOperandLayout(0, NVMMADistributedLayout([3, 0], [4, 1], [16, 16, 8]), 2)", [128, 32],
     {"register": [[0, 1], [8, 0], [0, 8], [0, 16], [64, 0]], "lane": [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]],
      "warp": [[16, 0], [32, 0]], "block": []}),
    ("DotMMAv3_mixed_warp_kwidth4", "DotOperandLayout(0, NVMMADistributedLayout([3, 0], [4, 2], [16, 16, 8]), 4)", [128, 64],
     {"register": [[0, 1], [0, 2], [8, 0], [0, 16], [0, 32], [64, 0]], "lane": [[0, 4], [0, 8], [1, 0], [2, 0], [4, 0]],
      "warp": [[16, 0], [32, 0], [0, 0]], "block": []}),
    ("DotMMAv2_split_warp_kwidth8", "DotOperandLayout(0, NVMMADistributedLayout([2, 0], [2, 2], [16, 8]), 8)", [32, 64],
     {"register": [[0, 1], [0, 2], [0, 4], [8, 0], [0, 32]], "lane": [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]],
      "warp": [[0, 0], [16, 0]], "block": []}),
    ("DotMMAv2_split_warp_kwidth8", "DotOperandLayout(1, NVMMADistributedLayout([2, 0], [2, 2], [16, 8]), 8)", [64, 16],
     {"register": [[1, 0], [2, 0], [4, 0], [32, 0]], "lane": [[8, 0], [16, 0], [0, 1], [0, 2], [0, 4]], "warp": [[0, 8], [0, 0]],
      "block": []}),
    ("DotMMAv2_split_warp_kwidth8", "DotOperandLayout(0, NVMMADistributedLayout([2, 0], [2, 2], [16, 8]), 8)", [64, 128],
     {"register": [[0, 1], [0, 2], [0, 4], [8, 0], [0, 32], [0, 64], [32, 0]], "lane": [[0, 8], [0, 16], [1, 0], [2, 0], [4, 0]],
      "warp": [[0, 0], [16, 0]], "block": []}),
    ("DotMMAv2_split_warp_kwidth8", "DotOperandLayout(1, NVMMADistributedLayout([2, 0], [2, 2], [16, 8]), 8)", [128, 32],
     {"register": [[1, 0], [2, 0], [4, 0], [32, 0], [64, 0], [0, 16]], "lane": [[8, 0], [16, 0], [0, 1], [0, 2], [0, 4]],
      "warp": [[0, 8], [0, 0]], "block": []}),
    ("SliceDot", "SliceLayout(1, DotOperandLayout(0, NVMMADistributedLayout([2, 0], [1, 1], [16, 8]), 8))", [16],
     {"register": [[8]], "lane": [[0], [0], [1], [2], [4]], "warp": [], "block": []}),
    ("SliceDot", "SliceLayout(0, DotOperandLayout(0, NVMMADistributedLayout([3, 0], [4, 1], [16, 16, 8]), 2))", [16],
     {"register": [[1], [8]], "lane": [[2], [4], [0], [0], [0]], "warp": [[0], [0]], "block": []}),
    ("MFMA32_2x4Warps_tpw_2_2", "AMDMFMALayout(3, [32, 32, 8], False, [2, 4], tiles_per_warp=[2, 2])", [32, 32],
     {"register": [[1, 0], [2, 0], [8, 0], [16, 0], [0, 0], [0, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]],
      "warp": [[0, 0], [0, 0], [0, 0]], "block": []}),
    ("MFMA32_2x4Warps_tpw_2_2", "AMDMFMALayout(3, [32, 32, 8], False, [2, 4], tiles_per_warp=[2, 2])", [128, 128],
     {"register": [[1, 0], [2, 0], [8, 0], [16, 0], [0, 32], [32, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]],
      "warp": [[0, 64], [0, 0], [64, 0]], "block": []}),
    ("MFMA32_2x4Warps_tpw_2_2", "AMDMFMALayout(3, [32, 32, 8], False, [2, 4], tiles_per_warp=[2, 2])", [256, 256],
     {"register": [[1, 0], [2, 0], [8, 0], [16, 0], [0, 32], [32, 0], [128, 0]],
      "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]], "warp": [[0, 64], [0, 128], [64, 0]], "block": []}),
    ("MFMA32_2x4Warps_tpw_2_2", "AMDMFMALayout(3, [32, 32, 8], True, [2, 4], tiles_per_warp=[2, 2])", [32, 32],
     {"register": [[0, 1], [0, 2], [0, 8], [0, 16], [0, 0], [0, 0]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]],
      "warp": [[0, 0], [0, 0], [0, 0]], "block": []}),
    ("MFMA32_2x4Warps_tpw_2_2", "AMDMFMALayout(3, [32, 32, 8], True, [2, 4], tiles_per_warp=[2, 2])", [128, 128],
     {"register": [[0, 1], [0, 2], [0, 8], [0, 16], [0, 32], [32, 0]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]],
      "warp": [[0, 64], [0, 0], [64, 0]], "block": []}),
    ("MFMA32_2x4Warps_tpw_2_2", "AMDMFMALayout(3, [32, 32, 8], True, [2, 4], tiles_per_warp=[2, 2])", [256, 256],
     {"register": [[0, 1], [0, 2], [0, 8], [0, 16], [0, 32], [32, 0], [128, 0]],
      "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]], "warp": [[0, 64], [0, 128], [64, 0]], "block": []}),
    ("MFMA16_2x4Warps_tpw_2_2", "AMDMFMALayout(3, [16, 16, 16], False, [2, 4], tiles_per_warp=[2, 2])", [32, 32],
     {"register": [[1, 0], [2, 0], [0, 16], [16, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]],
      "warp": [[0, 0], [0, 0], [0, 0]], "block": []}),
    ("MFMA16_2x4Warps_tpw_2_2", "AMDMFMALayout(3, [16, 16, 16], False, [2, 4], tiles_per_warp=[2, 2])", [128, 128],
     {"register": [[1, 0], [2, 0], [0, 16], [16, 0], [64, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]],
      "warp": [[0, 32], [0, 64], [32, 0]], "block": []}),
    ("MFMA16_2x4Warps_tpw_2_2", "AMDMFMALayout(3, [16, 16, 16], False, [2, 4], tiles_per_warp=[2, 2])", [256, 256],
     {"register": [[1, 0], [2, 0], [0, 16], [0, 128], [16, 0], [64, 0], [128, 0]],
      "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]], "warp": [[0, 32], [0, 64], [32, 0]], "block": []}),
    ("MFMA16_2x4Warps_tpw_2_2", "AMDMFMALayout(3, [16, 16, 16], True, [2, 4], tiles_per_warp=[2, 2])", [32, 32],
     {"register": [[0, 1], [0, 2], [0, 16], [16, 0]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 4], [0, 8]],
      "warp": [[0, 0], [0, 0], [0, 0]], "block": []}),
    ("MFMA16_2x4Warps_tpw_2_2", "AMDMFMALayout(3, [16, 16, 16], True, [2, 4], tiles_per_warp=[2, 2])", [128, 128],
     {"register": [[0, 1], [0, 2], [0, 16], [16, 0], [64, 0]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 4], [0, 8]],
      "warp": [[0, 32], [0, 64], [32, 0]], "block": []}),
    ("MFMA16_2x4Warps_tpw_2_2", "AMDMFMALayout(3, [16, 16, 16], True, [2, 4], tiles_per_warp=[2, 2])", [256, 256],
     {"register": [[0, 1], [0, 2], [0, 16], [0, 128], [16, 0], [64, 0], [128, 0]],
      "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 4], [0, 8]], "warp": [[0, 32], [0, 64], [32, 0]], "block": []}),
    ("MFMA32_2x4Warps", "AMDMFMALayout(3, [32, 32, 8], False, [2, 4])", [32, 32],
     {"register": [[1, 0], [2, 0], [8, 0], [16, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]],
      "warp": [[0, 0], [0, 0], [0, 0]], "block": []}),
    ("MFMA32_2x4Warps", "AMDMFMALayout(3, [32, 32, 8], False, [2, 4])", [64, 32],
     {"register": [[1, 0], [2, 0], [8, 0], [16, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]],
      "warp": [[0, 0], [0, 0], [32, 0]], "block": []}),
    ("MFMA32_2x4Warps", "AMDMFMALayout(3, [32, 32, 8], False, [2, 4])", [128, 128],
     {"register": [[1, 0], [2, 0], [8, 0], [16, 0], [64, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]],
      "warp": [[0, 32], [0, 64], [32, 0]], "block": []}),
    ("MFMA32_2x4Warps", "AMDMFMALayout(3, [32, 32, 8], True, [2, 4])", [32, 32],
     {"register": [[0, 1], [0, 2], [0, 8], [0, 16]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]],
      "warp": [[0, 0], [0, 0], [0, 0]], "block": []}),
    ("MFMA32_2x4Warps", "AMDMFMALayout(3, [32, 32, 8], True, [2, 4])", [64, 32],
     {"register": [[0, 1], [0, 2], [0, 8], [0, 16]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]],
      "warp": [[0, 0], [0, 0], [32, 0]], "block": []}),
    ("MFMA32_2x4Warps", "AMDMFMALayout(3, [32, 32, 8], True, [2, 4])", [128, 128],
     {"register": [[0, 1], [0, 2], [0, 8], [0, 16], [64, 0]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]],
      "warp": [[0, 32], [0, 64], [32, 0]], "block": []}),
    ("MFMA16_2x4Warps", "AMDMFMALayout(3, [16, 16, 16], False, [2, 4])", [16, 16],
     {"register": [[1, 0], [2, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("MFMA16_2x4Warps_F64", "AMDMFMALayout(3, [16, 16, 4], False, [2, 4], element_bitwidth=64)", [16, 16],
     {"register": [[4, 0], [8, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("MFMA32_2x4x1Warps", "AMDMFMALayout(3, [32, 32, 8], False, [2, 4, 1])", [1, 128, 128],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 8, 0], [0, 16, 0], [0, 0, 32], [0, 0, 64]],
      "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 0, 16], [0, 4, 0]], "warp": [[0, 32, 0], [0, 64, 0], [0, 0, 0]],
      "block": []}),
    ("MFMA32_2x4x1Warps", "AMDMFMALayout(3, [32, 32, 8], False, [2, 4, 1])", [2, 32, 32],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 8, 0], [0, 16, 0]],
      "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 0, 16], [0, 4, 0]], "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]],
      "block": []}),
    ("MFMA32_2x4x1Warps", "AMDMFMALayout(3, [32, 32, 8], False, [2, 4, 1])", [2, 64, 32],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 8, 0], [0, 16, 0]],
      "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 0, 16], [0, 4, 0]], "warp": [[0, 32, 0], [0, 0, 0], [1, 0, 0]],
      "block": []}),
    ("MFMA32_2x4x1Warps", "AMDMFMALayout(3, [32, 32, 8], True, [2, 4, 1])", [1, 128, 128],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 8], [0, 0, 16], [0, 0, 32], [0, 0, 64]],
      "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 16, 0], [0, 0, 4]], "warp": [[0, 32, 0], [0, 64, 0], [0, 0, 0]],
      "block": []}),
    ("MFMA32_2x4x1Warps", "AMDMFMALayout(3, [32, 32, 8], True, [2, 4, 1])", [2, 32, 32],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 8], [0, 0, 16]],
      "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 16, 0], [0, 0, 4]], "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]],
      "block": []}),
    ("MFMA32_2x4x1Warps", "AMDMFMALayout(3, [32, 32, 8], True, [2, 4, 1])", [2, 64, 32],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 8], [0, 0, 16]],
      "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 16, 0], [0, 0, 4]], "warp": [[0, 32, 0], [0, 0, 0], [1, 0, 0]],
      "block": []}),
    ("MFMA32_warp1onK_lhs_kwidth8", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [1, 8]), 8)", [128, 128],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 16], [0, 32], [0, 64], [32, 0], [64, 0]],
      "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 8]], "warp": [[0, 0], [0, 0], [0, 0]], "block": []}),
    ("MFMA32_warp1onK_lhs_kwidth8", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [1, 8]), 8)", [128, 256],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 16], [0, 32], [0, 64], [0, 128], [32, 0], [64, 0]],
      "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 8]], "warp": [[0, 0], [0, 0], [0, 0]], "block": []}),
    ("MFMA32_warp1onK_lhs_kwidth8", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [1, 8]), 8)", [32, 64],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 16], [0, 32]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 8]],
      "warp": [[0, 0], [0, 0], [0, 0]], "block": []}),
    ("MFMA32_warp1onK_lhs_kwidth8", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [1, 8]), 8)", [256, 256],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 16], [0, 32], [0, 64], [0, 128], [32, 0], [64, 0], [128, 0]],
      "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 8]], "warp": [[0, 0], [0, 0], [0, 0]], "block": []}),
    ("MFMA32_warp1onK_lhs_kwidth8", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [1, 8]), 8)", [16, 16],
     {"register": [[0, 1], [0, 2], [0, 4]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 0], [0, 8]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("MFMA32_warp1onK_rhs_kwidth8", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [1, 8]), 8)", [128, 128],
     {"register": [[1, 0], [2, 0], [4, 0], [16, 0], [32, 0], [64, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [8, 0]],
      "warp": [[0, 32], [0, 64], [0, 0]], "block": []}),
    ("MFMA32_warp1onK_rhs_kwidth8", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [1, 8]), 8)", [128, 256],
     {"register": [[1, 0], [2, 0], [4, 0], [16, 0], [32, 0], [64, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [8, 0]],
      "warp": [[0, 32], [0, 64], [0, 128]], "block": []}),
    ("MFMA32_warp1onK_rhs_kwidth8", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [1, 8]), 8)", [32, 64],
     {"register": [[1, 0], [2, 0], [4, 0], [16, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [8, 0]],
      "warp": [[0, 32], [0, 0], [0, 0]], "block": []}),
    ("MFMA32_warp1onK_rhs_kwidth8", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [1, 8]), 8)", [256, 256],
     {"register": [[1, 0], [2, 0], [4, 0], [16, 0], [32, 0], [64, 0], [128, 0]],
      "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [8, 0]], "warp": [[0, 32], [0, 64], [0, 128]], "block": []}),
    ("MFMA32_warp1onK_rhs_kwidth8", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [1, 8]), 8)", [16, 16],
     {"register": [[1, 0], [2, 0], [4, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 0], [8, 0]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("MFMA32_warp1onK_rhs_kwidth8", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [1, 4]), 8)", [256, 256],
     {"register": [[1, 0], [2, 0], [4, 0], [16, 0], [32, 0], [64, 0], [128, 0], [0, 128]],
      "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [8, 0]], "warp": [[0, 32], [0, 64]], "block": []}),
    ("MFMA16_warp1onK_lhs_kwidth8", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [1, 4]), 8)", [128, 128],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 32], [0, 64], [16, 0], [32, 0], [64, 0]],
      "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8], [0, 16]], "warp": [[0, 0], [0, 0]], "block": []}),
    ("MFMA16_warp1onK_lhs_kwidth8", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [1, 4]), 8)", [1, 128],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 32], [0, 64]], "lane": [[0, 0], [0, 0], [0, 0], [0, 0], [0, 8], [0, 16]],
      "warp": [[0, 0], [0, 0]], "block": []}),
    ("MFMA16_warp1onK_lhs_kwidth8", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [1, 4]), 8)", [128, 1],
     {"register": [[0, 0], [0, 0], [0, 0], [16, 0], [32, 0], [64, 0]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 0], [0, 0]],
      "warp": [[0, 0], [0, 0]], "block": []}),
    ("MFMA16_warp1onK_lhs_kwidth8", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [1, 4]), 8)", [256, 256],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 32], [0, 64], [0, 128], [16, 0], [32, 0], [64, 0], [128, 0]],
      "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8], [0, 16]], "warp": [[0, 0], [0, 0]], "block": []}),
    ("MFMA16_warp1onK_lhs_kwidth8", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [1, 4]), 8)", [16, 16],
     {"register": [[0, 1], [0, 2], [0, 4]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8], [0, 0]], "warp": [[0, 0], [0, 0]],
      "block": []}),
    ("MFMA16_warp1onK_lhs_kwidth8", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [1, 8]), 8)", [256, 256],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 32], [0, 64], [0, 128], [16, 0], [32, 0], [64, 0], [128, 0]],
      "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8], [0, 16]], "warp": [[0, 0], [0, 0], [0, 0]], "block": []}),
    ("MFMA16_warp1onK_lhs_kwidth8", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [1, 1, 8]), 8)", [1, 256, 256],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 32], [0, 0, 64], [0, 0, 128], [0, 16, 0], [0, 32, 0], [0, 64, 0], [0, 128, 0]],
      "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 0, 8], [0, 0, 16]], "warp": [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
      "block": []}),
    ("MFMA16_warp1onK_rhs_kwidth8", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [1, 4]), 8)", [128, 128],
     {"register": [[1, 0], [2, 0], [4, 0], [32, 0], [64, 0], [0, 64]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0], [16, 0]],
      "warp": [[0, 16], [0, 32]], "block": []}),
    ("MFMA16_warp1onK_rhs_kwidth8", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [1, 4]), 8)", [1, 128],
     {"register": [[0, 0], [0, 0], [0, 0], [0, 64]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 0], [0, 0]],
      "warp": [[0, 16], [0, 32]], "block": []}),
    ("MFMA16_warp1onK_rhs_kwidth8", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [1, 4]), 8)", [128, 1],
     {"register": [[1, 0], [2, 0], [4, 0], [32, 0], [64, 0]], "lane": [[0, 0], [0, 0], [0, 0], [0, 0], [8, 0], [16, 0]],
      "warp": [[0, 0], [0, 0]], "block": []}),
    ("MFMA16_warp1onK_rhs_kwidth8", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [1, 4]), 8)", [256, 256],
     {"register": [[1, 0], [2, 0], [4, 0], [32, 0], [64, 0], [128, 0], [0, 64], [0, 128]],
      "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0], [16, 0]], "warp": [[0, 16], [0, 32]], "block": []}),
    ("MFMA16_warp1onK_rhs_kwidth8", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [1, 4]), 8)", [16, 16],
     {"register": [[1, 0], [2, 0], [4, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0], [0, 0]], "warp": [[0, 0], [0, 0]],
      "block": []}),
    ("MFMA16_warp1onK_rhs_kwidth8", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [1, 8]), 8)", [256, 256],
     {"register": [[1, 0], [2, 0], [4, 0], [32, 0], [64, 0], [128, 0], [0, 128]],
      "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0], [16, 0]], "warp": [[0, 16], [0, 32], [0, 64]], "block": []}),
    ("MFMA16_warp1onK_rhs_kwidth8", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [1, 1, 8]), 8)", [1, 256, 256],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 32, 0], [0, 64, 0], [0, 128, 0], [0, 0, 128]],
      "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 8, 0], [0, 16, 0]], "warp": [[0, 0, 16], [0, 0, 32], [0, 0, 64]],
      "block": []}),
    ("MFMA32_dot_op_lhs_tpw_2_2", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [64, 32],
     {"register": [[0, 1], [0, 2], [0, 8], [0, 16], [32, 0]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]],
      "warp": [[0, 0], [0, 0], [0, 0]], "block": []}),
    ("MFMA32_dot_op_lhs_tpw_2_2", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [128, 128],
     {"register": [[0, 1], [0, 2], [0, 8], [0, 16], [0, 32], [0, 64], [32, 0]],
      "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]], "warp": [[0, 0], [0, 0], [64, 0]], "block": []}),
    ("MFMA32_dot_op_lhs_tpw_2_2", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [256, 256],
     {"register": [[0, 1], [0, 2], [0, 8], [0, 16], [0, 32], [0, 64], [0, 128], [32, 0], [128, 0]],
      "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]], "warp": [[0, 0], [0, 0], [64, 0]], "block": []}),
    ("MFMA16_dot_op_lhs_tpw_2_2", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [64, 32],
     {"register": [[0, 1], [0, 2], [0, 16], [16, 0]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 4], [0, 8]],
      "warp": [[0, 0], [0, 0], [32, 0]], "block": []}),
    ("MFMA16_dot_op_lhs_tpw_2_2", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [128, 128],
     {"register": [[0, 1], [0, 2], [0, 16], [0, 32], [0, 64], [16, 0], [64, 0]],
      "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 4], [0, 8]], "warp": [[0, 0], [0, 0], [32, 0]], "block": []}),
    ("MFMA16_dot_op_lhs_tpw_2_2", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [256, 256],
     {"register": [[0, 1], [0, 2], [0, 16], [0, 32], [0, 64], [0, 128], [16, 0], [64, 0], [128, 0]],
      "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 4], [0, 8]], "warp": [[0, 0], [0, 0], [32, 0]], "block": []}),
    ("MFMA32_dot_op_lhs_kwidth4", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [2, 4]), 4)", [128, 128],
     {"register": [[0, 1], [0, 2], [0, 8], [0, 16], [0, 32], [0, 64], [64, 0]],
      "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]], "warp": [[0, 0], [0, 0], [32, 0]], "block": []}),
    ("MFMA32_dot_op_lhs_kwidth4", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [2, 4]), 4)", [64, 32],
     {"register": [[0, 1], [0, 2], [0, 8], [0, 16]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]],
      "warp": [[0, 0], [0, 0], [32, 0]], "block": []}),
    ("MFMA32_dot_op_lhs_kwidth4", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [2, 4]), 4)", [16, 16],
     {"register": [[0, 1], [0, 2], [0, 8]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 0], [0, 4]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("MFMA16_dot_op_lhs_kwidth4", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [2, 4]), 4)", [128, 128],
     {"register": [[0, 1], [0, 2], [0, 16], [0, 32], [0, 64], [32, 0], [64, 0]],
      "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 4], [0, 8]], "warp": [[0, 0], [0, 0], [16, 0]], "block": []}),
    ("MFMA16_dot_op_lhs_kwidth4", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [2, 4]), 4)", [64, 32],
     {"register": [[0, 1], [0, 2], [0, 16], [32, 0]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 4], [0, 8]],
      "warp": [[0, 0], [0, 0], [16, 0]], "block": []}),
    ("MFMA16_dot_op_lhs_kwidth4", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [2, 4]), 4)", [16, 16],
     {"register": [[0, 1], [0, 2]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 4], [0, 8]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("MFMA32_dot_op_rhs_tpw_2_2", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [32, 64],
     {"register": [[1, 0], [2, 0], [8, 0], [16, 0], [0, 32]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]],
      "warp": [[0, 0], [0, 0], [0, 0]], "block": []}),
    ("MFMA32_dot_op_rhs_tpw_2_2", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [128, 128],
     {"register": [[1, 0], [2, 0], [8, 0], [16, 0], [32, 0], [64, 0], [0, 32]],
      "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]], "warp": [[0, 64], [0, 0], [0, 0]], "block": []}),
    ("MFMA32_dot_op_rhs_tpw_2_2", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [256, 256],
     {"register": [[1, 0], [2, 0], [8, 0], [16, 0], [32, 0], [64, 0], [128, 0], [0, 32]],
      "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]], "warp": [[0, 64], [0, 128], [0, 0]], "block": []}),
    ("MFMA16_dot_op_rhs_tpw_2_2", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [32, 64],
     {"register": [[1, 0], [2, 0], [16, 0], [0, 16]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]],
      "warp": [[0, 32], [0, 0], [0, 0]], "block": []}),
    ("MFMA16_dot_op_rhs_tpw_2_2", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [128, 128],
     {"register": [[1, 0], [2, 0], [16, 0], [32, 0], [64, 0], [0, 16]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]],
      "warp": [[0, 32], [0, 64], [0, 0]], "block": []}),
    ("MFMA16_dot_op_rhs_tpw_2_2", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [256, 256],
     {"register": [[1, 0], [2, 0], [16, 0], [32, 0], [64, 0], [128, 0], [0, 16], [0, 128]],
      "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]], "warp": [[0, 32], [0, 64], [0, 0]], "block": []}),
    ("MFMA32_dot_op_rhs_kwidth4", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [2, 4]), 4)", [128, 128],
     {"register": [[1, 0], [2, 0], [8, 0], [16, 0], [32, 0], [64, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]],
      "warp": [[0, 32], [0, 64], [0, 0]], "block": []}),
    ("MFMA32_dot_op_rhs_kwidth4", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [2, 4]), 4)", [32, 64],
     {"register": [[1, 0], [2, 0], [8, 0], [16, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [4, 0]],
      "warp": [[0, 32], [0, 0], [0, 0]], "block": []}),
    ("MFMA32_dot_op_rhs_kwidth4", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [2, 4]), 4)", [16, 16],
     {"register": [[1, 0], [2, 0], [8, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 0], [4, 0]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("MFMA16_dot_op_rhs_kwidth4", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [2, 4]), 4)", [128, 128],
     {"register": [[1, 0], [2, 0], [16, 0], [32, 0], [64, 0], [0, 64]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]],
      "warp": [[0, 16], [0, 32], [0, 0]], "block": []}),
    ("MFMA16_dot_op_rhs_kwidth4", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [2, 4]), 4)", [32, 64],
     {"register": [[1, 0], [2, 0], [16, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]],
      "warp": [[0, 16], [0, 32], [0, 0]], "block": []}),
    ("MFMA16_dot_op_rhs_kwidth4", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [2, 4]), 4)", [16, 16],
     {"register": [[1, 0], [2, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [4, 0], [8, 0]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v1_2x4Warps", "AMDWMMALayout(1, False, [[0, 1], [0, 2], [1, 0]])", [16, 16],
     {"register": [[2, 0], [4, 0], [8, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v1_2x4Warps", "AMDWMMALayout(1, False, [[0, 1], [0, 2], [1, 0]])", [32, 16],
     {"register": [[2, 0], [4, 0], [8, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]], "warp": [[0, 0], [0, 0], [16, 0]],
      "block": []}),
    ("WMMA_v1_2x4Warps", "AMDWMMALayout(1, False, [[0, 1], [0, 2], [1, 0]])", [16, 32],
     {"register": [[2, 0], [4, 0], [8, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]], "warp": [[0, 16], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v1_2x4Warps", "AMDWMMALayout(1, False, [[0, 1], [0, 2], [1, 0]])", [128, 128],
     {"register": [[2, 0], [4, 0], [8, 0], [0, 64], [32, 0], [64, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0]],
      "warp": [[0, 16], [0, 32], [16, 0]], "block": []}),
    ("WMMA_v1_2x4x1Warps", "AMDWMMALayout(1, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3)", [1, 16, 16],
     {"register": [[0, 2, 0], [0, 4, 0], [0, 8, 0]], "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 1, 0]],
      "warp": [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "block": []}),
    ("WMMA_v1_2x4x1Warps", "AMDWMMALayout(1, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3)", [2, 16, 16],
     {"register": [[0, 2, 0], [0, 4, 0], [0, 8, 0]], "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 1, 0]],
      "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v1_2x4x1Warps", "AMDWMMALayout(1, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3)", [8, 16, 16],
     {"register": [[0, 2, 0], [0, 4, 0], [0, 8, 0], [2, 0, 0], [4, 0, 0]],
      "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 1, 0]], "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v1_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(1, False, [[0, 1], [0, 2], [1, 0]]), 16)", [16, 16],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 8]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 0]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v1_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(1, False, [[0, 1], [0, 2], [1, 0]]), 16)", [32, 16],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 8]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 0]], "warp": [[0, 0], [0, 0], [16, 0]],
      "block": []}),
    ("WMMA_v1_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(1, False, [[0, 1], [0, 2], [1, 0]]), 16)", [32, 64],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 0]],
      "warp": [[0, 0], [0, 0], [16, 0]], "block": []}),
    ("WMMA_v1_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(1, False, [[0, 1], [0, 2], [1, 0]]), 16)", [64, 128],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64], [32, 0]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 0]],
      "warp": [[0, 0], [0, 0], [16, 0]], "block": []}),
    ("WMMA_v1_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(1, False, [[0, 1], [0, 2], [1, 0]]), 16)", [16, 16],
     {"register": [[1, 0], [2, 0], [4, 0], [8, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 0]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v1_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(1, False, [[0, 1], [0, 2], [1, 0]]), 16)", [32, 16],
     {"register": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 0]],
      "warp": [[0, 0], [0, 0], [0, 0]], "block": []}),
    ("WMMA_v1_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(1, False, [[0, 1], [0, 2], [1, 0]]), 16)", [32, 64],
     {"register": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 0]],
      "warp": [[0, 16], [0, 32], [0, 0]], "block": []}),
    ("WMMA_v1_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(1, False, [[0, 1], [0, 2], [1, 0]]), 16)", [64, 128],
     {"register": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [0, 64]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 0]],
      "warp": [[0, 16], [0, 32], [0, 0]], "block": []}),
    ("WMMA_v1_2x4x1Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(1, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 16)", [1, 16, 16],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8]], "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 0, 0]],
      "warp": [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "block": []}),
    ("WMMA_v1_2x4x1Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(1, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 16)", [2, 32, 16],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8]], "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 0, 0]],
      "warp": [[0, 16, 0], [0, 0, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v1_2x4x1Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(1, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 16)", [2, 64, 16],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8]], "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 0, 0]],
      "warp": [[0, 16, 0], [0, 32, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v1_2x4x1Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(1, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 16)", [4, 128, 32],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 0, 16], [0, 64, 0], [2, 0, 0]],
      "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 0, 0]], "warp": [[0, 16, 0], [0, 32, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v1_2x4x1Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(1, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 16)", [1, 16, 16],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0]], "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 0, 0]],
      "warp": [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "block": []}),
    ("WMMA_v1_2x4x1Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(1, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 16)", [2, 32, 16],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 16, 0]],
      "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 0, 0]], "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v1_2x4x1Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(1, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 16)", [2, 64, 16],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 16, 0], [0, 32, 0]],
      "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 0, 0]], "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v1_2x4x1Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(1, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 16)", [4, 128, 32],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 16, 0], [0, 32, 0], [0, 64, 0], [0, 0, 16], [2, 0, 0]],
      "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 0, 0]], "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v2_2x4Warps", "AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]])", [16, 16],
     {"register": [[1, 0], [2, 0], [4, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v2_2x4Warps", "AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]])", [32, 16],
     {"register": [[1, 0], [2, 0], [4, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]], "warp": [[0, 0], [0, 0], [16, 0]],
      "block": []}),
    ("WMMA_v2_2x4Warps", "AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]])", [16, 32],
     {"register": [[1, 0], [2, 0], [4, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]], "warp": [[0, 16], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v2_2x4Warps", "AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]])", [64, 128],
     {"register": [[1, 0], [2, 0], [4, 0], [0, 64], [32, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]],
      "warp": [[0, 16], [0, 32], [16, 0]], "block": []}),
    ("WMMA_v2_2x2x2Warps", "AMDWMMALayout(2, False, [[0, 0, 1], [0, 1, 0], [1, 0, 0]], rank=3)", [1, 16, 16],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0]], "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 8, 0]],
      "warp": [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "block": []}),
    ("WMMA_v2_2x2x2Warps", "AMDWMMALayout(2, False, [[0, 0, 1], [0, 1, 0], [1, 0, 0]], rank=3)", [2, 16, 16],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0]], "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 8, 0]],
      "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v2_2x2x2Warps", "AMDWMMALayout(2, False, [[0, 0, 1], [0, 1, 0], [1, 0, 0]], rank=3)", [4, 64, 64],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 0, 32], [0, 32, 0], [2, 0, 0]],
      "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 8, 0]], "warp": [[0, 0, 16], [0, 16, 0], [1, 0, 0]], "block": []}),
    ("TWMMA_v2_2x4Warps", "AMDWMMALayout(2, True, [[0, 1], [0, 2], [1, 0]])", [16, 16],
     {"register": [[0, 1], [0, 2], [0, 4]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("TWMMA_v2_2x4Warps", "AMDWMMALayout(2, True, [[0, 1], [0, 2], [1, 0]])", [32, 16],
     {"register": [[0, 1], [0, 2], [0, 4]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]], "warp": [[0, 0], [0, 0], [16, 0]],
      "block": []}),
    ("TWMMA_v2_2x4Warps", "AMDWMMALayout(2, True, [[0, 1], [0, 2], [1, 0]])", [16, 32],
     {"register": [[0, 1], [0, 2], [0, 4]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]], "warp": [[0, 16], [0, 0], [0, 0]],
      "block": []}),
    ("TWMMA_v2_2x4Warps", "AMDWMMALayout(2, True, [[0, 1], [0, 2], [1, 0]])", [64, 128],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 64], [32, 0]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]],
      "warp": [[0, 16], [0, 32], [16, 0]], "block": []}),
    ("TWMMA_v2_2x2x2Warps", "AMDWMMALayout(2, True, [[0, 0, 1], [0, 1, 0], [1, 0, 0]], rank=3)", [1, 16, 16],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4]], "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 0, 8]],
      "warp": [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "block": []}),
    ("TWMMA_v2_2x2x2Warps", "AMDWMMALayout(2, True, [[0, 0, 1], [0, 1, 0], [1, 0, 0]], rank=3)", [2, 16, 16],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4]], "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 0, 8]],
      "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]], "block": []}),
    ("TWMMA_v2_2x2x2Warps", "AMDWMMALayout(2, True, [[0, 0, 1], [0, 1, 0], [1, 0, 0]], rank=3)", [4, 64, 64],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 32], [0, 32, 0], [2, 0, 0]],
      "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 0, 8]], "warp": [[0, 0, 16], [0, 16, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v2_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 8)", [16, 16],
     {"register": [[0, 1], [0, 2], [0, 4]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v2_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 8)", [32, 16],
     {"register": [[0, 1], [0, 2], [0, 4]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]], "warp": [[0, 0], [0, 0], [16, 0]],
      "block": []}),
    ("WMMA_v2_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 8)", [32, 64],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 16], [0, 32]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]],
      "warp": [[0, 0], [0, 0], [16, 0]], "block": []}),
    ("WMMA_v2_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 8)", [64, 128],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 16], [0, 32], [0, 64], [32, 0]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]],
      "warp": [[0, 0], [0, 0], [16, 0]], "block": []}),
    ("WMMA_v2_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 16)", [16, 32],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 8]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 16]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v2_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 16)", [32, 32],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 8]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 16]], "warp": [[0, 0], [0, 0], [16, 0]],
      "block": []}),
    ("WMMA_v2_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 16)", [32, 128],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 32], [0, 64]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 16]],
      "warp": [[0, 0], [0, 0], [16, 0]], "block": []}),
    ("WMMA_v2_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 16)", [64, 128],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 32], [0, 64], [32, 0]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 16]],
      "warp": [[0, 0], [0, 0], [16, 0]], "block": []}),
    ("WMMA_v2_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 8)", [16, 16],
     {"register": [[1, 0], [2, 0], [4, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v2_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 8)", [32, 16],
     {"register": [[1, 0], [2, 0], [4, 0], [16, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v2_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 8)", [32, 64],
     {"register": [[1, 0], [2, 0], [4, 0], [16, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]],
      "warp": [[0, 16], [0, 32], [0, 0]], "block": []}),
    ("WMMA_v2_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 8)", [64, 128],
     {"register": [[1, 0], [2, 0], [4, 0], [16, 0], [32, 0], [0, 64]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]],
      "warp": [[0, 16], [0, 32], [0, 0]], "block": []}),
    ("WMMA_v2_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 16)", [32, 16],
     {"register": [[1, 0], [2, 0], [4, 0], [8, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [16, 0]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v2_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 16)", [32, 32],
     {"register": [[1, 0], [2, 0], [4, 0], [8, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [16, 0]], "warp": [[0, 16], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v2_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 16)", [64, 64],
     {"register": [[1, 0], [2, 0], [4, 0], [8, 0], [32, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [16, 0]],
      "warp": [[0, 16], [0, 32], [0, 0]], "block": []}),
    ("WMMA_v2_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(2, False, [[0, 1], [0, 2], [1, 0]]), 16)", [128, 128],
     {"register": [[1, 0], [2, 0], [4, 0], [8, 0], [32, 0], [64, 0], [0, 64]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [16, 0]],
      "warp": [[0, 16], [0, 32], [0, 0]], "block": []}),
    ("WMMA_v2_2x4x1Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(2, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 8)", [1, 16, 16],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4]], "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 0, 8]],
      "warp": [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "block": []}),
    ("WMMA_v2_2x4x1Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(2, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 8)", [2, 32, 16],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4]], "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 0, 8]],
      "warp": [[0, 16, 0], [0, 0, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v2_2x4x1Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(2, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 8)", [2, 64, 16],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4]], "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 0, 8]],
      "warp": [[0, 16, 0], [0, 32, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v2_2x4x1Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(2, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 8)", [4, 128, 32],
     {"register": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 16], [0, 64, 0], [2, 0, 0]],
      "lane": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 8, 0], [0, 0, 8]], "warp": [[0, 16, 0], [0, 32, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v2_2x4x1Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(2, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 8)", [1, 16, 16],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0]], "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 8, 0]],
      "warp": [[0, 0, 0], [0, 0, 0], [0, 0, 0]], "block": []}),
    ("WMMA_v2_2x4x1Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(2, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 8)", [2, 32, 16],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 16, 0]], "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 8, 0]],
      "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v2_2x4x1Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(2, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 8)", [2, 64, 16],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 16, 0], [0, 32, 0]],
      "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 8, 0]], "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v2_2x4x1Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(2, False, [[0, 1, 0], [0, 2, 0], [1, 0, 0]], rank=3), 8)", [4, 128, 32],
     {"register": [[0, 1, 0], [0, 2, 0], [0, 4, 0], [0, 16, 0], [0, 32, 0], [0, 64, 0], [0, 0, 16], [2, 0, 0]],
      "lane": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 8, 0]], "warp": [[0, 0, 0], [0, 0, 0], [1, 0, 0]], "block": []}),
    ("WMMA_v3_2x4Warps", "AMDWMMALayout(3, False, [[0, 1], [0, 2], [1, 0]], instr_shape=[16, 16, 32])", [16, 16],
     {"register": [[1, 0], [2, 0], [4, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v3_2x4Warps", "AMDWMMALayout(3, False, [[0, 1], [0, 2], [1, 0]], instr_shape=[16, 16, 32])", [32, 64],
     {"register": [[1, 0], [2, 0], [4, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]], "warp": [[0, 16], [0, 32], [16, 0]],
      "block": []}),
    ("WMMA_v3_2x4Warps", "AMDWMMALayout(3, False, [[0, 1], [0, 2], [1, 0]], instr_shape=[16, 16, 32])", [64, 128],
     {"register": [[1, 0], [2, 0], [4, 0], [0, 64], [32, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]],
      "warp": [[0, 16], [0, 32], [16, 0]], "block": []}),
    ("WMMA_v3_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(3, False, [[0, 1], [0, 2], [1, 0]], instr_shape=[16, 16, 32]), 8)", [16, 32],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 16]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v3_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(3, False, [[0, 1], [0, 2], [1, 0]], instr_shape=[16, 16, 32]), 8)", [32, 32],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 16]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]], "warp": [[0, 0], [0, 0], [16, 0]],
      "block": []}),
    ("WMMA_v3_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(3, False, [[0, 1], [0, 2], [1, 0]], instr_shape=[16, 16, 32]), 8)", [32, 64],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 16], [0, 32]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]],
      "warp": [[0, 0], [0, 0], [16, 0]], "block": []}),
    ("WMMA_v3_2x4Warps_lhs", "DotOperandLayout(0, AMDWMMALayout(3, False, [[0, 1], [0, 2], [1, 0]], instr_shape=[16, 16, 32]), 8)", [64, 128],
     {"register": [[0, 1], [0, 2], [0, 4], [0, 16], [0, 32], [0, 64], [32, 0]], "lane": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 8]],
      "warp": [[0, 0], [0, 0], [16, 0]], "block": []}),
    ("WMMA_v3_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(3, False, [[0, 1], [0, 2], [1, 0]], instr_shape=[16, 16, 32]), 8)", [32, 16],
     {"register": [[1, 0], [2, 0], [4, 0], [16, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]], "warp": [[0, 0], [0, 0], [0, 0]],
      "block": []}),
    ("WMMA_v3_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(3, False, [[0, 1], [0, 2], [1, 0]], instr_shape=[16, 16, 32]), 8)", [32, 64],
     {"register": [[1, 0], [2, 0], [4, 0], [16, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]],
      "warp": [[0, 16], [0, 32], [0, 0]], "block": []}),
    ("WMMA_v3_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(3, False, [[0, 1], [0, 2], [1, 0]], instr_shape=[16, 16, 32]), 8)", [64, 64],
     {"register": [[1, 0], [2, 0], [4, 0], [16, 0], [32, 0]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]],
      "warp": [[0, 16], [0, 32], [0, 0]], "block": []}),
    ("WMMA_v3_2x4Warps_rhs", "DotOperandLayout(1, AMDWMMALayout(3, False, [[0, 1], [0, 2], [1, 0]], instr_shape=[16, 16, 32]), 8)", [64, 128],
     {"register": [[1, 0], [2, 0], [4, 0], [16, 0], [32, 0], [0, 64]], "lane": [[0, 1], [0, 2], [0, 4], [0, 8], [8, 0]],
      "warp": [[0, 16], [0, 32], [0, 0]], "block": []}),
    ("SliceOfBlocked", "SliceLayout(0, BlockedLayout([2, 4], [4, 2], [2, 2], [1, 0], cga_layout=[[0, 1], [1, 0]]))", [128],
     {"register": [[1], [2], [16], [32]], "lane": [[4], [0], [0]], "warp": [[8], [0]], "block": [[64], [0]]}),
    ("SliceOfBlocked", "SliceLayout(1, BlockedLayout([2, 4], [4, 2], [2, 2], [1, 0], cga_layout=[[0, 1], [1, 0]]))", [128],
     {"register": [[1], [16], [32]], "lane": [[0], [2], [4]], "warp": [[0], [8]], "block": [[0], [64]]}),
    ("SliceWithShape1", "SliceLayout(0, BlockedLayout([1, 4], [8, 4], [2, 2], [0, 1]))", [1],
     {"register": [], "lane": [[0], [0], [0], [0], [0]], "warp": [[0], [0]], "block": []}),
    ("Slice4D", "SliceLayout(3, BlockedLayout([1, 1, 1, 4], [2, 1, 1, 16], [1, 2, 4, 1], [3, 0, 1, 2]))", [2, 1, 1],
     {"register": [], "lane": [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [1, 0, 0]], "warp": [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
      "block": []}),
    ("SliceOfMmaV2", "SliceLayout(0, NVMMADistributedLayout([2, 0], [2, 2], [16, 8]))", [16],
     {"register": [[1]], "lane": [[2], [4], [0], [0], [0]], "warp": [[8], [0]], "block": []}),
    ("SliceOfMmaV2", "SliceLayout(0, NVMMADistributedLayout([2, 0], [2, 2], [16, 8]))", [128],
     {"register": [[1], [16], [32], [64]], "lane": [[2], [4], [0], [0], [0]], "warp": [[8], [0]], "block": []}),
    ("SliceOfMmaV2", "SliceLayout(1, NVMMADistributedLayout([2, 0], [2, 2], [16, 8]))", [8],
     {"register": [], "lane": [[0], [0], [1], [2], [4]], "warp": [[0], [0]], "block": []}),
    ("SliceOfMmaV2", "SliceLayout(1, NVMMADistributedLayout([2, 0], [2, 2], [16, 8]))", [128],
     {"register": [[8], [32], [64]], "lane": [[0], [0], [1], [2], [4]], "warp": [[0], [16]], "block": []}),
    ("SharedSimple1D", "SwizzledSharedLayout(1, 1, 1, [0])", [1024],
     {"offset": [[1], [2], [4], [8], [16], [32], [64], [128], [256], [512]], "block": []}),
    ("SharedSimple2D", "SwizzledSharedLayout(1, 1, 1, [1, 0])", [128, 128],
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [64, 0]],
      "block": []}),
    ("SharedSimple2D_Order01", "SwizzledSharedLayout(1, 1, 1, [0, 1])", [128, 128],
     {"offset": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [64, 0], [0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]],
      "block": []}),
    ("SharedSwizzled2D_MaxPhaseOnly", "SwizzledSharedLayout(1, 1, 4, [1, 0])", [32, 32],
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 1], [2, 2], [4, 0], [8, 0], [16, 0]], "block": []}),
    ("SharedSwizzled2D_PerPhaseMaxPhase", "SwizzledSharedLayout(1, 2, 4, [1, 0])", [32, 32],
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 1], [4, 2], [8, 0], [16, 0]], "block": []}),
    ("SharedSwizzled2D_Vec", "SwizzledSharedLayout(2, 1, 4, [1, 0])", [4, 8],
     {"offset": [[0, 1], [0, 2], [0, 4], [1, 2], [2, 4]], "block": []}),
    ("SharedSwizzled2D_PerPhaseMaxPhaseVec", "SwizzledSharedLayout(2, 2, 4, [1, 0])", [32, 32],
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 2], [4, 4], [8, 0], [16, 0]], "block": []}),
    ("SharedSwizzled4D", "SwizzledSharedLayout(2, 2, 4, [3, 2, 1, 0])", [2, 4, 32, 32],
     {"offset": [[0, 0, 0, 1], [0, 0, 0, 2], [0, 0, 0, 4], [0, 0, 0, 8], [0, 0, 0, 16], [0, 0, 1, 0], [0, 0, 2, 2], [0, 0, 4, 4], [0, 0, 8, 0], [0, 0, 16, 0], [0, 1, 0, 0], [0, 2, 0, 0], [1, 0, 0, 0]],
      "block": []}),
    ("SharedSwizzled2D_Order01", "SwizzledSharedLayout(1, 1, 4, [0, 1])", [4, 8],
     {"offset": [[1, 0], [2, 0], [1, 1], [2, 2], [0, 4]], "block": []}),
    ("LeadingOffset_8x16_4_2", "NVMMASharedLayout(32, 16)", [8, 16],
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 8]], "block": []}),
    ("LeadingOffset_128x16_4_2", "NVMMASharedLayout(32, 16)", [128, 16],
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 8], [8, 0], [16, 0], [32, 0], [64, 0]], "block": []}),
    ("LeadingOffset_8x32_2_4", "NVMMASharedLayout(64, 16)", [8, 32],
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 8], [4, 16]], "block": []}),
    ("LeadingOffset_8x64_1_8", "NVMMASharedLayout(128, 16)", [8, 64],
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32]], "block": []}),
    ("LeadingOffset_8x64_1_8_32b", "NVMMASharedLayout(128, 32)", [8, 64],
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 4], [2, 8], [4, 16], [0, 32]], "block": []}),
    ("LeadingOffset_128x128_1_8_128b_transposed", "NVMMASharedLayout(128, 32, transposed=True)", [128, 128],
     {"offset": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [4, 1], [8, 2], [16, 4], [0, 8], [0, 16], [0, 32], [0, 64], [32, 0], [64, 0]],
      "block": []}),
    ("LeadingOffset_32x4x64_1_8_32b", "NVMMASharedLayout(64, 32, rank=3)", [32, 4, 64],
     {"offset": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 1, 0], [0, 2, 4], [1, 0, 8], [2, 0, 0], [4, 0, 0], [8, 0, 0], [16, 0, 0], [0, 0, 16], [0, 0, 32]],
      "block": []}),
    ("LeadingOffset_64x4x32_1_8_32b_transposed", "NVMMASharedLayout(64, 32, rank=3, transposed=True)", [64, 4, 32],
     {"offset": [[1, 0, 0], [2, 0, 0], [4, 0, 0], [8, 0, 0], [0, 0, 4], [4, 0, 8], [8, 0, 16], [0, 1, 0], [0, 2, 0], [0, 0, 1], [0, 0, 2], [16, 0, 0], [32, 0, 0]],
      "block": []}),
    ("Shared1DSwizzle", "SwizzledSharedLayout(2, 2, 4, [1, 0])", [64, 1],
     {"offset": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]], "block": []}),
    ("AMDRotatingShared2D_8x16_ord10", "AMDRotatingSharedLayout(vec=2, per_phase=2, max_phase=2, order=(1, 0), cga_layout=())", [8, 16],
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 2], [4, 2]], "block": []}),
    ("AMDRotatingShared2D_8x16_ord01", "AMDRotatingSharedLayout(vec=2, per_phase=2, max_phase=2, order=(0, 1), cga_layout=())", [8, 16],
     {"offset": [[1, 0], [2, 0], [4, 0], [0, 1], [2, 2], [2, 4], [0, 8]], "block": []}),
    ("AMDRotatingShared2D_64x64", "AMDRotatingSharedLayout(vec=4, per_phase=2, max_phase=4, order=(1, 0), cga_layout=())", [64, 64],
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 0], [2, 4], [4, 8], [8, 4], [16, 8], [32, 0]], "block": []}),
    ("AMDRotatingShared3D_4x64x64", "AMDRotatingSharedLayout(vec=4, per_phase=2, max_phase=4, order=(2, 1, 0), cga_layout=())", [4, 64, 64],
     {"offset": [[0, 0, 1], [0, 0, 2], [0, 0, 4], [0, 0, 8], [0, 0, 16], [0, 0, 32], [0, 1, 0], [0, 2, 4], [0, 4, 8], [0, 8, 4], [0, 16, 8], [0, 32, 0], [1, 0, 0], [2, 0, 0]],
      "block": []}),
    ("MMAv5Fp4Padded", "NVMMASharedLayout(128, 8, fp4_padded=True)", [32, 64],
     {"offset": [[0, 1], [0, 2], [0, 4], [0, 0], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0]], "block": []}),
    ("TensorMemory_blockM_64", "TensorMemoryLayout([64, 64], 1)", [128, 64],
     {"row": [[1, 0], [2, 0], [4, 0], [8, 0], [64, 0], [16, 0], [32, 0]], "col": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]],
      "block": []}),
    ("TensorMemory_blockM_64", "TensorMemoryLayout([64, 64], 1)", [64, 64],
     {"row": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 0], [16, 0], [32, 0]], "col": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]],
      "block": []}),
    ("TensorMemory_blockM_64", "TensorMemoryLayout([64, 64], 1)", [256, 128],
     {"row": [[1, 0], [2, 0], [4, 0], [8, 0], [64, 0], [16, 0], [32, 0]],
      "col": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [128, 0], [0, 64]], "block": []}),
    ("TensorMemory_blockM_64", "TensorMemoryLayout([64, 64], 1)", [64, 256],
     {"row": [[1, 0], [2, 0], [4, 0], [8, 0], [0, 64], [16, 0], [32, 0]],
      "col": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 128]], "block": []}),
    ("TensorMemory_blockM_128", "TensorMemoryLayout([128, 128], 1)", [128, 128],
     {"row": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [64, 0]],
      "col": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64]], "block": []}),
    ("TensorMemory_blockM_128", "TensorMemoryLayout([128, 128], 1)", [256, 128],
     {"row": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [64, 0]],
      "col": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64], [128, 0]], "block": []}),
    ("TensorMemory_blockM_128", "TensorMemoryLayout([128, 128], 1)", [256, 256],
     {"row": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [64, 0]],
      "col": [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [0, 64], [128, 0], [0, 128]], "block": []}),
    ("TensorMemory_fp4Padded", "TensorMemoryLayout([128, 64], 1, fp4_padded=True)", [128, 64],
     {"row": [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0], [64, 0]],
      "col": [[0, 0], [0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], "block": []}),
]

#: (Triton test, layout, shape, layout, shape): the two must give the same linear layout
SAME = [
    ("MFMA32_dot_op_lhs_tpw_2_2", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], True, [2, 4], tiles_per_warp=[2, 2]), 4)", [64, 32], "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [64, 32]),
    ("MFMA32_dot_op_lhs_tpw_2_2", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], True, [2, 4], tiles_per_warp=[2, 2]), 4)", [128, 128], "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [128, 128]),
    ("MFMA32_dot_op_lhs_tpw_2_2", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], True, [2, 4], tiles_per_warp=[2, 2]), 4)", [256, 256], "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [256, 256]),
    ("MFMA16_dot_op_lhs_tpw_2_2", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], True, [2, 4], tiles_per_warp=[2, 2]), 4)", [64, 32], "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [64, 32]),
    ("MFMA16_dot_op_lhs_tpw_2_2", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], True, [2, 4], tiles_per_warp=[2, 2]), 4)", [128, 128], "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [128, 128]),
    ("MFMA16_dot_op_lhs_tpw_2_2", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], True, [2, 4], tiles_per_warp=[2, 2]), 4)", [128, 128], "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [128, 128]),
    ("MFMA32_dot_op_lhs_kwidth4", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], True, [2, 4]), 4)", [128, 128], "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [2, 4]), 4)", [128, 128]),
    ("MFMA32_dot_op_lhs_kwidth4", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], True, [2, 4]), 4)", [64, 32], "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [2, 4]), 4)", [64, 32]),
    ("MFMA32_dot_op_lhs_kwidth4", "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], True, [2, 4]), 4)", [16, 16], "DotOperandLayout(0, AMDMFMALayout(3, [32, 32, 8], False, [2, 4]), 4)", [16, 16]),
    ("MFMA16_dot_op_lhs_kwidth4", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], True, [2, 4]), 4)", [128, 128], "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [2, 4]), 4)", [128, 128]),
    ("MFMA16_dot_op_lhs_kwidth4", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], True, [2, 4]), 4)", [64, 32], "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [2, 4]), 4)", [64, 32]),
    ("MFMA16_dot_op_lhs_kwidth4", "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], True, [2, 4]), 4)", [16, 16], "DotOperandLayout(0, AMDMFMALayout(3, [16, 16, 16], False, [2, 4]), 4)", [16, 16]),
    ("MFMA32_dot_op_rhs_tpw_2_2", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], True, [2, 4], tiles_per_warp=[2, 2]), 4)", [128, 128], "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [128, 128]),
    ("MFMA32_dot_op_rhs_tpw_2_2", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], True, [2, 4], tiles_per_warp=[2, 2]), 4)", [32, 64], "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [32, 64]),
    ("MFMA32_dot_op_rhs_tpw_2_2", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], True, [2, 4], tiles_per_warp=[2, 2]), 4)", [256, 256], "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [256, 256]),
    ("MFMA16_dot_op_rhs_tpw_2_2", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], True, [2, 4], tiles_per_warp=[2, 2]), 4)", [32, 64], "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [32, 64]),
    ("MFMA16_dot_op_rhs_tpw_2_2", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], True, [2, 4], tiles_per_warp=[2, 2]), 4)", [128, 128], "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [128, 128]),
    ("MFMA16_dot_op_rhs_tpw_2_2", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], True, [2, 4], tiles_per_warp=[2, 2]), 4)", [256, 256], "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [2, 4], tiles_per_warp=[2, 2]), 4)", [256, 256]),
    ("MFMA32_dot_op_rhs_kwidth4", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], True, [2, 4]), 4)", [128, 128], "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [2, 4]), 4)", [128, 128]),
    ("MFMA32_dot_op_rhs_kwidth4", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], True, [2, 4]), 4)", [64, 32], "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [2, 4]), 4)", [64, 32]),
    ("MFMA32_dot_op_rhs_kwidth4", "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], True, [2, 4]), 4)", [16, 16], "DotOperandLayout(1, AMDMFMALayout(3, [32, 32, 8], False, [2, 4]), 4)", [16, 16]),
    ("MFMA16_dot_op_rhs_kwidth4", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], True, [2, 4]), 4)", [128, 128], "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [2, 4]), 4)", [128, 128]),
    ("MFMA16_dot_op_rhs_kwidth4", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], True, [2, 4]), 4)", [64, 32], "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [2, 4]), 4)", [64, 32]),
    ("MFMA16_dot_op_rhs_kwidth4", "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], True, [2, 4]), 4)", [16, 16], "DotOperandLayout(1, AMDMFMALayout(3, [16, 16, 16], False, [2, 4]), 4)", [16, 16]),
]

_CLASSES = {c.__name__: c for c in (AMDMFMALayout, AMDWMMALayout, BlockedLayout, DotOperandLayout, NVMMADistributedLayout,
                                    NVMMASharedLayout, SliceLayout, SwizzledSharedLayout, TensorMemoryLayout,
                                    AMDRotatingSharedLayout)}


def make(text):
    """Our layout from its constructor text: Gluon's through our parser, the rotating one (an MLIR
    attribute, no Gluon class) through its constructor."""
    if text.startswith("AMDRotatingSharedLayout"):
        return eval(text, {"__builtins__": {}}, _CLASSES)  # our own constructor text, from CASES above
    return parse(text)


def expected(name, bases, shape):
    want = LinearLayout(bases, {f"dim{i}": s for i, s in enumerate(shape)}, require_surjective=False)
    if "row" in bases and bases.get("block") == []:
        # Triton's C++ tensor-memory layout ends with a block in-dim of size 1; Gluon's (and ours)
        # has none without a CGA
        want = want.sublayout(["row", "col"], want.out_dim_names)
    if name == "Blocked4D":
        # the unit test keeps two zero register bases (the shape cuts the 4 registers to 1);
        # Triton 3.9 drops them (GluonOpBuilder.to_linear_layout, see the reference test) and so do we
        assert bases["register"] == [[0, 0, 0, 0]] * 2
        want = want.remove_zero_bases("register")
    return want


def _ids(rows):
    seen: dict[str, int] = {}
    out = []
    for row in rows:
        seen[row[0]] = seen.get(row[0], 0) + 1
        out.append(f"{row[0]}-{seen[row[0]]}")
    return out


@pytest.mark.parametrize("name, layout, shape, bases", CASES, ids=_ids(CASES))
def test_triton_case(name, layout, shape, bases):
    assert make(layout).to_linear(shape) == expected(name, bases, shape)


@pytest.mark.parametrize("name, layout_a, shape_a, layout_b, shape_b", SAME, ids=_ids(SAME))
def test_triton_same_layouts(name, layout_a, shape_a, layout_b, shape_b):
    # a dot operand of a transposed MFMA layout is the operand of the plain one
    assert make(layout_a).to_linear(shape_a) == make(layout_b).to_linear(shape_b)


def test_every_case_reads_back():
    # the constructor texts are our Gluon text form: each reads back to the layout it prints
    for _, text, _, _ in CASES:
        lay = make(text)
        assert repr(lay) == text


def test_TensorMemory_CTASplit():
    # two CTAs along N, each with its own 128 x 64 block
    split = TensorMemoryLayout([128, 64], 1, cga_layout=[[0, 1]]).to_linear([128, 128])
    assert split == TensorMemoryLayout([128, 64], 1).to_linear([128, 64]) * I(2, "block", "dim1")


def test_TensorMemoryScales_BlockRepOrder():
    # kThenMn over [256, 8]: 32 rows (copied over the four warps' lanes), then columns: 4 scales,
    # rows 32 and 64, two more scales (dim1 4), then rows 128
    k_then_mn = TensorMemoryScalesLayout(block_rep_order="kThenMn").to_linear([256, 8])
    want = (I(32, "row", "dim0") * Z(4, "row", "dim0") * I(4, "col", "dim1") * I(2, "col", "dim0") * I(2, "col", "dim0")
            * I(2, "col", "dim1") * I(2, "col", "dim0"))
    assert k_then_mn == want
    assert k_then_mn != TensorMemoryScalesLayout(block_rep_order="mnThenK").to_linear([256, 8])


NOT_APPLICABLE = {
    "CanonicalScaleSmemLayout": "getScaleSmemLayoutForTMEMCopy (the shared-memory layout of block scales before a "
                                "tcgen05.cp to tensor memory) is a lowering choice, not a layout family; we have no equivalent",
    "MFMA16_dot_op_lhs_trans_fp4_mn_packed": "chooseDsReadTrLayout (AMD ds_read_tr register layouts) has no equivalent here",
    "MFMA16_dot_op_rhs_trans_fp4_mn_packed": "chooseDsReadTrLayout (AMD ds_read_tr register layouts) has no equivalent here",
    "MFMA32_dot_op_lhs_trans_fp4_mn_packed": "chooseDsReadTrLayout (AMD ds_read_tr register layouts) has no equivalent here",
    "MFMA32_dot_op_rhs_tran_fp4_mn_packeds": "chooseDsReadTrLayout (AMD ds_read_tr register layouts) has no equivalent here",
    "ChooseShmemLayout": "chooseShemLayoutForRegToRegConversion (the offset/iteration scratch layout of Triton's older "
                         "padded convert_layout lowering) has no equivalent here; our planner models the swizzled round trip",
    "ChooseShmemLayout_Empty": "chooseShemLayoutForRegToRegConversion has no equivalent here (see ChooseShmemLayout)",
    "ChooseShmemLayout_Multidim": "chooseShemLayoutForRegToRegConversion has no equivalent here (see ChooseShmemLayout)",
    "SM120DotScaledScaleLayout": "getSM120DotScaledScaleLayout (the register layout of SM120 dot_scaled scales) is not "
                                 "a Gluon layout family; we have no equivalent",
    "NvmmaSharedToLinearLayout_TMAModeIndependence": "we model no TMA mode (tiled / im2col): an NVMMASharedLayout has "
                                                     "one linear layout; test_triton39_nvmma_shapes_of_the_tma_test checks "
                                                     "those shapes against Triton 3.9",
}


@pytest.mark.parametrize("name", sorted(NOT_APPLICABLE))
def test_not_applicable(name):
    pytest.skip(f"{name}: {NOT_APPLICABLE[name]}")


# ------------------------------------------------------------------ Triton 3.9 on the same rows


@pytest.fixture(scope="module")
def builder():
    pytest.importorskip("triton")
    from triton._C.libtriton import gluon_ir, ir

    ctx = ir.context()
    ir.load_dialects(ctx)
    b = gluon_ir.GluonOpBuilder(ctx)
    b._ctx = ctx  # keep the context alive with the builder
    return b


def _triton39(builder, layout, shape):
    from converters.gluon import linear_from_triton, to_triton

    return linear_from_triton(builder.to_linear_layout(to_triton(layout)._to_ir(builder), list(shape)))


@pytest.mark.reference
def test_triton39_agrees_with_every_row(builder):
    # every row but the rotating layout (no Gluon class in 3.9): Triton 3.9 gives our answer, so
    # where the unit test says otherwise (Blocked4D), 3.9 is on our side
    checked = 0
    for name, text, shape, bases in CASES:
        if text.startswith("AMDRotatingSharedLayout"):
            continue
        lay = make(text)
        assert _triton39(builder, lay, shape) == lay.to_linear(shape), (name, text, shape)
        checked += 1
    assert checked == 236
    b4d = next(r for r in CASES if r[0] == "Blocked4D")
    theirs = _triton39(builder, make(b4d[1]), b4d[2])
    assert theirs.bases["register"] == () and b4d[3]["register"] != []


@pytest.mark.reference
def test_triton39_nvmma_shapes_of_the_tma_test(builder):
    # the shapes of NvmmaSharedToLinearLayout_TMAModeIndependence: fp16, swizzle 0/32/64/128 bytes,
    # 512 or 1024 rows (beyond the 256-row limit of a tiled TMA box)
    for swizzle in (0, 32, 64, 128):
        for rows in (512, 1024):
            lay = NVMMASharedLayout(swizzle, 16)
            shape = [rows, 64 if swizzle == 0 else 128]
            assert _triton39(builder, lay, shape) == lay.to_linear(shape)


@pytest.mark.reference
def test_triton39_tensor_memory_scales_block_rep_order(builder):
    # Gluon 3.9's Rubin TensorMemoryScalesLayout(block_rep_order=...) through Triton's builder
    for order in ("mnThenK", "kThenMn"):
        for shape in ([32, 8], [64, 4], [128, 16], [256, 4], [256, 8], [512, 32], [1024, 64]):
            lay = TensorMemoryScalesLayout(block_rep_order=order)
            assert _triton39(builder, lay, shape) == lay.to_linear(shape), (order, shape)
