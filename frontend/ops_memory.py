"""Memory: tensors, partitions, loads and stores; pointers, atomics, tokens.

Safe accesses go through partition views: a mutable output's own tile
(``z.load()``/``z.store(t)``, at the tile block id), tiles of a read-only
tensor (``x.partition(shape).load(index)``, ``st.load_tile_like``) and the
owned tiles of a ``st.MutMapped`` output.  Every index gets a
``tile_safety.check_index`` obligation (unless the kernel is compiled with
``unchecked_accesses``).  Memory ops are emitted without tokens; the
token-order pass threads them.

Raw pointers, mutable device-side partitions and their accesses are unsafe:
they compile only inside ``with st.unsafe():`` and carry the
``tile_safety.unsafe`` marker.  So are the low-level views of seed 002
(``st.make_tensor_view``, ``st.load_tensor``: tensors of mode ``raw``,
whose accesses token-order keeps on its global chain) and hand-written view
tokens (``st.set_tensor_token`` and the ``get_*_token`` functions): a
partition made from a tensor with a token carries it, and every access
through such a partition takes it as its input token, which token-order
leaves as written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import i32
from xdsl.ir import Attribute, Operation, SSAValue

from safetile.dialects.cuda_tile.attributes import (
    AtomicRMWMode,
    AtomicRMWModeAttr,
    MemoryOrdering,
    MemoryOrderingAttr,
    MemoryScope,
    MemoryScopeAttr,
    PaddingValue,
    PaddingValueAttr,
    Signedness,
    SignednessAttr,
)
from safetile.dialects.cuda_tile.ops import arith
from safetile.dialects.cuda_tile.ops.conversion import IntToPtrOp, OffsetOp, PtrToIntOp, PtrToPtrOp
from safetile.dialects.cuda_tile.ops.memory.pointers import (
    AtomicCASTkoOp,
    AtomicRMWTkoOp,
    LoadPtrTkoOp,
    StorePtrTkoOp,
)
from safetile.dialects.cuda_tile.ops.memory.tokens import JoinTokensOp, MakeTokenOp
from safetile.dialects.cuda_tile.ops.memory.view_access import LoadViewTkoOp, StoreViewTkoOp
from safetile.dialects.cuda_tile.ops.memory.views import (
    GetIndexSpaceShapeOp,
    MakePartitionViewOp,
    MakeTensorViewOp,
)
from safetile.dialects.cuda_tile.ops.misc import GetNumTileBlocksOp, GetTileBlockIdOp
from safetile.dialects.cuda_tile.types import DYNAMIC, PartitionViewType, TensorViewType, TileType, TokenType

from . import dsl
from .builtins import implements
from .core import as_tile, broadcast_to, check_shape, const, describe, index_value, reshape, shaped
from .dsl import DType, ptr_dtype
from .hints import Hints, hints_attr, with_call_hints
from .types import (
    OwnedIndex,
    OwnedTiles,
    PartitionValue,
    TensorValue,
    TileValue,
    TokenValue,
    broadcast_shapes,
    tile_type,
)

if TYPE_CHECKING:
    from .lower import Lowerer

_I32 = TileType((), i32)


# --------------------------------------------------------------------------
# Grid
# --------------------------------------------------------------------------


@implements(dsl.tile_block_id)
def block_ids(lx: Lowerer) -> tuple[TileValue, TileValue, TileValue]:
    op = lx.hoisted("tile_block_id", lambda: GetTileBlockIdOp.build(result_types=[_I32] * 3))
    return tuple(TileValue(r, dsl.i32) for r in op.results)  # type: ignore[return-value]


@implements(dsl.num_tile_blocks)
def _num_tile_blocks(lx: Lowerer) -> tuple[TileValue, TileValue, TileValue]:
    op = lx.hoisted("num_tile_blocks", lambda: GetNumTileBlocksOp.build(result_types=[_I32] * 3))
    return tuple(TileValue(r, dsl.i32) for r in op.results)  # type: ignore[return-value]


# --------------------------------------------------------------------------
# Tensors and partitions
# --------------------------------------------------------------------------


def _tensor(lx: Lowerer, value: Any, what: str) -> TensorValue:
    if not isinstance(value, TensorValue):
        raise lx.error(f"{what} needs a tensor parameter, got {describe(value)}")
    return value


def make_partition(
    lx: Lowerer,
    tensor: TensorValue,
    shape: Any,
    dim_map: Sequence[int] | None = None,
    padding: str | None = None,
    mutable: bool = False,
) -> PartitionValue:
    """A ``make_partition_view`` of ``tensor`` into tiles of ``shape``."""
    dims = check_shape(lx, shape, "a partition shape")
    if len(dims) != tensor.ndim:
        raise lx.error(
            f"a partition of the rank-{tensor.ndim} tensor '{tensor.name}' needs {tensor.ndim} "
            f"dimensions, got {dims}",
            "give one tile dimension per tensor dimension",
        )
    pad = None
    if padding is not None:
        try:
            pad = PaddingValueAttr(PaddingValue(padding))
        except ValueError:
            names = ", ".join(repr(p.value) for p in PaddingValue)
            raise lx.error(f"unknown padding {padding!r}", f"use one of {names}") from None
        if not tensor.dtype.is_float and pad.data != PaddingValue.ZERO:
            raise lx.error(f"padding {padding!r} needs a float tensor", "use padding='zero'")
    view_type = tensor.view.type
    assert isinstance(view_type, TensorViewType)
    result = PartitionViewType(dims, view_type, dim_map, pad)
    op = lx.add(MakePartitionViewOp.build(operands=[tensor.view], result_types=[result]))
    return PartitionValue(op.result, tensor, dims, mutable, _reaching(lx, tensor))


def _check_indices(
    lx: Lowerer, partition: PartitionValue, index: Any, what: str
) -> list[TileValue]:
    if isinstance(index, OwnedIndex):
        index = index.values
    if not isinstance(index, tuple):
        index = (index,)
    if len(index) != partition.ndim:
        raise lx.error(
            f"{what} needs {partition.ndim} indices, got {len(index)}",
            "give one tile index per dimension, e.g. p.load((i, k))",
        )
    values = [index_value(lx, i, "a tile index") for i in index]
    for dim, v in enumerate(values):
        lx.check_index(v, partition, dim, what)
    return values


def _view_access_properties(lx: Lowerer, kernel_hints: Hints, call: Mapping[str, Any]) -> dict[str, Attribute]:
    """A load's or store's properties: weak ordering, and its hints (the kernel's
    ``load_hints``/``store_hints`` with the call's ``latency=``/``allow_tma=`` over them)."""
    for name, value in call.items():
        if name == "latency" and value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                                         or not 1 <= value <= 10):
            raise lx.error(f"latency={value!r}: expected an int from 1 to 10", "latency=6 suits pipelined loads")
        if name == "allow_tma" and value is not None and not isinstance(value, bool):
            raise lx.error(f"allow_tma={value!r}: expected True or False")
    props: dict[str, Attribute] = {"memory_ordering_semantics": MemoryOrderingAttr(MemoryOrdering.WEAK)}
    hints = with_call_hints(kernel_hints, **call)
    if hints:
        props["optimization_hints"] = hints_attr(hints)
    return props


