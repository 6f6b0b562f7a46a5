"""The kernels a Python file declares (what ``tile-opt kernel.py`` compiles:
``driver/files.py``).

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
import inspect
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any


from .errors import CompileError, import_error
from .kernel import KernelDefinition

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
    try:
        spec.loader.exec_module(module)
    except CompileError:
        raise
    except Exception as err:  # the file's own code failed: point at its line
        del sys.modules[name]
        raise import_error(err, path) from None
    return module


def declared(module: Any) -> list[tuple[KernelDefinition, list[Mapping[str, Any]]]]:
    """Each kernel of ``module`` with the specializations the file declares."""
    extra: dict[int, list[Mapping[str, Any]]] = {}
    for entry in getattr(module, SPECIALIZATIONS, ()):
        kernel, values = entry if isinstance(entry, tuple) else (entry, {})
        if not isinstance(kernel, KernelDefinition):
            raise TypeError(f"{SPECIALIZATIONS} lists {kernel!r}, which is not a @st.kernel")
        extra.setdefault(id(kernel), []).append(values)
    found = []
    for value in list(vars(module).values()):
        if isinstance(value, KernelDefinition):
            specs = value.specializations + extra.get(id(value), [])
            if specs:
                found.append((value, specs))
    return found


def nothing_declared(module: Any, path: Path) -> CompileError:
    """The error for a file that declares no specialization: at its first kernel, saying what to add."""
    kernels = [v for v in vars(module).values() if isinstance(v, KernelDefinition)]
    if not kernels:
        return CompileError(
            "no @st.kernel in this file",
            str(path),
            hint="define a kernel with @st.kernel(specialize=[dict(...)]) to compile it",
        )
    first = kernels[0]
    generics = [p.name for p in first.params if p.kind == "generic" and p.default is inspect.Parameter.empty]
    values = ", ".join(f"{g}=..." for g in generics)
    return first.error(
        f"no kernel of this file declares a specialization, so there is nothing to compile "
        f"({', '.join(repr(k.name) for k in kernels)})",
        f"add @st.kernel(specialize=[dict({values})]), or list (kernel, dict({values})) in "
        f"{SPECIALIZATIONS} at the module's top level",
    )
