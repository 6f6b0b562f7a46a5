"""What the ops' folders share: constant operands as integers, results as constants.

A folder (``fold`` of ``HasFolderInterface``, as in ``xdsl.dialects.arith``)
returns, per result, an existing value or an attribute; ``canonicalize``
turns an attribute into a ``constant`` through the dialect's
``ConstantMaterialization`` below.  Integer elements are handled as their
bit patterns, ``0 <= bits < 2**width``; ops read them signed or unsigned as
their attributes say, and results wrap to the width.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialect_interfaces.constant_materialization import (
    ConstantMaterializationInterface,
)
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.traits import ConstantLike

from ..literals import dense_value, element_bits, encode_values
from ..types import TileType, int_width
from .shape import ConstantOp


def int_elements(value: SSAValue) -> list[int] | None:
    """The bit patterns of ``value``'s elements if it is an integer constant."""
    attr = ConstantLike.get_constant_value(value)
    if not isinstance(attr, DenseIntOrFPElementsAttr) or width_of(value) is None:
        return None
    return element_bits(attr)


def width_of(value: SSAValue) -> int | None:
    t = value.type
    return int_width(t.element_type) if isinstance(t, TileType) else None


def signed(bits: int, width: int) -> int:
    return bits - (1 << width) if bits >> (width - 1) & 1 else bits


def is_splat(value: SSAValue, number: int) -> bool:
    """``value`` is an integer constant whose every element is ``number`` (wrapped)."""
    bits = int_elements(value)
    width = width_of(value)
    return bits is not None and width is not None and all(b == number % (1 << width) for b in bits)


def int_constant(like: SSAValue, bits: Sequence[int]) -> DenseIntOrFPElementsAttr:
    """A constant of ``like``'s type with elements ``bits`` (one: a splat), wrapped."""
    t = like.type
    assert isinstance(t, TileType)
    data = encode_values(t.element_type, list(bits))
    if len(bits) == 1:
        data *= t.num_elements
    return dense_value(t, data)


def elementwise(
    result: SSAValue, operands: Sequence[SSAValue], fn: Callable[..., int | None]
) -> DenseIntOrFPElementsAttr | None:
    """``fn`` applied to the bit patterns of constant integer ``operands``, lane by lane.

    ``fn`` returns a result's bits (wrapped afterwards), or None where the op
    must not fold (a division by zero): then nothing folds.
    """
    columns = [int_elements(v) for v in operands]
    width = width_of(result)
    if width is None or any(c is None for c in columns):
        return None
    lanes: list[int] = []
    for args in zip(*columns):  # type: ignore[misc]
        bits = fn(*args)
        if bits is None:
            return None
        lanes.append(bits % (1 << width))
    if len(set(lanes)) == 1:
        lanes = lanes[:1]
    return int_constant(result, lanes)


class ConstantMaterialization(ConstantMaterializationInterface):
    """How ``canonicalize`` makes a ``cuda_tile.constant`` of a folded value."""

    def materialize_constant(self, value: Attribute, type: Attribute) -> Operation | None:
        if not (isinstance(value, DenseIntOrFPElementsAttr) and isinstance(type, TileType)):
            return None
        return ConstantOp(value, type)
