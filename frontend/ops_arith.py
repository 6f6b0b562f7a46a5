"""Arithmetic, the dialect's ``arith`` family: ``+ - * / // % **`` and their
explicit forms (rounding, flush-to-zero), ``st.fma``, ``st.mulhi``, minimum
and maximum, ``abs``, negation, logic, bitwise operators and shifts.

Python's operators keep Python's meaning where Tile IR can express it:
``/`` is true division (floats only: integers use ``//``), ``//`` rounds
toward negative infinity and ``%`` takes the divisor's sign.  Integer
signedness comes from the element type (``st.u32`` divides and shifts
unsigned).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.attributes import RoundingMode, RoundingModeAttr, SignednessAttr
from safetile.dialects.cuda_tile.ops import arith, math

from . import dsl
from .builtins import implements, operator
from .core import (
    IEEE_ROUNDINGS,
    as_tile,
    broadcast_to,
    const,
    constant_value,
    emit,
    ftz_attr,
    is_number,
    need,
    rounding_attr,
    signedness,
    unify,
)
from .ops_compare import compare_tiles, select_tiles
from .types import TileValue

if TYPE_CHECKING:
    from .lower import Lowerer


_ROUNDED = (arith.AddFOp, arith.SubFOp, arith.MulFOp, arith.DivFOp)
"""The float binary ops with a rounding mode (and flush-to-zero)."""


# --------------------------------------------------------------------------
# + - * / // % ** and their explicit forms
# --------------------------------------------------------------------------


def _float_or_int(
    lx: Lowerer,
    what: str,
    a: Any,
    b: Any,
    float_cls: type,
    int_cls: type | None,
    rounding: str = "nearest_even",
    ftz: bool = False,
) -> TileValue:
    x, y = unify(lx, what, a, b)
    if x.dtype.is_float:
        need(lx, x, what, "float")
        props: dict[str, Attribute | None] = {"flush_to_zero": ftz_attr(lx, ftz, x.dtype)}
        if float_cls in _ROUNDED:
            allowed = IEEE_ROUNDINGS if float_cls is not arith.DivFOp else (*IEEE_ROUNDINGS, RoundingMode.APPROX, RoundingMode.FULL)
            props["rounding_mode"] = rounding_attr(lx, rounding, allowed)
        return emit(lx, float_cls, [x, y], x.dtype, **props)
    if int_cls is None:
        raise lx.error(f"{what} needs float tiles, got {x.describe()}", "convert with .astype(st.f32)")
    if ftz or rounding != "nearest_even":
        raise lx.error(f"rounding and ftz apply to float tiles, not {x.describe()}", "drop them")
    need(lx, x, what, "int")
    return emit(lx, int_cls, [x, y], x.dtype)


@operator("Add")
def _add(lx: Lowerer, a: Any, b: Any) -> TileValue:
    return _float_or_int(lx, "+", a, b, arith.AddFOp, arith.AddIOp)


@operator("Sub")
def _sub(lx: Lowerer, a: Any, b: Any) -> TileValue:
    return _float_or_int(lx, "-", a, b, arith.SubFOp, arith.SubIOp)


@operator("Mult")
def _mul(lx: Lowerer, a: Any, b: Any) -> TileValue:
    return _float_or_int(lx, "*", a, b, arith.MulFOp, arith.MulIOp)


@operator("Div")
def _truediv(lx: Lowerer, a: Any, b: Any) -> TileValue:
    x = a if isinstance(a, TileValue) else b
    if isinstance(x, TileValue) and not x.dtype.is_float:
        raise lx.error(
            f"'/' is true division and needs float tiles, got {x.describe()}",
            "use '//' for integer division, or convert with .astype(st.f32)",
        )
    return _float_or_int(lx, "/", a, b, arith.DivFOp, None)


@implements(dsl.add)
def _add_fn(lx: Lowerer, a: Any, b: Any, rounding: str, ftz: bool) -> TileValue:
    return _float_or_int(lx, "st.add", a, b, arith.AddFOp, arith.AddIOp, rounding, ftz)


@implements(dsl.sub)
def _sub_fn(lx: Lowerer, a: Any, b: Any, rounding: str, ftz: bool) -> TileValue:
    return _float_or_int(lx, "st.sub", a, b, arith.SubFOp, arith.SubIOp, rounding, ftz)


@implements(dsl.mul)
def _mul_fn(lx: Lowerer, a: Any, b: Any, rounding: str, ftz: bool) -> TileValue:
    return _float_or_int(lx, "st.mul", a, b, arith.MulFOp, arith.MulIOp, rounding, ftz)


@implements(dsl.true_div)
def _true_div(lx: Lowerer, a: Any, b: Any, rounding: str, ftz: bool) -> TileValue:
    return _float_or_int(lx, "st.true_div", a, b, arith.DivFOp, None, rounding, ftz)


@implements(dsl.fma)
def _fma(lx: Lowerer, a: Any, b: Any, c: Any, rounding: str, ftz: bool) -> TileValue:
    x, y, z = unify(lx, "st.fma", a, b, c)
    need(lx, x, "st.fma", "float")
    return emit(
        lx,
        arith.FmaOp,
        [x, y, z],
        x.dtype,
        rounding_mode=rounding_attr(lx, rounding, IEEE_ROUNDINGS),
        flush_to_zero=ftz_attr(lx, ftz, x.dtype),
    )


def _refuse_zero_divisor(lx: Lowerer, what: str, divisor: TileValue) -> None:
    """Integer division by a constant zero is undefined on the device: refuse it here."""
    if constant_value(divisor) == 0:
        raise lx.error(f"integer {what} by the constant 0", "divide by a nonzero value (guard the divisor first)")


def _int_division(lx: Lowerer, what: str, a: Any, b: Any, mode: RoundingMode) -> TileValue:
    x, y = unify(lx, what, a, b)
    need(lx, x, what, "int")
    _refuse_zero_divisor(lx, what, y)
    if not x.dtype.signed and mode == RoundingMode.NEGATIVE_INF:
        mode = RoundingMode.ZERO  # the same for unsigned values, and the one allowed
    return emit(
        lx,
        arith.DivIOp,
        [x, y],
        x.dtype,
        signedness=SignednessAttr(signedness(x.dtype)),
        rounding=RoundingModeAttr(mode),
    )


@operator("FloorDiv")
def _floordiv(lx: Lowerer, a: Any, b: Any) -> TileValue:
    x, y = unify(lx, "//", a, b)
    if x.dtype.is_float:
        q = _float_or_int(lx, "//", x, y, arith.DivFOp, None)
        return emit(lx, math.FloorOp, [q], q.dtype)
    return _int_division(lx, "//", x, y, RoundingMode.NEGATIVE_INF)


@implements(dsl.ceil_div)
def _ceil_div(lx: Lowerer, a: Any, b: Any) -> Any:
    if is_number(a) and is_number(b):
        return lx.python(lambda p, q: -(-p // q), a, b)
    return _int_division(lx, "st.ceil_div", a, b, RoundingMode.POSITIVE_INF)


@operator("Mod")
def _mod(lx: Lowerer, a: Any, b: Any) -> TileValue:
    """Python's ``%``: the remainder takes the sign of the divisor."""
    x, y = unify(lx, "%", a, b)
    if x.dtype.is_float:
        need(lx, x, "%", "float")
        r = emit(lx, arith.RemFOp, [x, y], x.dtype)
    else:
        need(lx, x, "%", "int")
        _refuse_zero_divisor(lx, "%", y)
        r = emit(lx, arith.RemIOp, [x, y], x.dtype, signedness=SignednessAttr(signedness(x.dtype)))
        if not x.dtype.signed:
            return r
    if is_number(b):
        # A constant divisor fixes the sign to compare with.
        fix = compare_tiles(lx, "Lt" if b > 0 else "Gt", r, 0)
    else:
        nonzero = compare_tiles(lx, "NotEq", r, 0)
        signs_differ = compare_tiles(lx, "NotEq", compare_tiles(lx, "Lt", r, 0), compare_tiles(lx, "Lt", y, 0))
        fix = emit(lx, arith.AndIOp, [nonzero, signs_differ], dsl.bool_)
    return select_tiles(lx, fix, _add(lx, r, y), r)


