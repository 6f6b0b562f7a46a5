"""The kernels a Python file declares, compiled (``tile-opt kernels.py``)."""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from safetile.frontend.errors import CompileError
from safetile.frontend.pyfile import declared, load_module, nothing_declared

from .compile import CompileOptions, compile_kernels


def compile_file(path: str | Path, until: str = "frontend") -> tuple[ModuleOp, list[CompileError]]:
    """The IR after stage ``until`` of every declared specialization in ``path``, and the errors.

    A kernel that fails to compile is left out and its error returned; the
    others still compile.
    """
    module = load_module(Path(path))
    out = ModuleOp([])
    found = declared(module)
    errors: list[CompileError] = [] if found else [nothing_declared(module, Path(path))]
    for kernel, specs in found:
        try:
            compiled = compile_kernels(kernel, [kernel.specialize(**s) for s in specs], CompileOptions(until=until))
        except CompileError as err:
            errors.append(err)
            continue
        for op in list(compiled.body.block.ops):
            op.detach()
            out.body.block.add_op(op)
    return out, errors
