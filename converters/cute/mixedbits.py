"""CuTe's ``MixedBits`` (C++ ``swizzle.hpp``): a 32-bit unsigned value some of whose bits are
known at compile time and the others only at run time.

C++ tracks, for the offset of a swizzled layout sliced at a run-time coordinate, which bits are
static (``StaticInt``) and which are dynamic (``StaticFlags``, the mask of run-time bits), so that
the swizzle can still be decided at compile time where the static bits settle it.  The value is
``static_int | (dynamic_int & flags)``; the bitwise operators combine the static parts at compile
time and the dynamic parts at run time, and the result's value is always the plain bitwise
operation on the values (what ``mixedbits.cpp`` checks).  Here the "static" and "dynamic" parts
are both Python ints; the class keeps C++'s split so its printed form and its
:func:`~converters.cute.queries.max_alignment` match C++'s.

    >>> m0 = make_mixed_bits(0b100, 0b011, 0b011)
    >>> m0, int(m0)
    (MixedBits(M_4|(3&3)=7), 7)
    >>> m1 = make_mixed_bits(0b001, 0b110, 0b110)
    >>> m1, m0 & m1, m0 ^ m1                # C++ prints the same (tests/oracles/cute-cpp/extras.jsonl)
    (MixedBits(M_1|(6&6)=7), MixedBits(M_0|(7&7)=7), MixedBits(M_0|(0&7)=0))
    >>> make_mixed_bits(5, 3, 0)          # no dynamic bit: a plain (static) int
    5
"""

from __future__ import annotations

from typing import Any, Union

import re

from linlayout.errors import LayoutError, ParseError, SizeError

__all__ = ["MixedBits", "make_mixed_bits", "MixedBitsError"]

_U32 = 0xFFFFFFFF
_TEXT = re.compile(r"M_(\d{1,10})\|\((\d{1,10})&(\d{1,10})\)=(\d{1,10})")


class MixedBitsError(LayoutError):
    """A MixedBits whose parts break C++'s invariants (no dynamic bit, overlapping static and
    dynamic bits, a value outside 32 bits) or an unsupported operand."""


def _u32(v: Any, what: str) -> int:
    if type(v) is not int and not (isinstance(v, int) and not isinstance(v, bool)):
        raise MixedBitsError(f"MixedBits: {what} must be an int, got {type(v).__name__} {v!r}")
    if not 0 <= v <= _U32:
        raise SizeError(f"MixedBits: {what} must be a 32-bit unsigned value, got {v}")
    return int(v)


