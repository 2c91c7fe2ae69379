"""The registry of layout forms: one table that says, for each form, how to recognise its text,
read it, print it, and spell a linear layout in it, and which kinds of layout it can express.

The command line, the tour and the layout-space tools read layouts through this table; planning,
equivalence and drawing take the values it returns (every value implements the contract of
:mod:`linlayout.contract`).  Adding a form is one module plus one :class:`Form` entry here.

==========  ==================================================  ==================================
form        text                                                kinds
==========  ==================================================  ==================================
``linear``  Triton's printed ``LinearLayout``, or JSON          every kind
            ``{"bases": ..., "out_dims": ...}``
``gluon``   ``BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])``  distributed, shared, tensor memory
            or JSON ``{"kind": "BlockedLayout", ...}``
``cute``    ``(4,8):(8,1)``, ``S<3,4,3> o 0 o (8,64):(64,1)``   memory (and shared); distributed as
            or a TV layout ``(32,4):(4,1) -> (16,8)``, or        a thread-value layout; tensor
            ``tmem<32> (128,64):(65536,1)``                      memory as a UMMA fragment
``tile``    ``S[(8,4):(4@laneid,1@laneid)] shape=(8,4)``        distributed, memory, tensor memory
``tilus``   ``local(2, 1).spatial(8, 4)``                       distributed
``mlir``    ``#ttg.blocked<{...}>``, ``tensor<128x64xf16, ...>``    distributed, shared, tensor memory
==========  ==================================================  ==================================

``@path`` reads the layout from a file.

    >>> detect("BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])"), detect("(4,8):(8,1)")
    ('gluon', 'cute')
    >>> form, x = load("(4,8):(8,1)")
    >>> form, x.kind
    ('cute', <Kind.MEMORY: 'memory'>)
    >>> print(convert(x, "gluon"))
    SharedLinearLayout([[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]])
    >>> print(convert(x, "tile"))
    S[(4,8):(8,1)] shape=(4,8)
    >>> print(convert(load("BlockedLayout([1], [32], [4], [0])")[1], "cute", shape=[128]))
    (128,1):(1,0) -> (128)
    >>> convert(load("BlockedLayout([1], [32], [4], [0])")[1], "tilus", shape=[128]).kind
    <Kind.DISTRIBUTED: 'distributed'>
    >>> convert(x, "tilus")
    Traceback (most recent call last):
    ...
    linlayout.errors.UnsupportedError: the tilus form cannot spell a memory layout (it spells distributed layouts)
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional

from linlayout.contract import Kind, as_linear, kind_of
from linlayout.errors import LayoutError, ParseError, UnsupportedError
from linlayout.limits import MAX_TEXT, check_text, read_json
from linlayout.linear import LinearLayout

__all__ = ["Form", "FORMS", "detect", "parse", "load", "form_of", "convert", "to_text", "MAX_TEXT"]


@dataclass(frozen=True)
class Form:
    """One layout form: how to recognise, read, print and produce it."""

    name: str
    #: What its text looks like, for error messages.
    example: str
    kinds: frozenset[Kind]
    detect: Callable[[str], bool]
    parse: Callable[[str], Any]
    format: Callable[[Any], str]
    from_linear: Callable[[LinearLayout], Any]
    #: Whether a value belongs to this form.
    owns: Callable[[Any], bool]
    #: A direct spelling of another form's value that keeps more than its linear form (e.g. a
    #: Gluon layout as its MLIR attribute), or None: then conversion goes through ``from_linear``.
    adopt: Callable[[Any], Any] = lambda x: None

    def can_express(self, kind: Kind) -> bool:
        """Whether this form has spellings of layouts of ``kind`` (memory and shared read alike)."""
        return any(Kind(k).linear_kind is Kind(kind).linear_kind for k in self.kinds)


# ------------------------------------------------------------------------------------ linear

# Horizontal space only around the line start: with \s a run of newlines made this cubic.
_LINEAR_TEXT = re.compile(r"(?m)^[ \t]*-?[ \t]*[A-Za-z_]\w*[ \t]*=[ \t]*\d+[ \t]*->|where out dims are|\(empty layout|is a size 1 dimension")


def _parse_linear(text: str) -> LinearLayout:
    t = text.strip()
    return LinearLayout.from_dict(_json_layout(t, "bases")) if t.startswith("{") else LinearLayout.from_text(t)


def _json_layout(t: str, key: str) -> Any:
    """The JSON object of ``t``; a wrapper ``{"layout": {...}}`` without ``key`` is unwrapped."""
    obj = _json(t)
    if isinstance(obj, Mapping) and "layout" in obj and key not in obj:
        obj = obj["layout"]
    return obj


def _json(t: str) -> Any:
    return read_json(t)


# ------------------------------------------------------------------------------------ gluon

_GLUON = re.compile(r"(?:(?:gl|ttgl|tl)\.)?[A-Z]\w*(?:Layout|Encoding)\s*\(")


def _parse_gluon(text: str) -> Any:
    from converters import gluon

    t = text.strip()
    return gluon.from_dict(_json_layout(t, "kind")) if t.startswith("{") else gluon.parse(t)


def _module_is(package: str) -> Callable[[Any], bool]:
    """Whether a value's class is defined in ``package`` or one of its submodules."""
    return lambda x: type(x).__module__ == package or type(x).__module__.startswith(package + ".")


