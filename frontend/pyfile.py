"""Compiling the kernels of a Python file (what ``tile-opt kernel.py`` does).

A file says which specializations to compile, in either or both ways::

    @st.kernel(specialize=[dict(S=(128,))])
    def add(z: st.Mut[f32, "S"], ...): ...

    __tile_specializations__ = [(gemm, dict(E=st.f16, BM=128, BN=128, BK=64))]

Kernels without any are skipped.  Each kernel becomes one
``cuda_tile.module`` named after it, with one ``entry`` per specialization.
The ``tile_safety`` checks are kept (``-p lower-tile-safety`` lowers them).
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from .errors import CompileError
from .kernel import Kernel

SPECIALIZATIONS = "__tile_specializations__"


def load_module(path: Path) -> Any:
    """Import ``path`` as a fresh module (its folder joins ``sys.path`` so that
    kernels may import device functions from modules beside them)."""
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    name = f"safetile_kernels_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise OSError(f"{path}: cannot import this file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def declared(module: Any) -> list[tuple[Kernel, list[Mapping[str, Any]]]]:
    """Each kernel of ``module`` with the specializations the file declares."""
    extra: dict[int, list[Mapping[str, Any]]] = {}
    for entry in getattr(module, SPECIALIZATIONS, ()):
        kernel, values = entry if isinstance(entry, tuple) else (entry, {})
        if not isinstance(kernel, Kernel):
            raise TypeError(f"{SPECIALIZATIONS} lists {kernel!r}, which is not a @st.kernel")
        extra.setdefault(id(kernel), []).append(values)
    found = []
    for value in list(vars(module).values()):
        if isinstance(value, Kernel):
            specs = value.specializations + extra.get(id(value), [])
            if specs:
                found.append((value, specs))
    return found


def compile_file(path: str | Path) -> tuple[ModuleOp, list[CompileError]]:
    """The IR of every declared specialization in ``path``, and the errors.

    A kernel that fails to compile is left out and its error returned; the
    others still compile.
    """
    module = load_module(Path(path))
    out = ModuleOp([])
    errors: list[CompileError] = []
    for kernel, specs in declared(module):
        try:
            compiled = kernel.compile(*specs, lower_safety=False)
        except CompileError as err:
            errors.append(err)
            continue
        for op in list(compiled.body.block.ops):
            op.detach()
            out.body.block.add_op(op)
    return out, errors
