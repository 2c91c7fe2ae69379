"""The common base class of every Gluon layout class, and the registry of classes by Gluon name.

A Gluon layout class is a value (frozen, equal by fields) with

* a class attribute ``family``: Gluon's own class name (``"BlockedLayout"``, ...), the ``"kind"``
  key of the dict form;
* a class attribute ``kind``: the contract's :class:`~linlayout.contract.Kind` (distributed,
  shared or tensor memory);
* fields with Gluon's own field names, in Gluon's constructor order;
* ``to_linear(shape) -> LinearLayout``: what ``gluon.language.to_linear_layout(layout, shape)``
  returns in Triton 3.9;
* ``to_dict()``: the JSON form of the oracle files, ``{"kind": ..., <field>: ...}`` (nested layouts
  as dicts), and ``str()``: the constructor text a kernel author writes.

Subclasses that define a non-empty ``family`` are registered automatically (``register`` does the
same explicitly); :func:`lookup` finds a class by name.

    >>> from converters.gluon.base import GluonLayout, lookup
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, repr=False)
    ... class _Demo(GluonLayout):
    ...     family = "_Demo"
    ...     size: list
    ...     flag: bool = False
    >>> d = _Demo([1, 2])
    >>> str(d), d.to_dict()
    ('_Demo([1, 2])', {'kind': '_Demo', 'size': [1, 2], 'flag': False})
    >>> lookup("_Demo") is _Demo
    True
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

from linlayout.contract import Kind
from linlayout.errors import LayoutError
from linlayout.limits import MAX_DEPTH, MAX_RANK
from linlayout.linear import LinearLayout

__all__ = [
    "GluonLayout", "register", "lookup", "registry", "jsonify", "format_value", "cached_to_linear", "clear_to_linear_caches",
    "to_linear_memo",
]

#: how many (layout, shape) results each ``to_linear`` keeps (least recently used go first)
TO_LINEAR_CACHE_SIZE = 4096
_CACHES: list[Any] = []


def clear_to_linear_caches() -> None:
    """Forget every remembered ``to_linear`` result (see :func:`cached_to_linear`) and every
    remembered part of one (see :func:`to_linear_memo`): the next call computes from scratch."""
    for c in _CACHES:
        c.cache_clear()


_T = TypeVar("_T")


def to_linear_memo(maxsize: int) -> Callable[[Callable[..., _T]], functools._lru_cache_wrapper[_T]]:
    """``functools.lru_cache(maxsize)`` for a part of a ``to_linear`` computation that many
    layouts share (one dim's bases, the out-dims of a shape), emptied with the results by
    :func:`clear_to_linear_caches` so that a cold measurement is cold.

        >>> @to_linear_memo(8)
        ... def square(x: int) -> int:
        ...     return x * x
        >>> square(3), square.cache_info().currsize
        (9, 1)
        >>> clear_to_linear_caches(); square.cache_info().currsize
        0
    """

    def wrap(fn: Callable[..., _T]) -> functools._lru_cache_wrapper[_T]:
        cached = functools.lru_cache(maxsize=maxsize)(fn)
        _CACHES.append(cached)
        return cached

    return wrap


def cached_to_linear(fn: Callable[[Any, Any], LinearLayout]) -> Callable[[Any, Any], LinearLayout]:
    """Remember ``to_linear(shape)`` per (layout, shape), as Triton caches linear layouts per
    (shape, attribute) in its context: layouts and ``LinearLayout`` values are immutable, and
    planners and searches ask for the same ones again and again.  Errors are not remembered; a
    layout or shape that cannot be hashed is computed afresh.  :func:`clear_to_linear_caches`
    empties every cache; ``to_linear.__wrapped__`` is the uncached computation.

        >>> from converters.gluon import BlockedLayout
        >>> b = BlockedLayout([1], [32], [4], [0])
        >>> b.to_linear([128]) is b.to_linear([128])
        True
    """

    @functools.lru_cache(maxsize=TO_LINEAR_CACHE_SIZE)
    def cached(layout: Any, shape: tuple) -> LinearLayout:
        return fn(layout, list(shape))

    @functools.wraps(fn)
    def to_linear(self: Any, *args: Any, **kwargs: Any) -> LinearLayout:
        if len(args) != 1 or kwargs or args[0] is None:  # no shape (or a default): as written
            return fn(self, *args, **kwargs)
        if not isinstance(args[0], (list, tuple)) or len(args[0]) > MAX_RANK:  # fn checks it (tuple(range(10**12)): MemoryError)
            return fn(self, *args)
        try:
            key = tuple(args[0])
            hash((self, key))
        except TypeError:
            return fn(self, *args)
        return cached(self, key)

    _CACHES.append(cached)
    return to_linear

_REGISTRY: dict[str, type] = {}

_MISSING = inspect.Parameter.empty


def register(cls: type) -> type:
    """Class decorator: record ``cls`` under its ``family`` (Gluon's class name).

        >>> @register
        ... class _Other(GluonLayout):
        ...     family = "_Other"
        >>> lookup("_Other").__name__
        '_Other'
    """
    kind = getattr(cls, "family", "")
    if not kind:
        raise LayoutError(f"register: class {cls.__name__} has no 'family'")
    _REGISTRY[kind] = cls
    return cls


def lookup(kind: str) -> type[GluonLayout]:
    """The registered class named ``kind``; :class:`LayoutError` naming the known kinds if none.

        >>> lookup("NoSuchLayout")
        Traceback (most recent call last):
        ...
        linlayout.errors.LayoutError: unknown Gluon layout kind 'NoSuchLayout'; known kinds: ...
    """
    try:
        return _REGISTRY[kind]
    except (KeyError, TypeError):
        known = ", ".join(sorted(k for k in _REGISTRY if not k.startswith("_")))
        raise LayoutError(f"unknown Gluon layout kind {kind!r}; known kinds: {known}") from None


def registry() -> dict[str, type]:
    """A copy of the registry: kind -> class.

        >>> "GluonLayout" in registry()
        False
    """
    return dict(_REGISTRY)


def _check_lists(value: Any, where: str, depth: int) -> None:
    """Refuse field values of the dict form with lists longer than the text form reads
    (:data:`~linlayout.limits.MAX_RANK`) or nested deeper than :data:`~linlayout.limits.MAX_DEPTH`."""
    if isinstance(value, (list, tuple)):
        if len(value) > MAX_RANK:
            raise LayoutError(f"{where}: a list of {len(value)} entries; at most {MAX_RANK}")
        if depth > MAX_DEPTH:
            raise LayoutError(f"{where}: lists nest deeper than the limit of {MAX_DEPTH} levels")
        for v in value:
            _check_lists(v, where, depth + 1)


def jsonify(value: Any) -> Any:
    """``value`` in JSON form: tuples -> lists, nested layouts -> dicts, recursively.

        >>> jsonify(((1, 2), (3, 4)))
        [[1, 2], [3, 4]]
    """
    if isinstance(value, GluonLayout):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [jsonify(v) for v in value]
    return value


def format_value(value: Any) -> str:
    """``value`` as constructor text: lists in brackets, nested layouts as constructor calls.

        >>> format_value(((1, 2), (3,)))
        '[[1, 2], [3]]'
    """
    if isinstance(value, GluonLayout):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(format_value(v) for v in value) + "]"
    if isinstance(value, str):
        return repr(value)
    return str(value)


def _freeze(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


class GluonLayout:
    """Base class of the Gluon layout classes (distributed, shared, tensor memory).

    Subclasses are frozen dataclasses (or classes listing their fields in ``_fields``) whose fields
    carry Gluon's names.  This class gives them the generic dict form, the constructor text, the
    registry and ``from_dict``; each subclass implements :meth:`to_linear`.

        >>> from converters.gluon import BlockedLayout
        >>> b = BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])
        >>> print(b)
        BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])
        >>> GluonLayout.from_dict(b.to_dict()) == b
        True
    """

    family: ClassVar[str] = ""
    kind: ClassVar[Kind]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("family")
        if isinstance(kind, str) and kind:
            _REGISTRY[kind] = cls

    # ------------------------------------------------------------------ fields
    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """Gluon's field names, in constructor order.

            >>> from converters.gluon import SliceLayout
            >>> SliceLayout.field_names()
            ('dim', 'parent')
        """
        own = getattr(cls, "_fields", None)
        if own:
            return tuple(own)
        return tuple(cls._signature().keys())

    @classmethod
    def _signature(cls) -> dict[str, Any]:
        """Constructor parameters -> default (``inspect.Parameter.empty`` when required)."""
        cache = cls.__dict__.get("_sig_cache")
        if cache is None and dataclasses.is_dataclass(cls):
            cache = {}
            for f in dataclasses.fields(cls):
                if not f.init:
                    continue
                if f.default is not dataclasses.MISSING:
                    cache[f.name] = f.default
                elif f.default_factory is not dataclasses.MISSING:
                    cache[f.name] = f.default_factory()
                else:
                    cache[f.name] = _MISSING
            type.__setattr__(cls, "_sig_cache", cache)
        if cache is None:
            params = list(inspect.signature(cls.__init__).parameters.values())[1:]
            cache = {
                p.name: p.default
                for p in params
                if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
            }
            type.__setattr__(cls, "_sig_cache", cache)
        return cache

    def fields(self) -> dict[str, Any]:
        """The field values by name (as stored: tuples for lists).

            >>> from converters.gluon import SliceLayout, BlockedLayout
            >>> SliceLayout(0, BlockedLayout([1, 1], [32, 1], [4, 1], [0, 1])).fields()["dim"]
            0
        """
        return {f: getattr(self, f) for f in self.field_names()}

    # ------------------------------------------------------------------ dict form
    def to_dict(self) -> dict[str, Any]:
        """The JSON form of the oracle files: ``{"kind": ..., <field>: <value>...}``.

            >>> from converters.gluon import BlockedLayout
            >>> BlockedLayout([1], [32], [4], [0]).to_dict()
            {'kind': 'BlockedLayout', 'size_per_thread': [1], 'threads_per_warp': [32], 'warps_per_cta': [4], 'order': [0], 'cga_layout': []}
        """
        d: dict[str, Any] = {"kind": self.family}
        for name, value in self.fields().items():
            d[name] = jsonify(value)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GluonLayout:
        """A layout from its dict form; on the base class, the class is picked by ``d["kind"]``.

        Nested dicts with a ``kind`` (a ``parent``) become layouts.  Unknown fields are refused.

            >>> GluonLayout.from_dict({"kind": "SliceLayout", "dim": 1, "parent": {
            ...     "kind": "BlockedLayout", "size_per_thread": [1, 1], "threads_per_warp": [32, 1],
            ...     "warps_per_cta": [4, 1], "order": [1, 0]}})
            SliceLayout(1, BlockedLayout([1, 1], [32, 1], [4, 1], [1, 0]))
        """
        return cls._from_dict(d, 0)

    @classmethod
    def _from_dict(cls, d: Mapping[str, Any], depth: int) -> GluonLayout:
        if not isinstance(d, Mapping):
            raise LayoutError(f"from_dict: expected a dict with a 'kind', got {type(d).__name__}")
        if depth > MAX_DEPTH:
            raise LayoutError(f"from_dict: parent layouts nest deeper than the limit of {MAX_DEPTH} levels")
        kind = d.get("kind", cls.family or None)
        if kind is None:
            raise LayoutError("from_dict: the dict has no 'kind'")
        if not isinstance(kind, str):
            raise LayoutError(f"from_dict: 'kind' must be a Gluon class name, got {type(kind).__name__}")
        target = lookup(kind) if (cls is GluonLayout or kind != cls.family) else cls
        if cls is not GluonLayout and not issubclass(target, cls):
            raise LayoutError(f"{cls.__name__}.from_dict: got a dict of kind {kind!r}")
        try:
            if target.from_dict.__func__ is not GluonLayout.from_dict.__func__:  # type: ignore[attr-defined]
                return target.from_dict(d)
            names = target.field_names()
            kw = {k: v for k, v in d.items() if k != "kind"}
            unknown = sorted(set(kw) - set(names), key=repr)
            if unknown:
                raise LayoutError(f"{kind}: unknown field(s) {unknown}; expected {list(names)}")
            sig = target._signature()
            missing = [n for n in names if sig.get(n, _MISSING) is _MISSING and n not in kw]
            if missing:
                raise LayoutError(f"{kind}: missing the field(s) {', '.join(missing)}; {kind} takes ({', '.join(names)})")
            for k, v in kw.items():
                _check_lists(v, f"{kind}.{k}", 0)
                if isinstance(v, Mapping) and "kind" not in v:
                    raise LayoutError(f"{kind}: field {k!r} is a dict without a 'kind'; a nested layout "
                                      "needs one, e.g. {\"kind\": \"BlockedLayout\", ...}")
            kw = {k: (GluonLayout._from_dict(v, depth + 1) if isinstance(v, Mapping) else v) for k, v in kw.items()}
            return target(**kw)
        except TypeError as e:  # a missing or unexpected field: the constructor's own words
            raise LayoutError(f"{kind}: {e}") from None

    # ------------------------------------------------------------------ text form
    def __str__(self) -> str:
        """The constructor text: required fields positionally, non-default optional ones by keyword."""
        sig = type(self)._signature()
        parts = []
        for name in self.field_names():
            value = getattr(self, name)
            default = sig.get(name, _MISSING)
            if default is _MISSING:
                parts.append(format_value(value))
            elif _freeze(jsonify(value)) != _freeze(jsonify(default)) and not (
                default is None and value in ((), [])
            ):
                parts.append(f"{name}={format_value(value)}")
        return f"{self.family}({', '.join(parts)})"

    def __repr__(self) -> str:
        return str(self)

    # ------------------------------------------------------------------ conversion
    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        """The linear layout of this layout over a tensor of ``shape`` (Triton 3.9's answer)."""
        raise NotImplementedError(f"{type(self).__name__}.to_linear")
