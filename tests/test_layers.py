"""The layers of DESIGN.md, enforced: an AST walk over every import in the package, module level
or inside a function.

* ``linlayout`` outside its top layer (``linlayout.app``) never imports ``converters``;
* no two files import each other, directly or around a longer loop.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("linlayout", "converters")
TOP_LAYER = "linlayout.app"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The longest prefix of a dotted name that is one of our modules."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def _imports(mod: str, path: Path, known: dict[str, Path]) -> set[str]:
    is_pkg = path.name == "__init__.py"
    package = mod if is_pkg else mod.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            # `from pkg import sub` may name a submodule; otherwise the import is of pkg itself
            targets = [f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in known else prefix for a in node.names]
        for t in targets:
            r = _resolve(t, known)
            if r is not None and r != mod:
                out.add(r)
    return out


def _graph() -> nx.DiGraph:
    known = _modules()
    g = nx.DiGraph()
    for mod, path in known.items():
        g.add_node(mod)
        for dep in _imports(mod, path, known):
            # importing a submodule runs its package's __init__; that edge is not a dependency
            if not mod.startswith(dep + "."):
                g.add_edge(mod, dep)
    return g


def test_the_walk_sees_imports():
    g = _graph()
    assert ("linlayout.plan", "linlayout.linear") in g.edges
    assert ("converters.gluon.distributed", "linlayout.linear") in g.edges


def test_core_and_planning_never_import_converters():
    bad = sorted(
        (a, b)
        for a, b in _graph().edges
        if a.startswith("linlayout") and not (a == TOP_LAYER or a.startswith(TOP_LAYER + ".")) and b.startswith("converters")
    )
    assert not bad, f"linlayout imports converters outside {TOP_LAYER}: {bad}"


def test_no_import_cycles():
    cycles = sorted(sorted(c) for c in nx.simple_cycles(_graph()))
    assert not cycles, f"import cycles between files: {cycles}"
