"""``compile_in_parallel``: many kernel variants to cubins at once, ahead of time.

The cubins land in the content-addressed cache (``backend/cache.py``,
``$SAFETILE_CACHE_DIR``), where every later ``compile_variant(..., target)``
of the same variant finds them: the cache key is the bytecode's hash, the
options and the toolchain, so a hit is exactly the build ``tileiras`` would
give again.  Lowering is Python and runs here, one variant after another;
``tileiras`` runs in a process pool, ``workers`` at a time.  Users: the
autotuner's ``warm_up`` (every config of a tuned kernel) and the test suite
(every example variant through ``tileiras`` once per cache).
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
from collections.abc import Sequence

from safetile.backend import cache
from safetile.backend.tileiras import TileirasError
from safetile.backend.toolchain import ToolchainError
from safetile.frontend.errors import CompileError
from safetile.frontend.kernel import KernelDefinition, Variant

from .compile import CompileOptions, compile_variant


def compile_in_parallel(
    jobs: Sequence[tuple[KernelDefinition, Variant]],
    target: str,
    options: CompileOptions = CompileOptions(),
    workers: int | None = None,
) -> int:
    """Put the cubins of ``jobs`` (kernel, variant) for ``target`` into the cache; the
    number of ``tileiras`` runs it took (variants already cached take none).

    ``workers`` builds at a time (default: one per core).  A variant that does not
    lower or build is skipped: the caller's own ``compile_variant`` meets the error
    and reports it where the variant is used.
    """
    bytecodes = []
    for kernel, variant in jobs:
        try:
            lowered = compile_variant(kernel, variant, None, options)
        except CompileError:
            continue
        bytecode = cache.to_bytecode(lowered.module, target)
        if bytecode not in bytecodes and cache.lookup(bytecode, target, sanitize=options.sanitize) is None:
            bytecodes.append(bytecode)
    workers = min(len(bytecodes), workers or os.cpu_count() or 1)
    if workers < 2:
        for bytecode in bytecodes:
            _build(bytecode, target, options.sanitize)
        return len(bytecodes)
    # fork: the workers start at once, with this process's modules (they run no CUDA)
    context = multiprocessing.get_context("fork")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        list(pool.map(_build, bytecodes, [target] * len(bytecodes), [options.sanitize] * len(bytecodes)))
    return len(bytecodes)


def _build(bytecode: bytes, target: str, sanitize: str | None) -> None:
    """One cubin into the cache (a pool worker); a failure is met again by the caller's compile."""
    try:
        cache.compile_cubin(bytecode, target, sanitize=sanitize)
    except (TileirasError, ToolchainError):
        pass
