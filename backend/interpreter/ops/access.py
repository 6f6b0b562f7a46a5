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
        span = spans[0]
        _check(frame, span, dtype, write=False, atomic=atomic, what="read")
        return elements.decode(span.buffer.typed(dtype)[span.index], t).reshape(shape)
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
        if span.buffer.readonly:
            raise MemoryAccessError(f"store to read-only buffer '{span.buffer.name}'")
        _check(frame, span, dtype, write=True, atomic=atomic, what="wrote")
        span.buffer.typed(dtype)[span.index] = raw if span.lanes is None else raw[span.lanes]


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
