"""TIRx axes as hardware: a TileLayout's mixed-radix map renamed to the in-dims of a linear
layout (``lane``, ``warp``, ``register``/``offset``, ``row``, ``col``) and back.

``tx``/``tid``/``tid_in_wg`` split into lane (low 5 bits) and warp; ``wgid`` is warp bits above a
4-warp group; ``m`` is ``register`` beside a thread axis and ``offset`` otherwise.

    >>> from linlayout.mixed_radix import MixedRadixLayout
    >>> to_hardware(MixedRadixLayout({"x": [(64, 1, "tx")]})).digits
    {'x': (Digit(extent=32, stride=1, axis='lane'), Digit(extent=2, stride=1, axis='warp'))}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from linlayout.errors import NotInvertibleError, NotLinearError, UnsupportedError
from linlayout.mixed_radix import Digit, MixedRadixLayout

from .axes import BACK_NAMES, LINEAR_AXIS_NAMES, THREAD_AXES, WARP, WARPS_PER_GROUP

__all__ = [
    "to_hardware", "from_hardware", "invert_to_hardware", "logical_first", "places_first", "hardware_name", "split_digit",
    "coalesce_digits",
]


def split_digit(d: Digit, at: int, low: str, high: str) -> list[Digit]:
    """Split a digit on a thread-id axis into ``low`` (values mod ``at``) and ``high`` (// at)."""
    s, e = d.stride, d.extent
    if s == 0:
        return [Digit(e, 0, low)]
    if s % at == 0:
        return [Digit(e, s // at, high)]
    if s * (e - 1) < at:
        return [Digit(e, s, low)]
    if at % s == 0 and e % (at // s) == 0:
        k = at // s
        return [Digit(k, s, low), Digit(e // k, 1, high)]
    raise NotLinearError(f"to_linear: the digit {d} straddles the {low}/{high} boundary at {at}")


def hardware_name(axis: str, has_thread: bool) -> str:
    if axis == "m":
        return "register" if has_thread else "offset"
    return LINEAR_AXIS_NAMES.get(axis, axis)


def to_hardware(g: MixedRadixLayout) -> MixedRadixLayout:
    has_thread = any(a in THREAD_AXES for a in g.axes)

    def conv(d: Digit) -> list[Digit]:
        if d.axis in ("tx", "tid", "tid_in_wg"):
            return split_digit(d, WARP, "lane", "warp")
        if d.axis == "wgid":
            return [Digit(d.extent, d.stride * WARPS_PER_GROUP, "warp")]
        return [Digit(d.extent, d.stride, hardware_name(d.axis, has_thread))]

    digits = [(n, [x for d in dl for x in conv(d)]) for n, dl in g.digits.items()]
    reps = [x for d in g.replicas for x in conv(d)]
    off: dict[str, int] = {}
    for a, v in g.offset.items():
        if v:
            off[hardware_name(a, has_thread)] = v
    order = ["register", "offset", "row", "col", "lane", "warp"]
    present = {d.axis for _, dl in digits for d in dl} | {d.axis for d in reps} | set(off)
    axes = [a for a in order if a in present] + sorted(a for a in present if a not in order)
    return MixedRadixLayout(digits, reps, off, axes)


def invert_to_hardware(fwd: Any, logical: Sequence[str]) -> Any:
    """Invert a logical-first linear layout (with an optional ``replica`` in-dim)."""
    if not fwd.is_invertible():
        raise NotInvertibleError(
            f"to_linear: the hardware box {fwd.out_dims} is not covered exactly once by "
            f"{fwd.in_dims} (use hardware_first=False for the forward map)"
        )
    inv = fwd.invert()
    return inv.sublayout(list(inv.in_dim_names), [n for n in logical])


def logical_first(L: Any) -> tuple[Any, list[Digit]]:
    from linlayout import LinearLayout

    outs = dict(L.out_dims)
    reps: list[Digit] = []
    keep: dict[str, list[int]] = {}
    bases: dict[str, list] = {}
    for n, bl in L.bases.items():
        keep[n] = []
        bases[n] = []
        for j, v in enumerate(bl):
            if any(v):
                keep[n].append(j)
                bases[n].append(list(v))
            else:
                reps.append(Digit(2, 1 << j, n))
    red = LinearLayout(bases, outs, require_surjective=False)
    if not red.is_invertible():
        raise UnsupportedError(
            "from_linear: after removing zero bases (replicas) the layout is not a bijection "
            f"({red.in_dims} -> {red.out_dims}); only zero-basis replication is supported"
        )
    inv = red.invert()  # dims -> reduced hardware
    # expand reduced hardware bit positions back to the original ones
    fwd_bases = {}
    for d, bl in inv.bases.items():
        vecs = []
        for v in bl:
            row = []
            for n, x in zip(inv.out_dim_names, v):
                y = 0
                for b, j in enumerate(keep[n]):
                    if x >> b & 1:
                        y |= 1 << j
                row.append(y)
            vecs.append(row)
        fwd_bases[d] = vecs
    full = LinearLayout(fwd_bases, {n: L.in_dims[n] for n in inv.out_dim_names}, require_surjective=False)
    return full, reps


def places_first(h: MixedRadixLayout) -> tuple[MixedRadixLayout, list[Digit]]:
    """The mixed-radix counterpart of :func:`logical_first`: split a hardware-first layout
    (places -> coordinates, as :meth:`TileLayout.to_general` gives) into the coordinate-first map
    (coordinates -> places) and its replicas.  A stride-0 digit of a hardware in-dim (the places it
    steps through hold one element) becomes a replica digit with its place value on that axis;
    the other digits must map onto the coordinates one to one.

        >>> h = MixedRadixLayout({"lane": [(4, 1, "dim0"), (2, 0, "dim0")]}, out_dims={"dim0": 4})
        >>> fwd, reps = places_first(h)
        >>> fwd.digits, reps
        ({'dim0': (Digit(extent=4, stride=1, axis='lane'),)}, [Digit(extent=2, stride=4, axis='lane')])

    Raises:
        NotInvertibleError: some coordinate is held by no place, or by two places that are not
            replicas of each other.
    """
    parts: list[tuple[str, list[Digit]]] = []  # one in-dim per non-replica digit
    where: dict[str, tuple[str, int]] = {}  # that in-dim -> (hardware axis, the digit's place value)
    reps: list[Digit] = []
    for a, dl in h.digits.items():
        place = 1
        for i, d in enumerate(dl):
            if d.extent > 1 and d.stride == 0:
                reps.append(Digit(d.extent, place, a))
            elif d.extent > 1:
                name = f"{a}#{i}"
                parts.append((name, [d]))
                where[name] = (a, place)
            place *= d.extent
    inv = MixedRadixLayout(parts, (), h.offset, h.out_dims).invert()  # coordinates -> parts
    digits = [(n, [Digit(d.extent, d.stride * where[d.axis][1], where[d.axis][0]) for d in dl]) for n, dl in inv.digits.items()]
    off: dict[str, int] = {}
    for name, v in inv.offset.items():
        a, place = where[name]
        off[a] = off.get(a, 0) + v * place
    return MixedRadixLayout(digits, (), off, list(h.in_dims)), reps


def from_hardware(g: MixedRadixLayout, reps: Sequence[Digit]) -> MixedRadixLayout:
    def back(a: str) -> str:
        return BACK_NAMES.get(a, a)

    digits = [(n, [Digit(d.extent, d.stride, back(d.axis)) for d in dl]) for n, dl in g.digits.items()]
    digits = [(n, coalesce_digits(dl)) for n, dl in digits]
    r = coalesce_digits([Digit(d.extent, d.stride, back(d.axis)) for d in reps])
    return MixedRadixLayout(digits, r, {back(a): v for a, v in g.offset.items()})


def coalesce_digits(dl: Sequence[Digit]) -> list[Digit]:
    out: list[Digit] = []
    for d in dl:
        if d.extent == 1:
            continue
        if out and out[-1].axis == d.axis and d.stride == out[-1].extent * out[-1].stride:
            out[-1] = Digit(out[-1].extent * d.extent, out[-1].stride, d.axis)
        else:
            out.append(d)
    return out
