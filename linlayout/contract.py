"""The contract every layout form implements, and the one coercion to the core.

**Kinds.**  Every layout value of every form (Gluon, CuTe, TIRx, Tilus, Triton IR, the linear
form itself) is one of four kinds (:class:`Kind`):

=================  ====================================  =================================
kind               what it says                          in-dims of its linear form
=================  ====================================  =================================
``distributed``    where each element sits in registers  ``register``, ``lane``, ``warp``,
                   of threads, warps and CTAs            ``block``
``shared``         where each element sits in shared     ``offset`` (and ``block``)
                   memory
``tensor_memory``  where each element sits in Blackwell  ``row`` (lanes), ``col`` (columns)
                   tensor memory
``memory``         a plain memory map, coordinates ->    ``offset``
                   offset (a CuTe global-memory layout)
=================  ====================================  =================================

**One direction.**  Every kind converts to a :class:`~linlayout.LinearLayout` (or, when a size
is not a power of two, a :class:`~linlayout.MixedRadixLayout`) mapping *hardware to tensor
coordinates* (``dim0, dim1, ...``), as Triton's layouts do.  A memory map is stored the other
way (coordinates -> offset), so its linear form is its inverse, ``offset -> coordinates``; it
needs to be a bijection onto its offsets for that, and a form refuses otherwise.  ``shared`` and
``memory`` therefore have the same linear form; every other pair of kinds is different.

**The protocol.**  A layout value of a form has

* ``kind`` — its :class:`Kind`;
* ``to_linear(shape=None)`` — its linear form for a tensor of ``shape``.  A form whose layouts
  know their own shape accepts ``shape=None`` and refuses a different shape; a form that needs a
  shape refuses ``None`` with a :class:`~linlayout.errors.DimensionError` saying so;
* optionally ``to_general(shape=None)`` — its mixed-radix form, in the same direction (hardware
  -> coordinates), for forms with non-power-of-two layouts.

A form module adds ``parse(text)``, ``str(value)`` (with ``parse(str(v)) == v``) and
``from_linear(L)`` (a spelling of ``L`` of the same kind, or an
:class:`~linlayout.errors.UnsupportedError`); ``converters.registry`` lists the forms.

:func:`as_linear` is the only coercion in the code base: every function that takes "a layout"
calls it (or :func:`as_layout`, which also accepts non-power-of-two layouts).

    >>> from linlayout import LinearLayout
    >>> L = LinearLayout.identity_1d(32, "lane", "dim0")
    >>> kind_of(L)
    <Kind.DISTRIBUTED: 'distributed'>
    >>> as_linear(L, [32]) is L
    True
    >>> as_linear(L, [16])
    Traceback (most recent call last):
    ...
    linlayout.errors.SizeError: layout: it covers a tensor of shape [32], not the requested shape [16]
    >>> as_linear("(4,8):(8,1)")
    Traceback (most recent call last):
    ...
    linlayout.errors.UnsupportedError: layout: text is not a layout value; parse it first (converters.load(text) reads every form)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, Optional, Protocol, Union, runtime_checkable

from .checks import expect
from .errors import LayoutError, NotLinearError, SizeError, UnsupportedError
from .limits import MAX_RANK, as_list
from .mixed_radix import MixedRadixLayout
from .linear import LinearLayout

__all__ = [
    "Kind",
    "LayoutValue",
    "HARDWARE_DIMS",
    "kind_of",
    "kind_of_linear",
    "same_kind",
    "as_linear",
    "as_layout",
    "check_shape_matches",
]


class Kind(str, enum.Enum):
    """What a layout says: where each tensor element lives (see the module docstring)."""

    DISTRIBUTED = "distributed"
    SHARED = "shared"
    TENSOR_MEMORY = "tensor_memory"
    MEMORY = "memory"
    #: A linear map whose in-dims name no hardware (the core algebra's ``in0``, ``dim0`` ...).
    OTHER = "other"

    def __str__(self) -> str:
        return self.value

    @property
    def linear_kind(self) -> "Kind":
        """The kind of the linear form: ``memory`` maps read as ``shared`` layouts (offset ->
        coordinates); every other kind is its own."""
        return Kind.SHARED if self is Kind.MEMORY else self


#: The in-dims of the linear form of each kind, in Triton's order.
HARDWARE_DIMS: dict[Kind, tuple[str, ...]] = {
    Kind.DISTRIBUTED: ("register", "lane", "warp", "block"),
    Kind.SHARED: ("offset", "block"),
    Kind.TENSOR_MEMORY: ("row", "col"),
    Kind.MEMORY: ("offset",),
}


@runtime_checkable
class LayoutValue(Protocol):
    """What every form's layout value offers (see the module docstring)."""

    @property
    def kind(self) -> Kind: ...

    def to_linear(self, shape: Optional[Sequence[int]] = None) -> Any: ...


