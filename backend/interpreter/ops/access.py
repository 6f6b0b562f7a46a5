"""Element loads, stores and read-modify-writes through global memory.

Every access goes through ``GlobalMemory.locate`` (bounds and alignment) and,
when the launch detects races, the ``RaceDetector``.  Masked-off lanes are
never touched; a load gives them unspecified values (``elements.poison``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from safetile.backend import elements
from xdsl.ir import Attribute

from ..engine import Frame
from ..errors import MemoryAccessError, UnsupportedError
from ..memory import Span
from ..views import Box

Update = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""(old values, their lane positions) -> new values (an atomic's effect)."""


def _dtype(t: Attribute) -> np.dtype:
    try:
        return elements.storage_dtype(t)
    except TypeError as err:
        raise UnsupportedError(str(err)) from None


def _spans(frame: Frame, addresses: np.ndarray, dtype: np.dtype) -> list[Span]:
    return frame.launch.memory.locate(addresses, dtype.itemsize)


def _check(frame: Frame, span: Span, dtype: np.dtype, *, write: bool, atomic: bool, what: str) -> None:
    races = frame.launch.races
    if races is not None:
        races.access(span, dtype.itemsize, frame.linear_id, write=write, atomic=atomic, what=what)


def load(
    frame: Frame,
    addresses: np.ndarray,
    t: Attribute,
    mask: np.ndarray | None = None,
    *,
    atomic: bool = False,
) -> np.ndarray:
    """The elements of type ``t`` at ``addresses`` (masked lanes: poison)."""
    dtype = _dtype(t)
    shape = addresses.shape
    flat = addresses.ravel()
    active = None if mask is None else np.flatnonzero(mask)
    spans = _spans(frame, flat if active is None else flat[active], dtype)
    if active is None and len(spans) == 1 and spans[0].lanes is None:
        return _read(frame, spans[0], dtype, t, atomic).reshape(shape)
    raw = np.zeros(flat.size if active is None else active.size, dtype=dtype)
    for span in spans:
        _check(frame, span, dtype, write=False, atomic=atomic, what="read")
        raw[slice(None) if span.lanes is None else span.lanes] = span.buffer.typed(dtype)[span.index]
    loaded = elements.decode(raw, t)
    if active is None:
        return loaded.reshape(shape)
    out = elements.poison((flat.size,), t)
    out[active] = loaded
    return out.reshape(shape)


def store(
    frame: Frame,
    addresses: np.ndarray,
    x: np.ndarray,
    t: Attribute,
    mask: np.ndarray | None = None,
    *,
    atomic: bool = False,
) -> None:
    """Write ``x`` (elements of type ``t``) to ``addresses`` where ``mask``."""
    dtype = _dtype(t)
    flat = addresses.ravel()
    raw = elements.encode(np.broadcast_to(x, addresses.shape), t).ravel()
    if mask is not None:
        active = np.flatnonzero(mask)
        flat, raw = flat[active], raw[active]
    for span in _spans(frame, flat, dtype):
        _write(frame, span, dtype, raw if span.lanes is None else raw[span.lanes], atomic)


def _read(frame: Frame, span: Span, dtype: np.dtype, t: Attribute, atomic: bool) -> np.ndarray:
    _check(frame, span, dtype, write=False, atomic=atomic, what="read")
    return elements.decode(span.buffer.typed(dtype)[span.index], t)


def _write(frame: Frame, span: Span, dtype: np.dtype, raw: np.ndarray, atomic: bool) -> None:
    if span.buffer.readonly:
        raise MemoryAccessError(f"store to read-only buffer '{span.buffer.name}'")
    _check(frame, span, dtype, write=True, atomic=atomic, what="wrote")
    span.buffer.typed(dtype)[span.index] = raw


def _box_span(frame: Frame, box: Box, dtype: np.dtype) -> Span | None:
    if dtype.itemsize != box.itemsize:
        return None
    return frame.launch.memory.locate_box(box.start, box.offsets, box.extent, dtype.itemsize)


def load_box(frame: Frame, box: Box, t: Attribute, *, atomic: bool = False) -> np.ndarray | None:
    """``load`` of a tile wholly inside its tensor (``views.box``), without an
    address a lane; None where the box is not aligned inside one live buffer
    (``load`` on its addresses then raises what is wrong)."""
    dtype = _dtype(t)
    span = _box_span(frame, box, dtype)
    if span is None:
        return None
    return _read(frame, span, dtype, t, atomic).reshape(box.offsets.shape)


def store_box(frame: Frame, box: Box, x: np.ndarray, t: Attribute, *, atomic: bool = False) -> bool:
    """``store`` of a tile wholly inside its tensor; False (nothing written)
    where ``load_box`` gives None."""
    dtype = _dtype(t)
    span = _box_span(frame, box, dtype)
    if span is None:
        return False
    _write(frame, span, dtype, elements.encode(np.broadcast_to(x, box.offsets.shape), t).ravel(), atomic)
    return True


def read_modify_write(
    frame: Frame,
    addresses: np.ndarray,
    t: Attribute,
    mask: np.ndarray | None,
    update: Update,
) -> np.ndarray:
    """Apply an atomic ``update`` lane by lane in order; the old values
    (masked lanes: poison).

    Lanes hitting distinct addresses are applied at once; if two lanes share
    an address they run one after the other, so each sees the previous one.
    """
    flat = addresses.ravel()
    lanes = np.arange(flat.size) if mask is None else np.flatnonzero(mask)
    old = elements.poison((flat.size,), t)
    if lanes.size == 0:
        return old.reshape(addresses.shape)
    targets = flat[lanes]
    if np.unique(targets).size == targets.size:
        groups = [lanes]
    else:
        groups = [lanes[i : i + 1] for i in range(lanes.size)]
    for group in groups:
        current = load(frame, flat[group], t, atomic=True)
        old[group] = current
        store(frame, flat[group], update(current, group), t, atomic=True)
    return old.reshape(addresses.shape)
