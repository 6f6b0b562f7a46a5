"""Element-wise operations: operators, math, comparison, selection, bitwise, conversions.

Python's operators keep Python's meaning where Tile IR can express it:
``/`` is true division (floats only: integers use ``//``), ``//`` rounds
toward negative infinity and ``%`` takes the divisor's sign, comparisons
give ``bool`` tiles (``!=`` is true for NaN); ``@`` is lowered with ``mma``
(``ops_shape``).  Integer signedness comes from the
element type (``st.u32`` divides, compares and shifts unsigned).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.attributes import (
    ComparisonOrdering,
    ComparisonOrderingAttr,
    ComparisonPredicate,
    ComparisonPredicateAttr,
    RoundingMode,
    RoundingModeAttr,
    SignednessAttr,
)
from safetile.dialects.cuda_tile.ops import arith, math
from safetile.dialects.cuda_tile.ops.compare import CmpFOp, CmpIOp, SelectOp
from safetile.dialects.cuda_tile.ops.conversion import BitcastOp

from . import dsl
from .builtins import implements, operator
from .core import as_tile, broadcast_to, const, constant_value, convert, describe, is_number, signedness, unify
from .dsl import DType
from .types import TileValue, broadcast_shapes, tile_type

if TYPE_CHECKING:
    from .lower import Lowerer

_BASE_FLOATS = ("f16", "bf16", "f32", "f64")


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


def _rounding(lx: Lowerer, mode: str, allowed: tuple[RoundingMode, ...]) -> RoundingModeAttr:
    try:
        value = RoundingMode(mode)
    except ValueError:
        value = None
    if value not in allowed:
        names = ", ".join(repr(m.value) for m in allowed)
        raise lx.error(f"unknown rounding mode {mode!r} here", f"use one of {names}")
    return RoundingModeAttr(value)


_IEEE = (
    RoundingMode.NEAREST_EVEN,
    RoundingMode.ZERO,
    RoundingMode.NEGATIVE_INF,
    RoundingMode.POSITIVE_INF,
)


_ROUNDED = (arith.AddFOp, arith.SubFOp, arith.MulFOp, arith.DivFOp)
"""The float binary ops with a rounding mode (and flush-to-zero)."""


def _ftz(lx: Lowerer, ftz: bool, dtype: DType) -> UnitAttr | None:
    if ftz and dtype != dsl.f32:
        raise lx.error(
            f"flush-to-zero needs f32 tiles, got {dtype.name}", "drop ftz=True or compute in f32"
        )
    return UnitAttr() if ftz else None


def _need(lx: Lowerer, t: TileValue, what: str, kinds: str) -> None:
    """``t``'s element type must be of ``kinds`` (``float``, ``int`` or ``bits``)."""
    dtype = t.dtype
    ok = {
        "float": dtype.name in _BASE_FLOATS,
        "int": dtype.kind in ("int", "uint"),
        "bits": dtype.kind in ("int", "uint", "bool"),
        "number": dtype.name in _BASE_FLOATS or dtype.kind in ("int", "uint"),
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
        _need(lx, x, what, "float")
        props: dict[str, Attribute | None] = {"flush_to_zero": _ftz(lx, ftz, x.dtype)}
        if float_cls in _ROUNDED:
            allowed = _IEEE if float_cls is not arith.DivFOp else (*_IEEE, RoundingMode.APPROX, RoundingMode.FULL)
            props["rounding_mode"] = _rounding(lx, rounding, allowed)
        return emit(lx, float_cls, [x, y], x.dtype, **props)
    if int_cls is None:
        raise lx.error(f"{what} needs float tiles, got {x.describe()}", "convert with .astype(st.f32)")
    if ftz or rounding != "nearest_even":
        raise lx.error(f"rounding and ftz apply to float tiles, not {x.describe()}", "drop them")
    _need(lx, x, what, "int")
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
    _need(lx, x, "st.fma", "float")
    return emit(
        lx,
        arith.FmaOp,
        [x, y, z],
        x.dtype,
        rounding_mode=_rounding(lx, rounding, _IEEE),
        flush_to_zero=_ftz(lx, ftz, x.dtype),
    )


def _refuse_zero_divisor(lx: Lowerer, what: str, divisor: TileValue) -> None:
    """Integer division by a constant zero is undefined on the device: refuse it here."""
    if constant_value(divisor) == 0:
        raise lx.error(f"integer {what} by the constant 0", "divide by a nonzero value (guard the divisor first)")


def _int_division(lx: Lowerer, what: str, a: Any, b: Any, mode: RoundingMode) -> TileValue:
    x, y = unify(lx, what, a, b)
    _need(lx, x, what, "int")
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
        _need(lx, x, "%", "float")
        r = emit(lx, arith.RemFOp, [x, y], x.dtype)
    else:
        _need(lx, x, "%", "int")
        _refuse_zero_divisor(lx, "%", y)
        r = emit(lx, arith.RemIOp, [x, y], x.dtype, signedness=SignednessAttr(signedness(x.dtype)))
        if not x.dtype.signed:
            return r
    if is_number(b):
        # A constant divisor fixes the sign to compare with.
        fix = _compare(lx, "Lt" if b > 0 else "Gt", r, 0)
    else:
        nonzero = _compare(lx, "NotEq", r, 0)
        signs_differ = _compare(lx, "NotEq", _compare(lx, "Lt", r, 0), _compare(lx, "Lt", y, 0))
        fix = emit(lx, arith.AndIOp, [nonzero, signs_differ], dsl.bool_)
    return _select(lx, fix, _add(lx, r, y), r)


@operator("Pow")
@implements(dsl.pow)
def _pow(lx: Lowerer, a: Any, b: Any) -> TileValue:
    if isinstance(b, TileValue) and b.dtype.kind == "int" and isinstance(a, TileValue):
        _need(lx, a, "**", "float")
        if b.dtype.bits > 32:
            raise lx.error("integer exponents must have at most 32 bits", "convert with .astype(st.i32)")
        shape = a.shape if len(a.shape) >= len(b.shape) else b.shape
        return emit(lx, arith.FPowIOp, [broadcast_to(lx, a, shape), broadcast_to(lx, b, shape)], a.dtype)
    x, y = unify(lx, "**", a, b)
    _need(lx, x, "**", "float")
    return emit(lx, arith.FPowFOp, [x, y], x.dtype)


@implements(dsl.mulhi)
def _mulhi(lx: Lowerer, a: Any, b: Any) -> TileValue:
    x, y = unify(lx, "st.mulhi", a, b)
    _need(lx, x, "st.mulhi", "int")
    return emit(lx, arith.MulhiIOp, [x, y], x.dtype)


def _minmax(lx: Lowerer, what: str, a: Any, b: Any, propagate_nan: bool, ftz: bool, is_max: bool) -> TileValue:
    x, y = unify(lx, what, a, b)
    if x.dtype.is_float:
        _need(lx, x, what, "float")
        return emit(
            lx,
            arith.MaxFOp if is_max else arith.MinFOp,
            [x, y],
            x.dtype,
            propagate_nan=UnitAttr() if propagate_nan else None,
            flush_to_zero=_ftz(lx, ftz, x.dtype),
        )
    _need(lx, x, what, "int")
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
# Unary operators and math
# --------------------------------------------------------------------------


@operator("USub")
def _neg(lx: Lowerer, a: Any) -> TileValue:
    x = as_tile(lx, a)
    if x.dtype.is_float:
        _need(lx, x, "unary -", "float")
        return emit(lx, arith.NegFOp, [x], x.dtype)
    _need(lx, x, "unary -", "int")
    return emit(lx, arith.NegIOp, [x], x.dtype)


@operator("UAdd")
def _pos(lx: Lowerer, a: Any) -> TileValue:
    x = as_tile(lx, a)
    _need(lx, x, "unary +", "number")
    return x


@operator("Invert")
def _invert(lx: Lowerer, a: Any) -> TileValue:
    x = as_tile(lx, a)
    _need(lx, x, "~", "bits")
    ones = const(lx, 1 if x.dtype.kind == "bool" else (-1 if x.dtype.signed else 2**x.dtype.bits - 1), x.dtype, x.shape)
    return emit(lx, arith.XOrIOp, [x, ones], x.dtype)


@operator("Not")
def _not(lx: Lowerer, a: Any) -> TileValue:
    x = as_tile(lx, a)
    if x.dtype != dsl.bool_:
        return _compare(lx, "Eq", x, 0)
    return _invert(lx, x)


@implements(dsl.abs)
def _abs(lx: Lowerer, x: Any) -> TileValue:
    t = as_tile(lx, x)
    if t.dtype.is_float:
        _need(lx, t, "abs", "float")
        return emit(lx, arith.AbsFOp, [t], t.dtype)
    _need(lx, t, "abs", "int")
    return emit(lx, arith.AbsIOp, [t], t.dtype)


def _float_unary(lx: Lowerer, name: str, x: Any, cls: type, **props: Attribute | None) -> TileValue:
    t = as_tile(lx, x, dsl.f32)
    _need(lx, t, f"st.{name}", "float")
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
    return _float_unary(lx, "exp2", t, math.Exp2Op, flush_to_zero=_ftz(lx, ftz, t.dtype))


@implements(dsl.rsqrt)
def _rsqrt(lx: Lowerer, x: Any, ftz: bool) -> TileValue:
    t = as_tile(lx, x, dsl.f32)
    return _float_unary(lx, "rsqrt", t, math.RsqrtOp, flush_to_zero=_ftz(lx, ftz, t.dtype))


@implements(dsl.sqrt)
def _sqrt(lx: Lowerer, x: Any, rounding: str, ftz: bool) -> TileValue:
    t = as_tile(lx, x, dsl.f32)
    return _float_unary(
        lx,
        "sqrt",
        t,
        math.SqrtOp,
        rounding_mode=_rounding(lx, rounding, (*_IEEE, RoundingMode.APPROX)),
        flush_to_zero=_ftz(lx, ftz, t.dtype),
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
    _need(lx, a, "st.atan2", "float")
    return emit(lx, math.Atan2Op, [a, b], a.dtype)


# --------------------------------------------------------------------------
# Comparison, logic, selection
# --------------------------------------------------------------------------

_PREDICATES = {
    "Lt": ComparisonPredicate.LESS_THAN,
    "LtE": ComparisonPredicate.LESS_THAN_OR_EQUAL,
    "Gt": ComparisonPredicate.GREATER_THAN,
    "GtE": ComparisonPredicate.GREATER_THAN_OR_EQUAL,
    "Eq": ComparisonPredicate.EQUAL,
    "NotEq": ComparisonPredicate.NOT_EQUAL,
}
_SYMBOLS = {"Lt": "<", "LtE": "<=", "Gt": ">", "GtE": ">=", "Eq": "==", "NotEq": "!="}


def _compare(lx: Lowerer, name: str, a: Any, b: Any) -> TileValue:
    x, y = unify(lx, _SYMBOLS[name], a, b)
    predicate = ComparisonPredicateAttr(_PREDICATES[name])
    if x.dtype.is_float:
        _need(lx, x, _SYMBOLS[name], "float")
        # Python's != is true when either side is NaN; the others are false.
        ordering = ComparisonOrdering.UNORDERED if name == "NotEq" else ComparisonOrdering.ORDERED
        return emit(
            lx,
            CmpFOp,
            [x, y],
            dsl.bool_,
            comparison_predicate=predicate,
            comparison_ordering=ComparisonOrderingAttr(ordering),
        )
    if x.dtype.kind == "ptr":
        raise lx.error("pointers cannot be compared", "compare st.ptr_to_int(p) values")
    return emit(lx, CmpIOp, [x, y], dsl.bool_, comparison_predicate=predicate, signedness=SignednessAttr(signedness(x.dtype)))


def _register_compare(name: str) -> None:
    @operator(name)
    def lower(lx: Lowerer, a: Any, b: Any) -> TileValue:
        return _compare(lx, name, a, b)


for _name in _PREDICATES:
    _register_compare(_name)


def _logic(lx: Lowerer, what: str, a: Any, b: Any, cls: type) -> TileValue:
    x, y = unify(lx, what, a, b)
    _need(lx, x, what, "bits")
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
    _need(lx, x, "<<", "int")
    return emit(lx, arith.ShLIOp, [x, y], x.dtype)


@operator("RShift")
def _shr(lx: Lowerer, a: Any, b: Any) -> TileValue:
    """Arithmetic shift for signed types, logical for unsigned ones."""
    x, y = unify(lx, ">>", a, b)
    _need(lx, x, ">>", "int")
    return emit(lx, arith.ShRIOp, [x, y], x.dtype, signedness=SignednessAttr(signedness(x.dtype)))


def _select(lx: Lowerer, cond: TileValue, a: TileValue, b: TileValue) -> TileValue:
    op = lx.add(SelectOp(cond.value, a.value, b.value))
    return TileValue(op.result, a.dtype)


@implements(dsl.where)
def _where(lx: Lowerer, cond: Any, a: Any, b: Any) -> TileValue:
    c = as_tile(lx, cond, dsl.bool_, "the condition")
    if c.dtype != dsl.bool_:
        raise lx.error(
            f"the condition of st.where must be bool, got {c.describe()}", "compare first, e.g. x > 0"
        )
    if not isinstance(a, TileValue) and not isinstance(b, TileValue):
        if not (is_number(a) and is_number(b)):
            raise lx.error(f"st.where needs tiles or numbers, got {describe(a)} and {describe(b)}")
    x, y = unify(lx, "st.where", a, b)
    shape = broadcast_shapes(c.shape, x.shape)
    if shape is None:
        raise lx.error(
            f"the condition {c.describe()} does not broadcast with {x.describe()}",
            "dimensions must be equal or 1 (aligned from the right)",
        )
    return _select(lx, broadcast_to(lx, c, shape), broadcast_to(lx, x, shape), broadcast_to(lx, y, shape))


# --------------------------------------------------------------------------
# Conversions
# --------------------------------------------------------------------------


_CONVERSION_ROUNDING: dict[tuple[bool, bool], tuple[RoundingMode, ...]] = {
    (True, True): (*_IEEE, RoundingMode.NEAREST_AWAY),
    (True, False): (RoundingMode.ZERO,),  # ftoi truncates: Tile IR has no other mode
    (False, True): (RoundingMode.NEAREST_EVEN,),  # itof rounds to nearest even only
}
"""The rounding modes ``astype`` accepts, by (source is float, target is float); integers do not round."""


@implements(dsl.astype, dsl.Tile.astype)
def _astype(lx: Lowerer, tile: Any, dtype: Any, rounding: str | None, saturate: bool) -> TileValue:
    if not isinstance(dtype, DType):
        raise lx.error(f"astype needs an element type, got {describe(dtype)}", "e.g. x.astype(st.f16)")
    t = as_tile(lx, tile, dtype)
    if rounding is not None and t.dtype != dtype:
        allowed = () if dtype.kind == "bool" else _CONVERSION_ROUNDING.get((t.dtype.is_float, dtype.is_float), ())
        if rounding not in [m.value for m in allowed]:
            kind = f"{t.dtype.name} to {dtype.name}"
            if not allowed:
                raise lx.error(f"a conversion from {kind} does not round", "drop rounding=")
            names = " or ".join(repr(m.value) for m in allowed)
            raise lx.error(f"a conversion from {kind} rounds with {names} only, not {rounding!r}",
                           f"write rounding={names}, or drop rounding=")
    if saturate and not (t.dtype.is_float and dtype.is_int):
        raise lx.error("saturate applies to float-to-integer conversions", "drop saturate=True")
    return convert(lx, t, dtype, rounding, saturate)


@implements(dsl.bitcast)
def _bitcast(lx: Lowerer, tile: Any, dtype: Any) -> TileValue:
    t = as_tile(lx, tile)
    if not isinstance(dtype, DType) or dtype.bits != t.dtype.bits or dtype.kind == "ptr" or t.dtype.kind == "ptr":
        raise lx.error(
            f"cannot bitcast {t.describe()} to {describe(dtype)}",
            "bitcast between number types of the same width; pointers use st.ptr_to_int",
        )
    if dtype.ir == t.dtype.ir:
        return TileValue(t.value, dtype)
    op = lx.add(BitcastOp(t.value, tile_type(t.shape, dtype)))
    return TileValue(op.result, dtype)
