"""Interop with real Triton objects: Gluon layout objects and Triton's ``LinearLayout`` binding.

Triton is optional: nothing here imports it at module level.  Each function imports it when called
and raises :class:`~linlayout.errors.UnsupportedError` (``pip install triton``) when it is missing.

* :func:`from_triton` -- a ``triton.experimental.gluon.language`` layout object (``BlockedLayout``,
  ``SliceLayout``, ``DistributedLinearLayout``, ``NVMMADistributedLayout``, ``DotOperandLayout``,
  the shared layouts, ``nvidia.blackwell.TensorMemoryLayout``/``TensorMemoryScalesLayout``, the
  ``amd`` layouts, ...) -> our :class:`~converters.gluon.base.GluonLayout` of the same name.
* :func:`to_triton` -- the other way (a nested ``parent`` becomes a nested Triton object).
* :func:`linear_from_triton` / :func:`linear_to_triton` -- Triton's ``LinearLayout`` binding object
  (``triton._C.libtriton.linear_layout.LinearLayout``) or the linear Gluon objects that Triton's
  ``to_linear_layout`` returns (``DistributedLinearLayout``, ``SharedLinearLayout``, Blackwell's
  ``_TensorMemoryLinearLayout``) <-> our :class:`~linlayout.linear.LinearLayout`.

The classes are matched by Gluon's class name through :func:`~converters.gluon.base.lookup`, and
the fields by name (Gluon's and ours are the same in Triton 3.9), so a class added to our registry
(``AMDWMMALayout``, say) works here as soon as it exists.  Differences handled:

* ``constexpr`` wrappers are unwrapped, at any depth (inside lists too);
* Triton fills some optional fields (``AMDMFMALayout``: ``element_bitwidth`` None -> 32,
  ``tiles_per_warp`` None -> all ones; ``AMDWMMALayout``: ``reg_bases``, ``instr_shape``, ``rank``).
  Where Triton cannot tell a value from our default, :func:`from_triton` gives our default back, so
  ``from_triton(to_triton(x)) == x`` for layouts spelled with defaults;
* ``DistributedLinearLayout``: Triton requires ``block_bases`` and ``shape``; ours are optional;
* older Gluon (Triton 3.4/3.5) objects: ``ctas_per_cga``/``cta_split_num``/``cta_order`` become a
  ``cga_layout``; ``AMDMFMALayout.elem_type`` (a Triton dtype) becomes ``element_bitwidth``;
  ``TensorMemoryLayout.unpacked=False`` becomes ``col_stride=1``.

    >>> import pytest; gl = pytest.importorskip("triton.experimental.gluon.language")
    >>> from converters.gluon import BlockedLayout
    >>> t = to_triton(BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0]))
    >>> type(t).__module__, t.size_per_thread
    ('triton.experimental.gluon.language._layouts', [2, 4])
    >>> from_triton(gl.SliceLayout(1, t))
    SliceLayout(1, BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0]))
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import inspect
from collections.abc import Mapping, Sequence
from typing import Any

from linlayout.errors import LayoutError, UnsupportedError
from linlayout.linear import LinearLayout

from .base import GluonLayout, jsonify, lookup, registry

__all__ = ["from_triton", "to_triton", "linear_from_triton", "linear_to_triton", "triton_available"]

#: Modules searched (in order) for the Triton class of a Gluon kind.
_TRITON_MODULES = (
    "triton.experimental.gluon.language",
    "triton.experimental.gluon.language.nvidia.blackwell",
    "triton.experimental.gluon.language.amd",
    # Rubin's TensorMemoryScalesLayout adds block_rep_order to Blackwell's (to_triton picks it
    # only for a field Blackwell's class lacks)
    "triton.experimental.gluon.language.nvidia.rubin",
)

#: Older Gluon (Triton <= 3.5) CTA-layout fields, replaced by ``cga_layout`` in 3.6+.
_LEGACY_CTA_FIELDS = ("ctas_per_cga", "cta_split_num", "cta_order")

#: "no default" in ``GluonLayout._signature()``.
_REQUIRED = inspect.Parameter.empty


# ============================================================================ triton, lazily
def _triton(who: str) -> Any:
    """``triton`` itself, or UnsupportedError saying how to get it."""
    try:
        return importlib.import_module("triton")
    except ImportError:
        raise UnsupportedError(
            f"{who} needs Triton, which is not installed: pip install triton (tested with triton==3.9.0)"
        ) from None


def triton_available() -> bool:
    """Whether ``import triton`` works here.

        >>> isinstance(triton_available(), bool)
        True
    """
    try:
        _triton("triton_available")
    except UnsupportedError:
        return False
    return True


def _triton_class(kind: str, who: str, needs: Sequence[str] = ()) -> type:
    """The first Triton class named ``kind`` in :data:`_TRITON_MODULES` that has the dataclass
    fields ``needs`` (the first of that name at all when none has them: the caller then says which
    field is missing)."""
    _triton(who)
    first = None
    for name in _TRITON_MODULES:
        try:
            mod = importlib.import_module(name)
        except ImportError:
            continue
        cls = getattr(mod, kind, None)
        if isinstance(cls, type):
            have = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else None
            if have is None or all(n in have for n in needs):
                return cls
            first = first or cls
    if first is not None:
        return first
    raise UnsupportedError(f"{who}: the installed Triton has no Gluon layout class {kind!r} (searched {', '.join(_TRITON_MODULES)})")


def _linear_binding(who: str) -> type:
    _triton(who)
    try:
        from triton._C.libtriton import linear_layout
    except ImportError:
        raise UnsupportedError(f"{who}: the installed Triton has no triton._C.libtriton.linear_layout binding") from None
    return linear_layout.LinearLayout


def _type_name(obj: Any) -> str:
    t = type(obj)
    return f"{t.__module__}.{t.__qualname__}"


# ============================================================================ value conversion
def _is_constexpr(v: Any) -> bool:
    return type(v).__name__ == "constexpr" and hasattr(v, "value")


def _unwrap(v: Any) -> Any:
    while _is_constexpr(v):
        v = v.value
    return v


def _is_binding_ll(obj: Any) -> bool:
    t = type(obj)
    return t.__name__ == "LinearLayout" and t.__module__.startswith("triton") and hasattr(obj, "out_dims")


def _looks_like_layout(v: Any) -> bool:
    """A Triton Gluon layout object (not a plain value)."""
    return (dataclasses.is_dataclass(v) and not isinstance(v, type)) or hasattr(v, "_to_ir")


def _plain(v: Any) -> Any:
    """A Triton value as plain data: constexpr unwrapped, tuples -> lists, layouts -> field dicts."""
    v = _unwrap(v)
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if _looks_like_layout(v) and dataclasses.is_dataclass(v):
        return {"kind": type(v).__name__, **{f.name: _plain(getattr(v, f.name)) for f in dataclasses.fields(v)}}
    return v


def _from_value(v: Any) -> Any:
    """A field value of a Triton object in our form (nested layouts converted)."""
    v = _unwrap(v)
    if isinstance(v, GluonLayout):
        return v
    if isinstance(v, (list, tuple)):
        return [_from_value(x) for x in v]
    if _looks_like_layout(v):
        return from_triton(v)
    if isinstance(v, enum.Enum):  # enum-like: its value
        return v.value
    return v


def _to_value(v: Any) -> Any:
    """A field value of ours in Triton's form (lists, nested Triton objects)."""
    if isinstance(v, GluonLayout):
        return to_triton(v)
    if isinstance(v, (list, tuple)):
        return [_to_value(x) for x in v]
    return v