def load_view(
    lx: Lowerer, partition: PartitionValue, index: list[TileValue], **call: Any
) -> LoadViewTkoOp:
    view = partition.view.type
    assert isinstance(view, PartitionViewType)
    op = lx.add(
        LoadViewTkoOp.build(
            operands=[partition.view, [i.value for i in index], _token(lx, partition.token)],
            result_types=[view.tile_type(), TokenType()],
            properties=_view_access_properties(lx, lx.state.load_hints, call),
        )
    )
    if partition.token is not None:
        lx.mark_unsafe(op, "a load ordered by a hand-written token")
    return op


def store_view(
    lx: Lowerer, partition: PartitionValue, index: list[TileValue], tile: Any, **call: Any
) -> StoreViewTkoOp:
    tensor = partition.tensor
    value = shaped(lx, tile, tensor.dtype, partition.tile, f"a tile stored into '{tensor.name}'")
    op = lx.add(
        StoreViewTkoOp.build(
            operands=[value.value, partition.view, [i.value for i in index], _token(lx, partition.token)],
            result_types=[TokenType()],
            properties=_view_access_properties(lx, lx.state.store_hints, call),
        )
    )
    if partition.token is not None:
        lx.mark_unsafe(op, "a store ordered by a hand-written token")
    return op


def _own_index(lx: Lowerer, tensor: TensorValue, what: str) -> tuple[PartitionValue, list[TileValue]]:
    """A ``st.Mut`` tensor's own tile: its partition and the tile block id."""
    if tensor.mode != "mut":
        if tensor.mode == "raw":
            raise lx.error(
                f"{what}: '{tensor.name}' is a view built in unsafe code and has no tile of its own",
                "read it with v.partition(shape).load(index); write it with v.partition_mut(shape).store(index, tile)",
            )
        raise lx.error(
            f"{what}: '{tensor.name}' is read-only (st.Ref)",
            "only st.Mut outputs have a tile at the block's position; read tiles with x.partition(shape).load(index)",
        )
    assert tensor.own_view is not None
    ids = block_ids(lx)[: tensor.ndim]
    for dim, v in enumerate(ids):
        lx.check_index(v, tensor.own_view, dim, what)
    return tensor.own_view, list(ids)


def _owned_index(lx: Lowerer, tensor: TensorValue, index: Any, what: str) -> tuple[PartitionValue, list[TileValue]]:
    """An index ``tile_indices()`` or ``tile_index()`` made for ``tensor``: its partition and values."""
    if not isinstance(index, OwnedIndex) or index.tensor is not tensor:
        if tensor.mode == "mapped":
            raise lx.error(
                f"{what}: '{tensor.name}' is st.MutMapped: its tiles are addressed only by indices "
                f"from '{tensor.name}.tile_indices()'",
                f"write 'for idx in {tensor.name}.tile_indices():' and pass idx",
            )
        got = f"an index of '{index.tensor.name}'" if isinstance(index, OwnedIndex) else describe(index)
        raise lx.error(
            f"{what}() addresses the block's own tile and takes no index but one from "
            f"'{tensor.name}.tile_index()', got {got}",
            f"each tile block accesses only the tile the host partition gives it: call {what}() without "
            f"an index, or pass idx = {tensor.name}.tile_index(order=...)",
        )
    assert tensor.own_view is not None
    for dim, v in enumerate(index.values):
        lx.check_index(v, tensor.own_view, dim, what)
    return tensor.own_view, list(index.values)


