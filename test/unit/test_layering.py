"""The stages import in one direction (docs/architecture.md).

    dialects <- frontend, passes <- backend <- driver <- runtime <- safetile (the facade)
                                                 tools <- (all but runtime and the facade)

A module may import its own stage and the stages it sits on, never a later
one; the CUDA backend (runtime/cuda) uses nothing of the CPU interpreter.
Read from the source (``ast``), so a function-local import counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

MAY_IMPORT: dict[str, set[str]] = {
    "dialects": set(),
    "frontend": {"dialects"},
    "passes": {"dialects"},
    "backend": {"dialects", "passes"},
    "driver": {"dialects", "frontend", "passes", "backend"},
    "runtime": {"dialects", "frontend", "passes", "backend", "driver"},
    "tools": {"dialects", "frontend", "passes", "backend", "driver"},
    "safetile": {"dialects", "frontend", "passes", "backend", "driver", "runtime"},
}
"""Stage folder -> the other stages its modules may import."""


def imports(path: Path, stage: str, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, imported ``safetile.*`` module) of every import in ``path``, relative ones resolved."""
    tree = ast.parse(path.read_text(), str(path))
    package = ["safetile", stage, *path.relative_to(root / stage).parent.parts] if stage != "safetile" else ["safetile"]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            found += [(node.lineno, f"{name}.{a.name}") for a in node.names]
    return [(line, name) for line, name in found if name.startswith("safetile.")]


def stage_of(module: str) -> str:
    part = module.split(".")[1]
    return part if part in MAY_IMPORT else "safetile"


def sources() -> list[tuple[str, Path]]:
    return [(stage, p) for stage in MAY_IMPORT for p in sorted((ROOT / stage).rglob("*.py"))]


@pytest.mark.parametrize(("stage", "path"), sources(), ids=lambda v: str(v.relative_to(ROOT)) if isinstance(v, Path) else v)
def test_imports_point_to_earlier_stages(stage: str, path: Path) -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: imports {name} ({stage} may import {sorted(MAY_IMPORT[stage]) or 'no other stage'})"
        for line, name in imports(path, stage)
        if stage_of(name) not in MAY_IMPORT[stage] | {stage}
    ]
    assert not wrong, "\n".join(wrong)


def test_the_cuda_backend_uses_nothing_of_the_interpreter() -> None:
    wrong = [
        f"{p.relative_to(ROOT)}:{line}: {name}"
        for p in sorted((ROOT / "runtime" / "cuda").rglob("*.py"))
        for line, name in imports(p, "runtime")
        if name.startswith("safetile.backend.interpreter")
    ]
    assert not wrong, "\n".join(wrong)


def test_the_checker_sees_a_backward_import(tmp_path: Path) -> None:
    """The rule is live: a frontend module importing a pass is flagged."""
    probe = tmp_path / "frontend" / "probe.py"
    probe.parent.mkdir()
    probe.write_text("from safetile.passes.pipeline import safety_passes\nfrom . import dsl\n")
    found = imports(probe, "frontend", tmp_path)
    assert [(n, stage_of(n)) for _, n in found] == [
        ("safetile.passes.pipeline.safety_passes", "passes"),
        ("safetile.frontend.dsl", "frontend"),
    ]
    assert "passes" not in MAY_IMPORT["frontend"]
