"""Tile creation and shape manipulation (exact): ``constant``, ``iota``,
``reshape``, ``broadcast``, ``permute``, ``cat``, ``extract``, ``insert``,
``pack``, ``unpack``.

``pack``/``unpack`` use the byte layout of the elements: little-endian, ``i1``
eight to a byte and ``i4``/``f4E2M1FN`` two to a byte (element 0 in the low
bits), ``tf32`` in 32 bits.  An ``extract``/``insert`` index naming a subtile
that does not exist is an ``OutOfRangeError``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import FloatTF32Type
from xdsl.ir import Attribute, Operation

from safetile.dialects.cuda_tile.ops import shape
from safetile.backend import elements

from ..engine import Builder, Executor, Frame, Program
from ..errors import OutOfRangeError
from .common import dense, element, frozen, index, tile_type, width


def _build_constant(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, shape.ConstantOp)
    result = (frozen(dense(op.value, tile_type(op.result))),)

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        return result

    return run


def _build_iota(op: Operation, kernel: Program) -> Executor:
    t = tile_type(op.results[0])
    result = (frozen(elements.wrap(np.arange(t.shape[0], dtype=np.uint64), width(op.results[0]))),)

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        return result

    return run


def _build_reshape(op: Operation, kernel: Program) -> Executor:
    target = tile_type(op.results[0]).shape

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        return (np.reshape(a[0], target),)

    return run


def _build_broadcast(op: Operation, kernel: Program) -> Executor:
    target = tile_type(op.results[0]).shape

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        return (np.broadcast_to(a[0], target),)

    return run


def _build_permute(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, shape.PermuteOp)
    permutation = tuple(op.permutation.get_values())

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        return (np.transpose(a[0], permutation),)

    return run


def _build_cat(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, shape.CatOp)
    dim = op.dim.value.data

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        return (np.concatenate([a[0], a[1]], axis=dim),)

    return run


def _subtile(
    whole: tuple[int, ...], part: tuple[int, ...], raw: list[Any], widths: list[int]
) -> tuple[slice, ...]:
    """The slice of subtile ``raw`` (grid indices) of shape ``part`` in ``whole``."""
    grid = [w // p for w, p in zip(whole, part)]
    position = [index(v, w) for v, w in zip(raw, widths)]
    if any(i >= g for i, g in zip(position, grid)):
        raise OutOfRangeError(
            f"subtile index {tuple(position)} is outside the grid {tuple(grid)} of "
            f"{'x'.join(map(str, part))} subtiles"
        )
    return tuple(slice(i * p, (i + 1) * p) for i, p in zip(position, part))


def _build_extract(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, shape.ExtractOp)
    whole, part = tile_type(op.source).shape, tile_type(op.result).shape
    widths = [width(v) for v in op.indices]

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        return (a[0][_subtile(whole, part, a[1:], widths)],)

    return run


def _build_insert(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, shape.InsertOp)
    whole, part = tile_type(op.destination).shape, tile_type(op.source).shape
    widths = [width(v) for v in op.indices]

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        result = np.array(a[1])
        result[_subtile(whole, part, a[2:], widths)] = a[0]
        return (result,)

    return run


def _bits(x: np.ndarray, t: Attribute) -> np.ndarray:
    """Element bits as stored when packed (``tf32`` as its 32-bit ``f32``)."""
    if isinstance(t, FloatTF32Type):
        return x.view(np.uint32)
    return elements.to_bits(x, t)


def pack_bytes(x: np.ndarray, t: Attribute) -> np.ndarray:
    """A rank-1 tile's bytes (``uint8``)."""
    bw = elements.bit_width(t)
    bits = _bits(np.asarray(x), t)
    if bw == 1:
        return np.packbits(bits.astype(np.uint8), bitorder="little")
    if bw == 4:
        nibbles = (bits & 0xF).astype(np.uint8)
        return nibbles[0::2] | (nibbles[1::2] << 4)
    return np.ascontiguousarray(bits.astype(np.dtype(f"<u{bw // 8}"))).view(np.uint8)


def unpack_bytes(raw: np.ndarray, t: Attribute) -> np.ndarray:
    """A rank-1 tile of element type ``t`` from its bytes (``uint8``)."""
    bw = elements.bit_width(t)
    if bw == 1:
        bits = np.unpackbits(raw, bitorder="little").astype(np.uint64)
    elif bw == 4:
        bits = np.stack([raw & 0xF, raw >> 4], axis=-1).reshape(-1).astype(np.uint64)
    else:
        bits = np.ascontiguousarray(raw).view(np.dtype(f"<u{bw // 8}"))
    if isinstance(t, FloatTF32Type):
        return (bits.astype(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)
    return elements.from_bits(bits, t)


def _build_pack(op: Operation, kernel: Program) -> Executor:
    t = element(op.operands[0])

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        return (pack_bytes(a[0], t).view(np.int8),)

    return run


def _build_unpack(op: Operation, kernel: Program) -> Executor:
    t = element(op.results[0])

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        return (unpack_bytes(np.asarray(a[0]).view(np.uint8), t),)

    return run


HANDLERS: dict[type[Operation], Builder] = {
    shape.ConstantOp: _build_constant,
    shape.IotaOp: _build_iota,
    shape.ReshapeOp: _build_reshape,
    shape.BroadcastOp: _build_broadcast,
    shape.PermuteOp: _build_permute,
    shape.CatOp: _build_cat,
    shape.ExtractOp: _build_extract,
    shape.InsertOp: _build_insert,
    shape.PackOp: _build_pack,
    shape.UnpackOp: _build_unpack,
}

ELEMENTWISE = frozenset({shape.ConstantOp})
"""Ops whose executors work on tiles of any shape (see ``reduction``): a
constant in a combiner is a scalar, which broadcasts."""
