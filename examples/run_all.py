"""Run every example (``make run``).

The Tile IR programs (``examples/tileir/*.mlir``) are parsed, verified and
printed back by ``tile-opt``, which must reproduce each file verbatim.  The
Python kernels (``examples/*.py``) are compiled by the frontend for the
specializations they declare, to verified plain Tile IR, and then run end to
end through the runtime (on the GPU where there is one, else on the CPU
interpreter) on small random inputs:
``CASES`` holds, per kernel, a driver that launches it and the numpy
reference; the max error against numpy is printed.  The tests reuse
``CASES`` (test/unit/test_runtime_examples.py).
"""

from __future__ import annotations

import importlib.util
import math
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

EXAMPLES = Path(__file__).resolve().parent


def run_tileir_example(path: Path) -> bool:
    """Print ``path`` through tile-opt; True if it comes back unchanged."""
    result = subprocess.run(
        ["tile-opt", str(path)], capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        print(f"  FAIL {path.name}: tile-opt exited {result.returncode}")
        print(result.stderr.rstrip())
        return False
    if result.stdout != path.read_text():
        print(f"  FAIL {path.name}: printed text differs from the file")
        return False
    print(f"  ok   {path.name}: verified and round-tripped verbatim")
    return True


def run_python_example(path: Path) -> bool:
    """Compile the kernels of ``path``; True if every specialization compiles."""
    from safetile.frontend.errors import CompileError
    from safetile.driver import compile_file

    try:
        module, errors = compile_file(path)
    except (CompileError, OSError) as err:
        errors, module = [err], None
    for err in errors:
        print(f"  FAIL {path.name}:\n{err}")
    if errors or module is None:
        return False
    entries = sum(1 for op in module.walk() if op.name == "cuda_tile.entry")
    print(f"  ok   {path.name}: {entries} specialization(s) compiled")
    return True


# --------------------------------------------------------------------------
# End-to-end runs: every Python kernel through the runtime, against numpy
# --------------------------------------------------------------------------


def load_example(name: str) -> ModuleType:
    """The module of ``examples/<name>.py``."""
    spec = importlib.util.spec_from_file_location(f"safetile_example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fresh(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any = np.float32) -> np.ndarray:
    """Random values in [0.5, 1.5) (never zero), as ``dtype``."""
    return (rng.random(shape) + 0.5).astype(dtype)


def _tensor(array: np.ndarray, dtype: Any = None) -> Any:
    import safetile as st

    return st.from_numpy(array, dtype).sync()


def _poisoned_out(shape: tuple[int, ...], dtype: Any, tile: tuple[int, ...]) -> Any:
    """An output tensor full of NaN, partitioned into ``tile``."""
    import safetile as st

    return st.full(shape, math.nan, dtype).sync().partition(tile)


def _f64(a: np.ndarray) -> np.ndarray:
    return np.asarray(a, dtype=np.float64)


Result = tuple[np.ndarray, np.ndarray, float]
"""(kernel output, numpy reference, tolerance on the max abs error)."""


def case_add(rng: np.random.Generator, n: int = 1000, tile: int = 128, **opts: Any) -> Result:
    add = load_example("add").add
    xs, ys = fresh(rng, (n,)), fresh(rng, (n,))
    z, x, y = add(_poisoned_out((n,), None, (tile,)), _tensor(xs), _tensor(ys), **opts).sync()
    return z.unpartition().numpy(), xs + ys, 0.0


def case_add_2d(rng: np.random.Generator, m: int = 100, n: int = 70, **opts: Any) -> Result:
    add_2d = load_example("add").add_2d
    xs, ys = fresh(rng, (m, n)), fresh(rng, (m, n))
    z, _, _ = add_2d(_poisoned_out((m, n), None, (64, 64)), _tensor(xs), _tensor(ys), **opts).sync()
    return z.unpartition().numpy(), xs + ys, 0.0


def case_saxpy(rng: np.random.Generator, n: int = 1000, **opts: Any) -> Result:
    saxpy = load_example("saxpy").saxpy
    xs, ys = fresh(rng, (n,)), fresh(rng, (n,))
    alpha = 1.75
    z, _, _, _ = saxpy(_poisoned_out((n,), None, (256,)), _tensor(xs), _tensor(ys), alpha, **opts).sync()
    ref = (np.float32(alpha) * xs + ys).astype(np.float32)
    return z.unpartition().numpy(), ref, 1e-6


def _row_tile(n: int) -> int:
    return 1 << max(0, (n - 1).bit_length())


def _softmax_ref(xs: np.ndarray) -> np.ndarray:
    e = np.exp(_f64(xs) - _f64(xs).max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def case_softmax(rng: np.random.Generator, m: int = 10, n: int = 100, bn: int = 32, **opts: Any) -> Result:
    """The online kernel, its output partitioned narrower than a row (``bn`` columns)."""
    softmax = load_example("softmax").softmax
    xs = fresh(rng, (m, n)) * 4
    z, _ = softmax(_poisoned_out((m, n), None, (4, bn)), _tensor(xs), **opts).sync()
    return z.unpartition().numpy(), _softmax_ref(xs), 1e-6


def case_softmax_row(rng: np.random.Generator, m: int = 10, n: int = 100, rows: int = 2, **opts: Any) -> Result:
    softmax_row = load_example("softmax").softmax_row
    xs = fresh(rng, (m, n)) * 4
    z, _ = softmax_row(_poisoned_out((m, n), None, (rows, _row_tile(n))), _tensor(xs), **opts).sync()
    return z.unpartition().numpy(), _softmax_ref(xs), 1e-6


def _rms_norm_ref(xs: np.ndarray, ws: np.ndarray, eps: float) -> np.ndarray:
    x = _f64(xs)
    return x / np.sqrt((x * x).mean(axis=1, keepdims=True) + eps) * _f64(ws)


def case_rms_norm(rng: np.random.Generator, m: int = 5, n: int = 100, bn: int = 32, **opts: Any) -> Result:
    """The looped kernel, its output partitioned narrower than a row (``bn`` columns)."""
    rms_norm = load_example("rms_norm").rms_norm
    xs, ws = fresh(rng, (m, n)), fresh(rng, (n,))
    z, _, _, _ = rms_norm(_poisoned_out((m, n), None, (1, bn)), _tensor(xs), _tensor(ws), 1e-5, **opts).sync()
    return z.unpartition().numpy(), _rms_norm_ref(xs, ws, 1e-5), 1e-5


def case_rms_norm_row(rng: np.random.Generator, m: int = 5, n: int = 100, rows: int = 2, **opts: Any) -> Result:
    rms_norm_row = load_example("rms_norm").rms_norm_row
    xs, ws = fresh(rng, (m, n)), fresh(rng, (n,))
    out = _poisoned_out((m, n), None, (rows, _row_tile(n)))
    z, _, _, _ = rms_norm_row(out, _tensor(xs), _tensor(ws), 1e-5, **opts).sync()
    return z.unpartition().numpy(), _rms_norm_ref(xs, ws, 1e-5), 1e-5


def _layer_norm_ref(xs: np.ndarray, ws: np.ndarray, bs: np.ndarray, eps: float) -> np.ndarray:
    x = _f64(xs)
    c = x - x.mean(axis=1, keepdims=True)
    return c / np.sqrt((c * c).mean(axis=1, keepdims=True) + eps) * _f64(ws) + _f64(bs)


def case_layer_norm(rng: np.random.Generator, m: int = 5, n: int = 100, bn: int = 32, **opts: Any) -> Result:
    """The looped kernel, its output partitioned narrower than a row (``bn`` columns)."""
    layer_norm = load_example("layer_norm").layer_norm
    xs, ws, bs = fresh(rng, (m, n)), fresh(rng, (n,)), fresh(rng, (n,))
    out = _poisoned_out((m, n), None, (1, bn))
    z, _, _, _, _ = layer_norm(out, _tensor(xs), _tensor(ws), _tensor(bs), 1e-5, **opts).sync()
    return z.unpartition().numpy(), _layer_norm_ref(xs, ws, bs, 1e-5), 1e-4


def case_layer_norm_row(rng: np.random.Generator, m: int = 5, n: int = 100, rows: int = 2, **opts: Any) -> Result:
    layer_norm_row = load_example("layer_norm").layer_norm_row
    xs, ws, bs = fresh(rng, (m, n)), fresh(rng, (n,)), fresh(rng, (n,))
    out = _poisoned_out((m, n), None, (rows, _row_tile(n)))
    z, _, _, _, _ = layer_norm_row(out, _tensor(xs), _tensor(ws), _tensor(bs), 1e-5, **opts).sync()
    return z.unpartition().numpy(), _layer_norm_ref(xs, ws, bs, 1e-5), 1e-4


def case_gemm(rng: np.random.Generator, m: int = 70, n: int = 50, k: int = 48, **opts: Any) -> Result:
    gemm = load_example("gemm").gemm
    xs, ys = fresh(rng, (m, k)), fresh(rng, (k, n))
    # No padding on the K tiles: K is a multiple of BK, M and N are anything.
    z, _, _ = gemm(_poisoned_out((m, n), None, (32, 32)), _tensor(xs), _tensor(ys), BK=16, **opts).sync()
    return z.unpartition().numpy(), _f64(xs) @ _f64(ys), 1e-4 * k


def case_persistent_gemm(rng: np.random.Generator, m: int = 70, n: int = 50, k: int = 48, **opts: Any) -> Result:
    import safetile as st

    gemm = load_example("persistent_gemm").persistent_gemm
    xs, ys = fresh(rng, (m, k), np.float16), fresh(rng, (k, n), np.float16)
    out = _poisoned_out((m, n), st.f16, (32, 32))
    z, _, _ = gemm(out, _tensor(xs), _tensor(ys), BK=16, **opts).sync()
    return z.unpartition().numpy(), _f64(xs) @ _f64(ys), 2**-10 * k * 2


def case_fp8_gemm(rng: np.random.Generator, m: int = 70, n: int = 50, k: int = 48, **opts: Any) -> Result:
    import safetile as st

    fp8_gemm = load_example("fp8_gemm").fp8_gemm
    x = st.from_numpy(fresh(rng, (m, k)) - np.float32(1.0), st.f8e4m3fn).sync()
    w = st.from_numpy(fresh(rng, (n, k)) - np.float32(1.0), st.f8e4m3fn).sync()
    xq, wq = _f64(x.numpy()), _f64(w.numpy())  # the values e4m3 holds
    z = fp8_gemm(_poisoned_out((m, n), None, (32, 32)), x, w, 0.5, BK=32, G=4, **opts).sync()[0]
    return z.unpartition().numpy(), xq @ wq.T * 0.5, 1e-4 * k


def case_flash_attention(
    rng: np.random.Generator,
    bh: int = 4,
    s: int = 40,
    sk: int = 64,
    d: int = 32,
    causal: int = 0,
    group: int = 1,
    bn: int = 32,
    order: int = 1,
    **opts: Any,
) -> Result:
    import safetile as st

    fa = load_example("flash_attention").flash_attention
    q = fresh(rng, (bh, s, d), np.float16) - np.float16(1.0)
    k, v = (fresh(rng, (bh // group, sk, d), np.float16) - np.float16(1.0) for _ in range(2))
    scale = 1.0 / math.sqrt(d)
    out = _poisoned_out((bh, s * d), st.f16, (1, 32 * d))  # [bh, s, d] as [bh, s * d]: 32-row query tiles
    o, _, _, _, _ = fa(out, _tensor(q), _tensor(k), _tensor(v), scale, BN=bn, CAUSAL=causal, GROUP=group,
                       ORDER=order, **opts).sync()
    kv_head = np.arange(bh) // group
    logits = np.einsum("bsd,btd->bst", _f64(q), _f64(k)[kv_head]) * scale
    if causal:
        logits = np.where(np.arange(sk)[None, :] <= np.arange(s)[:, None], logits, -np.inf)
    p = np.exp(logits - logits.max(axis=2, keepdims=True))
    ref = np.einsum("bst,btd->bsd", p / p.sum(axis=2, keepdims=True), _f64(v)[kv_head])
    return o.unpartition().numpy().reshape(bh, s, d), ref, 1e-2


def case_permute_heads(
    rng: np.random.Generator, b: int = 2, s: int = 40, h: int = 4, d: int = 16, **opts: Any
) -> Result:
    permute = load_example("permute_heads").permute_heads
    xs = fresh(rng, (b, s, h, d))
    z, _ = permute(_poisoned_out((b * h, s, d), None, (1, 32, d)), _tensor(xs), **opts).sync()
    ref = xs.transpose(0, 2, 1, 3).reshape(b * h, s, d)
    return z.unpartition().numpy(), ref, 0.0


CASES: dict[str, Callable[..., Result]] = {
    "add": case_add,
    "add_2d": case_add_2d,
    "saxpy": case_saxpy,
    "softmax": case_softmax,
    "softmax_row": case_softmax_row,
    "rms_norm": case_rms_norm,
    "rms_norm_row": case_rms_norm_row,
    "layer_norm": case_layer_norm,
    "layer_norm_row": case_layer_norm_row,
    "gemm": case_gemm,
    "persistent_gemm": case_persistent_gemm,
    "fp8_gemm": case_fp8_gemm,
    "flash_attention": case_flash_attention,
    "permute_heads": case_permute_heads,
}
"""One end-to-end driver per example kernel (some files have two)."""


def max_error(got: np.ndarray, ref: np.ndarray) -> float:
    """The max abs difference (inf if shapes differ or an element is NaN)."""
    if got.shape != ref.shape or np.isnan(got).any():
        return math.inf
    return float(np.max(np.abs(_f64(got) - _f64(ref)), initial=0.0))


def run_end_to_end(name: str) -> bool:
    """Run ``CASES[name]`` on fresh inputs; print and check its max error."""
    try:
        got, ref, tol = CASES[name](np.random.default_rng())
    except Exception as err:  # report every failure, keep going
        print(f"  FAIL {name}: {type(err).__name__}: {err}")
        return False
    err = max_error(got, ref)
    status = "ok  " if err <= tol else "FAIL"
    print(f"  {status} {name}: max error vs numpy {err:.3g} (tolerance {tol:.3g})")
    return err <= tol


def main() -> int:
    files = sorted((EXAMPLES / "tileir").glob("*.mlir"))
    print(f"Tile IR examples ({len(files)}), through tile-opt:")
    ok = [run_tileir_example(f) for f in files]
    kernels = sorted(p for p in EXAMPLES.glob("*.py") if p.name != Path(__file__).name)
    print(f"Python kernels ({len(kernels)}), through the frontend:")
    ok += [run_python_example(f) for f in kernels]
    print(f"Python kernels ({len(CASES)}), end to end on the runtime:")
    ok += [run_end_to_end(name) for name in CASES]
    print(f"{sum(ok)} passed, {len(ok) - sum(ok)} failed")
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