def _block_tile(lx: Lowerer, tensor: TensorValue, index: Any, what: str) -> tuple[PartitionValue, list[TileValue]]:
    """The tile ``z.load(index)``/``z.store(tile, index)`` address: ``index`` if given, else
    the block's own tile (``st.Mut`` only)."""
    if tensor.mode == "mapped" or (tensor.mode == "mut" and index is not None):
        return _owned_index(lx, tensor, index, what)
    return _own_index(lx, tensor, what)


@implements(dsl.TensorView.load)
def _tensor_load(lx: Lowerer, tensor: Any, index: Any = None, *, latency: Any = None,
                 allow_tma: Any = None) -> TileValue:
    t = _tensor(lx, tensor, "load")
    view, values = _block_tile(lx, t, index, f"{t.name}.load")
    return TileValue(load_view(lx, view, values, latency=latency, allow_tma=allow_tma).tile, t.dtype)


@implements(dsl.load_tile_mut)
def _load_tile_mut(lx: Lowerer, dst: Any) -> TileValue:
    return _tensor_load(lx, dst)


@implements(dsl.TensorView.store)
def _tensor_store(lx: Lowerer, tensor: Any, tile: Any, index: Any, *, latency: Any = None,
                  allow_tma: Any = None) -> None:
    t = _tensor(lx, tensor, "store")
    view, values = _block_tile(lx, t, index, f"{t.name}.store")
    store_view(lx, view, values, tile, latency=latency, allow_tma=allow_tma)


@implements(dsl.load_tile_like)
def _load_tile_like(lx: Lowerer, src: Any, dst: Any, *, latency: Any = None, allow_tma: Any = None) -> TileValue:
    source, target = _tensor(lx, src, "load_tile_like"), _tensor(lx, dst, "load_tile_like")
    if target.mode != "mut":
        raise lx.error(
            f"load_tile_like: '{target.name}' must be a st.Mut output (its tile gives the shape and position)",
            "pass the mutable output as the second argument",
        )
    if source.ndim != target.ndim or not 1 <= source.ndim <= 3:
        raise lx.error(
            f"load_tile_like needs tensors of one rank (1 to 3), got '{source.name}' of rank "
            f"{source.ndim} and '{target.name}' of rank {target.ndim}",
            "partition the source explicitly: x.partition(shape).load(index)",
        )
    partition = make_partition(lx, source, target.tile)
    ids = list(block_ids(lx)[: target.ndim])
    for dim, v in enumerate(ids):
        lx.check_index(v, partition, dim, "load_tile_like")
    return TileValue(load_view(lx, partition, ids, latency=latency, allow_tma=allow_tma).tile, source.dtype)


def _readable(lx: Lowerer, tensor: TensorValue, what: str) -> None:
    if tensor.writable:
        raise lx.error(
            f"{what}: '{tensor.name}' is a mutable output; reading other tiles of it would race with other blocks",
            f"read its own tile with {tensor.name}.load(), or use partition_mut inside st.unsafe()",
        )


@implements(dsl.TensorView.partition)
def _partition(lx: Lowerer, tensor: Any, shape: Any, padding: Any) -> PartitionValue:
    t = _tensor(lx, tensor, "partition")
    _readable(lx, t, f"{t.name}.partition")
    return make_partition(lx, t, shape, None, padding)


@implements(dsl.TensorView.partition_permuted)
def _partition_permuted(lx: Lowerer, tensor: Any, shape: Any, dim_map: Any, padding: Any) -> PartitionValue:
    t = _tensor(lx, tensor, "partition_permuted")
    _readable(lx, t, f"{t.name}.partition_permuted")
    if not isinstance(dim_map, tuple) or sorted(dim_map) != list(range(t.ndim)):
        raise lx.error(
            f"dim_map {describe(dim_map)} is not a permutation of the {t.ndim} dimensions of '{t.name}'",
            f"list each of 0..{t.ndim - 1} once",
        )
    return make_partition(lx, t, shape, dim_map, padding)


@implements(dsl.TensorView.partition_mut)
def _partition_mut(lx: Lowerer, tensor: Any, shape: Any) -> PartitionValue:
    t = _tensor(lx, tensor, "partition_mut")
    if t.mode == "shared":
        raise lx.error(f"'{t.name}' is read-only (st.Ref) and cannot be partitioned mutably")
    partition = make_partition(lx, t, shape, mutable=True)
    lx.mark_unsafe(partition.view.owner, f"{t.name}.partition_mut")  # type: ignore[arg-type]
    return partition


