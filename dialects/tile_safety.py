"""``tile_safety``: facts the frontend records for the safety passes.

Everything here exists only between the frontend and the lowering
(``passes/lower_tile_safety.py``); afterwards a module is pure ``cuda_tile``.

* ``tile_safety.check_index %i, %view[dim], "message"`` — the obligation
  ``0 <= %i < num_tiles(%view, dim)`` for one index of one partition access.
  The safety passes discharge it statically, hoist it to a launch check, or
  lower it to an in-kernel ``assert`` (the last rung).
* Discardable attributes, named ``tile_safety.<what>``:

  ``access`` (``#tile_safety.access<mut|mapped|shared>``) and ``arg``
  (the parameter name) on each tensor parameter's ``make_tensor_view``;
  ``partition`` (``array<i64: ...>``) there too for host-partitioned
  outputs; ``unsafe`` (``"file:line:col"``) on every operation written in a
  ``with st.unsafe():`` block that needed it; ``unchecked_accesses`` and
  ``deny_in_kernel_checks`` (unit) on an ``entry`` compiled with those
  options.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import I64, DenseArrayBase, IntegerAttr, StringAttr, i64
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.irdl import (
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    traits_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, VerifyException
from xdsl.utils.str_enum import StrEnum

from safetile.dialects.cuda_tile.ops._common import CudaTileOp, ScalarIntTile
from safetile.dialects.cuda_tile.ops.memory import AnyTileView
from safetile.dialects.cuda_tile.types import TileViewType

PREFIX = "tile_safety."

ACCESS = PREFIX + "access"
ARG = PREFIX + "arg"
PARTITION = PREFIX + "partition"
UNSAFE = PREFIX + "unsafe"
UNCHECKED_ACCESSES = PREFIX + "unchecked_accesses"
DENY_IN_KERNEL_CHECKS = PREFIX + "deny_in_kernel_checks"


class AccessMode(StrEnum):
    MUT = "mut"
    """Host-partitioned output: each tile block owns the tile at its id."""
    MAPPED = "mapped"
    """Host-partitioned output whose tiles blocks walk (``tile_indices()``)."""
    SHARED = "shared"
    """Read-only input: any block reads anything."""


@irdl_attr_definition
class AccessAttr(EnumAttribute[AccessMode]):
    """``#tile_safety.access<mut>``: how a kernel may use a tensor parameter."""

    name = "tile_safety.access"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> AccessMode:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(AccessMode)


@irdl_op_definition
class CheckIndexOp(CudaTileOp):
    """Obliges ``0 <= index < num_tiles(view, dim)``; ``message`` names the access."""

    name = "tile_safety.check_index"
    SINCE: ClassVar[str] = "13.1"
    index = operand_def(ScalarIntTile)
    view = operand_def(AnyTileView)
    dim = prop_def(IntegerAttr[I64])
    message = prop_def(StringAttr)
    # No effect trait: like ``assert`` it must not be removed or moved.
    traits = traits_def()
    assembly_format = (
        "$index `,` $view `[` $dim `]` `,` $message attr-dict `:` type($index) `,` type($view)"
    )

    def __init__(self, index: SSAValue, view: SSAValue, dim: int, message: str):
        super().__init__(
            operands=[index, view],
            properties={"dim": IntegerAttr(dim, 64), "message": StringAttr(message)},
        )

    def verify_(self) -> None:
        view = self.view.type
        assert isinstance(view, TileViewType)
        dim = self.dim.value.data
        if not 0 <= dim < view.index_rank():
            raise VerifyException(
                f"dim {dim} is out of range for a view with {view.index_rank()} index dimensions"
            )


def is_safety_attribute(name: str) -> bool:
    return name.startswith(PREFIX)


def partition_tiles(op: Operation) -> tuple[int, ...] | None:
    """The tile shape of ``op``'s ``tile_safety.partition``, or None without one.

    Raises ``DiagnosticException`` naming the attribute when it is not an
    ``array<i64: ...>`` of positive sizes (hand-written or mutated IR).
    """
    attr = op.attributes.get(PARTITION)
    if attr is None:
        return None
    if not (isinstance(attr, DenseArrayBase) and attr.elt_type == i64):
        raise DiagnosticException(f"'{op.name}' op {PARTITION} must be an array<i64: ...> of tile sizes, got {attr}")
    tiles = tuple(int(t) for t in attr.get_values())
    if not tiles or any(t < 1 for t in tiles):
        raise DiagnosticException(f"'{op.name}' op {PARTITION} must hold positive tile sizes, got {list(tiles)}")
    return tiles


TileSafety = Dialect("tile_safety", [CheckIndexOp], [AccessAttr])
"""The dialect object to load into an xDSL ``Context``."""

__all__ = [
    "ACCESS",
    "ARG",
    "DENY_IN_KERNEL_CHECKS",
    "PARTITION",
    "UNCHECKED_ACCESSES",
    "UNSAFE",
    "AccessAttr",
    "AccessMode",
    "CheckIndexOp",
    "TileSafety",
    "is_safety_attribute",
    "partition_tiles",
]
