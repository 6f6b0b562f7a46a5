"""IR helpers every lowering shares: constants, operand typing, broadcasting.

These apply the typing rules of ``frontend.types`` and emit the ops that
implement them.  ``lx`` is the ``Lowerer`` of the function being compiled:
it appends ops (``lx.add``) and raises errors at the current source node
(``lx.error``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.attributes import Signedness
from safetile.dialects.cuda_tile.ops.compare import CmpFOp, CmpIOp
from safetile.dialects.cuda_tile.ops.conversion import ExtIOp, FToFOp, FToIOp, IToFOp, TruncIOp
from safetile.dialects.cuda_tile.ops.shape import BroadcastOp, ConstantOp, ReshapeOp
from safetile.dialects.cuda_tile.types import MAX_TILE_ELEMENTS
from safetile.dialects.cuda_tile.attributes import ComparisonOrdering, ComparisonPredicate, RoundingMode, RoundingModeAttr

from . import dsl
from .dsl import DType
from .types import TileValue, broadcast_shapes, fits, is_pow2, python_dtype, tile_type

if TYPE_CHECKING:
    from .lower import Lowerer

NUMBER = (bool, int, float)


def is_number(value: object) -> bool:
    return isinstance(value, NUMBER)


def check_shape(lx: Lowerer, shape: object, what: str = "tile shape") -> tuple[int, ...]:
    """A static tile shape: a tuple of power-of-two ints (an int is a 1-d shape)."""
    if isinstance(shape, int) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, tuple) or not all(
        isinstance(d, int) and not isinstance(d, bool) for d in shape
    ):
        raise lx.error(
            f"{what} must be a tuple of compile-time ints, got {describe(shape)}",
            "use literal ints or int generics (e.g. (BM, BN)) for tile shapes",
        )
    bad = [d for d in shape if not is_pow2(d)]
    if bad:
        raise lx.error(
            f"tile dimensions must be powers of two, got {shape}",
            "choose power-of-two tile sizes; edge tiles of a tensor are handled by partitions",
        )
    if too_large(shape):
        raise lx.error(too_large(shape), "use smaller tiles and loop over the rest")
    return shape


def too_large(shape: tuple[int, ...]) -> str:
    """Why a tile of ``shape`` cannot exist in Tile IR, or "" if it can."""
    elements = math.prod(shape)
    if elements <= MAX_TILE_ELEMENTS:
        return ""
    return f"a tile of shape {shape} has {elements} elements; Tile IR tiles hold at most {MAX_TILE_ELEMENTS}"


def describe(value: object) -> str:
    """How a value is named in messages."""
    if isinstance(value, TileValue):
        return value.describe()
    if isinstance(value, DType):
        return repr(value)
    if isinstance(value, NUMBER) or value is None or isinstance(value, str):
        return repr(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(describe(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return type(value).__name__.removesuffix("Value").lower()


def const(lx: Lowerer, value: object, dtype: DType, shape: tuple[int, ...] = ()) -> TileValue:
    """A constant tile of ``dtype`` holding the Python number ``value``."""
    if not is_number(value):
        raise lx.error(f"expected a number, got {describe(value)}")
    if dtype.is_int and isinstance(value, float):
        if not value.is_integer():
            raise lx.error(
                f"{value!r} is a float, but the tile is {dtype.name}",
                "use an integer literal, or convert the tile with .astype(st.f32)",
            )
        value = int(value)
    if dtype.is_int and not fits(int(value), dtype):
        raise lx.error(
            f"{value!r} does not fit in {dtype.name}",
            "use a smaller constant or a wider element type",
        )
    if dtype.kind == "bool":
        value = bool(value)
    op = lx.add(ConstantOp.splat(tile_type(shape, dtype), value))
    return TileValue(op.result, dtype)


def constant_value(tile: TileValue) -> int | float | bool | None:
    """The value of a splat constant tile (every element equal), else None."""
    op = tile.value.owner
    if not isinstance(op, ConstantOp):
        return None
    values = set(op.value.get_values())
    return values.pop() if len(values) == 1 else None


def as_tile(lx: Lowerer, value: object, dtype: DType | None = None, what: str = "operand") -> TileValue:
    """``value`` as a tile: a tile stays, a Python number becomes a constant."""
    if isinstance(value, TileValue):
        return value
    if is_number(value):
        return const(lx, value, dtype or python_dtype(value))
    raise lx.error(f"expected a tile for {what}, got {describe(value)}")


def shaped(lx: Lowerer, value: object, dtype: DType, shape: tuple[int, ...], what: str) -> TileValue:
    """``value`` (a number, or a tile of ``dtype``) as a ``dtype`` tile of ``shape``."""
    if is_number(value):
        return const(lx, value, dtype, shape)
    tile = as_tile(lx, value, dtype, what)
    if tile.dtype != dtype:
        raise lx.error(
            f"{what} must be {dtype.name}, got {tile.describe()}",
            f"convert explicitly: .astype(st.{dtype.name})",
        )
    return broadcast_to(lx, tile, shape)


def reshape(lx: Lowerer, tile: TileValue, shape: tuple[int, ...]) -> TileValue:
    if tile.shape == shape:
        return tile
    op = lx.add(ReshapeOp(tile.value, tile_type(shape, tile.dtype)))
    return TileValue(op.result, tile.dtype)


def broadcast_to(lx: Lowerer, tile: TileValue, shape: tuple[int, ...]) -> TileValue:
    """``tile`` stretched to ``shape`` by NumPy's rules (reshape, then broadcast)."""
    if tile.shape == shape:
        return tile
    if broadcast_shapes(tile.shape, shape) != shape:
        raise lx.error(
            f"cannot broadcast {tile.describe()} to shape {shape}",
            "dimensions must be equal or 1 (aligned from the right); reshape first",
        )
    ranked = reshape(lx, tile, (1,) * (len(shape) - tile.ndim) + tile.shape)
    if ranked.shape == shape:
        return ranked
    op = lx.add(BroadcastOp(ranked.value, tile_type(shape, tile.dtype)))
    return TileValue(op.result, tile.dtype)


