"""Read a layout written in any of linlayout's text forms, telling the form from the text.

Forms (:data:`FORMS`):

* ``linear`` — Triton's printed ``LinearLayout`` (``- register=1 -> (0, 1) ... where out dims
  are: [...]``) or our JSON form ``{"bases": [...], "out_dims": [...]}``;
* ``gluon`` — a Gluon constructor, ``BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])`` (``gl.``
  prefix and keywords allowed), or its JSON form ``{"kind": "BlockedLayout", ...}``;
* ``cute`` — CuTe notation, ``(4,8):(8,1)``, ``S<3,4,3> o 0 o (8,64):(64,1)``;
* ``tile`` — a TVM TIRx ``TileLayout``, ``S[(8,2,4,2):(4@laneid,1@warpid,1@laneid,1)] + R[2:4@warpid]``;
* ``tilus`` — a Tilus register layout, ``local(2, 1).spatial(8, 4).local(1, 2)`` or
  ``RegisterLayout(shape=[...], mode_shape=[...], spatial_modes=[...], local_modes=[...])``.

``@path`` reads the layout from a file (JSON or text).

    >>> detect_form("BlockedLayout([2, 4], [16, 2], [2, 2], [1, 0])")
    'gluon'
    >>> detect_form("(4,8):(8,1)"), detect_form("S<3,4,3> o 0 o (8,64):(64,1)")
    ('cute', 'cute')
    >>> detect_form("S[(2,128,112):(112@TCol,1@TLane,1@TCol)]"), detect_form("local(2,1).spatial(8,4)")
    ('tile', 'tilus')
    >>> detect_form('{"bases": [["lane", [[1]]]], "out_dims": [["dim0", 2]]}')
    'linear'
    >>> L = to_linear(parse_layout("local(2, 1).spatial(8, 4).local(1, 2)"))
    >>> L.out_dims
    {'dim0': 16, 'dim1': 8}

:func:`to_linear` turns any parsed layout into a :class:`~linlayout.LinearLayout` in Triton's
direction (hardware in-dims -> ``dim0, dim1, ...``); a CuTe layout (coordinates -> offset) is
inverted into a shared-memory layout (``offset`` -> coordinates) when it is a bijection.
"""

from __future__ import annotations

import ast
import json
import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

from linlayout.errors import DimensionError, LayoutError, ParseError, UnsupportedError
from linlayout.linear import LinearLayout

__all__ = ["FORMS", "detect_form", "parse_layout", "load_layout", "to_linear", "form_of", "GluonSpelling"]

FORMS = ("linear", "gluon", "cute", "tile", "tilus", "json")

_TILUS_FUNCS = ("local", "spatial", "column_local", "column_spatial", "replicated", "register_layout", "RegisterLayout")
_TILUS_RE = re.compile(r"^(?:tilus\.)?(?:%s)\s*\(" % "|".join(_TILUS_FUNCS))
_GLUON_RE = re.compile(r"^(?:(?:gl|ttgl|tl)\.)?[A-Z]\w*(?:Layout|Encoding)\s*\(")
_TILE_RE = re.compile(r"^(?:S|R)\s*\[")
_CUTE_SW_RE = re.compile(r"^(?:S|Sw)\s*<|^SW_\d")
_LINEAR_TEXT_RE = re.compile(r"(?m)^\s*-?\s*[A-Za-z_]\w*=\d+\s*->|where out dims are|\(empty layout|is a size 1 dimension")


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def detect_form(text: str) -> str:
    """Which form the text is written in: one of ``linear``, ``gluon``, ``cute``, ``tile``,
    ``tilus`` (JSON is classified by its content).

    Raises:
        ParseError: the text matches no form (the message lists what each form looks like).
    """
    if not isinstance(text, str):
        raise ParseError(f"a layout must be text, got {type(text).__name__}")
    t = text.strip()
    if not t:
        raise ParseError("empty layout text", text, 0)
    if t[0] in "{[" and not _TILE_RE.match(t):
        try:
            obj = json.loads(t)
        except json.JSONDecodeError as e:
            raise ParseError(f"invalid JSON: {e.msg}", text, e.pos) from None
        return _json_form(obj, text)
    if _TILUS_RE.match(t):
        return "tilus"
    if _GLUON_RE.match(t):
        return "gluon"
    if _TILE_RE.match(t):
        return "tile"
    if _CUTE_SW_RE.match(t) or re.match(r"^[(_\d]", t):
        return "cute"
    if _LINEAR_TEXT_RE.search(t):
        return "linear"
    raise ParseError(
        "cannot tell the layout's form: expected a Gluon constructor (BlockedLayout(...)), CuTe "
        "(4,8):(8,1), a TileLayout S[...], Tilus local(...).spatial(...), Triton's linear layout text, "
        "JSON, or @file",
        text,
        0,
    )


