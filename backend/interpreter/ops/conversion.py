"""Executors of the ``conversion`` ops: conversions, casts and pointer arithmetic
(element-wise).

Exact: ``bitcast``, ``exti``, ``trunci``, ``int_to_ptr``, ``ptr_to_int``,
``ptr_to_ptr``, ``offset`` (64-bit wrapping address arithmetic), ``ftof`` in
every rounding mode (overflow into a format without infinities saturates, as
PTX's ``.satfinite`` conversions do), ``itof`` (nearest-even; beyond the
range: infinity, or NaN for formats without one) and ``ftoi`` (toward zero).
``ftoi`` of NaN, infinity or a value out of range is undefined in Tile IR
unless ``saturating``; the interpreter always saturates (NaN gives 0).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.ir import Operation

from safetile.dialects.cuda_tile.attributes import Signedness
from safetile.dialects.cuda_tile.ops import conversion
from safetile.dialects.cuda_tile.types import PointerType

from safetile.backend import elements, floats
from .. import views
from ..engine import Builder, Executor, Frame, Program
from .common import element, width


def _build_bitcast(op: Operation, kernel: Program) -> Executor:
    source, result = element(op.operands[0]), element(op.results[0])

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        return (elements.from_bits(elements.to_bits(np.asarray(a[0]), source), result),)

    return run


def _build_identity(op: Operation, kernel: Program) -> Executor:
    """``ptr_to_ptr``: the same addresses."""

    def run(frame: Frame, a: list[Any]) -> tuple[Any]:
        return (a[0],)

    return run


def _build_reinterpret(op: Operation, kernel: Program) -> Executor:
    """``int_to_ptr`` / ``ptr_to_int``: the same 64 bits."""
    dtype = elements.carrier(element(op.results[0]))

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        return (np.asarray(a[0]).view(dtype),)

    return run


def _build_exti(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, conversion.ExtIOp)
    w_from, w_to = width(op.from_), width(op.to)
    read = elements.signed if op.signedness.data == Signedness.SIGNED else elements.unsigned

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        return (elements.wrap(read(np.asarray(a[0]), w_from).astype(np.int64), w_to),)

    return run


def _build_trunci(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, conversion.TruncIOp)
    w_from, w_to = width(op.from_), width(op.to)

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        return (elements.wrap(elements.unsigned(np.asarray(a[0]), w_from), w_to),)

    return run


def _build_ftof(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, conversion.FToFOp)
    target = element(op.to)
    mode = op.rounding_mode.data

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        x = np.asarray(a[0]).astype(np.float64)
        return (floats.round_to_format(x, target, mode, saturate=True),)

    return run


def _build_ftoi(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, conversion.FToIOp)
    w = width(op.to)
    is_signed = op.signedness.data == Signedness.SIGNED
    lo = -(2 ** (w - 1)) if is_signed else 0
    hi = 2 ** (w - 1) - 1 if is_signed else 2**w - 1
    integer = np.int64 if is_signed else np.uint64

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        x = np.trunc(np.asarray(a[0]).astype(np.float64))
        x = np.where(np.isnan(x), 0.0, x)
        # float(hi) may round up past the range (2**63 - 1 -> 2**63).
        over, under = x >= float(hi), x <= float(lo)
        clamped = np.clip(x, float(lo), float(hi)).astype(integer)
        clamped = np.where(over, integer(hi), np.where(under, integer(lo), clamped))
        return (elements.wrap(clamped, w),)

    return run


def _build_itof(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, conversion.IToFOp)
    w = width(op.from_)
    target = element(op.to)
    is_signed = op.signedness.data == Signedness.SIGNED

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        x = elements.signed(np.asarray(a[0]), w) if is_signed else elements.unsigned(np.asarray(a[0]), w)
        s = x.astype(np.float64)
        err = None
        if w == 64:  # float64 rounded the integer already: keep the sign of the rest
            fits = s < (2.0**63 if is_signed else 2.0**64)
            back = np.where(fits, s, 0.0).astype(x.dtype)
            above = (x > back).astype(np.float64) - (x < back).astype(np.float64)
            err = np.where(fits, above, -1.0)
        return (floats.round_to_format(s, target, err=err),)

    return run


def _build_offset(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, conversion.OffsetOp)
    pointee = element(op.ptr)
    assert isinstance(pointee, PointerType)
    size = views.storage_itemsize_of(pointee.pointee)
    w = width(op.offset)

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        step = elements.signed(np.asarray(a[1]), w).astype(np.int64) * np.int64(size)
        return (np.asarray(a[0]).astype(np.uint64) + step.astype(np.uint64),)

    return run


HANDLERS: dict[type[Operation], Builder] = {
    conversion.BitcastOp: _build_bitcast,
    conversion.IntToPtrOp: _build_reinterpret,
    conversion.PtrToIntOp: _build_reinterpret,
    conversion.PtrToPtrOp: _build_identity,
    conversion.ExtIOp: _build_exti,
    conversion.TruncIOp: _build_trunci,
    conversion.FToFOp: _build_ftof,
    conversion.FToIOp: _build_ftoi,
    conversion.IToFOp: _build_itof,
    conversion.OffsetOp: _build_offset,
}

ELEMENTWISE = frozenset(HANDLERS)
"""Ops whose executors work on tiles of any shape (see ``reduction``)."""