@implements(dsl.TensorView.load_tile)
def _load_tile(lx: Lowerer, tensor: Any, shape: Any, index: Any) -> TileValue:
    return _partition_load(lx, _partition(lx, tensor, shape, None), index)


@implements(dsl.TensorView.tile_indices)
def _tile_indices(lx: Lowerer, tensor: Any, order: Any) -> OwnedTiles:
    t = _tensor(lx, tensor, "tile_indices")
    if t.mode != "mapped":
        hint = (
            f"a st.Mut output has one tile per block: use {t.name}.tile_index(order=...)"
            if t.mode == "mut" else "declare the parameter as st.MutMapped[E, shape]"
        )
        raise lx.error(f"'{t.name}' is not st.MutMapped: tile_indices() walks the tiles of a mapped output", hint)
    return OwnedTiles(t, _order(lx, t, order, "tile_indices"))


@implements(dsl.TensorView.tile_index)
def _tile_index(lx: Lowerer, tensor: Any, order: Any) -> OwnedIndex:
    t = _tensor(lx, tensor, "tile_index")
    if t.mode != "mut":
        hint = (
            f"a mapped output's block owns several tiles: loop over {t.name}.tile_indices(order=...)"
            if t.mode == "mapped" else "declare the parameter as st.Mut[E, shape]"
        )
        raise lx.error(f"'{t.name}' is not st.Mut: tile_index() is the tile of a host-partitioned output", hint)
    grouped = _order(lx, t, order, "tile_index")
    ids = block_ids(lx)[: t.ndim]
    if grouped is None:
        return OwnedIndex(t, ids)
    assert t.own_view is not None
    rows, columns = index_space(lx, t.own_view)
    # The block's number in launch order (x fastest): the grid is rows x columns.
    number = _int_op(lx, arith.AddIOp, ids[0], _int_op(lx, arith.MulIOp, ids[1], rows))
    return OwnedIndex(t, grouped_tile(lx, number, rows, columns, grouped))


@implements(dsl.grouped)
def _grouped(lx: Lowerer, group: Any, reverse: Any = False) -> dsl.GroupedOrder:
    if isinstance(group, bool) or not isinstance(group, int) or group < 1:
        raise lx.error(
            f"st.grouped({describe(group)}): the group must be a compile-time int >= 1",
            "pass a constant or an int generic, e.g. st.grouped(8) or st.grouped(G)",
        )
    if not isinstance(reverse, int) or reverse not in (0, 1):
        raise lx.error(
            f"st.grouped({group}, reverse={describe(reverse)}): reverse must be a compile-time bool",
            "pass True or False, or an int generic that is 0 or 1",
        )
    return dsl.GroupedOrder(group, bool(reverse))


def _order(lx: Lowerer, tensor: TensorValue, order: Any, what: str) -> dsl.GroupedOrder | None:
    """A tile order argument: None (the default order) or ``st.grouped(G)`` of a 2-d output."""
    if order is None:
        return None
    if not isinstance(order, dsl.GroupedOrder):
        raise lx.error(f"{what}: order={describe(order)} is not a tile order",
                       "pass order=st.grouped(G), or leave order out for the default order")
    if tensor.ndim != 2:
        raise lx.error(f"{what}: the grouped order walks a 2-d grid of tiles, '{tensor.name}' has rank {tensor.ndim}",
                       "leave order out for this output")
    return order


@implements(dsl.PartitionView.load)
def _partition_load(lx: Lowerer, partition: Any, index: Any, *, latency: Any = None,
                    allow_tma: Any = None) -> TileValue:
    if not isinstance(partition, PartitionValue):
        raise lx.error(f"expected a partition, got {describe(partition)}")
    values = _check_indices(lx, partition, index, "load")
    op = load_view(lx, partition, values, latency=latency, allow_tma=allow_tma)
    if partition.mutable:
        lx.mark_unsafe(op, "a load through a mutable partition")
    return TileValue(op.tile, partition.tensor.dtype)


@implements(dsl.PartitionView.store)
def _partition_store(lx: Lowerer, partition: Any, index: Any, tile: Any) -> TokenValue:
    if not isinstance(partition, PartitionValue) or not partition.mutable:
        raise lx.error(
            "only mutable partitions (partition_mut) accept stores",
            "store an output's own tile with z.store(tile)",
        )
    values = _check_indices(lx, partition, index, "store")
    op = lx.mark_unsafe(store_view(lx, partition, values, tile), "a store through a mutable partition")
    return TokenValue(op.result_token)


def index_space(lx: Lowerer, partition: PartitionValue) -> list[TileValue]:
    op = lx.add(GetIndexSpaceShapeOp.build(operands=[partition.view], result_types=[[_I32] * partition.ndim]))
    return [TileValue(r, dsl.i32) for r in op.results]


@implements(dsl.num_tiles, dsl.PartitionView.num_tiles)
def _num_tiles(lx: Lowerer, partition: Any, axis: Any) -> TileValue:
    if not isinstance(partition, PartitionValue):
        raise lx.error(f"num_tiles needs a partition, got {describe(partition)}")
    if not isinstance(axis, int) or not 0 <= axis < partition.ndim:
        raise lx.error(f"axis {describe(axis)} is out of range for a rank-{partition.ndim} partition")
    return index_space(lx, partition)[axis]


