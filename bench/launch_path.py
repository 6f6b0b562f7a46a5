"""The Python cost of one kernel launch on the CUDA backend, measured without a GPU.

    .venv/bin/python bench/launch_path.py [--launches N] [--profile]

The CUDA backend runs unchanged over the stand-in driver of
``test/unit/fake_cuda.py`` (host memory behind fake device addresses), its
launches through the C call of runtime/cuda/_launch.c into a no-op
``cuLaunchKernelEx`` (the kernel may start early: passes/grid_dependency.py)
compiled here with ``cc``, so the time of a launch here is
the runtime's host path alone: what bench/gpu.py's dispatch rows add to the
driver's own call.  The kernel is bench/gpu.py's vector add on 2^16 f32 (tile 1024); its
cubin comes from the cache (compiled with tileiras on first use).

Rows (µs per launch, best of 7 loops of N launches):

* fresh launch: ``z, x, y = add(z, x, y).enqueue(stream)`` (bench/gpu.py's
  "safetile" row), and the same split into the call ``add(z, x, y)`` (plan
  lookup, checks, moves) and ``.enqueue(stream)`` (the launch, the handles
  given back);
* fresh launch alternating two sets of tensors: every launch has other
  addresses (parameters packed, disjointness checked afresh);
* prepared: ``p.enqueue(stream)`` of a ``.prepare()``d launch;
* the C call into the no-op ``cuLaunchKernelEx`` alone (part of every row
  above; the real call's cost is measured on the GPU).

``--profile`` also prints cProfile's top functions of the fresh launch.

``--call-routes`` times the two ways Python can call ``cuLaunchKernel``:
cuda-python's binding (what the runtime uses) and ``ctypes`` with the
argument types declared, both calling a stub ``libcuda.so.1`` (compiled here
with ``cc``; every function returns ``CUDA_SUCCESS``) in a child process.
The driver's own work is the same whichever route calls it, so the
difference is what each route costs on the host.
"""

from __future__ import annotations

import argparse
import cProfile
import ctypes
import os
import pstats
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "test" / "unit"))

import safetile as st  # noqa: E402
from fake_cuda import fake_cuda  # noqa: E402  (test/unit/fake_cuda.py)
from gpu import DISPATCH_SIZE, add  # noqa: E402  (bench/gpu.py)

TILE = 1024


