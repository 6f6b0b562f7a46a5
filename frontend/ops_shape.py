"""Tile creation, shape manipulation, reductions and scans, and ``mma``.

Shapes are compile-time tuples of power-of-two ints.  Reductions take a
Python-style ``axis`` (negative counts from the end) and ``keepdims``;
custom combiners are lambdas or ``@st.function``s of ``(x, acc)`` on
scalars, inlined into the ``reduce``/``scan`` body.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import ArrayAttr, BoolAttr, FloatAttr, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Block, Region

from safetile.dialects.cuda_tile.attributes import SignednessAttr
from safetile.dialects.cuda_tile.ops.control import YieldOp
from safetile.dialects.cuda_tile.ops.mma import MMAF_ACCUMULATORS, MmaFOp, MmaIOp
from safetile.dialects.cuda_tile.ops.reduction import ReduceOp, ScanOp
from safetile.dialects.cuda_tile.ops.shape import CatOp, ExtractOp, IotaOp, PackOp, PermuteOp, UnpackOp

from . import dsl
from .builtins import OPERATORS, call, implements, operator
from .core import as_tile, broadcast_to, check_shape, const, describe, index_value, is_number, reshape, signedness
from .dsl import DType
from .ops_arith import emit
from .types import TileValue, tile_type

if TYPE_CHECKING:
    from .lower import Lowerer


# --------------------------------------------------------------------------
# Creation
# --------------------------------------------------------------------------


def _dtype(lx: Lowerer, dtype: object) -> DType:
    if not isinstance(dtype, DType) or dtype.kind == "ptr":
        raise lx.error(f"expected an element type, got {describe(dtype)}", "e.g. st.f32 or a DType generic")
    return dtype


def _filled(lx: Lowerer, value: Any, shape: Any, dtype: Any) -> TileValue:
    """``shape`` filled with ``value``: a number, or a runtime scalar broadcast."""
    dims = check_shape(lx, shape)
    if isinstance(value, TileValue):
        if value.ndim != 0:
            raise lx.error(f"expected a scalar fill value, got {value.describe()}", "use st.broadcast for tiles")
        if dtype is not None and _dtype(lx, dtype) != value.dtype:
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
    return const(lx, value, _dtype(lx, dtype), dims)


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
    dtype = _dtype(lx, dtype)
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


def _tile(lx: Lowerer, value: Any, what: str) -> TileValue:
    if not isinstance(value, TileValue):
        raise lx.error(f"{what} needs a tile, got {describe(value)}")
    return value


@implements(dsl.reshape, dsl.Tile.reshape)
def _reshape(lx: Lowerer, tile: Any, shape: Any) -> TileValue:
    t = _tile(lx, tile, "reshape")
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
    t = _tile(lx, tile, "permute")
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
    t = _tile(lx, tile, "transpose")
    if t.ndim != 2:
        raise lx.error(f"transpose needs a 2-d tile, got {t.describe()}", "use st.permute for other ranks")
    return _permute(lx, t, (1, 0))


def _axis(lx: Lowerer, axis: Any, rank: int) -> int:
    if not isinstance(axis, int) or isinstance(axis, bool) or not -rank <= axis < rank:
        raise lx.error(
            f"axis {describe(axis)} is out of range for a tile of rank {rank}",
            f"use an int in [-{rank}, {rank - 1}]" if rank else "a scalar has no axes",
        )
    return axis % rank


@implements(dsl.cat)
def _cat(lx: Lowerer, a: Any, b: Any, axis: Any) -> TileValue:
    x, y = _tile(lx, a, "st.cat"), _tile(lx, b, "st.cat")
    if x.dtype != y.dtype:
        raise lx.error(
            f"element types differ in st.cat: {x.dtype.name} and {y.dtype.name}",
            f"convert one side explicitly, e.g. .astype(st.{x.dtype.name})",
        )
    if x.ndim != y.ndim:
        raise lx.error(f"st.cat needs tiles of one rank, got {x.describe()} and {y.describe()}")
    dim = _axis(lx, axis, x.ndim)
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
    t = _tile(lx, tile, "st.extract")
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
    t = _tile(lx, tile, what)
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
    t = _tile(lx, tile, "st.unpack")
    if t.dtype.name not in _INT_MMA:
        raise lx.error(f"st.unpack reads a tile of bytes (i8/u8), got {t.describe()}", "st.pack makes one")
    return _repack(lx, t, _dtype(lx, dtype), "st.unpack", UnpackOp)


# --------------------------------------------------------------------------
# Reductions and scans
# --------------------------------------------------------------------------

Combiner = Callable[[TileValue, TileValue], Any]


def _identity(lx: Lowerer, value: Any, dtype: DType) -> Attribute:
    if not is_number(value):
        raise lx.error(f"the identity must be a number, got {describe(value)}")
    if dtype.is_float:
        return FloatAttr(float(value), dtype.ir)
    bits = dtype.bits
    as_int = int(value) % 2**bits
    if as_int >= 2 ** (bits - 1) and bits > 1:
        as_int -= 2**bits  # IntegerAttr stores the signless bit pattern signed
    return IntegerAttr(as_int, IntegerType(bits))


def _aggregate(
    lx: Lowerer,
    tile: Any,
    axis: Any,
    combine: Combiner,
    identity: Any,
    scan: bool,
    reverse: bool = False,
    keepdims: bool = False,
) -> TileValue:
    """A ``reduce`` (or ``scan``) of ``tile`` along ``axis`` with ``combine``."""
    t = _tile(lx, tile, "a reduction")
    if t.ndim == 0:
        raise lx.error("cannot reduce a scalar", "reduce tiles of rank 1 or more")
    dim = _axis(lx, axis, t.ndim)
    scalar = tile_type((), t.dtype)
    block = Block(arg_types=[scalar, scalar])
    with lx.builder.at(block):
        result = combine(TileValue(block.args[0], t.dtype), TileValue(block.args[1], t.dtype))
        value = as_tile(lx, result, t.dtype, "the combiner result")
        if value.ndim != 0 or value.dtype != t.dtype:
            raise lx.error(
                f"the combiner must return a {t.dtype.name} scalar, got {value.describe()}",
                "combine the two scalars it receives into one of the same type",
            )
        lx.add(YieldOp(value.value))
    shape = t.shape if scan else t.shape[:dim] + t.shape[dim + 1 :]
    properties: dict[str, Attribute] = {
        "dim": IntegerAttr(dim, 32),
        "identities": ArrayAttr([_identity(lx, identity, t.dtype)]),
    }
    if scan:
        properties["reverse"] = BoolAttr.from_bool(bool(reverse))
    cls = ScanOp if scan else ReduceOp
    op = lx.add(
        cls.create(
            operands=[t.value],
            result_types=[tile_type(shape, t.dtype)],
            properties=properties,
            regions=[Region(block)],
        )
    )
    out = TileValue(op.results[0], t.dtype)
    if keepdims and not scan:
        out = reshape(lx, out, t.shape[:dim] + (1,) + t.shape[dim + 1 :])
    return out


def _combiner(lx: Lowerer, fn: Any) -> Combiner:
    return lambda x, acc: lx.call(fn, (x, acc), {})


def _op_combiner(lx: Lowerer, name: str) -> Combiner:
    """A combiner by name: a Python operator (``Add``) or ``max``/``min``."""
    if name in ("max", "min"):
        fn = dsl.maximum if name == "max" else dsl.minimum
        return lambda x, acc: call(lx, fn, (x, acc), {})
    return lambda x, acc: OPERATORS[name](lx, x, acc)


def _extreme(dtype: DType, largest: bool) -> float | int:
    if dtype.is_float:
        return float("-inf") if largest else float("inf")
    if dtype.kind == "int":
        return 2 ** (dtype.bits - 1) - 1 if not largest else -(2 ** (dtype.bits - 1))
    return 2**dtype.bits - 1 if not largest else 0


def _named_reduction(dsl_fn: Any, op: str, identity: Callable[[DType], Any]) -> None:
    @implements(dsl_fn)
    def lower(lx: Lowerer, tile: Any, axis: Any, keepdims: Any) -> TileValue:
        t = _tile(lx, tile, f"st.{dsl_fn.__name__}")
        if t.dtype.kind == "bool":
            raise lx.error(f"st.{dsl_fn.__name__} of bool values", "convert with .astype(st.i32) first")
        return _aggregate(lx, t, axis, _op_combiner(lx, op), identity(t.dtype), False, keepdims=keepdims)


_named_reduction(dsl.sum, "Add", lambda d: 0)
_named_reduction(dsl.prod, "Mult", lambda d: 1)
_named_reduction(dsl.max, "max", lambda d: _extreme(d, True))
_named_reduction(dsl.min, "min", lambda d: _extreme(d, False))


@implements(dsl.reduce)
def _reduce(lx: Lowerer, tile: Any, axis: Any, combiner: Any, identity: Any, keepdims: Any) -> TileValue:
    return _aggregate(lx, tile, axis, _combiner(lx, combiner), identity, False, keepdims=keepdims)


@implements(dsl.scan)
def _scan(lx: Lowerer, tile: Any, axis: Any, combiner: Any, identity: Any, reverse: Any) -> TileValue:
    return _aggregate(lx, tile, axis, _combiner(lx, combiner), identity, True, reverse)


@implements(dsl.cumsum)
def _cumsum(lx: Lowerer, tile: Any, axis: Any, reverse: Any) -> TileValue:
    return _aggregate(lx, tile, axis, _op_combiner(lx, "Add"), 0, True, reverse)


@implements(dsl.cumprod)
def _cumprod(lx: Lowerer, tile: Any, axis: Any, reverse: Any) -> TileValue:
    return _aggregate(lx, tile, axis, _op_combiner(lx, "Mult"), 1, True, reverse)


# --------------------------------------------------------------------------
# Matrix multiply
# --------------------------------------------------------------------------

_INT_MMA = ("i8", "u8")


def fresh_accumulator(lx: Lowerer, a: TileValue, b: TileValue) -> TileValue:
    """Zeros to accumulate ``a @ b`` into: f64 for f64, i32 for 8-bit ints, else f32."""
    if a.ndim not in (2, 3) or b.ndim != a.ndim:
        raise lx.error(
            f"'@' multiplies 2-d (or batched 3-d) tiles, got {a.describe()} and {b.describe()}",
            "reshape to [M, K] and [K, N]",
        )
    shape = a.shape[:-1] + b.shape[-1:]
    if a.dtype.name in _INT_MMA:
        return const(lx, 0, dsl.i32, shape)
    return const(lx, 0, dsl.f64 if a.dtype == dsl.f64 else dsl.f32, shape)


def mma(lx: Lowerer, a: TileValue, b: TileValue, acc: TileValue) -> TileValue:
    """``a @ b + acc`` with the checks of cuTile: ranks, inner dims, element types."""
    tiles = (a, b, acc)
    if a.ndim not in (2, 3) or any(t.ndim != a.ndim for t in tiles):
        raise lx.error(
            "mma needs 2-d (or batched 3-d) tiles of one rank, got "
            + ", ".join(t.describe() for t in tiles),
            "pass [M, K], [K, N] and [M, N] tiles",
        )
    (*batch_a, m, k), (*batch_b, k2, n), (*batch_c, m2, n2) = a.shape, b.shape, acc.shape
    if k != k2:
        raise lx.error(
            f"mma inner dimensions differ: a is {list(a.shape)} and b is {list(b.shape)} ({k} != {k2})",
            "a's last dimension must equal b's first (a: [M, K], b: [K, N])",
        )
    if (m, n) != (m2, n2) or batch_a != batch_b or batch_a != batch_c:
        raise lx.error(
            f"mma accumulator shape {list(acc.shape)} does not match a @ b: {[*batch_a, m, n]}",
            "the accumulator must be [M, N] for a: [M, K] and b: [K, N]",
        )
    mixed_signs = a.dtype.name in _INT_MMA and b.dtype.name in _INT_MMA
    if a.dtype != b.dtype and not mixed_signs:
        raise lx.error(
            f"mma operands have different element types: {a.dtype.name} and {b.dtype.name}",
            f"convert one of them, e.g. b.astype(st.{a.dtype.name})",
        )
    if a.dtype.name in _INT_MMA:
        if acc.dtype != dsl.i32:
            raise lx.error(
                f"an 8-bit integer mma accumulates into i32, got {acc.dtype.name}",
                "use an i32 accumulator (st.zeros(shape, st.i32))",
            )
        sign = [SignednessAttr(signedness(t.dtype)) for t in (a, b)]
        return emit(
            lx, MmaIOp, [a, b, acc], acc.dtype, acc.shape, signedness_lhs=sign[0], signedness_rhs=sign[1]
        )
    allowed = MMAF_ACCUMULATORS.get(a.dtype.ir) if a.dtype.is_float else None
    if allowed is None:
        raise lx.error(
            f"mma does not take {a.dtype.name} operands",
            "use f16, bf16, tf32, f32, f64, f8e4m3fn, f8e5m2, i8 or u8 operands",
        )
    if acc.dtype.ir not in allowed or not acc.dtype.is_float:
        names = ", ".join(str(t) for t in allowed)
        raise lx.error(
            f"mma of {a.dtype.name} operands cannot accumulate into {acc.dtype.name}",
            f"use an accumulator of {names}",
        )
    return emit(lx, MmaFOp, [a, b, acc], acc.dtype, acc.shape)


@implements(dsl.mma)
def _mma(lx: Lowerer, a: Any, b: Any, acc: Any) -> TileValue:
    return mma(lx, _tile(lx, a, "mma"), _tile(lx, b, "mma"), _tile(lx, acc, "mma"))


@operator("MatMult")
def _matmul(lx: Lowerer, a: Any, b: Any) -> TileValue:
    """``a @ b``: ``mma`` into a fresh f32 (floats), f64 (f64) or i32 (8-bit ints) accumulator."""
    if not isinstance(a, TileValue) or not isinstance(b, TileValue):
        raise lx.error("'@' needs two tiles", "multiply tiles of shapes [M, K] and [K, N]")
    return mma(lx, a, b, fresh_accumulator(lx, a, b))
