"""Lazy device operations: nothing runs until an op is driven.

``DeviceOp`` is a unit of device work producing a value.  Drive it with
``.sync()`` (on the default stream), ``.sync_on(stream)`` or ``await op``;
compose with ``.then(f)`` (``f`` takes the value and returns a value or
another ``DeviceOp``), ``zip(a, b, ...)`` (a tuple of their values) and
``.shared()`` (a read-only handle of the op's tensor).  An
op runs once: driving it again is a ``DeviceOpError``.  Allocation ops
(``zeros``, ``ones``, ``full``, ``arange``, ``from_numpy``) give a ``Tensor``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Generator, Sequence
from typing import Any

import numpy as np

from safetile.frontend.dsl import DType, f32, i32

from .errors import DeviceOpError
from .tensor import Holder, Tensor, numpy_dtype, shared, tensor_from_values

_ids = itertools.count(1)


class Stream:
    """An in-order queue of device work.  On the CPU backend work runs when
    it is submitted; ``synchronize()`` is then a no-op."""

    def __init__(self, name: str = "stream"):
        self.name = name
        self.submitted: list[str] = []
        """Descriptions of the ops run on this stream, in order."""

    def synchronize(self) -> None:
        return None

    def __repr__(self) -> str:
        return f"Stream({self.name!r})"


default_stream = Stream("default")


class DeviceOp(Holder):
    """A lazy unit of device work producing a value."""

    def __init__(self, name: str, run: Callable[[Stream], Any]):
        self.id = next(_ids)
        self.name = name
        self._run = run
        self.state = "pending"

    def describe(self) -> str:
        return f"DeviceOp #{self.id} '{self.name}' ({self.state})"

    def __repr__(self) -> str:
        return f"<{self.describe()}>"

    def sync_on(self, stream: Stream) -> Any:
        """Run on ``stream`` and wait: the op's value."""
        if self.state != "pending":
            raise DeviceOpError(f"{self.describe()} was already driven; an op runs once")
        self.state = "running"
        try:
            value = self._run(stream)
        except BaseException:
            self.state = "failed"
            raise
        stream.submitted.append(self.name)
        stream.synchronize()
        self.state = "done"
        return value

    def sync(self) -> Any:
        """Run on the default stream and wait: the op's value."""
        return self.sync_on(default_stream)

    def __await__(self) -> Generator[Any, None, Any]:
        yield from ()  # the CPU backend runs the op when it is awaited
        return self.sync()

    def then(self, f: Callable[[Any], Any]) -> DeviceOp:
        """An op running this one, then ``f(value)`` (a value, or an op that is run)."""

        def run(stream: Stream) -> Any:
            out = f(self.sync_on(stream))
            return out.sync_on(stream) if isinstance(out, DeviceOp) else out

        return DeviceOp(f"{self.name}.then({getattr(f, '__name__', 'f')})", run)

    def shared(self) -> DeviceOp:
        """An op giving a read-only ``Shared`` handle of this op's tensor."""
        return self.then(shared)


def zip(*ops: DeviceOp) -> DeviceOp:  # noqa: A001 - the model's name
    """An op running ``ops`` in order: the tuple of their values."""
    for op in ops:
        if not isinstance(op, DeviceOp):
            raise TypeError(f"zip takes DeviceOps, got {type(op).__name__}")

    def run(stream: Stream) -> tuple[Any, ...]:
        return tuple(op.sync_on(stream) for op in ops)

    return DeviceOp("zip(" + ", ".join(op.name for op in ops) + ")", run)


def value(v: Any) -> DeviceOp:
    """An op that just gives ``v``."""
    return DeviceOp("value", lambda stream: v)


# -- allocation ----------------------------------------------------------------


def _shape(shape: Sequence[int] | int) -> tuple[int, ...]:
    shape = (shape,) if isinstance(shape, int) else tuple(int(d) for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError(f"tensor shape {shape} has a negative extent")
    return shape


def full(shape: Sequence[int] | int, value: Any, dtype: DType | None = None) -> DeviceOp:
    """A tensor of ``shape`` filled with ``value`` (f32 by default)."""
    dtype = f32 if dtype is None else dtype
    shape = _shape(shape)
    return DeviceOp(f"full{shape}", lambda stream: tensor_from_values(np.full(shape, value), dtype))


def zeros(shape: Sequence[int] | int, dtype: DType = f32) -> DeviceOp:
    """A tensor of zeros."""
    shape = _shape(shape)
    return DeviceOp(f"zeros{shape}", lambda stream: Tensor(np.zeros(shape, numpy_dtype(dtype)), dtype))


def ones(shape: Sequence[int] | int, dtype: DType = f32) -> DeviceOp:
    """A tensor of ones."""
    shape = _shape(shape)
    return DeviceOp(f"ones{shape}", lambda stream: tensor_from_values(np.ones(shape), dtype))


def arange(start: int, stop: int | None = None, step: int = 1, dtype: DType = i32) -> DeviceOp:
    """A 1-d tensor ``start, start + step, ... < stop`` (like ``numpy.arange``)."""
    values = np.arange(start) if stop is None else np.arange(start, stop, step)
    return DeviceOp(f"arange({len(values)})", lambda stream: tensor_from_values(values, dtype))


_FROM_NUMPY = {
    "float16": "f16", "float32": "f32", "float64": "f64", "int8": "i8", "int16": "i16",
    "int32": "i32", "int64": "i64", "bool": "bool_",
}


def from_numpy(array: np.ndarray, dtype: DType | None = None, *, copy: bool = True) -> DeviceOp:
    """A tensor holding ``array`` (converted to ``dtype``; by default the
    array's own type).  ``copy=False`` wraps the array itself when its type
    is the storage type (then host and tensor share memory)."""
    import safetile.frontend.dsl as dsl

    if dtype is None:
        name = _FROM_NUMPY.get(np.dtype(array.dtype).name)
        if name is None:
            raise TypeError(f"no element type for numpy {array.dtype}; pass dtype=")
        dtype = getattr(dsl, name)

    def run(stream: Stream) -> Tensor:
        if not copy and array.dtype == numpy_dtype(dtype):
            return Tensor(array, dtype)
        return tensor_from_values(array, dtype)

    return DeviceOp(f"from_numpy{tuple(array.shape)}", run)
