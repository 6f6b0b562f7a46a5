"""What a runtime loop carries, found by dry visits of its body (``frontend/lower.py``).

A nest of loops whose carries settle at the first dry visit lowers its
innermost body once per loop plus once (not 3^depth times: each loop's
second dry visit is skipped where it could find nothing new, and a loop met
in a dry visit is not lowered for real).  The cases where the second visit
is needed still get it: a name that holds the same value as a carried one,
and a name that starts as a Python number.
"""

from __future__ import annotations

import numpy as np

import safetile as st
from safetile import f32, i32

LOWERED: list[str] = []


def lowered(where: str) -> int:
    """A plain Python call in a kernel runs at compile time, each time its line is lowered."""
    LOWERED.append(where)
    return 1


@st.kernel
def nest(z: st.Mut[f32, (16,)], n: i32):
    acc = st.zeros((16,), f32)
    for i in range(n):
        for j in range(n):
            for k in range(n):
                acc = acc + lowered("innermost")
    z.store(acc)


@st.kernel
def aliased(z: st.Mut[f32, (16,)], n: i32):
    a = st.zeros((16,), f32)
    b = a
    for i in range(n):
        b = a  # unchanged on the first visit (b held a's value); a block argument's on the second
        a = a + 1.0
    z.store(a + b)


@st.kernel
def counted(z: st.Mut[f32, (16,)], n: i32):
    count = 0  # a Python number: a runtime i32 once the loop carries it
    for i in range(n):
        count = count + lowered("counted")
    z.store(st.full((16,), count.astype(f32)))


def run(kernel: st.Kernel, n: int) -> np.ndarray:
    z = st.zeros((16,), f32).sync().partition((16,))
    z, _ = kernel(z, n).sync()
    return z.unpartition().numpy()


def test_a_nest_of_three_loops_lowers_its_innermost_body_four_times() -> None:
    LOWERED.clear()
    nest.compile({})
    # 27 when each loop was visited twice dry and once for real at every visit of the loop around it
    assert LOWERED.count("innermost") == 4
    assert (run(nest, 3) == 27.0).all()


def test_a_name_holding_a_carried_value_is_carried_too() -> None:
    assert "-> (tile<16xf32>, tile<16xf32>)" in aliased.compile_variant().ir()
    assert (run(aliased, 4) == 4.0 + 3.0).all()


def test_a_carried_python_number_takes_a_second_dry_visit() -> None:
    LOWERED.clear()
    counted.compile({})
    assert LOWERED.count("counted") == 3  # two dry visits (the number becomes an i32), one real
    assert (run(counted, 5) == 5.0).all()
