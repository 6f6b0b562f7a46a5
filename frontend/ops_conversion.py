"""Conversions, the dialect's ``conversion`` family: ``astype`` (with the
rounding modes Tile IR has for each direction) and ``st.bitcast``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from safetile.dialects.cuda_tile.attributes import RoundingMode
from safetile.dialects.cuda_tile.ops.conversion import BitcastOp

from . import dsl
from .builtins import implements
from .core import IEEE_ROUNDINGS, as_tile, convert, describe
from .dsl import DType
from .types import TileValue, tile_type

if TYPE_CHECKING:
    from .lower import Lowerer


_CONVERSION_ROUNDING: dict[tuple[bool, bool], tuple[RoundingMode, ...]] = {
    (True, True): (*IEEE_ROUNDINGS, RoundingMode.NEAREST_AWAY),
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