def _json_form(obj: Any, text: str = "") -> str:
    if isinstance(obj, Mapping):
        if "layout" in obj and isinstance(obj["layout"], Mapping):
            return _json_form(obj["layout"], text)
        if "kind" in obj:
            return "gluon"
        if "bases" in obj and "out_dims" in obj:
            return "linear"
        if "form" in obj and "layout" in obj:
            return str(obj["form"])
    raise ParseError(
        "this JSON is not a layout: expected {\"bases\": ..., \"out_dims\": ...} (linear) or "
        "{\"kind\": \"BlockedLayout\", ...} (Gluon)",
        text or json.dumps(obj)[:200],
        0,
    )


def load_layout(arg: str, form: str | None = None) -> tuple[str, Any]:
    """Read a layout argument as the command line does: ``@path`` reads a file; the form is
    detected unless ``form`` is given.  Returns ``(form, layout object)``.

        >>> load_layout("(4,8):(8,1)")
        ('cute', Layout((4,8):(8,1)))
    """
    if not isinstance(arg, str):
        raise ParseError(f"a layout must be text, got {type(arg).__name__}")
    if arg.startswith("@"):
        path = arg[1:]
        try:
            with open(os.path.expanduser(path), encoding="utf-8") as f:
                arg = f.read()
        except OSError as e:
            raise LayoutError(f"cannot read the layout file {path!r}: {e.strerror}") from None
    if form is None or form == "json":
        detected = detect_form(arg)
        if form == "json" and not arg.strip().startswith(("{", "[")):
            raise ParseError("--form json: the text is not JSON", arg, 0)
        form = detected
    return form, parse_layout(arg, form)


def parse_layout(text: str, form: str | None = None) -> Any:
    """Parse layout text of any form (detected unless ``form`` is given) into its native object:
    a :class:`~linlayout.LinearLayout`, a Gluon layout (from ``converters.gluon``, or a
    :class:`GluonSpelling` when that converter is absent), a CuTe ``Layout``/``ComposedLayout``,
    a TIRx ``TileLayout``, or a Tilus ``RegisterLayout``.

        >>> parse_layout("(4,8):(8,1)")
        Layout((4,8):(8,1))
        >>> parse_layout("(4,8):(8,1)", form="tile")
        Traceback (most recent call last):
        ...
        linlayout.errors.ParseError: expected 'S[' (at position 0)
          (4,8):(8,1)
          ^
    """
    if form is None:
        form = detect_form(text)
    if form not in FORMS:
        raise LayoutError(f"unknown form {form!r}; expected one of {', '.join(FORMS)}")
    t = text.strip()
    if form == "json":
        form = detect_form(t)
    if form == "linear":
        if t.startswith("{"):
            obj = _loads(t, text)
            if isinstance(obj, Mapping) and "layout" in obj and "bases" not in obj:
                obj = obj["layout"]
            return LinearLayout.from_dict(obj)
        from linlayout.linear_text import parse_linear

        return parse_linear(t)
    if form == "gluon":
        return _parse_gluon(t)
    if form == "cute":
        from converters.cute import parse

        return parse(t)
    if form == "tile":
        from converters.tile import parse_tile

        if not _TILE_RE.match(t):
            raise ParseError("expected 'S['", text, 0)
        return parse_tile(t)
    return _parse_tilus(t)


def _loads(t: str, text: str) -> Any:
    try:
        return json.loads(t)
    except json.JSONDecodeError as e:
        raise ParseError(f"invalid JSON: {e.msg}", text, e.pos) from None


# ------------------------------------------------------------------------------------ Gluon


