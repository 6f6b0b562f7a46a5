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

import numpy as np
from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.types import (
    GatherScatterViewType,
    StridedViewType,
    TileViewType,
)

from . import values
from .errors import OutOfRangeError, UnsupportedError
from .values import TensorView, TileView


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def tile_view(t: TileViewType, tensor: TensorView) -> TileView:
    """The view of type ``t`` over ``tensor``."""
    if isinstance(t, GatherScatterViewType):
        space = tensor.shape
    else:
        steps = t.traversal_strides if isinstance(t, StridedViewType) else t.tile_shape
        space = tuple(_ceil_div(tensor.shape[d], s) for d, s in zip(t.dim_map, steps))
    return TileView(t, tensor, space)


def storage_itemsize_of(t: Attribute) -> int:
    """Bytes one element of type ``t`` takes in memory."""
    try:
        return values.storage_dtype(t).itemsize
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
    t = view.type
    tensor = view.tensor
    tile = t.tile_shape
    rank = len(tile)
    gather = t.sparse_dim if isinstance(t, GatherScatterViewType) else None
    if check:
        _check_index(view, index, gather)
    offsets = np.zeros((1,) * rank, dtype=np.int64)
    mask: np.ndarray | None = None
    for k in range(rank):
        if gather is not None:
            d = k
            if k == gather:
                coords = np.asarray(index[k], dtype=np.uint64)
            else:
                coords = np.uint64(index[k]) + np.arange(tile[k], dtype=np.uint64)
        else:
            d = t.dim_map[k]
            step = t.traversal_strides[k] if isinstance(t, StridedViewType) else tile[k]
            coords = np.uint64(int(index[k]) * step) + np.arange(tile[k], dtype=np.uint64)
        inside = coords < np.uint64(tensor.shape[d])
        along = [1] * rank
        along[k] = tile[k]
        if not inside.all():
            if check and k < len(inbounds) and inbounds[k]:
                raise OutOfRangeError(
                    f"tile dimension {k} is declared in bounds but its elements "
                    f"{int(coords[~inside][0])}.. lie outside the tensor dimension of "
                    f"size {tensor.shape[d]}"
                )
            coords = np.where(inside, coords, np.uint64(0))
            inside = inside.reshape(along)
            mask = inside if mask is None else mask & inside
        offsets = offsets + (coords.astype(np.int64) * tensor.strides[d]).reshape(along)
    item = storage_itemsize_of(tensor.element_type)
    addresses = np.uint64(tensor.base) + (offsets * item).astype(np.uint64)
    addresses = np.broadcast_to(addresses, tile)
    if mask is not None:
        mask = np.broadcast_to(mask, tile)
    return addresses, mask


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

