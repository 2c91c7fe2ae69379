"""The ``linlayout`` command: look at a layout, convert it, compare two, plan a conversion.

    $ linlayout tour
    $ linlayout show "BlockedLayout([2,4],[16,2],[2,2],[1,0])" --shape 64,16
    $ linlayout convert "(4,8):(8,1)" --to tile
    $ linlayout equiv "BlockedLayout([1],[32],[4],[0])" \\
          "SliceLayout(1, BlockedLayout([1,1],[32,1],[4,1],[1,0]))" --shape 128
    $ linlayout plan "BlockedLayout([1,1],[1,32],[1,4],[1,0])" "BlockedLayout([1,1],[32,1],[4,1],[0,1])" --shape 128,128
    $ linlayout swizzle 128B --bitwidth 16
    $ linlayout banks "(8,64):(64,1)" --bitwidth 16 --column 0
    $ linlayout space --shape 128,128 --warps 4

A layout argument is any text form (detected; ``--form`` forces one) or ``@file``. ``--json``
prints machine-readable output.  Exit status: 0 success (``equiv``: equivalent), 1 ``equiv``:
different, 2 bad input (one line on stderr).

The entry point is :func:`main`:

    >>> main(["convert", "(4,8):(8,1)", "--to", "json"])  # doctest: +ELLIPSIS
    {"bases": [["offset", [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]]]], "out_dims": [["dim0", 4], ["dim1", 8]]}
    0
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from converters import registry
from linlayout.errors import LayoutError

from . import audit, commands, tour
from .commands import parse_shape

__all__ = ["main", "build_parser", "parse_shape"]

PROG = "linlayout"
FORMS = (*registry.FORMS, "json")

EXAMPLES = """\
examples:
  linlayout tour
  linlayout show "BlockedLayout([2,4],[16,2],[2,2],[1,0])" --shape 64,16
  linlayout show "local(2,1).spatial(8,4).local(1,2)" --style tilus
  linlayout convert "(4,8):(8,1)" --to tile
  linlayout equiv "BlockedLayout([1],[32],[4],[0])" "SliceLayout(1, BlockedLayout([1,1],[32,1],[4,1],[1,0]))" --shape 128
  linlayout plan "BlockedLayout([1,1],[1,32],[1,4],[1,0])" "BlockedLayout([1,1],[32,1],[4,1],[0,1])" --shape 128,128
  linlayout swizzle 128B --bitwidth 16
  linlayout banks "(8,64):(64,1)" --bitwidth 16 --column 0
  linlayout space --shape 128,128 --warps 4

layout arguments: Gluon BlockedLayout(...)/SliceLayout(...)/..., CuTe (4,8):(8,1) or S<3,4,3> o 0 o ...,
TIRx S[(...):(...)] + R[...], Tilus local(..).spatial(..), Triton's printed linear layout, JSON, or @file.
exit status: 0 ok (equiv: equivalent), 1 equiv: different, 2 bad input.
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        sys.stderr.write(f"{PROG}: error: {message} (see {self.prog} --help)\n")
        raise SystemExit(2)


