"""Tile creation and shape manipulation (constant, iota, reshape, broadcast, ...).

``constant`` holds its value as a builtin ``DenseIntOrFPElementsAttr`` whose
type is the ``tensor`` twin of the result tile (xDSL's dense attribute only
accepts builtin shaped types).  Its data is the raw element bit patterns,
little-endian, ``ceil(width / 8)`` bytes per element (one byte per ``i1``,
three per ``tf32``), so every value of every element type, NaN payloads
included, survives a round trip.

The literal syntax is NVIDIA's ``custom<DenseTypedElementsAttr>``:
``<f32: [1.0, 2.0]> : tile<2xf32>``; values print the way MLIR prints dense
elements (``1.500000e+00``, ``0x7F800000`` for non-finite values, one value
for a splat, a ``"0x..."`` string beyond 100 elements).
"""

from __future__ import annotations

import math
from io import StringIO
from collections.abc import Callable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from xdsl.dialects.builtin import (
    BFloat16Type,
    BytesAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatNanEncoding,
    FloatNonfiniteBehavior,
    FloatSemantics,
    FloatTF32Type,
    I32,
    I64,
    IntegerAttr,
    IntegerType,
    ReducedPrecisionFloatType,
    TensorType,
    i32,
)
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.constraints import InferenceContext
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from ..types import Float8E5M3FNUType, TileType, is_float, is_int, is_number
from ._common import AnyTile, CudaTileOp, TileOf

# --------------------------------------------------------------------------
# Element-type families of Types.td (shared with conversion.py, compare.py)
# --------------------------------------------------------------------------


_I4 = IntegerType(4)


def _is_int_or_i4(t: Attribute) -> bool:
    return is_int(t) or t == _I4


def _int_width(t: Attribute) -> int | None:
    """Width of a (signless) integer element type, ``i4`` included."""
    return t.width.data if isinstance(t, IntegerType) and _is_int_or_i4(t) else None


_INTS = "i1 or i8 or i16 or i32 or i64"
_FLOATS = (
    "f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or "
    "f4E2M1FN or fnv8E5M3FNU"
)

IntTile = TileOf(f"tile of {_INTS} values", is_int)
FloatTile = TileOf(f"tile of {_FLOATS} values", is_float)
NumberTile = TileOf(f"tile of {_INTS} or {_FLOATS} values", is_number)
IntOrI4Tile = TileOf(f"tile of {_INTS} or i4 values", _is_int_or_i4)
NumberOrI4Tile = TileOf(
    f"tile of {_INTS} or {_FLOATS} or i4 values", lambda t: is_number(t) or t == _I4
)
I8Tile = TileOf("tile of i8 values", lambda t: _int_width(t) == 8)
I64Tile = TileOf("tile of i64 values", lambda t: _int_width(t) == 64)


@dataclass(frozen=True)
class _I32Index(TileOf):
    """A ``tile<i32>`` index; its type is implied, so the text leaves it out."""

    def can_infer(self, var_constraint_names: AbstractSet[str]) -> bool:
        return True

    def infer(self, context: InferenceContext) -> TileType:
        return TileType((), i32)


I32Index = _I32Index("variadic of 0D tile of i32 values", lambda t: t == i32, rank=0)


def _verify_all_match(
    names: str, types: Sequence[Attribute], key: Callable[[TileType], object], what: str
) -> None:
    """ODS's ``AllTypesMatch``/``AllShapesMatch``/... on tile-typed values."""
    keys = [key(t) if isinstance(t, TileType) else t for t in types]
    if any(k != keys[0] for k in keys):
        raise VerifyException(f"failed to verify that all of {{{names}}} have {what}")


def same_shape(names: str, *types: Attribute) -> None:
    _verify_all_match(names, types, lambda t: t.shape, "same shape")


def same_rank(names: str, *types: Attribute) -> None:
    _verify_all_match(names, types, lambda t: t.rank, "same rank")


def same_type(names: str, *types: Attribute) -> None:
    _verify_all_match(names, types, lambda t: t, "same type")


def same_element_type(names: str, *types: Attribute) -> None:
    _verify_all_match(names, types, lambda t: t.element_type, "the same element type")


def _shape_list(shape: Sequence[int]) -> str:
    return "[" + ", ".join(map(str, shape)) + "]"


# --------------------------------------------------------------------------
# Floating-point formats: exact decoding, rounding, MLIR-style printing
# --------------------------------------------------------------------------