class GluonSpelling:
    """A Gluon layout held as its JSON dict (``{"kind": ..., fields...}``); used when
    ``converters.gluon`` is not available.  ``to_linear(shape)`` goes through
    :func:`linlayout.space.spelling_to_linear`.

        >>> s = GluonSpelling({"kind": "BlockedLayout", "size_per_thread": [1], "threads_per_warp": [32], "warps_per_cta": [4], "order": [0]})
        >>> s.to_linear([128]).in_dims
        {'register': 1, 'lane': 32, 'warp': 4, 'block': 1}
        >>> str(s)
        'BlockedLayout([1], [32], [4], [0])'
    """

    def __init__(self, d: Mapping[str, Any]):
        self.d = dict(d)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.d)

    def to_linear(self, shape: Sequence[int]) -> LinearLayout:
        from linlayout.space import spelling_to_linear

        return spelling_to_linear(self.d, shape)

    def __str__(self) -> str:
        from linlayout.space import format_spelling

        return format_spelling(self.d)

    def __repr__(self) -> str:
        return f"GluonSpelling({self})"


_GLUON_FIELDS = {
    "BlockedLayout": ("size_per_thread", "threads_per_warp", "warps_per_cta", "order", "cga_layout"),
    "SliceLayout": ("dim", "parent"),
    "NVMMADistributedLayout": ("version", "warps_per_cta", "instr_shape", "cga_layout"),
    "DotOperandLayout": ("operand_index", "parent", "k_width"),
    "SwizzledSharedLayout": ("vec", "per_phase", "max_phase", "order", "cga_layout"),
    "NVMMASharedLayout": ("swizzle_byte_width", "element_bitwidth", "rank", "transposed", "fp4_padded", "cga_layout"),
    "DistributedLinearLayout": ("reg_bases", "lane_bases", "warp_bases", "block_bases", "shape"),
    "SharedLinearLayout": ("offset_bases", "block_bases", "alignment"),
    "TensorMemoryLayout": ("block", "col_stride", "cta_split_num"),
}


def _literal_call(node: ast.AST, text: str) -> Any:
    """A constructor call with literal arguments -> its JSON dict (nested calls allowed)."""
    if isinstance(node, ast.Call):
        fn = node.func
        name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", None)
        if name is None:
            raise ParseError("expected a layout constructor name", text, getattr(node, "col_offset", 0))
        fields = _GLUON_FIELDS.get(name)
        d: dict[str, Any] = {"kind": name}
        for i, a in enumerate(node.args):
            if fields is None or i >= len(fields):
                raise ParseError(f"{name} takes at most {len(fields or ())} positional arguments", text, a.col_offset)
            d[fields[i]] = _literal_call(a, text)
        for kw in node.keywords:
            if kw.arg is None:
                raise ParseError("** arguments are not allowed", text, kw.value.col_offset)
            d[kw.arg] = _literal_call(kw.value, text)
        if name == "BlockedLayout":
            d.setdefault("cga_layout", [])
        return d
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise ParseError("expected a literal (number, list, True/False) or a layout constructor", text, getattr(node, "col_offset", 0)) from None


def _parse_gluon(t: str) -> Any:
    try:
        import converters.gluon as gluon  # type: ignore[import-not-found]
    except ImportError:
        gluon = None
    if t.startswith("{"):
        d = _loads(t, t)
        if isinstance(d, Mapping) and "layout" in d and "kind" not in d:
            d = d["layout"]
        if gluon is not None and hasattr(gluon, "from_dict"):
            return gluon.from_dict(d)
        return GluonSpelling(d)
    if gluon is not None and hasattr(gluon, "parse"):
        return gluon.parse(t)
    try:
        tree = ast.parse(t, mode="eval")
    except SyntaxError as e:
        raise ParseError(f"not a Gluon constructor: {e.msg}", t, max(0, (e.offset or 1) - 1)) from None
    d = _literal_call(tree.body, t)
    if not isinstance(d, dict):
        raise ParseError("expected a Gluon layout constructor such as BlockedLayout(...)", t, 0)
    return GluonSpelling(d)


# ------------------------------------------------------------------------------------ Tilus


