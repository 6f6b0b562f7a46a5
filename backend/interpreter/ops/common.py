"""Helpers the op families share: operand positions, types, dense literals, tokens."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, IntegerAttr
from xdsl.ir import Attribute, Operation, SSAValue

from safetile.dialects.cuda_tile.literals import storage_bytes
from safetile.dialects.cuda_tile.types import TileType, int_width

from safetile.backend import elements, floats

from .. import values
from ..engine import Executor, Frame, Program


def slot(op: Operation, value: SSAValue | None) -> int | None:
    """Where ``value`` (an optional operand, or None) is in ``op.operands``."""
    if value is None:
        return None
    return list(op.operands).index(value)


def tile_type(value: SSAValue) -> TileType:
    t = value.type
    assert isinstance(t, TileType), f"expected a tile, got {t}"
    return t


def element(value: SSAValue) -> Attribute:
    """The element type of a tile-typed value."""
    return tile_type(value).element_type


def width(value: SSAValue) -> int:
    """The bit width of an integer tile-typed value."""
    w = int_width(element(value))
    assert w is not None, f"expected an integer tile, got {value.type}"
    return w


def index(value: Any, w: int) -> int:
    """A 0-d integer tile read as an unsigned index."""
    return int(elements.unsigned(np.asarray(value), w))


def frozen(x: np.ndarray) -> np.ndarray:
    """``x``, marked read-only: a value shared by every tile block."""
    x.flags.writeable = False
    return x


def dense(attr: DenseIntOrFPElementsAttr, t: TileType) -> np.ndarray:
    """The carriers of a dense literal (``constant`` and ``global`` values)."""
    elem = t.element_type
    size = storage_bytes(elem)
    raw = np.frombuffer(attr.data.data, dtype=np.uint8).reshape(-1, size).astype(np.uint64)
    bits = np.zeros(raw.shape[0], dtype=np.uint64)
    for i in range(size):  # little-endian bytes of each element
        bits |= raw[:, i] << np.uint64(8 * i)
    return elements.from_bits(bits, elem).reshape(t.shape)


def typed_scalar(attr: Attribute, elem: Attribute) -> np.ndarray:
    """A ``FloatAttr``/``IntegerAttr`` (e.g. a reduce identity) as a 0-d tile."""
    if isinstance(attr, FloatAttr):
        return floats.round_to_format(np.asarray(attr.value.data), elem)
    assert isinstance(attr, IntegerAttr)
    w = int_width(elem)
    assert w is not None
    return elements.wrap(np.asarray(attr.value.data & ((1 << max(w, 1)) - 1), dtype=np.uint64), w)


def token(op: Operation, kernel: Program) -> Executor:
    """An op whose only result is a token (tokens carry no data here)."""

    def run(frame: Frame, a: list[Any]) -> tuple[Any]:
        return (values.TOKEN,)

    return run
