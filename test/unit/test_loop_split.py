"""``loop-split`` keeps what a loop computes.

Each case runs a kernel in the interpreter before and after the pass: a loop
over ``[lb, ub)`` whose body branches on ``iv PRED n`` (or ``n PRED iv``) and
sums the branch's value, for split points before, inside and after the
range, steps 1 and 3, and a branch that ends in ``continue``.  The split
must have happened (no ``if`` left) and the sums must agree.
"""

from __future__ import annotations

import numpy as np
import pytest

from safetile.backend.interpreter import run_kernel
from safetile.dialects.cuda_tile.ops.control import ForOp, IfOp
from safetile.passes.loop_split import LoopSplit
from interpreter_support import parse
from support import make_context

KERNEL = """
cuda_tile.module @t {{
  entry @k(%out: tile<ptr<i32>>, %n: tile<i32>) {{
    %lb = constant <i32: 2> : tile<i32>
    %ub = constant <i32: 20> : tile<i32>
    %s = constant <i32: {step}> : tile<i32>
    %z = constant <i32: 0> : tile<i32>
    %r = for %i in (%lb to %ub, step %s) : tile<i32> iter_values(%acc = %z) -> (tile<i32>) {{
      %c = cmpi {predicate} {lhs}, {rhs}, signed : tile<i32> -> tile<i1>
      %v = if %c -> (tile<i32>) {{
        %m = muli %i, %i : tile<i32>
        {then_end}
      }} else {{
        %d = addi %i, %lb : tile<i32>
        yield %d : tile<i32>
      }}
      %a = addi %acc, %v : tile<i32>
      continue %a : tile<i32>
    }}
    %t = store_ptr_tko weak %out, %r : tile<ptr<i32>>, tile<i32> -> token
    return
  }}
}}
"""

PREDICATES = ("less_than", "less_than_or_equal", "greater_than", "greater_than_or_equal")


def _sum(text: str, n: int, split: bool) -> int:
    module = parse(text)
    if split:
        LoopSplit().apply(make_context(), module)
        module.verify()
        assert not any(isinstance(op, IfOp) for op in module.walk()), "not split"
        assert sum(isinstance(op, ForOp) for op in module.walk()) == 2
    out = np.zeros(1, np.int32)
    run_kernel(module, (1,), [out, np.int32(n)])
    return int(out[0])


@pytest.mark.parametrize("predicate", PREDICATES)
@pytest.mark.parametrize("iv_left", [True, False])
@pytest.mark.parametrize("step", [1, 3])
@pytest.mark.parametrize("n", [-5, 2, 7, 11, 19, 30])
def test_split_loop_computes_the_same(predicate: str, iv_left: bool, step: int, n: int) -> None:
    text = KERNEL.format(
        step=step,
        predicate=predicate,
        lhs="%i" if iv_left else "%n",
        rhs="%n" if iv_left else "%i",
        then_end="yield %m : tile<i32>",
    )
    assert _sum(text, n, split=True) == _sum(text, n, split=False)


@pytest.mark.parametrize("n", [1, 8, 25])
def test_continue_in_the_taken_branch_ends_the_copy(n: int) -> None:
    text = KERNEL.format(
        step=1,
        predicate="greater_than_or_equal",
        lhs="%i",
        rhs="%n",
        then_end="continue %m : tile<i32>",
    )
    assert _sum(text, n, split=True) == _sum(text, n, split=False)


def test_loop_carried_bound_is_not_split() -> None:
    """A comparison with the loop's own iter value is not with an invariant."""
    text = KERNEL.format(
        step=1, predicate="less_than", lhs="%i", rhs="%acc", then_end="yield %m : tile<i32>"
    )
    module = parse(text)
    LoopSplit().apply(make_context(), module)
    assert sum(isinstance(op, ForOp) for op in module.walk()) == 1
