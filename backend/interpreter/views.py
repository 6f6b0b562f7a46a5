"""Tile views: index spaces, and the elements a view index selects.

* ``partition_view``: tile ``i`` along tile dimension ``k`` starts at element
  ``i * tile[k]`` of tensor dimension ``dim_map[k]``; the index space has
  ``ceil(dim / tile[k])`` entries.
* ``strided_view``: the same with ``traversal_strides[k]`` in place of
  ``tile[k]`` as the step (``ceil(dim / stride[k])`` entries; tiles may
  overlap or leave gaps).
* ``gather_scatter_view``: index ``sparse_dim`` is a 1-d tile of element
  indices (one per row of the tile); every other index is the element where
  the tile starts.  Its index space is the tensor's shape.

An index outside the index space is an ``OutOfRangeError`` (``check=True``);
elements of a valid tile that fall outside the tensor are *masked*: padded on
load, skipped on store (as are rows of a gather index that lie outside).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.types import (
    GatherScatterViewType,
    StridedViewType,
    TileViewType,
)

from .errors import OutOfRangeError, UnsupportedError
from safetile.backend.typecache import per_type
from safetile.backend.elements import storage_dtype
from .values import TensorView, TileView


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass(frozen=True)
class _Layout:
    """What a view type fixes about the tiles it selects."""

    tile: tuple[int, ...]
    dims: tuple[int, ...]
    """The tensor dimension each tile dimension walks."""
    steps: tuple[int, ...]
    """Elements between the starts of consecutive tiles, per tile dimension."""
    gather: int | None
    itemsize: int
    lanes: tuple[np.ndarray, ...]
    """``arange(tile[k])`` shaped to broadcast along tile dimension ``k``."""


@per_type
def _layout(t: Attribute) -> _Layout:
    assert isinstance(t, TileViewType)
    tile = t.tile_shape
    rank = len(tile)
    if isinstance(t, GatherScatterViewType):
        dims, steps, gather = tuple(range(rank)), (1,) * rank, t.sparse_dim
    else:
        dims = t.dim_map
        steps = t.traversal_strides if isinstance(t, StridedViewType) else tile
        gather = None
    lanes = tuple(
        np.arange(n, dtype=np.int64).reshape([n if j == k else 1 for j in range(rank)])
        for k, n in enumerate(tile)
    )
    return _Layout(tile, dims, steps, gather, storage_itemsize_of(t.tensor_view.element_type), lanes)


def tile_view(t: TileViewType, tensor: TensorView) -> TileView:
    """The view of type ``t`` over ``tensor``."""
    layout = _layout(t)
    if layout.gather is not None:
        space = tensor.shape
    else:
        space = tuple(_ceil_div(tensor.shape[d], s) for d, s in zip(layout.dims, layout.steps))
    return TileView(t, tensor, space)


def storage_itemsize_of(t: Attribute) -> int:
    """Bytes one element of type ``t`` takes in memory."""
    try:
        return storage_dtype(t).itemsize
    except TypeError as err:
        raise UnsupportedError(str(err)) from None


def elements(
    view: TileView,
    index: Sequence[int | np.ndarray],
    *,
    check: bool,
    inbounds: Sequence[bool] = (),
) -> tuple[np.ndarray, np.ndarray | None]:
    """The addresses of the tile at ``view[index]`` and the in-bounds mask.

    ``index`` holds unsigned integers (a ``uint64`` array at the sparse
    dimension of a gather/scatter view).  The mask is None when every
    element is inside the tensor.  ``inbounds[k]`` true promises that tile
    dimension ``k`` stays inside the tensor; a broken promise is an
    ``OutOfRangeError`` when checking.
    """
    layout = _layout(view.type)
    tensor = view.tensor
    if check:
        _check_index(view, index, layout.gather)
    offsets: np.ndarray | int = 0
    mask: np.ndarray | None = None
    for k, lane in enumerate(layout.lanes):
        d = layout.dims[k]
        size = tensor.shape[d]
        if k == layout.gather:
            coords = np.asarray(index[k], dtype=np.uint64).reshape(lane.shape)
            inside = coords < np.uint64(size)
            outside = not inside.all()
            coords = coords.astype(np.int64)
        else:
            # A start past the end (an unchecked bad index) masks the whole tile.
            start = min(int(index[k]) * layout.steps[k], size)
            coords = start + lane
            outside = start + layout.tile[k] > size
            if outside:
                inside = coords < size
        if outside:
            if check and k < len(inbounds) and inbounds[k]:
                raise OutOfRangeError(
                    f"tile dimension {k} is declared in bounds but runs past the end of "
                    f"tensor dimension {d} (size {size})"
                )
            coords = np.where(inside, coords, 0)
            mask = inside if mask is None else mask & inside
        offsets = offsets + coords * tensor.strides[d]
    addresses = np.uint64(tensor.base) + (np.asarray(offsets) * layout.itemsize).astype(np.uint64)
    addresses = np.broadcast_to(addresses, layout.tile)
    if mask is not None:
        mask = np.broadcast_to(mask, layout.tile)
    return addresses, mask


@dataclass(frozen=True)
class Box:
    """A tile wholly inside its tensor: element ``start + offsets[...]`` of the
    tensor's memory, ``offsets`` in the tile's shape (an affine box: no mask, no
    address built a lane)."""

    start: int
    """Byte address of the tile's first element."""
    offsets: np.ndarray
    """Each lane's element offset from ``start`` (shared between accesses: read only)."""
    extent: int
    """Elements from ``start`` to one past the last lane."""
    itemsize: int