# ------------------------------------------------------------------------------------ parser


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``linlayout`` command."""
    p = _Parser(prog=PROG, description="GPU tensor layouts as linear algebra over GF(2).", epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    from linlayout import __version__

    p.add_argument("--version", action="version", version=f"linlayout {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def common(sp: argparse.ArgumentParser, shape: bool = True) -> None:
        sp.add_argument("--json", action="store_true", help="machine-readable JSON output")
        sp.add_argument("--form", choices=FORMS, help="force the form of the layout text instead of detecting it")
        if shape:
            sp.add_argument("--shape", help="tensor shape, e.g. 128,128 (needed by Gluon layouts)")

    def add(name: str, help_: str, examples: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help_, description=help_, epilog="examples:\n" + examples, formatter_class=argparse.RawDescriptionHelpFormatter)

    s = add("show", "show a layout: its form, linear bases and element grid",
            '  linlayout show "BlockedLayout([2,4],[16,2],[2,2],[1,0])" --shape 64,16\n'
            '  linlayout show "local(2,1).spatial(8,4).local(1,2)" --style tilus --svg mma.svg\n'
            '  linlayout show "S[(2,128,112):(112@TCol,1@TLane,1@TCol)]" --shape 128,224\n')
    s.add_argument("layout", help="layout text or @file")
    common(s)
    s.add_argument("--style", choices=("gluon", "tilus", "hardware"), default="gluon", help="cell format: T0:0, 0: 0, or one row per thread")
    s.add_argument("--svg", help="also write an SVG picture here")
    s.add_argument("--png", help="also write a PNG picture here (matplotlib)")
    s.add_argument("--max-cells", type=int, default=4096, help="largest grid printed (default 4096)")
    s.set_defaults(fn=commands.cmd_show)

    c = add("convert", "convert a layout to another form",
            '  linlayout convert "(4,8):(8,1)" --to tile\n'
            '  linlayout convert "BlockedLayout([1],[32],[4],[0])" --shape 128 --to linear\n'
            '  linlayout convert "local(2,1).spatial(8,4).local(1,2)" --to gluon\n')
    c.add_argument("layout", help="layout text or @file")
    c.add_argument("--to", required=True, choices=FORMS, help="target form")
    common(c)
    c.set_defaults(fn=commands.cmd_convert)

    e = add("equiv", "are two spellings the same layout? (exit 0 yes, 1 no)",
            '  linlayout equiv "BlockedLayout([1],[32],[4],[0])" "SliceLayout(1, BlockedLayout([1,1],[32,1],[4,1],[1,0]))" --shape 128\n')
    e.add_argument("a", help="first layout (text or @file)")
    e.add_argument("b", help="second layout (text or @file)")
    common(e)
    e.add_argument("--form-b", choices=FORMS, help="force the form of the second layout")
    e.set_defaults(fn=commands.cmd_equiv)

    pl = add("plan", "plan the cheapest conversion from SRC to DST",
             '  linlayout plan "BlockedLayout([1,1],[1,32],[1,4],[1,0])" "BlockedLayout([1,1],[32,1],[4,1],[0,1])" --shape 128,128\n')
    pl.add_argument("src", help="source layout")
    pl.add_argument("dst", help="destination layout")
    common(pl)
    pl.add_argument("--bitwidth", type=int, default=16, help="element bits (default 16)")
    pl.set_defaults(fn=commands.cmd_plan)

    b = add("banks", "the shared-memory line x bank view of a shared layout (and conflicts of a register layout)",
            '  linlayout banks "(8,64):(64,1)" --bitwidth 16 --column 0\n'
            '  linlayout banks "S<3,3,3> o 0 o (8,64):(64,1)" --bitwidth 16 --column 0\n')
    b.add_argument("shared", help="shared-memory layout (offset -> coordinates, or a CuTe coordinates -> offset layout)")
    common(b)
    b.add_argument("--bitwidth", type=int, default=16, help="element bits (default 16)")
    b.add_argument("--column", type=int, help="highlight reading this column down the rows")
    b.add_argument("--row", type=int, help="highlight reading this row")
    b.add_argument("--register", help="a register layout: count its store/load bank conflicts (needs linlayout.banks)")
    b.set_defaults(fn=commands.cmd_banks)

    w = add("swizzle", "a swizzle on a row-major tile: its layout and the banks a column read hits",
            "  linlayout swizzle 128B --bitwidth 16\n  linlayout swizzle 'S<3,4,3>' --bitwidth 8 --shape 8,128\n")
    w.add_argument("spec", help="S<B,M,S> (element units) or a mode: none, 32B, 64B, 128B")
    w.add_argument("--bitwidth", type=int, default=16, help="element bits (default 16)")
    w.add_argument("--shape", help="tile rows,cols (default 8 rows of 128 bytes)")
    w.add_argument("--column", type=int, default=0, help="column read by the access (default 0)")
    w.add_argument("--json", action="store_true", help="machine-readable JSON output")
    w.set_defaults(fn=commands.cmd_swizzle)

    sp = add("space", "enumerate Gluon blocked (and slice) layouts of a shape and count distinct layouts",
             "  linlayout space --shape 128,128 --warps 4\n  linlayout space --shape 64 --warps 2 --kind all --up-to register_order\n")
    sp.add_argument("--shape", help="tensor shape, e.g. 128,128")
    sp.add_argument("--warps", type=int, default=4, help="warps per CTA (default 4)")
    sp.add_argument("--kind", choices=("blocked", "slice", "all"), default="blocked")
    sp.add_argument("--up-to", choices=("identical", "register_order"), default="identical")
    sp.add_argument("--max-size-per-thread", type=int, default=None)
    sp.add_argument("--serial", action="store_true", help="run in this process (no process pool)")
    sp.add_argument("--progress", action="store_true", help="show a progress bar even when stderr is not a terminal")
    sp.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    sp.add_argument("--json", action="store_true", help="machine-readable JSON output")
    sp.set_defaults(fn=commands.cmd_space)

    au = add("audit", "audit a Triton kernel's IR: every layout conversion and register <-> memory transfer, its plan and cost",
             "  linlayout audit kernel.ttgir\n  linlayout audit kernel.ttgir --json\n  linlayout audit - --html report.html < kernel.ttgir\n")
    audit.add_arguments(au)
    au.set_defaults(fn=audit.run)

    t = add("tour", "a short guided run on built-in examples from every area", "  linlayout tour\n")
    t.add_argument("--json", action="store_true", help="machine-readable JSON output")
    t.set_defaults(fn=tour.cmd_tour)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``linlayout`` command with ``argv`` (default ``sys.argv[1:]``); returns the exit
    status (0 ok, 1 ``equiv``: different, 2 bad input)."""
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as e:
        return int(e.code or 0)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return int(args.fn(args))
    except LayoutError as e:
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        sys.stderr.write(f"{PROG}: error: {msg}\n")
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. `linlayout show ... | head`
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
