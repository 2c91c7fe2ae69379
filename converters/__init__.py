"""Converters between linlayout's forms and foreign layout spellings.

One module or package per foreign form (``converters.cute`` for CuTe layouts, and the Gluon,
TIRx and Tilus converters beside it).  Converters import from ``linlayout``; ``linlayout`` never
imports ``converters`` at module level.
"""
