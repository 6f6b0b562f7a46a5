"""docs/architecture.md's recipe for adding an op is what the code and its coverage tests are.

The recipe ("Adding an op end to end") names files, code names and the test
that fails until each step is done.  Here every path in it exists (for some
family), every code name is defined or quoted in the code, every named test
exists, and every test module that covers all ops (it reads ``ALL_OPS``) is
named: a new coverage check, or a renamed file, fails here until the recipe
says so.  Also the one coverage check the recipe names that no other test
makes: every op runs on the interpreter.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from safetile.backend.interpreter import DISPATCH
from safetile.dialects.cuda_tile.ops import ALL_OPS, FAMILIES, memory
from support import REPO_ROOT

DOC = REPO_ROOT / "docs" / "architecture.md"
UNIT = REPO_ROOT / "test" / "unit"
SOURCES = [
    p
    for stage in ("dialects", "frontend", "passes", "backend", "driver", "runtime", "safetile", "tools", "test/unit")
    for p in (REPO_ROOT / stage).rglob("*.py")
]


def recipe() -> str:
    text = DOC.read_text()
    start = text.index("## Adding an op end to end")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


SPANS = re.findall(r"`([^`]+)`", recipe())
TEST_REFS = [s for s in SPANS if re.fullmatch(r"test_\w+\.py(::\w+)?", s)]
PATHS = [s for s in SPANS if "/" in s and " " not in s]
NAMES = [s.lstrip("@") for s in SPANS if re.fullmatch(r"@?[A-Za-z_]\w*", s)]


def expand(path: str) -> list[Path]:
    """``path`` with ``<family>`` and ``<sub-family>`` put for each family (and globs expanded)."""
    families = [f.__name__.rsplit(".", 1)[1] for f in FAMILIES]
    subs = [m.__name__.rsplit(".", 1)[1] for m in memory.SUB_FAMILIES]
    found = []
    for family in families:
        for sub in subs:
            concrete = path.replace("<family>", family).replace("<sub-family>", sub)
            found += list(REPO_ROOT.glob(concrete.rstrip("/"))) if "*" in concrete else [REPO_ROOT / concrete]
    return [p for p in found if p.exists()]


def test_the_recipe_names_files_code_and_tests() -> None:
    assert len(PATHS) >= 10 and len(NAMES) >= 5 and len(TEST_REFS) >= 5


@pytest.mark.parametrize("path", PATHS)
def test_every_path_of_the_recipe_exists(path: str) -> None:
    assert expand(path), f"docs/architecture.md's op recipe names {path}, which does not exist"


@pytest.mark.parametrize("name", sorted(set(NAMES)))
def test_every_code_name_of_the_recipe_is_in_the_code(name: str) -> None:
    defined = re.compile(rf"^\s*(?:def|class)\s+{re.escape(name)}\b|^\s*{re.escape(name)}\s*[:=]", re.M)
    quoted = re.compile(rf"[\"']{re.escape(name)}[\"']")
    assert any(defined.search(p.read_text()) or quoted.search(p.read_text()) for p in SOURCES), (
        f"docs/architecture.md's op recipe names `{name}`, which the code neither defines nor uses"
    )


@pytest.mark.parametrize("ref", TEST_REFS)
def test_every_test_the_recipe_names_exists(ref: str) -> None:
    file, _, function = ref.partition("::")
    assert (UNIT / file).is_file(), f"no test file {file}"
    if function:
        assert re.search(rf"^def {function}\(", (UNIT / file).read_text(), re.M), f"no test {ref}"


def test_every_test_of_all_ops_is_in_the_recipe() -> None:
    covering = {p.name for p in UNIT.glob("test_*.py") if re.search(r"\bALL_OPS\b", p.read_text())}
    named = {ref.partition("::")[0] for ref in TEST_REFS}
    assert covering - {Path(__file__).name} <= named, "a test reads ALL_OPS: name it in the op recipe"


STRUCTURAL = {"cuda_tile.module", "cuda_tile.entry", "cuda_tile.global"}
"""Run by the interpreter's engine itself (the module, its kernels, its globals), not by executors."""

NO_EXECUTOR = {op.name for op in ALL_OPS if op.__module__.endswith(".memory.multimem")}
"""The multimem ops (Tile IR 13.5) access multicast memory, shared by several GPUs: the
interpreter refuses them ("the interpreter cannot run ...")."""


def test_every_op_runs_on_the_interpreter() -> None:
    missing = sorted(op.name for op in ALL_OPS if op not in DISPATCH and op.name not in STRUCTURAL | NO_EXECUTOR)
    assert not missing, f"ops with no executor in backend/interpreter/ops (HANDLERS): {missing}"
    assert len(NO_EXECUTOR) == 3


def test_the_frontend_lowers_each_family_in_a_module_named_after_it() -> None:
    families = {f.__name__.rsplit(".", 1)[1] for f in FAMILIES}
    modules = {p.stem.removeprefix("ops_") for p in (REPO_ROOT / "frontend").glob("ops_*.py")}
    assert modules <= families, f"frontend lowering modules not named after a family: {sorted(modules - families)}"
    from safetile.frontend import builtins, dsl, lower  # noqa: F401 - lower fills the tables

    lowered_in = {
        "math": [builtins.BUILTINS[f] for f in (dsl.exp, dsl.exp2, dsl.tanh, dsl.sqrt, dsl.log, dsl.atan2)],
        "compare": [builtins.OPERATORS["Lt"], builtins.OPERATORS["NotEq"], builtins.BUILTINS[dsl.where]],
        "conversion": [builtins.BUILTINS[dsl.astype], builtins.BUILTINS[dsl.bitcast]],
        "reduction": [builtins.BUILTINS[dsl.reduce], builtins.BUILTINS[dsl.cumsum]],
        "mma": [builtins.BUILTINS[dsl.mma], builtins.OPERATORS["MatMult"]],
        "arith": [builtins.OPERATORS["Add"], builtins.BUILTINS[dsl.fma], builtins.OPERATORS["BitAnd"]],
    }
    for family, lowerings in lowered_in.items():
        assert {f.__module__ for f in lowerings} == {f"safetile.frontend.ops_{family}"}, family