_SEMANTICS: dict[type[Attribute], FloatSemantics] = {
    Float16Type: FloatSemantics(5, 10, 15),
    BFloat16Type: FloatSemantics(8, 7, 127),
    Float32Type: FloatSemantics(8, 23, 127),
    Float64Type: FloatSemantics(11, 52, 1023),
    # Unsigned, no infinity, NaN = 0xFF (as NVIDIA's tools print it).
    Float8E5M3FNUType: FloatSemantics(
        5,
        3,
        15,
        nonfinite=FloatNonfiniteBehavior.NAN_ONLY,
        nan_encoding=FloatNanEncoding.ALL_ONES,
        has_sign=False,
    ),
}
"""Formats xDSL gives no ``FloatSemantics`` of their own."""


@dataclass(frozen=True)
class FloatFormat:
    """One float element type, as LLVM's ``APFloat`` sees it."""

    sem: FloatSemantics

    @staticmethod
    def of(t: Attribute) -> FloatFormat:
        if isinstance(t, ReducedPrecisionFloatType):
            return FloatFormat(t.SEMANTICS)
        return FloatFormat(_SEMANTICS[type(t)])

    @property
    def width(self) -> int:
        return self.sem.bitwidth

    @property
    def precision(self) -> int:
        """Significand bits, the integer bit included (``semantics->precision``)."""
        return self.sem.mantissa_bits + 1

    @property
    def min_exponent(self) -> int:
        return (1 if self.sem.has_zero else 0) - self.sem.exponent_bias

    @property
    def max_exponent(self) -> int:
        return (self._largest >> self.sem.mantissa_bits) - self.sem.exponent_bias

    @property
    def _largest(self) -> int:
        """Bit pattern of the largest finite value."""
        s = self.sem
        if s.nonfinite is FloatNonfiniteBehavior.IEEE:
            return (s.max_exponent << s.mantissa_bits) - 1
        top = (s.max_exponent << s.mantissa_bits) | s.max_mantissa
        return top - 1 if s.nan_encoding is FloatNanEncoding.ALL_ONES else top

    def represents_all_of(self, other: FloatFormat) -> bool:
        """``APFloat::isRepresentableBy(other, self)``: a widening conversion."""
        return (
            other.max_exponent <= self.max_exponent
            and other.min_exponent >= self.min_exponent
            and other.precision <= self.precision
        )

    def _sign_bit(self, negative: bool) -> int:
        return (1 << self.sem.sign_shift) if negative and self.sem.has_sign else 0

    def _nan(self, negative: bool) -> int:
        s = self.sem
        if s.nan_encoding is FloatNanEncoding.ALL_ONES:
            return self._sign_bit(negative) | (s.max_exponent << s.mantissa_bits) | s.max_mantissa
        return (s.max_exponent << s.mantissa_bits) | (1 << (s.mantissa_bits - 1))

    def _overflow(self, negative: bool) -> int:
        s = self.sem
        if s.nonfinite is FloatNonfiniteBehavior.IEEE:
            return self._sign_bit(negative) | (s.max_exponent << s.mantissa_bits)
        if s.nonfinite is FloatNonfiniteBehavior.NAN_ONLY:
            return self._nan(negative)
        return self._sign_bit(negative) | self._largest

    def decode(self, bits: int) -> tuple[bool, Fraction | None]:
        """``(negative, value)``; the value is None for NaN and infinities."""
        s = self.sem
        mb = s.mantissa_bits
        negative = s.has_sign and bool(bits >> s.sign_shift & 1)
        exp = bits >> mb & s.max_exponent
        mant = bits & s.max_mantissa
        if s.nonfinite is FloatNonfiniteBehavior.IEEE and exp == s.max_exponent:
            return negative, None
        if (bits & ~self._sign_bit(True)) > self._largest:
            return negative, None
        if s.has_zero and exp == 0:
            return negative, Fraction(mant) * Fraction(2) ** (1 - s.exponent_bias - mb)
        return negative, Fraction((1 << mb) | mant) * Fraction(2) ** (exp - s.exponent_bias - mb)

    def round(self, x: Fraction) -> int | None:
        """Bits of positive ``x`` rounded to nearest-even; None on overflow."""
        s = self.sem
        mb = s.mantissa_bits
        exp = x.numerator.bit_length() - x.denominator.bit_length()
        if Fraction(2) ** exp > x:
            exp -= 1
        exp = max(exp, self.min_exponent)
        scaled = x / Fraction(2) ** (exp - mb)
        n = math.floor(scaled)
        rest = scaled - n
        if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n & 1):
            n += 1
        if n >> (mb + 1):
            n >>= 1
            exp += 1
        if n >> mb:
            bits = ((exp + s.exponent_bias) << mb) | (n & s.max_mantissa)
        elif s.has_zero:
            bits = n  # subnormal
        else:
            bits = 0  # no zero or subnormals (f8E8M0FNU): the smallest value
        return None if bits > self._largest else bits

    def encode(self, value: float) -> int:
        """Bits of a double converted to this format (``APFloat::convert``)."""
        negative = math.copysign(1.0, value) < 0
        if math.isnan(value):
            return self._nan(negative)
        if negative and not self.sem.has_sign:
            return self._nan(False)
        if math.isinf(value):
            return self._overflow(negative)
        if value == 0:
            return self._sign_bit(negative) if self.sem.has_zero else 0
        bits = self.round(Fraction(abs(value)))
        return self._overflow(negative) if bits is None else self._sign_bit(negative) | bits

    def format(self, bits: int) -> str:
        """The value as MLIR prints it (``printFloatValue``)."""
        negative, value = self.decode(bits)
        if value is not None:
            text = _apfloat_to_string(negative, value, self.precision, 6, 0, False)
            if value == 0 or self.round(abs(Fraction(text))) == bits & ~self._sign_bit(True):
                return text
            text = _apfloat_to_string(negative, value, self.precision, 0, 3, True)
            if "." in text:
                return text
        return f"0x{bits:X}"