@implements(dsl.PartitionView.shape)
def _partition_shape(lx: Lowerer, partition: PartitionValue) -> tuple[int, ...]:
    return partition.tile


@implements(dsl.TensorView.shape)
def _tensor_shape(lx: Lowerer, tensor: TensorValue) -> tuple[Any, ...]:
    return tensor.tile if tensor.writable else tensor.shape


@implements(dsl.TensorView.dtype)
def _tensor_dtype(lx: Lowerer, tensor: TensorValue) -> DType:
    return tensor.dtype


@implements(dsl.TensorView.ndim)
def _tensor_ndim(lx: Lowerer, tensor: TensorValue) -> int:
    return tensor.ndim


@implements(dsl.Tile.shape)
def _tile_shape(lx: Lowerer, tile: TileValue) -> tuple[int, ...]:
    return tile.shape


@implements(dsl.Tile.dtype)
def _tile_dtype(lx: Lowerer, tile: TileValue) -> DType:
    return tile.dtype


@implements(dsl.Tile.ndim)
def _tile_ndim(lx: Lowerer, tile: TileValue) -> int:
    return tile.ndim


def owned_tile_range(
    lx: Lowerer, tiles: OwnedTiles
) -> tuple[TileValue, TileValue, TileValue, Callable[[TileValue], tuple[TileValue, ...]]]:
    """The loop over a mapped output's tiles this block owns (round robin).

    Tiles are numbered row-major (or in the grouped order); block ``b`` of
    ``n`` visits ``b, b+n, ...``.  Returns the range bounds and the map from
    tile number to tile index.
    """
    tensor = tiles.tensor
    assert tensor.own_view is not None
    counts = index_space(lx, tensor.own_view)
    total = counts[0]
    for c in counts[1:]:
        total = _int_op(lx, arith.MulIOp, total, c)
    start = block_ids(lx)[0]
    step = _num_tile_blocks(lx)[0]

    def delinearize(t: TileValue) -> tuple[TileValue, ...]:
        if tiles.order is not None:
            return grouped_tile(lx, t, counts[0], counts[1], tiles.order)
        index: list[TileValue] = []
        rest = t
        for d in range(1, len(counts)):
            stride = counts[d]
            for c in counts[d + 1 :]:
                stride = _int_op(lx, arith.MulIOp, stride, c)
            index.append(_divide(lx, rest, stride))
            rest = _remainder(lx, rest, stride)
        return (*index, rest)

    return start, total, step, delinearize


def grouped_tile(
    lx: Lowerer, t: TileValue, rows: TileValue, columns: TileValue, order: dsl.GroupedOrder
) -> tuple[TileValue, TileValue]:
    """Tile ``(m, n)`` of tile number ``t`` in the grouped order of a ``rows x columns`` grid
    (``dsl.GroupedOrder``; reversed: ``n`` is ``(columns - 1) - n``).  partition-disjointness
    proves it one to one by recognizing exactly this index math
    (``passes/analyses/index_math.py``); nothing is marked."""
    g = const(lx, order.group, dsl.i32)
    width = _int_op(lx, arith.MulIOp, g, columns)
    first = _int_op(lx, arith.MulIOp, _divide(lx, t, width), g)
    count = _int_op(lx, arith.MinIOp, _int_op(lx, arith.SubIOp, rows, first), g,
                    signedness=SignednessAttr(Signedness.SIGNED))
    within = _remainder(lx, t, width)
    row = _int_op(lx, arith.AddIOp, first, _remainder(lx, within, count))
    column = _divide(lx, within, count)
    if order.reverse:
        last = _int_op(lx, arith.SubIOp, columns, const(lx, 1, dsl.i32))
        column = _int_op(lx, arith.SubIOp, last, column)
    return row, column


def _int_op(lx: Lowerer, cls: type, a: TileValue, b: TileValue, **props: Attribute) -> TileValue:
    op = lx.add(cls.build(operands=[a.value, b.value], result_types=[a.type], properties=props))
    return TileValue(op.results[0], a.dtype)


def _divide(lx: Lowerer, a: TileValue, b: TileValue) -> TileValue:
    return _int_op(lx, arith.DivIOp, a, b, signedness=SignednessAttr(Signedness.SIGNED))


def _remainder(lx: Lowerer, a: TileValue, b: TileValue) -> TileValue:
    return _int_op(lx, arith.RemIOp, a, b, signedness=SignednessAttr(Signedness.SIGNED))


# --------------------------------------------------------------------------
# Pointers, atomics, tokens (unsafe)
# --------------------------------------------------------------------------

_SCOPES = {
    "tile_block": MemoryScope.TL_BLK,
    "tl_blk": MemoryScope.TL_BLK,
    "device": MemoryScope.DEVICE,
    "system": MemoryScope.SYS,
    "sys": MemoryScope.SYS,
}


