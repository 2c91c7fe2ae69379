"""The top layer: the command line, the tour and the layout-space tools.

The only part of ``linlayout`` that imports ``converters`` (the forms): it reads layout text
through :mod:`converters.registry` and hands the values to the core and planning layers below.

* :mod:`.cli` — the ``linlayout`` command (parser and entry point), :mod:`.commands` (one
  function per subcommand), :mod:`.tour` (the guided tour);
* :mod:`.audit` — a Triton kernel's IR audited: every layout conversion and register <-> memory
  transfer with its plan and cost;
* :mod:`.space` — spaces of Gluon spellings (:mod:`.spellings`, :mod:`.sweep`): classes, zero-cost
  graphs and cost matrices.
"""
