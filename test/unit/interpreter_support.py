"""Helpers of the interpreter tests: hand-written Tile IR kernels, run on numpy.

``kernel(params, body)`` wraps a body in ``cuda_tile.module @t { entry @k }``
and parses it.  ``elementwise(...)`` builds the common test shape: load
1-d input tiles through partition views, compute, store the result tile;
``run_elementwise`` runs it and returns the output array.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from safetile.backend.interpreter import run_kernel
from safetile.dialects.cuda_tile.syntax import parse_tile_ir
from support import make_context

POISON_F = np.nan
POISON_I = 0xDEAD


def parse(text: str) -> ModuleOp:
    return parse_tile_ir(make_context(), text, "test.mlir")


def kernel(params: str, body: str) -> ModuleOp:
    """``entry @k(params) { body return }`` in a module."""
    indented = "\n".join("    " + line.strip() for line in body.strip().splitlines())
    return parse(f"cuda_tile.module @t {{\n  entry @k({params}) {{\n{indented}\n    return\n  }}\n}}\n")


def tensor_view(elem: str, n: int) -> str:
    return f"tensor_view<{n}x{elem}, strides=[1]>"


def partition_view(elem: str, n: int) -> str:
    return f"partition_view<tile=({n}), {tensor_view(elem, n)}>"


def elementwise(
    inputs: Sequence[str], output: str, n: int, compute: str, *, out_n: int | None = None
) -> ModuleOp:
    """Load ``inputs`` (element types) as ``%a``, ``%b``, ... (``tile<nxE>``),
    run ``compute`` (which defines ``%r``) and store ``%r`` (``tile<out_n x output>``)."""
    out_n = n if out_n is None else out_n
    names = "abcdefgh"[: len(inputs)]
    params = ", ".join(
        [f"%p{x}: tile<ptr<{e}>>" for x, e in zip(names, inputs)] + [f"%pr: tile<ptr<{output}>>"]
    )
    lines = ["%c0 = constant <i32: 0> : tile<i32>"]
    for x, e in zip(names, inputs):
        lines += [
            f"%tv{x} = make_tensor_view %p{x}, shape = [{n}], strides = [1] : {tensor_view(e, n)}",
            f"%pv{x} = make_partition_view %tv{x} : {partition_view(e, n)}",
            f"%{x}, %tok{x} = load_view_tko weak %pv{x}[%c0] : {partition_view(e, n)}, tile<i32> "
            f"-> tile<{n}x{e}>, token",
        ]
    lines += compute.strip().splitlines()
    lines += [
        f"%tvr = make_tensor_view %pr, shape = [{out_n}], strides = [1] : {tensor_view(output, out_n)}",
        f"%pvr = make_partition_view %tvr : {partition_view(output, out_n)}",
        f"%tokr = store_view_tko weak %r, %pvr[%c0] : tile<{out_n}x{output}>, "
        f"{partition_view(output, out_n)}, tile<i32> -> token",
    ]
    return kernel(params, "\n".join(lines))


def poisoned(shape: Sequence[int] | int, dtype: Any) -> np.ndarray:
    """An output array full of NaN (floats) or 0xDEAD (integers): unwritten
    elements stay visible."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return np.full(shape, POISON_F, dtype=dtype)
    if dtype.kind == "b":
        return np.ones(shape, dtype=dtype)
    return np.full(shape, POISON_I, dtype=np.uint64).astype(dtype)


def run_elementwise(
    inputs: Sequence[str],
    output: str,
    compute: str,
    arrays: Sequence[np.ndarray],
    out_dtype: Any,
    *,
    out_n: int | None = None,
    **options: Any,
) -> np.ndarray:
    """Build and run ``elementwise(...)`` on ``arrays``; the output array."""
    n = len(arrays[0])
    out = poisoned(n if out_n is None else out_n, out_dtype)
    module = elementwise(inputs, output, n, compute, out_n=out_n)
    run_kernel(module, (1,), [*arrays, out], **options)
    return out
