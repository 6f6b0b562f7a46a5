"""No silent wrong result: kernels that used to compute the wrong thing
without a word are now computed right or refused with a located error.

Each test names the mistake it guards against (issue 14, items 1-5).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import safetile as st
from safetile import f32, i32
from safetile.frontend.errors import CompileError
from support import load_example

# -- a literal output shape is checked against the host partition -------------


@st.kernel
def copy64(z: st.Mut[f32, (64,)], x: st.Ref[f32, (-1,)]):
    z.store(st.load_tile_like(x, z))


@pytest.mark.parametrize("tile", [128, 32])
def test_literal_output_shape_refuses_another_partition(tile: int) -> None:
    # (128,): a grid of 64-element tiles would leave half the output unwritten;
    # (32,): the launch would index past the partition at run time.
    x = st.from_numpy(np.arange(128, dtype=np.float32)).sync()
    z = st.zeros((128,), f32).sync().partition((tile,))
    with pytest.raises(CompileError, match=rf"'z' is declared with partition \(64,\) but the partition of 'z' is \({tile},\)") as info:
        copy64(z, x)
    assert info.value.line > 0 and "tensor.partition((64,))" in info.value.hint


def test_literal_output_shape_runs_with_its_partition() -> None:
    x = st.from_numpy(np.arange(128, dtype=np.float32)).sync()
    z, _ = copy64(st.zeros((128,), f32).sync().partition((64,)), x).sync()
    np.testing.assert_array_equal(z.unpartition().numpy(), np.arange(128, dtype=np.float32))


def test_literal_output_shape_is_checked_by_specialize() -> None:
    with pytest.raises(CompileError, match="declared with partition"):
        copy64.specialize(z=st.TensorSpec(f32, (128,), partition=(128,)))


# -- range() with a negative step counts down -----------------------------------


@st.kernel
def countdown(z: st.Mut[i32, (8,)], n: i32):
    acc = st.zeros((8,), i32)
    weight = 1
    for i in range(n - 1, -1, -1):
        # Order-sensitive: the first index visited gets weight 1, the next 2...
        acc = acc + i * weight
        weight = weight + 1
    z.store(acc)


@st.kernel
def countdown_break(z: st.Mut[i32, (8,)], n: i32):
    last = 0
    for i in range(n, 0, -2):
        if i < 3:
            break
        last = i
    z.store(st.zeros((8,), i32) + last)


def _run_scalar_kernel(kernel: Any, n: int) -> int:
    z, _ = kernel(st.zeros((8,), i32).sync().partition((8,)), n).sync()
    values = z.unpartition().numpy()
    assert (values == values[0]).all()
    return int(values[0])


@pytest.mark.parametrize("n", [0, 1, 5])
def test_negative_range_step_counts_down(n: int) -> None:
    expected = sum(i * (k + 1) for k, i in enumerate(range(n - 1, -1, -1)))
    assert _run_scalar_kernel(countdown, n) == expected


@pytest.mark.parametrize("n", [0, 2, 9])
def test_negative_range_step_with_break(n: int) -> None:
    expected = 0
    for i in range(n, 0, -2):
        if i < 3:
            break
        expected = i
    assert _run_scalar_kernel(countdown_break, n) == expected


@st.kernel
def zero_step(z: st.Mut[i32, (8,)], n: i32):
    for i in range(0, n, 0):
        z.store(i)


@st.kernel
def runtime_step(z: st.Mut[i32, (8,)], n: i32, step: i32):
    acc = st.zeros((8,), i32)
    for i in range(0, n, step):
        acc = acc + 1
    z.store(acc)


def test_zero_range_step_is_a_compile_error() -> None:
    with pytest.raises(CompileError, match=r"range\(\) step must not be zero"):
        zero_step.compile()


def test_negative_runtime_range_step_is_refused_at_run_time() -> None:
    z, _, _ = runtime_step(st.zeros((8,), i32).sync().partition((8,)), 5, 2).sync()
    assert (z.unpartition().numpy() == 3).all()
    with pytest.raises(Exception, match=r"range\(\) step must be positive at run time"):
        runtime_step(st.zeros((8,), i32).sync().partition((8,)), 0, -1).sync()


# -- statically out-of-range indices and constant division by zero ------------


@st.kernel
def past_the_end(z: st.Mut[f32, (64,)], x: st.Ref[f32, (128,)]):
    z.store(x.partition((64,)).load((2,)))


@st.kernel
def negative_index(z: st.Mut[f32, (64,)], x: st.Ref[f32, (-1,)]):
    z.store(x.partition((64,)).load((-1,)))


@st.kernel
def permuted_past_the_end(z: st.Mut[f32, (16, 32)], x: st.Ref[f32, (32, 64)]):
    # Tile dim 1 walks tensor dim 0: 32 rows in tiles of 32 is one tile.
    z.store(x.partition_permuted((16, 32), (1, 0)).load((0, 1)).reshape((16, 32)))


@st.kernel
def in_range(z: st.Mut[f32, (64,)], x: st.Ref[f32, (128,)]):
    z.store(x.partition((64,)).load((1,)))


@st.kernel
def floor_by_zero(z: st.Mut[i32, (64,)], x: st.Ref[i32, (-1,)]):
    z.store(st.load_tile_like(x, z) // 0)


@st.kernel
def mod_by_zero(z: st.Mut[i32, (64,)], x: st.Ref[i32, (-1,)]):
    z.store(st.load_tile_like(x, z) % st.zeros((64,), i32))


@st.kernel
def ceil_by_zero(z: st.Mut[i32, (64,)], x: st.Ref[i32, (-1,)]):
    z.store(st.ceil_div(st.load_tile_like(x, z), 0))


@pytest.mark.parametrize(
    "kernel, message",
    [
        (past_the_end, r"tile index 2 \(dimension 0\) is out of range: the partition has 2 tile\(s\)"),
        (negative_index, r"tile index -1 \(dimension 0\) is negative"),
        (permuted_past_the_end, r"tile index 1 \(dimension 1\) is out of range: the partition has 1 tile\(s\)"),
        (floor_by_zero, r"integer // by the constant 0"),
        (mod_by_zero, r"integer % by the constant 0"),
        (ceil_by_zero, r"integer st.ceil_div by the constant 0"),
    ],
)
def test_statically_wrong_kernels_do_not_compile(kernel: Any, message: str) -> None:
    with pytest.raises(CompileError, match=message) as info:
        kernel.compile()
    assert info.value.line > 0 and info.value.source_line.strip()


def test_static_index_in_range_compiles() -> None:
    in_range.compile()


# -- row kernels are right on any partition of the row --------------------------


def _example(name: str) -> Any:
    return getattr(load_example(name), name)


def _tensor(a: np.ndarray) -> Any:
    return st.from_numpy(a).sync()


def test_softmax_rows_sum_to_one_on_a_partition_narrower_than_the_row() -> None:
    # The shipped spec's BN=1024 on 4096-wide rows: four column tiles per row.
    x = np.random.default_rng(1).random((8, 4096)).astype(np.float32) * 4
    z, _ = _example("softmax")(st.zeros((8, 4096), f32).sync().partition((4, 1024)), _tensor(x)).sync()
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(z.unpartition().numpy(), e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("tile", [(2, 32), (1, 128)])
def test_norms_are_right_on_any_partition_of_the_row(tile: tuple[int, int]) -> None:
    rng = np.random.default_rng(2)
    m, n, eps = 5, 100, 1e-5
    x, w, b = (rng.random(s).astype(np.float32) + 0.5 for s in ((m, n), (n,), (n,)))
    x64 = x.astype(np.float64)
    z, *_ = _example("rms_norm")(st.zeros((m, n), f32).sync().partition(tile), _tensor(x), _tensor(w), eps).sync()
    ref = x64 / np.sqrt((x64 * x64).mean(axis=1, keepdims=True) + eps) * w
    np.testing.assert_allclose(z.unpartition().numpy(), ref, rtol=1e-5)
    layer_norm = _example("layer_norm")
    z, *_ = layer_norm(st.zeros((m, n), f32).sync().partition(tile), _tensor(x), _tensor(w), _tensor(b), eps).sync()
    c = x64 - x64.mean(axis=1, keepdims=True)
    ref = c / np.sqrt((c * c).mean(axis=1, keepdims=True) + eps) * w + b
    np.testing.assert_allclose(z.unpartition().numpy(), ref, rtol=1e-4, atol=1e-5)


# -- the documented reduce combiners are associative ----------------------------


def _doc_combiners() -> list[tuple[str, str, str]]:
    """(source, combiner, identity) of every st.reduce/st.scan call in docs/language.md."""
    import ast
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "language.md").read_text()
    found = []
    for block in re.findall(r"```python\n(.*?)```", doc, re.S):
        tree = ast.parse(block)
        functions = {f.name: f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
        for call in ast.walk(tree):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)):
                continue
            if call.func.attr not in ("reduce", "scan") or len(call.args) < 4:
                continue
            combiner = call.args[2]
            if isinstance(combiner, ast.Name):
                fn = functions[combiner.id]
                (ret,) = [s for s in fn.body if isinstance(s, ast.Return)]
                params = ", ".join(a.arg for a in fn.args.args)
                text = f"lambda {params}: {ast.unparse(ret.value)}"
            else:
                text = ast.unparse(combiner)
            found.append((ast.unparse(call), text, ast.unparse(call.args[3])))
    return found


def test_the_documented_reduce_combiners_are_associative() -> None:
    from types import SimpleNamespace

    shim = SimpleNamespace(maximum=max, minimum=min)
    combiners = _doc_combiners()
    assert combiners
    rng = np.random.default_rng(3)
    for source, text, identity_text in combiners:
        f = eval(text, {"st": shim})  # noqa: S307 - the doc's own code
        identity = eval(identity_text, {})  # noqa: S307
        for a, b, c in rng.uniform(-3, 3, (50, 3)).tolist():
            assert f(a, f(b, c)) == pytest.approx(f(f(a, b), c)), f"{source}: not associative"
            assert f(a, b) == pytest.approx(f(b, a)), f"{source}: not commutative"
            assert f(a, identity) == pytest.approx(a), f"{source}: {identity_text} is not its identity"