def _apfloat_to_string(
    negative: bool,
    value: Fraction,
    precision: int,
    format_precision: int,
    max_padding: int,
    truncate_zero: bool,
) -> str:
    """LLVM's ``APFloat::toString`` for a finite value, digit for digit."""
    sign = "-" if negative else ""
    if value == 0:
        if max_padding:
            return sign + "0"
        if truncate_zero:
            return sign + "0.0E+0"
        return sign + "0.0" + "0" * max(format_precision - 1, 0) + "e+00"
    if not format_precision:
        format_precision = 2 + precision * 59 // 196
    # value == mant * 2**exp2 exactly (the denominator is a power of two).
    mant, exp2 = value.numerator, 1 - value.denominator.bit_length()
    zeros = (mant & -mant).bit_length() - 1
    mant, exp2 = mant >> zeros, exp2 + zeros
    if exp2 >= 0:
        mant, exp = mant << exp2, 0
    else:
        mant, exp = mant * 5**-exp2, exp2
    # Drop the digits that cannot matter, before rounding in decimal.
    needed = (format_precision * 196 + 58) // 59
    if mant.bit_length() > needed:
        tens = (mant.bit_length() - needed) * 59 // 196
        mant //= 10**tens
        exp += tens
    digits = str(mant)
    exp += len(digits) - len(digits.rstrip("0"))
    digits = digits.rstrip("0")
    if len(digits) > format_precision:  # round half up to format_precision digits
        dropped = len(digits) - format_precision
        kept = digits[:format_precision]
        if digits[format_precision] >= "5":
            kept = str(int(kept) + 1)
        if len(kept) > format_precision:
            digits, exp = "1", exp + len(digits)
        else:
            exp += dropped + len(kept) - len(kept.rstrip("0"))
            digits = kept.rstrip("0")
    n = len(digits)
    if not max_padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_padding or n + exp > format_precision
    else:
        msd = exp + n - 1
        scientific = msd < 0 and -msd > max_padding
    if scientific:
        exp += n - 1
        frac = "0" if n == 1 and truncate_zero else digits[1:]
        if not truncate_zero:
            frac += "0" * max(format_precision - n + 1, 0)
        exp_digits = str(abs(exp))
        if not truncate_zero:
            exp_digits = exp_digits.rjust(2, "0")
        marker = "E" if truncate_zero else "e"
        return f"{sign}{digits[0]}.{frac}{marker}{'-' if exp < 0 else '+'}{exp_digits}"
    if exp >= 0:
        return sign + digits + "0" * exp
    whole = exp + n
    if whole > 0:
        return f"{sign}{digits[:whole]}.{digits[whole:]}"
    return f"{sign}0.{'0' * -whole}{digits}"


