"""Element types and scalar bit patterns as bytecode stores them.

Shared by the writer and the reader: the type tag of each element type, and
the bits of integer and float scalars (``IntegerAttr``/``FloatAttr`` payloads,
dense constants).  Float encoding is xDSL's (round to nearest even, LLVM's
semantics for the 8- and 4-bit formats).
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatTF32Type,
    IntegerType,
)
from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.types import Float8E5M3FNUType

from .encodings import TypeTag

INT_TAGS = {
    1: TypeTag.I1,
    4: TypeTag.I4,
    8: TypeTag.I8,
    16: TypeTag.I16,
    32: TypeTag.I32,
    64: TypeTag.I64,
}

FLOAT_TAGS: dict[type[Attribute], TypeTag] = {
    Float16Type: TypeTag.F16,
    BFloat16Type: TypeTag.BF16,
    Float32Type: TypeTag.F32,
    FloatTF32Type: TypeTag.TF32,
    Float64Type: TypeTag.F64,
    Float8E4M3FNType: TypeTag.F8E4M3FN,
    Float8E5M2Type: TypeTag.F8E5M2,
    Float8E8M0FNUType: TypeTag.F8E8M0FNU,
    Float4E2M1FNType: TypeTag.F4E2M1FN,
    Float8E5M3FNUType: TypeTag.F8E5M3FNU,
}

ELEMENT_TYPES: dict[int, Attribute] = {
    **{tag: IntegerType(w) for w, tag in INT_TAGS.items()},
    **{tag: cls() for cls, tag in FLOAT_TAGS.items()},
}
"""The element type each scalar tag stands for."""

ELEMENT_NAMES: dict[int, str] = {
    tag: (f"i{t.width.data}" if isinstance(t, IntegerType) else t.name.split(".")[-1])
    for tag, t in ELEMENT_TYPES.items()
}
"""The textual spelling of each scalar tag (keys of ``ELEMENT_TYPE_SINCE``)."""


def element_tag(t: Attribute) -> TypeTag | None:
    """The tag of an integer or float element type, or None."""
    if isinstance(t, IntegerType):
        return INT_TAGS.get(t.width.data)
    return FLOAT_TAGS.get(type(t))


def bit_width(t: Attribute) -> int:
    """Bits of an integer or float element type (``tf32``: 19)."""
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, Float8E5M3FNUType):
        return 8
    assert isinstance(t, AnyFloat)
    return t.bitwidth


def float_to_bits(value: float, t: Attribute) -> int:
    """The bit pattern of ``value`` in float type ``t``."""
    if isinstance(t, Float8E5M3FNUType):
        raise ValueError("f8E5M3FNU scalars have no value encoding here")
    assert isinstance(t, AnyFloat)
    return int.from_bytes(t.pack([value]), "little")


def bits_to_float(bits: int, t: Attribute) -> float:
    """The value of a bit pattern of float type ``t``."""
    if isinstance(t, Float8E5M3FNUType):
        raise ValueError("f8E5M3FNU scalars have no value encoding here")
    assert isinstance(t, AnyFloat)
    size = (bit_width(t) + 7) // 8
    return next(iter(t.iter_unpack(bits.to_bytes(size, "little"))))
