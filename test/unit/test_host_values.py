"""Host values never wrap, truncate or saturate (``runtime/tensor.py:host_values``, ``shape_of``).

Every conversion of a host number into an element type (``st.full``,
``st.from_numpy``, ``st.arange``) is range-checked at the call: a clear
``OverflowError`` or ``TypeError`` naming the value, its place and the type,
as numpy 2 refuses ``np.full(3, 300, np.int8)``.  Shapes are ints or tuples
of non-negative ints.
"""

from __future__ import annotations

import numpy as np
import pytest

import safetile as st


@pytest.mark.parametrize("value, dtype, error, message", [
    (300, st.i8, OverflowError, r"300 does not fit i8 \(from -128 to 127\)"),
    (-1, st.u8, OverflowError, r"-1 does not fit u8 \(from 0 to 255\)"),
    (float("nan"), st.i32, OverflowError, r"nan cannot be i32: an integer type has no NaN"),
    (float("-inf"), st.i64, OverflowError, r"-inf cannot be i64"),
    (1.7, st.i32, TypeError, r"1.7 is not an integer, so it cannot be i32: round it first"),
    (2**40, st.i32, OverflowError, r"1099511627776 does not fit i32"),
    (2**70, st.i64, OverflowError, r"1180591620717411303424 does not fit i64"),
    (2**64, st.u64, OverflowError, r"18446744073709551616 does not fit u64"),
    (2, st.bool_, OverflowError, r"2 does not fit bool \(from 0 to 1\)"),
    (1e5, st.f16, OverflowError, r"100000.0 is too large for f16: it would be infinite"),
    (1e39, st.f32, OverflowError, r"is too large for f32"),
    (1e3, st.f8e4m3fn, OverflowError, r"1000.0 is too large for f8e4m3fn"),
    (1e39, st.bf16, OverflowError, r"is too large for bf16"),
    ("a", st.f32, TypeError, r"'a' cannot be f32 elements: they are <U1, not numbers"),
    (1 + 2j, st.f32, TypeError, r"cannot be f32 elements: they are complex128"),
])
def test_a_fill_value_the_type_cannot_hold_is_refused_at_the_call(value, dtype, error, message) -> None:
    with pytest.raises(error, match=message):
        st.full((3,), value, dtype)


@pytest.mark.parametrize("value, dtype, expected", [
    (127, st.i8, 127), (-128, st.i8, -128), (255, st.u8, 255), (2**64 - 1, st.u64, 2**64 - 1),
    (3.0, st.i32, 3), (True, st.bool_, True), (1, st.bool_, True), (65504.0, st.f16, 65504.0),
    (float("inf"), st.f16, float("inf")), (448.0, st.f8e4m3fn, 448.0), (0.1, st.f32, np.float32(0.1)),
])
def test_values_in_range_are_stored_exactly_or_rounded(value, dtype, expected) -> None:
    got = st.full((2,), value, dtype).sync().numpy()
    assert got.tolist() == [expected, expected]


def test_arrays_are_checked_element_by_element_and_the_place_is_named() -> None:
    with pytest.raises(OverflowError, match=r"300 at \(1,\) does not fit u8"):
        st.from_numpy(np.array([1, 300, 2]), st.u8)
    with pytest.raises(TypeError, match=r"1.5 at \(0, 1\) is not an integer"):
        st.from_numpy(np.array([[1.0, 1.5]]), st.i32)
    with pytest.raises(OverflowError, match=r"18446744073709551616 at \(1,\) does not fit u64"):
        st.from_numpy([1, 2**64], st.u64)
    with pytest.raises(OverflowError, match=r"128 at \(128,\) does not fit i8"):
        st.arange(0, 300, dtype=st.i8)
    with pytest.raises(OverflowError, match=r"nan at \(2,\) cannot be i16"):
        st.from_numpy(np.array([0.0, 1.0, np.nan]), st.i16)
    np.testing.assert_array_equal(st.from_numpy(np.array([-1.0, 7.0]), st.i8).sync().numpy(), [-1, 7])
    np.testing.assert_array_equal(st.from_numpy([2**64 - 1], st.u64).sync().numpy(), [2**64 - 1])


@pytest.mark.parametrize("shape, error, message", [
    ("128", TypeError, r"a tensor shape must be an int or a tuple of ints, got str '128'"),
    ((2.0, 3), TypeError, r"a tensor shape \(2.0, 3\) must hold ints, got float 2.0"),
    ((True, 3), TypeError, r"must hold ints, got bool True"),
    (2.0, TypeError, r"a tensor shape must be an int or a tuple of ints, got float"),
    (-1, ValueError, r"a tensor shape \(-1,\) has a negative extent"),
    (None, TypeError, r"got NoneType"),
])
def test_shapes_are_tuples_of_non_negative_ints(shape, error, message) -> None:
    with pytest.raises(error, match=message):
        st.zeros(shape)


def test_shapes_take_ints_and_numpy_ints() -> None:
    assert st.zeros(np.int64(4)).sync().shape == (4,)
    assert st.ones([2, np.int32(3)]).sync().shape == (2, 3)
    assert st.zeros(()).sync().shape == ()
    with pytest.raises(TypeError, match=r"a partition shape must be an int or a tuple of ints, got str '2'"):
        st.zeros((4,)).sync().partition("2")
