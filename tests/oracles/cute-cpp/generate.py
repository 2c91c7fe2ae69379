"""Generate the CuTe C++ golden corpus (algebra.jsonl) by compiling CuTe on the host CPU.

    python tests/oracles/cute-cpp/generate.py --cutlass /tmp/cutlass/include \
        --cuda /usr/local/cuda-13.0/include [--out tests/oracles/cute-cpp/algebra.jsonl]

Every case is written as a C++ expression over *static* CuTe integers (``Int<N>``), so C++'s
compile-time checks (``static_assert``: "Stride Divisibility Condition", "Shape Divisibility
Condition", "Left inverse divisibility condition", ...) apply exactly as in a kernel.  The cases
C++ accepts go into one program that prints each result with ``cute::print``; each case expected
to be refused is compiled alone (``-fsyntax-only``, ``--jobs`` at a time) and its first ``static assertion failed``
message is recorded as the row's ``error``.  Only this script is committed, never CUTLASS code.

Cases: the issue's examples, the first arguments of every row of the pycute corpus
(``tests/oracles/pycute/algebra.jsonl``) for composition / complement / logical_divide /
right_inverse (and left_inverse on the same layouts), plus seeded random layouts with negative
strides, extent-1 modes and swizzled composed layouts.  Which cases go where is decided by
linlayout's own algebra (the prediction under test): a wrong prediction shows up as a failed
compile of the accepted program or a successful compile of a refused case, and is reported.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

ROOT = pathlib.Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from converters.cute import algebra as A  # noqa: E402
from converters.cute.layout import E, Layout  # noqa: E402
from converters.cute.swizzle import ComposedLayout, Swizzle  # noqa: E402
from converters.cute.text import parse, parse_layout  # noqa: E402
from linlayout.errors import LayoutError  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
PYCUTE = HERE.parent / "pycute" / "algebra.jsonl"
OPS = ("composition", "complement", "logical_divide", "zipped_divide", "right_inverse", "left_inverse", "logical_product")
PRODUCTS = ("blocked_product", "raked_product", "zipped_product", "tiled_product")


def cpp_tuple(t) -> str:
    if isinstance(t, (Layout, ComposedLayout)):  # a layout inside a tiler tuple (C++ Tile<...>)
        return cpp_arg(t)
    if isinstance(t, tuple):
        return "cute::make_tuple(" + ",".join(cpp_tuple(x) for x in t) + ")"
    if isinstance(t, E):
        return f"(E<{','.join(map(str, t.path))}>{{}} * Int<{t.value}>{{}})"
    if type(t).__name__ == "Underscore":
        return "_"
    return f"Int<{t}>{{}}"


def cpp_arg(x) -> str:
    if isinstance(x, Layout):
        return f"make_layout({cpp_tuple(x.shape)},{cpp_tuple(x.stride)})"
    if isinstance(x, Swizzle):
        return f"Swizzle<{x.bits},{x.base},{x.shift}>{{}}"
    if isinstance(x, ComposedLayout):
        return f"composition({cpp_arg(x.outer)},Int<{x.offset}>{{}},{cpp_arg(x.inner)})"
    if isinstance(x, (int, tuple)):
        return cpp_tuple(x)
    raise TypeError(x)


def arg_text(x) -> object:
    if isinstance(x, tuple):  # a shape or an order (tile_to_shape), read back with parse_int_tuple
        return "(" + ",".join(str(arg_text(v)) for v in x) + ")"
    return x if isinstance(x, int) else str(x)


def read_arg(x):
    return x if isinstance(x, int) else parse(x)


def cases() -> list[tuple[str, list]]:
    out: list[tuple[str, list]] = []
    seen = set()

    def add(op: str, *args) -> None:
        key = (op, tuple(arg_text(a) for a in args))
        if key not in seen:
            seen.add(key)
            out.append((op, list(args)))

    P = parse_layout
    # the cases
    add("composition", P("(4,6,8,10):(2,3,5,7)"), P("6:12"))
    add("composition", P("(8,8):(8,1)"), P("3:3"))
    add("composition", P("(5,3):(1,7)"), P("4:1"))
    add("composition", P("(4,3,1):(3,1,0)"), P("24:1"))
    add("composition", P("(4,3,1):(3,1,0)"), P("(24):(1)"))
    add("composition", P("1:1"), P("4:1"))
    add("composition", P("(4,4):(1,5)"), P("4:3"))
    add("composition", P("(4,4):(1,5)"), P("2:3"))
    for t in ("(4,2):(1,5)", "(128,160):(65536,1)", "(2,3):(-1,1048576)", "(2,4):(1,1)", "(4,8):(8,1)", "4:2"):
        add("left_inverse", P(t))
        add("right_inverse", P(t))
    # the pycute corpus' arguments
    for line in PYCUTE.read_text().splitlines():
        row = json.loads(line)
        if row["op"] not in OPS:
            continue
        args = [read_arg(a) for a in row["args"]]
        add(row["op"], *args)
        if row["op"] == "right_inverse":
            add("left_inverse", *args)
    # seeded random layouts: negative strides, extent-1 modes, inverses of injective layouts
    rng = random.Random(14)  # (the seeded cases come before the nested ones: their rows keep their order)
    for _ in range(60):
        r = rng.randint(1, 3)
        shape = tuple(rng.choice([1, 2, 3, 4, 8]) for _ in range(r))
        stride = tuple(rng.choice([-4, -2, -1, 0, 1, 2, 3, 4, 8, 16]) for _ in range(r))
        L = Layout(shape, stride)
        add("composition", L, Layout(rng.choice([2, 4, 6]), rng.choice([-3, -2, -1, 1, 2, 3])))
        add("composition", Layout((4, 8), (8, 1)), L)
        add("right_inverse", L)
    for _ in range(60):
        # injective: a permutation of compact modes with gaps
        r = rng.randint(1, 3)
        shape = [rng.choice([2, 3, 4, 5, 8]) for _ in range(r)]
        order = list(range(r))
        rng.shuffle(order)
        stride = [0] * r
        cur = rng.choice([1, 2, 3])
        for i in order:
            stride[i] = cur
            cur *= shape[i] * rng.choice([1, 1, 2, 3])
        add("left_inverse", Layout(tuple(shape), tuple(stride)))
    # basis (E<i>) strides: identity layouts composed and divided, basis-strided inner layouts
    for shape in ((8, 16), (4, 6), (2, 8, 4)):
        ident = Layout(shape, tuple(E(1, i) for i in range(len(shape))))
        for b in ("(4,2):(2,16)", "8:1", "(2,4):(1,8)", "(4,4):(4,1)", "6:2", "(3,2):(1,3)"):
            add("composition", ident, P(b))
        for t in ("2:1", "4:2", "(2,2):(1,8)"):
            add("logical_divide", ident, P(t))
            add("zipped_divide", ident, P(t))
    for b in ("(2,4):(1@0,2@1)", "(4,8):(1@1,1@0)", "(2,2):(4@0,0)", "(3,2):(1@0,4@1)"):
        add("composition", P("(8,16):(16,1)"), P(b))
        add("composition", P("((2,4),16):((1,32),2)"), P(b))
    # products (C++ zips without coalescing), on the pycute product rows' arguments
    rows = [json.loads(line) for line in PYCUTE.read_text().splitlines()]
    for row in random.Random(5).sample([r for r in rows if r["op"] == "logical_product"], 40):
        a, b = (read_arg(x) for x in row["args"])
        for op in PRODUCTS:
            add(op, a, b)
    for block, shape, order in (("(2,2):(1,2)", (4, 6), None), ("(2,2):(1,2)", (4, 6), (1, 0)),
                                ("(8,8):(8,1)", (64, 32), None), ("(4,(2,2)):(2,(1,8))", (8, 16, 2), (2, 0, 1))):
        add("tile_to_shape", P(block), shape, *([order] if order else []))
    # swizzled composed layouts through products, divides, coalesce and tile_to_shape
    for sw in (Swizzle(3, 4, 3), Swizzle(2, 4, 3), Swizzle(1, 0, 1)):
        C = ComposedLayout(sw, 0, P("(8,64):(64,1)"))
        for t in ("(2,3):(1,2)", "4:1", "(2,2):(2,1)"):
            for op in ("logical_product", *PRODUCTS, "zipped_divide", "tiled_divide", "flat_divide"):
                add(op, C, P(t))
        add("coalesce", C)
        add("tile_to_shape", C, (32, 128))
    # a layout times a swizzled tiler (C++ derives a new swizzle for the product)
    for sw in (Swizzle(1, 0, 1), Swizzle(2, 0, 2), Swizzle(3, 4, 3), Swizzle(2, 1, 3)):
        for inner in ("4:1", "64:1", "1024:1", "(8,8):(1,8)", "(16,64):(64,1)"):
            for block in ("1:0", "2:1", "(2,2):(1,2)", "4:1"):
                add("logical_product", P(block), ComposedLayout(sw, 0, P(inner)))
    # swizzled composed layouts
    for sw in (Swizzle(3, 4, 3), Swizzle(2, 4, 3), Swizzle(3, 3, 3), Swizzle(1, 0, 1)):
        C = ComposedLayout(sw, 0, P("(8,64):(64,1)"))
        add("composition", C, P("(8,8):(1,8)"))
        add("composition", C, P("(4,16):(2,1)"))
        add("logical_divide", C, P("(2,4):(1,2)"))
        add("right_inverse", C)
        add("left_inverse", C)
        add("composition", P("(8,64):(64,1)"), ComposedLayout(sw, 0, P("512:1")))
    # nested composed layouts: C++ (layout_composed.hpp) recurses into a composed part, and
    # composing two swizzled layouts nests them (Sw o 0 o (Sw' o 0 o L))
    L864 = P("(8,64):(64,1)")
    for sa in (Swizzle(1, 0, 1), Swizzle(3, 4, 3), Swizzle(2, 4, 3)):
        for sb in (Swizzle(2, 4, 3), Swizzle(3, 3, 3), Swizzle(1, 0, 1)):
            add("composition", ComposedLayout(sa, 0, L864), ComposedLayout(sb, 0, P("512:1")))
    nested = [
        (ComposedLayout(Swizzle(1, 0, 1), 0, ComposedLayout(Swizzle(2, 4, 3), 0, L864)), (32, 128)),
        (ComposedLayout(Swizzle(3, 3, 3), 0, ComposedLayout(Swizzle(1, 0, 1), 0, L864)), (32, 128)),
        (ComposedLayout(ComposedLayout(Swizzle(1, 0, 1), 0, P("(8,8):(1,8)")), 0, P("(8,8):(8,1)")), (16, 16)),
        (ComposedLayout(P("(16,32):(32,1)"), 4, P("(8,8):(1,8)")), (16, 16)),
        (ComposedLayout(P("(64,8):(8,1)"), 0, ComposedLayout(Swizzle(2, 0, 3), 0, L864)), (32, 128)),
    ]
    for N, target in nested:
        for t in ("(2,4):(1,2)", "4:1", "(2,2):(2,1)"):
            for op in ("composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product", *PRODUCTS):
                add(op, N, P(t))
        for op in ("coalesce", "right_inverse", "left_inverse", "complement"):
            add(op, N)
        add("tile_to_shape", N, target)
        if N.offset == 0:
            add("composition", L864, N)
    # static extent-1 modes: C++'s compact layouts (make_layout(shape), make_ordered_layout, so
    # tile_to_shape's repetitions) give them the stride _0 (found porting compact_xmajor.cpp)
    r1 = random.Random(1)
    for _ in range(40):
        block = Layout(tuple(r1.choice([1, 2, 3, 4]) for _ in range(r1.randint(1, 2))))
        rank = max(len(block), r1.randint(1, 3))
        reps = tuple(r1.choice([1, 1, 2, 3]) for _ in range(rank))
        target = tuple((block[i].size() if i < len(block) else 1) * k for i, k in enumerate(reps))
        add("tile_to_shape", block, target, *([tuple(r1.sample(range(rank), rank))] if r1.random() < 0.5 else []))
        tiler = Layout(tuple(r1.choice([1, 2, 3]) for _ in range(r1.randint(1, 3))))
        for op in ("logical_product", "blocked_product", "raked_product"):
            add(op, block, tiler)
        add("complement", tiler, r1.choice([8, 24, 64]))
        add("logical_divide", Layout(tuple(r1.choice([1, 2, 4, 8]) for _ in range(r1.randint(1, 3)))), tiler)
    return out


def predict(op: str, args: list):
    try:
        return getattr(A, op)(*args), None
    except LayoutError as e:
        return None, str(e)


HEADER = """#include <cute/layout.hpp>
#include <cute/swizzle_layout.hpp>
#include <cstdio>
using namespace cute;
"""


def expr(op: str, args: list) -> str:
    return f"{op}(" + ",".join(cpp_arg(a) for a in args) + ")"


def compile_run(src: str, inc: list[str], run: bool) -> tuple[int, str]:
    with tempfile.TemporaryDirectory() as d:
        c = pathlib.Path(d) / "gen.cpp"
        c.write_text(src)
        exe = pathlib.Path(d) / "gen"
        cmd = ["g++", "-std=c++17", "-O0", *[f"-I{i}" for i in inc], str(c)]
        cmd += ["-o", str(exe)] if run else ["-fsyntax-only"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0 or not run:
            return p.returncode, p.stderr
        q = subprocess.run([str(exe)], capture_output=True, text=True, check=True)
        return 0, q.stdout


# ----------------------------------------------------------------------------- UMMA (SM100) parts
# C++ type names of the value / storage widths (tmem_frg's ValueType / StorageType)
CPP_TYPE = {32: "float", 16: "half_t", 8: "uint8_t"}
CPP_STORAGE = {32: "uint32_t", 16: "half_t", 8: "uint8_t"}
CPP_MODE = {"interleaved": "Interleaved", "noninterleaved": "NonInterleaved", "duplicated": "Duplicated"}


def tmem_cases() -> list[dict]:
    """tmem_frg<V, S, N_SM, mode>::make(((M_MMA, N_MMA), MMA_M, MMA_N)) over the widths, CTA counts,
    allocation modes and tilings CuTe accepts."""
    out = []
    for vb, sbs in ((32, (32,)), (16, (32, 16)), (8, (32, 8))):
        for sb in sbs:
            for ctas, mode, m in ((1, "interleaved", 64), (1, "interleaved", 128), (1, "noninterleaved", 64),
                                  (1, "noninterleaved", 128), (2, "interleaved", 32), (2, "interleaved", 64),
                                  (2, "interleaved", 128), (2, "duplicated", 64), (2, "duplicated", 128)):
                for n in (16, 64, 256):
                    for rest in ((1, 1), (2, 1), (1, 2), (2, 2)):
                        if m * n * rest[0] * rest[1] * sb > 128 * 512 * 32:  # C++: "Requesting more TMEM than is available."
                            continue
                        out.append({"value_bits": vb, "storage_bits": sb, "ctas": ctas, "mode": mode,
                                    "shape": [[m, n], *rest]})
    return out


def tmem_expr(c: dict) -> str:
    (m, n), *rest = c["shape"]
    shape = "make_shape(make_shape(Int<%d>{},Int<%d>{}),%s)" % (m, n, ",".join(f"Int<{r}>{{}}" for r in rest))
    return (f"UMMA::tmem_frg<{CPP_TYPE[c['value_bits']]},{CPP_STORAGE[c['storage_bits']]},{c['ctas']},"
            f"UMMA::TmemAllocMode::{CPP_MODE[c['mode']]}>::make({shape}).layout()")


def atom_cases() -> list[tuple[str, str]]:
    """(linlayout name, C++ MMA_Traits argument) of the SM100 UMMA atoms: both CTA counts, every
    family, both operand sources, a spread of M and N."""
    fams = {"F16BF16": ("half_t", "half_t", "float"), "TF32": ("tfloat32_t", "tfloat32_t", "float"),
            "S8": ("int8_t", "int8_t", "int32_t"), "F8F6F4": ("float_e4m3_t", "float_e4m3_t", "float")}
    K = {"F16BF16": 16, "TF32": 8, "S8": 32, "F8F6F4": 32}
    out = []
    for fam, (a, b, c) in fams.items():
        for two, ms in (("", (64, 128)), ("_2x1SM", (128, 256))):
            for src in ("SS", "TS"):
                for m in ms:
                    for n in (32, 64, 256):
                        name = f"SM100_MMA_{fam}{two}_{src}_{m}x{n}x{K[fam]}"
                        targs = f"{a},{b},{c},{m},{n},UMMA::Major::K,UMMA::Major::K"
                        out.append((name, f"SM100_MMA_{fam}{two}_{src}<{targs}>"))
    return out


UMMA_HEADER = """#include <cute/tensor.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cstdio>
using namespace cute;
"""


def umma_parts(inc: list[str]) -> None:
    """tmem.jsonl (tmem_frg layouts) and atoms.jsonl (the UMMA atoms' Shape_MNK, ThrID and A/B/C
    layouts, as MMA_Traits states them), printed by C++."""
    tc = tmem_cases()
    body = [f'  printf("%d\\t", {k}); print({tmem_expr(c)}); printf("\\n");' for k, c in enumerate(tc)]
    ac = atom_cases()
    for k, (_, t) in enumerate(ac):
        body.append(f'  {{ using T = MMA_Traits<{t}>; printf("a%d\\t", {k}); print(typename T::Shape_MNK{{}}); printf("\\t");'
                    f' print(typename T::ThrID{{}}); printf("\\t"); print(typename T::ALayout{{}}); printf("\\t");'
                    f' print(typename T::BLayout{{}}); printf("\\t"); print(typename T::CLayout{{}}); printf("\\n"); }}')
    rc, out = compile_run(UMMA_HEADER + "int main() {\n" + "\n".join(body) + "\n}\n", inc, run=True)
    if rc != 0:
        sys.exit("the UMMA program did not compile:\n" + out[-4000:])
    trows, arows = [], []
    for line in out.splitlines():
        k, *rest = line.split("\t")
        if k.startswith("a"):
            name = ac[int(k[1:])][0]
            arows.append({"name": name, "shape_mnk": rest[0], "thr_id": rest[1], "a": rest[2], "b": rest[3], "c": rest[4]})
        else:
            trows.append({**tc[int(k)], "result": rest[0]})
    (HERE / "tmem.jsonl").write_text("".join(json.dumps(r) + "\n" for r in trows))
    (HERE / "atoms.jsonl").write_text("".join(json.dumps(r) + "\n" for r in arows))
    print(f"{len(trows)} tmem_frg rows, {len(arows)} UMMA atom rows")


# ----------------------------------------------------------------------------- CUTLASS's unit tests
UNITTEST_MODULES = ("test_cutlass_unittest_core", "test_cutlass_unittest_pycute")


def unittest_cases() -> list[tuple[str, list]]:
    """The (op, args) of every case of the CUTLASS unit-test ports (each module's ``cpp_cases()``;
    the cases are written once, in the tests), duplicates dropped."""
    import importlib.util

    out, seen = [], set()
    for name in UNITTEST_MODULES:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tests" / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        for op, a in mod.cpp_cases():
            key = (op, tuple(arg_text(x) for x in a))
            if key not in seen:
                seen.add(key)
                out.append((op, a))
    return out


def unittest_part(inc: list[str]) -> None:
    """unittest.jsonl: C++'s printed answer for every case of the CUTLASS unit-test ports (all
    accepted by C++: CUTLASS's tests compile), in one program."""
    uc = unittest_cases()
    body = [f'  printf("%d\\t", {k}); print({expr(op, a)}); printf("\\n");' for k, (op, a) in enumerate(uc)]
    rc, out = compile_run(UNITTEST_HEADER + "int main() {\n" + "\n".join(body) + "\n}\n", inc, run=True)
    if rc != 0:
        sys.exit("the unit-test program did not compile:\n" + out[-4000:])
    rows = []
    for line in out.splitlines():
        k, text = line.split("\t", 1)
        op, a = uc[int(k)]
        rows.append({"op": op, "args": [arg_text(x) for x in a], "result": text})
    (HERE / "unittest.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(f"{len(rows)} CUTLASS unit-test rows")


UNITTEST_HEADER = """#include <cute/tensor.hpp>
#include <cute/swizzle_layout.hpp>
#include <cstdio>
using namespace cute;
"""


# ----------------------------------------------------------------------------- int-tuple functions, slicing, queries
def _shape_like(rng: random.Random, depth: int = 0, extents=(1, 2, 3, 4, 6, 8, 12, 16)):
    """A random int-tuple (nested at most two levels)."""
    if depth < 2 and rng.random() < 0.6:
        return tuple(_shape_like(rng, depth + 1, extents) for _ in range(rng.randint(1, 3)))
    return rng.choice(extents)


def _profile_map(t, f):
    return tuple(_profile_map(x, f) for x in t) if isinstance(t, tuple) else f(t)


def _compact_ordered(rng: random.Random, shape):
    """A compact layout of ``shape`` with its leaves in a random order (a mode-order permutation)."""
    from converters.cute.layout import flatten, unflatten

    fs = flatten(shape)
    order = list(range(len(fs)))
    rng.shuffle(order)
    stride = [0] * len(fs)
    cur = 1
    for i in order:
        stride[i] = cur if fs[i] != 1 else 0
        cur *= fs[i]
    return Layout(shape, unflatten(stride, shape) if isinstance(shape, tuple) else stride[0])


def _slice_coord(rng: random.Random, shape, top: bool = True):
    """A coordinate of ``shape`` with underscores (an integer may stand for a whole sub-tuple)."""
    from converters.cute import _
    from converters.cute.layout import product

    r = rng.random()
    if r < 0.3 and not top:
        return _
    if isinstance(shape, tuple) and (top or r < 0.75):
        return tuple(_slice_coord(rng, s, False) for s in shape)
    return rng.randrange(product(shape))


def extras_cases() -> list[dict]:
    """Seeded cases of the int-tuple functions, slicing, nullspace, domain_distribute,
    max_alignment and MixedBits (every integer static but MixedBits' run-time part)."""
    from converters.cute import _, inttuple as T, queries as Q
    from converters.cute.layout import product

    rng = random.Random(2026)
    out: list[dict] = []
    seen = set()

    def add(op, *args, cpp):
        key = (op, json.dumps([_text(a) for a in args]))
        if key not in seen:
            seen.add(key)
            out.append({"op": op, "args": list(args), "cpp": cpp})

    # shape_div: the pycute / C++ examples, then seeded shapes by divisors, multiples, tuples
    for a, b in [((4, 5, 6), 40), ((6, 2, 3), 12), ((6, 2, 3), 36), ((6, 2, 3), (3, 4, 6)), (12, (2, 3)), (6, 12),
                 (((2, 4), 6), (4, 3)), ((6, 2, 3), 3), ((6, 2, 3), 6), ((6, 2, 3), 2), (16, 4), (4, 16), (0, 4),
                 (6, 4), ((6, 2, 3), (3, 4)), ((4, 6), 16),  # (these three: C++ refuses them)
                 ((3, 4), 6), ((3, 4), 12), ((3, 4), 36), (((3, 4), 6), 36), ((6, (3, 4)), 36)]:  # pycute's test_shape_div
        add("shape_div", a, b, cpp=f"shape_div({cpp_tuple(a)},{cpp_tuple(b)})")
    for _k in range(40):
        a = _shape_like(rng)
        b = rng.choice([1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128])
        if rng.random() < 0.3:
            b = _profile_map(a, lambda x: rng.choice([d for d in (1, 2, 3, 4, 6, 8, 12, 16) if x % d == 0 or d % x == 0]))
        try:
            T.shape_div(a, b)
        except LayoutError:
            continue
        add("shape_div", a, b, cpp=f"shape_div({cpp_tuple(a)},{cpp_tuple(b)})")
    # weakly_congruent, congruent, evenly_divides over random profiles
    for _k in range(60):
        a = _shape_like(rng, extents=(1, 2, 4, 8, 16))
        b = _shape_like(rng, extents=(1, 2, 4, 8, 16)) if rng.random() < 0.5 else _profile_map(a, lambda x: rng.choice((1, 2, 4)))
        if rng.random() < 0.3:
            a, b = b, a
        for op in ("weakly_congruent", "congruent"):
            add(op, a, b, cpp=f"int({op}({cpp_tuple(a)},{cpp_tuple(b)}))")
        t = _profile_map(a, lambda x: rng.choice([d for d in (1, 2, 4, 8, 16, 3) if d <= 2 * x]))
        t = t if rng.random() < 0.6 else rng.choice((1, 2, 4, 8, 16, 32, 3, 6))
        add("evenly_divides", a, t, cpp=f"int(evenly_divides({cpp_tuple(a)},{cpp_tuple(t)}))")
    for a, t in [((32, 64), (Layout(8, 2), 32)), ((32, 64), (Layout(8, 3), 32)), ((32, 64), (Layout((4, 2), (1, 8)), 8)),
                 ((16, 16), Layout(4, 4)), ((16, 16), Layout(4, 64)), (((2, 8),), (16,)), ((2, 8), (2, (2, 4)))]:
        add("evenly_divides", a, t, cpp=f"int(evenly_divides({cpp_tuple(a)},{cpp_tuple(t)}))")
    # lex_less, colex_less, elem_less on coordinates of one profile (and a few of different ranks)
    for _k in range(60):
        shape = _shape_like(rng, extents=(2, 3, 4))
        a = _profile_map(shape, lambda x: rng.randrange(x))
        b = _profile_map(shape, lambda x: rng.randrange(x)) if rng.random() < 0.8 else a
        if isinstance(a, tuple) and rng.random() < 0.2:
            b = b + (1,) if rng.random() < 0.5 else b[:-1]
        for op in ("lex_less", "colex_less", "elem_less"):
            add(op, a, b, cpp=f"int({op}({cpp_tuple(a)},{cpp_tuple(b)}))")
    # idx2crd through strides: compact layouts in random mode orders, every offset of small ones
    for shape in [(3, 5), (2, 3, 5), ((3, 2), (5, 2, 2)), ((2, 1), 4), (4, (1, 3))]:
        L = _compact_ordered(rng, shape)
        for idx in rng.sample(range(L.size()), min(L.size(), 12)):
            add("idx2crd", idx, L.shape, L.stride, cpp=f"idx2crd(Int<{idx}>{{}},{cpp_tuple(L.shape)},{cpp_tuple(L.stride)})")
    for _k in range(30):
        L = _compact_ordered(rng, _shape_like(rng, extents=(1, 2, 3, 4, 5)))
        idx = rng.randrange(L.size())
        add("idx2crd", idx, L.shape, L.stride, cpp=f"idx2crd(Int<{idx}>{{}},{cpp_tuple(L.shape)},{cpp_tuple(L.stride)})")
    for idx, shape, stride in [(7, (3, 5), 1), (13, (3, 5), 2), ((5, 7), (3, (5, 2)), (5, (1, 15))), (9, 4, 2)]:
        add("idx2crd", idx, shape, stride, cpp=f"idx2crd({cpp_tuple(idx)},{cpp_tuple(shape)},{cpp_tuple(stride)})")
    # slice / dice / slice_and_offset of plain layouts
    for _k in range(50):
        shape = _shape_like(rng, extents=(1, 2, 3, 4, 8))
        if not isinstance(shape, tuple):
            shape = (shape, rng.choice((2, 4)))
        stride = _profile_map(shape, lambda x: rng.choice((-4, -1, 0, 1, 2, 3, 8, 16)))
        L = Layout(shape, stride)
        c = _slice_coord(rng, shape)
        for op in ("slice", "dice", "slice_and_offset"):
            add(op, c, L, cpp=_slice_cpp(op, c, L))
    # swizzled layouts (swizzle_layout.cpp's and seeded ones): every row, every column, nested coordinates
    swz = [(Swizzle(3, 0, 3), Layout((8, 8), (8, 1))), (Swizzle(3, 0, -3), Layout((8, 8), (8, 1))),
           (Swizzle(2, 1, 3), Layout(((2, 2, 2), (2, 2, 2)), ((32, 2, 8), (4, 1, 16)))),
           (Swizzle(3, 4, 3), Layout((8, 64), (64, 1))), (Swizzle(2, 4, 3), Layout((8, 32), (32, 1))),
           (Swizzle(3, 3, 3), Layout((64, 8), (1, 64))), (Swizzle(1, 2, 2), Layout((4, 8), (1, 4))),
           (Swizzle(2, 0, 2), Layout((4, 4), (1, 4))), (Swizzle(3, 4, 3), Layout(((8, 2), (8, 8)), ((64, 4096), (1, 512))))]
    carry = ComposedLayout(Swizzle(3, 4, 3), 32, Layout((8, 64), (64, 1)))  # the offset's bit 5 meets column 32's:
    for c in ((_, 32), (_, 33), (_, 16), (1, _)):                           # C++ XORs them (see test_cute_inttuple)
        add("slice_and_offset", c, carry, cpp=_slice_cpp("slice_and_offset", c, carry))
    for outer, off, inner in ((Layout((4, 8), (8, 1)), 2, Layout((4, 4), (1, 4))), (Layout(64, 2), 0, Layout((2, (2, 4)), (8, (1, 2))))):
        lay = ComposedLayout(outer, off, inner)  # a layout outer part: C++'s generic ComposedLayout slicing
        for c in ((1, _), (_, 2), (_, (1, _)), (_, _)):
            try:
                slice_and_offset_ok = bool(T.slice_tuple(c, inner.shape) is not None)
            except LayoutError:
                slice_and_offset_ok = False
            if slice_and_offset_ok:
                add("slice_and_offset", c, lay, cpp=_slice_cpp("slice_and_offset", c, lay))
    add("slice_and_offset", (1, 2), ComposedLayout(swz[0][0], 0, swz[0][1]),  # no underscore: C++ refuses
        cpp=_slice_cpp("slice_and_offset", (1, 2), ComposedLayout(swz[0][0], 0, swz[0][1])))
    for sw, L in swz:
        for off in (0, 16):
            C = ComposedLayout(sw, off, L) if off == 0 or sw.base >= 4 else None
            if C is None:
                continue
            m0, m1 = (L.shape[0], L.shape[1])
            coords = [(i, _) for i in range(product(m0))] + [(_, j) for j in range(product(m1))]
            coords = coords if off == 0 else rng.sample(coords, 6)
            target = len(coords) + 6
            while len(coords) < target:  # seeded coordinates with an underscore (C++ cannot slice a
                c = _slice_coord(rng, L.shape)  # swizzled layout at a point: see the tests)
                if T.has_underscore(c):
                    coords.append(c)
            coords.append((_, _))
            for c in coords:
                add("slice_and_offset", c, C, cpp=_slice_cpp("slice_and_offset", c, C))
    # nullspace
    for _k in range(30):
        shape = _shape_like(rng, extents=(1, 2, 3, 4, 5, 7, 8, 16))
        stride = _profile_map(shape, lambda x: rng.choice((0, 0, 1, 3, 8)))
        L = Layout(shape, stride)
        add("nullspace", L, cpp=f"nullspace({cpp_arg(L)})")
    for t in ("(2,2,2):(0,0,0)", "(7,5,16):(0,0,0)", "(2,2,2):(1,0,2)", "(7,5,16):(3,1,0)", "4:0", "4:1", "(4,(1,3)):(0,(0,2))"):
        add("nullspace", parse_layout(t), cpp=f"nullspace({cpp_arg(parse_layout(t))})")
    # domain_distribute
    for a, b in [(((64, 3), (8, 8)), 128), ((192, (8, 8)), 128), (((64, 3), (8, 8)), 1024), ((192, (8, 8)), 1024), (((64, 3),), 128)]:
        add("domain_distribute", a, b, cpp=f"domain_distribute({cpp_tuple(a)},{cpp_tuple(b)})")
    for _k in range(30):
        a = _shape_like(rng, extents=(1, 2, 3, 4, 6, 8, 16, 32, 64))
        b = rng.choice((1, 2, 4, 8, 16, 32, 64, 128, 256, 6, 12))
        add("domain_distribute", a, b, cpp=f"domain_distribute({cpp_tuple(a)},{cpp_tuple(b)})")
    # max_alignment: swizzles, layouts (compact in any order, strided, with gaps), composed layouts
    for B, M, S in [(3, 4, 3), (2, 4, 3), (3, 3, 3), (1, 0, 1), (0, 4, 3), (3, 0, -3)]:
        add("max_alignment", Swizzle(B, M, S), cpp=f"int(max_alignment({cpp_arg(Swizzle(B, M, S))}))")
    for _k in range(30):
        L = _compact_ordered(rng, _shape_like(rng, extents=(1, 2, 4, 8, 3)))
        if rng.random() < 0.5:
            L = Layout(L.shape, _profile_map(L.stride, lambda d: d * rng.choice((1, 1, 2))))
        try:
            Q.max_alignment(L)
        except LayoutError:
            continue
        add("max_alignment", L, cpp=f"int(max_alignment({cpp_arg(L)}))")
    for sw, L in swz[:6]:
        for off in (0, 32, 48):
            C = ComposedLayout(sw, off, L)
            add("max_alignment", C, cpp=f"int(max_alignment({cpp_arg(C)}))")
    # composition with nested basis strides (C++ E<i,j>: composition.cpp's 'BETA: Tuple strides')
    for a, b in [("(4,(2,3)):(6,(3,1))", "(2,4):(1@1@1,1@0)"), ("(4,(2,3)):(6,(3,1))", "(2,3):(1@0@1,1@1@1)"),
                 ("(4,(2,3)):(6,(3,1))", "(3,2,2):(1@1@1,1@0@1,2@0)"), ("((2,4),(2,8)):((1,16),(2,64))", "(4,2,8):(1@1@0,1@0@0,1@1@1)"),
                 ("((2,4),(2,8)):((1,16),(2,64))", "(2,4):(1@0@1,2@1@1)"), ("(8,(4,4)):(1,(8,32))", "((2,2),4):((1@0@1,1@1@1),2@0)"),
                 ("(8,(4,4)):(1,(8,32))", "(4,2):(2@1@1,4@0)"), ("((4,2),(4,2)):((2,1),(16,8))", "(2,2,4):(1@1@0,1@0@1,1@0@0)")]:
        A_, B_ = parse_layout(a), parse_layout(b)
        add("composition", A_, B_, cpp=f"composition({cpp_arg(A_)},{cpp_arg(B_)})")
    # MixedBits: seeded operands and operations (the run-time part stays a uint32_t in C++)
    for _k in range(80):
        s0, f0, s1, f1 = (rng.randrange(16) for _ in range(4))
        d0, d1 = rng.randrange(16), rng.randrange(16)
        op = rng.choice(("&", "|", "^"))
        m0 = f"make_mixed_bits(Int<{s0}>{{}},uint32_t({d0}),Int<{f0}>{{}})"
        m1 = f"make_mixed_bits(Int<{s1}>{{}},uint32_t({d1}),Int<{f1}>{{}})"
        add("mixed_bits", s0, d0, f0, op, s1, d1, f1, cpp=f"({m0} {op} {m1})")
        add("mixed_bits", s0, d0, f0, op, s1, None, None, cpp=f"({m0} {op} Int<{s1}>{{}})")
    for _k in range(20):
        s0, f0, d0, k = rng.randrange(16), rng.randrange(1, 16), rng.randrange(16), rng.randrange(4)
        op = rng.choice(("<<", ">>"))
        add("mixed_bits", s0, d0, f0, op, k, None, None, cpp=f"(make_mixed_bits(Int<{s0}>{{}},uint32_t({d0}),Int<{f0}>{{}}) {op} Int<{k}>{{}})")
    return out


def _text(x) -> object:
    """An argument's text: layouts and swizzles as linlayout prints them, coordinates and
    int-tuples as ``format_coord`` (``(1,_)``), ints as numbers."""
    from converters.cute import format_coord

    if x is None or isinstance(x, (int, str)) and not isinstance(x, bool):
        return x
    if isinstance(x, (Layout, ComposedLayout, Swizzle)):
        return str(x)
    if isinstance(x, tuple) and any(isinstance(v, (Layout, ComposedLayout)) for v in x):
        return "(" + ",".join(str(_text(v)) for v in x) + ")"
    return format_coord(x)


def _slice_cpp(op: str, c, L) -> str:
    if op == "slice_and_offset":
        return f"SAO\x00{cpp_tuple(c)}\x00{cpp_arg(L)}"
    return f"{op}({cpp_tuple(c)},{cpp_arg(L)})"


def extras_call(op: str, args: list):
    """Our answer for an extras case (what tests/test_cute_cpp_extras.py checks, and the
    prediction that sorts the cases into the accepted program and the refusals)."""
    import converters.cute as C

    if op == "mixed_bits":
        s0, d0, f0, o, s1, d1, f1 = args
        m0 = C.make_mixed_bits(s0, d0, f0)
        m1 = s1 if d1 is None else C.make_mixed_bits(s1, d1, f1)
        return {"&": lambda: m0 & m1, "|": lambda: m0 | m1, "^": lambda: m0 ^ m1,
                "<<": lambda: m0 << m1, ">>": lambda: m0 >> m1}[o]()
    return getattr(C, op)(*args)


def extras_part(inc: list[str], jobs: int = 2) -> None:
    """extras.jsonl: C++'s answer for every case of extras_cases() we accept, in one program,
    and C++'s refusal of each case we refuse (compiled alone)."""
    accepted, refused = [], []
    for c in extras_cases():
        try:
            extras_call(c["op"], c["args"])
            accepted.append(c)
        except LayoutError:
            refused.append(c)
    cases = accepted
    body = []
    for k, c in enumerate(cases):
        e = c["cpp"]
        if e.startswith("SAO\x00"):
            _tag, crd, lay = e.split("\x00")
            body.append(f'  {{ auto r = slice_and_offset({crd},{lay}); printf("%d\\t", {k}); print(get<0>(r)); printf("\\t"); '
                        f'print(get<1>(r)); printf("\\n"); }}')
        elif e.startswith("int("):
            body.append(f'  printf("%d\\t%d\\n", {k}, {e});')
        else:
            body.append(f'  printf("%d\\t", {k}); print({e}); printf("\\n");')
    rc, out = compile_run(UNITTEST_HEADER + "int main() {\n" + "\n".join(body) + "\n}\n", inc, run=True)
    if rc != 0:
        sys.exit("the extras program did not compile:\n" + out[-6000:])
    rows = []
    for line in out.splitlines():
        k, *rest = line.split("\t")
        c = cases[int(k)]
        row = {"op": c["op"], "args": [_text(a) for a in c["args"]], "result": rest[0]}
        if len(rest) > 1:
            row["offset"] = rest[1]
        rows.append(row)

    def refusal(c):
        e = c["cpp"]
        if e.startswith("SAO\x00"):
            _tag, crd, lay = e.split("\x00")
            e = f"get<0>(slice_and_offset({crd},{lay}))"
        elif e.startswith("int("):
            e = e[4:-1]
        return c, compile_run(UNITTEST_HEADER + "int main() {\n  print(" + e + ");\n}\n", inc, run=False)

    with ThreadPoolExecutor(jobs) as pool:
        for c, (rc, err) in pool.map(refusal, refused):
            if rc == 0:
                sys.exit(f"prediction wrong: C++ accepts {c['op']}{tuple(_text(a) for a in c['args'])}")
            m = re.search(r"static assertion failed: ([^\n]*)", err) or re.search(r"error: ([^\n]*)", err)
            rows.append({"op": c["op"], "args": [_text(a) for a in c["args"]], "error": m.group(1).strip() if m else "compile error"})
    (HERE / "extras.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(f"{len(rows)} extras rows ({len(accepted)} accepted, {len(refused)} refused)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cutlass", required=True, help="CUTLASS include directory")
    ap.add_argument("--cuda", required=True, help="CUDA toolkit include directory (cuda_runtime_api.h, cccl/)")
    ap.add_argument("--out", default=str(HERE / "algebra.jsonl"))
    ap.add_argument("--jobs", type=int, default=2, help="parallel compiles of the refused cases")
    ap.add_argument("--parts", default="algebra,umma", help="what to generate: algebra (algebra.jsonl), umma (tmem.jsonl, atoms.jsonl), "
                    "unittest (unittest.jsonl: the CUTLASS unit-test ports' cases), "
                    "extras (extras.jsonl: int-tuple functions, slicing, nullspace, domain_distribute, max_alignment, MixedBits)")
    args = ap.parse_args()
    inc = [args.cutlass, args.cuda, args.cuda + "/cccl"]
    parts = set(args.parts.split(","))
    if "umma" in parts:
        umma_parts(inc)
    if "unittest" in parts:
        unittest_part(inc)
    if "extras" in parts:
        extras_part(inc, args.jobs)
    if "algebra" not in parts:
        return
    accepted, refused = [], []
    for op, a in cases():
        res, err = predict(op, a)
        (accepted if err is None else refused).append((op, a))
    body = []
    for k, (op, a) in enumerate(accepted):
        body.append(f'  printf("%d\\t", {k}); print({expr(op, a)}); printf("\\n");')
    src = HEADER + "int main() {\n" + "\n".join(body) + "\n}\n"
    rc, out = compile_run(src, inc, run=True)
    if rc != 0:
        sys.exit("the accepted program did not compile (a wrong prediction):\n" + out[-4000:])
    rows = []
    for line in out.splitlines():
        k, text = line.split("\t", 1)
        op, a = accepted[int(k)]
        rows.append({"op": op, "args": [arg_text(x) for x in a], "result": text})
    def refusal(case):
        op, a = case
        src = HEADER + "int main() {\n  print(" + expr(op, a) + ");\n}\n"
        return case, compile_run(src, inc, run=False)

    surprises = []
    with ThreadPoolExecutor(args.jobs) as pool:
        for (op, a), (rc, err) in pool.map(refusal, refused):
            if rc == 0:
                print(f"prediction wrong: C++ accepts {op}{tuple(map(str, a))}", file=sys.stderr)
                surprises.append((op, a))
                continue
            m = re.search(r"static assertion failed: ([^\n]*)", err) or re.search(r"error: ([^\n]*)", err)
            rows.append({"op": op, "args": [arg_text(x) for x in a], "error": m.group(1).strip() if m else "compile error"})
    if surprises:  # C++ answers what we refuse: record its answer (the tests say why we differ)
        body = [f'  printf("%d\\t", {k}); print({expr(op, a)}); printf("\\n");' for k, (op, a) in enumerate(surprises)]
        rc, out = compile_run(HEADER + "int main() {\n" + "\n".join(body) + "\n}\n", inc, run=True)
        for line in out.splitlines() if rc == 0 else []:
            k, text = line.split("\t", 1)
            op, a = surprises[int(k)]
            rows.append({"op": op, "args": [arg_text(x) for x in a], "result": text})
    pathlib.Path(args.out).write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(f"{len(rows)} rows ({len(accepted)} accepted, {len(rows) - len(accepted)} refusals) -> {args.out}")


if __name__ == "__main__":
    main()