def best(loop: Callable[[int], float | None], launches: int, rounds: int = 7) -> float:
    """The best µs per launch of ``rounds`` runs of ``loop(launches)`` (its own time if it returns one)."""
    loop(launches // 10)  # warm
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        own = loop(launches)
        samples.append((own if own is not None else time.perf_counter() - start) / launches * 1e6)
    return min(samples)


def tensors() -> list[object]:
    return [st.zeros((DISPATCH_SIZE,)).sync().partition((TILE,)), st.ones((DISPATCH_SIZE,)).sync(),
            st.ones((DISPATCH_SIZE,)).sync()]


def measure(launches: int, profile: bool) -> dict[str, float]:
    stream = st.current_backend().default_stream
    state = {"args": tuple(tensors()), "other": tuple(tensors())}
    state["args"] = add(*state["args"]).enqueue(stream)  # compiles and loads the variant

    def fresh(n: int) -> None:
        args = state["args"]
        for _ in range(n):
            args = add(*args).enqueue(stream)
        state["args"] = args

    def call_only(n: int) -> float:
        args, clock, spent = state["args"], time.perf_counter, 0.0
        for _ in range(n):
            start = clock()
            op = add(*args)
            spent += clock() - start
            args = op.enqueue(stream)
        state["args"] = args
        return spent

    def enqueue_only(n: int) -> float:
        args, clock, spent = state["args"], time.perf_counter, 0.0
        for _ in range(n):
            op = add(*args)
            start = clock()
            args = op.enqueue(stream)
            spent += clock() - start
        state["args"] = args
        return spent

    def alternating(n: int) -> None:
        a, b = state["args"], state["other"]
        for _ in range(n // 2):
            a = add(*a).enqueue(stream)
            b = add(*b).enqueue(stream)
        state["args"], state["other"] = a, b

    out = {
        "fresh launch `add(z, x, y).enqueue(stream)`": best(fresh, launches),
        "  the call `add(z, x, y)`": best(call_only, launches),
        "  `.enqueue(stream)`": best(enqueue_only, launches),
        "fresh launch, two tensor sets alternating": best(alternating, launches),
    }
    prepared = add(*state["other"]).prepare()

    def prepared_loop(n: int) -> None:
        for _ in range(n):
            prepared.enqueue(stream)

    out["prepared `p.enqueue(stream)`"] = best(prepared_loop, launches)
    state["other"] = prepared.release()
    (plan,) = add.launch_cache.plans.values()
    kernel = plan.launcher.kernel  # the loaded CudaKernel
    params = kernel.packed([0] * len(kernel.layout.codes))

    def driver_only(n: int) -> None:
        # Through ``handle``: launches not recording their writes leave the stream's last work unknown.
        enqueue, address, params_address = kernel.enqueue, int(stream.handle), params.address
        for _ in range(n):
            enqueue(64, 1, 1, address, params_address)

    out[f"stand-in {kernel.launch_call} alone"] = best(driver_only, launches)
    if profile:
        profiler = cProfile.Profile()
        profiler.runcall(fresh, launches)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
    return out


STUB_LIBCUDA = """
typedef int CUresult;
CUresult cuInit(unsigned int flags) { return 0; }
CUresult cuDriverGetVersion(int *version) { *version = 13000; return 0; }
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *stream, void **params, void **extra) { return 0; }
CUresult cuLaunchKernelEx(const void *config, void *f, void **params, void **extra) { return 0; }
"""

CALL_ROUTES = """
import ctypes, timeit
from cuda.bindings import driver
assert driver.cuInit(0) == (driver.CUresult.CUDA_SUCCESS,)
function, stream = driver.CUfunction(0x1000), driver.CUstream(0x2000)
params = ctypes.addressof((ctypes.c_void_p * 9)())
by_ctypes = ctypes.CDLL("libcuda.so.1").cuLaunchKernel
by_ctypes.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [ctypes.c_void_p] * 3
by_ctypes.restype = ctypes.c_int
untyped = ctypes.CDLL("libcuda.so.1").cuLaunchKernel
untyped.restype = ctypes.c_int
u, p = ctypes.c_uint, ctypes.c_void_p
prebuilt = (p(0x1000), u(64), u(1), u(1), u(1), u(1), u(1), u(0), p(0x2000), p(params), None)
routes = {
    "cuda-python `driver.cuLaunchKernel` (CUfunction, CUstream objects)":
        lambda: driver.cuLaunchKernel(function, 64, 1, 1, 1, 1, 1, 0, stream, params, 0),
    "ctypes, argtypes declared": lambda: by_ctypes(0x1000, 64, 1, 1, 1, 1, 1, 0, 0x2000, params, None),
    "ctypes, every argument a prebuilt ctypes object": lambda: untyped(*prebuilt),
}
for name, call in routes.items():
    best = min(timeit.repeat(call, number=100000, repeat=7)) / 100000 * 1e6
    print(f"| {name} | {best:.2f} |")
"""


def stub_libcuda(folder: str) -> str:
    """``STUB_LIBCUDA`` compiled into ``folder/libcuda.so.1``; its path."""
    source, library = os.path.join(folder, "stub.c"), os.path.join(folder, "libcuda.so.1")
    with open(source, "w") as f:
        f.write(STUB_LIBCUDA)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", library, source], check=True)
    return library


def call_routes() -> None:
    """Time cuda-python's and ctypes' call of a stub ``cuLaunchKernel`` (see the module doc)."""
    with tempfile.TemporaryDirectory() as folder:
        stub_libcuda(folder)
        print("\n# cuLaunchKernel through each route, into a stub libcuda (µs per call)\n")
        print("| route | µs |")
        print("|---|---|")
        sys.stdout.flush()
        subprocess.run([sys.executable, "-c", CALL_ROUTES], check=True,
                       env={**os.environ, "LD_LIBRARY_PATH": folder})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--launches", type=int, default=20000, help="launches per timed loop")
    parser.add_argument("--profile", action="store_true", help="also print cProfile's top functions")
    parser.add_argument("--call-routes", action="store_true", help="also time cuda-python against ctypes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        stub = ctypes.CDLL(stub_libcuda(folder))
        no_op, no_op_ex = (ctypes.cast(f, ctypes.c_void_p).value or 0
                           for f in (stub.cuLaunchKernel, stub.cuLaunchKernelEx))
        with fake_cuda(launch=no_op, launch_ex=no_op_ex):
            rows = measure(args.launches, args.profile)
    print(f"# Python path of a launch (CUDA backend over a stand-in driver; Python {sys.version.split()[0]})\n")
    print("| launch | µs |")
    print("|---|---|")
    for name, us in rows.items():
        print(f"| {name} | {us:.2f} |")
    if args.call_routes:
        call_routes()
    return 0


if __name__ == "__main__":
    sys.exit(main())