_is_gluon = _module_is("converters.gluon")


# ------------------------------------------------------------------------------------ cute, tile, tilus


def _lazy(target: str, strip: bool = False) -> Callable[[Any], Any]:
    """The function ``module:name`` (``name`` may be dotted: ``Class.method``) applied to its
    argument, imported on the first call (a form's modules are imported only when it is used);
    ``strip``: the argument is text, stripped first."""
    module, _, name = target.partition(":")

    def call(x: Any) -> Any:
        fn: Any = importlib.import_module(module)
        for part in name.split("."):
            fn = getattr(fn, part)
        return fn(x.strip() if strip else x)

    call.__name__ = call.__qualname__ = name
    return call


_TILUS = re.compile(r"(?:tilus\.)?(?:local|spatial|column_local|column_spatial|replicated|register_layout|RegisterLayout)\s*\(")
_TILE = re.compile(r"[SR]\s*\[")
_CUTE = re.compile(r"(?:S|Sw|tmem)\s*<|SW_\d|[(_\d](?!empty layout)")


def _parse_mlir(text: str) -> Any:
    from converters import mlir

    return _mlir_value(mlir.parse(text))


def _mlir_value(x: Any) -> Any:
    from converters.mlir import is_layout
    from converters.mlir.value import Attribute

    # a Gluon layout, or one converters.mlir has for a Gluon-less attribute (amd_rotating_shared,
    # partitioned_shared, generic_linear)
    return Attribute(x) if _is_gluon(x) or is_layout(x) else x


def _mlir_from_linear(L: LinearLayout) -> Any:
    from converters import mlir

    return _mlir_value(mlir.from_linear(L))


def _mlir_adopt(x: Any) -> Any:
    return _mlir_value(x) if _is_gluon(x) else None


def _gluon_adopt(x: Any) -> Any:
    """The Gluon layout inside an MLIR attribute (the same layout, its family kept)."""
    from converters.mlir.value import Attribute

    return x.layout if isinstance(x, Attribute) else None


def _is_mlir_value(x: Any) -> bool:
    from converters.mlir import MemDescType, TensorType
    from converters.mlir.value import Attribute

    return isinstance(x, (Attribute, TensorType, MemDescType))


_ALL = frozenset({Kind.DISTRIBUTED, Kind.SHARED, Kind.TENSOR_MEMORY, Kind.MEMORY, Kind.OTHER})