def kind_of_linear(L: Union[LinearLayout, MixedRadixLayout]) -> Kind:
    """The kind a linear (or mixed-radix) layout's in-dims name.

        >>> kind_of_linear(LinearLayout({"offset": [[1]], "block": []}, {"dim0": 2}))
        <Kind.SHARED: 'shared'>
        >>> kind_of_linear(LinearLayout({"row": [[1]], "col": [[0]]}, {"dim0": 2}))
        <Kind.TENSOR_MEMORY: 'tensor_memory'>
        >>> kind_of_linear(LinearLayout.identity_1d(8, "in", "out"))
        <Kind.OTHER: 'other'>
    """
    expect(L, (LinearLayout, MixedRadixLayout), "kind_of_linear: L")
    names = set(L.in_dims)
    if not names:
        return Kind.OTHER
    for kind in (Kind.DISTRIBUTED, Kind.SHARED, Kind.TENSOR_MEMORY):
        dims = set(HARDWARE_DIMS[kind])
        if names <= dims and names - {"block"}:
            return kind
    if names <= {"block"}:
        return Kind.DISTRIBUTED
    return Kind.OTHER


def kind_of(x: Any) -> Kind:
    """The kind of a layout value of any form, or of a linear / mixed-radix layout (read off its
    in-dims)."""
    if isinstance(x, (LinearLayout, MixedRadixLayout)):
        return kind_of_linear(x)
    k = getattr(x, "kind", None)
    if isinstance(k, Kind):
        return k
    if isinstance(k, str):
        try:
            return Kind(k)
        except ValueError:
            pass
    raise UnsupportedError(f"{type(x).__name__} is not a layout value: it says no kind")


def same_kind(a: Kind, b: Kind) -> bool:
    """Whether layouts of kinds ``a`` and ``b`` can mean the same thing (equal linear kinds).

        >>> same_kind(Kind.MEMORY, Kind.SHARED), same_kind(Kind.DISTRIBUTED, Kind.SHARED)
        (True, False)
    """
    try:
        ka, kb = Kind(a), Kind(b)
    except ValueError:  # not a kind: Kind(...) says which
        raise LayoutError(f"same_kind expects two kinds ({', '.join(k.value for k in Kind)}), got {a!r:.80} and {b!r:.80}") from None
    return ka.linear_kind is kb.linear_kind


def _shape_arg(shape: Optional[Sequence[int]], what: str) -> Optional[list[int]]:
    """The one reading of a ``shape`` argument: ``None``, or a list of Python ints (a string, a
    bool or a float is a :class:`~linlayout.errors.SizeError`)."""
    if shape is None:
        return None
    if isinstance(shape, (str, bytes)) or not isinstance(shape, Sequence):
        raise SizeError(f"{what}: a shape is a list of integers, got {shape!r}")
    out = []
    for s in as_list(shape, f"{what}: shape", MAX_RANK):
        if isinstance(s, bool) or not hasattr(s, "__index__"):
            raise SizeError(f"{what}: a shape is a list of integers, got {list(shape)!r}")
        out.append(s.__index__())
    return out


