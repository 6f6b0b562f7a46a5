"""Executors of the ``memory`` ops: tensor and tile views, view and pointer
loads/stores, atomics, ``alloca`` and tokens.

Memory orderings and scopes do not change results in a sequential
interpreter; they only decide which accesses the race detector treats as
atomic (anything but ``weak``).  Atomics are applied element by element in
lane order (row-major): ``and``/``or``/``xor``/``add`` (wrapping), ``max``/
``min`` (signed), ``umax``/``umin`` (unsigned), ``xchg``, ``addf`` (rounded
to nearest-even in the element type) and ``atomic_cas_tko`` (bitwise
comparison, also for floats).  Lanes an atomic masks off return poison
(``atomic_cas_tko``: their ``cmp``).

Tokens carry no data: the sequential interpreter already runs every tile
block's memory operations in an order their tokens allow, so ``make_token``,
``join_tokens`` and ``memory_fence_alias_tko`` return a ``Token``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.ir import Attribute, Operation

from safetile.dialects.cuda_tile.attributes import AtomicRMWMode, MemoryOrdering, PaddingValue
from safetile.dialects.cuda_tile.ops.memory import pointers, tokens, view_access
from safetile.dialects.cuda_tile.ops.memory import views as view_ops
from safetile.dialects.cuda_tile.types import DYNAMIC, PointerType, TileType, TileViewType, int_width

from safetile.backend import elements, floats
from .. import views
from ..engine import Builder, Executor, Frame, Program
from ..values import TOKEN, TensorView, TileView
from safetile.backend.elements import signed, unsigned, wrap
from . import arith
from .access import load, load_box, read_modify_write, store, store_box
from .common import element, index, slot, tile_type, token, width

_PADDING = {
    PaddingValue.ZERO: 0.0,
    PaddingValue.NEG_ZERO: -0.0,
    PaddingValue.NAN: float("nan"),
    PaddingValue.POS_INF: float("inf"),
    PaddingValue.NEG_INF: float("-inf"),
}


def _atomic(ordering: MemoryOrdering) -> bool:
    return ordering is not MemoryOrdering.WEAK


# --------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------


def _build_make_tensor_view(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, view_ops.MakeTensorViewOp)
    t = op.result.type
    static_shape, static_strides = t.shape, t.strides
    n_shape = len(op.dynamic_shape)
    widths = [width(v) for v in (*op.dynamic_shape, *op.dynamic_strides)]

    def fill(static: tuple[int, ...], dynamic: list[int]) -> tuple[int, ...]:
        it = iter(dynamic)
        return tuple(next(it) if d == DYNAMIC else d for d in static)

    def run(frame: Frame, a: list[Any]) -> tuple[TensorView]:
        dynamic = [index(v, w) for v, w in zip(a[1:], widths)]
        shape = fill(static_shape, dynamic[:n_shape])
        strides = fill(static_strides, dynamic[n_shape:])
        return (TensorView(t, int(a[0]), shape, strides),)

    return run


def _build_make_tile_view(op: Operation, kernel: Program) -> Executor:
    t = op.results[0].type
    assert isinstance(t, TileViewType)

    def run(frame: Frame, a: list[Any]) -> tuple[TileView]:
        return (views.tile_view(t, a[0]),)

    return run


def _build_shape_query(of_tile_view: bool) -> Builder:
    """``get_tensor_shape`` / ``get_index_space_shape``."""

    def build(op: Operation, kernel: Program) -> Executor:
        w = width(op.results[0]) if op.results else 32

        def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray, ...]:
            dims = a[0].index_space if of_tile_view else a[0].shape
            return tuple(wrap(np.asarray(d, dtype=np.uint64), w) for d in dims)

        return run

    return build


def _view_index(op: Operation) -> Callable[[list[Any]], list[int | np.ndarray]]:
    """Reads the index operands of a view access as unsigned integers."""
    positions = [slot(op, v) for v in op.index]
    widths = [width(v) for v in op.index]
    ranks = [tile_type(v).rank for v in op.index]

    def read(a: list[Any]) -> list[int | np.ndarray]:
        return [
            unsigned(np.asarray(a[p]), w).astype(np.uint64) if r else index(a[p], w)
            for p, w, r in zip(positions, widths, ranks)
        ]

    return read


def _inbounds(op: Operation) -> tuple[bool, ...]:
    attr = getattr(op, "inbounds", None)
    return () if attr is None else tuple(bool(b) for b in attr.get_values())


def _padding(view_type: TileViewType) -> np.ndarray | None:
    padding = view_type.padding
    if padding is None:
        return None
    elem = view_type.tensor_view.element_type
    if int_width(elem) is not None:
        return wrap(np.asarray(0, dtype=np.uint64), int_width(elem) or 0)
    return floats.round_to_format(np.asarray(_PADDING[padding.data]), elem)


def _build_load_view(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, view_access.LoadViewTkoOp)
    read_index = _view_index(op)
    inbounds = _inbounds(op)
    view_type = op.view.type
    assert isinstance(view_type, TileViewType)
    elem = view_type.tensor_view.element_type
    padding = _padding(view_type)
    atomic = _atomic(op.memory_ordering_semantics.data)

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray, Any]:
        check = frame.launch.options.check_bounds
        at = read_index(a)
        box = views.box(a[0], at, check=check)
        if box is not None and (whole := load_box(frame, box, elem, atomic=atomic)) is not None:
            return whole, TOKEN
        addresses, mask = views.elements(a[0], at, check=check, inbounds=inbounds)
        tile = load(frame, addresses, elem, mask, atomic=atomic)
        if mask is not None and padding is not None:
            tile = np.where(mask, tile, padding)
        return tile, TOKEN

    return run


def _build_store_view(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, view_access.StoreViewTkoOp)
    read_index = _view_index(op)
    inbounds = _inbounds(op)
    elem = element(op.tile)
    atomic = _atomic(op.memory_ordering_semantics.data)

    def run(frame: Frame, a: list[Any]) -> tuple[Any]:
        check = frame.launch.options.check_bounds
        at = read_index(a)
        box = views.box(a[1], at, check=check)
        if box is not None and store_box(frame, box, a[0], elem, atomic=atomic):
            return (TOKEN,)
        addresses, mask = views.elements(a[1], at, check=check, inbounds=inbounds)
        store(frame, addresses, a[0], elem, mask, atomic=atomic)
        return (TOKEN,)

    return run


# --------------------------------------------------------------------------
# Atomics
# --------------------------------------------------------------------------


def _rmw_update(mode: AtomicRMWMode, t: Attribute) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``(old, arg) -> new`` of an atomic mode on elements of type ``t``."""
    if mode is AtomicRMWMode.ADDF:
        return lambda old, arg: arith.add(old, arg, t)
    if mode is AtomicRMWMode.XCHG:
        return lambda old, arg: np.asarray(arg)
    w = int_width(t)
    assert w is not None, f"atomic {mode.value} on {t}"
    integer: dict[AtomicRMWMode, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
        AtomicRMWMode.AND: lambda x, y: unsigned(x, w) & unsigned(y, w),
        AtomicRMWMode.OR: lambda x, y: unsigned(x, w) | unsigned(y, w),
        AtomicRMWMode.XOR: lambda x, y: unsigned(x, w) ^ unsigned(y, w),
        AtomicRMWMode.ADD: lambda x, y: unsigned(x, w) + unsigned(y, w),
        AtomicRMWMode.MAX: lambda x, y: np.maximum(signed(x, w), signed(y, w)),
        AtomicRMWMode.MIN: lambda x, y: np.minimum(signed(x, w), signed(y, w)),
        AtomicRMWMode.UMAX: lambda x, y: np.maximum(unsigned(x, w), unsigned(y, w)),
        AtomicRMWMode.UMIN: lambda x, y: np.minimum(unsigned(x, w), unsigned(y, w)),
    }
    fn = integer[mode]
    return lambda old, arg: wrap(np.asarray(fn(old, arg)), w)


