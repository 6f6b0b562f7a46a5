"""Matrix multiply, the dialect's ``mma`` family: ``st.mma(a, b, acc)`` and
``a @ b`` (into a fresh accumulator), with cuTile's checks of ranks, inner
dimensions and element types."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from safetile.dialects.cuda_tile.attributes import SignednessAttr
from safetile.dialects.cuda_tile.ops.mma import MMAF_ACCUMULATORS, MmaFOp, MmaIOp

from . import dsl
from .builtins import implements, operator
from .core import const, emit, signedness, tile_arg
from .types import TileValue

if TYPE_CHECKING:
    from .lower import Lowerer


INT_MMA = ("i8", "u8")


def fresh_accumulator(lx: Lowerer, a: TileValue, b: TileValue) -> TileValue:
    """Zeros to accumulate ``a @ b`` into: f64 for f64, i32 for 8-bit ints, else f32."""
    if a.ndim not in (2, 3) or b.ndim != a.ndim:
        raise lx.error(
            f"'@' multiplies 2-d (or batched 3-d) tiles, got {a.describe()} and {b.describe()}",
            "reshape to [M, K] and [K, N]",
        )
    shape = a.shape[:-1] + b.shape[-1:]
    if a.dtype.name in INT_MMA:
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
    mixed_signs = a.dtype.name in INT_MMA and b.dtype.name in INT_MMA
    if a.dtype != b.dtype and not mixed_signs:
        raise lx.error(
            f"mma operands have different element types: {a.dtype.name} and {b.dtype.name}",
            f"convert one of them, e.g. b.astype(st.{a.dtype.name})",
        )
    if a.dtype.name in INT_MMA:
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
    return mma(lx, tile_arg(lx, a, "mma"), tile_arg(lx, b, "mma"), tile_arg(lx, acc, "mma"))


@operator("MatMult")
def _matmul(lx: Lowerer, a: Any, b: Any) -> TileValue:
    """``a @ b``: ``mma`` into a fresh f32 (floats), f64 (f64) or i32 (8-bit ints) accumulator."""
    if not isinstance(a, TileValue) or not isinstance(b, TileValue):
        raise lx.error("'@' needs two tiles", "multiply tiles of shapes [M, K] and [K, N]")
    return mma(lx, a, b, fresh_accumulator(lx, a, b))