class MixedBits:
    """``static_int | (dynamic_int & flags)`` with ``flags`` the run-time bits (C++
    ``MixedBits<StaticInt, StaticFlags>{dynamic_int}``).  Build one with :func:`make_mixed_bits`
    (which returns a plain int when no bit is dynamic); the operators ``& | ^`` take MixedBits
    or ints (static constants), ``<< >>`` an int shift.

    >>> m = MixedBits(0b1000, 0b0110, 0b0010)
    >>> int(m), m.max_alignment(), str(m ^ 0b1100)
    (10, 2, 'M_0|(6&6)=6')
    """

    __slots__ = ("static_int", "flags", "dynamic_int")

    def __init__(self, static_int: int, flags: int, dynamic_int: int):
        s = _u32(static_int, "the static bits")
        f = _u32(flags, "the dynamic-bit mask")
        d = _u32(dynamic_int, "the dynamic bits")
        if f == 0:
            raise MixedBitsError("MixedBits needs at least one dynamic bit (C++: 'Should be at least one dynamic bit in MixedBits.')")
        if s & f:
            raise MixedBitsError(f"MixedBits: the static bits {s:#x} overlap the dynamic mask {f:#x} "
                                 f"(C++: 'No static/dynamic overlap allowed in MixedBits.')")
        if d & ~f:
            raise MixedBitsError(f"MixedBits: the dynamic bits {d:#x} lie outside the dynamic mask {f:#x}")
        self.static_int, self.flags, self.dynamic_int = s, f, d

    def __int__(self) -> int:
        return self.static_int | self.dynamic_int

    __index__ = __int__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MixedBits):
            return (self.static_int, self.flags, self.dynamic_int) == (other.static_int, other.flags, other.dynamic_int)
        if isinstance(other, int) and not isinstance(other, bool):  # C++ operator==(MixedBits, C<S1>)
            return self.static_int == (other & ~self.flags & _U32) and self.dynamic_int == (other & self.flags)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("MixedBits", self.static_int, self.flags, self.dynamic_int))

    def _other(self, o: Any) -> "MixedBits | int":
        if isinstance(o, MixedBits):
            return o
        return _u32(o, "the other operand")

    def __and__(self, o: Any) -> "MixedBits | int":
        o = self._other(o)
        S0, F0, d0 = self.static_int, self.flags, self.dynamic_int
        if isinstance(o, MixedBits):
            S1, F1, d1 = o.static_int, o.flags, o.dynamic_int
            return make_mixed_bits(S0 & S1, ((S1 & F0) & d0) | ((S0 & F1) & d1) | (d0 & d1), (S1 & F0) | (S0 & F1) | (F0 & F1))
        return make_mixed_bits(S0 & o, d0, F0 & o)

    def __or__(self, o: Any) -> "MixedBits | int":
        o = self._other(o)
        S0, F0, d0 = self.static_int, self.flags, self.dynamic_int
        if isinstance(o, MixedBits):
            S1, F1, d1 = o.static_int, o.flags, o.dynamic_int
            return make_mixed_bits(S0 | S1, ((~S1 & F0) & d0) | ((~S0 & F1) & d1), ((~S0 & F1) | (~S1 & F0)) & _U32)
        return make_mixed_bits(S0 | o, d0, F0 & ~o & _U32)

    def __xor__(self, o: Any) -> "MixedBits | int":
        o = self._other(o)
        S0, F0, d0 = self.static_int, self.flags, self.dynamic_int
        if isinstance(o, MixedBits):
            S1, F1, d1 = o.static_int, o.flags, o.dynamic_int
            return make_mixed_bits(((~S0 & S1 & ~F0) | (S0 & ~S1 & ~F1)) & _U32, (S0 | d0) ^ (S1 | d1), F0 | F1)
        return make_mixed_bits(((~S0 & o & ~F0) | (S0 & ~o)) & _U32, (S0 | d0) ^ o, F0)

    __rand__ = __and__
    __ror__ = __or__
    __rxor__ = __xor__

    def __lshift__(self, k: int) -> "MixedBits | int":
        k = _u32(k, "the shift")
        return make_mixed_bits((self.static_int << k) & _U32, (self.dynamic_int << k) & _U32, (self.flags << k) & _U32)

    def __rshift__(self, k: int) -> "MixedBits | int":
        k = _u32(k, "the shift")
        return make_mixed_bits(self.static_int >> k, self.dynamic_int >> k, self.flags >> k)

    def max_alignment(self) -> int:
        """``1 << countr_zero(static | flags)``: the lowest bit the value may hold (C++)."""
        m = self.static_int | self.flags
        return m & -m

    def __str__(self) -> str:
        return f"M_{self.static_int}|({self.dynamic_int}&{self.flags})={int(self)}"

    @classmethod
    def parse(cls, text: str) -> "MixedBits":
        """Read C++'s print form ``M_S|(d&F)=v`` back (the value ``v`` must agree).

        >>> MixedBits.parse("M_4|(3&3)=7")
        MixedBits(M_4|(3&3)=7)
        """
        m = _TEXT.fullmatch(text.strip()) if isinstance(text, str) and len(text) < 100 else None
        if m is None:
            raise ParseError(f"expected a MixedBits as C++ prints it, M_S|(d&F)=v, got {text!r}")
        s, d, f, v = (int(g) for g in m.groups())
        out = cls(s, f, d)
        if int(out) != v:
            raise ParseError(f"{text!r}: the value {v} is not {s} | ({d} & {f}) = {int(out)}")
        return out

    def __repr__(self) -> str:
        return f"MixedBits({self})"


def make_mixed_bits(s: int, d: int, f: int) -> Union[MixedBits, int]:
    """C++ ``make_mixed_bits(C<s>, d, C<f>)``: the value ``s | (d & f)`` with the bits of ``f`` not
    in ``s`` dynamic (static bits win); a plain int when no bit is left dynamic.

    >>> make_mixed_bits(0b100, 0b111, 0b110)
    MixedBits(M_4|(2&2)=6)
    >>> make_mixed_bits(0b110, 0b111, 0b110)
    6
    """
    s, d, f = _u32(s, "the static bits"), _u32(d, "the dynamic value"), _u32(f, "the dynamic-bit mask")
    new_f = f & ~s & _U32
    if new_f == 0:
        return s | (d & new_f)
    return MixedBits(s, new_f, d & new_f)
