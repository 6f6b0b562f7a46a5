"""C ``printf`` formatting of tiles, as ``print_tko`` does it.

Each conversion (``%[flags][width][.precision][length]conversion``) formats
one tile argument: a 0-d tile as one value, a larger tile as nested lists
(``[1.000000, 2.000000]``, rows of a 2-d tile as ``[[...], [...]]``).
Conversions are found the way the dialect counts them
(``count_format_expressions``): from ``%`` to the next conversion character.
``%u``, ``%o``, ``%x`` and ``%X`` read integers unsigned in their width,
``%d``/``%i`` signed (``i1`` prints 0 or 1); floats accept every float conversion (``%a`` prints C's
hexadecimal form); the length modifiers (``h``, ``l``, ``ll``, ...) are
accepted and ignored.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np
from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.types import PointerType, int_width
from safetile.backend import elements



_CONVERSIONS = "diuoxXeEfFgGaAcsSpn%"
_SPEC = re.compile(r"(?P<flags>[-+ #0]*)(?P<width>\d*)(?:\.(?P<precision>\d*))?(?P<length>hh|h|ll|l|j|z|t|L)?")


def _hex_float(value: float, upper: bool) -> str:
    """C's ``%a``: ``0x1.8p+1`` (trailing zero digits dropped)."""
    if not math.isfinite(value):
        text = str(value)
    else:
        text = float.hex(value)
        mantissa, exponent = text.split("p")
        if "." in mantissa:
            mantissa = mantissa.rstrip("0").rstrip(".")
        text = f"{mantissa}p{exponent}"
    return text.upper() if upper else text


def _element(value: object, t: Attribute, spec: str, conversion: str) -> str:
    """One element formatted by a C conversion."""
    m = _SPEC.fullmatch(spec)
    flags, width, precision = (m["flags"], m["width"], m["precision"]) if m else ("", "", None)
    head = f"%{flags}{width}" + ("" if precision is None else f".{precision}")
    if conversion in "aA":
        text = _hex_float(float(value), conversion == "A")  # type: ignore[arg-type]
        return text.ljust(int(width or 0)) if "-" in flags else text.rjust(int(width or 0))
    if conversion in "eEfFgG":
        return (head + conversion) % float(value)  # type: ignore[arg-type]
    if conversion == "p" or isinstance(t, PointerType):
        return "0x%x" % int(value) if conversion == "p" else (head + "d") % int(value)  # type: ignore[call-overload]
    if conversion in "diuoxXc":
        w = int_width(t)
        if w is None:  # a float printed as an integer: C prints garbage, we truncate
            number = int(value) if math.isfinite(float(value)) else 0  # type: ignore[arg-type]
        elif conversion in "di" and w > 1:
            number = int(elements.signed(np.asarray(value), w))
        else:
            number = int(elements.unsigned(np.asarray(value), w))
        if conversion == "c":
            return (head + "c") % chr(number & 0xFF)
        return (head + ("d" if conversion == "u" else conversion)) % number
    return (head + "s") % value  # %s, %S


def _tile(x: np.ndarray, t: Attribute, spec: str, conversion: str) -> str:
    if x.ndim == 0:
        return _element(x[()], t, spec, conversion)
    return "[" + ", ".join(_tile(row, t, spec, conversion) for row in x) + "]"


def format_tiles(text: str, args: Sequence[np.ndarray], types: Sequence[Attribute]) -> str:
    """``text`` with each conversion replaced by its tile argument."""
    out: list[str] = []
    pos, arg = 0, 0
    while (start := text.find("%", pos)) != -1:
        out.append(text[pos:start])
        end = next((i for i in range(start + 1, len(text)) if text[i] in _CONVERSIONS), len(text) - 1)
        conversion = text[end]
        if conversion == "%" and end == start + 1:
            out.append("%")
        elif conversion != "n":
            out.append(_tile(np.asarray(args[arg]), types[arg], text[start + 1 : end], conversion))
            arg += 1
        else:
            arg += 1
        pos = end + 1
    out.append(text[pos:])
    return "".join(out)
