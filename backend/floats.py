"""Floating-point formats for the interpreter: rounding, flushing, bit encodings.

Every Tile IR float element type is held in a numpy *carrier*: ``f16``,
``f32`` and ``f64`` in their own numpy types, every narrower or non-IEEE
format (``bf16``, ``tf32``, the ``f8`` types, ``f4E2M1FN``, ``fnv8E5M3FNU``)
in ``float32`` arrays whose values are always exactly representable in the
format.  Arithmetic is done in ``float64`` and rounded once into the target
format by ``round_to_format``, which implements every Tile IR rounding mode
exactly (``nearest_even``, ``nearest_away``, ``zero``, ``negative_inf``,
``positive_inf``).

When the ``float64`` intermediate is itself rounded, callers pass ``err``: an
array whose sign is the sign of ``exact - intermediate`` (from ``two_sum`` /
``two_prod`` and friends).  That is enough to round the exact value correctly
in every mode, so add, sub, mul, div, sqrt and fma are correctly rounded for
every format up to ``f32`` and in every mode (``f64``: see ``adjust_f64``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import (
    FloatNanEncoding,
    FloatNonfiniteBehavior,
    FloatSemantics,
    Float16Type,
    Float32Type,
    Float64Type,
)
from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.attributes import RoundingMode
from safetile.dialects.cuda_tile.literals import FloatFormat

from .typecache import per_type

F64 = np.dtype(np.float64)
F32_MIN_NORMAL = np.float32(2.0**-126)

NATIVE: dict[type[Attribute], np.dtype] = {
    Float16Type: np.dtype(np.float16),
    Float32Type: np.dtype(np.float32),
    Float64Type: np.dtype(np.float64),
}
"""Float types numpy has; every other float type is carried in ``float32``."""


@dataclass(frozen=True)
class Format:
    """What rounding into one float format needs to know."""

    sem: FloatSemantics
    precision: int
    """Significand bits, the leading one included."""
    emin: int
    """Exponent of the smallest normal value (the quantum of subnormals is
    ``2 ** (emin - precision + 1)``)."""
    max_finite: float
    min_positive: float
    """The smallest positive value (subnormal if the format has them)."""

    @property
    def has_inf(self) -> bool:
        return self.sem.nonfinite is FloatNonfiniteBehavior.IEEE

    @property
    def has_nan(self) -> bool:
        return self.sem.nonfinite is not FloatNonfiniteBehavior.FINITE_ONLY

    @staticmethod
    def of(t: Attribute) -> Format:
        return _format(t)


@per_type
def _format(t: Attribute) -> Format:
    """The ``Format`` of float type ``t``."""
    fmt = FloatFormat.of(t)
    sem = fmt.sem
    top = sem.max_exponent if sem.nonfinite is not FloatNonfiniteBehavior.IEEE else sem.max_exponent - 1
    mant = sem.max_mantissa
    if sem.nonfinite is FloatNonfiniteBehavior.NAN_ONLY and sem.nan_encoding is FloatNanEncoding.ALL_ONES:
        if mant == 0:
            top -= 1  # e8m0: the all-ones code is NaN, a whole exponent
        else:
            mant -= 1  # e4m3fn: the all-ones mantissa of the top exponent is NaN
    max_finite = (1 + mant / 2**sem.mantissa_bits) * 2.0 ** (top - sem.exponent_bias)
    emin = fmt.min_exponent
    precision = sem.mantissa_bits + 1
    min_positive = 2.0 ** (emin - precision + 1) if sem.has_zero else 2.0**emin
    return Format(sem, precision, emin, max_finite, min_positive)


def flush_subnormals(x: np.ndarray) -> np.ndarray:
    """``flush_to_zero`` on an ``f32`` tile: subnormals become signed zeros."""
    tiny = (np.abs(x) < F32_MIN_NORMAL) & (x != 0)
    if not tiny.any():
        return x
    return np.where(tiny, np.copysign(np.float32(0), x), x)


# --------------------------------------------------------------------------
# Error-free transformations (float64)
# --------------------------------------------------------------------------


def two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``s = fl(a + b)`` and the exact error ``a + b - s`` (Knuth)."""
    s = a + b
    bb = s - a
    err = (a - (s - bb)) + (b - bb)
    return s, np.where(np.isfinite(s), err, 0.0)


_SPLIT = 134217729.0  # 2**27 + 1 (Veltkamp)


def _split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    c = _SPLIT * a
    hi = c - (c - a)
    return hi, a - hi


