"""The pass registry: every pass ``tile-opt`` and the JIT pipeline can run.

Three sources, in this order (a later one may not reuse an earlier name):

1. the generic clean-ups, correct on ``cuda_tile`` IR because every op
   declares its memory effects: xDSL's ``canonicalize``, ``cse`` and ``dce``,
   and ``licm`` (ours: xDSL's only knows ``scf.for``);
2. safetile's own passes, one module per pass in this package;
3. third-party passes, advertised by installed distributions under the entry
   point group ``safetile.passes`` (``name = "module:PassClass"``), or loaded
   from a Python file with ``tile-opt --load FILE`` / ``load_pass_file``.

A pass is an ``xdsl.passes.ModulePass`` subclass whose ``name`` is its
kebab-case name; its docstring's first line is its ``--help`` description.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path

from xdsl.passes import ModulePass

PassFactory = Callable[[], type[ModulePass]]

ENTRY_POINT_GROUP = "safetile.passes"


def _builtin_passes() -> dict[str, PassFactory]:
    def canonicalize() -> type[ModulePass]:
        from xdsl.transforms.canonicalize import CanonicalizePass

        return CanonicalizePass

    def cse() -> type[ModulePass]:
        from xdsl.transforms.common_subexpression_elimination import (
            CommonSubexpressionElimination,
        )

        return CommonSubexpressionElimination

    def dce() -> type[ModulePass]:
        from xdsl.transforms.dead_code_elimination import DeadCodeElimination

        return DeadCodeElimination

    def licm() -> type[ModulePass]:
        from safetile.passes.licm import LoopInvariantCodeMotion

        return LoopInvariantCodeMotion

    def bounds_check_elision() -> type[ModulePass]:
        from safetile.passes.bounds_check_elision import BoundsCheckElision

        return BoundsCheckElision

    def partition_disjointness() -> type[ModulePass]:
        from safetile.passes.partition_disjointness import PartitionDisjointness

        return PartitionDisjointness

    def token_order() -> type[ModulePass]:
        from safetile.passes.token_order import TokenOrder

        return TokenOrder

    def grid_dependency() -> type[ModulePass]:
        from safetile.passes.grid_dependency import GridDependency

        return GridDependency

    def lower_tile_safety() -> type[ModulePass]:
        from safetile.passes.lower_tile_safety import LowerTileSafety

        return LowerTileSafety

    def safetile_pipeline() -> type[ModulePass]:
        from safetile.passes.pipeline import SafetilePipeline

        return SafetilePipeline

    def fuse_fma() -> type[ModulePass]:
        from safetile.passes.fuse_fma import FuseFma

        return FuseFma

    def synthesize_debug_info_scopes() -> type[ModulePass]:
        from safetile.passes.synthesize_debug_info_scopes import SynthesizeDebugInfoScopes

        return SynthesizeDebugInfoScopes

    def loop_split() -> type[ModulePass]:
        from safetile.passes.loop_split import LoopSplit

        return LoopSplit

    def test_debuginfo_update_symbol_name() -> type[ModulePass]:
        # NVIDIA's test-only pass, which cuda-tile-opt registers as well.
        from safetile.passes.test_debuginfo_update_symbol_name import (
            TestDebuginfoUpdateSymbolName,
        )

        return TestDebuginfoUpdateSymbolName

    return {
        "canonicalize": canonicalize,
        "cse": cse,
        "dce": dce,
        "licm": licm,
        "bounds-check-elision": bounds_check_elision,
        "partition-disjointness": partition_disjointness,
        "token-order": token_order,
        "grid-dependency": grid_dependency,
        "lower-tile-safety": lower_tile_safety,
        "safetile-pipeline": safetile_pipeline,
        "fuse-fma": fuse_fma,
        "loop-split": loop_split,
        "synthesize-debug-info-scopes": synthesize_debug_info_scopes,
        "test-debuginfo-update-symbol-name": test_debuginfo_update_symbol_name,
    }


_DESCRIPTIONS = {
    "canonicalize": "Apply every op's canonicalization patterns and folders.",
    "cse": "Merge identical side-effect-free ops (common subexpression elimination).",
    "dce": "Remove ops whose results are unused and that have no side effects.",
}
"""One-line descriptions of xDSL's passes, whose docstrings are missing or long."""


_REGISTRY: dict[str, PassFactory] = _builtin_passes()


class PassRegistryError(Exception):
    """A pass could not be registered or loaded."""


def register_pass(pass_class: type[ModulePass]) -> type[ModulePass]:
    """Add a pass to the registry (usable as a class decorator)."""
    if not (inspect.isclass(pass_class) and issubclass(pass_class, ModulePass)):
        raise PassRegistryError(f"{pass_class!r} is not an xdsl ModulePass subclass")
    name = pass_class.name
    existing = _REGISTRY.get(name)
    if existing is not None and not _same_definition(existing(), pass_class):
        raise PassRegistryError(f"a pass named '{name}' is already registered")
    _REGISTRY[name] = lambda: pass_class
    return pass_class


def _same_definition(a: type[ModulePass], b: type[ModulePass]) -> bool:
    """One class, or the same class of one module imported again (a pass file loaded twice)."""
    return a is b or (a.__module__, a.__qualname__) == (b.__module__, b.__qualname__)


def load_pass_file(path: str | Path) -> list[str]:
    """Import a Python file as an ordinary module and register every ``ModulePass`` it defines.

    The module is in ``sys.modules`` while it runs, as an imported module is: dataclasses,
    ``from __future__ import annotations``, pickling and ``typing.get_type_hints`` need it."""
    path = Path(path)
    if not path.is_file():
        raise PassRegistryError(f"{path}: no such pass file")
    name = f"safetile_user_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    names = []
    for value in vars(module).values():
        if (
            inspect.isclass(value)
            and issubclass(value, ModulePass)
            and value.__module__ == module.__name__
        ):
            register_pass(value)
            names.append(value.name)
    if not names:
        raise PassRegistryError(f"{path}: defines no xdsl ModulePass subclass")
    return names


def _load_entry_points() -> None:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        name = ep.name
        if name not in _REGISTRY:
            _REGISTRY[name] = ep.load


def all_passes() -> dict[str, PassFactory]:
    """Every registered pass, by name."""
    _load_entry_points()
    return dict(_REGISTRY)


def describe(name: str, factory: PassFactory) -> str:
    """The one-line description of a pass: the first sentence of its own docstring."""
    if name in _DESCRIPTIONS:
        return _DESCRIPTIONS[name]
    doc = inspect.cleandoc(factory().__dict__.get("__doc__") or "")
    first_paragraph = " ".join(doc.split("\n\n")[0].split())
    return first_paragraph or "(no description)"
