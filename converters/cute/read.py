"""``converters.cute.parse``: read any CuTe text — a layout, a swizzle, a composed layout, or a
thread-value layout ``<layout> -> <tile>``.

    >>> parse("(4,8):(8,1)")
    Layout((4,8):(8,1))
    >>> parse("((4,8),(2,2)):((32,1),(16,8)) -> (16,8)").kind
    <Kind.DISTRIBUTED: 'distributed'>
"""

from __future__ import annotations

from typing import Any

from .text import parse as _parse_memory
from .tv import parse_tv

__all__ = ["parse"]


def parse(text: str) -> Any:
    """A CuTe value from its text: a :class:`~converters.cute.tv.TVLayout` when the text has a
    ``-> tile`` part, otherwise what :func:`converters.cute.text.parse` reads."""
    if isinstance(text, str) and "->" in text:
        return parse_tv(text)
    return _parse_memory(text)
