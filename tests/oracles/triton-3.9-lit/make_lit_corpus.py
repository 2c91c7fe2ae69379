"""Generate the Triton 3.9 lit corpus: the layout attributes of Triton's own lit tests, read by
Triton 3.9 itself.

    python tests/oracles/triton-3.9-lit/make_lit_corpus.py --src DIR --commit SHA   # needs triton==3.9.0

``DIR`` holds a checkout (or ``git archive``) of triton-lang/triton's ``test/`` folder at ``SHA``;
nothing of it is written here but each attribute's text, the shape it is used with, what Triton
reads from it, and the file it came from.  Every ``test/**/*.mlir`` file is split at ``// -----``
(lit's ``-split-input-file``); Triton parses each chunk (``ir.parse_mlir_module`` with the Triton,
TritonGPU, TritonNvidiaGPU and AMD dialects loaded, as ``../triton-3.9-ir/make_ir_corpus.py``
does); a chunk it cannot parse is counted by the first diagnostic's reason and skipped.  Of each
parsed chunk Triton walks every op, and for each result of a tensor type with a layout or a memdesc
type not seen before (anywhere in the corpus: the printed type carries the attribute, the shape and
the element type) takes its Gluon layout (``GluonOpBuilder.get_gluon_layout_from_tensor`` /
``_from_memdesc``) and ``to_linear_layout(layout, shape)``, or Triton's error.  A worker subprocess
(``../triton-3.9-generated/triton_worker.py``) survives Triton's aborts: the type it was working on
is recorded with Triton's message.

Every layout attribute of a chunk as written (an alias definition's ``#name = #ttg....`` or one
written inside a type; outside ``//`` comments, not nested in another; parsed chunk or not: lit's
invalid-attribute tests are chunks Triton refuses) is also read by Triton on its own: a module of
the aliases it refers to and ``module attributes {lit.a0 = <the text>} {}``; Triton's printing of it
(printed aliases expanded), or its first diagnostic, is recorded next to the text as written and
the aliases it refers to.

Writes, next to this script (JSON Lines, keys sorted):

* ``layouts.jsonl`` -- one row per distinct result type::

      {"file": "test/...", "chunk": <index after splitting>, "op": <the first op producing it>,
       "type": <Triton's str() of the type>, "gluon": <repr of Triton's Gluon layout>,
       "shape": <the linear layout's shape>, "linear": {<in-dim>: bases}}   (or "error")

* ``attributes.jsonl`` -- one row per distinct attribute as written (text and the aliases it refers to)::

      {"file", "chunk", "name": <the alias it defines, or null>, "text": <as written>,
       "env": {<alias>: <text as written>},
       "printed": <Triton's printing, aliases expanded>}   (or "error": Triton's diagnostic)

* ``summary.json`` -- the source commit, the counts, and the refused chunks by reason.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "triton-3.9-generated"))
from triton_worker import TritonWorker  # noqa: E402

#: rows kept per lit file at most (the corpus stays a few MB); the rest are counted in summary.json
MAX_ROWS_PER_FILE = 600

WORKER = r"""
import json, os, re, sys
from triton._C.libtriton import gluon_ir, ir
from triton._C.libtriton import amd as amd_c, nvidia as nvidia_c
ctx = ir.context(); ir.load_dialects(ctx); amd_c.load_dialects(ctx); nvidia_c.load_dialects(ctx)
b = gluon_ir.GluonOpBuilder(ctx)
seen = set()

def linear(ll):
    if hasattr(ll, "reg_bases"):
        return {"register": ll.reg_bases, "lane": ll.lane_bases, "warp": ll.warp_bases, "block": ll.block_bases}
    if hasattr(ll, "offset_bases"):
        return {"offset": ll.offset_bases, "block": ll.block_bases}
    return {"row": ll.rows, "col": ll.cols}