def two_prod(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``p = fl(a * b)`` and the error ``a * b - p`` (Dekker; exact unless the
    product over- or underflows ``float64``)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    err = al * bl - (((p - ah * bh) - al * bh) - ah * bl)
    return p, np.where(np.isfinite(p), err, 0.0)


def div_error(a: np.ndarray, b: np.ndarray, q: np.ndarray) -> np.ndarray:
    """An array with the sign of ``a / b - q`` (from the exact residual)."""
    p, e = two_prod(q, b)
    residual = (a - p) - e
    return np.where(np.isfinite(q) & (b != 0), residual * np.sign(b), 0.0)


def sqrt_error(a: np.ndarray, s: np.ndarray) -> np.ndarray:
    """An array with the sign of ``sqrt(a) - s``."""
    p, e = two_prod(s, s)
    return np.where(np.isfinite(s), (a - p) - e, 0.0)


# --------------------------------------------------------------------------
# Rounding
# --------------------------------------------------------------------------


def round_to_format(
    x: np.ndarray,
    t: Attribute,
    mode: RoundingMode = RoundingMode.NEAREST_EVEN,
    err: np.ndarray | None = None,
    *,
    saturate: bool = False,
) -> np.ndarray:
    """``x`` (float64, plus the sign of ``err``) rounded into float type ``t``.

    Returns the carrier array of ``t``.  Overflow follows the mode (IEEE:
    ``nearest_*`` give infinity, ``zero`` the largest finite value, the
    directed modes one or the other by sign).  A format without infinities
    gives NaN on overflow, or its largest finite value with ``saturate``
    (what PTX's ``.satfinite`` conversions do).  Unsigned formats give NaN for
    negative values; formats without zero give their smallest value for tiny
    ones.
    """
    carrier = carrier_of(t)
    x = np.asarray(x, dtype=F64)
    if isinstance(t, Float64Type):
        return adjust_f64(x, err, mode) if err is not None else x
    if err is None and mode is RoundingMode.NEAREST_EVEN and carrier != np.float32:
        return x.astype(carrier)  # numpy rounds float64 -> float16 correctly
    if err is None and mode is RoundingMode.NEAREST_EVEN and isinstance(t, Float32Type):
        return x.astype(np.float32)
    fmt = Format.of(t)
    sem = fmt.sem
    ax = np.abs(x)
    mantissa, e = np.frexp(ax)
    lead = e - 1
    if err is not None:
        # A power of two whose exact value lies just below it in magnitude
        # belongs to the binade below, where the quantum is half as big.
        lead = lead - ((mantissa == 0.5) & (err * x < 0))
    quantum = np.maximum(lead, fmt.emin) - (fmt.precision - 1)
    scaled = np.copysign(np.ldexp(ax, -quantum), x)
    if err is not None:
        # The exact value lies strictly beside ``x``: nudge grid points and
        # midpoints (exactly representable here) towards it.
        on_half = (scaled * 2 == np.floor(scaled * 2)) & (err != 0)
        scaled = np.where(on_half, scaled + 0.25 * np.sign(err), scaled)
    rounded = _round_integral(scaled, mode)
    result = np.ldexp(rounded, quantum)
    finite = np.isfinite(x)
    over = finite & (np.abs(result) > fmt.max_finite)
    if over.any():
        result = np.where(over, _overflow(x, mode, fmt, saturate), result)
    if not sem.has_zero:
        result = np.where(finite & (result == 0), fmt.min_positive, result)
    if not finite.all():
        inf = np.isinf(x)
        if fmt.has_inf:
            special = x
        elif saturate:
            special = np.where(inf, np.copysign(fmt.max_finite, x), np.nan)
        else:
            special = np.full_like(x, np.nan)
        result = np.where(finite, result, special)
    if not sem.has_sign:
        result = np.where(x < 0, np.nan, np.abs(result))
    return result.astype(carrier)


def _round_integral(v: np.ndarray, mode: RoundingMode) -> np.ndarray:
    if mode is RoundingMode.NEAREST_EVEN:
        return np.rint(v)
    if mode is RoundingMode.NEAREST_AWAY:
        return np.copysign(np.floor(np.abs(v) + 0.5), v)
    if mode is RoundingMode.ZERO:
        return np.trunc(v)
    if mode is RoundingMode.NEGATIVE_INF:
        return np.floor(v)
    if mode is RoundingMode.POSITIVE_INF:
        return np.ceil(v)
    raise ValueError(f"rounding mode {mode.value} does not round to a float format")


def _overflow(x: np.ndarray, mode: RoundingMode, fmt: Format, saturate: bool) -> np.ndarray:
    """The value a finite ``x`` beyond the format's range rounds to."""
    big = np.copysign(fmt.max_finite, x)
    if not fmt.has_inf:
        return big if saturate or not fmt.has_nan else np.full_like(x, np.nan)
    inf = np.copysign(np.inf, x)
    if mode in (RoundingMode.NEAREST_EVEN, RoundingMode.NEAREST_AWAY):
        return inf
    if mode is RoundingMode.ZERO:
        return big
    if mode is RoundingMode.POSITIVE_INF:
        return np.where(x > 0, inf, big)
    return np.where(x < 0, inf, big)


def adjust_f64(
    s: np.ndarray, err: np.ndarray, mode: RoundingMode, overflowed: np.ndarray | None = None
) -> np.ndarray:
    """Round ``s + err`` (``s`` the nearest-even ``float64``) in ``mode``.

    Exact for the directed modes and ``nearest_even``; ``nearest_away`` only
    differs from ``nearest_even`` on exact ties, which a rounded ``s`` cannot
    see, so it is treated as ``nearest_even``.  ``overflowed`` marks lanes
    whose infinite ``s`` came from finite operands: modes that do not round
    away from zero in that direction give the largest finite value instead.
    """
    if mode in (RoundingMode.NEAREST_EVEN, RoundingMode.NEAREST_AWAY):
        return s
    up = err > 0
    down = err < 0
    if mode is RoundingMode.ZERO:
        up, down = up & (s < 0), down & (s > 0)
    elif mode is RoundingMode.POSITIVE_INF:
        down = np.zeros_like(up)
    else:
        up = np.zeros_like(down)
    out = np.where(up, np.nextafter(s, np.inf), s)
    out = np.where(down, np.nextafter(s, -np.inf), out)
    if overflowed is not None and overflowed.any():
        huge = np.finfo(np.float64).max
        if mode in (RoundingMode.ZERO, RoundingMode.NEGATIVE_INF):
            out = np.where(overflowed & (out > 0), huge, out)
        if mode in (RoundingMode.ZERO, RoundingMode.POSITIVE_INF):
            out = np.where(overflowed & (out < 0), -huge, out)
    return out


def round_exact(
    s: np.ndarray,
    err: np.ndarray | None,
    t: Attribute,
    mode: RoundingMode,
    overflowed: np.ndarray | None = None,
) -> np.ndarray:
    """A float64 result ``s`` (off from the exact one by ``err``) rounded into type ``t``."""
    if isinstance(t, Float64Type):
        return s if err is None else adjust_f64(s, err, mode, overflowed)
    return round_to_format(s, t, mode, err)


@per_type
def carrier_of(t: Attribute) -> np.dtype:
    """The numpy dtype that holds values of float type ``t``."""
    return NATIVE.get(type(t), np.dtype(np.float32))


# --------------------------------------------------------------------------
# Bit encodings of the non-native formats
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Table:
    """Every code of a format of at most 8 bits, decoded, and its inverse."""

    values: np.ndarray  # float32 value of each code (NaN for NaN codes)
    keys: np.ndarray  # sorted float32 bit patterns of the non-NaN codes
    codes: np.ndarray  # the code of each key
    nan_code: int


@per_type
def _table(t: Attribute) -> _Table:
    sem = FloatFormat.of(t).sem
    mb = sem.mantissa_bits
    values = np.empty(1 << sem.bitwidth, dtype=np.float32)
    nan_code = -1
    for code in range(1 << sem.bitwidth):
        negative = sem.has_sign and bool(code >> sem.sign_shift & 1)
        exp = code >> mb & sem.max_exponent
        mant = code & sem.max_mantissa
        value: float
        if sem.nonfinite is FloatNonfiniteBehavior.IEEE and exp == sem.max_exponent:
            value = float("inf") if mant == 0 else float("nan")
        elif (
            sem.nonfinite is FloatNonfiniteBehavior.NAN_ONLY
            and exp == sem.max_exponent
            and mant == sem.max_mantissa
        ):
            value = float("nan")
        elif sem.has_zero and exp == 0:
            value = mant * 2.0 ** (1 - sem.exponent_bias - mb)
        else:
            value = ((1 << mb) | mant) * 2.0 ** (exp - sem.exponent_bias - mb)
        values[code] = -value if negative else value
        if value != value and nan_code < 0:
            nan_code = code
    ok = ~np.isnan(values)
    bits = values[ok].view(np.uint32)
    order = np.argsort(bits)
    codes = np.nonzero(ok)[0].astype(np.uint8)
    values.flags.writeable = False
    return _Table(values, bits[order], codes[order], max(nan_code, 0))


def narrow_decode(codes: np.ndarray, t: Attribute) -> np.ndarray:
    """Float32 carriers of the codes (uint8) of a format of at most 8 bits."""
    return _table(t).values[codes.astype(np.intp)]


def narrow_encode(values: np.ndarray, t: Attribute) -> np.ndarray:
    """Codes (uint8) of float32 carriers exactly representable in ``t``."""
    table = _table(t)
    bits = np.asarray(values, dtype=np.float32).view(np.uint32)
    pos = np.clip(np.searchsorted(table.keys, bits), 0, len(table.keys) - 1)
    codes = table.codes[pos]
    return np.where(np.isnan(values), np.uint8(table.nan_code), codes).astype(np.uint8)