def unify(lx: Lowerer, what: str, *operands: object) -> list[TileValue]:
    """Operands of an element-wise op: one element type, one broadcast shape.

    Python numbers take the element type of the tiles; tiles must already
    agree (no implicit conversion).
    """
    tiles = [v for v in operands if isinstance(v, TileValue)]
    for v in operands:
        if not isinstance(v, TileValue) and not is_number(v):
            raise lx.error(f"unsupported operand for {what}: {describe(v)}")
    dtype = tiles[0].dtype if tiles else python_dtype(_widest(operands))
    for t in tiles[1:]:
        if t.dtype != dtype:
            raise lx.error(
                f"element types differ in {what}: {dtype.name} and {t.dtype.name}",
                f"convert one side explicitly, e.g. x.astype(st.{dtype.name})",
            )
    shape: tuple[int, ...] = ()
    for t in tiles:
        combined = broadcast_shapes(shape, t.shape)
        if combined is None:
            shapes = " and ".join(str(x.shape) for x in tiles)
            raise lx.error(
                f"shapes do not broadcast in {what}: {shapes}",
                "dimensions must be equal or 1 (aligned from the right); reshape or broadcast first",
            )
        shape = combined
    return [
        broadcast_to(lx, v, shape) if isinstance(v, TileValue) else const(lx, v, dtype, shape)
        for v in operands
    ]


def _widest(values: tuple[object, ...]) -> object:
    """Among Python numbers, a float if any is one (so 1 + 2.0 is f32)."""
    return next((v for v in values if isinstance(v, float)), values[0])


def signedness(dtype: DType) -> Signedness:
    return Signedness.UNSIGNED if dtype.kind in ("uint", "bool") else Signedness.SIGNED


def convert(
    lx: Lowerer,
    tile: TileValue,
    dtype: DType,
    rounding: str | None = None,
    saturate: bool = False,
) -> TileValue:
    """Value-preserving element-type conversion (``astype``)."""
    src = tile.dtype
    if src == dtype:
        return tile
    result_type = tile_type(tile.shape, dtype)
    if src.kind == "ptr" or dtype.kind == "ptr":
        raise lx.error(
            "pointers convert with st.ptr_to_int / st.int_to_ptr / st.ptr_to_ptr",
            "use the explicit pointer casts inside st.unsafe()",
        )
    if dtype.kind == "bool":
        zero = const(lx, 0, src, tile.shape)
        if src.is_float:
            op = lx.add(CmpFOp(ComparisonPredicate.NOT_EQUAL, ComparisonOrdering.UNORDERED, tile.value, zero.value))
        else:
            op = lx.add(CmpIOp(ComparisonPredicate.NOT_EQUAL, tile.value, zero.value, Signedness.SIGNED))
        return TileValue(op.result, dtype)
    if src.is_float and dtype.is_float:
        mode = RoundingMode(rounding) if rounding else RoundingMode.NEAREST_EVEN
        return TileValue(lx.add(FToFOp(tile.value, result_type, mode)).to, dtype)
    if src.is_float:
        return TileValue(lx.add(FToIOp(tile.value, result_type, signedness(dtype), saturate)).to, dtype)
    if dtype.is_float:
        return TileValue(lx.add(IToFOp(tile.value, result_type, signedness(src))).to, dtype)
    # Integer to integer: same width only changes how later ops read it.
    if src.bits == dtype.bits:
        return TileValue(tile.value, dtype)
    if src.bits < dtype.bits:
        return TileValue(lx.add(ExtIOp(tile.value, result_type, signedness(src))).to, dtype)
    return TileValue(lx.add(TruncIOp(tile.value, result_type)).to, dtype)