def lrank(lay):
    if hasattr(lay, "partition_layout"):  # PartitionedSharedLayout: its inner layout's rank
        return lrank(lay.partition_layout)
    r = getattr(lay, "rank", None)
    if isinstance(r, int):
        return r
    for a in ("order", "shape", "block"):
        v = getattr(lay, a, None)
        if v:
            return len(v)
    if getattr(lay, "offset_bases", None):
        return len(lay.offset_bases[0])
    return 2 if "TensorMemory" in type(lay).__name__ else None

def shape_of(t):
    m = re.match(r"(?:tensor|!ttg\.memdesc)<((?:\d+x)*)", t)
    return [int(x) for x in m.group(1).split("x") if x]

def parse(path, diag):
    # MLIR writes its diagnostics to stderr: catch them in `diag` for the parent
    fd = os.dup(2)
    with open(diag, "w") as f:
        os.dup2(f.fileno(), 2)
        try:
            return ir.parse_mlir_module(path, ctx)
        finally:
            os.dup2(fd, 2)
            os.close(fd)

for line in sys.stdin:
    req = json.loads(line)
    out = {}
    try:
        if req[0] == "seen":
            seen.update(req[1])
        elif req[0] == "chunk":
            _, path, diag, progress_path, skip = req
            m = parse(path, diag)
            rows = []
            progress = open(progress_path, "w")
            def visit(op):
                for i in range(op.get_num_results()):
                    v = op.get_result(i)
                    t = str(v.get_type())
                    if t in seen or t in skip or not (t.startswith("tensor<") and ", #" in t or t.startswith("!ttg.memdesc<")):
                        continue
                    seen.add(t)
                    progress.write(json.dumps([t, op.get_name()]) + "\n")  # the parent's clue if Triton aborts
                    progress.flush()
                    row = {"type": t, "op": op.get_name()}
                    try:
                        lay = b.get_gluon_layout_from_memdesc(v) if t.startswith("!ttg.memdesc") else b.get_gluon_layout_from_tensor(v)
                        row["gluon"] = repr(lay)
                        shape = shape_of(t)
                        r = lrank(lay)
                        if r is not None and r < len(shape):  # leading buffer dims (multi-buffering): one buffer
                            shape = shape[len(shape) - r:]
                        row["shape"] = shape
                        row["linear"] = linear(b.to_linear_layout(lay._to_ir(b), shape))
                    except Exception as e:
                        row["error"] = f"triton raised {type(e).__name__}: {e}"
                    rows.append(row)
            m.walk(visit)
            out = {"rows": rows}
        else:  # ["print", path, diag]: the chunk with the alias probe module; Triton's printing of it
            _, path, diag = req
            out = {"text": parse(path, diag).str()}
    except Exception as e:
        out["error"] = f"triton raised {type(e).__name__}: {e}"
    sys.stdout.write("@@" + json.dumps(out) + "\n")
    sys.stdout.flush()
"""

ALIAS_REF = re.compile(r"#([A-Za-z_][\w$.-]*)")


def chunks(text: str) -> list[str]:
    """lit's ``-split-input-file``: the parts between lines ``// -----``."""
    parts, cur = [], []
    for line in text.splitlines(keepends=True):
        if re.match(r"^\s*// -----", line):
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(line)
    parts.append("".join(cur))
    return parts


ALIAS_DEF = re.compile(r"(?m)(?:^|(?<=>))#([A-Za-z_][\w$.-]*)[ \t]*=[ \t]*(?=#)")


def balanced(text: str, i: int) -> str | None:
    """The attribute starting at ``text[i]``: ``#name`` or ``#dialect.name<...>`` (angle brackets
    balanced, across lines)."""
    m = re.match(r"#[\w$.-]+", text[i:])
    if m is None:
        return None
    j = i + m.end()
    if text.startswith("<", j):
        depth = 0
        while j < len(text):
            depth += {"<": 1, ">": -1}.get(text[j], 0)
            j += 1
            if depth == 0:
                break
    return text[i:j]


def all_aliases(chunk: str) -> dict[str, str]:
    """The chunk's alias definitions (name -> text as written; one may span lines, two may share
    a line)."""
    out = {}
    for m in ALIAS_DEF.finditer(chunk):
        text = balanced(chunk, m.end())
        if text:
            out[m.group(1)] = text
    return out


