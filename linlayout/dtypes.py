"""Element types and their widths: the one table every module reads.

A width here is the number of bits one element occupies in registers and memory, the width a
layout's byte arithmetic needs.  That is the type's own width, except for booleans: Triton
stores ``i1`` as one byte in memory, so ``"i1"``, ``"int1"`` and ``"bool"`` are 8 bits wide.

    >>> element_bitwidth("bf16"), element_bitwidth("half"), element_bitwidth("fp4"), element_bitwidth("i1")
    (16, 16, 4, 8)
    >>> element_bitwidth(32)
    32
    >>> element_bitwidth("f17")
    Traceback (most recent call last):
    ...
    linlayout.errors.LayoutError: unknown element type 'f17'; expected a bit width (1, 2, 4, ..., 128) or a type name such as f16, bf16, fp8, i8, f32, tf32, f64, fp4
"""

from __future__ import annotations

from typing import Any

from .errors import LayoutError, SizeError

__all__ = ["DTYPE_BITS", "element_bitwidth"]

#: Bits per element for every spelling of an element type that Triton, Gluon, CuTe, PyTorch,
#: numpy or MLIR uses (lower case; ``torch.``, ``tl.``, ``gl.`` prefixes are dropped first).
DTYPE_BITS: dict[str, int] = {
    # 4-bit
    "fp4": 4, "float4": 4, "e2m1": 4, "float4_e2m1": 4, "float4_e2m1fn": 4, "f4e2m1fn": 4,
    "int4": 4, "uint4": 4, "i4": 4, "u4": 4,
    # 8-bit (booleans are stored as bytes)
    "i1": 8, "int1": 8, "bool": 8,
    "fp8": 8, "float8": 8, "e4m3": 8, "e5m2": 8, "float8_e4m3fn": 8, "float8_e5m2": 8,
    "float8e4nv": 8, "float8e5": 8, "float8e4b15": 8, "fp8e4nv": 8, "fp8e5": 8, "fp8e4b15": 8,
    "f8e4m3fn": 8, "f8e5m2": 8, "f8e4m3fnuz": 8, "f8e5m2fnuz": 8, "fp8e4b8": 8, "fp8e5b16": 8,
    "int8": 8, "uint8": 8, "i8": 8, "u8": 8, "s8": 8, "b8": 8, "byte": 8,
    # 16-bit
    "fp16": 16, "float16": 16, "half": 16, "f16": 16, "bf16": 16, "bfloat16": 16,
    "int16": 16, "uint16": 16, "i16": 16, "u16": 16, "s16": 16, "b16": 16,
    # 32-bit
    "fp32": 32, "float32": 32, "float": 32, "f32": 32, "tf32": 32, "int32": 32, "uint32": 32,
    "i32": 32, "u32": 32, "s32": 32, "b32": 32,
    # 64-bit
    "fp64": 64, "float64": 64, "double": 64, "f64": 64, "int64": 64, "uint64": 64, "i64": 64,
    "u64": 64, "s64": 64, "b64": 64, "ptr": 64,
}

_PREFIXES = ("torch.", "tl.", "gl.", "ttgl.", "np.", "numpy.")


def element_bitwidth(dtype: Any) -> int:
    """Bits of one element given as a name (any spelling in :data:`DTYPE_BITS`), a bit width
    (a power of two from 1 to 128), or a dtype object (Triton's ``primitive_bitwidth``, numpy's
    ``itemsize``)."""
    if isinstance(dtype, bool):
        raise LayoutError(f"element type must be a name, a bit width or a dtype, got {dtype!r}")
    if isinstance(dtype, int) or type(dtype).__name__.startswith(("int", "uint")) and hasattr(dtype, "__index__"):
        bits = int(dtype)
    elif isinstance(dtype, str):
        key = dtype.strip().lower()
        for p in _PREFIXES:
            if key.startswith(p):
                key = key[len(p):]
        if key not in DTYPE_BITS:
            raise LayoutError(
                f"unknown element type {dtype!r}; expected a bit width (1, 2, 4, ..., 128) or a type "
                "name such as f16, bf16, fp8, i8, f32, tf32, f64, fp4"
            )
        return DTYPE_BITS[key]
    elif hasattr(dtype, "primitive_bitwidth"):
        bits = int(dtype.primitive_bitwidth)
        if bits == 1:
            bits = 8
    elif hasattr(dtype, "itemsize"):
        bits = int(dtype.itemsize) * 8
    else:
        try:
            import numpy as np

            bits = np.dtype(dtype).itemsize * 8
        except (TypeError, ValueError, SyntaxError):  # np.dtype({...}) is a ValueError, np.dtype("01") a SyntaxError
            raise LayoutError(f"cannot tell the bit width of element type {dtype!r}") from None
    if bits not in (1, 2, 4, 8, 16, 32, 64, 128):
        raise SizeError(f"element bit width must be a power of two between 1 and 128, got {bits}")
    return bits
