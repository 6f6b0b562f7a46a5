"""Executors of the ``structure`` ops that run: ``return`` and ``get_global``.

``module``, ``entry`` and ``global`` are structure, not executed:
``engine.Program`` runs an ``entry``'s body, and ``get_global`` allocates its
``global`` in the launch's memory on first use (later launches sharing that
``GlobalMemory`` see what earlier ones stored).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation
from xdsl.traits import SymbolTable

from safetile.dialects.cuda_tile.ops import structure
from safetile.backend import elements

from ..engine import Builder, Executor, ExitKind, Frame, Program
from .common import dense
from .control import terminator


def _build_get_global(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, structure.GetGlobalOp)
    target = SymbolTable.lookup_symbol(op, op.global_name)
    assert isinstance(target, structure.GlobalOp)
    elem = target.tile_type.element_type
    initial = elements.encode(dense(target.value, target.tile_type), elem)
    alignment = max(target.alignment.value.data, initial.itemsize, 1)

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        mem = frame.launch.memory
        buffer = mem.globals.get(target)
        if buffer is None:
            buffer = mem.allocate(
                initial.nbytes,
                f"@{target.sym_name.data}",
                alignment=alignment,
                readonly=target.constant is not None,
            )
            buffer.data[:] = np.ascontiguousarray(initial).view(np.uint8).ravel()
            mem.globals[target] = buffer
        return (np.asarray(buffer.address, dtype=np.uint64),)

    return run


HANDLERS: dict[type[Operation], Builder] = {
    structure.ReturnOp: terminator(ExitKind.RETURN),
    structure.GetGlobalOp: _build_get_global,
}