def _check_sizes(L: Union[LinearLayout, MixedRadixLayout], want: Optional[list[int]], what: str) -> None:
    """A :class:`~linlayout.errors.SizeError` unless ``want`` (a shape already read by
    :func:`_shape_arg`) is ``None`` or the out-dim sizes of ``L`` in order."""
    if want is None:
        return
    sizes = list(L.out_dims.values())
    if sizes != want:
        raise SizeError(f"{what}: it covers a tensor of shape {sizes}, not the requested shape {want}")


def check_shape_matches(L: Union[LinearLayout, MixedRadixLayout], shape: Optional[Sequence[int]], what: str = "layout") -> None:
    """A :class:`~linlayout.errors.SizeError` unless ``shape`` is ``None`` or the out-dim sizes
    of ``L`` in order.

        >>> check_shape_matches(LinearLayout.identity_1d(8, "lane", "dim0"), [4])
        Traceback (most recent call last):
        ...
        linlayout.errors.SizeError: layout: it covers a tensor of shape [8], not the requested shape [4]
    """
    expect(L, (LinearLayout, MixedRadixLayout), "check_shape_matches: L")
    _check_sizes(L, _shape_arg(shape, what), what)


def _not_a_layout(x: Any, what: str) -> LayoutError:
    if isinstance(x, (str, bytes)):
        return UnsupportedError(f"{what}: text is not a layout value; parse it first (converters.load(text) reads every form)")
    return UnsupportedError(
        f"{what}: cannot read a {type(x).__name__} as a layout: expected a LinearLayout, a "
        "MixedRadixLayout or a layout value of a form (with kind and to_linear(shape))"
    )


def as_linear(x: Any, shape: Optional[Sequence[int]] = None, *, what: str = "layout") -> LinearLayout:
    """The linear form (hardware -> tensor coordinates) of a layout of any form; the only
    coercion in the code base.

    ``shape`` is the tensor's shape: a form that needs it gets it, a layout that knows its own
    shape must agree with it.  ``what`` names the argument in errors.  A mixed-radix layout is
    promoted exactly (:meth:`~linlayout.MixedRadixLayout.to_linear`) or refused.
    """
    return _as_linear(x, _shape_arg(shape, what), what)


def _as_linear(x: Any, shp: Optional[list[int]], what: str) -> LinearLayout:
    """:func:`as_linear` for a shape already read by :func:`_shape_arg`."""
    if isinstance(x, LinearLayout):
        _check_sizes(x, shp, what)
        return x
    if isinstance(x, MixedRadixLayout):
        _check_sizes(x, shp, what)
        return x.to_linear()
    fn = getattr(x, "to_linear", None)
    if fn is None or isinstance(x, type):
        raise _not_a_layout(x, what)
    out = fn(shp)
    if isinstance(out, MixedRadixLayout):
        out = out.to_linear()
    if not isinstance(out, LinearLayout):
        raise LayoutError(f"{what}: {type(x).__name__}.to_linear returned a {type(out).__name__}, not a LinearLayout")
    _check_sizes(out, shp, what)
    return out


def as_layout(x: Any, shape: Optional[Sequence[int]] = None, *, what: str = "layout") -> Union[LinearLayout, MixedRadixLayout]:
    """Like :func:`as_linear`, but a layout whose sizes are not powers of two (or that is not
    GF(2)-linear) comes back as its :class:`~linlayout.MixedRadixLayout` instead of an error.

        >>> g = MixedRadixLayout({"x": [(112, 1, "TCol"), (2, 112, "TCol")]})
        >>> as_layout(g) is g
        True
    """
    shp = _shape_arg(shape, what)
    if isinstance(x, MixedRadixLayout):
        _check_sizes(x, shp, what)
        return x
    try:
        return _as_linear(x, shp, what)
    except (NotLinearError, SizeError, UnsupportedError) as e:
        general = getattr(x, "to_general", None)
        if general is None or isinstance(x, (LinearLayout, str, bytes)):
            raise
        try:
            g = general(shp)
        except LayoutError:
            raise e from None
        if not isinstance(g, MixedRadixLayout):
            raise e from None
        return g

