"""Hints (``assume_*``, unsafe), device ``print`` and ``assert``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import StringAttr
from xdsl.utils.exceptions import VerifyException

from safetile.dialects.cuda_tile.attributes import AssumePredicate, BoundedAttr, DivByAttr
from safetile.dialects.cuda_tile.ops.misc import AssertOp, AssumeOp, PrintTkoOp, count_format_expressions
from safetile.dialects.cuda_tile.types import TokenType

from . import dsl
from .builtins import implements
from .core import as_tile, describe
from .types import TileValue

if TYPE_CHECKING:
    from .lower import Lowerer


def _assume(lx: Lowerer, value: Any, predicate: AssumePredicate, what: str) -> TileValue:
    if not isinstance(value, TileValue) or not (value.dtype.is_int or value.dtype.kind == "ptr"):
        raise lx.error(f"{what} applies to integer or pointer values, got {describe(value)}")
    try:
        predicate.verify_with_value_type(value.type)
    except VerifyException as err:
        raise lx.error(f"{what}: {err}", "check the hint's arguments") from None
    op = AssumeOp.build(
        operands=[value.value], result_types=[value.type], properties={"predicate": predicate}
    )
    lx.mark_unsafe(lx.add(op), what)
    return TileValue(op.result, value.dtype)


def _int(lx: Lowerer, value: Any, what: str) -> int | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise lx.error(f"{what} must be a compile-time int, got {describe(value)}")


@implements(dsl.assume_div_by)
def _assume_div_by(lx: Lowerer, value: Any, divisor: Any) -> TileValue:
    d = _int(lx, divisor, "the divisor")
    assert d is not None
    return _assume(lx, value, DivByAttr(d), "assume_div_by")


@implements(dsl.assume_bounds)
def _assume_bounds(lx: Lowerer, value: Any, lower: Any, upper: Any) -> TileValue:
    return _assume(
        lx, value, BoundedAttr(_int(lx, lower, "lower"), _int(lx, upper, "upper")), "assume_bounds"
    )


@implements(dsl.assume_bounds_lower)
def _assume_bounds_lower(lx: Lowerer, value: Any, lower: Any) -> TileValue:
    return _assume(lx, value, BoundedAttr(_int(lx, lower, "lower"), None), "assume_bounds_lower")


@implements(dsl.assume_bounds_upper)
def _assume_bounds_upper(lx: Lowerer, value: Any, upper: Any) -> TileValue:
    return _assume(lx, value, BoundedAttr(None, _int(lx, upper, "upper")), "assume_bounds_upper")


@implements(dsl.print)
def _print(lx: Lowerer, fmt: Any, *args: Any) -> None:
    if not isinstance(fmt, str):
        raise lx.error(f"st.print needs a format string first, got {describe(fmt)}")
    try:
        expected = count_format_expressions(fmt)
    except VerifyException as err:
        raise lx.error(f"bad format string: {err}", "escape a literal % as %%") from None
    if expected != len(args):
        raise lx.error(
            f"the format has {expected} conversions but {len(args)} values follow",
            "give one value per % conversion",
        )
    values = [as_tile(lx, a, what="a printed value").value for a in args]
    lx.add(
        PrintTkoOp.build(
            operands=[values, None], result_types=[TokenType()], properties={"str": StringAttr(fmt)}
        )
    )


@implements(dsl.device_assert)
def _device_assert(lx: Lowerer, cond: Any, message: Any) -> None:
    c = as_tile(lx, cond, dsl.bool_, "the condition")
    if c.dtype != dsl.bool_:
        raise lx.error(f"an assertion needs a bool condition, got {c.describe()}", "compare first, e.g. n > 0")
    if not isinstance(message, str):
        raise lx.error("the assertion message must be a string constant")
    lx.add(AssertOp.build(operands=[c.value], properties={"message": StringAttr(message)}))