@operator("Pow")
@implements(dsl.pow)
def _pow(lx: Lowerer, a: Any, b: Any) -> TileValue:
    if isinstance(b, TileValue) and b.dtype.kind == "int" and isinstance(a, TileValue):
        need(lx, a, "**", "float")
        if b.dtype.bits > 32:
            raise lx.error("integer exponents must have at most 32 bits", "convert with .astype(st.i32)")
        shape = a.shape if len(a.shape) >= len(b.shape) else b.shape
        return emit(lx, arith.FPowIOp, [broadcast_to(lx, a, shape), broadcast_to(lx, b, shape)], a.dtype)
    x, y = unify(lx, "**", a, b)
    need(lx, x, "**", "float")
    return emit(lx, arith.FPowFOp, [x, y], x.dtype)


@implements(dsl.mulhi)
def _mulhi(lx: Lowerer, a: Any, b: Any) -> TileValue:
    x, y = unify(lx, "st.mulhi", a, b)
    need(lx, x, "st.mulhi", "int")
    return emit(lx, arith.MulhiIOp, [x, y], x.dtype)


def _minmax(lx: Lowerer, what: str, a: Any, b: Any, propagate_nan: bool, ftz: bool, is_max: bool) -> TileValue:
    x, y = unify(lx, what, a, b)
    if x.dtype.is_float:
        need(lx, x, what, "float")
        return emit(
            lx,
            arith.MaxFOp if is_max else arith.MinFOp,
            [x, y],
            x.dtype,
            propagate_nan=UnitAttr() if propagate_nan else None,
            flush_to_zero=ftz_attr(lx, ftz, x.dtype),
        )
    need(lx, x, what, "int")
    return emit(
        lx,
        arith.MaxIOp if is_max else arith.MinIOp,
        [x, y],
        x.dtype,
        signedness=SignednessAttr(signedness(x.dtype)),
    )