def _pointers(lx: Lowerer, value: Any, what: str) -> TileValue:
    if not isinstance(value, TileValue) or value.dtype.kind != "ptr":
        raise lx.error(f"{what} needs a pointer tile, got {describe(value)}", "make one with st.offset(p, offsets)")
    return value


def _memory_properties(lx: Lowerer, ordering: str, scope: str | None) -> dict[str, Attribute]:
    try:
        props: dict[str, Attribute] = {"memory_ordering_semantics": MemoryOrderingAttr(MemoryOrdering(ordering))}
    except ValueError:
        names = ", ".join(repr(m.value) for m in MemoryOrdering)
        raise lx.error(f"unknown memory ordering {ordering!r}", f"use one of {names}") from None
    if scope is not None:
        if scope not in _SCOPES:
            raise lx.error(f"unknown memory scope {scope!r}", "use 'tile_block', 'device' or 'system'")
        props["memory_scope"] = MemoryScopeAttr(_SCOPES[scope])
    return props


def _mask(lx: Lowerer, mask: Any, shape: tuple[int, ...]) -> SSAValue | None:
    if mask is None:
        return None
    return shaped(lx, mask, dsl.bool_, shape, "the mask").value


def _token(lx: Lowerer, token: Any) -> SSAValue | None:
    if token is None:
        return None
    if not isinstance(token, TokenValue):
        raise lx.error(f"token= needs a token, got {describe(token)}")
    return token.value


def _unsafe(lx: Lowerer, op: Operation, what: str) -> Any:
    lx.mark_unsafe(op, what)
    return op


@implements(dsl.offset)
def _offset(lx: Lowerer, ptr: Any, offsets: Any) -> TileValue:
    p = _pointers(lx, ptr, "st.offset")
    offs = as_tile(lx, offsets, dsl.i32, "the offsets")
    if not offs.dtype.is_int or offs.dtype.kind == "bool":
        raise lx.error(f"offsets must be integers, got {offs.describe()}")
    lx.require_unsafe("pointer arithmetic")
    shape = broadcast_shapes(p.shape, offs.shape)
    if shape is None:
        raise lx.error(f"{p.describe()} and {offs.describe()} do not broadcast")
    p, offs = broadcast_to(lx, p, shape), broadcast_to(lx, offs, shape)
    op = _unsafe(lx, lx.add(OffsetOp(p.value, offs.value)), "pointer arithmetic")
    return TileValue(op.result, p.dtype)


def _load_ptr(
    lx: Lowerer, ptrs: Any, mask: Any, other: Any, ordering: str, scope: str | None, token: Any
) -> LoadPtrTkoOp:
    p = _pointers(lx, ptrs, "st.load_ptr")
    lx.require_unsafe("a load through pointers")
    assert isinstance(p.dtype, dsl.PtrDType)
    element = p.dtype.pointee
    padding = None if other is None else shaped(lx, other, element, p.shape, "other").value
    op = LoadPtrTkoOp.build(
        operands=[p.value, _mask(lx, mask, p.shape), padding, _token(lx, token)],
        result_types=[tile_type(p.shape, element), TokenType()],
        properties=_memory_properties(lx, ordering, scope),
    )
    return _unsafe(lx, lx.add(op), "a load through pointers")


@implements(dsl.load_ptr)
def _load_ptr_tile(lx: Lowerer, ptrs: Any, mask: Any, other: Any, ordering: str, scope: Any, token: Any) -> TileValue:
    op = _load_ptr(lx, ptrs, mask, other, ordering, scope, token)
    return TileValue(op.result, _pointee(ptrs))


@implements(dsl.load_ptr_tko)
def _load_ptr_tko(lx: Lowerer, ptrs: Any, mask: Any, other: Any, ordering: str, scope: Any, token: Any) -> tuple[TileValue, TokenValue]:
    op = _load_ptr(lx, ptrs, mask, other, ordering, scope, token)
    return TileValue(op.result, _pointee(ptrs)), TokenValue(op.result_token)


def _pointee(ptrs: TileValue) -> DType:
    assert isinstance(ptrs.dtype, dsl.PtrDType)
    return ptrs.dtype.pointee


@implements(dsl.store_ptr)
def _store_ptr(lx: Lowerer, ptrs: Any, values: Any, mask: Any, ordering: str, scope: Any, token: Any) -> TokenValue:
    p = _pointers(lx, ptrs, "st.store_ptr")
    lx.require_unsafe("a store through pointers")
    v = shaped(lx, values, _pointee(p), p.shape, "the stored values")
    op = StorePtrTkoOp.build(
        operands=[p.value, v.value, _mask(lx, mask, p.shape), _token(lx, token)],
        result_types=[TokenType()],
        properties=_memory_properties(lx, ordering, scope),
    )
    return TokenValue(_unsafe(lx, lx.add(op), "a store through pointers").result_token)