# --------------------------------------------------------------------------
# Dense constant literals: <E: values> : tile<...>
# --------------------------------------------------------------------------

CONSTANT_ELEMENT_TYPES: tuple[type[Attribute], ...] = (
    Float16Type,
    BFloat16Type,
    Float32Type,
    Float64Type,
    FloatTF32Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float4E2M1FNType,
)
"""Float element types a constant can hold (``isValidDenseElementType``)."""

_ELEMENT_TYPE_ERROR = (
    "expect element type to be one of i1 or i8 or i16 or i32 or i64 or f16 or bf16 "
    "or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN values, "
    "but got "
)
_HEX_THRESHOLD = 100
"""MLIR prints a non-splat dense value of more elements as a hex string."""


def is_constant_element(t: Attribute) -> bool:
    return is_int(t) or isinstance(t, CONSTANT_ELEMENT_TYPES)


def element_width(t: Attribute) -> int:
    """``getIntOrFloatBitWidth`` of a number type (19 for ``tf32``)."""
    return _int_width(t) or FloatFormat.of(t).width


def _storage_bytes(t: Attribute) -> int:
    return (element_width(t) + 7) // 8


def type_text(t: Attribute) -> str:
    """A type as MLIR diagnostics show it: fully qualified."""
    out = StringIO()
    Printer(stream=out).print_attribute(t)
    return out.getvalue()


class _LiteralParser:
    """Parses the values of ``<E: ...>`` into element bit patterns."""

    def __init__(self, parser: Parser, element_type: Attribute):
        self.parser = parser
        self.element_type = element_type
        self.width = element_width(element_type)
        self.bits: list[int] = []

    def _token(self) -> tuple[MLIRTokenKind, str]:
        tok = self.parser._current_token  # pyright: ignore[reportPrivateUsage]
        return tok.kind, tok.text

    def value(self) -> None:
        if _int_width(self.element_type) is not None:
            self.bits.append(self._integer())
        else:
            self.bits.append(self._float())

    def _integer(self) -> int:
        p, w = self.parser, self.width
        pos = p.pos
        value = p.parse_optional_integer(allow_boolean=w == 1)
        if value is None:
            p.raise_error("expected integer value", pos)
        if not -(2**63) <= value < 2**64:
            p.raise_error("integer value too large", pos)
        if not -(2 ** (w - 1)) <= value < 2**w:
            p.raise_error("integer constant out of range for type", pos)
        return int(value != 0) if w == 1 else value % 2**w

    def _float(self) -> int:
        p = self.parser
        fmt = FloatFormat.of(self.element_type)
        negative = p.parse_optional_punctuation("-") is not None
        pos = p.pos
        kind, text = self._token()
        if kind is MLIRTokenKind.FLOAT_LIT:
            value = p.parse_float(allow_negative=False)
            return fmt.encode(-value if negative else value)
        if kind is not MLIRTokenKind.INTEGER_LIT:
            p.raise_error("expected floating point literal", pos)
        if text[:2] not in ("0x", "0X"):
            p.raise_error(
                "unexpected decimal integer literal for a floating point value "
                "(add a trailing dot to make the literal a float)",
                pos,
            )
        if negative:
            p.raise_error("hexadecimal float literal should not have a leading minus", pos)
        bits = p.parse_integer(allow_boolean=False, allow_negative=False)
        if bits.bit_length() > fmt.width:
            p.raise_error("hexadecimal float constant out of range for type", pos)
        return bits

    def nested(self) -> list[int]:
        """A scalar or a nested list of values; returns its shape."""
        p = self.parser
        if p.parse_optional_punctuation("[") is None:
            self.value()
            return []
        shapes: list[list[int]] = []
        while True:
            shape = self.nested()
            if shapes and shape != shapes[0]:
                p.raise_error(
                    "tensor literal is invalid; ranks are not consistent between elements"
                )
            shapes.append(shape)
            if p.parse_optional_punctuation(",") is None:
                break
        p.parse_punctuation("]")
        return [len(shapes), *shapes[0]]


def _element_type_for(parser: Parser) -> Attribute:
    pos = parser.pos
    t = parser.parse_optional_type()
    if t is None:
        parser.raise_error(_ELEMENT_TYPE_ERROR + "'<<NULL TYPE>>'", pos)
    if not is_constant_element(t):
        parser.raise_error(_ELEMENT_TYPE_ERROR + f"'{type_text(t)}'", pos, parser.pos)
    return t


