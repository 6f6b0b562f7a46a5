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

from safetile.backend import cache
from safetile.frontend.kernel import Kernel

from .backend import current_backend
from .launch import _compile, lower_for_launch


@dataclass(frozen=True)
class WarmedUp:
    """One specialization made ready: its entry name and, for cubins, the cache file."""

    symbol: str
    cubin: Path | None
    compiled: bool
    """Whether this call compiled it (False: it was already there)."""


def warm_up(kernel: Kernel, specializations: Iterable[Mapping[str, Any]], *, arch: str | None = None) -> list[WarmedUp]:
    """Compile ``kernel`` for each specialization ahead of use (see the module doc)."""
    done: list[WarmedUp] = []
    for values in specializations:
        variant = kernel.specialize(**values)
        symbol = kernel.symbol(variant)
        if arch is not None:
            module, _ = lower_for_launch(kernel, variant)
            entry = cache.compile_cubin(module, arch)
            done.append(WarmedUp(symbol, entry.path, entry.compiled))
        else:
            backend = current_backend()
            key = (id(kernel), variant.key, backend.name)
            from .launch import _compiled

            fresh = key not in _compiled
            _compile(kernel, backend, variant, values)
            done.append(WarmedUp(symbol, None, fresh))
    return done