#: The forms, in the order text detection tries them.
FORMS: dict[str, Form] = {
    f.name: f
    for f in (
        Form("mlir", "#ttg.blocked<{...}> or tensor<128x64xf16, #blocked>",
             frozenset({Kind.DISTRIBUTED, Kind.SHARED, Kind.TENSOR_MEMORY}),
             _lazy("converters.mlir:looks_like"), _parse_mlir, str, _mlir_from_linear, _is_mlir_value, _mlir_adopt),
        Form("tilus", "local(2, 1).spatial(8, 4)", frozenset({Kind.DISTRIBUTED}),
             lambda t: bool(_TILUS.match(t)), _lazy("converters.tilus:parse"), str,
             _lazy("converters.tilus:RegisterLayout.from_linear"), _module_is("converters.tilus")),
        Form("gluon", "BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])",
             frozenset({Kind.DISTRIBUTED, Kind.SHARED, Kind.TENSOR_MEMORY}),
             lambda t: bool(_GLUON.match(t)), _parse_gluon, str, _lazy("converters.gluon:simplest_spelling"),
             lambda x: _is_gluon(x) and not _is_mlir_value(x), _gluon_adopt),
        Form("tile", "S[(8,4):(4@laneid,1@laneid)]", frozenset({Kind.DISTRIBUTED, Kind.MEMORY, Kind.TENSOR_MEMORY}),
             lambda t: bool(_TILE.match(t)), _lazy("converters.tile:parse", strip=True), str,
             _lazy("converters.tile:TileLayout.from_linear"), _module_is("converters.tile")),
        Form("cute", "(4,8):(8,1), or a thread-value layout ((4,8),(2,2)):((32,1),(16,8)) -> (16,8)",
             frozenset({Kind.DISTRIBUTED, Kind.MEMORY, Kind.SHARED, Kind.TENSOR_MEMORY}),
             lambda t: bool(_CUTE.match(t)), _lazy("converters.cute:parse", strip=True), str,
             _lazy("converters.cute:from_linear"), _module_is("converters.cute")),
        Form("linear", "Triton's printed LinearLayout or {\"bases\": ..., \"out_dims\": ...}", _ALL,
             lambda t: bool(_LINEAR_TEXT.search(t)), _parse_linear, str, lambda L: L,
             lambda x: isinstance(x, LinearLayout)),
    )
}


def _expected() -> str:
    return "; ".join(f"{f.name}: {f.example}" for f in FORMS.values())


def detect(text: str) -> str:
    """The name of the form ``text`` is written in (JSON is told by its keys).

    Raises:
        ParseError: no form recognises the text (the message shows what each looks like).
    """
    check_text(text, "a layout")
    t = text.strip()
    if not t:
        raise ParseError("empty layout text", text, 0)
    if t[0] == "{":
        obj = _json(t)
        if isinstance(obj, Mapping) and "layout" in obj and isinstance(obj["layout"], Mapping):
            obj = obj["layout"]
        if isinstance(obj, Mapping) and "kind" in obj:
            return "gluon"
        if isinstance(obj, Mapping) and "bases" in obj and "out_dims" in obj:
            return "linear"
        raise ParseError('this JSON is not a layout: expected {"bases": ..., "out_dims": ...} (linear) or {"kind": "BlockedLayout", ...} (gluon)', t[:200], 0)
    for f in FORMS.values():
        if f.detect(t):
            return f.name
    raise ParseError(f"cannot tell the layout's form; expected one of {_expected()}, or @file", text, 0)


def _form(name: str) -> Form:
    try:
        return FORMS[name]
    except (KeyError, TypeError):  # TypeError: an unhashable name (a list, a bytearray)
        raise LayoutError(f"unknown form {name!r}; expected one of {', '.join(FORMS)}") from None


def _resolve(text: str, form: Optional[str]) -> str:
    """The form to read ``text`` in: ``form`` itself, or the detected one (``"json"`` insists on
    JSON text and then tells linear from Gluon by its keys)."""
    if form is not None and not isinstance(form, str):
        raise LayoutError(f"form must be a form name such as 'gluon' or 'cute' (or None: detected), got {form!r:.60}")
    if form is None or form == "json":
        name = detect(text)
        if form == "json" and not text.strip().startswith("{"):
            raise ParseError("--form json: the text is not JSON", text, 0)
        return name
    return form