def _build_atomic_rmw(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, pointers.AtomicRMWTkoOp)
    t = element(op.arg)
    combine = _rmw_update(op.mode.data, t)
    mask_at = slot(op, op.mask)

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray, Any]:
        arg = np.broadcast_to(a[1], np.shape(a[0])).ravel()
        mask = None if mask_at is None else a[mask_at]
        old = read_modify_write(
            frame, np.asarray(a[0]), t, mask, lambda cur, lanes: combine(cur, arg[lanes])
        )
        return old, TOKEN

    return run


def _build_atomic_cas(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, pointers.AtomicCASTkoOp)
    t = element(op.val)
    mask_at = slot(op, op.mask)

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray, Any]:
        pointers = np.asarray(a[0])
        cmp, val = np.asarray(a[1]).ravel(), np.asarray(a[2]).ravel()
        mask = None if mask_at is None else a[mask_at]

        def swap(current: np.ndarray, lanes: np.ndarray) -> np.ndarray:
            same = elements.to_bits(current, t) == elements.to_bits(cmp[lanes], t)
            return np.where(same, val[lanes], current)

        old = read_modify_write(frame, pointers, t, mask, swap)
        if mask is not None:
            old = np.where(mask, old, a[1])
        return old, TOKEN

    return run


def _build_atomic_red_view(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, view_access.AtomicRedViewTkoOp)
    read_index = _view_index(op)
    value_at = slot(op, op.value)
    assert value_at is not None
    t = element(op.value)
    combine = _rmw_update(op.mode.data, t)

    def run(frame: Frame, a: list[Any]) -> tuple[Any]:
        check = frame.launch.options.check_bounds
        addresses, mask = views.elements(a[0], read_index(a), check=check)
        value = np.asarray(a[value_at]).ravel()
        read_modify_write(frame, addresses, t, mask, lambda cur, lanes: combine(cur, value[lanes]))
        return (TOKEN,)

    return run