#: the layout attributes of TritonGPU and TritonNvidiaGPU (the names after the dialect)
LAYOUTS = ("blocked", "slice", "dot_op", "nvidia_mma", "amd_mfma", "amd_wmma", "linear", "generic_linear",
           "swizzled_shared", "nvmma_shared", "padded_shared", "shared_linear", "partitioned_shared",
           "amd_rotating_shared", "tensor_memory_encoding", "tensor_memory_scales_encoding")


def written_attributes(chunk: str) -> list[tuple[str | None, str]]:
    """The chunk's layout attributes as written, outside ``//`` comments and not nested in another:
    (alias name, text) for an alias definition, (None, text) for one written in a type."""
    names = {}
    for m in ALIAS_DEF.finditer(chunk):
        names[m.end()] = m.group(1)
    out: list[tuple[str | None, str]] = []
    end = 0
    for m in re.finditer(r"#tt(?:g|ng)\.(\w+)<", chunk):
        if m.group(1) not in LAYOUTS:  # e.g. #ttng.redOp<min>
            continue
        i = m.start()
        line = chunk[chunk.rfind("\n", 0, i) + 1:i]
        if i < end or "//" in line:
            continue
        text = balanced(chunk, i)
        if text is None or not text.endswith(">"):
            continue
        end = i + len(text)
        out.append((names.get(i), text))
    return out


def env_of(text: str, aliases: dict[str, str]) -> dict[str, str]:
    """The aliases ``text`` refers to, transitively (name -> text as written)."""
    env: dict[str, str] = {}
    todo = [text]
    while todo:
        for name in ALIAS_REF.findall(todo.pop()):
            if name in aliases and name not in env:
                env[name] = aliases[name]
                todo.append(aliases[name])
    return env


def expand(text: str, defs: dict[str, str]) -> str:
    """``text`` with every printed alias reference replaced by its definition, recursively."""
    def sub(m: re.Match) -> str:
        return expand(defs[m.group(1)], defs) if m.group(1) in defs else m.group(0)

    return ALIAS_REF.sub(sub, text)


def probe_value(printed: str, key: str) -> str | None:
    """The attribute after ``key`` in Triton's printing."""
    at = printed.find(key)
    return None if at < 0 else balanced(printed, at + len(key))


def first_error(diag: str, err: str) -> str:
    """The first diagnostic of a refused parse, its location taken out."""
    first = next((l for l in diag.splitlines() if "error:" in l), "") or err
    return first.split("error:", 1)[-1].strip()[:300]