_LANE_OFFSETS: dict[tuple[int, tuple[int, ...]], tuple[_Layout, np.ndarray, int]] = {}
"""``(id(layout), tensor strides) -> (layout, lane offsets, extent)``; the layout
is kept so its id is not reused.  Emptied when it holds ``_LANE_OFFSETS_KEPT``
(a process launching on ever new strides would grow it without end)."""
_LANE_OFFSETS_KEPT = 4096


def box(view: TileView, index: Sequence[int | np.ndarray], *, check: bool) -> Box | None:
    """``view[index]`` as a ``Box`` when the tile lies wholly inside the tensor
    and the view is not a gather (None otherwise: ``elements`` then gives the
    addresses and the mask, and raises what a bad index raises).  Same lanes, in
    the same order, as ``elements``; the index is checked as ``elements`` checks
    it."""
    layout = _layout(view.type)
    if layout.gather is not None:
        return None
    tensor = view.tensor
    if check:
        _check_index(view, index, None)
    first = 0
    for k, d in enumerate(layout.dims):
        start = int(index[k]) * layout.steps[k]
        if start + layout.tile[k] > tensor.shape[d] or tensor.strides[d] < 0:
            return None
        first += start * tensor.strides[d]
    key = (id(layout), tensor.strides)
    hit = _LANE_OFFSETS.get(key)
    if hit is None or hit[0] is not layout:
        offsets: np.ndarray | int = 0
        for k, lane in enumerate(layout.lanes):
            offsets = offsets + lane * tensor.strides[layout.dims[k]]
        whole = np.ascontiguousarray(np.broadcast_to(np.asarray(offsets, dtype=np.intp), layout.tile))
        whole.flags.writeable = False
        if len(_LANE_OFFSETS) >= _LANE_OFFSETS_KEPT:
            _LANE_OFFSETS.clear()
        hit = _LANE_OFFSETS[key] = (layout, whole, int(whole.max(initial=-1)) + 1)
    return Box(tensor.base + first * layout.itemsize, hit[1], hit[2], layout.itemsize)


def _check_index(view: TileView, index: Sequence[int | np.ndarray], gather: int | None) -> None:
    scalars = [(k, int(i)) for k, i in enumerate(index) if k != gather]
    if all(i < view.index_space[k] for k, i in scalars):
        return
    shown = tuple("[...]" if k == gather else int(i) for k, i in enumerate(index))  # type: ignore[arg-type]
    kind = view.type.name.removeprefix("cuda_tile.")
    raise OutOfRangeError(
        f"index {_tuple(shown)} is outside the index space {_tuple(view.index_space)} of "
        f"the {kind} (tile {_tuple(view.type.tile_shape)} over tensor "
        f"{_tuple(view.tensor.shape)})"
    )


def _tuple(items: Sequence[object]) -> str:
    return "(" + ", ".join(map(str, items)) + ")"

