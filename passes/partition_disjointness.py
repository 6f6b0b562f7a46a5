"""``partition-disjointness``: every store to a mutable tensor has one writer per tile, in one tile order."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.ops.memory.view_access import LoadViewTkoOp, StoreViewTkoOp
from safetile.dialects.cuda_tile.ops.memory.views import MakeTensorViewOp
from safetile.dialects.cuda_tile.types import PartitionViewType
from safetile.passes.analyses.locations import OpDiagnostic, where
from safetile.passes.analyses.partitions import TileOrder, access_of, arg_name, tensor_of, tile_order


@dataclass(frozen=True)
class PartitionDisjointness(ModulePass):
    """Prove that each store to a mutable tensor writes a tile no other tile block writes.

    Invariant established (or the pass fails): every ``store_view_tko`` and
    ``load_view_tko`` through a partition view of a tensor marked
    ``#tile_safety.access<mut>`` or ``<mapped>``, outside unsafe code, is at
    an index that only this tile block produces, and all such accesses to one
    tensor follow one tile order (``analyses.partitions.TileOrder``; under two
    orders two blocks would own one tile):

    * ``mut`` (host-partitioned, one block per tile), the default order: the
      index is the tile block id itself, ``(bid.x, bid.y, bid.z)`` cut to the
      view's rank, in that order (by construction the grid is the partition's
      index space, so distinct blocks have distinct tiles);
    * ``mut``, grouped: the index is the grouped tile (``analyses/index_math.py``)
      of ``t = bid.x + bid.y * n0`` over ``n0 x n1 = num_tiles(view, 0), num_tiles(view, 1)``
      with a constant group ``G >= 1`` (its column forward or reversed, ``(n1 - 1) - n``: a second
      order), where ``view`` is the tensor's host
      partition (``tile_safety.partition``): the grid is ``n0 x n1``, so ``t``
      numbers the blocks one to one onto ``[0, n0 * n1)``, which the grouped
      order maps one to one onto the tiles;
    * ``mapped`` (one block walks several tiles): the index is the
      induction variable ``t`` of ``for t in (bid.x to N, step nblocks.x)``
      (1-d), ``(t / n1, t % n1)`` with ``n1 = num_tiles(view, 1)`` (2-d), or
      (grouped) the grouped tile of ``t`` over ``view``'s ``n0 x n1`` tiles
      with ``N = n0 * n1``: blocks start at distinct residues of
      ``nblocks.x``, so their ``t`` never meet, and each map is injective
      where ``t`` runs.  This assumes a 1-d launch grid for mapped outputs
      (the runtime refuses any other).

    A store to a tensor marked ``<shared>`` (read-only, read by every
    block) is refused.  Accesses carrying ``tile_safety.unsafe`` are exempt; with ``report`` each
    exempt store is listed on stderr, as is each proof (``mut``/``mapped``,
    ``grouped(G)`` for the grouped order).  An access it cannot prove is a
    compile error at its location (``op.location``; its entry without one)
    saying what would make it provable.  Nothing is rewritten.
    """

    name = "partition-disjointness"

    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for refusal in self.refusals(op):
            raise refusal

    def refusals(self, root: Operation) -> Iterator[OpDiagnostic]:
        """Prove the accesses under ``root``: one diagnostic for each it cannot prove."""
        orders: dict[MakeTensorViewOp, tuple[TileOrder, Operation]] = {}
        for access in [o for o in root.walk() if isinstance(o, StoreViewTkoOp | LoadViewTkoOp)]:
            try:
                self._prove(access, orders)
            except OpDiagnostic as refusal:
                yield refusal

    def _prove(self, access: StoreViewTkoOp | LoadViewTkoOp,
               orders: dict[MakeTensorViewOp, tuple[TileOrder, Operation]]) -> None:
        """Prove one access; raise ``OpDiagnostic`` if it cannot."""
        tensor = tensor_of(access.view)
        if tensor is None:
            return
        mode = access_of(tensor)
        if mode is None:
            return
        name = arg_name(tensor)
        store = isinstance(access, StoreViewTkoOp)
        what = f"store to '{name}'" if store else f"load of '{name}'"
        if tile_safety.UNSAFE in access.attributes:
            if store:
                self._say(f"unsafe (exempt): {where(access)}: {what}")
            return
        if mode is tile_safety.AccessMode.SHARED:
            if not store:
                return  # every block may read a shared tensor
            # Every tile block may read a shared tensor: a write races with them all.
            raise OpDiagnostic(
                access,
                f"store to '{name}', a read-only (shared) tensor that every tile block "
                f"may read (a data race): declare '{name}' st.Mut and partition it on the host, "
                "or write it in `with st.unsafe():`",
            )
        _check_tiles(access, name, what, tile_safety.partition_tiles(tensor))
        order = tile_order(list(access.index), access.view, mode)
        if order is None:
            raise OpDiagnostic(access, _unproved(store, name, mode))
        first = orders.setdefault(tensor, (order, access))
        if first[0] != order:
            raise OpDiagnostic(
                access,
                f"this {what} follows {order} but the access at {where(first[1])} follows "
                f"{first[0]}: under two tile orders two tile blocks may own one tile (a possible "
                f"data race); give every access to '{name}' the same order",
            )
        kind = mode.value if order.group is None else f"{mode.value} grouped({order.group}{', reverse' * order.reverse})"
        self._say(f"{kind}: {where(access)}: {what}")

    def _say(self, line: str) -> None:
        if self.report:
            print(line, file=sys.stderr)


def _check_tiles(access: Operation, name: str, what: str, partition: tuple[int, ...] | None) -> None:
    """The access cuts the tensor into its host partition's tiles: with other tiles, the tile
    a block owns by its index is not the one the host gave it (two blocks would meet)."""
    view_type = access.view.type  # type: ignore[attr-defined]
    if partition is None or not isinstance(view_type, PartitionViewType):
        return
    identity = view_type.dim_map in ((), tuple(range(len(partition))))
    if tuple(view_type.tile_shape) != partition or not identity:
        raise OpDiagnostic(
            access,
            f"this {what} goes through a partition into tiles of {tuple(view_type.tile_shape)}"
            f"{'' if identity else f' with dim_map {view_type.dim_map}'}, but '{name}' is partitioned by the "
            f"host into tiles of {partition}: a tile index would not name the tile that block owns "
            "(a possible data race); access it through its own partition",
        )


def _unproved(store: bool, name: str, mode: tile_safety.AccessMode) -> str:
    """The error for an access at an index the pass cannot prove this block's own."""
    verb, access = ("store", f"store to '{name}' writes") if store else ("load", f"load of '{name}' reads")
    if mode is tile_safety.AccessMode.MUT:
        own = f"{name}.store(tile)" if store else f"{name}.load()"
        hint = (
            f"{verb} at the tile block's own tile ({own}, index = tile block id in order) or at "
            f"{name}.tile_index(order=...), or make the output st.MutMapped and {verb} at an index "
            f"from {name}.tile_indices()"
        )
    else:
        hint = f"{verb} at an index taken from {name}.tile_indices(), unchanged"
    return (
        f"cannot prove that this {access} a tile no other tile block writes (a possible data race): "
        f"{hint}; or {'write' if store else 'read'} it in `with st.unsafe():`"
    )
