"""The ``linlayout`` command: look at a layout, convert it, compare two, plan a conversion.

    $ linlayout tour
    $ linlayout show "BlockedLayout([2,4],[16,2],[2,2],[1,0])" --shape 64,16
    $ linlayout convert "(4,8):(8,1)" --to tile
    $ linlayout equiv "BlockedLayout([1],[32],[4],[0])" \\
          "SliceLayout(1, BlockedLayout([1,1],[32,1],[4,1],[1,0]))" --shape 128
    $ linlayout plan "BlockedLayout([1,1],[1,32],[1,4],[1,0])" "BlockedLayout([1,1],[32,1],[4,1],[0,1])" --shape 128,128
    $ linlayout swizzle 128B --bitwidth 16
    $ linlayout banks "(8,64):(64,1)" --bitwidth 16 --column 0
    $ linlayout atom --shape 128,64 --dtype fp16
    $ linlayout space --shape 128,128 --warps 4

A layout argument is any text form (detected; ``--form`` forces one), ``@file`` or ``-``
(standard input). ``--json`` prints machine-readable output, errors included
(``{"error": {"type", "message", "exit_status", "command"}}``).  Exit status: 0 success
(``equiv``: equivalent), 1 ``equiv``: different, 2 bad input or a missing optional package (one
line on stderr), 3 an internal error (a bug).

The entry point is :func:`main`:

    >>> main(["convert", "(4,8):(8,1)", "--to", "json"])  # doctest: +ELLIPSIS
    {"bases": [["offset", [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]]]], "out_dims": [["dim0", 4], ["dim1", 8]]}
    0
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import sys
import traceback
from collections.abc import Sequence
from typing import NoReturn

from converters import registry
from linlayout.dtypes import element_bitwidth
from linlayout.errors import LayoutError

from . import audit, commands, tour
from .commands import parse_shape

__all__ = ["main", "build_parser", "parse_shape"]

PROG = "linlayout"
#: element bits when ``--bitwidth`` is not given: the same default as :func:`linlayout.plan_conversion`
DEFAULT_BITWIDTH = 32
LAYOUT_HELP = "layout text (form detected), @FILE, or - for standard input"
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
  linlayout atom --shape 128,64 --dtype fp16
  linlayout space --shape 128,128 --warps 4
  linlayout audit kernel.ttgir

layout arguments: Gluon BlockedLayout(...)/SliceLayout(...)/..., CuTe (4,8):(8,1) or S<3,4,3> o 0 o ...,
TIRx S[(...):(...)] + R[...], Tilus local(..).spatial(..), Triton IR #ttg.blocked<{...}> or tensor<...>,
Triton's printed linear layout, JSON, @FILE, or - (standard input).
defaults: --bitwidth 32 everywhere (as Python's plan_conversion); --shape as the layout says, else needed.
exit status: 0 ok (equiv: equivalent), 1 equiv: different, 2 bad input or a missing optional package
(one line on stderr; with --json also {"error": {"type", "message", "exit_status", "command"}} on stdout),
3 internal error (a bug: please report it).
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2 (JSON on stdout with --json)
        hint = did_you_mean_choice(message)
        raise UsageError(f"{message}{hint} (see {self.prog} --help)")


class UsageError(Exception):
    """A command line argparse refused (exit 2)."""


def did_you_mean_choice(message: str) -> str:
    """`` (did you mean 'show'?)`` for argparse's "invalid choice" message, or ``""``.

        >>> did_you_mean_choice("argument COMMAND: invalid choice: 'shwo' (choose from 'show', 'tour')")
        " (did you mean 'show'?)"
    """
    m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if not m:
        return ""
    choices = re.findall(r"'([^']*)'", m.group(2))
    close = difflib.get_close_matches(m.group(1), choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


# ------------------------------------------------------------------------------------ parser


def bitwidth_arg(text: str) -> int:
    """``--bitwidth``: a number of bits (``16``) or an element type (``fp16``, ``bf16``, ``fp8``).

        >>> bitwidth_arg("16"), bitwidth_arg("bf16"), bitwidth_arg("fp8")
        (16, 16, 8)
    """
    try:
        return element_bitwidth(int(text) if text.strip().isdigit() else text.strip())
    except LayoutError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``linlayout`` command."""
    p = _Parser(prog=PROG, description="GPU tensor layouts as linear algebra over GF(2).", epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    from linlayout import __version__

    p.add_argument("--version", action="version", version=f"linlayout {__version__}", help="print the version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def common(sp: argparse.ArgumentParser, shape: bool = True, form: bool = True) -> None:
        sp.add_argument("--json", action="store_true", help="machine-readable JSON output (errors too: {\"error\": {...}})")
        if form:
            sp.add_argument("--form", choices=FORMS, help="force the form of the layout text instead of detecting it")
        if shape:
            sp.add_argument("--shape", help="tensor shape, e.g. 128,128 (needed by Gluon layouts)")

    def bits(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--bitwidth", type=bitwidth_arg, default=DEFAULT_BITWIDTH, metavar="BITS",
                        help=f"element size: bits (16) or a type (fp16, bf16, fp8, f32); default {DEFAULT_BITWIDTH}, as in Python")

    def add(name: str, help_: str, examples: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help_, description=help_, epilog="examples:\n" + examples, formatter_class=argparse.RawDescriptionHelpFormatter)

    s = add("show", "show a layout: its form, linear bases and element grid",
            '  linlayout show "BlockedLayout([2,4],[16,2],[2,2],[1,0])" --shape 64,16\n'
            '  linlayout show "local(2,1).spatial(8,4).local(1,2)" --style tilus --svg mma.svg\n'
            '  linlayout show "S[(128,224):(1@TLane,1@TCol)] shape=(128,224)"   # 224 = 128 + 64 + 32 columns\n'
            '  echo "(4,8):(8,1)" | linlayout show -\n')
    s.add_argument("layout", help=LAYOUT_HELP)
    common(s)
    s.add_argument("--style", choices=("gluon", "tilus", "hardware"), default="gluon",
                   help="gluon: cells T<thread>:<register>; tilus: <thread>: <register>; hardware: one row per thread, one column per register")
    s.add_argument("--svg", metavar="PATH", help="also write an SVG picture here (needs nothing extra)")
    s.add_argument("--png", metavar="PATH", help="also write a PNG picture here (needs matplotlib: pip install 'linlayout[draw]')")
    s.add_argument("--max-cells", type=int, default=4096, metavar="N", help="largest grid printed as text (default 4096, at most 65536: linlayout.limits.MAX_GRID_CELLS)")
    s.set_defaults(fn=commands.cmd_show)

    c = add("convert", "convert a layout to another form (same kind and meaning, or a refusal saying why)",
            '  linlayout convert "(4,8):(8,1)" --to tile\n'
            '  linlayout convert "BlockedLayout([1],[32],[4],[0])" --shape 128 --to linear\n'
            '  linlayout convert "BlockedLayout([1],[32],[4],[0])" --to mlir\n'
            '  linlayout convert "local(2,1).spatial(8,4).local(1,2)" --to gluon\n')
    c.add_argument("layout", help=LAYOUT_HELP)
    c.add_argument("--to", required=True, choices=FORMS, help="target form (json: the linear layout as JSON)")
    common(c)
    c.set_defaults(fn=commands.cmd_convert)

    e = add("equiv", "are two spellings the same layout? (exit 0 yes, 1 no)",
            '  linlayout equiv "BlockedLayout([1],[32],[4],[0])" "SliceLayout(1, BlockedLayout([1,1],[32,1],[4,1],[1,0]))" --shape 128\n')
    e.add_argument("a", help="first layout: " + LAYOUT_HELP)
    e.add_argument("b", help="second layout: " + LAYOUT_HELP)
    common(e)
    e.add_argument("--form-b", choices=FORMS, help="force the form of the second layout")
    e.set_defaults(fn=commands.cmd_equiv)

    pl = add("plan", "plan the cheapest conversion from SRC to DST",
             '  linlayout plan "BlockedLayout([1,1],[1,32],[1,4],[1,0])" "BlockedLayout([1,1],[32,1],[4,1],[0,1])" --shape 128,128 --bitwidth fp16\n')
    pl.add_argument("src", help="source layout: " + LAYOUT_HELP)
    pl.add_argument("dst", help="destination layout: " + LAYOUT_HELP)
    common(pl)
    bits(pl)
    pl.set_defaults(fn=commands.cmd_plan)

    b = add("banks", "the shared-memory line x bank view of a shared layout (and conflicts of a register layout)",
            '  linlayout banks "(8,64):(64,1)" --bitwidth 16 --column 0\n'
            '  linlayout banks "S<3,3,3> o 0 o (8,64):(64,1)" --bitwidth 16 --column 0\n')
    b.add_argument("shared", help="shared-memory layout (offset -> coordinates, or a CuTe coordinates -> offset layout); " + LAYOUT_HELP)
    common(b)
    bits(b)
    b.add_argument("--column", type=int, metavar="J", help="mark (*) the words read by one warp reading column J down the rows")
    b.add_argument("--row", type=int, metavar="I", help="mark (*) the words read by one warp reading row I")
    b.add_argument("--register", metavar="LAYOUT", help="a register layout: count its store/load bank conflicts with this shared layout")
    b.set_defaults(fn=commands.cmd_banks)

    w = add("swizzle", "a swizzle on a row-major tile: its layout and the banks a column read hits",
            "  linlayout swizzle 128B --bitwidth 16\n  linlayout swizzle 'S<3,4,3>' --bitwidth 8 --shape 8,128\n")
    w.add_argument("spec", help="S<B,M,S> (element units) or a mode: none, 32B, 64B, 128B")
    bits(w)
    w.add_argument("--shape", help="tile rows,cols (default 8 rows of 128 bytes)")
    w.add_argument("--column", type=int, default=0, metavar="J", help="column read by the access (default 0)")
    w.add_argument("--json", action="store_true", help="machine-readable JSON output (errors too: {\"error\": {...}})")
    w.set_defaults(fn=commands.cmd_swizzle)

    at = add("atom", "pick the MMA shared-memory atom (swizzle) for an operand tile and show its bank behaviour",
             "  linlayout atom --shape 128,64 --dtype fp16\n  linlayout atom --shape 64,128 --dtype fp8 --major MN --json\n")
    at.add_argument("--shape", required=True, help="the operand tile (MN, K), e.g. 128,64")
    at.add_argument("--dtype", required=True, help="element type (fp16, bf16, fp8, f32, tf32, ...) or bits")
    at.add_argument("--major", choices=("K", "MN"), default="K", help="the contiguous dim: K (default) or MN")
    at.add_argument("--json", action="store_true", help="machine-readable JSON output (errors too: {\"error\": {...}})")
    at.set_defaults(fn=commands.cmd_atom)

    sp = add("space", "enumerate Gluon blocked (and slice) layouts of a shape and count distinct layouts",
             "  linlayout space --shape 128,128 --warps 4\n  linlayout space --shape 64 --warps 2 --kind all --up-to register_order\n")
    sp.add_argument("--shape", help="tensor shape, e.g. 128,128")
    sp.add_argument("--warps", type=int, default=4, help="warps per CTA (default 4)")
    sp.add_argument("--kind", choices=("blocked", "slice", "all"), default="blocked",
                    help="which spellings: BlockedLayouts (default), SliceLayouts of a rank+1 parent, or both")
    sp.add_argument("--up-to", choices=("identical", "register_order"), default="identical",
                    help="when two spellings count as the same layout: the same map (default) or the same up to register order (zero-cost)")
    sp.add_argument("--max-size-per-thread", type=int, default=None, metavar="N",
                    help="largest sizePerThread entry enumerated (default: up to the shape)")
    sp.add_argument("--serial", action="store_true", help="run in this process (no process pool)")
    sp.add_argument("--progress", action="store_true", help="show a progress bar (rate, time left; needs tqdm) even when stderr is not a terminal")
    sp.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    sp.add_argument("--json", action="store_true", help="machine-readable JSON output (errors too: {\"error\": {...}})")
    sp.set_defaults(fn=commands.cmd_space)

    au = add("audit", "audit a Triton kernel's IR: every layout conversion and register <-> memory transfer, its plan and cost",
             "  linlayout audit kernel.ttgir\n  linlayout audit kernel.ttgir --json\n  linlayout audit - --html report.html < kernel.ttgir\n")
    audit.add_arguments(au)
    au.set_defaults(fn=audit.run)

    t = add("tour", "a short guided run on built-in examples from every area", "  linlayout tour\n")
    t.add_argument("--json", action="store_true", help="machine-readable JSON output (errors too: {\"error\": {...}})")
    t.set_defaults(fn=tour.cmd_tour)
    return p


#: exit statuses
EXIT_OK, EXIT_DIFFERENT, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3
#: optional packages and the extra that installs them
EXTRAS = {"matplotlib": "draw", "tqdm": "progress", "IPython": "notebook"}


def error_payload(kind: str, message: str, status: int, command: str | None) -> dict:
    """The ``--json`` form of an error: ``{"error": {"type", "message", "exit_status", "command"}}``.

        >>> error_payload("ParseError", "bad", 2, "show")["error"]["type"]
        'ParseError'
    """
    return {"error": {"type": kind, "message": message, "exit_status": status, "command": command}}


def _fail(kind: str, message: str, status: int, command: str | None, as_json: bool) -> int:
    sys.stderr.write(f"{PROG}: error: {message}\n")
    if as_json:
        print(json.dumps(error_payload(kind, message, status, command)))
    return status


def _missing_extra(e: ImportError) -> str | None:
    name = (getattr(e, "name", None) or "").split(".")[0]
    if name not in EXTRAS:
        return None
    return f"this needs the optional package {name!r}, which is not installed; install it with: pip install 'linlayout[{EXTRAS[name]}]'"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``linlayout`` command with ``argv`` (default ``sys.argv[1:]``); returns the exit
    status: 0 ok, 1 ``equiv``: different, 2 bad input (one line on stderr; with ``--json`` also
    ``{"error": {...}}`` on stdout), 3 an internal error (a bug: please report it)."""
    argv = list(argv) if argv is not None else sys.argv[1:]
    as_json = "--json" in argv
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as e:
        return _fail("UsageError", str(e), EXIT_BAD_INPUT, command, as_json)
    except SystemExit as e:  # --help, --version
        return int(e.code or 0)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args.fn(args))
    except LayoutError as e:
        msg = " ".join(str(e).strip().split("\n")[0].split()) or type(e).__name__
        return _fail(type(e).__name__, msg, EXIT_BAD_INPUT, args.command, as_json)
    except ImportError as e:
        extra = _missing_extra(e)
        if extra is None:
            return _internal(e, args.command, as_json)
        return _fail("MissingExtra", extra, EXIT_BAD_INPUT, args.command, as_json)
    except BrokenPipeError:  # pragma: no cover - e.g. `linlayout show ... | head`
        return EXIT_OK
    except OSError as e:  # a path the user gave (--svg, --png, --html) cannot be written or read
        where = f" {e.filename}" if getattr(e, "filename", None) else ""
        return _fail("OSError", f"cannot use the file{where}: {e.strerror or e}", EXIT_BAD_INPUT, args.command, as_json)
    except KeyboardInterrupt:  # pragma: no cover
        return 130
    except Exception as e:  # a bug in linlayout, not in the input
        return _internal(e, args.command, as_json)


def _internal(e: BaseException, command: str | None, as_json: bool) -> int:
    if os.environ.get("LINLAYOUT_TRACEBACK"):
        traceback.print_exc()
    msg = (f"internal error ({type(e).__name__}: {' '.join(str(e).split())[:200]}); this is a bug in linlayout, "
           "please report it with the command line (LINLAYOUT_TRACEBACK=1 prints the traceback)")
    return _fail("InternalError", msg, EXIT_INTERNAL, command, as_json)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
