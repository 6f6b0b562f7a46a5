"""Interpreter: tile creation and shape ops, exact.

``constant`` (every element type, splats), ``iota``, ``reshape``,
``broadcast``, ``permute``, ``cat``, ``extract``, ``insert``, ``pack``,
``unpack``, ``select``, and ``OutOfRangeError`` for a missing subtile.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import BFloat16Type

from interpreter_support import run_elementwise
from safetile.backend.interpreter import OutOfRangeError, from_storage


def test_constants_of_each_element_type() -> None:
    cases = [
        ("i1", "<i1: [true, false, true, true]>", np.bool_, [True, False, True, True]),
        ("i8", "<i8: [-128, 127, 0, -1]>", np.int8, [-128, 127, 0, -1]),
        ("i64", "<i64: [9223372036854775807, -5, 0, 1]>", np.int64, [2**63 - 1, -5, 0, 1]),
        ("f16", "<f16: [1.5, -2.0, 0x7C00, 6.5e+04]>", np.float16, [1.5, -2.0, np.inf, 64992.0]),
        ("f64", "<f64: 2.5>", np.float64, [2.5] * 4),
    ]
    for elem, literal, dtype, expected in cases:
        got = run_elementwise(
            [elem], elem, f"%r = constant {literal} : tile<4x{elem}>", [np.zeros(4, dtype)], dtype
        )
        assert got.tolist() == expected, elem


def test_narrow_float_constants_keep_their_bits() -> None:
    got = run_elementwise(
        ["bf16"], "bf16", "%r = constant <bf16: [1.0, -3.5, 0x7F80, 0x0001]> : tile<4xbf16>",
        [np.zeros(4, np.uint16)], np.uint16,
    )
    assert got.tolist() == [0x3F80, 0xC060, 0x7F80, 0x0001]
    assert from_storage(got, BFloat16Type())[:2].tolist() == [1.0, -3.5]
    f8 = run_elementwise(
        ["f8E4M3FN"], "f8E4M3FN", "%r = constant <f8E4M3FN: [448.0, -0.5, 0x7F, 1.0]> : tile<4xf8E4M3FN>",
        [np.zeros(4, np.uint8)], np.uint8,
    )
    assert f8.tolist() == [0x7E, 0xB0, 0x7F, 0x38]


def test_iota_reshape_broadcast_permute() -> None:
    compute = """
    %i = iota : tile<8xi32>
    %m = reshape %i : tile<8xi32> -> tile<2x4xi32>
    %t = permute %m [1, 0] : tile<2x4xi32> -> tile<4x2xi32>
    %f = reshape %t : tile<4x2xi32> -> tile<8xi32>
    %s = addi %f, %a : tile<8xi32>
    %one = reshape %s : tile<8xi32> -> tile<1x8xi32>
    %b = broadcast %one : tile<1x8xi32> -> tile<2x8xi32>
    %r = reshape %b : tile<2x8xi32> -> tile<16xi32>
    """
    got = run_elementwise(["i32"], "i32", compute, [np.full(8, 100, np.int32)], np.int32, out_n=16)
    row = [100, 104, 101, 105, 102, 106, 103, 107]
    assert got.tolist() == row * 2


def test_iota_of_i8_counts_unsigned() -> None:
    got = run_elementwise(["i8"], "i8", "%r = iota : tile<256xi8>", [np.zeros(256, np.int8)], np.int8)
    assert got.view(np.uint8).tolist() == list(range(256))


def test_cat_extract_insert() -> None:
    compute = """
    %i = iota : tile<4xi32>
    %c = cat %a, %i dim = 0 : tile<4xi32>, tile<4xi32> -> tile<8xi32>
    %c1 = constant <i32: 1> : tile<i32>
    %c2 = constant <i32: 2> : tile<i32>
    %x = extract %c[%c1] : tile<8xi32> -> tile<4xi32>
    %y = extract %c[%c2] : tile<8xi32> -> tile<2xi32>
    %z = insert %y, %c[%c1] : tile<2xi32>, tile<8xi32>
    %xx = cat %x, %x dim = 0 : tile<4xi32>, tile<4xi32> -> tile<8xi32>
    %r = cat %xx, %z dim = 0 : tile<8xi32>, tile<8xi32> -> tile<16xi32>
    """
    got = run_elementwise(["i32"], "i32", compute, [np.array([9, 8, 7, 6], np.int32)], np.int32, out_n=16)
    assert got.tolist() == [0, 1, 2, 3, 0, 1, 2, 3, 9, 8, 0, 1, 0, 1, 2, 3]


def test_extract_of_a_missing_subtile_is_out_of_range() -> None:
    compute = """
    %c4 = constant <i32: 4> : tile<i32>
    %r = extract %a[%c4] : tile<8xi32> -> tile<2xi32>
    """
    with pytest.raises(OutOfRangeError, match=r"subtile index \(4,\) is outside the grid \(4,\)"):
        run_elementwise(["i32"], "i32", compute, [np.zeros(8, np.int32)], np.int32, out_n=2)


def test_pack_unpack_round_trip_and_byte_order() -> None:
    compute = """
    %p = pack %a : tile<4xi32> -> tile<16xi8>
    %r = unpack %p : tile<16xi8> -> tile<8xi16>
    """
    a = np.array([0x01020304, -1, 0x7FFF0000, 5], np.int32)
    got = run_elementwise(["i32"], "i16", compute, [a], np.int16, out_n=8)
    assert got.tolist() == a.view(np.int16).tolist()


def test_unpack_f4_low_nibble_first_and_pack_i1_low_bit_first() -> None:
    compute = """
    %f = unpack %a : tile<4xi8> -> tile<8xf4E2M1FN>
    %w = ftof %f : tile<8xf4E2M1FN> -> tile<8xf32>
    %r = addf %w, %w : tile<8xf32>
    """
    raw = np.array([0x21, 0xF7, 0x80, 0x5A], np.uint8)
    got = run_elementwise(["i8"], "f32", compute, [raw.view(np.int8)], np.float32, out_n=8)
    assert [str(v) for v in got.tolist()] == ["1.0", "2.0", "12.0", "-12.0", "0.0", "-0.0", "-2.0", "6.0"]
    bits = np.array([1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0], np.bool_)
    packed = run_elementwise(["i1"], "i8", "%r = pack %a : tile<16xi1> -> tile<2xi8>", [bits], np.int8, out_n=2)
    assert packed.view(np.uint8).tolist() == [0x81, 0x03]


def test_select_chooses_per_element() -> None:
    compute = """
    %z = constant <f32: 0.0> : tile<4xf32>
    %m = cmpf greater_than ordered %a, %z : tile<4xf32> -> tile<4xi1>
    %n = negf %a : tile<4xf32>
    %r = select %m, %a, %n : tile<4xi1>, tile<4xf32>
    """
    got = run_elementwise(["f32"], "f32", compute, [np.array([1, -2, 3, -4], np.float32)], np.float32)
    assert got.tolist() == [1, 2, 3, 4]
