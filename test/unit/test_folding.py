"""The integer folders of ``arith`` and ``compare`` ops, through ``canonicalize``.

Each case folds one op whose operands are constants (or one of the
identities) and compares the constant ``canonicalize`` leaves with what the
interpreter computes for the same op, so a folder can only agree with the
semantics the kernels run with: wrap-around in the width, signed vs unsigned
readings, the three division roundings, shifts by the width or more.  A
division by zero never folds.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.transforms.canonicalize import CanonicalizePass

from safetile.backend.interpreter import run_kernel
from safetile.dialects.cuda_tile.syntax import parse_tile_ir, print_tile_ir
from support import make_context


def _kernel(body: str, t: str, result: str = "%r") -> str:
    """An entry computing ``body`` and storing ``result`` (of type ``t``) to ``%out``."""
    return f"""
cuda_tile.module @m {{
  entry @k(%out: tile<ptr<{t}>>) {{
{body}
    %p = offset %out, %zero : tile<ptr<{t}>>, tile<i32> -> tile<ptr<{t}>>
    %tok = store_ptr_tko weak %p, {result} : tile<ptr<{t}>>, tile<{t}> -> token
    return
  }}
}}"""


def _run(module: ModuleOp, dtype: type) -> int:
    out = np.zeros(1, dtype)
    run_kernel(module, grid=(1,), args=[out])
    return int(out[0])


def _fold(text: str) -> ModuleOp:
    ctx = make_context()
    module = parse_tile_ir(ctx, text)
    CanonicalizePass().apply(ctx, module)
    module.verify()
    return module


def _binary(op: str, t: str, a: int, b: int) -> str:
    """A kernel storing ``op`` (``addi``, or ``divi %a, %b signed``) of constants ``a``, ``b``."""
    line = op if "%a" in op else f"{op} %a, %b"
    return _kernel(
        f"""    %zero = constant <i32: 0> : tile<i32>
    %a = constant <{t}: {a}> : tile<{t}>
    %b = constant <{t}: {b}> : tile<{t}>
    %r = {line} : tile<{t}>""",
        t,
    )


CASES = [
    ("addi", "i8", 127, 1),  # wraps to -128
    ("addi", "i1", 1, 1),
    ("subi", "i16", -32768, 1),
    ("muli", "i32", 65536, 65536),
    ("shli", "i8", 1, 7),
    ("shli", "i8", 1, 8),  # by the width: everything shifted out
    ("shli", "i32", 3, -1),  # the amount reads unsigned
    ("shri %a, %b signed", "i8", -128, 3),
    ("shri %a, %b signed", "i8", -128, 9),  # past the width: the sign
    ("shri %a, %b unsigned", "i8", -128, 3),
    ("shri %a, %b unsigned", "i8", -128, 8),
    ("divi %a, %b signed", "i32", -7, 2),  # toward zero: -3
    ("divi %a, %b signed rounding<negative_inf>", "i32", -7, 2),  # -4
    ("divi %a, %b signed rounding<positive_inf>", "i32", 7, 2),  # 4
    ("divi %a, %b signed rounding<positive_inf>", "i32", -7, 2),  # -3
    ("divi %a, %b unsigned", "i8", -7, 2),  # 249 / 2
    ("divi %a, %b unsigned rounding<positive_inf>", "i8", -7, 2),
    ("divi %a, %b signed", "i8", -128, -1),  # MIN / -1 wraps to MIN
    ("remi %a, %b signed", "i32", -7, 3),  # the sign of the dividend: -1
    ("remi %a, %b signed", "i32", 7, -3),  # 1
    ("remi %a, %b unsigned", "i8", -7, 3),  # 249 % 3
    ("maxi %a, %b signed", "i16", -1, 1),
    ("maxi %a, %b unsigned", "i16", -1, 1),
    ("mini %a, %b signed", "i64", -(2**63), 2**63 - 1),
    ("mini %a, %b unsigned", "i64", -(2**63), 2**63 - 1),
    ("andi", "i32", -1, 0x0F0F),
    ("ori", "i8", 0x70, -128),
    ("xori", "i64", -1, 1),
]

_NUMPY = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}


@pytest.mark.parametrize(("op", "t", "a", "b"), CASES, ids=lambda v: str(v))
def test_constant_operands_fold_as_the_interpreter_computes(op: str, t: str, a: int, b: int) -> None:
    name = op.split()[0]
    text = _binary(op, t, a, b)
    expected = _run(parse_tile_ir(make_context(), text), _NUMPY[t])
    folded = _fold(text)
    assert f"{name} " not in print_tile_ir(folded)
    assert _run(folded, _NUMPY[t]) == expected


@pytest.mark.parametrize("op", ["divi %a, %b signed", "divi %a, %b unsigned", "remi %a, %b signed"])
def test_division_by_zero_does_not_fold(op: str) -> None:
    assert op.split()[0] in print_tile_ir(_fold(_binary(op, "i32", 7, 0)))


@pytest.mark.parametrize(
    ("unary", "t", "a", "expected"),
    [("negi", "i8", -128, -128), ("negi", "i32", 5, -5), ("absi", "i8", -128, -128), ("absi", "i16", -3, 3)],
)
def test_unary_folds(unary: str, t: str, a: int, expected: int) -> None:
    text = _kernel(
        f"""    %zero = constant <i32: 0> : tile<i32>
    %a = constant <{t}: {a}> : tile<{t}>
    %r = {unary} %a : tile<{t}>""",
        t,
    )
    folded = _fold(text)
    assert unary not in print_tile_ir(folded)
    assert _run(folded, _NUMPY[t]) == expected


def _identity(line: str, t: str = "i32") -> str:
    """The folded IR of ``line`` over a runtime ``%x`` (a tile block id)."""
    text = _kernel(
        f"""    %zero = constant <i32: 0> : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %ones = constant <i32: -1> : tile<i32>
    %x, %y, %z = get_tile_block_id : tile<i32>
{line}""",
        t,
    )
    return print_tile_ir(_fold(text))


@pytest.mark.parametrize(
    ("line", "stored"),
    [
        ("    %r = addi %x, %zero : tile<i32>", "%x"),
        ("    %r = addi %zero, %x : tile<i32>", "%x"),
        ("    %r = subi %x, %zero : tile<i32>", "%x"),
        ("    %r = muli %one, %x : tile<i32>", "%x"),
        ("    %r = muli %x, %zero : tile<i32>", "%zero"),
        ("    %r = divi %x, %one signed : tile<i32>", "%x"),
        ("    %r = shli %x, %zero : tile<i32>", "%x"),
        ("    %r = shri %x, %zero unsigned : tile<i32>", "%x"),
        ("    %r = andi %x, %ones : tile<i32>", "%x"),
        ("    %r = andi %x, %x : tile<i32>", "%x"),
        ("    %r = ori %zero, %x : tile<i32>", "%x"),
        ("    %r = xori %x, %zero : tile<i32>", "%x"),
        ("    %r = maxi %x, %x signed : tile<i32>", "%x"),
    ],
)
def test_identities_give_an_operand(line: str, stored: str) -> None:
    text = _identity(line)
    assert " %r " not in text and "%r =" not in text
    assert f"store_ptr_tko weak %p, {stored} " in text


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("    %r = subi %x, %x : tile<i32>", 0),
        ("    %r = xori %x, %x : tile<i32>", 0),
        ("    %r = remi %x, %one signed : tile<i32>", 0),
    ],
)
def test_identities_give_a_constant(line: str, value: int) -> None:
    text = _identity(line)
    assert f"constant <i32: {value}>" in text and "get_tile_block_id" not in text


@pytest.mark.parametrize(
    ("predicate", "holds"),
    [("equal", True), ("not_equal", False), ("less_than", False), ("less_than_or_equal", True),
     ("greater_than", False), ("greater_than_or_equal", True)],
)
def test_cmpi_of_equal_operands_folds(predicate: str, holds: bool) -> None:
    text = _identity(f"    %r = cmpi {predicate} %x, %x, signed : tile<i32> -> tile<i1>", "i1")
    assert "cmpi" not in text and f"constant <i1: {str(holds).lower()}>" in text


@pytest.mark.parametrize(("signedness", "expected"), [("signed", True), ("unsigned", False)])
def test_cmpi_reads_constants_by_signedness(signedness: str, expected: bool) -> None:
    text = _kernel(
        f"""    %zero = constant <i32: 0> : tile<i32>
    %a = constant <i8: -1> : tile<i8>
    %b = constant <i8: 1> : tile<i8>
    %r = cmpi less_than %a, %b, {signedness} : tile<i8> -> tile<i1>""",
        "i1",
    )
    folded = print_tile_ir(_fold(text))
    assert "cmpi" not in folded and f"constant <i1: {str(expected).lower()}>" in folded


def test_select_folds() -> None:
    picked = _identity(
        """    %t = constant <i1: true> : tile<i1>
    %r = select %t, %x, %y : tile<i1>, tile<i32>"""
    )
    assert "select" not in picked and "store_ptr_tko weak %p, %x " in picked
    same = _identity(
        """    %c = cmpi less_than %x, %y, signed : tile<i32> -> tile<i1>
    %r = select %c, %y, %y : tile<i1>, tile<i32>"""
    )
    assert "select" not in same and "store_ptr_tko weak %p, %y " in same


def test_non_splat_constants_fold_lane_by_lane() -> None:
    ctx = make_context()
    module = parse_tile_ir(
        ctx,
        """
cuda_tile.module @m {
  entry @k() {
    %c = constant <i1: [true, false, true, false]> : tile<4xi1>
    %a = constant <i16: [1, 2, 3, 4]> : tile<4xi16>
    %b = constant <i16: [10, 20, 30, 32767]> : tile<4xi16>
    %s = addi %a, %b : tile<4xi16>
    %r = select %c, %s, %a : tile<4xi1>, tile<4xi16>
    print_tko "%d\\n", %r : tile<4xi16> -> token
    return
  }
}""",
    )
    CanonicalizePass().apply(ctx, module)
    text = print_tile_ir(module)
    assert "addi" not in text and "select" not in text
    assert "constant <i16: [11, 2, 33, 4]>" in text
