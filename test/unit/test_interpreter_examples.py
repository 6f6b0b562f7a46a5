"""Interpreter: every kernel of examples/tileir/ against numpy.

Inputs are fresh random values (never zeros), outputs are poisoned (NaN)
before the launch so an element no tile block wrote is caught, and each
kernel runs on several shapes, including ones the tiles do not divide, in
program order and shuffled (the results must be identical).
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from interpreter_support import parse, poisoned
from safetile.backend.interpreter import run_kernel

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "tileir"
TESTED = {"vector_add", "matmul", "row_sum", "clamp_loop", "print_pointers"}


def example(name: str):  # noqa: ANN201 - a parsed module
    return parse((EXAMPLES / f"{name}.mlir").read_text())


def fresh(rng: np.random.Generator, shape: tuple[int, ...], dtype: type) -> np.ndarray:
    """Random values in [0.5, 1.5): never zero."""
    return (rng.random(shape) + 0.5).astype(dtype)


def test_every_example_is_tested() -> None:
    assert {p.stem for p in EXAMPLES.glob("*.mlir")} == TESTED


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("n", [1, 16, 100, 1024, 4099])
def test_vector_add(n: int, shuffle: bool) -> None:
    rng = np.random.default_rng()
    a, b = fresh(rng, (n,), np.float32), fresh(rng, (n,), np.float32)
    c = poisoned(n, np.float32)
    result = run_kernel(example("vector_add"), (-(-n // 16),), [a, n, b, n, c, n], shuffle=shuffle)
    np.testing.assert_array_equal(c, a + b)
    assert len(result.order) == -(-n // 16)


# The example's views have no padding value, so a partial K tile would add
# unspecified values: K is a multiple of 64, M and N are anything.
@pytest.mark.parametrize(("m", "n", "k"), [(128, 128, 64), (200, 130, 128), (1, 300, 192), (257, 1, 64)])
def test_matmul(m: int, n: int, k: int) -> None:
    rng = np.random.default_rng()
    a, b = fresh(rng, (m, k), np.float16), fresh(rng, (k, n), np.float16)
    c = poisoned((m, n), np.float16)
    grid = (-(-m // 128), -(-n // 128))
    run_kernel(example("matmul"), grid, [a, b, c, m, n, k, k, n, n])
    reference = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float16)
    # The f32 accumulator is rounded to f16 once; allow one f16 ulp.
    np.testing.assert_allclose(c.astype(np.float64), reference.astype(np.float64), rtol=2**-10)


def test_matmul_in_shuffled_order_is_identical() -> None:
    rng = np.random.default_rng()
    m, n, k = 300, 260, 128
    a, b = fresh(rng, (m, k), np.float16), fresh(rng, (k, n), np.float16)
    outputs = []
    for shuffle in (False, True):
        c = poisoned((m, n), np.float16)
        run_kernel(example("matmul"), (3, 3), [a, b, c, m, n, k, k, n, n], shuffle=shuffle, seed=3)
        outputs.append(c)
    np.testing.assert_array_equal(*outputs)


@pytest.mark.parametrize("rows", [1, 7, 64])
def test_row_sum(rows: int) -> None:
    rng = np.random.default_rng()
    x = fresh(rng, (rows, 256), np.float32)
    y = poisoned(rows, np.float32)
    run_kernel(example("row_sum"), (rows,), [x, y, rows], shuffle=True)
    np.testing.assert_allclose(y, x.astype(np.float64).sum(axis=1), rtol=1e-6)


def test_print_pointers_prints_each_block_tile() -> None:
    rng = np.random.default_rng()
    data = fresh(rng, (128,), np.float32)
    out = io.StringIO()
    run_kernel(example("print_pointers"), (2,), [data], stream=out)
    line = "Data: [" + ", ".join(f"{v:f}" for v in data.tolist()) + "]\n"
    assert out.getvalue() == line * 2


def _clamp_reference(n: int, limit: int) -> tuple[int, int]:
    total = 0
    for i in range(n):
        total = min(total + i, limit)
    return total, max(n, 0)


@pytest.mark.parametrize(("n", "limit"), [(0, 5), (1, 5), (10, 20), (10, 1000), (50, -3)])
def test_clamp_loop(n: int, limit: int) -> None:
    # The kernel computes values but stores nothing: print them to observe.
    text = (EXAMPLES / "clamp_loop.mlir").read_text()
    text = text.replace(
        "    return\n",
        '    %p = print_tko "%d %d\\0A", %sum, %steps#0 : tile<i32>, tile<i32> -> token\n    return\n',
    )
    out = io.StringIO()
    run_kernel(parse(text), (1,), [n, limit], stream=out)
    total, steps = _clamp_reference(n, limit)
    assert out.getvalue() == f"{total} {steps}\n"
