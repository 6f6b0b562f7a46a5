"""Tile creation and shape manipulation, the dialect's ``shape`` family.

Shapes are compile-time tuples of power-of-two ints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from safetile.dialects.cuda_tile.ops.shape import CatOp, ExtractOp, IotaOp, PackOp, PermuteOp, UnpackOp

from . import dsl
from .builtins import implements
from .core import (
    as_tile,
    axis_arg,
    broadcast_to,
    check_shape,
    const,
    describe,
    dtype_arg,
    index_value,
    is_number,
    reshape,
    tile_arg,
)
from .dsl import DType
from .ops_mma import INT_MMA
from .types import TileValue, tile_type

if TYPE_CHECKING:
    from .lower import Lowerer


# --------------------------------------------------------------------------
# Creation
# --------------------------------------------------------------------------


def _filled(lx: Lowerer, value: Any, shape: Any, dtype: Any) -> TileValue:
    """``shape`` filled with ``value``: a number, or a runtime scalar broadcast."""
    dims = check_shape(lx, shape)
    if isinstance(value, TileValue):
        if value.ndim != 0:
            raise lx.error(f"expected a scalar fill value, got {value.describe()}", "use st.broadcast for tiles")
        if dtype is not None and dtype_arg(lx, dtype) != value.dtype:
            raise lx.error(
                f"the fill value is {value.dtype.name}, not {dtype.name}",
                f"convert it first: value.astype(st.{dtype.name})",
            )
        return broadcast_to(lx, value, dims)
    if not is_number(value):
        raise lx.error(f"expected a number or a scalar to fill with, got {describe(value)}")
    if dtype is None:
        raise lx.error(
            f"the element type of a constant {value!r} tile is not known",
            "pass dtype=..., e.g. st.full(shape, 0.0, st.f32)",
        )
    return const(lx, value, dtype_arg(lx, dtype), dims)


@implements(dsl.zeros)
def _zeros(lx: Lowerer, shape: Any, dtype: Any) -> TileValue:
    return _filled(lx, 0, shape, dtype)


@implements(dsl.ones)
def _ones(lx: Lowerer, shape: Any, dtype: Any) -> TileValue:
    return _filled(lx, 1, shape, dtype)


@implements(dsl.full)
def _full(lx: Lowerer, shape: Any, value: Any, dtype: Any) -> TileValue:
    return _filled(lx, value, shape, dtype)


@implements(dsl.constant, dsl.broadcast_scalar)
def _constant(lx: Lowerer, value: Any, shape: Any, dtype: Any) -> TileValue:
    if dtype is None and is_number(value):
        dtype = dsl.f32 if isinstance(value, float) else dsl.i32
    return _filled(lx, value, shape, dtype)


@implements(dsl.iota)
def _iota(lx: Lowerer, shape: Any, dtype: Any) -> TileValue:
    dims = check_shape(lx, shape)
    dtype = dtype_arg(lx, dtype)
    if len(dims) != 1 or not dtype.is_int or dtype.kind == "bool":
        raise lx.error(
            f"st.iota makes a 1-d integer tile, got shape {dims} and {dtype.name}",
            "reshape/broadcast the 1-d result, and convert with .astype() for floats",
        )
    op = lx.add(IotaOp(tile_type(dims, dtype)))
    return TileValue(op.result, dtype)


# --------------------------------------------------------------------------
# Shape manipulation
# --------------------------------------------------------------------------


@implements(dsl.reshape, dsl.Tile.reshape)
def _reshape(lx: Lowerer, tile: Any, shape: Any) -> TileValue:
    t = tile_arg(lx, tile, "reshape")
    dims = check_shape(lx, shape) if shape != () else ()
    count = 1
    for d in dims:
        count *= d
    if count != (n := _count(t.shape)):
        raise lx.error(
            f"cannot reshape {t.describe()} ({n} elements) to {dims} ({count} elements)",
            "a reshape keeps the number of elements",
        )
    return reshape(lx, t, dims)


def _count(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


@implements(dsl.broadcast, dsl.Tile.broadcast)
def _broadcast(lx: Lowerer, tile: Any, shape: Any) -> TileValue:
    t = as_tile(lx, tile)
    return broadcast_to(lx, t, check_shape(lx, shape))


@implements(dsl.permute, dsl.Tile.permute)
def _permute(lx: Lowerer, tile: Any, perm: Any) -> TileValue:
    t = tile_arg(lx, tile, "permute")
    if not isinstance(perm, tuple) or sorted(perm) != list(range(t.ndim)):
        raise lx.error(
            f"{describe(perm)} is not a permutation of the {t.ndim} dimensions of {t.describe()}",
            f"list each of 0..{t.ndim - 1} once",
        )
    if t.ndim < 2:
        raise lx.error("permute needs a tile of rank 2 or more")
    shape = tuple(t.shape[p] for p in perm)
    op = lx.add(PermuteOp(t.value, list(perm), tile_type(shape, t.dtype)))
    return TileValue(op.result, t.dtype)


@implements(dsl.transpose, dsl.Tile.T)
def _transpose(lx: Lowerer, tile: Any) -> TileValue:
    t = tile_arg(lx, tile, "transpose")
    if t.ndim != 2:
        raise lx.error(f"transpose needs a 2-d tile, got {t.describe()}", "use st.permute for other ranks")
    return _permute(lx, t, (1, 0))


@implements(dsl.cat)
def _cat(lx: Lowerer, a: Any, b: Any, axis: Any) -> TileValue:
    x, y = tile_arg(lx, a, "st.cat"), tile_arg(lx, b, "st.cat")
    if x.dtype != y.dtype:
        raise lx.error(
            f"element types differ in st.cat: {x.dtype.name} and {y.dtype.name}",
            f"convert one side explicitly, e.g. .astype(st.{x.dtype.name})",
        )
    if x.ndim != y.ndim:
        raise lx.error(f"st.cat needs tiles of one rank, got {x.describe()} and {y.describe()}")
    dim = axis_arg(lx, axis, x.ndim)
    if any(p != q for i, (p, q) in enumerate(zip(x.shape, y.shape)) if i != dim):
        raise lx.error(
            f"shapes differ outside axis {dim} in st.cat: {x.shape} and {y.shape}",
            "only the concatenation axis may differ",
        )
    shape = tuple(p + q if i == dim else p for i, (p, q) in enumerate(zip(x.shape, y.shape)))
    check_shape(lx, shape, "the concatenated shape")
    op = lx.add(CatOp(x.value, y.value, dim, tile_type(shape, x.dtype)))
    return TileValue(op.result, x.dtype)


@implements(dsl.extract)
def _extract(lx: Lowerer, tile: Any, index: Any, shape: Any) -> TileValue:
    t = tile_arg(lx, tile, "st.extract")
    dims = check_shape(lx, shape)
    if len(dims) != t.ndim or any(w % p for w, p in zip(t.shape, dims)):
        raise lx.error(
            f"{dims} does not evenly tile {t.describe()}",
            "the sub-tile shape must have the tile's rank and divide each dimension",
        )
    if not isinstance(index, tuple) or len(index) != t.ndim:
        raise lx.error(f"st.extract needs {t.ndim} indices, got {describe(index)}")
    indices = [index_value(lx, i).value for i in index]
    op = lx.add(ExtractOp(t.value, indices, tile_type(dims, t.dtype)))
    return TileValue(op.result, t.dtype)


def _repack(lx: Lowerer, tile: Any, dtype: DType, what: str, cls: type) -> TileValue:
    """``tile``'s bits as a 1-d tile of ``dtype`` (``pack``/``unpack``)."""
    t = tile_arg(lx, tile, what)
    bits = t.shape[0] * t.dtype.bits if t.ndim == 1 else 0
    if t.ndim != 1 or t.dtype.kind == "ptr" or bits % dtype.bits or t.dtype.bits == dtype.bits:
        raise lx.error(
            f"{what} cannot turn {t.describe()} into {dtype.name} elements",
            "pack/unpack take 1-d number tiles whose element width differs from the result's",
        )
    op = lx.add(cls(t.value, tile_type((bits // dtype.bits,), dtype)))
    return TileValue(op.result, dtype)


@implements(dsl.pack)
def _pack(lx: Lowerer, tile: Any) -> TileValue:
    return _repack(lx, tile, dsl.u8, "st.pack", PackOp)


@implements(dsl.unpack)
def _unpack(lx: Lowerer, tile: Any, dtype: Any) -> TileValue:
    t = tile_arg(lx, tile, "st.unpack")
    if t.dtype.name not in INT_MMA:
        raise lx.error(f"st.unpack reads a tile of bytes (i8/u8), got {t.describe()}", "st.pack makes one")
    return _repack(lx, t, dtype_arg(lx, dtype), "st.unpack", UnpackOp)
