"""Reductions and scans, the dialect's ``reduction`` family.

Reductions take a Python-style ``axis`` (negative counts from the end) and
``keepdims``; custom combiners are lambdas or ``@st.function``s of ``(x,
acc)`` on scalars, inlined into the ``reduce``/``scan`` body.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import ArrayAttr, BoolAttr, FloatAttr, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Block, Region

from safetile.dialects.cuda_tile.ops.control import YieldOp
from safetile.dialects.cuda_tile.ops.reduction import ReduceOp, ScanOp

from . import dsl
from .builtins import OPERATORS, call, implements
from .core import as_tile, axis_arg, describe, is_number, reshape, tile_arg
from .dsl import DType
from .types import TileValue, tile_type

if TYPE_CHECKING:
    from .lower import Lowerer


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
    t = tile_arg(lx, tile, "a reduction")
    if t.ndim == 0:
        raise lx.error("cannot reduce a scalar", "reduce tiles of rank 1 or more")
    dim = axis_arg(lx, axis, t.ndim)
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
        t = tile_arg(lx, tile, f"st.{dsl_fn.__name__}")
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
