"""No import cycle inside ``frontend/`` or ``runtime/``: each package's modules form a DAG.

An import counts whether it is at module level or inside a function (a
deferred import that closes a cycle is still a cycle, only a slower one to
find); imports under ``if TYPE_CHECKING:`` do not, as they never run.
test_layering.py checks the direction between the stages; this checks the
modules inside one stage.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from support import REPO_ROOT


def _module_name(folder: Path, path: Path) -> str:
    parts = list(path.relative_to(folder).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runs(node: ast.AST) -> list[ast.AST]:
    """``node``'s descendants, leaving out ``if TYPE_CHECKING:`` blocks."""
    found = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            found += [d for s in child.orelse for d in [s, *_runs(s)]]
            continue
        found += [child, *_runs(child)]
    return found


def import_graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (names relative to the package)."""
    folder = REPO_ROOT / package
    modules = {_module_name(folder, p): p for p in folder.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        parts = [p for p in name.split(".") if p]
        here = parts if path.name == "__init__.py" else parts[:-1]
        for node in _runs(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here[: len(here) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                elif node.module and node.module.startswith(f"safetile.{package}"):
                    target = node.module.removeprefix(f"safetile.{package}").lstrip(".")
                else:
                    continue
                candidates = [target, *(f"{target}.{a.name}".lstrip(".") for a in node.names)]
            elif isinstance(node, ast.Import):
                prefix = f"safetile.{package}."
                candidates = [a.name.removeprefix(prefix) for a in node.names if a.name.startswith(prefix)]
            else:
                continue
            graph[name] |= {c for c in candidates if c in modules and c != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_the_frontend_has_no_import_cycle() -> None:
    assert cycles(import_graph("frontend")) == []


def test_the_runtime_has_no_import_cycle() -> None:
    assert cycles(import_graph("runtime")) == []


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"a"}, "c": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"d"}}, [["a", "b", "c"]]),
    ],
)
def test_cycles_finds_every_circle(graph: dict[str, set[str]], expected: list[list[str]]) -> None:
    assert cycles(graph) == expected


def test_deferred_imports_count_and_type_checking_ones_do_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from .b import g\n")
    (package / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .c import h\n"
                                  "from . import a\n")
    (package / "c.py").write_text("from .b import x\n")
    monkeypatch.setattr(sys.modules[__name__], "REPO_ROOT", tmp_path)
    assert cycles(import_graph("pkg")) == [["a", "b"]]
