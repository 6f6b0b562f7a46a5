"""``synthesize-debug-info-scopes``: debug scopes for kernels that have none.

NVIDIA's pass of the same name, for frontends that write plain locations
(``loc("k.py":9:5)``) but no debug-info metadata: it gives tileiras enough to
build line tables.  For each ``cuda_tile.module``:

* a compile unit, in the file the module's location names (else
  ``<unknown>``);
* for each ``entry`` (or ``testing$func``) whose location holds no ``di_loc``: a subprogram named
  after the kernel, in the file and at the line of the kernel's location
  (else the compile unit's file, line 1), with ``scopeLine`` the same line;
* every op of that kernel, the kernel included, is then located at
  ``di_loc<its place in the subprogram>``; an op with no place of its own
  takes the kernel's.

Kernels that already have a scope are left alone.

Invariant established: every op of every kernel of the module is located in
its kernel's subprogram (``di_location(op.location)`` is not None).

An op with no place takes its kernel's.  tile-opt's parser gives an op with
no ``loc(...)`` its place in the text (as MLIR's does) only under
``--mlir-print-debuginfo``; without that flag such an op has none.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.passes import ModulePass

from safetile.dialects.cuda_tile.debuginfo import (
    DICompileUnitAttr,
    DIFileAttr,
    DILocAttr,
    DISubprogramAttr,
    di_location,
    file_of,
    source_location,
)
from safetile.dialects.cuda_tile.ops.structure import FunctionOp
from safetile.dialects.cuda_tile.ops.structure import ModuleOp as TileModuleOp

UNKNOWN_FILE = "<unknown>"
"""The file name NVIDIA's pass gives a module or kernel with no place."""


@dataclass(frozen=True)
class SynthesizeDebugInfoScopes(ModulePass):
    """Give each kernel without debug scopes a subprogram, and each of its ops a di_loc in it."""

    name = "synthesize-debug-info-scopes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for module in op.walk():
            if not isinstance(module, TileModuleOp):
                continue
            place = source_location(module.location)
            file = (
                file_of(place)
                if place is not None
                else DIFileAttr(StringAttr(UNKNOWN_FILE), StringAttr(""))
            )
            unit = DICompileUnitAttr(file)
            for entry in module.body.block.ops:
                if isinstance(entry, FunctionOp):  # entry, or the test-only testing$func
                    _scope_kernel(entry, unit)


def _scope_kernel(entry: FunctionOp, unit: DICompileUnitAttr) -> None:
    if di_location(entry.location) is not None:
        return  # the frontend wrote its scopes
    place = source_location(entry.location)
    if place is None:
        file = unit.file
        assert isinstance(file, DIFileAttr)
        place = FileLineColLoc(file.file_name, IntAttr(1), IntAttr(1))
    else:
        file = file_of(place)
    name = entry.sym_name
    kernel = DISubprogramAttr(file, place.line, name, name, unit, place.line)
    for op in entry.walk():
        op.location = DILocAttr(source_location(op.location) or place, kernel)