@implements(dsl.maximum)
def _maximum(lx: Lowerer, a: Any, b: Any, propagate_nan: bool, ftz: bool) -> TileValue:
    return _minmax(lx, "st.maximum", a, b, propagate_nan, ftz, True)


@implements(dsl.minimum)
def _minimum(lx: Lowerer, a: Any, b: Any, propagate_nan: bool, ftz: bool) -> TileValue:
    return _minmax(lx, "st.minimum", a, b, propagate_nan, ftz, False)


# --------------------------------------------------------------------------
# Unary operators, logic, bitwise operators and shifts
# --------------------------------------------------------------------------


@operator("USub")
def _neg(lx: Lowerer, a: Any) -> TileValue:
    x = as_tile(lx, a)
    if x.dtype.is_float:
        need(lx, x, "unary -", "float")
        return emit(lx, arith.NegFOp, [x], x.dtype)
    need(lx, x, "unary -", "int")
    return emit(lx, arith.NegIOp, [x], x.dtype)


@operator("UAdd")
def _pos(lx: Lowerer, a: Any) -> TileValue:
    x = as_tile(lx, a)
    need(lx, x, "unary +", "number")
    return x


@operator("Invert")
def _invert(lx: Lowerer, a: Any) -> TileValue:
    x = as_tile(lx, a)
    need(lx, x, "~", "bits")
    ones = const(lx, 1 if x.dtype.kind == "bool" else (-1 if x.dtype.signed else 2**x.dtype.bits - 1), x.dtype, x.shape)
    return emit(lx, arith.XOrIOp, [x, ones], x.dtype)


@operator("Not")
def _not(lx: Lowerer, a: Any) -> TileValue:
    x = as_tile(lx, a)
    if x.dtype != dsl.bool_:
        return compare_tiles(lx, "Eq", x, 0)
    return _invert(lx, x)


@implements(dsl.abs)
def _abs(lx: Lowerer, x: Any) -> TileValue:
    t = as_tile(lx, x)
    if t.dtype.is_float:
        need(lx, t, "abs", "float")
        return emit(lx, arith.AbsFOp, [t], t.dtype)
    need(lx, t, "abs", "int")
    return emit(lx, arith.AbsIOp, [t], t.dtype)


def _logic(lx: Lowerer, what: str, a: Any, b: Any, cls: type) -> TileValue:
    x, y = unify(lx, what, a, b)
    need(lx, x, what, "bits")
    return emit(lx, cls, [x, y], x.dtype)


@operator("And")
def _and(lx: Lowerer, a: Any, b: Any) -> TileValue:
    x, y = unify(lx, "and", a, b)
    if x.dtype != dsl.bool_:
        raise lx.error(
            f"'and' needs bool values, got {x.describe()}", "compare first (x != 0), or use '&' for bits"
        )
    return emit(lx, arith.AndIOp, [x, y], x.dtype)


@operator("Or")
def _or(lx: Lowerer, a: Any, b: Any) -> TileValue:
    x, y = unify(lx, "or", a, b)
    if x.dtype != dsl.bool_:
        raise lx.error(
            f"'or' needs bool values, got {x.describe()}", "compare first (x != 0), or use '|' for bits"
        )
    return emit(lx, arith.OrIOp, [x, y], x.dtype)


@operator("BitAnd")
def _bitand(lx: Lowerer, a: Any, b: Any) -> TileValue:
    return _logic(lx, "&", a, b, arith.AndIOp)


@operator("BitOr")
def _bitor(lx: Lowerer, a: Any, b: Any) -> TileValue:
    return _logic(lx, "|", a, b, arith.OrIOp)


@operator("BitXor")
def _bitxor(lx: Lowerer, a: Any, b: Any) -> TileValue:
    return _logic(lx, "^", a, b, arith.XOrIOp)


@operator("LShift")
def _shl(lx: Lowerer, a: Any, b: Any) -> TileValue:
    x, y = unify(lx, "<<", a, b)
    need(lx, x, "<<", "int")
    return emit(lx, arith.ShLIOp, [x, y], x.dtype)


@operator("RShift")
def _shr(lx: Lowerer, a: Any, b: Any) -> TileValue:
    """Arithmetic shift for signed types, logical for unsigned ones."""
    x, y = unify(lx, ">>", a, b)
    need(lx, x, ">>", "int")
    return emit(lx, arith.ShRIOp, [x, y], x.dtype, signedness=SignednessAttr(signedness(x.dtype)))
