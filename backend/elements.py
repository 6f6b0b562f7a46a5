"""Tile IR element types in numpy: in tiles (carriers) and in memory (storage).

=================  ===============  ==========================================
element type       carrier          notes
=================  ===============  ==========================================
``i1``             ``bool``
``i8`` ... ``i64`` ``int8`` ...     signless: ops read them signed or unsigned
``i4``             ``int8``         values in ``[-8, 7]``
``f16/f32/f64``    numpy's own
other floats       ``float32``      values always representable in the format
``ptr<E>``         ``uint64``       byte addresses
=================  ===============  ==========================================

In memory (``storage_dtype``) elements have their Tile IR layout: ``i1`` and
the 8-bit floats take one byte, ``bf16`` two, ``tf32`` four (an ``f32`` whose
low 13 mantissa bits are ignored).  ``to_storage``/``from_storage`` convert,
so the host can build e.g. ``bf16`` buffers from float arrays.  The
interpreter computes on carriers; the runtime and the CUDA backend use the
storage conversions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import BFloat16Type, Float4E2M1FNType, Float32Type, FloatTF32Type
from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.types import PointerType, int_width, is_float

from . import floats
from safetile.backend.typecache import per_type

POISON_BITS = 0xDEADBEEFDEADBEEF
"""The bit pattern of unspecified integer and pointer values (truncated)."""

_INT_CARRIERS = {1: np.dtype(np.bool_), 4: np.dtype(np.int8), 8: np.dtype(np.int8),
                 16: np.dtype(np.int16), 32: np.dtype(np.int32), 64: np.dtype(np.int64)}
_UNSIGNED = {1: np.dtype(np.uint8), 4: np.dtype(np.uint8), 8: np.dtype(np.uint8),
             16: np.dtype(np.uint16), 32: np.dtype(np.uint32), 64: np.dtype(np.uint64)}
_SIGNED_VIEW = {1: np.dtype(np.int8), 4: np.dtype(np.int8), 8: np.dtype(np.int8),
                16: np.dtype(np.int16), 32: np.dtype(np.int32), 64: np.dtype(np.int64)}
POINTER = np.dtype(np.uint64)


# --------------------------------------------------------------------------
# Element types
# --------------------------------------------------------------------------


@per_type
def carrier(t: Attribute) -> np.dtype:
    """The numpy dtype that holds elements of type ``t`` in a tile."""
    if isinstance(t, PointerType):
        return POINTER
    width = int_width(t)
    if width is not None:
        return _INT_CARRIERS[width]
    if is_float(t):
        return floats.carrier_of(t)
    raise TypeError(f"no carrier for element type {t}")


def signed(x: np.ndarray, width: int) -> np.ndarray:
    """Integer carriers read as signed (``i1``: true is -1)."""
    if width == 1:
        return -x.astype(np.int8)
    return x


def unsigned(x: np.ndarray, width: int) -> np.ndarray:
    """Integer carriers read as unsigned."""
    if width == 1:
        return x.astype(np.uint8)
    if width == 4:
        return (x & 0xF).astype(np.uint8)
    return x.view(_UNSIGNED[width])


def wrap(x: np.ndarray, width: int) -> np.ndarray:
    """Integers of any numpy integer type, wrapped into the ``width``-bit carrier."""
    if width == 1:
        return (x & 1).astype(np.bool_)
    if width == 4:
        return (((x & 0xF) ^ 8) - 8).astype(np.int8)
    return x.astype(_INT_CARRIERS[width])


def poison(shape: tuple[int, ...], t: Attribute) -> np.ndarray:
    """A tile of unspecified values: NaN floats, ``0xDEADBEEF...`` integers and pointers."""
    dtype = carrier(t)
    if dtype.kind == "f":
        return np.full(shape, np.nan, dtype=dtype)
    if dtype.kind == "b":
        return np.ones(shape, dtype=dtype)
    bits = POISON_BITS & ((1 << (dtype.itemsize * 8)) - 1)
    return np.full(shape, bits, dtype=_UNSIGNED[dtype.itemsize * 8]).view(dtype)


def scalar(value: Any, t: Attribute) -> np.ndarray:
    """A Python number as a 0-d tile of element type ``t``.

    Integers must fit the signed or the unsigned range of the width (they are
    then wrapped); floats are rounded to nearest-even.
    """
    width = int_width(t)
    if width is not None:
        if isinstance(value, (float, np.floating)) or not isinstance(value, (int, np.integer, bool, np.bool_)):
            raise TypeError(f"expected an integer for {t}, got {value!r}")
        v = int(value)
        if not -(1 << (width - 1)) <= v < (1 << width):
            raise ValueError(f"{v} does not fit in {t}")
        return wrap(np.asarray(v & ((1 << width) - 1), dtype=np.uint64), width)
    if is_float(t):
        if not isinstance(value, (int, float, np.integer, np.floating)):
            raise TypeError(f"expected a number for {t}, got {value!r}")
        return floats.round_to_format(np.asarray(float(value)), t)
    raise TypeError(f"no scalar of type {t}")


# --------------------------------------------------------------------------
# Bits and storage
# --------------------------------------------------------------------------


def to_bits(x: np.ndarray, t: Attribute) -> np.ndarray:
    """The bit pattern of each element, as an unsigned integer array."""
    width = int_width(t)
    if width is not None:
        return unsigned(x, width)
    if isinstance(t, PointerType):
        return x
    dtype = carrier(t)
    if dtype != np.float32 or isinstance(t, Float32Type):
        return x.view(_UNSIGNED[dtype.itemsize * 8])
    if isinstance(t, BFloat16Type):
        return (x.view(np.uint32) >> 16).astype(np.uint16)
    if isinstance(t, FloatTF32Type):
        return x.view(np.uint32) >> 13
    return floats.narrow_encode(x, t)


def from_bits(bits: np.ndarray, t: Attribute) -> np.ndarray:
    """Elements of type ``t`` from their bit patterns (inverse of ``to_bits``)."""
    width = int_width(t)
    if width is not None:
        if width == 1:
            return (bits & 1).astype(np.bool_)
        return wrap(bits.astype(_UNSIGNED[width]).view(_SIGNED_VIEW[width]), width)
    if isinstance(t, PointerType):
        return bits.astype(POINTER)
    dtype = carrier(t)
    if dtype != np.float32 or isinstance(t, Float32Type):
        return bits.astype(_UNSIGNED[dtype.itemsize * 8]).view(dtype)
    if isinstance(t, BFloat16Type):
        return (bits.astype(np.uint32) << 16).view(np.float32)
    if isinstance(t, FloatTF32Type):
        return (bits.astype(np.uint32) << 13).view(np.float32)
    return floats.narrow_decode(bits, t)


def bit_width(t: Attribute) -> int:
    """Bits an element takes when a tile is packed (``tf32``: 32, pointers: 64)."""
    width = int_width(t)
    if width is not None:
        return width
    if isinstance(t, PointerType):
        return 64
    if isinstance(t, FloatTF32Type):
        return 32
    return floats.Format.of(t).sem.bitwidth


@per_type
def storage_dtype(t: Attribute) -> np.dtype:
    """The numpy dtype of one element of type ``t`` in global memory."""
    if isinstance(t, Float4E2M1FNType) or int_width(t) == 4:
        raise TypeError(f"{t} has no byte-addressable storage")
    if int_width(t) == 1:
        return np.dtype(np.uint8)
    if isinstance(t, FloatTF32Type):
        return np.dtype(np.float32)
    dtype = carrier(t)
    if dtype == np.float32 and not isinstance(t, Float32Type):
        return np.dtype(np.uint16 if isinstance(t, BFloat16Type) else np.uint8)
    return dtype


def decode(raw: np.ndarray, t: Attribute) -> np.ndarray:
    """Carriers of elements read from memory (``raw`` in ``storage_dtype(t)``)."""
    if int_width(t) == 1:
        return raw != 0
    if isinstance(t, FloatTF32Type):
        return (raw.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)
    if raw.dtype == carrier(t):
        return raw
    return from_bits(raw, t)


def encode(x: np.ndarray, t: Attribute) -> np.ndarray:
    """Carriers as written to memory (inverse of ``decode``)."""
    if int_width(t) == 1:
        return x.astype(np.uint8)
    if isinstance(t, FloatTF32Type) or x.dtype == storage_dtype(t):
        return x
    return to_bits(x, t)


def to_storage(values: Any, t: Attribute) -> np.ndarray:
    """Host numbers as elements of type ``t`` in memory (floats rounded to
    nearest-even into the format, integers wrapped)."""
    x = np.asarray(values)
    width = int_width(t)
    if width is not None:
        return encode(wrap(x, width), t)
    if is_float(t):
        return encode(floats.round_to_format(x.astype(np.float64), t), t)
    return x.astype(storage_dtype(t))


def from_storage(raw: np.ndarray, t: Attribute) -> np.ndarray:
    """Elements of type ``t`` in memory as float64 / int64 host numbers."""
    x = decode(np.asarray(raw).view(storage_dtype(t)), t)
    return x.astype(np.float64 if is_float(t) else np.int64)
