"""Safety at zero cost: every shipped example's safe build is its unchecked build.

Each specialization an example declares compiles to the same Tile IR
bytecode with its bounds checks proved (static rungs, launch checks) as with
``unchecked_accesses=True``: no check is left in the kernel (``make test``
compares each kernel's first specialization, ``make test-full`` every one).  And a check
that must stay in the kernel leaves a loop whose trip count is a runtime
value under the loop's own condition, so a zero-trip loop checks nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import safetile as st
from safetile import f32, i32
from safetile.backend.bytecode import write_bytecode
from safetile.backend.interpreter.errors import DeviceAssertError
from support import EXAMPLES_DIR, load_example



def example_specializations() -> list[tuple[str, Any, dict[str, Any]]]:
    found = []
    for path in sorted(EXAMPLES_DIR.glob("*.py")):
        if path.stem == "run_all":
            continue
        module = load_example(path.stem)
        for value in vars(module).values():
            if isinstance(value, st.Kernel):
                found += [(f"{path.stem}:{value.name}:{n}", value, s) for n, s in enumerate(value.specializations)]
    return found


CASES = example_specializations()
EACH_KERNELS_FIRST = [pytest.param(*c[1:], id=c[0], marks=() if c[0].endswith(":0") else pytest.mark.full)
                      for c in CASES]
"""``make test`` builds the unchecked twin, and proves the IR that runs again, of each kernel's first
specialization; ``make test-full`` of every one."""


@pytest.mark.parametrize(("kernel", "values"), EACH_KERNELS_FIRST)
def test_safe_and_unchecked_compile_to_the_same_bytecode(kernel: st.Kernel, values: dict[str, Any]) -> None:
    safe = kernel.compile_variant(**values)
    unchecked = kernel.with_options(unchecked_accesses=True).compile_variant(**values)
    assert "assert" not in safe.ir()
    assert write_bytecode(safe.module, "13.4") == write_bytecode(unchecked.module, "13.4")


def test_every_example_has_a_specialization() -> None:
    assert len({c[0].split(":")[0] for c in CASES}) == len([p for p in EXAMPLES_DIR.glob("*.py") if p.stem != "run_all"])


@st.kernel
def repeated(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)], i: i32, n: i32):
    px = x.partition((16,))
    acc = st.zeros((16,), f32)
    for k in range(n):
        acc = acc + px.load((i,))
    z.store(acc)


def launch(i: int, n: int) -> np.ndarray:
    x = st.from_numpy(np.ones(32, np.float32)).sync()
    z = st.zeros((16,), f32).sync().partition((16,))
    z, x, _, _ = repeated(z, x, i, n).sync()
    return z.unpartition().numpy()


def test_a_hoisted_check_runs_once_before_its_loop() -> None:
    text = repeated.compile_variant(z=st.TensorSpec(f32, (16,), (1,), (16,)), x=st.TensorSpec(f32, (32,), (1,))).ir()
    before_loop = text.split(" for %k")[0]
    assert before_loop.count("assert ") == 1 and "assert" not in text.split(" for %k")[1]


def test_a_zero_trip_loop_checks_nothing_and_a_running_one_does() -> None:
    assert (launch(5, 0) == 0.0).all()  # tile 5 does not exist, but the loop never reads it
    assert (launch(1, 3) == 3.0).all()
    with pytest.raises(DeviceAssertError, match=r"test_zero_cost.py:\d+:\d+"):
        launch(5, 2)


@pytest.mark.parametrize(("kernel", "values"), EACH_KERNELS_FIRST)
def test_the_reproof_leaves_the_bytecode_as_the_bare_pipeline_makes_it(kernel: st.Kernel, values: dict[str, Any]) -> None:
    """The compile driver proves the IR that runs again (``passes/analyses/reproof.py``);
    it reads a copy, so what runs is byte for byte the default pipeline's output."""
    from safetile.frontend.kernel import context
    from safetile.passes.pipeline import clean_up_passes, safety_passes

    compiled = kernel.compile_variant(**values)
    bare = compiled.stage("frontend").clone()
    for step in safety_passes(launch_checks=True, dependent_launch=kernel.options.dependent_launch) + clean_up_passes():
        step.apply(context(), bare)
    assert write_bytecode(compiled.module, "13.4") == write_bytecode(bare, "13.4")
