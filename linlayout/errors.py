"""The exception hierarchy of linlayout.

Every error the library raises on bad input is a :class:`LayoutError`, so a caller can catch one
class; the subclasses say what kind of thing went wrong.  Messages say what is wrong, where, and
what was expected, e.g.::

    >>> from linlayout import LinearLayout, LayoutError
    >>> try:
    ...     LinearLayout({"register": [[3]]}, {"dim0": 2})
    ... except LayoutError as e:
    ...     print(type(e).__name__)
    BasisError
"""

from __future__ import annotations

__all__ = [
    "LayoutError",
    "DimensionError",
    "BasisError",
    "SizeError",
    "NotSurjectiveError",
    "NotInjectiveError",
    "NotInvertibleError",
    "NotLinearError",
    "ParseError",
    "UnsupportedError",
    "SwizzleError",
]


class LayoutError(ValueError):
    """Base class of every error linlayout raises for bad input or an impossible request."""


class DimensionError(LayoutError):
    """A dimension name is unknown, missing, repeated, or the dims of two layouts do not match."""


class BasisError(LayoutError):
    """A basis vector is malformed: negative, of the wrong length, or too large for its out-dim."""


class SizeError(LayoutError):
    """A size is not a power of two, does not match, or is out of range."""


class NotSurjectiveError(LayoutError):
    """The operation needs a surjective layout (every output reached) and this one is not."""


class NotInjectiveError(LayoutError):
    """The operation needs an injective layout (no two inputs share an output) and this one is not."""


class NotInvertibleError(LayoutError):
    """The layout has no inverse (it is not a bijection)."""


class NotLinearError(LayoutError):
    """The layout cannot be represented faithfully over GF(2)."""


class ParseError(LayoutError):
    """Text could not be parsed.

    ``text`` and ``position`` (0-based index into ``text``) locate the problem; the message shows
    the text with a caret under the position and says what was expected there.
    """

    def __init__(self, message: str, text: str | None = None, position: int | None = None):
        self.text = text
        self.position = position
        if text is not None and position is not None:
            shown = text if len(text) <= 200 else text[:200] + "..."
            caret = " " * min(position, len(shown)) + "^"
            message = f"{message} (at position {position})\n  {shown}\n  {caret}"
        super().__init__(message)


class UnsupportedError(LayoutError):
    """A valid request that this layout family or backend does not support."""


class SwizzleError(LayoutError):
    """Swizzle parameters are invalid: CuTe ``|S| < B``, a swizzle width not 0/32/64/128 bytes, ..."""
