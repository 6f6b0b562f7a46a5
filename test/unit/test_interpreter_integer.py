"""Interpreter: integer ops, exact, against Python's unbounded integers.

Every op runs on edge values (0, ±1, MIN, MAX) and random values of each
width; the expected result is computed with Python ints and wrapped.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from interpreter_support import run_elementwise
from safetile.backend.interpreter import UndefinedBehaviorError

WIDTHS = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}
N = 64


def operands(elem: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """64 pairs: every combination of edge values, then random values."""
    dtype = np.dtype(WIDTHS[elem])
    info = np.iinfo(dtype)
    edges = [0, 1, -1, info.min, info.max, 2, -2, info.min + 1]
    a = [x for x in edges for _ in edges]
    b = [y for _ in edges for y in edges]
    rng = np.random.default_rng(seed)
    a = np.array(a, dtype=dtype)
    b = np.array(b, dtype=dtype)
    a[::5] = rng.integers(info.min, info.max, size=a[::5].shape, dtype=dtype, endpoint=True)
    b[::7] = rng.integers(info.min, info.max, size=b[::7].shape, dtype=dtype, endpoint=True)
    return a, b


def wrap(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def unsigned(v: int, bits: int) -> int:
    return v & ((1 << bits) - 1)


def trunc_div(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


BINARY: dict[str, Callable[[int, int, int], int]] = {
    "addi": lambda x, y, w: x + y,
    "subi": lambda x, y, w: x - y,
    "muli": lambda x, y, w: x * y,
    "andi": lambda x, y, w: x & y,
    "ori": lambda x, y, w: x | y,
    "xori": lambda x, y, w: x ^ y,
    "maxi %a, %b signed": lambda x, y, w: max(x, y),
    "mini %a, %b signed": lambda x, y, w: min(x, y),
    "maxi %a, %b unsigned": lambda x, y, w: max(unsigned(x, w), unsigned(y, w)),
    "mini %a, %b unsigned": lambda x, y, w: min(unsigned(x, w), unsigned(y, w)),
    "mulhii": lambda x, y, w: (unsigned(x, w) * unsigned(y, w)) >> w,
    "shli": lambda x, y, w: x << unsigned(y, w) if unsigned(y, w) < w else 0,
    "shri %a, %b signed": lambda x, y, w: x >> min(unsigned(y, w), w),
    "shri %a, %b unsigned": lambda x, y, w: unsigned(x, w) >> unsigned(y, w),
}


def _expression(op: str, elem: str) -> str:
    text = op if "%" in op else f"{op} %a, %b"
    return f"%r = {text} : tile<{N}x{elem}>"


@pytest.mark.parametrize("elem", sorted(WIDTHS))
@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_ops_wrap_exactly(op: str, elem: str) -> None:
    a, b = operands(elem, seed=sum(map(ord, op)))
    w = np.dtype(WIDTHS[elem]).itemsize * 8
    got = run_elementwise([elem, elem], elem, _expression(op, elem), [a, b], WIDTHS[elem])
    expected = [wrap(BINARY[op](int(x), int(y), w), w) for x, y in zip(a, b)]
    assert got.tolist() == expected


DIVISION: dict[str, Callable[[int, int, int], int]] = {
    "divi %a, %b signed": lambda x, y, w: trunc_div(x, y),
    "divi %a, %b signed rounding<negative_inf>": lambda x, y, w: x // y,
    "divi %a, %b signed rounding<positive_inf>": lambda x, y, w: -((-x) // y),
    "divi %a, %b unsigned": lambda x, y, w: unsigned(x, w) // unsigned(y, w),
    "divi %a, %b unsigned rounding<positive_inf>": lambda x, y, w: -(-unsigned(x, w) // unsigned(y, w)),
    "remi %a, %b signed": lambda x, y, w: x - trunc_div(x, y) * y,
    "remi %a, %b unsigned": lambda x, y, w: unsigned(x, w) % unsigned(y, w),
}


@pytest.mark.parametrize("elem", sorted(WIDTHS))
@pytest.mark.parametrize("op", sorted(DIVISION))
def test_division_rounds_as_asked(op: str, elem: str) -> None:
    a, b = operands(elem, seed=7)
    b[b == 0] = 3
    w = np.dtype(WIDTHS[elem]).itemsize * 8
    got = run_elementwise([elem, elem], elem, _expression(op, elem), [a, b], WIDTHS[elem])
    expected = [wrap(DIVISION[op](int(x), int(y), w), w) for x, y in zip(a, b)]
    assert got.tolist() == expected


def test_signed_division_examples() -> None:
    a = np.array([7, 7, -7, -7, -128, 127, 0, 1], dtype=np.int8)
    b = np.array([3, -3, 3, -3, -1, 127, 5, -1], dtype=np.int8)
    div = run_elementwise(["i8", "i8"], "i8", "%r = divi %a, %b signed : tile<8xi8>", [a, b], np.int8)
    rem = run_elementwise(["i8", "i8"], "i8", "%r = remi %a, %b signed : tile<8xi8>", [a, b], np.int8)
    assert div.tolist() == [2, -2, -2, 2, -128, 1, 0, -1]  # MIN / -1 wraps
    assert rem.tolist() == [1, 1, -1, -1, 0, 0, 0, 0]


@pytest.mark.parametrize("op", ["divi %a, %b signed", "remi %a, %b unsigned"])
def test_division_by_zero_is_an_error(op: str) -> None:
    a = np.arange(8, dtype=np.int32)
    b = np.ones(8, dtype=np.int32)
    b[5] = 0
    with pytest.raises(UndefinedBehaviorError, match="by zero") as info:
        run_elementwise(["i32", "i32"], "i32", f"%r = {op} : tile<8xi32>", [a, b], np.int32)
    assert info.value.block_id == (0, 0, 0)
    assert "'divi'" in str(info.value) or "'remi'" in str(info.value)


UNARY: dict[str, Callable[[int, int], int]] = {
    "absi": lambda x, w: abs(x),
    "negi": lambda x, w: -x,
}


@pytest.mark.parametrize("elem", sorted(WIDTHS))
@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_ops_wrap(op: str, elem: str) -> None:
    a, _ = operands(elem, seed=3)
    w = np.dtype(WIDTHS[elem]).itemsize * 8
    got = run_elementwise([elem], elem, f"%r = {op} %a : tile<{N}x{elem}>", [a], WIDTHS[elem])
    assert got.tolist() == [wrap(UNARY[op](int(x), w), w) for x in a]


PREDICATES = {
    "equal": lambda x, y: x == y,
    "not_equal": lambda x, y: x != y,
    "less_than": lambda x, y: x < y,
    "less_than_or_equal": lambda x, y: x <= y,
    "greater_than": lambda x, y: x > y,
    "greater_than_or_equal": lambda x, y: x >= y,
}


@pytest.mark.parametrize("signedness", ["signed", "unsigned"])
@pytest.mark.parametrize("predicate", sorted(PREDICATES))
def test_cmpi_reads_operands_by_signedness(predicate: str, signedness: str) -> None:
    a, b = operands("i16", seed=11)
    got = run_elementwise(
        ["i16", "i16"],
        "i1",
        f"%r = cmpi {predicate} %a, %b, {signedness} : tile<{N}xi16> -> tile<{N}xi1>",
        [a, b],
        np.bool_,
    )
    read = (lambda v: int(v)) if signedness == "signed" else (lambda v: unsigned(int(v), 16))
    assert got.tolist() == [PREDICATES[predicate](read(x), read(y)) for x, y in zip(a, b)]


def test_i1_arithmetic_is_modulo_two_and_signed_true_is_minus_one() -> None:
    a = np.array([0, 0, 1, 1], dtype=np.bool_)
    b = np.array([0, 1, 0, 1], dtype=np.bool_)
    add = run_elementwise(["i1", "i1"], "i1", "%r = addi %a, %b : tile<4xi1>", [a, b], np.bool_)
    less = run_elementwise(
        ["i1", "i1"], "i1", "%r = cmpi less_than %a, %b, signed : tile<4xi1> -> tile<4xi1>", [a, b], np.bool_
    )
    assert add.tolist() == [False, True, True, False]
    assert less.tolist() == [False, False, True, False]  # signed: true is -1


@pytest.mark.parametrize(
    ("compute", "expected"),
    [
        ("%r = exti %a signed : tile<4xi8> -> tile<4xi32>", [-128, -1, 0, 127]),
        ("%r = exti %a unsigned : tile<4xi8> -> tile<4xi32>", [128, 255, 0, 127]),
    ],
)
def test_exti(compute: str, expected: list[int]) -> None:
    a = np.array([-128, -1, 0, 127], dtype=np.int8)
    assert run_elementwise(["i8"], "i32", compute, [a], np.int32).tolist() == expected


def test_trunci_keeps_low_bits() -> None:
    a = np.array([0x1234_5678, -1, 0x80, 0x7F], dtype=np.int32)
    got = run_elementwise(["i32"], "i8", "%r = trunci %a : tile<4xi32> -> tile<4xi8>", [a], np.int8)
    assert got.tolist() == [0x78, -1, -128, 127]


def test_i4_round_trip_through_exti_and_trunci() -> None:
    a = np.array([-9, -8, -1, 0, 7, 8, 15, 16], dtype=np.int32)
    compute = """
    %n = trunci %a : tile<8xi32> -> tile<8xi4>
    %r = exti %n signed : tile<8xi4> -> tile<8xi32>
    """
    assert run_elementwise(["i32"], "i32", compute, [a], np.int32).tolist() == [7, -8, -1, 0, 7, -8, -1, 0]
