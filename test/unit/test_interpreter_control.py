"""Interpreter: control flow, ``reduce``/``scan`` and the MMA ops.

Loops with carried values, ``break``/``continue`` from inside ``if``, early
``return``; reductions and scans through each strategy (single integer op,
element-wise tree, scalar fallback), several operands, reversed scans;
``mmaf`` (f16 in, f32 accumulate; batched), ``mmai`` signedness,
``mmaf_scaled``.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from interpreter_support import kernel, run_elementwise
from safetile.backend.interpreter import UndefinedBehaviorError, run_kernel


def printed(module, args: list) -> str:  # noqa: ANN001 - a parsed module
    out = io.StringIO()
    run_kernel(module, (1,), args, stream=out)
    return out.getvalue()


def test_for_loop_carries_values_and_counts_unsigned() -> None:
    module = kernel(
        "%lo: tile<i8>, %hi: tile<i8>",
        """
        %c3 = constant <i8: 3> : tile<i8>
        %z = constant <i32: 0> : tile<i32>
        %s, %n = for %i in (%lo to %hi, step %c3) : tile<i8> iter_values(%acc = %z, %cnt = %z) -> (tile<i32>, tile<i32>) {
          %w = exti %i signed : tile<i8> -> tile<i32>
          %next = addi %acc, %w : tile<i32>
          %one = constant <i32: 1> : tile<i32>
          %c = addi %cnt, %one : tile<i32>
          continue %next, %c : tile<i32>, tile<i32>
        }
        %u, %m = for unsigned %j in (%lo to %hi, step %c3) : tile<i8> iter_values(%acc = %z, %cnt = %z) -> (tile<i32>, tile<i32>) {
          %one = constant <i32: 1> : tile<i32>
          %c = addi %cnt, %one : tile<i32>
          continue %acc, %c : tile<i32>, tile<i32>
        }
        %p = print_tko "%d %d %d", %s, %n, %m : tile<i32>, tile<i32>, tile<i32> -> token
        """,
    )
    # signed: -10, -7, ..., 17 (10 steps); unsigned: 246 >= 20, no iteration
    assert printed(module, [-10, 20]) == f"{sum(range(-10, 20, 3))} 10 0"


def test_for_with_nonpositive_step_is_an_error() -> None:
    module = kernel(
        "%s: tile<i32>",
        """
        %z = constant <i32: 0> : tile<i32>
        %ten = constant <i32: 10> : tile<i32>
        for %i in (%z to %ten, step %s) : tile<i32> {
        }
        """,
    )
    with pytest.raises(UndefinedBehaviorError, match="step must be positive"):
        run_kernel(module, (1,), [0])


def test_loop_break_and_continue_from_inside_if() -> None:
    # Sum the odd numbers below %n, skipping even ones with an early continue.
    module = kernel(
        "%n: tile<i32>",
        """
        %z = constant <i32: 0> : tile<i32>
        %one = constant <i32: 1> : tile<i32>
        %k, %s = loop iter_values(%i = %z, %acc = %z) : tile<i32>, tile<i32> -> tile<i32>, tile<i32> {
          %done = cmpi greater_than_or_equal %i, %n, signed : tile<i32> -> tile<i1>
          if %done {
            break %i, %acc : tile<i32>, tile<i32>
          }
          %next = addi %i, %one : tile<i32>
          %bit = andi %i, %one : tile<i32>
          %even = cmpi equal %bit, %z, signed : tile<i32> -> tile<i1>
          if %even {
            continue %next, %acc : tile<i32>, tile<i32>
          }
          %sum = addi %acc, %i : tile<i32>
          continue %next, %sum : tile<i32>, tile<i32>
        }
        %p = print_tko "%d %d", %k, %s : tile<i32>, tile<i32> -> token
        """,
    )
    assert printed(module, [9]) == "9 16"


def test_early_return_from_if_ends_the_block() -> None:
    module = kernel(
        "%x: tile<i32>",
        """
        %z = constant <i32: 0> : tile<i32>
        %neg = cmpi less_than %x, %z, signed : tile<i32> -> tile<i1>
        %r = if %neg -> (tile<i32>) {
          %p0 = print_tko "negative" -> token
          return
        } else {
          yield %x : tile<i32>
        }
        %p = print_tko "value %d", %r : tile<i32> -> token
        """,
    )
    assert printed(module, [-3]) == "negative"
    assert printed(module, [4]) == "value 4"


REDUCE_BODIES = {
    "addi": ("i32", "%n = addi %e, %acc : tile<i32>", "0 : i32", lambda x, d: x.sum(d, dtype=np.int64) % 2**32),
    "maxi": ("i32", "%n = maxi %e, %acc signed : tile<i32>", "-2147483648 : i32", lambda x, d: x.max(d)),
    "addf": ("f32", "%n = addf %e, %acc : tile<f32>", "0.000000e+00 : f32", lambda x, d: x.sum(d, dtype=np.float64)),
    "maxf": ("f32", "%n = maxf %acc, %e : tile<f32>", "0xFF800000 : f32", lambda x, d: x.max(d)),
    # Two ops (still associative: addition modulo 2**16): the element-wise tree.
    "add16": (
        "i32",
        "%s = addi %e, %acc : tile<i32>\n%mask = constant <i32: 65535> : tile<i32>\n"
        "%n = andi %s, %mask : tile<i32>",
        "0 : i32",
        lambda x, d: x.sum(d, dtype=np.int64) % 2**16,
    ),
}


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("name", sorted(REDUCE_BODIES))
def test_reduce_strategies(name: str, dim: int) -> None:
    elem, body, identity, _ = REDUCE_BODIES[name]
    rng = np.random.default_rng(dim)
    x = (rng.integers(-50, 50, (4, 8)) if elem == "i32" else rng.random((4, 8)) + 0.5).astype(
        np.int32 if elem == "i32" else np.float32
    )
    out_n = 8 if dim == 0 else 4
    compute = f"""
    %m = reshape %a : tile<32x{elem}> -> tile<4x8x{elem}>
    %r = reduce %m dim={dim} identities=[{identity}] : tile<4x8x{elem}> -> tile<{out_n}x{elem}>
    (%e: tile<{elem}>, %acc: tile<{elem}>) {{
      {body}
      yield %n : tile<{elem}>
    }}
    """
    got = run_elementwise([elem], elem, compute, [x.reshape(-1)], x.dtype, out_n=out_n)
    expected = REDUCE_BODIES[name][3](x, dim)
    if elem == "i32":
        assert got.tolist() == [((int(v) + 2**31) % 2**32) - 2**31 for v in expected]
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_reduce_of_two_operands_argmax() -> None:
    compute = """
    %i = iota : tile<8xi32>
    %v, %k = reduce %a, %i dim=0 identities=[0xFF800000 : f32, 0 : i32] : tile<8xf32>, tile<8xi32> -> tile<f32>, tile<i32>
    (%e: tile<f32>, %acc: tile<f32>, %ei: tile<i32>, %ai: tile<i32>) {
      %gt = cmpf greater_than ordered %e, %acc : tile<f32> -> tile<i1>
      %m = select %gt, %e, %acc : tile<i1>, tile<f32>
      %mi = select %gt, %ei, %ai : tile<i1>, tile<i32>
      yield %m, %mi : tile<f32>, tile<i32>
    }
    %f = itof %k signed : tile<i32> -> tile<f32>
    %r = reshape %f : tile<f32> -> tile<1xf32>
    """
    x = np.array([3, 9, 1, 7, 9.5, 2, 0, 5], np.float32)
    assert run_elementwise(["f32"], "f32", compute, [x], np.float32, out_n=1).tolist() == [4.0]


def test_reduce_with_a_body_that_is_not_element_wise() -> None:
    # The body reshapes its scalars: it runs once per element, in order (the
    # combiner, 10 * acc + e, is not associative: only this order gives 1234).
    compute = """
    %r0 = reduce %a dim=0 identities=[0 : i32] : tile<4xi32> -> tile<i32>
    (%e: tile<i32>, %acc: tile<i32>) {
      %t = reshape %e : tile<i32> -> tile<1xi32>
      %u = reshape %t : tile<1xi32> -> tile<i32>
      %ten = constant <i32: 10> : tile<i32>
      %s = muli %acc, %ten : tile<i32>
      %n = addi %s, %u : tile<i32>
      yield %n : tile<i32>
    }
    %r = reshape %r0 : tile<i32> -> tile<1xi32>
    """
    got = run_elementwise(["i32"], "i32", compute, [np.array([1, 2, 3, 4], np.int32)], np.int32, out_n=1)
    assert got.tolist() == [1234]


@pytest.mark.parametrize("reverse", ["false", "true"])
def test_scan_inclusive_prefix(reverse: str) -> None:
    compute = f"""
    %m = reshape %a : tile<8xi32> -> tile<2x4xi32>
    %s = scan %m dim=1 reverse={reverse} identities=[0 : i32] : tile<2x4xi32> -> tile<2x4xi32>
    (%e: tile<i32>, %acc: tile<i32>) {{
      %n = addi %e, %acc : tile<i32>
      yield %n : tile<i32>
    }}
    %f = scan %m dim=1 reverse={reverse} identities=[0 : i32] : tile<2x4xi32> -> tile<2x4xi32>
    (%e: tile<i32>, %acc: tile<i32>) {{
      %d = addi %e, %acc : tile<i32>
      %mask = constant <i32: 65535> : tile<i32>
      %n = andi %d, %mask : tile<i32>
      yield %n : tile<i32>
    }}
    %c = cat %s, %f dim = 0 : tile<2x4xi32>, tile<2x4xi32> -> tile<4x4xi32>
    %r = reshape %c : tile<4x4xi32> -> tile<16xi32>
    """
    x = np.array([1, 2, 3, 4, 10, 20, 30, 40], np.int32)
    got = run_elementwise(["i32"], "i32", compute, [x], np.int32, out_n=16).reshape(4, 4)
    m = x.reshape(2, 4)
    if reverse == "true":
        expected = np.flip(np.cumsum(np.flip(m, 1), 1), 1)
    else:
        expected = np.cumsum(m, 1)
    np.testing.assert_array_equal(got[:2], expected)
    np.testing.assert_array_equal(got[2:], expected)  # the element-wise tree


def test_mmaf_accumulates_f16_products_in_f32_and_batches() -> None:
    rng = np.random.default_rng(4)
    a = (rng.random((2, 4, 8)) + 0.5).astype(np.float16)
    b = (rng.random((2, 8, 4)) + 0.5).astype(np.float16)
    c = (rng.random((2, 4, 4)) + 0.5).astype(np.float32)
    module = kernel(
        "%pa: tile<ptr<f16>>, %pb: tile<ptr<f16>>, %pc: tile<ptr<f32>>",
        """
        %i64 = iota : tile<64xi32>
        %i32 = iota : tile<32xi32>
        %ra = reshape %pa : tile<ptr<f16>> -> tile<1xptr<f16>>
        %ba = broadcast %ra : tile<1xptr<f16>> -> tile<64xptr<f16>>
        %qa = offset %ba, %i64 : tile<64xptr<f16>>, tile<64xi32> -> tile<64xptr<f16>>
        %rb = reshape %pb : tile<ptr<f16>> -> tile<1xptr<f16>>
        %bb = broadcast %rb : tile<1xptr<f16>> -> tile<64xptr<f16>>
        %qb = offset %bb, %i64 : tile<64xptr<f16>>, tile<64xi32> -> tile<64xptr<f16>>
        %rc = reshape %pc : tile<ptr<f32>> -> tile<1xptr<f32>>
        %bc = broadcast %rc : tile<1xptr<f32>> -> tile<32xptr<f32>>
        %qc = offset %bc, %i32 : tile<32xptr<f32>>, tile<32xi32> -> tile<32xptr<f32>>
        %va, %t0 = load_ptr_tko weak %qa : tile<64xptr<f16>> -> tile<64xf16>, token
        %vb, %t1 = load_ptr_tko weak %qb : tile<64xptr<f16>> -> tile<64xf16>, token
        %vc, %t2 = load_ptr_tko weak %qc : tile<32xptr<f32>> -> tile<32xf32>, token
        %ma = reshape %va : tile<64xf16> -> tile<2x4x8xf16>
        %mb = reshape %vb : tile<64xf16> -> tile<2x8x4xf16>
        %mc = reshape %vc : tile<32xf32> -> tile<2x4x4xf32>
        %m = mmaf %ma, %mb, %mc : tile<2x4x8xf16>, tile<2x8x4xf16>, tile<2x4x4xf32>
        %r = reshape %m : tile<2x4x4xf32> -> tile<32xf32>
        %t3 = store_ptr_tko weak %qc, %r : tile<32xptr<f32>>, tile<32xf32> -> token
        """,
    )
    out = c.copy()
    run_kernel(module, (1,), [a, b, out])
    expected = (a.astype(np.float64) @ b.astype(np.float64) + c).astype(np.float32)
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize(("lhs", "rhs"), [("signed", "signed"), ("unsigned", "signed"), ("unsigned", "unsigned")])
def test_mmai_reads_each_operand_by_its_signedness(lhs: str, rhs: str) -> None:
    a = np.array([-1, 2, -128, 127] * 4, np.int8)
    compute = f"""
    %ma = reshape %a : tile<16xi8> -> tile<4x4xi8>
    %t = permute %ma [1, 0] : tile<4x4xi8> -> tile<4x4xi8>
    %acc = constant <i32: 7> : tile<4x4xi32>
    %m = mmai %ma, %t, %acc {lhs} {rhs} : tile<4x4xi8>, tile<4x4xi8>, tile<4x4xi32>
    %r = reshape %m : tile<4x4xi32> -> tile<16xi32>
    """
    got = run_elementwise(["i8"], "i32", compute, [a], np.int32, out_n=16)
    read = {"signed": lambda v: v.astype(np.int64), "unsigned": lambda v: v.view(np.uint8).astype(np.int64)}
    m = a.reshape(4, 4)
    expected = read[lhs](m) @ read[rhs](m).T + 7
    assert got.tolist() == expected.reshape(-1).tolist()


def test_mmaf_scaled_applies_block_scales() -> None:
    # f8E4M3FN inputs (ones), K = 32, one E8M0 scale per 32 elements.
    compute = """
    %one = constant <f8E4M3FN: 1.0> : tile<2x32xf8E4M3FN>
    %oneb = constant <f8E4M3FN: 1.0> : tile<32x2xf8E4M3FN>
    %acc = constant <f32: 0.5> : tile<2x2xf32>
    %sa = constant <f8E8M0FNU: [[2.0], [4.0]]> : tile<2x1xf8E8M0FNU>
    %sb = constant <f8E8M0FNU: [[8.0, 0.5]]> : tile<1x2xf8E8M0FNU>
    %m = mmaf_scaled %one, %oneb, %acc, %sa, %sb : tile<2x32xf8E4M3FN>, tile<32x2xf8E4M3FN>, tile<2x2xf32>, tile<2x1xf8E8M0FNU>, tile<1x2xf8E8M0FNU>
    %r = reshape %m : tile<2x2xf32> -> tile<4xf32>
    """
    got = run_elementwise(["f32"], "f32", compute, [np.zeros(4, np.float32)], np.float32)
    assert got.tolist() == [32 * 16 + 0.5, 32 * 1 + 0.5, 32 * 32 + 0.5, 32 * 2 + 0.5]