def parse(text: str, form: Optional[str] = None) -> Any:
    """A layout value from its text in ``form`` (detected when ``None``)."""
    check_text(text, "a layout")
    return _form(_resolve(text, form)).parse(text)


def read_text(arg: str) -> str:
    """The text of a layout argument: ``@path`` reads a file (at most :data:`MAX_TEXT` bytes,
    UTF-8), ``-`` reads standard input (the same way), anything else is the text itself.

    Raises:
        LayoutError: the file cannot be read; ParseError: it is too long or not UTF-8 text.
    """
    check_text(arg, "a layout")
    if arg == "-":
        import sys

        where = "standard input"
        stream = getattr(sys.stdin, "buffer", None)
        try:
            raw = stream.read(MAX_TEXT + 1) if stream is not None else sys.stdin.read(MAX_TEXT + 1).encode("utf-8", "surrogatepass")
        except (OSError, ValueError) as e:
            raise LayoutError(f"cannot read the layout from {where}: {e}") from None
    elif arg.startswith("@"):
        path = os.path.expanduser(arg[1:])
        where = repr(arg[1:])
        try:
            with open(path, "rb") as f:
                raw = f.read(MAX_TEXT + 1)
        except (OSError, ValueError) as e:
            raise LayoutError(f"cannot read the layout file {where}: {getattr(e, 'strerror', None) or e}") from None
    else:
        return arg
    if len(raw) > MAX_TEXT:
        raise ParseError(f"the layout in {where} is longer than {MAX_TEXT} characters")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ParseError(f"the layout {'file ' if where != 'standard input' else 'on '}{where} is not UTF-8 text "
                         f"(byte {e.start})") from None


def load(arg: str, form: Optional[str] = None) -> tuple[str, Any]:
    """Read a layout argument as the command line does (``@path`` and ``-`` read a file or
    standard input; the form is detected unless given): ``(form name, value)``.

        >>> load("(4,8):(8,1)")
        ('cute', Layout((4,8):(8,1)))
    """
    text = read_text(arg)
    name = _resolve(text, form)
    return name, _form(name).parse(text)


def form_of(x: Any) -> Form:
    """The form a layout value belongs to.

        >>> form_of(LinearLayout.identity_1d(4, "lane", "dim0")).name
        'linear'
    """
    for f in FORMS.values():
        if f.owns(x):
            return f
    raise UnsupportedError(f"a {type(x).__name__} is not a layout value of any form ({', '.join(FORMS)})")


def to_text(x: Any) -> str:
    """The text of a layout value in its own form (``parse(to_text(x), form) == x``)."""
    return form_of(x).format(x)


def convert(x: Any, to: str, shape: Optional[Sequence[int]] = None) -> Any:
    """A spelling of the layout value ``x`` in the form ``to``, of the same kind and meaning, or
    an :class:`~linlayout.errors.UnsupportedError` saying why there is none.

    ``shape`` is the tensor's shape, for forms whose layouts need one (Gluon's distributed ones).
    """
    target = _form(to)
    kind = kind_of(x)
    if not target.can_express(kind):
        names = ", ".join(sorted(k.value for k in target.kinds))
        raise UnsupportedError(f"the {to} form cannot spell a{'n' if kind.value[0] in 'aeiou' else ''} {kind.value} layout (it spells {names} layouts)")
    if target.owns(x):
        return x
    adopted = target.adopt(x)
    if adopted is not None:
        return adopted
    L = as_linear(x, shape)
    out = target.from_linear(L)
    out_kind = kind_of(out)
    if out_kind.linear_kind is not kind.linear_kind:  # a form must never change the meaning
        raise UnsupportedError(f"the {to} form spells this {kind.value} layout only as a {out_kind.value} layout")
    return out