def _triton_fields(obj: Any) -> dict[str, Any]:
    """The field values of a Triton layout object (constexpr unwrapped, not converted)."""
    if dataclasses.is_dataclass(obj):
        return {f.name: _unwrap(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    return {k: _unwrap(v) for k, v in vars(obj).items() if not k.startswith("_")}


# ============================================================================ older Gluon spellings
def _cga_from_cta(ctas: Sequence[int] | None, split: Sequence[int] | None, order: Sequence[int] | None,
                  rank: int, who: str) -> list[list[int]]:
    """The ``cga_layout`` of an older CTA layout (``ctas_per_cga``, ``cta_split_num``, ``cta_order``).

    For each dim in ``cta_order``: ``cta_split_num[d]`` CTAs that split the tensor along ``d``
    (identity bases), then ``ctas_per_cga[d] / cta_split_num[d]`` CTAs that hold copies (zero bases).

        >>> _cga_from_cta([4, 2], [2, 2], [0, 1], 2, "demo")
        [[1, 0], [0, 0], [0, 1]]
    """
    ctas = list(ctas) if ctas is not None else [1] * rank
    split = list(split) if split is not None else [1] * rank
    order = list(order) if order is not None else list(reversed(range(rank)))
    if not (len(ctas) == len(split) == len(order) == rank) or sorted(order) != list(range(rank)):
        raise LayoutError(f"{who}: ctas_per_cga {ctas}, cta_split_num {split}, cta_order {order} do not describe a rank-{rank} CTA layout")
    out: list[list[int]] = []
    for d in order:
        c, s = int(ctas[d]), int(split[d])
        if s < 1 or c % s or (c & (c - 1)) or (s & (s - 1)):
            raise LayoutError(f"{who}: dim {d}: ctas_per_cga {c} must be a power-of-two multiple of cta_split_num {s}")
        for k in range(s.bit_length() - 1):
            out.append([1 << k if i == d else 0 for i in range(rank)])
        for _ in range((c // s).bit_length() - 1):
            out.append([0] * rank)
    return out


def _legacy(kind: str, values: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """Rewrite the fields of an older Gluon object (Triton <= 3.5) into today's names."""
    values = dict(values)
    if "cga_layout" in names and "cga_layout" not in values and any(f in values for f in _LEGACY_CTA_FIELDS):
        had_ctas = "ctas_per_cga" in values
        ctas, split, order = (values.pop(f, None) for f in _LEGACY_CTA_FIELDS)
        if not had_ctas:
            ctas = split  # Blackwell's old TensorMemoryLayout had only cta_split_num: every CTA splits
        given = [x for x in (ctas, split, order) if x is not None]
        rank = len(given[0]) if given else 0
        values["cga_layout"] = _cga_from_cta(ctas, split, order, rank, kind) if rank else []
    if "element_bitwidth" in names and "element_bitwidth" not in values and "elem_type" in values:
        dtype = values.pop("elem_type")
        bits = getattr(dtype, "primitive_bitwidth", None)
        if not isinstance(bits, int):
            raise LayoutError(f"{kind}: elem_type {dtype!r} has no primitive_bitwidth")
        values["element_bitwidth"] = bits
    if "col_stride" in names and "col_stride" not in values and "unpacked" in values:
        if values.pop("unpacked"):
            raise UnsupportedError(
                f"{kind}: an older unpacked=True tensor-memory layout has col_stride 32 // bitwidth, and the "
                "object does not say the element type; build TensorMemoryLayout(block, col_stride=...) instead")
        values["col_stride"] = 1
    return values


# ============================================================================ Gluon layouts
def from_triton(obj: Any) -> GluonLayout:
    """Our Gluon layout for a Triton Gluon layout object (``gl.BlockedLayout(...)``, ...).

    ``constexpr`` wrappers are unwrapped; a nested ``parent`` is converted too; our own layouts are
    returned as they are.  A Triton ``LinearLayout`` (or Blackwell's ``_TensorMemoryLinearLayout``)
    is not a Gluon layout: use :func:`linear_from_triton`.

    Raises:
        UnsupportedError: Triton is not installed.
        LayoutError: ``obj`` is not a Gluon layout we know (the message names its type), or its
            fields are refused by our class.

        >>> import pytest; gl = pytest.importorskip("triton.experimental.gluon.language")
        >>> mma = gl.NVMMADistributedLayout(version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 64, 16])
        >>> from_triton(gl.DotOperandLayout(0, mma, gl.constexpr(2)))
        DotOperandLayout(0, NVMMADistributedLayout([3, 0], [4, 1], [16, 64, 16]), 2)
        >>> from triton.experimental.gluon.language.amd import AMDMFMALayout
        >>> t = AMDMFMALayout(3, [32, 32, 8], True, [2, 2])
        >>> t.element_bitwidth, from_triton(t)       # Triton's filled-in 32 is our default (None)
        (32, AMDMFMALayout(3, [32, 32, 8], True, [2, 2]))
        >>> from_triton(gl.AutoLayout())
        Traceback (most recent call last):
        ...
        linlayout.errors.LayoutError: from_triton: triton.experimental.gluon.language._layouts.AutoLayout is not a Gluon layout linlayout knows ...
    """
    if isinstance(obj, GluonLayout):
        return obj
    _triton("from_triton")
    obj = _unwrap(obj)
    if isinstance(obj, GluonLayout):
        return obj
    kind = type(obj).__name__
    if _is_binding_ll(obj) or kind == "_TensorMemoryLinearLayout":
        raise LayoutError(f"from_triton: {_type_name(obj)} is a linear layout, not a Gluon layout class; use linear_from_triton")
    if not _looks_like_layout(obj):
        raise LayoutError(f"from_triton: expected a Triton Gluon layout object, got {_type_name(obj)} {obj!r:.80}")
    try:
        cls = lookup(kind)
    except LayoutError:
        known = ", ".join(sorted(k for k in registry() if not k.startswith("_")))
        raise LayoutError(f"from_triton: {_type_name(obj)} is not a Gluon layout linlayout knows (known: {known})") from None
    names = cls.field_names()
    values = _legacy(kind, _triton_fields(obj), names)
    sig = cls._signature()
    kw: dict[str, Any] = {}
    for name in names:
        if name in values:
            kw[name] = _from_value(values.pop(name))
        elif sig.get(name, _REQUIRED) is _REQUIRED:
            raise LayoutError(f"from_triton: {_type_name(obj)} has no field {name!r}, which {kind} needs")
    extra = {k: v for k, v in values.items() if v not in (None, [], ())}
    if extra:
        raise UnsupportedError(f"from_triton: {kind} field(s) {sorted(extra)} of {_type_name(obj)} have no counterpart here: {extra}")
    layout = _make(cls, kw, f"from_triton({_type_name(obj)})")
    return _prefer_defaults(cls, kw, layout)


def _make(cls: type, kw: Mapping[str, Any], who: str) -> GluonLayout:
    try:
        return cls(**kw)
    except LayoutError as e:
        try:
            err = type(e)(f"{who}: {e}")
        except TypeError:  # an error class with a richer constructor: keep it as it is
            raise e from None
        raise err from None
    except (TypeError, ValueError) as e:
        raise LayoutError(f"{who}: {e}") from None


def _prefer_defaults(cls: type[GluonLayout], kw: dict[str, Any], layout: GluonLayout) -> GluonLayout:
    """Replace each field value that Triton cannot tell from our default by the default.

    Triton fills some optional fields when it builds its object (AMD MFMA's ``element_bitwidth``
    None -> 32); so that ``from_triton(to_triton(x)) == x``, a value goes back to our default when
    Triton's object built from the default has the same fields.
    """
    sig = cls._signature()
    target = None
    for name, default in sig.items():
        if default is _REQUIRED or name not in kw:
            continue
        if _same(kw[name], default):
            continue
        trial = dict(kw, **{name: default})
        try:
            candidate = cls(**trial)
            if target is None:
                target = _plain(to_triton(layout))
            same = _plain(to_triton(candidate)) == target
        except Exception:  # noqa: BLE001 - a default Triton or we refuse is simply not preferred
            continue
        if same:
            kw, layout = trial, candidate
    return layout


def _same(a: Any, b: Any) -> bool:
    def freeze(v: Any) -> Any:
        v = jsonify(v)
        return tuple(freeze(x) for x in v) if isinstance(v, list) else v

    return freeze(a) == freeze(b)


def to_triton(layout: GluonLayout | LinearLayout) -> Any:
    """The Triton object equal to ``layout``: a Gluon layout for ours, a ``LinearLayout`` binding
    object for a :class:`~linlayout.linear.LinearLayout` (see :func:`linear_to_triton`).

    The Triton class is found by name in ``triton.experimental.gluon.language`` (then its
    ``nvidia.blackwell`` and ``amd`` modules); fields are passed by name as lists.

    Raises:
        UnsupportedError: Triton is not installed, or has no such class / field.
        LayoutError: Triton refused the fields.

        >>> import pytest; gl = pytest.importorskip("triton.experimental.gluon.language")
        >>> from converters.gluon import NVMMASharedLayout, TensorMemoryLayout
        >>> to_triton(NVMMASharedLayout(128, 16))
        NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2, transposed=False, fp4_padded=False, cga_layout=[])
        >>> type(to_triton(TensorMemoryLayout([128, 64], 1))).__module__
        'triton.experimental.gluon.language.nvidia.blackwell'
    """
    if isinstance(layout, LinearLayout):
        return linear_to_triton(layout)
    if not isinstance(layout, GluonLayout):
        raise LayoutError(f"to_triton: expected a converters.gluon layout or a LinearLayout, got {_type_name(layout)}")
    kind = layout.family
    sig = type(layout)._signature()
    needs = [n for n, v in layout.fields().items() if not _same(v, sig.get(n, _REQUIRED))]
    cls = _triton_class(kind, "to_triton", needs)
    theirs = {f.name: f for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else None
    kw: dict[str, Any] = {}
    for name, value in layout.fields().items():
        if theirs is not None and name not in theirs:
            default = sig.get(name, _REQUIRED)
            if default is not _REQUIRED and _same(value, default):
                continue
            raise UnsupportedError(f"to_triton: the installed Triton's {kind} has no field {name!r} (we have {name}={value!r})")
        kw[name] = _to_value(value)
    try:
        return cls(**kw)
    except (AssertionError, TypeError, ValueError) as e:
        raise LayoutError(f"to_triton: Triton refused {layout}: {type(e).__name__} {e}") from None


# ============================================================================ linear layouts
_LINEAR_GLUON = {
    # Triton class -> ((our in-dim, Triton field), ...); the out-dims are dim0.. of the object's shape
    "DistributedLinearLayout": (("register", "reg_bases"), ("lane", "lane_bases"), ("warp", "warp_bases"), ("block", "block_bases")),
    "SharedLinearLayout": (("offset", "offset_bases"), ("block", "block_bases")),
    "_TensorMemoryLinearLayout": (("row", "rows"), ("col", "cols")),
}


def linear_from_triton(obj: Any, shape: Sequence[int] | None = None) -> LinearLayout:
    """Our :class:`~linlayout.linear.LinearLayout` for a Triton linear layout.

    ``obj`` is Triton's ``LinearLayout`` binding object (``triton._C.libtriton.linear_layout``), or
    what ``gl.to_linear_layout`` / ``GluonOpBuilder.to_linear_layout`` return: a Gluon
    ``DistributedLinearLayout`` (in-dims ``register, lane, warp, block``), ``SharedLinearLayout``
    (``offset, block``) or Blackwell ``_TensorMemoryLinearLayout`` (``row, col``); out-dims
    ``dim0..`` sized by the object's shape.  Any other Gluon layout object needs ``shape``: it is
    converted with :func:`from_triton` and laid over ``shape`` (our ``to_linear``).

        >>> import pytest; gl = pytest.importorskip("triton.experimental.gluon.language")
        >>> from triton._C.libtriton.linear_layout import LinearLayout as TLL
        >>> t = TLL.from_bases([("register", [[0, 1]]), ("lane", [[1, 0], [2, 0]])], ["dim0", "dim1"])
        >>> linear_from_triton(t).bases
        {'register': ((0, 1),), 'lane': ((1, 0), (2, 0))}
        >>> d = gl.DistributedLinearLayout([], [[1], [2], [4], [8], [16]], [[32], [64]], [], [128])
        >>> linear_from_triton(d).in_dims
        {'register': 1, 'lane': 32, 'warp': 4, 'block': 1}
        >>> linear_from_triton(gl.BlockedLayout([1], [32], [4], [0]), [128]) == linear_from_triton(d)
        True
    """
    if isinstance(obj, LinearLayout):
        return obj
    if isinstance(obj, GluonLayout):
        if shape is None:
            raise LayoutError(f"linear_from_triton: {obj.family} needs a shape")
        return obj.to_linear(shape)
    _triton("linear_from_triton")
    obj = _unwrap(obj)
    if _is_binding_ll(obj):
        bases = [(name, [list(b) for b in vecs]) for name, vecs in obj.bases]
        outs = [(name, int(size)) for name, size in obj.out_dims]
        return LinearLayout(bases, outs, require_surjective=False)
    kind = type(obj).__name__
    spec = _LINEAR_GLUON.get(kind)
    if spec is not None and (shape is None or kind == "_TensorMemoryLinearLayout"):
        own = [int(s) for s in _unwrap(obj.shape)]
        if shape is not None and [int(s) for s in shape] != own:
            raise LayoutError(f"linear_from_triton: {kind} has shape {own}, not {list(shape)}")
        bases = [(ours, [[int(x) for x in _unwrap(b)] for b in (_unwrap(getattr(obj, f)) or [])]) for ours, f in spec]
        return LinearLayout(bases, [(f"dim{i}", s) for i, s in enumerate(own)], require_surjective=False)
    if _looks_like_layout(obj):
        if shape is None:
            raise LayoutError(f"linear_from_triton: {_type_name(obj)} is not a linear layout; give the tensor shape")
        return from_triton(obj).to_linear(shape)
    raise LayoutError(f"linear_from_triton: expected a Triton LinearLayout or Gluon layout object, got {_type_name(obj)}")


def linear_to_triton(layout: LinearLayout) -> Any:
    """Triton's ``LinearLayout`` binding object with the same bases and out-dims as ``layout``.

        >>> import pytest; _ = pytest.importorskip("triton")
        >>> L = LinearLayout({"register": [[0, 1]], "lane": [[1, 0], [2, 0]]}, {"dim0": 4, "dim1": 2})
        >>> t = linear_to_triton(L)
        >>> t.out_dims, t.get_in_dim_names()
        ([('dim0', 4), ('dim1', 2)], ['register', 'lane'])
        >>> linear_from_triton(t) == L
        True
    """
    if not isinstance(layout, LinearLayout):
        raise LayoutError(f"linear_to_triton: expected a linlayout LinearLayout, got {_type_name(layout)}")
    TLL: Any = _linear_binding("linear_to_triton")
    bases = [(name, [list(b) for b in vecs]) for name, vecs in layout.bases.items()]
    outs = layout.out_dims
    # Every basis is below its out-dim size (our constructor checked), so Triton will not abort.
    return TLL.from_bases(bases, list(outs), [int(s) for s in outs.values()], False)
