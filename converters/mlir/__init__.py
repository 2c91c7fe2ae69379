"""Triton's IR (TritonGPU MLIR): layout attributes, tensor and memdesc types, whole modules.

    >>> from converters.mlir import parse_attr, to_mlir, parse_type
    >>> t = parse_type("tensor<128x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>")
    >>> t.shape, t.dtype, str(t.kind)
    ((128, 64), 'f16', 'distributed')
    >>> t.to_linear().out_dims
    {'dim0': 128, 'dim1': 64}
"""

from .attrs import ATTRIBUTE_NAMES, MemorySpace, parse_attr, to_mlir
from .types import MemDescType, TensorType, parse_type

__all__ = ["ATTRIBUTE_NAMES", "MemorySpace", "parse_attr", "to_mlir", "parse_type", "TensorType", "MemDescType"]
