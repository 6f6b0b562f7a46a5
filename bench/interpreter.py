"""Speed of the numpy interpreter: vector add and matmul.

    .venv/bin/python bench/interpreter.py [--repeat N]

* vector add: 2**20 f32 elements, tiles of 1024 (1024 tile blocks);
* matmul: 256x256x256 f32, 64x64 output tiles, K step 64 (16 tile blocks,
  4 ``mmaf`` each).

Prints the best and median wall time of ``run_kernel`` (parsing excluded),
numpy's time for the same computation, and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin

from safetile.backend.interpreter import run_kernel
from safetile.dialects.cuda_tile import CudaTile
from safetile.dialects.cuda_tile.syntax import parse_tile_ir

VECTOR_ADD = """
cuda_tile.module @bench {
  entry @vector_add(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %c: tile<ptr<f32>>, %n: tile<i32>) {
    %tva = make_tensor_view %a, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tvb = make_tensor_view %b, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tvc = make_tensor_view %c, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pa = make_partition_view %tva : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %pb = make_partition_view %tvb : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %pc = make_partition_view %tvc : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %x, %t0 = load_view_tko weak %pa[%bx] : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
    %y, %t1 = load_view_tko weak %pb[%bx] : partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
    %s = addf %x, %y : tile<1024xf32>
    %t2 = store_view_tko weak %s, %pc[%bx] : tile<1024xf32>, partition_view<tile=(1024), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
"""

MATMUL = """
cuda_tile.module @bench {
  entry @matmul(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %c: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) {
    %tva = make_tensor_view %a, shape = [%m, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %tvb = make_tensor_view %b, shape = [%k, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %tvc = make_tensor_view %c, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %pa = make_partition_view %tva : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %pb = make_partition_view %tvb : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %pc = make_partition_view %tvc : partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %ks:2 = get_index_space_shape %pa : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %zero = constant <f32: 0.000000e+00> : tile<64x64xf32>
    %acc = for %i in (%c0 to %ks#1, step %c1) : tile<i32> iter_values(%sum = %zero) -> (tile<64x64xf32>) {
      %ta, %t0 = load_view_tko weak %pa[%bx, %i] : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<64x64xf32>, token
      %tb, %t1 = load_view_tko weak %pb[%i, %by] : partition_view<tile=(64x64), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<64x64xf32>, token
      %mm = mmaf %ta, %tb, %sum : tile<64x64xf32>, tile<64x64xf32>, tile<64x64xf32>
      continue %mm : tile<64x64xf32>
    }
    %t2 = store_view_tko weak %acc, %pc[%bx, %by] : tile<64x64xf32>, partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
"""


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    """Wall times of ``repeat`` calls, after one warm-up call."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def report(name: str, interp: list[float], reference: list[float]) -> None:
    best, ref = min(interp), min(reference)
    print(
        f"{name:<34} {best * 1e3:9.1f} ms  {statistics.median(interp) * 1e3:9.1f} ms  "
        f"{ref * 1e3:9.3f} ms  {best / ref:9.0f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(CudaTile)
    rng = np.random.default_rng(0)

    n = 1 << 20
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    c = np.empty(n, dtype=np.float32)
    vadd = parse_tile_ir(ctx, VECTOR_ADD)
    vadd_times = timed(lambda: run_kernel(vadd, (n // 1024,), [a, b, c, n]), repeat)
    assert np.array_equal(c, a + b)
    vadd_ref = timed(lambda: np.add(a, b, out=c), repeat)

    size = 256
    x, y = rng.random((size, size), dtype=np.float32), rng.random((size, size), dtype=np.float32)
    z = np.empty((size, size), dtype=np.float32)
    mm = parse_tile_ir(ctx, MATMUL)
    mm_times = timed(lambda: run_kernel(mm, (size // 64, size // 64), [x, y, z, size, size, size]), repeat)
    assert np.allclose(z, x.astype(np.float64) @ y.astype(np.float64), rtol=1e-5)
    mm_ref = timed(lambda: np.matmul(x, y, out=z), repeat)

    print(f"interpreter speed ({repeat} runs each; numpy = the same computation in one call)")
    print(f"{'kernel':<34} {'best':>12} {'median':>12} {'numpy':>12} {'ratio':>10}")
    report("vector add, 2^20 f32, tile 1024", vadd_times, vadd_ref)
    report("matmul 256^3 f32, 64x64 tiles", mm_times, mm_ref)


if __name__ == "__main__":
    main()
