"""The layout forms: one package or module per spelling of a layout, and their registry.

**The contract** (stated in :mod:`linlayout.contract`, implemented by every form here):

* every layout value has a ``kind`` — ``distributed`` (register/lane/warp/block -> tensor
  coordinates), ``shared`` (offset/block -> coordinates), ``tensor_memory`` (row/col ->
  coordinates) or ``memory`` (a plain memory map, coordinates -> offset, such as a CuTe layout);
* it converts in ONE direction, hardware -> tensor coordinates, to a
  :class:`~linlayout.LinearLayout` (or a :class:`~linlayout.MixedRadixLayout` when a size is not a
  power of two): ``value.to_linear(shape=None)``, reached through the one coercion
  :func:`linlayout.as_linear`.  A shape the layout cannot use, or that disagrees with it, is an
  error, never ignored;
* each form has ``parse(text)``, ``str(value)`` with ``parse(str(v)) == v``, and
  ``from_linear(L)``: a spelling of ``L`` of the same kind, or an
  :class:`~linlayout.errors.UnsupportedError` saying why there is none.

:mod:`converters.registry` lists the forms (detect, parse, format, from_linear, the kinds each can
spell); :func:`converters.registry.convert` moves a value between forms keeping its kind and its
meaning, or refuses.

=====================  =========================================================================
module                 form
=====================  =========================================================================
:mod:`.gluon`          Triton/Gluon layout classes (distributed, shared, tensor memory)
:mod:`.cute`           CuTe ``Layout`` / ``Swizzle`` / ``ComposedLayout`` (memory maps), the algebra
:mod:`.tile`           TVM TIRx ``TileLayout`` (distributed, memory or tensor memory by its axes)
:mod:`.tilus`          Tilus register layouts (distributed)
:mod:`.registry`       the table of forms, ``load``, ``detect``, ``convert``
=====================  =========================================================================

Converters import from ``linlayout``; ``linlayout`` (outside its top layer ``linlayout.app``) never
imports ``converters``.

    >>> from converters import registry
    >>> form, b = registry.load("BlockedLayout([1], [32], [4], [0])")
    >>> form, b.kind.value
    ('gluon', 'distributed')
    >>> print(registry.convert(b, "tile", shape=[128]))
    S[(4,32):(1@warpid,1@laneid)] shape=(128)
"""
