"""``@st.kernel``: a kernel definition that compiles (``driver``) and launches (``runtime``).

(Not named ``kernel.py``: importing a submodule sets the package attribute of
its name, which would hide ``st.kernel``, the decorator.)

The frontend knows how to specialize and lower a kernel; the driver how to
compile a variant; the runtime how to launch one.  ``Kernel`` joins them for
users, here at the top, so that no stage reaches up into a later one.
"""

from __future__ import annotations

import dataclasses
import sys
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from safetile.driver import CompiledVariant, CompileOptions, compile_kernels, compile_variant
from safetile.frontend.kernel import OPTION_NAMES, KernelOptions
from safetile.runtime.launch import LaunchableKernel, LaunchCache, launch
from safetile.runtime.warmup import WarmedUp, warm_up


class Kernel(LaunchableKernel):
    """A ``@st.kernel``: call it on host arguments to launch it (a lazy ``DeviceOp``)."""

    def __init__(self, fn: Callable[..., Any], options: KernelOptions,
                 specializations: Sequence[Mapping[str, Any]] = ()):
        super().__init__(fn, options, specializations)
        self.launch_cache = LaunchCache()
        """Plans and runnables of this kernel's launches (``runtime/launch.py``)."""

    __call__ = launch
    """``kernel(z_part, x, y)``: a lazy launch (``runtime/launch.py``; docs/runtime.md)."""

    def __getitem__(self, grid: object) -> Any:
        """``kernel[grid]`` is Triton's launch: refused with safetile's way."""
        raise TypeError(
            f"{self.name}[grid] is Triton's launch syntax; safetile launches one tile block per tile of "
            f"the output's partition: {self.name}(z.partition(tile_shape), x, ...) (docs/runtime.md)"
        )

    def compile(self, *specializations: Mapping[str, Any], stage: str = "after-clean-up",
                **values: Any) -> ModuleOp:
        """A verified ``builtin.module`` with one ``cuda_tile.module`` of variants.

        The variants are ``specializations`` (dicts) and/or ``values`` (one
        more), else the declared ones, else the one with no values.  Each
        goes through the compile driver up to ``stage`` (default: all, the IR
        that runs; ``"frontend"``: as lowered from Python, with the
        ``tile_safety`` checks; ``"safety"``: proved and lowered, before the
        clean-ups).
        """
        wanted = [dict(s) for s in specializations] + ([values] if values else [])
        variants = [self.specialize(**s) for s in (wanted or self.specializations or [{}])]
        return compile_kernels(self, variants, CompileOptions(until=stage))

    def compile_variant(self, target: str | None = None, *, options: CompileOptions = CompileOptions(),
                        **values: Any) -> CompiledVariant:
        """The ``CompiledVariant`` of one specialization (for ``target``, an arch, or IR only)."""
        return compile_variant(self, self.specialize(**values), target, options)

    def unsafe_report(self, **values: Any) -> list[str]:
        """Where the variant ``values`` specialize, as it runs, leaves safety to its author: raw
        pointer parameters, ``unchecked_accesses``, each ``st.unsafe()`` operation and what a
        pass trusted by name left unproved, one ``file:line:col: what`` line each (read off the
        ``CompiledVariant``: ``passes/analyses/unsafe_report.py``)."""
        return list(self.compile_variant(**values).unsafe_report)

    def with_options(self, **changes: Any) -> Kernel:
        """The same kernel with other options (``optimization_hints=``, ``load_hints=``, ...):
        a separate kernel, with variants and launches of its own (what the autotuner's
        candidates are)."""
        try:
            options = dataclasses.replace(self.options, **changes)
        except TypeError as err:
            raise TypeError(f"{self.name}.with_options: {err}; options are {', '.join(OPTION_NAMES)}") from None
        return Kernel(self.python, options, self.specializations)

    def warm_up(self, specializations: Iterable[Mapping[str, Any]], *, arch: str | None = None) -> list[WarmedUp]:
        """Compile ahead of use (see ``st.warm_up``)."""
        return warm_up(self, specializations, arch=arch, cache=self.launch_cache)


def kernel(fn: Callable[..., Any] | None = None, *, specialize: Sequence[Mapping[str, Any]] = (),
           **options: Any) -> Any:
    """``@st.kernel`` or ``@st.kernel(option=...)``: declare a kernel entry point.

    ``specialize`` lists specializations compiled by default (and by
    ``tile-opt kernel.py``); every other keyword is a ``KernelOptions`` field
    (``frontend/kernel.py`` declares each, with what it does): ``passes``
    adds user passes to its pipeline (names, specs, ``ModulePass`` objects,
    ``st.trusted(...)`` or ``(point, pass)`` pairs: see docs/tile-opt.md);
    ``optimization_hints`` (the entry's), ``load_hints`` and ``store_hints``
    (every load's and store's) map an arch (``"sm_90"``, ``"default"``) to
    tileiras hints; ``print_ir``, ``dump_ir_dir``, ``unchecked_accesses``,
    ``deny_in_kernel_checks``, ``arg_facts``, ``dependent_launch``,
    ``early_reads``.
    """
    try:
        made = KernelOptions(**options)
    except TypeError as err:
        raise TypeError(f"st.kernel: {err}; its options are specialize, {', '.join(OPTION_NAMES)}") from None

    def wrap(f: Callable[..., Any]) -> Kernel:
        return Kernel(f, made, specialize)

    return wrap(fn) if fn is not None else wrap




def warm_up_kernel(kernel: Kernel, specializations: Iterable[Mapping[str, Any]], *,
                   arch: str | None = None) -> list[WarmedUp]:
    """``st.warm_up(kernel, specs, arch=None)``: compile ahead of use.

    Each mapping holds the values ``Kernel.specialize`` takes (tensor specs as
    a launch derives them, and generics).  Without ``arch`` the variants are
    made ready on the backend in use (the first launch is then warm); with
    ``arch`` (``"sm_90"``) they are compiled to cubins in the cache for that
    architecture, on any machine with the toolchain: copy the cache folder
    (``SAFETILE_CACHE_DIR``) to the GPU machine.
    """
    return kernel.warm_up(specializations, arch=arch)


class _Module(types.ModuleType):
    """This module, callable only to say so: ``st.jit`` is this module once it is imported
    (a submodule is an attribute of its package), and ``@st.jit`` is Triton's decorator."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("st.jit is Triton's decorator; safetile's is @st.kernel (docs/language.md)")


sys.modules[__name__].__class__ = _Module