def index_value(lx: Lowerer, value: object, what: str = "index") -> TileValue:
    """An i32 scalar index (a Python int or a 0-d integer tile)."""
    if isinstance(value, TileValue):
        if value.ndim != 0 or not value.dtype.is_int or value.dtype.kind == "bool":
            raise lx.error(
                f"{what} must be an integer scalar, got {value.describe()}",
                "indices are ints or i32 scalars such as tile_block_id() components",
            )
        return convert(lx, value, dsl.i32) if value.dtype.bits != 32 else value
    if isinstance(value, int) and not isinstance(value, bool):
        return const(lx, value, dsl.i32)
    raise lx.error(f"{what} must be an integer, got {describe(value)}")


# --------------------------------------------------------------------------
# Shared by the op families: emitting an op, checking operands
# --------------------------------------------------------------------------


BASE_FLOATS = ("f16", "bf16", "f32", "f64")


def emit(
    lx: Lowerer,
    cls: type,
    operands: list[TileValue],
    dtype: DType,
    shape: tuple[int, ...] | None = None,
    **props: Attribute | None,
) -> TileValue:
    """Build ``cls`` on ``operands``; the result has ``dtype`` and ``shape``
    (by default the first operand's)."""
    op = lx.add(
        cls.build(
            operands=[o.value for o in operands],
            result_types=[tile_type(operands[0].shape if shape is None else shape, dtype)],
            properties={k: v for k, v in props.items() if v is not None},
        )
    )
    return TileValue(op.results[0], dtype)


def rounding_attr(lx: Lowerer, mode: str, allowed: tuple[RoundingMode, ...]) -> RoundingModeAttr:
    try:
        value = RoundingMode(mode)
    except ValueError:
        value = None
    if value not in allowed:
        names = ", ".join(repr(m.value) for m in allowed)
        raise lx.error(f"unknown rounding mode {mode!r} here", f"use one of {names}")
    return RoundingModeAttr(value)


IEEE_ROUNDINGS = (
    RoundingMode.NEAREST_EVEN,
    RoundingMode.ZERO,
    RoundingMode.NEGATIVE_INF,
    RoundingMode.POSITIVE_INF,
)


def ftz_attr(lx: Lowerer, ftz: bool, dtype: DType) -> UnitAttr | None:
    if ftz and dtype != dsl.f32:
        raise lx.error(
            f"flush-to-zero needs f32 tiles, got {dtype.name}", "drop ftz=True or compute in f32"
        )
    return UnitAttr() if ftz else None


def need(lx: Lowerer, t: TileValue, what: str, kinds: str) -> None:
    """``t``'s element type must be of ``kinds`` (``float``, ``int`` or ``bits``)."""
    dtype = t.dtype
    ok = {
        "float": dtype.name in BASE_FLOATS,
        "int": dtype.kind in ("int", "uint"),
        "bits": dtype.kind in ("int", "uint", "bool"),
        "number": dtype.name in BASE_FLOATS or dtype.kind in ("int", "uint"),
    }[kinds]
    if ok:
        return
    wanted = {
        "float": "f16, bf16, f32 or f64 tiles",
        "int": "integer tiles",
        "bits": "integer or bool tiles",
        "number": "integer or f16/bf16/f32/f64 tiles",
    }[kinds]
    hint = (
        "convert first, e.g. x.astype(st.f32)"
        if kinds in ("float", "number")
        else "convert first, e.g. x.astype(st.i32)"
    )
    raise lx.error(f"{what} needs {wanted}, got {t.describe()}", hint)




def dtype_arg(lx: Lowerer, dtype: object) -> DType:
    """``dtype`` if it is an element type (not a pointer), else an error."""
    if not isinstance(dtype, DType) or dtype.kind == "ptr":
        raise lx.error(f"expected an element type, got {describe(dtype)}", "e.g. st.f32 or a DType generic")
    return dtype




def tile_arg(lx: Lowerer, value: Any, what: str) -> TileValue:
    if not isinstance(value, TileValue):
        raise lx.error(f"{what} needs a tile, got {describe(value)}")
    return value


def axis_arg(lx: Lowerer, axis: Any, rank: int) -> int:
    if not isinstance(axis, int) or isinstance(axis, bool) or not -rank <= axis < rank:
        raise lx.error(
            f"axis {describe(axis)} is out of range for a tile of rank {rank}",
            f"use an int in [-{rank}, {rank - 1}]" if rank else "a scalar has no axes",
        )
    return axis % rank