def _parse_tilus(t: str) -> Any:
    from converters import tilus

    try:
        tree = ast.parse(t, mode="eval")
    except SyntaxError as e:
        raise ParseError(f"not a Tilus layout expression: {e.msg}", t, max(0, (e.offset or 1) - 1)) from None

    def ev(node: ast.AST) -> Any:
        if isinstance(node, ast.Call):
            args = [ev(a) for a in node.args]
            kwargs = {kw.arg: ev(kw.value) for kw in node.keywords if kw.arg}
            fn = node.func
            if isinstance(fn, ast.Name) or (isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name) and fn.value.id == "tilus"):
                name = fn.id if isinstance(fn, ast.Name) else fn.attr
                if name == "RegisterLayout":
                    name = "register_layout"
                if name not in _TILUS_FUNCS:
                    raise ParseError(f"unknown Tilus function {name!r}; expected one of {', '.join(_TILUS_FUNCS[:-1])}", t, node.col_offset)
                return getattr(tilus, name)(*args, **kwargs)
            if isinstance(fn, ast.Attribute):
                base = ev(fn.value)
                if fn.attr not in _TILUS_FUNCS[:5]:
                    raise ParseError(f"unknown Tilus method {fn.attr!r}", t, node.col_offset)
                return getattr(base, fn.attr)(*args, **kwargs)
            raise ParseError("expected a Tilus call", t, node.col_offset)
        try:
            return ast.literal_eval(node)
        except ValueError:
            raise ParseError("expected a literal or a Tilus call", t, getattr(node, "col_offset", 0)) from None

    try:
        return ev(tree.body)
    except TypeError as e:
        raise ParseError(f"bad Tilus arguments: {e}", t, 0) from None


# ------------------------------------------------------------------------ to a LinearLayout


def form_of(obj: Any) -> str:
    """The form of a layout object (``linear``, ``gluon``, ``cute``, ``tile``, ``tilus``, or
    ``general`` for a :class:`~linlayout.general.MixedRadixLayout`).

        >>> form_of(LinearLayout.empty())
        'linear'
    """
    if isinstance(obj, LinearLayout):
        return "linear"
    if isinstance(obj, GluonSpelling):
        return "gluon"
    mod = type(obj).__module__
    for name in ("gluon", "cute", "tilus", "tile"):
        if mod.startswith(f"converters.{name}"):
            return name
    if mod.startswith("linlayout.general"):
        return "general"
    return "unknown"


def to_linear(obj: Any, shape: Sequence[int] | None = None, *, hardware_first: bool = True) -> LinearLayout:
    """A parsed layout as a :class:`~linlayout.LinearLayout`.

    With ``hardware_first`` (Triton's direction) a CuTe layout, which maps coordinates to an offset,
    is inverted into a shared-memory layout ``offset -> dim0, dim1, ...`` (when it is a bijection);
    TileLayouts and Tilus layouts map hardware to coordinates already.

        >>> to_linear(parse_layout("(4,8):(8,1)")).bases["offset"][:3]
        ((0, 1), (0, 2), (0, 4))
        >>> to_linear(parse_layout("(4,8):(8,1)"), hardware_first=False).in_dim_names
        ('dim0', 'dim1')
    """
    if isinstance(obj, LinearLayout):
        return obj
    form = form_of(obj)
    shp = list(shape) if shape is not None else None
    if form == "cute":
        from converters.cute import to_linear as cute_to_linear

        L = cute_to_linear(obj)
        if not hardware_first:
            return L
        if not L.is_invertible():
            raise UnsupportedError(
                f"the CuTe layout {obj} is not a bijection onto its offsets, so it has no shared-memory (offset -> coordinate) form"
            )
        return L.invert()
    if form == "tilus":
        return obj.to_linear()
    if form == "tile":
        return obj.to_linear(shp, hardware_first=hardware_first)
    fn = getattr(obj, "to_linear", None)
    if fn is None:
        raise UnsupportedError(f"a {type(obj).__name__} has no linear form")
    if shp is None:
        try:
            return fn()
        except TypeError:
            raise DimensionError(f"{_first_line(str(obj))}: this layout needs the tensor shape (--shape, e.g. --shape 128,128)") from None
    return fn(shp)
