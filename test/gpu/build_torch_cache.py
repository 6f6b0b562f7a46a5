"""Build the cubins the torch GPU tests and bench/backward.py launch, on a machine with no GPU.

    PYTHONPATH=$PWD/.gpu/site SAFETILE_CACHE_DIR=build/gpu-cache \
        .venv/bin/python -P test/gpu/build_torch_cache.py [--arch sm_90] [--no-bench]

Run it on the safetile the GPU machine imports (``PYTHONPATH`` of the installed copy carried
there, as above): a cubin is found by its bytecode, which carries the kernels' source locations,
so safetile.nn's kernels compiled from another path (the checkout's) are not the ones looked for.

The kernel ops (``st.kernel_op``, safetile.nn) are traced on ``meta`` tensors:
forward and backward of every case of test/gpu/test_torch_gpu.py and of
bench/backward.py (its training-step model included) run the ops' fake
implementations, each of which specializes its kernel exactly as the real
launch on contiguous CUDA tensors will (``custom_op._specialize``); here every
such variant is also compiled for ``--arch`` into the cubin cache.  The
launch-boundary tests' variants come from their ``warm_up_specs()``.
Nothing runs a kernel, so real sizes cost only their compiles.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.append(str(HERE.parents[1] / "bench"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--no-bench", action="store_true", help="only the tests' variants")
    args = parser.parse_args()

    import safetile as st
    from safetile.driver import compile_variant
    from safetile.runtime.torch import custom_op

    compiled: set[str] = set()
    specialize = custom_op._specialize

    def specialize_and_compile(launch: custom_op.KernelLaunch) -> Any:
        variant = specialize(launch)
        if variant is not None:
            compiled.add(compile_variant(launch.kernel, variant, args.arch).symbol)
        return variant

    custom_op._specialize = specialize_and_compile  # the fake implementations look it up at each call

    import test_torch_gpu

    test_torch_gpu.trace_every_layer("meta")
    for kernel, spec in test_torch_gpu.warm_up_specs():
        st.warm_up(kernel, [spec], arch=args.arch)
    if not args.no_bench:
        import backward

        backward.trace_every_case("meta")
    print(f"{len(compiled)} kernel-op variants compiled for {args.arch}")


if __name__ == "__main__":
    main()
