"""A pass that breaks a proof: every store to tile 0 (what the re-proof refuses)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from safetile.dialects.cuda_tile.ops.memory.view_access import StoreViewTkoOp
from safetile.dialects.cuda_tile.ops.shape import ConstantOp


@dataclass(frozen=True)
class StoreAtTileZero(ModulePass):
    """Point every store at tile 0 (an attack on one-writer-per-tile)."""

    name = "store-at-tile-zero"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for store in [o for o in op.walk() if isinstance(o, StoreViewTkoOp)]:
            zero = ConstantOp.splat(store.index[0].type, 0)
            store.parent_block().insert_op_before(zero, store)
            store.operands = (store.tile, store.view, *[zero.result] * len(store.index), store.token)
