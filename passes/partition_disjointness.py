"""``partition-disjointness``: every store to a mutable tensor has one writer per tile."""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.ops.memory import StoreViewTkoOp
from safetile.passes.analyses.locations import OpDiagnostic, where
from safetile.passes.analyses.partitions import (
    access_of,
    arg_name,
    is_own_tile,
    mapped_iterator,
    tensor_of,
)


@dataclass(frozen=True)
class PartitionDisjointness(ModulePass):
    """Prove that each store to a mutable tensor writes a tile no other tile block writes.

    Invariant established (or the pass fails): every ``store_view_tko`` into
    a partition view of a tensor marked ``#tile_safety.access<mut>`` or
    ``<mapped>``, outside unsafe code, stores at an index that only this
    tile block produces:

    * ``mut`` (host-partitioned, one block per tile): the index is the tile
      block id itself, ``(bid.x, bid.y, bid.z)`` cut to the view's rank, in
      that order (by construction the grid is the partition's index space,
      so distinct blocks have distinct tiles);
    * ``mapped`` (one block walks several tiles): the index is the
      induction variable ``t`` of ``for t in (bid.x to N, step nblocks.x)``
      (1-d) or ``(t / n1, t % n1)`` with ``n1 = num_tiles(view, 1)`` (2-d):
      blocks start at distinct residues of ``nblocks.x``, so their ``t``
      never meet, and the division is injective in ``t >= 0``.  This
      assumes a 1-d launch grid for mapped outputs (the runtime's default).

    A store to a tensor marked ``<shared>`` (read-only, read by every
    block) is refused.  Stores carrying ``tile_safety.unsafe`` are exempt; with ``report`` each
    exempt store is listed on stderr, as is each proof (``mut``/``mapped``).
    A store it cannot prove is a compile error at the store's location
    (``op.location``; its entry without one) saying what would make it
    provable.  Nothing is rewritten.
    """

    name = "partition-disjointness"

    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for store in [o for o in op.walk() if isinstance(o, StoreViewTkoOp)]:
            tensor = tensor_of(store.view)
            if tensor is None:
                continue
            mode = access_of(tensor)
            if mode is None:
                continue
            name = arg_name(tensor)
            if tile_safety.UNSAFE in store.attributes:
                self._say(f"unsafe (exempt): {where(store)}: store to '{name}'")
                continue
            if mode is tile_safety.AccessMode.SHARED:
                # Every tile block may read a shared tensor: a write races with them all.
                raise OpDiagnostic(
                    store,
                    f"store to '{name}', a read-only (shared) tensor that every tile block "
                    f"may read (a data race): declare '{name}' st.Mut and partition it on the host, "
                    "or write it in `with st.unsafe():`",
                )
            indices = list(store.index)
            if mode is tile_safety.AccessMode.MUT:
                proved = is_own_tile(indices)
                hint = (
                    f"store at the tile block's own tile ({name}.store(tile), index = tile block id "
                    "in order), or make the output st.MutMapped and store at an index from "
                    f"{name}.tile_indices()"
                )
            else:
                proved = mapped_iterator(indices, store.view) is not None
                hint = f"store at an index taken from {name}.tile_indices(), unchanged"
            if not proved:
                raise OpDiagnostic(
                    store,
                    f"cannot prove that this store to '{name}' writes a tile no other tile "
                    f"block writes (a possible data race): {hint}; or write it in `with st.unsafe():`",
                )
            self._say(f"{mode.value}: {where(store)}: store to '{name}'")

    def _say(self, line: str) -> None:
        if self.report:
            print(line, file=sys.stderr)

