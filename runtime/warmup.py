"""Compiling kernels ahead of use.

    st.warm_up(add, [dict(z=st.TensorSpec(st.f32, (4096,), (1,), (1024,)),
                          x=st.TensorSpec(st.f32, (4096,), (1,)),
                          y=st.TensorSpec(st.f32, (4096,), (1,)))])

Each mapping holds the values ``Kernel.specialize`` takes (tensor specs as
a launch would derive them from its arguments, and generics).  Without
``arch`` the variants are made ready on the backend in use (on the GPU:
compiled and loaded, so the first launch is a warm one).  With ``arch``
(``"sm_90"``) they are compiled to cubins in the cache for that
architecture, on any machine with the toolchain and no GPU: copy the cache
folder (``SAFETILE_CACHE_DIR``) to the GPU machine, where launches find them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from safetile.driver import compile_variant
from safetile.frontend.kernel import KernelDefinition

from .backend import current_backend
from .launch import LaunchCache, ready


@dataclass(frozen=True)
class WarmedUp:
    """One specialization made ready: its entry name and, for cubins, the cache file."""

    symbol: str
    cubin: Path | None
    compiled: bool
    """Whether this call compiled it (False: it was already there)."""


def warm_up(
    kernel: KernelDefinition,
    specializations: Iterable[Mapping[str, Any]],
    *,
    arch: str | None = None,
    cache: LaunchCache | None = None,
) -> list[WarmedUp]:
    """Compile ``kernel`` for each specialization ahead of use (see the module doc);
    ``cache`` is where the kernel's launches keep runnables (``Kernel.warm_up`` passes its own)."""
    done: list[WarmedUp] = []
    for values in specializations:
        variant = kernel.specialize(**values)
        symbol = kernel.symbol(variant)
        if arch is not None:
            compiled = compile_variant(kernel, variant, arch)
            assert compiled.cubin is not None
            done.append(WarmedUp(symbol, compiled.cubin.path, compiled.cubin.compiled))
        else:
            cache = cache if cache is not None else LaunchCache()
            backend = current_backend()
            before = len(cache.runnables)
            ready(kernel, cache, backend, variant)
            done.append(WarmedUp(symbol, None, len(cache.runnables) > before))
    return done