def reason(diag: str, err: str) -> str:
    """A refused chunk's reason: the first diagnostic, locations, names and numbers taken out."""
    first = next((l for l in diag.splitlines() if "error:" in l), "") or err
    first = first.split("error:", 1)[-1].strip()
    first = re.sub(r"'[^']*'", "'_'", first)
    first = re.sub(r"\d+", "N", first)
    return first[:120]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", type=Path, required=True, help="a folder holding triton's test/ folder")
    ap.add_argument("--commit", required=True, help="the triton-lang/triton commit the files come from")
    ap.add_argument("--out", type=Path, default=HERE)
    a = ap.parse_args()
    import triton

    assert triton.__version__ == "3.9.0", f"expected triton 3.9.0, got {triton.__version__}"
    files = sorted(p for p in (a.src / "test").rglob("*.mlir"))
    tmp = tempfile.TemporaryDirectory(prefix="triton-lit-corpus-")
    chunk_path, diag, progress = (str(Path(tmp.name) / n) for n in ("chunk.mlir", "diag.txt", "progress.txt"))
    worker = TritonWorker(WORKER)
    seen: list[str] = []

    def ask(*req: object) -> dict:
        if worker.proc is None or worker.proc.poll() is not None:  # a fresh worker learns what was seen
            worker.run("seen", seen)
        return worker.run(*req)

    rows: list[dict] = []
    alias_rows: list[dict] = []  # every layout attribute as written
    alias_seen: set[str] = set()
    refused: Counter = Counter()
    counts: Counter = Counter()
    capped: dict[str, int] = {}
    for path in files:
        rel = path.relative_to(a.src).as_posix()
        counts["files"] += 1
        file_rows = 0
        for ci, chunk in enumerate(chunks(path.read_text())):
            if not re.search(r"#tt(g|ng)\.|!ttg\.memdesc", chunk):
                counts["chunks without layouts"] += 1
                continue
            counts["chunks"] += 1
            # the chunk's layout attributes as written, each read by Triton on its own (whether or not
            # the whole chunk parses: lit's invalid-attribute tests are chunks Triton refuses)
            every = all_aliases(chunk)
            for name, text in written_attributes(chunk):
                env = env_of(text, every)
                key = json.dumps([text, env], sort_keys=True)
                if key in alias_seen:
                    continue
                alias_seen.add(key)
                defs = "".join(f"#{n} = {every[n]}\n" for n in every if n in env)
                Path(chunk_path).write_text(f"{defs}module attributes {{lit.a0 = {text}}} {{\n}}\n")
                res = ask("print", chunk_path, diag)
                row = {"file": rel, "chunk": ci, "name": name, "text": text, "env": env}
                if "text" not in res:
                    d = Path(diag).read_text() if Path(diag).exists() else ""
                    row["error"] = first_error(d, res.get("error", ""))
                else:
                    value = probe_value(res["text"], "lit.a0 = ")
                    if value is None:
                        row["error"] = "probe attribute not found in Triton's printing"
                    else:
                        row["printed"] = expand(value, all_aliases(res["text"]))
                alias_rows.append(row)
            Path(chunk_path).write_text(chunk)
            aborted: list[dict] = []
            while True:
                res = ask("chunk", chunk_path, diag, progress, [r["type"] for r in aborted])
                if "rows" in res or "triton raised" in res.get("error", ""):
                    break
                done = Path(progress).read_text().splitlines() if Path(progress).exists() else []
                if not done:  # aborted while parsing
                    break
                t, op = json.loads(done[-1])  # the type Triton was working on when it aborted
                aborted.append({"type": t, "op": op, "error": res["error"]})
                Path(progress).unlink()
            if "rows" not in res:
                d = Path(diag).read_text() if Path(diag).exists() else ""
                refused[reason(d, res.get("error", ""))] += 1
                continue
            counts["chunks parsed"] += 1
            new = res["rows"] + aborted
            seen.extend(r["type"] for r in new)
            for r in new:
                if file_rows >= MAX_ROWS_PER_FILE:
                    capped[rel] = capped.get(rel, 0) + 1
                    continue
                file_rows += 1
                rows.append({"file": rel, "chunk": ci, **r})
    worker.close()
    tmp.cleanup()
    with open(a.out / "layouts.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    with open(a.out / "attributes.jsonl", "w") as f:
        for r in alias_rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    fam = Counter(re.search(r"#(tt\w*\.\w+)", r["type"]).group(1) if "#tt" in r["type"] else "?" for r in rows)
    summary = {
        "source": "triton-lang/triton", "commit": a.commit, "triton": triton.__version__,
        "files": counts["files"], "chunks with layouts": counts["chunks"], "chunks without layouts": counts["chunks without layouts"],
        "chunks parsed": counts["chunks parsed"], "chunks refused": sum(refused.values()),
        "refused by reason": dict(refused.most_common()), "rows": len(rows),
        "rows with a linear layout": sum("linear" in r for r in rows), "rows refused": sum("error" in r for r in rows),
        "rows by family (outermost attribute)": dict(fam.most_common()), "rows left out by the per-file cap": capped,
        "attributes": len(alias_rows), "attributes of aliases": sum(r["name"] is not None for r in alias_rows),
        "attributes read": sum("printed" in r for r in alias_rows),
        "attributes refused": sum("error" in r for r in alias_rows),
    }
    (a.out / "summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
    print(json.dumps({k: v for k, v in summary.items() if not isinstance(v, dict)}, indent=1), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