def parse_dense_literal(parser: Parser) -> tuple[DenseIntOrFPElementsAttr, TileType]:
    """``<E: values> : tile<...>`` (``parseDenseTypedElementsAttr``)."""
    if parser.parse_optional_punctuation("<") is None:
        parser.raise_error("expected '<'")
    element_type = _element_type_for(parser)
    parser.parse_punctuation(":")
    literal = _LiteralParser(parser, element_type)
    hex_data = parser.parse_optional_str_literal()
    shape: list[int] = []
    if hex_data is None:
        shape = literal.nested()
    parser.parse_punctuation(">")
    parser.parse_punctuation(":")
    type_pos = parser.pos
    result_type = parser.parse_type()
    if not isinstance(result_type, TileType):
        parser.raise_error(
            "result #0 must be tile of i1 or i8 or i16 or i32 or i64 or f16 or bf16 or "
            "f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN values, "
            f"but got '{type_text(result_type)}'",
            type_pos,
        )
    if result_type.element_type != element_type:
        parser.raise_error(
            f"mismatch between the element type: '{type_text(element_type)}' and the "
            f"tile element type '{type_text(result_type.element_type)}'",
            type_pos,
        )
    expected = list(result_type.shape)
    if shape and shape != expected:
        parser.raise_error(
            f"inferred shape of elements literal ({_shape_list(shape)}) does not match "
            f"type ({_shape_list(expected)})",
            type_pos,
        )
    size = _storage_bytes(element_type)
    if hex_data is None:
        data = b"".join(b.to_bytes(size, "little") for b in literal.bits)
    else:
        data = _hex_payload(parser, hex_data, type_pos)
    if len(data) == size:
        data *= result_type.num_elements
    if len(data) != size * result_type.num_elements:
        parser.raise_error(
            f"hex literal holds {len(data) // size} elements, but the type has "
            f"{result_type.num_elements}",
            type_pos,
        )
    return dense_value(result_type, data), result_type


def _hex_payload(parser: Parser, text: str, pos: int) -> bytes:
    """The ``"0x..."`` form MLIR prints for large non-splat values."""
    try:
        if text[:2] not in ("0x", "0X"):
            raise ValueError
        return bytes.fromhex(text[2:])
    except ValueError:
        parser.raise_error("expected a hex string of the form \"0x...\"", pos)


def dense_value(tile_type: TileType, data: bytes) -> DenseIntOrFPElementsAttr:
    """A constant's value attribute from raw little-endian element data."""
    tensor = TensorType(tile_type.element_type, tile_type.shape)
    return DenseIntOrFPElementsAttr(tensor, BytesAttr(data))


def element_bits(value: DenseIntOrFPElementsAttr) -> list[int]:
    """The bit pattern of every element, in row-major order."""
    size = _storage_bytes(value.get_element_type())
    data = value.data.data
    return [int.from_bytes(data[i : i + size], "little") for i in range(0, len(data), size)]


def _format_element(element_type: Attribute, bits: int) -> str:
    width = _int_width(element_type)
    if width == 1:
        return "true" if bits else "false"
    if width is not None:
        return str(bits - (1 << width) if bits >> (width - 1) else bits)
    return FloatFormat.of(element_type).format(bits)


def format_dense_values(value: DenseIntOrFPElementsAttr, shape: Sequence[int]) -> str:
    """The values of a dense attribute as MLIR prints them (without ``dense<>``)."""
    data = value.data.data
    size = _storage_bytes(value.get_element_type())
    count = len(data) // size
    if count == 1 or data == data[:size] * count:
        return _format_element(value.get_element_type(), element_bits(value)[0])
    if count > _HEX_THRESHOLD:
        return f'"0x{data.hex().upper()}"'
    texts = iter(_format_element(value.get_element_type(), b) for b in element_bits(value))

    def nest(dims: Sequence[int]) -> str:
        if not dims:
            return next(texts)
        return "[" + ", ".join(nest(dims[1:]) for _ in range(dims[0])) + "]"

    return nest(shape)


def encode_values(element_type: Attribute, values: Sequence[int | float | bool]) -> bytes:
    """Raw data of Python numbers stored as ``element_type`` elements."""
    size = _storage_bytes(element_type)
    width = _int_width(element_type)
    out = bytearray()
    for v in values:
        if width is not None:
            bits = int(bool(v)) if width == 1 else int(v) % 2**width
        else:
            bits = FloatFormat.of(element_type).encode(float(v))
        out += bits.to_bytes(size, "little")
    return bytes(out)


