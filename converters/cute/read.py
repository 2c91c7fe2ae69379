"""``converters.cute.parse``: read any CuTe text — a layout, a swizzle, a composed layout, a
thread-value layout ``<layout> -> <tile>``, or a tensor-memory fragment ``tmem<bits> <layout>``.

    >>> parse("(4,8):(8,1)")
    Layout((4,8):(8,1))
    >>> parse("((4,8),(2,2)):((32,1),(16,8)) -> (16,8)").kind
    <Kind.DISTRIBUTED: 'distributed'>
    >>> parse("tmem<32> (128,64):(65536,1)").kind
    <Kind.TENSOR_MEMORY: 'tensor_memory'>
"""

from __future__ import annotations

from typing import Any

from .text import parse as _parse_memory
from .tmem import parse_tmem
from .tv import parse_tv

__all__ = ["parse"]


def parse(text: str) -> Any:
    """A CuTe value from its text: a :class:`~converters.cute.tv.TVLayout` when the text has a
    ``-> tile`` part, a :class:`~converters.cute.tmem.TmemLayout` when it starts ``tmem<``,
    otherwise what :func:`converters.cute.text.parse` reads."""
    if isinstance(text, str) and "->" in text:
        return parse_tv(text)
    if isinstance(text, str) and text.lstrip().startswith("tmem"):
        return parse_tmem(text)
    return _parse_memory(text)
