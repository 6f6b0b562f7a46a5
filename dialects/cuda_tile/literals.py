"""Number literals of Tile IR text: float formats and dense values.

Syntax shared by the ops that hold numbers: ``constant`` and ``global``
values (``<f32: [1.0, 2.0]> : tile<2xf32>``, NVIDIA's
``custom<DenseTypedElementsAttr>``), float attributes such as ``reduce``/``scan``
identities (printed by ``TileIRPrinter.print_float``), and the element widths
and float formats the verifiers of ``bitcast``, ``ftof`` and ``pack`` compare.

A dense value is held as a builtin ``DenseIntOrFPElementsAttr`` whose type is
the ``tensor`` twin of the tile type (xDSL's dense attribute only accepts
builtin shaped types).  Its data is the raw element bit patterns,
little-endian, ``ceil(width / 8)`` bytes per element (one byte per ``i1``,
three per ``tf32``), so every value of every element type, NaN payloads
included, survives a round trip.

Values print the way MLIR prints them (``1.500000e+00``, ``0x7F800000`` for
non-finite values, one value for a splat, a ``"0x..."`` string beyond 100
elements).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    BytesAttr,
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
    ReducedPrecisionFloatType,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.utils.exceptions import MultipleSpansParseError
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from .diagnostics import PrecededParseError, quoted, shape_text
from .types import Float8E5M3FNUType, TileType, int_width, is_int

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


def float_attr_bits(value: float, t: AnyFloat) -> int:
    """The exact bits of a ``FloatAttr``'s ``value`` in its type ``t``.

    xDSL keeps the value as a double rounded through ``t.pack``, so packing it
    again gives back its bits, NaN sign and payload included
    (``FloatFormat.encode``, a conversion, makes every NaN the canonical one).
    """
    return int.from_bytes(t.pack((value,)), "little")


def format_float(value: float, t: AnyFloat) -> str:
    """A ``FloatAttr``'s value as MLIR prints it, the way dense literals print."""
    return FloatFormat.of(t).format(float_attr_bits(value, t))


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

CONSTANT_ELEMENTS = (
    "i1 or i8 or i16 or i32 or i64 or f16 or bf16 or f32 or f64 or tf32 or "
    "f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN"
)
"""The element types of a constant, as NVIDIA's diagnostics list them."""

_ELEMENT_TYPE_ERROR = f"expect element type to be one of {CONSTANT_ELEMENTS} values, but got "
_HEX_THRESHOLD = 100
"""MLIR prints a non-splat dense value of more elements as a hex string."""


def is_constant_element(t: Attribute) -> bool:
    return is_int(t) or isinstance(t, CONSTANT_ELEMENT_TYPES)


def element_width(t: Attribute) -> int:
    """``getIntOrFloatBitWidth`` of a number type (19 for ``tf32``)."""
    return int_width(t) or FloatFormat.of(t).width


def storage_bytes(t: Attribute) -> int:
    """Bytes an element takes in a dense value's data."""
    return (element_width(t) + 7) // 8


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
        if int_width(self.element_type) is not None:
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
            span = Span(pos, pos + len(text), p.lexer.input)
            raise MultipleSpansParseError(  # MLIR's error and its note
                span,
                "unexpected decimal integer literal for a floating point value",
                None,
                [(span, "add a trailing dot to make the literal a float")],
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
    token = parser._current_token  # pyright: ignore[reportPrivateUsage]
    t = parser.parse_optional_type()
    if t is None:
        # MLIR's parseCudaTileType reports a word that names no type first.
        unknown = [f"unknown type: {token.text}"] if token.kind == MLIRTokenKind.BARE_IDENT else []
        raise PrecededParseError(token.span, _ELEMENT_TYPE_ERROR + "'<<NULL TYPE>>'", unknown)
    if not is_constant_element(t):
        parser.raise_error(_ELEMENT_TYPE_ERROR + quoted(t), pos, parser.pos)
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
            f"result #0 must be tile of {CONSTANT_ELEMENTS} values, but got "
            + quoted(result_type),
            type_pos,
        )
    if result_type.element_type != element_type:
        parser.raise_error(
            f"mismatch between the element type: {quoted(element_type)} and the "
            f"tile element type {quoted(result_type.element_type)}",
            type_pos,
        )
    expected = list(result_type.shape)
    if shape and shape != expected:
        parser.raise_error(
            f"inferred shape of elements literal ([{shape_text(shape)}]) does not match "
            f"type ([{shape_text(expected)}])",
            type_pos,
        )
    size = storage_bytes(element_type)
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
    size = storage_bytes(value.get_element_type())
    data = value.data.data
    return [int.from_bytes(data[i : i + size], "little") for i in range(0, len(data), size)]


def _format_element(element_type: Attribute, bits: int) -> str:
    width = int_width(element_type)
    if width == 1:
        return "true" if bits else "false"
    if width is not None:
        return str(bits - (1 << width) if bits >> (width - 1) else bits)
    return FloatFormat.of(element_type).format(bits)


def format_dense_values(value: DenseIntOrFPElementsAttr, shape: Sequence[int]) -> str:
    """The values of a dense attribute as MLIR prints them (without ``dense<>``)."""
    data = value.data.data
    size = storage_bytes(value.get_element_type())
    count = len(data) // size
    if count == 1 or data == data[:size] * count:
        return _format_element(value.get_element_type(), int.from_bytes(data[:size], "little"))
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
    size = storage_bytes(element_type)
    width = int_width(element_type)
    out = bytearray()
    for v in values:
        if width is not None:
            bits = int(bool(v)) if width == 1 else int(v) % 2**width
        else:
            bits = FloatFormat.of(element_type).encode(float(v))
        out += bits.to_bytes(size, "little")
    return bytes(out)