def _flatten(values: object) -> Iterator[int | float | bool]:
    if isinstance(values, (int, float, bool)):
        yield values
        return
    assert isinstance(values, Sequence)
    for v in values:
        yield from _flatten(v)


# --------------------------------------------------------------------------
# Tile creation
# --------------------------------------------------------------------------

ConstantTile = TileOf(
    "tile of i1 or i8 or i16 or i32 or i64 or f16 or bf16 or f32 or f64 or tf32 or "
    "f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN values",
    is_constant_element,
)


@irdl_op_definition
class ConstantOp(CudaTileOp, HasFolderInterface):
    """A tile whose elements are the literal ``value``."""

    name = "cuda_tile.constant"
    value = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(ConstantTile)
    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, value: DenseIntOrFPElementsAttr, result_type: TileType):
        super().__init__(result_types=[result_type], properties={"value": value})

    @classmethod
    def from_values(cls, tile_type: TileType, values: object) -> ConstantOp:
        """A constant from Python numbers: one (a splat), or every element.

        ``values`` may be flat or nested like the tile; floats are rounded to
        the element type to nearest-even, integers wrap to its width.
        """
        flat = list(_flatten(values))
        if len(flat) not in (1, tile_type.num_elements):
            raise ValueError(
                f"{len(flat)} values for a tile of {tile_type.num_elements} elements"
            )
        data = encode_values(tile_type.element_type, flat)
        if len(flat) == 1:
            data *= tile_type.num_elements
        return cls(dense_value(tile_type, data), tile_type)

    @classmethod
    def splat(cls, tile_type: TileType, value: int | float | bool) -> ConstantOp:
        """A tile with every element equal to ``value``."""
        return cls.from_values(tile_type, [value])

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        value, result_type = parse_dense_literal(parser)
        op = cls(value, result_type)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        t = self.result.type
        assert isinstance(t, TileType)
        printer.print_string(" <")
        printer.print_attribute(t.element_type)
        printer.print_string(": " + format_dense_values(self.value, t.shape) + "> : ")
        printer.print_attribute(t)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        t = self.result.type
        v = self.value.type
        assert isinstance(t, TileType)
        if not (
            isinstance(v, TensorType)
            and v.get_element_type() == t.element_type
            and tuple(v.get_shape()) == t.shape
            and len(self.value.data.data) == t.num_elements * _storage_bytes(t.element_type)
        ):
            raise VerifyException("failed to verify that all of {value, result} have same type")

    def fold(self) -> tuple[Attribute]:
        return (self.value,)


@irdl_op_definition
class IotaOp(CudaTileOp):
    """The 1-d tile ``[0, 1, ..., n - 1]`` (values read as unsigned)."""

    name = "cuda_tile.iota"
    result = result_def(IntTile)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: TileType):
        super().__init__(result_types=[result_type])

    def verify_(self) -> None:
        t = self.result.type
        assert isinstance(t, TileType)
        if t.rank != 1:
            raise VerifyException("expects result type to be 1-d tile")
        width = _int_width(t.element_type)
        assert width is not None
        if width < 64 and t.shape[0] > 1 << width:
            raise VerifyException(
                f"the number of elements {t.shape[0]} exceeds the maximum value of "
                f"element type '{type_text(t.element_type)}'"
            )


class _SourceToResult(CudaTileOp):
    """``op %source : A -> B``."""

    source = operand_def(AnyTile)
    result = result_def(AnyTile)
    traits = traits_def(Pure())
    assembly_format = "$source attr-dict `:` type($source) `->` type($result)"

    def __init__(self, source: SSAValue, result_type: TileType):
        super().__init__(operands=[source], result_types=[result_type])

    def _types(self) -> tuple[TileType, TileType]:
        s, r = self.source.type, self.result.type
        assert isinstance(s, TileType) and isinstance(r, TileType)
        return s, r

    def _same_element_type(self) -> None:
        """``SameOperandsAndResultElementType``."""
        s, r = self._types()
        if s.element_type != r.element_type:
            raise VerifyException(
                "requires the same element type for all operands and results"
            )


@irdl_op_definition
class ReshapeOp(_SourceToResult):
    """The same elements, in row-major order, under a new shape."""

    name = "cuda_tile.reshape"

    def verify_(self) -> None:
        self._same_element_type()
        s, r = self._types()
        if s.num_elements != r.num_elements:
            raise VerifyException(
                "expected source tile and result tile to have the same number of elements"
            )


