"""Interpreter: float ops and conversions.

Arithmetic, ``sqrt``, ``fma``, ``ftof`` and ``itof`` are checked bit for bit
in every rounding mode against an independent reference: the exact result
(``Fraction``) rounded by ``reference_round``.  Math functions are checked
against numpy within a couple of ulps (they are documented approximate).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    FloatTF32Type,
)

from interpreter_support import run_elementwise
from safetile.backend.interpreter import from_storage, to_storage


@dataclass(frozen=True)
class Fmt:
    precision: int
    emin: int
    max_finite: float
    has_inf: bool = True


FORMATS = {
    "f16": Fmt(11, -14, 65504.0),
    "bf16": Fmt(8, -126, (2 - 2**-7) * 2.0**127),
    "tf32": Fmt(11, -126, (2 - 2**-10) * 2.0**127),
    "f32": Fmt(24, -126, float(np.finfo(np.float32).max)),
    "f64": Fmt(53, -1022, float(np.finfo(np.float64).max)),
    "f8E4M3FN": Fmt(4, -6, 448.0, has_inf=False),
    "f8E5M2": Fmt(3, -14, 57344.0),
}
XDSL = {"bf16": BFloat16Type(), "tf32": FloatTF32Type(), "f8E4M3FN": Float8E4M3FNType(), "f8E5M2": Float8E5M2Type()}
NUMPY = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
MODES = ["nearest_even", "zero", "negative_inf", "positive_inf"]


def reference_round(v: Fraction, fmt: Fmt, mode: str) -> float:
    """``v`` rounded to the format (finite values; saturating if no infinity)."""
    if v == 0:
        return 0.0
    sign, a = (-1 if v < 0 else 1), abs(v)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    quantum = Fraction(2) ** (max(e, fmt.emin) - fmt.precision + 1)
    n = a / quantum
    low = math.floor(n)
    rest = n - low
    up = {
        "nearest_even": rest > Fraction(1, 2) or (rest == Fraction(1, 2) and low % 2 == 1),
        "nearest_away": rest >= Fraction(1, 2),
        "zero": False,
        "negative_inf": sign < 0 and rest > 0,
        "positive_inf": sign > 0 and rest > 0,
    }[mode]
    result = (low + up) * quantum
    if result > Fraction(fmt.max_finite):
        away = (
            mode.startswith("nearest")
            or (mode == "negative_inf" and sign < 0)
            or (mode == "positive_inf" and sign > 0)
        )
        return sign * (math.inf if away and fmt.has_inf else fmt.max_finite)
    return sign * float(result)


def storage(values: np.ndarray, elem: str) -> np.ndarray:
    return np.asarray(values, dtype=NUMPY[elem]) if elem in NUMPY else to_storage(values, XDSL[elem])


def decoded(raw: np.ndarray, elem: str) -> np.ndarray:
    return raw.astype(np.float64) if elem in NUMPY else from_storage(raw, XDSL[elem])


def random_values(elem: str, n: int, seed: int) -> np.ndarray:
    """Representable values of ``elem`` over many binades, both signs."""
    rng = np.random.default_rng(seed)
    scale = {"f16": 6, "bf16": 40, "tf32": 40, "f32": 40, "f64": 200}[elem]
    x = rng.standard_normal(n) * np.exp2(rng.integers(-scale, scale, n))
    return decoded(storage(x, elem), elem)


EXACT = {
    "addf": lambda x, y: x + y,
    "subf": lambda x, y: x - y,
    "mulf": lambda x, y: x * y,
    "divf": lambda x, y: x / y,
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("elem", ["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("op", sorted(EXACT))
def test_arithmetic_is_correctly_rounded(op: str, elem: str, mode: str) -> None:
    n = 256
    x, y = random_values(elem, n, 1), random_values(elem, n, 2)
    y[y == 0] = 1.0
    rounding = "" if mode == "nearest_even" else f" rounding<{mode}>"
    got = run_elementwise(
        [elem, elem],
        elem,
        f"%r = {op} %a, %b{rounding} : tile<{n}x{elem}>",
        [storage(x, elem), storage(y, elem)],
        storage(np.zeros(1), elem).dtype,
    )
    expected = [
        reference_round(EXACT[op](Fraction(float(a)), Fraction(float(b))), FORMATS[elem], mode)
        for a, b in zip(x, y)
    ]
    assert decoded(got, elem).tolist() == expected


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("elem", ["f16", "bf16", "f32", "f64"])
def test_sqrt_is_correctly_rounded(elem: str, mode: str) -> None:
    n = 128
    x = np.abs(random_values(elem, n, 3))
    rounding = "" if mode == "nearest_even" else f" rounding<{mode}>"
    got = run_elementwise(
        [elem], elem, f"%r = sqrt %a{rounding} : tile<{n}x{elem}>", [storage(x, elem)], storage(np.zeros(1), elem).dtype
    )
    fmt = FORMATS[elem]
    expected = []
    for a in x:
        # Bracket sqrt(a) between two neighbours of the format, exactly.
        guess = Fraction(math.sqrt(float(a)))
        below = reference_round(guess, fmt, "negative_inf")
        step = Fraction(2) ** (max(math.frexp(below)[1] - 1, fmt.emin) - fmt.precision + 1) if below else Fraction(0)
        candidates = [Fraction(below) + k * step for k in (-1, 0, 1, 2)]
        lo = max(c for c in candidates if c * c <= Fraction(float(a)))
        hi = lo + step
        exact_is_lo = lo * lo == Fraction(float(a))
        if mode in ("zero", "negative_inf") or exact_is_lo:
            expected.append(float(lo))
        elif mode == "positive_inf":
            expected.append(float(hi))
        else:
            mid = lo + step / 2
            expected.append(float(lo) if mid * mid > Fraction(float(a)) else float(hi))
    assert decoded(got, elem).tolist() == expected


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("elem", ["f16", "bf16", "f32"])
def test_fma_rounds_once(elem: str, mode: str) -> None:
    n = 128
    x, y, z = (random_values(elem, n, s) for s in (4, 5, 6))
    rounding = "" if mode == "nearest_even" else f" rounding<{mode}>"
    got = run_elementwise(
        [elem] * 3,
        elem,
        f"%r = fma %a, %b, %c{rounding} : tile<{n}x{elem}>",
        [storage(v, elem) for v in (x, y, z)],
        storage(np.zeros(1), elem).dtype,
    )
    expected = [
        reference_round(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)), FORMATS[elem], mode)
        for a, b, c in zip(x, y, z)
    ]
    assert decoded(got, elem).tolist() == expected


def test_f64_directed_rounding_of_a_tiny_addend() -> None:
    one = np.ones(4)
    tiny = np.array([1e-30, -1e-30, 1e-30, -1e-30])
    results = {}
    for mode in MODES:
        rounding = "" if mode == "nearest_even" else f" rounding<{mode}>"
        results[mode] = run_elementwise(
            ["f64", "f64"], "f64", f"%r = addf %a, %b{rounding} : tile<4xf64>", [one, tiny], np.float64
        ).tolist()
    up, down = np.nextafter(1.0, 2.0), np.nextafter(1.0, 0.0)
    assert results["nearest_even"] == [1.0] * 4
    assert results["positive_inf"] == [up, 1.0, up, 1.0]
    assert results["negative_inf"] == [1.0, down, 1.0, down]
    assert results["zero"] == [1.0, down, 1.0, down]


def test_f32_overflow_follows_the_rounding_mode() -> None:
    big = np.full(2, np.finfo(np.float32).max, dtype=np.float32)
    sign = np.array([1, -1], dtype=np.float32)
    x = big * sign
    out = {}
    for mode in MODES:
        rounding = "" if mode == "nearest_even" else f" rounding<{mode}>"
        out[mode] = run_elementwise(
            ["f32", "f32"], "f32", f"%r = addf %a, %b{rounding} : tile<2xf32>", [x, x], np.float32
        ).tolist()
    m = float(np.finfo(np.float32).max)
    assert out["nearest_even"] == [math.inf, -math.inf]
    assert out["zero"] == [m, -m]
    assert out["positive_inf"] == [math.inf, -m]
    assert out["negative_inf"] == [m, -math.inf]


def test_flush_to_zero_flushes_inputs_and_results() -> None:
    tiny = np.float32(2.0**-130)
    x = np.array([tiny, -tiny, 2.0**-100, 1.0], dtype=np.float32)
    y = np.array([0.0, 0.0, 2.0**-30, 0.0], dtype=np.float32)
    plain = run_elementwise(["f32", "f32"], "f32", "%r = addf %a, %b : tile<4xf32>", [x, y], np.float32)
    ftz = run_elementwise(["f32", "f32"], "f32", "%r = mulf %a, %b flush_to_zero : tile<4xf32>", [x, x], np.float32)
    assert plain.tolist() == [float(tiny), -float(tiny), 2.0**-100 + 2.0**-30, 1.0]
    assert ftz.tolist() == [0.0, 0.0, 0.0, 1.0]
    assert math.copysign(1, ftz[1]) == 1  # (-0) * (-0)
    neg = run_elementwise(["f32"], "f32", "%r = exp2 %a flush_to_zero : tile<4xf32>", [-x], np.float32)
    assert neg.tolist() == [1.0, 1.0, 1.0, 0.5]


@pytest.mark.parametrize(
    ("op", "expected"),
    [
        ("maxf %a, %b", [2.0, 1.0, 1.0, math.nan, 0.0, 0.0, -0.0, -1.0]),
        ("minf %a, %b", [1.0, 1.0, 1.0, math.nan, -0.0, -0.0, -0.0, -2.0]),
        ("maxf %a, %b propagate_nan", [2.0, math.nan, math.nan, math.nan, 0.0, 0.0, -0.0, -1.0]),
        ("minf %a, %b propagate_nan", [1.0, math.nan, math.nan, math.nan, -0.0, -0.0, -0.0, -2.0]),
    ],
)
def test_maxf_minf_nan_and_signed_zero(op: str, expected: list[float]) -> None:
    a = np.array([1.0, math.nan, 1.0, math.nan, -0.0, 0.0, -0.0, -2.0], dtype=np.float32)
    b = np.array([2.0, 1.0, math.nan, math.nan, 0.0, -0.0, -0.0, -1.0], dtype=np.float32)
    got = run_elementwise(["f32", "f32"], "f32", f"%r = {op} : tile<8xf32>", [a, b], np.float32)
    assert [str(v) for v in got.tolist()] == [str(v) for v in expected]


@pytest.mark.parametrize(
    ("predicate", "ordered", "unordered"),
    [
        ("equal", [True, False, False, False], [True, False, True, True]),
        ("not_equal", [False, True, False, False], [False, True, True, True]),
        ("less_than", [False, True, False, False], [False, True, True, True]),
        ("greater_than_or_equal", [True, False, False, False], [True, False, True, True]),
    ],
)
def test_cmpf_orderings(predicate: str, ordered: list[bool], unordered: list[bool]) -> None:
    a = np.array([1.0, 1.0, math.nan, math.nan], dtype=np.float32)
    b = np.array([1.0, 2.0, 1.0, math.nan], dtype=np.float32)
    for ordering, expected in (("ordered", ordered), ("unordered", unordered)):
        got = run_elementwise(
            ["f32", "f32"],
            "i1",
            f"%r = cmpf {predicate} {ordering} %a, %b : tile<4xf32> -> tile<4xi1>",
            [a, b],
            np.bool_,
        )
        assert got.tolist() == expected, ordering


def test_remf_has_the_sign_of_the_dividend() -> None:
    a = np.array([7.5, -7.5, 7.5, 1.0, math.inf, 3.0, -0.0, 5.0], dtype=np.float32)
    b = np.array([2.0, 2.0, -2.0, 0.0, 1.0, math.inf, 1.0, -5.0], dtype=np.float32)
    got = run_elementwise(["f32", "f32"], "f32", "%r = remf %a, %b : tile<8xf32>", [a, b], np.float32)
    assert [str(v) for v in got.tolist()] == ["1.5", "-1.5", "1.5", "nan", "nan", "3.0", "-0.0", "0.0"]


CONVERSIONS = [
    ("f32", "f16", ["nearest_even", "zero"]),
    ("f32", "bf16", ["nearest_even", "zero"]),
    ("f32", "tf32", ["nearest_even", "zero", "nearest_away"]),
    ("f64", "f32", MODES),
    ("f32", "f8E4M3FN", ["nearest_even"]),
    ("f32", "f8E5M2", ["nearest_even"]),
    ("f16", "f32", ["nearest_even"]),
]


@pytest.mark.parametrize(("source", "target", "modes"), CONVERSIONS)
def test_ftof_rounds_in_every_allowed_mode(source: str, target: str, modes: list[str]) -> None:
    n = 256
    fmt = FORMATS[target]
    x = random_values(source, n, 8)
    if target.startswith("f8"):
        x = x / np.max(np.abs(x)) * fmt.max_finite * 1.2  # some beyond the range: saturate
        x = decoded(storage(x, source), source)
    out_dtype = storage(np.zeros(1), target).dtype
    for mode in modes:
        rounding = "" if mode == "nearest_even" else f" rounding<{mode}>"
        got = run_elementwise(
            [source], target, f"%r = ftof %a{rounding} : tile<{n}x{source}> -> tile<{n}x{target}>",
            [storage(x, source)], out_dtype,
        )
        expected = [reference_round(Fraction(float(a)), fmt, mode) for a in x]
        if not fmt.has_inf:
            expected = [max(-fmt.max_finite, min(fmt.max_finite, v)) for v in expected]
        assert decoded(got, target).tolist() == expected, mode


def test_ftof_to_f8e8m0_rounds_to_powers_of_two() -> None:
    x = np.array([1.0, 1.5, 3.0, 0.75, 2.0**-130, 2.0**127 * 1.5, 2.0**-127, 0.0], dtype=np.float32)
    for mode, expected in (
        ("zero", [1.0, 1.0, 2.0, 0.5, 2.0**-127, 2.0**127, 2.0**-127, 2.0**-127]),
        ("positive_inf", [1.0, 2.0, 4.0, 1.0, 2.0**-127, 2.0**127, 2.0**-127, 2.0**-127]),
    ):
        got = run_elementwise(
            ["f32"], "f8E8M0FNU", f"%r = ftof %a rounding<{mode}> : tile<8xf32> -> tile<8xf8E8M0FNU>", [x], np.uint8
        )
        assert from_storage(got, Float8E8M0FNUType()).tolist() == expected, mode


def test_itof_rounds_64_bit_integers_once() -> None:
    # 2**62 + 2**38 + 1 lies just above an f32 midpoint that f64 rounds onto.
    a = np.array(
        [2**62 + 2**38 + 1, 2**24 + 1, 2**24 + 3, -(2**63), 2**63 - 1, -3, 2**53 + 1, -(2**62 + 2**38 + 1)],
        dtype=np.int64,
    )
    got = run_elementwise(["i64"], "f32", "%r = itof %a signed : tile<8xi64> -> tile<8xf32>", [a], np.float32)
    assert got.tolist() == [
        2.0**62 + 2.0**39, 2.0**24, 2.0**24 + 4, -(2.0**63), 2.0**63, -3.0, 2.0**53, -(2.0**62 + 2.0**39)
    ]
    u = run_elementwise(["i64"], "f32", "%r = itof %a unsigned : tile<8xi64> -> tile<8xf32>", [a], np.float32)
    assert u.tolist()[5] == 2.0**64 and u.tolist()[3] == 2.0**63


def test_itof_overflow_is_infinity() -> None:
    a = np.array([70000, -70000, 65504, 65519], dtype=np.int32)
    got = run_elementwise(["i32"], "f16", "%r = itof %a signed : tile<4xi32> -> tile<4xf16>", [a], np.float16)
    assert got.tolist() == [math.inf, -math.inf, 65504.0, 65504.0]


@pytest.mark.parametrize(
    ("compute", "expected"),
    [
        ("%r = ftoi %a signed : tile<8xf32> -> tile<8xi8>", [-2, 2, 127, -128, 0, 0, 127, -128]),
        ("%r = ftoi %a signed saturating : tile<8xf32> -> tile<8xi8>", [-2, 2, 127, -128, 0, 0, 127, -128]),
        ("%r = ftoi %a unsigned : tile<8xf32> -> tile<8xi8>", [0, 2, -1, 0, 0, 0, -1, 0]),
    ],
)
def test_ftoi_truncates_and_saturates(compute: str, expected: list[int]) -> None:
    a = np.array([-2.9, 2.9, 300.0, -300.0, math.nan, -0.5, math.inf, -math.inf], dtype=np.float32)
    assert run_elementwise(["f32"], "i8", compute, [a], np.int8).tolist() == expected


def test_bitcast_keeps_bits() -> None:
    a = np.array([1.0, -2.0, math.inf, 0.0], dtype=np.float32)
    got = run_elementwise(["f32"], "i32", "%r = bitcast %a : tile<4xf32> -> tile<4xi32>", [a], np.int32)
    assert got.tolist() == a.view(np.int32).tolist()


MATH = ["exp", "exp2", "log", "log2", "sin", "cos", "tan", "sinh", "cosh", "tanh", "rsqrt", "ceil", "floor"]


@pytest.mark.parametrize("op", MATH)
def test_math_functions_match_numpy(op: str) -> None:
    rng = np.random.default_rng(9)
    x = rng.uniform(0.1, 4.0, 64).astype(np.float32)
    got = run_elementwise(["f32"], "f32", f"%r = {op} %a : tile<64xf32>", [x], np.float32)
    fn = (lambda v: 1 / np.sqrt(v)) if op == "rsqrt" else getattr(np, op)
    reference = fn(x.astype(np.float64))
    np.testing.assert_allclose(got, reference.astype(np.float32), rtol=2.5e-7)


def test_pow_atan2_fpowi() -> None:
    x = np.array([2.0, 9.0, 0.5, 1.5], dtype=np.float32)
    y = np.array([3.0, 0.5, -1.0, 2.0], dtype=np.float32)
    k = np.array([3, -1, 0, 2], dtype=np.int32)
    assert run_elementwise(["f32", "f32"], "f32", "%r = fpowf %a, %b : tile<4xf32>", [x, y], np.float32).tolist() == [
        8.0, 3.0, 2.0, 2.25
    ]
    powi = run_elementwise(["f32", "i32"], "f32", "%r = fpowi %a, %b : tile<4xf32>, tile<4xi32>", [x, k], np.float32)
    assert powi.tolist() == [8.0, float(np.float32(1 / 9)), 1.0, 2.25]
    atan = run_elementwise(["f32", "f32"], "f32", "%r = atan2 %a, %b : tile<4xf32>", [x, y], np.float32)
    np.testing.assert_allclose(atan, np.arctan2(x, y), rtol=1e-6)