@implements(dsl.atomic_rmw)
def _atomic_rmw(lx: Lowerer, ptrs: Any, values: Any, mode: str, ordering: str, scope: str, mask: Any, token: Any) -> TileValue:
    p = _pointers(lx, ptrs, "st.atomic_rmw")
    lx.require_unsafe("an atomic through pointers")
    try:
        kind = AtomicRMWModeAttr(AtomicRMWMode(mode))
    except ValueError:
        names = ", ".join(repr(m.value) for m in AtomicRMWMode)
        raise lx.error(f"unknown atomic mode {mode!r}", f"use one of {names}") from None
    v = shaped(lx, values, _pointee(p), p.shape, "the operand")
    op = AtomicRMWTkoOp.build(
        operands=[p.value, v.value, _mask(lx, mask, p.shape), _token(lx, token)],
        result_types=[v.type, TokenType()],
        properties={**_memory_properties(lx, ordering, scope), "mode": kind},
    )
    return TileValue(_unsafe(lx, lx.add(op), "an atomic").result, v.dtype)


@implements(dsl.atomic_cas)
def _atomic_cas(lx: Lowerer, ptrs: Any, cmp: Any, values: Any, ordering: str, scope: str, mask: Any, token: Any) -> TileValue:
    p = _pointers(lx, ptrs, "st.atomic_cas")
    lx.require_unsafe("an atomic through pointers")
    element = _pointee(p)
    c = shaped(lx, cmp, element, p.shape, "the compared value")
    v = shaped(lx, values, element, p.shape, "the new value")
    op = AtomicCASTkoOp.build(
        operands=[p.value, c.value, v.value, _mask(lx, mask, p.shape), _token(lx, token)],
        result_types=[v.type, TokenType()],
        properties=_memory_properties(lx, ordering, scope),
    )
    return TileValue(_unsafe(lx, lx.add(op), "an atomic").result, v.dtype)


@implements(dsl.make_token)
def _make_token(lx: Lowerer) -> TokenValue:
    return TokenValue(lx.add(MakeTokenOp.build(result_types=[TokenType()])).result)


@implements(dsl.join_tokens)
def _join_tokens(lx: Lowerer, *tokens: Any) -> TokenValue:
    values = [_token(lx, t) for t in tokens]
    if len(values) < 2:
        raise lx.error("join_tokens needs two or more tokens")
    return TokenValue(lx.add(JoinTokensOp.build(operands=[values], result_types=[TokenType()])).result)


@implements(dsl.int_to_ptr)
def _int_to_ptr(lx: Lowerer, tile: Any, dtype: Any) -> TileValue:
    t = as_tile(lx, tile, dsl.i64)
    if t.dtype.bits != 64 or not t.dtype.is_int:
        raise lx.error(f"int_to_ptr needs i64 addresses, got {t.describe()}", "convert with .astype(st.i64)")
    target = ptr_dtype(dtype)
    op = _unsafe(lx, lx.add(IntToPtrOp(t.value, tile_type(t.shape, target))), "int_to_ptr")
    return TileValue(op.result, target)


@implements(dsl.ptr_to_int)
def _ptr_to_int(lx: Lowerer, ptrs: Any) -> TileValue:
    p = _pointers(lx, ptrs, "st.ptr_to_int")
    op = _unsafe(lx, lx.add(PtrToIntOp(p.value, tile_type(p.shape, dsl.i64))), "ptr_to_int")
    return TileValue(op.result, dsl.i64)


@implements(dsl.ptr_to_ptr)
def _ptr_to_ptr(lx: Lowerer, ptrs: Any, dtype: Any) -> TileValue:
    p = _pointers(lx, ptrs, "st.ptr_to_ptr")
    target = ptr_dtype(dtype)
    op = _unsafe(lx, lx.add(PtrToPtrOp(p.value, tile_type(p.shape, target))), "ptr_to_ptr")
    return TileValue(op.result, target)


# --------------------------------------------------------------------------
# Low-level views and their tokens (unsafe)
# --------------------------------------------------------------------------


def _reaching(lx: Lowerer, tensor: TensorValue) -> TokenValue | None:
    """``tensor``'s hand-written token, which must be defined in a block enclosing
    the code being lowered: one set inside a branch or loop does not reach past it."""
    token = tensor.token
    if token is None:
        return None
    owner = token.value.owner
    if not lx.builder.reaches(owner.parent_block() if isinstance(owner, Operation) else owner):
        raise lx.error(
            f"the token set on '{tensor.name}' inside a branch or loop does not reach here",
            f"call st.set_tensor_token({tensor.name}, ...) again here, or use the view inside that block",
        )
    return token


def _extents(lx: Lowerer, values: Any, what: str) -> tuple[list[int], list[SSAValue], list[int | TileValue]]:
    """Static entries (``DYNAMIC`` for runtime ones), the runtime values, and the
    kernel's view of each, for a shape or strides tuple of ints and i32 scalars."""
    if not isinstance(values, tuple) or not values:
        raise lx.error(f"{what} must be a non-empty tuple, got {describe(values)}", "write e.g. (n, 16)")
    static: list[int] = []
    dynamic: list[SSAValue] = []
    seen: list[int | TileValue] = []
    for v in values:
        if isinstance(v, int) and not isinstance(v, bool):
            if v <= 0:
                raise lx.error(f"{what} {describe(values)} has {v}: constant entries must be positive",
                               "pass a runtime i32 scalar for an extent only known at run time")
            static.append(v)
            seen.append(v)
        else:
            value = index_value(lx, v, f"an entry of {what}")
            static.append(DYNAMIC)
            dynamic.append(value.value)
            seen.append(value)
    return static, dynamic, seen


