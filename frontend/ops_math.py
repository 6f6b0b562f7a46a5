"""Math functions, the dialect's ``math`` family: ``st.exp``, ``st.exp2``,
``st.tanh``, ``st.sqrt``, ``st.rsqrt``, ``st.log``, ``st.sin``... and
``st.atan2``, on float tiles."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.attributes import RoundingMode, RoundingModeAttr
from safetile.dialects.cuda_tile.ops import math

from . import dsl
from .builtins import implements
from .core import IEEE_ROUNDINGS, as_tile, emit, ftz_attr, need, rounding_attr, unify
from .types import TileValue

if TYPE_CHECKING:
    from .lower import Lowerer


def _float_unary(lx: Lowerer, name: str, x: Any, cls: type, **props: Attribute | None) -> TileValue:
    t = as_tile(lx, x, dsl.f32)
    need(lx, t, f"st.{name}", "float")
    return emit(lx, cls, [t], t.dtype, **props)


def _approx(approx: bool) -> RoundingModeAttr:
    return RoundingModeAttr(RoundingMode.APPROX if approx else RoundingMode.FULL)


@implements(dsl.exp)
def _exp(lx: Lowerer, x: Any, approx: bool) -> TileValue:
    return _float_unary(lx, "exp", x, math.ExpOp, rounding_mode=_approx(approx))


@implements(dsl.tanh)
def _tanh(lx: Lowerer, x: Any, approx: bool) -> TileValue:
    return _float_unary(lx, "tanh", x, math.TanHOp, rounding_mode=_approx(approx))


@implements(dsl.exp2)
def _exp2(lx: Lowerer, x: Any, ftz: bool) -> TileValue:
    t = as_tile(lx, x, dsl.f32)
    return _float_unary(lx, "exp2", t, math.Exp2Op, flush_to_zero=ftz_attr(lx, ftz, t.dtype))


@implements(dsl.rsqrt)
def _rsqrt(lx: Lowerer, x: Any, ftz: bool) -> TileValue:
    t = as_tile(lx, x, dsl.f32)
    return _float_unary(lx, "rsqrt", t, math.RsqrtOp, flush_to_zero=ftz_attr(lx, ftz, t.dtype))


@implements(dsl.sqrt)
def _sqrt(lx: Lowerer, x: Any, rounding: str, ftz: bool) -> TileValue:
    t = as_tile(lx, x, dsl.f32)
    return _float_unary(
        lx,
        "sqrt",
        t,
        math.SqrtOp,
        rounding_mode=rounding_attr(lx, rounding, (*IEEE_ROUNDINGS, RoundingMode.APPROX)),
        flush_to_zero=ftz_attr(lx, ftz, t.dtype),
    )


def _plain_unary(dsl_fn: Any, cls: type) -> None:
    name = dsl_fn.__name__

    @implements(dsl_fn)
    def lower(lx: Lowerer, x: Any) -> TileValue:
        return _float_unary(lx, name, x, cls)


for _fn, _cls in (
    (dsl.log, math.LogOp),
    (dsl.log2, math.Log2Op),
    (dsl.sin, math.SinOp),
    (dsl.cos, math.CosOp),
    (dsl.tan, math.TanOp),
    (dsl.sinh, math.SinHOp),
    (dsl.cosh, math.CosHOp),
    (dsl.ceil, math.CeilOp),
    (dsl.floor, math.FloorOp),
):
    _plain_unary(_fn, _cls)


@implements(dsl.atan2)
def _atan2(lx: Lowerer, x: Any, y: Any) -> TileValue:
    a, b = unify(lx, "st.atan2", x, y)
    need(lx, a, "st.atan2", "float")
    return emit(lx, math.Atan2Op, [a, b], a.dtype)
