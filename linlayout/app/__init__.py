"""The top layer: the command line, the tour and the layout-space tools.

The only part of ``linlayout`` that imports ``converters`` (the forms): it reads layout text
through :mod:`converters.registry` and hands the values to the core and planning layers below.

* :mod:`.cli` — the ``linlayout`` command;
* :mod:`.space` — spaces of Gluon spellings: enumeration, sweeps, classes, zero-cost graphs and
  cost matrices.
"""