@irdl_op_definition
class BroadcastOp(_SourceToResult):
    """Stretches each size-1 dimension of ``source`` to the result's size."""

    name = "cuda_tile.broadcast"

    def verify_(self) -> None:
        self._same_element_type()
        s, r = self._types()
        same_rank("source, result", s, r)
        if any(a != b and a != 1 for a, b in zip(s.shape, r.shape)):
            raise VerifyException(
                "expects the shape of source tile to be compatible with that of the "
                f"result tile, but got: {', '.join(map(str, s.shape))} and "
                f"{', '.join(map(str, r.shape))}"
            )


@irdl_op_definition
class PermuteOp(_SourceToResult):
    """Reorders the dimensions: result dimension ``i`` is source dimension ``permutation[i]``."""

    name = "cuda_tile.permute"
    permutation = prop_def(DenseArrayBase.constr(I32))
    assembly_format = (
        "$source $permutation attr-dict `:` type($source) `->` type($result)"
    )

    def __init__(self, source: SSAValue, permutation: Sequence[int], result_type: TileType):
        super().__init__(source, result_type)
        self.properties["permutation"] = DenseArrayBase.from_list(i32, permutation)

    def verify_(self) -> None:
        s, r = self._types()
        same_element_type("source, result", s, r)
        same_rank("source, result", s, r)
        perm = self.permutation.get_values()
        if s.rank < 2:
            raise VerifyException(f"expects at least rank 2, but got: {s.rank}")
        if len(perm) != s.rank:
            raise VerifyException(
                f"expect permutation size ({len(perm)}) to equal the rank of the "
                f"source ({s.rank})"
            )
        if len(set(perm)) != len(perm):
            raise VerifyException("expect permutation elements to be unique")
        for i, p in enumerate(perm):
            if not 0 <= p < s.rank:
                raise VerifyException(
                    f"permutation element at index {i} ({p}) is out of bound [0, {s.rank})"
                )
        for i, p in enumerate(perm):
            if r.shape[i] != s.shape[p]:
                raise VerifyException(
                    f"result shape invalid at index {i}, expected: {s.shape[p]}, but "
                    f"got: {r.shape[i]}"
                )


@irdl_op_definition
class CatOp(CudaTileOp):
    """Concatenates ``lhs`` and ``rhs`` along dimension ``dim``."""

    name = "cuda_tile.cat"
    lhs = operand_def(AnyTile)
    rhs = operand_def(AnyTile)
    result = result_def(AnyTile)
    dim = prop_def(IntegerAttr[I64])
    traits = traits_def(Pure())
    assembly_format = (
        "$lhs `,` $rhs `dim` `=` $dim attr-dict `:` type($lhs) `,` type($rhs) "
        "`->` type($result)"
    )

    def __init__(self, lhs: SSAValue, rhs: SSAValue, dim: int, result_type: TileType):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type],
            properties={"dim": IntegerAttr(dim, 64)},
        )

    def verify_(self) -> None:
        lhs, rhs, res = self.lhs.type, self.rhs.type, self.result.type
        assert isinstance(lhs, TileType) and isinstance(rhs, TileType)
        assert isinstance(res, TileType)
        same_rank("lhs, rhs, result", lhs, rhs, res)
        same_element_type("lhs, rhs, result", lhs, rhs, res)
        dim = self.dim.value.data
        if not 0 <= dim < lhs.rank:
            raise VerifyException(f"expect dim to be [0, {lhs.rank}), but got: {dim}")
        if lhs.shape[dim] + rhs.shape[dim] != res.shape[dim]:
            raise VerifyException(
                f"invalid concat at position {dim}, expected: "
                f"{lhs.shape[dim] + rhs.shape[dim]} but got: {res.shape[dim]}"
            )
        for i in range(lhs.rank):
            if i == dim:
                continue
            for other, name in ((rhs, "rhs"), (res, "result")):
                if lhs.shape[i] != other.shape[i]:
                    raise VerifyException(
                        f"expect lhs and {name} shapes to match at non-concat position "
                        f"{i}, expected: {lhs.shape[i]} but got: {other.shape[i]}"
                    )