def raw_view(lx: Lowerer, base: TileValue, shape: Any, strides: Any, name: str) -> TensorValue:
    """A ``make_tensor_view`` at the scalar pointer ``base`` (a ``raw`` tensor)."""
    dims, dynamic_dims, seen = _extents(lx, shape, "the shape")
    steps, dynamic_steps, _ = _extents(lx, strides, "the strides")
    if len(steps) != len(dims):
        raise lx.error(f"{len(dims)} dimensions but {len(steps)} strides", "give one stride per dimension")
    element = _pointee(base)
    view_type = TensorViewType(element.ir, dims, steps)
    op = lx.add(MakeTensorViewOp.build(operands=[base.value, dynamic_dims, dynamic_steps], result_types=[view_type]))
    lx.mark_unsafe(op, name)
    return TensorValue(name, "raw", element, op.result, tuple(seen))


@implements(dsl.make_tensor_view)
def _make_tensor_view(lx: Lowerer, base: Any, shape: Any, strides: Any, token: Any) -> TensorValue:
    lx.require_unsafe("make_tensor_view")
    p = _pointers(lx, base, "make_tensor_view")
    if p.shape != ():
        raise lx.error(f"make_tensor_view needs a scalar pointer, got {p.describe()}",
                       "pass a st.Ptr parameter, or st.offset(p, k) with a scalar k")
    view = raw_view(lx, p, shape, strides, "make_tensor_view")
    _token(lx, token)
    view.token = token
    return view


@implements(dsl.load_tensor)
def _load_tensor(lx: Lowerer, ptrs: Any, index: Any, shape: Any, strides: Any, dtype: Any) -> TensorValue:
    lx.require_unsafe("load_tensor")
    table = _tensor(lx, ptrs, "load_tensor")
    if table.dtype not in (dsl.i64, dsl.u64):
        raise lx.error(f"load_tensor reads addresses from an i64 tensor, '{table.name}' is {table.dtype.name}",
                       "store the addresses as st.i64")
    if not isinstance(dtype, DType) or dtype.kind == "ptr":
        raise lx.error(f"load_tensor needs the element type of the view, got {describe(dtype)}", "pass e.g. st.f32")
    _readable(lx, table, "load_tensor")
    cell = make_partition(lx, table, (1,) * table.ndim)
    address = TileValue(load_view(lx, cell, _check_indices(lx, cell, index, "load_tensor")).tile, table.dtype)
    scalar = reshape(lx, address, ())
    base = ptr_dtype(dtype)
    pointer = _unsafe(lx, lx.add(IntToPtrOp(scalar.value, tile_type((), base))), "load_tensor")
    return raw_view(lx, TileValue(pointer.result, base), shape, strides, "load_tensor")


@implements(dsl.get_tensor_token)
def _get_tensor_token(lx: Lowerer, tensor: Any) -> TokenValue:
    lx.require_unsafe("get_tensor_token")
    t = _tensor(lx, tensor, "get_tensor_token")
    return _reaching(lx, t) or _fresh_token(lx, "get_tensor_token")


@implements(dsl.set_tensor_token)
def _set_tensor_token(lx: Lowerer, tensor: Any, token: Any) -> None:
    lx.require_unsafe("set_tensor_token")
    t = _tensor(lx, tensor, "set_tensor_token")
    if not isinstance(token, TokenValue):
        raise lx.error(f"set_tensor_token needs a token, got {describe(token)}",
                       "pass a token from st.make_token, a store or st.get_tensor_token")
    t.token = token


def _partition_token(lx: Lowerer, partition: Any, mutable: bool, what: str) -> TokenValue:
    lx.require_unsafe(what)
    if not isinstance(partition, PartitionValue):
        raise lx.error(f"{what} needs a partition, got {describe(partition)}")
    if partition.mutable != mutable:
        other = "get_partition_token_mut" if partition.mutable else "get_partition_token"
        kind = "mutable (partition_mut)" if partition.mutable else "read-only"
        raise lx.error(f"{what}: this partition of '{partition.tensor.name}' is {kind}", f"use st.{other}")
    return partition.token or _fresh_token(lx, what)


@implements(dsl.get_partition_token)
def _get_partition_token(lx: Lowerer, partition: Any) -> TokenValue:
    return _partition_token(lx, partition, False, "get_partition_token")


@implements(dsl.get_partition_token_mut)
def _get_partition_token_mut(lx: Lowerer, partition: Any) -> TokenValue:
    return _partition_token(lx, partition, True, "get_partition_token_mut")


def _fresh_token(lx: Lowerer, what: str) -> TokenValue:
    """The token of a view nobody gave one: a fresh token, ordered after nothing."""
    return TokenValue(_unsafe(lx, lx.add(MakeTokenOp.build(result_types=[TokenType()])), what).result)