# --------------------------------------------------------------------------
# Pointer loads and stores
# --------------------------------------------------------------------------


def _build_load_ptr(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, pointers.LoadPtrTkoOp)
    t = element(op.result)
    mask_at, padding_at = slot(op, op.mask), slot(op, op.padding_value)
    atomic = _atomic(op.memory_ordering_semantics.data)

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray, Any]:
        mask = None if mask_at is None else np.asarray(a[mask_at])
        tile = load(frame, np.asarray(a[0]), t, mask, atomic=atomic)
        if mask is not None and padding_at is not None:
            tile = np.where(mask, tile, a[padding_at])
        return tile, TOKEN

    return run


def _build_store_ptr(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, pointers.StorePtrTkoOp)
    t = element(op.value)
    mask_at = slot(op, op.mask)
    atomic = _atomic(op.memory_ordering_semantics.data)

    def run(frame: Frame, a: list[Any]) -> tuple[Any]:
        mask = None if mask_at is None else np.asarray(a[mask_at])
        store(frame, np.asarray(a[0]), a[1], t, mask, atomic=atomic)
        return (TOKEN,)

    return run


# --------------------------------------------------------------------------
# Allocations
# --------------------------------------------------------------------------


def _pointee(op: Operation) -> Attribute:
    t = op.results[0].type
    assert isinstance(t, TileType) and isinstance(t.element_type, PointerType)
    return t.element_type.pointee


def _build_alloca(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, tokens.AllocaOp)
    size = op.num_elem.value.data * views.storage_itemsize_of(_pointee(op))
    alignment = op.alignment.value.data
    label = f"alloca {kernel.describe(op)}"

    def run(frame: Frame, a: list[Any]) -> tuple[np.ndarray]:
        buffer = frame.launch.memory.allocate(size, f"{label} of {frame.block_id}", alignment=alignment)
        frame.allocations.append(buffer)
        return (np.asarray(buffer.address, dtype=np.uint64),)

    return run


HANDLERS: dict[type[Operation], Builder] = {
    view_ops.MakeTensorViewOp: _build_make_tensor_view,
    view_ops.MakePartitionViewOp: _build_make_tile_view,
    view_ops.MakeStridedViewOp: _build_make_tile_view,
    view_ops.MakeGatherScatterViewOp: _build_make_tile_view,
    view_ops.GetTensorShapeOp: _build_shape_query(of_tile_view=False),
    view_ops.GetIndexSpaceShapeOp: _build_shape_query(of_tile_view=True),
    view_access.LoadViewTkoOp: _build_load_view,
    view_access.StoreViewTkoOp: _build_store_view,
    view_access.AtomicRedViewTkoOp: _build_atomic_red_view,
    pointers.LoadPtrTkoOp: _build_load_ptr,
    pointers.StorePtrTkoOp: _build_store_ptr,
    pointers.AtomicRMWTkoOp: _build_atomic_rmw,
    pointers.AtomicCASTkoOp: _build_atomic_cas,
    tokens.AllocaOp: _build_alloca,
    tokens.MakeTokenOp: token,
    tokens.JoinTokensOp: token,
    tokens.MemoryFenceAliasTkoOp: token,
}