def _verify_subtile(
    whole: TileType, part: TileType, index_count: int, whole_name: str, part_name: str
) -> None:
    """``extract``/``insert``: ``part`` evenly tiles ``whole``; one index per dim."""
    if part.element_type != whole.element_type:
        raise VerifyException("source and result element type do not match")
    if part.rank != whole.rank:
        raise VerifyException("source and result must have the same rank")
    for i, (w, p) in enumerate(zip(whole.shape, part.shape)):
        if w % p:
            raise VerifyException(
                f"{whole_name} dimension {i} size ({w}) must be evenly divisible by "
                f"{part_name} dimension {i} size ({p})"
            )
    if index_count != whole.rank:
        raise VerifyException(f"expected {whole.rank} indices, but got {index_count}")


@irdl_op_definition
class ExtractOp(CudaTileOp):
    """The subtile at grid position ``indices`` (a subtile index, not an offset)."""

    name = "cuda_tile.extract"
    source = operand_def(AnyTile)
    indices = var_operand_def(I32Index)
    result = result_def(AnyTile)
    traits = traits_def(Pure())
    assembly_format = (
        "$source `[` $indices `]` attr-dict `:` type($source) `->` type($result)"
    )

    def __init__(self, source: SSAValue, indices: Sequence[SSAValue], result_type: TileType):
        super().__init__(operands=[source, indices], result_types=[result_type])

    def verify_(self) -> None:
        s, r = self.source.type, self.result.type
        assert isinstance(s, TileType) and isinstance(r, TileType)
        same_rank("source, result", s, r)
        _verify_subtile(s, r, len(self.indices), "source", "result")


@irdl_op_definition
class InsertOp(CudaTileOp):
    """``destination`` with the subtile at grid position ``indices`` replaced by ``source`` (13.4)."""

    name = "cuda_tile.insert"
    SINCE: ClassVar[str] = "13.4"
    T: ClassVar = VarConstraint("T", AnyTile)
    source = operand_def(AnyTile)
    destination = operand_def(T)
    indices = var_operand_def(I32Index)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = (
        "$source `,` $destination `[` $indices `]` attr-dict `:` type($source) `,` "
        "type($destination)"
    )

    def __init__(self, source: SSAValue, destination: SSAValue, indices: Sequence[SSAValue]):
        super().__init__(
            operands=[source, destination, indices], result_types=[destination.type]
        )

    def verify_(self) -> None:
        s, d = self.source.type, self.destination.type
        assert isinstance(s, TileType) and isinstance(d, TileType)
        _verify_subtile(d, s, len(self.indices), "result", "source")


def _verify_pack(source: TileType, result: TileType) -> None:
    """``verifyPackUnpackTypes``: rank-1 tiles of the same size in bytes."""
    same_rank("source, result", source, result)
    if source.rank != 1:
        raise VerifyException("expects source and result to be rank-1 tiles")
    if element_width(source.element_type) == element_width(result.element_type):
        raise VerifyException(
            "expects source and result to have different element type widths"
        )

    def size_in_bits(t: TileType) -> int:
        # A tf32 element occupies 32 bits of storage; i1 elements pack to bits.
        e = t.element_type
        return (32 if isinstance(e, FloatTF32Type) else element_width(e)) * t.num_elements

    source_bits, result_bits = size_in_bits(source), size_in_bits(result)
    if source_bits % 8:
        raise VerifyException("expects source tile to be byte-aligned")
    if result_bits % 8:
        raise VerifyException("expects result tile to be byte-aligned")
    if source_bits != result_bits:
        raise VerifyException(
            "expects source and result to have the same size in bytes, but got source "
            f"tile size {source_bits // 8} bytes and result tile size "
            f"{result_bits // 8} bytes"
        )


@irdl_op_definition
class PackOp(_SourceToResult):
    """The bytes of a rank-1 numeric tile, as a ``tile<Nxi8>`` (13.3)."""

    name = "cuda_tile.pack"
    SINCE: ClassVar[str] = "13.3"
    source = operand_def(NumberOrI4Tile)
    result = result_def(I8Tile)

    def verify_(self) -> None:
        _verify_pack(*self._types())


@irdl_op_definition
class UnpackOp(_SourceToResult):
    """A ``tile<Nxi8>`` reinterpreted as a rank-1 numeric tile (13.3)."""

    name = "cuda_tile.unpack"
    SINCE: ClassVar[str] = "13.3"
    source = operand_def(I8Tile)
    result = result_def(NumberOrI4Tile)

    def verify_(self) -> None:
        _verify_pack(*self._types())
