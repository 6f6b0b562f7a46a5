"""Launch cubins built ahead of time, with numpy and cuda-python only.

This runs on GPU machines that have no safetile, xDSL or tileiras: it
imports neither.  ``build_cache.py`` (run where safetile is installed) fills a
cache folder and writes ``manifest.json`` there; this module reads the
folder named by ``$SAFETILE_CACHE_DIR``:

    {"format": 1, "arch": "sm_90", "kernels": {"<name>": {
        "symbol": "vector_add",                       # the cubin's kernel
        "cubin": "cubin-v1/..../tileiras-13.4.92.cubin",  # relative to the folder
        "cubin_sha256": "...",
        "params": [{"name": "a", "type": "tile<ptr<f32>>"}, ...],   # in order
        "arrays": {"a": {"dtype": "float32", "shape": [16777216]}, ...},
        "scalars": {"na": 16777216, ...},
        "outputs": ["c"], "grid": [16384, 1, 1], "block": [1, 1, 1]}}}

A pointer parameter gets the device copy of the array of its name, any other
parameter the scalar of its name.  The launch uses grid = tile blocks and
block = (1, 1, 1): the cubin carries its own thread count.

    SAFETILE_CACHE_DIR=build/gpu-cache python test/gpu/cubin_launch.py
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from cuda.bindings import driver

CACHE_ENV = "SAFETILE_CACHE_DIR"
MANIFEST = "manifest.json"
TIMED_LAUNCHES = 10

SCALAR_TYPES = {
    "tile<i32>": np.int32,
    "tile<i64>": np.int64,
    "tile<f32>": np.float32,
    "tile<f64>": np.float64,
}
"""numpy types of the scalar parameters this launcher can pass."""


class CudaError(RuntimeError):
    """A CUDA driver call failed; ``name`` is the ``CUresult`` (``CUDA_ERROR_...``)."""

    def __init__(self, call: str, name: str):
        super().__init__(f"{call} failed: {name}")
        self.name = name


class NoGpu(RuntimeError):
    """``cuInit`` failed: no driver library, no device, or a driver too old."""


@dataclass(frozen=True)
class Kernel:
    """One kernel of the manifest, its cubin read and checked."""

    name: str
    record: dict[str, Any]
    cubin: bytes


@dataclass(frozen=True)
class Result:
    outputs: dict[str, np.ndarray]
    milliseconds: float
    """Mean time of one launch over ``TIMED_LAUNCHES``, after a first checked launch."""


def cache_dir() -> Path | None:
    value = os.environ.get(CACHE_ENV)
    return Path(value) if value else None


def load_kernel(folder: Path, name: str) -> Kernel:
    """Kernel ``name`` of ``folder/manifest.json``; its cubin must match the recorded SHA-256."""
    manifest_path = folder / MANIFEST
    if not manifest_path.is_file():
        raise FileNotFoundError(
            f"{manifest_path} is missing: build the folder with "
            f"'python test/gpu/build_cache.py --out {folder}' on a machine with safetile"
        )
    record = json.loads(manifest_path.read_text())["kernels"][name]
    cubin = (folder / record["cubin"]).read_bytes()
    if hashlib.sha256(cubin).hexdigest() != record["cubin_sha256"]:
        raise ValueError(f"{folder / record['cubin']} does not match its manifest: rebuild it")
    return Kernel(name, record, cubin)


def call(function: Callable[..., tuple[Any, ...]], *args: Any) -> Any:
    """Call a ``cuda.bindings.driver`` function; raise ``CudaError`` unless it succeeds."""
    err, *values = function(*args)
    if err != driver.CUresult.CUDA_SUCCESS:
        _, name = driver.cuGetErrorName(err)
        raise CudaError(function.__name__, name.decode() if name else str(err))
    return values[0] if len(values) == 1 else tuple(values)


@contextmanager
def device(ordinal: int = 0) -> Iterator[str]:
    """Make device ``ordinal``'s primary context current; yield ``name (sm_XY)``.

    Raises ``NoGpu`` when the CUDA driver cannot be initialised.
    """
    try:
        call(driver.cuInit, 0)
    except RuntimeError as err:  # CudaError, or libcuda.so.1 missing
        raise NoGpu(f"no usable GPU: {err}") from None
    dev = call(driver.cuDeviceGet, ordinal)
    ctx = call(driver.cuDevicePrimaryCtxRetain, dev)
    try:
        call(driver.cuCtxSetCurrent, ctx)
        name = call(driver.cuDeviceGetName, 256, dev).split(b"\0")[0].decode()
        attr = driver.CUdevice_attribute
        major = call(
            driver.cuDeviceGetAttribute, attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev
        )
        minor = call(
            driver.cuDeviceGetAttribute, attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev
        )
        yield f"{name} (sm_{major}{minor})"
    finally:
        call(driver.cuDevicePrimaryCtxRelease, dev)


def run(kernel: Kernel, arrays: dict[str, np.ndarray]) -> Result:
    """Copy ``arrays`` to the GPU, launch ``kernel`` on them, return its outputs.

    Raises ``CudaError`` (``CUDA_ERROR_NO_BINARY_FOR_GPU`` when the cubin is
    for another architecture).
    """
    record = kernel.record
    image = np.frombuffer(kernel.cubin, dtype=np.uint8)
    module = call(driver.cuModuleLoadData, image.ctypes.data)
    buffers: dict[str, Any] = {}
    try:
        function = call(driver.cuModuleGetFunction, module, record["symbol"].encode())
        for name, host in arrays.items():
            buffers[name] = call(driver.cuMemAlloc, host.nbytes)
            call(driver.cuMemcpyHtoD, buffers[name], host.ctypes.data, host.nbytes)
        values = []
        for param in record["params"]:
            if "ptr<" in param["type"]:
                values.append(np.array([int(buffers[param["name"]])], dtype=np.uint64))
            else:
                scalar = SCALAR_TYPES[param["type"]]
                values.append(np.array([record["scalars"][param["name"]]], dtype=scalar))
        pointers = np.array([v.ctypes.data for v in values], dtype=np.uint64)

        def launch() -> None:
            call(
                driver.cuLaunchKernel,
                function,
                *record["grid"],
                *record["block"],
                0,
                driver.CUstream(0),
                pointers.ctypes.data,
                0,
            )

        launch()
        call(driver.cuCtxSynchronize)
        outputs = {}
        for name in record["outputs"]:
            out = np.empty_like(arrays[name])
            call(driver.cuMemcpyDtoH, out.ctypes.data, buffers[name], out.nbytes)
            outputs[name] = out
        start = time.perf_counter()
        for _ in range(TIMED_LAUNCHES):
            launch()
        call(driver.cuCtxSynchronize)
        elapsed = (time.perf_counter() - start) * 1000 / TIMED_LAUNCHES
        return Result(outputs, elapsed)
    finally:
        for buffer in buffers.values():
            call(driver.cuMemFree, buffer)
        call(driver.cuModuleUnload, module)


def inputs(kernel: Kernel, seed: int = 0) -> dict[str, np.ndarray]:
    """Random inputs in [-1, 1) for the kernel's arrays; zeros for its outputs."""
    rng = np.random.default_rng(seed)
    arrays = {}
    for name, spec in kernel.record["arrays"].items():
        shape, dtype = tuple(spec["shape"]), np.dtype(spec["dtype"])
        if name in kernel.record["outputs"]:
            arrays[name] = np.zeros(shape, dtype)
        else:
            arrays[name] = rng.uniform(-1, 1, shape).astype(dtype)
    return arrays


def check_vector_add(folder: Path) -> str:
    """c = a + b over 2^24 f32, exactly; a line of what was measured."""
    kernel = load_kernel(folder, "vector_add")
    arrays = inputs(kernel)
    result = run(kernel, arrays)
    error = float(np.max(np.abs(result.outputs["c"] - (arrays["a"] + arrays["b"]))))
    assert error == 0.0, f"vector_add: max abs error {error}"
    ms = result.milliseconds
    gbps = 3 * arrays["a"].nbytes / ms / 1e6
    return f"vector_add n={arrays['a'].size}: max_err 0.0, {ms:.3f} ms ({gbps:.0f} GB/s)"


def check_matmul(folder: Path) -> str:
    """C = A @ B, f16 1024x1024x512 with an f32 accumulator, against numpy in f32."""
    kernel = load_kernel(folder, "matmul")
    arrays = inputs(kernel)
    result = run(kernel, arrays)
    got = result.outputs["c"].astype(np.float32)
    want = arrays["a"].astype(np.float32) @ arrays["b"].astype(np.float32)
    rel = float(np.linalg.norm(got - want) / np.linalg.norm(want))
    assert np.allclose(got, want, rtol=1e-2, atol=1e-2), f"matmul: relative error {rel:.2e}"
    m, k = arrays["a"].shape
    n = arrays["b"].shape[1]
    ms = result.milliseconds
    tflops = 2 * m * n * k / ms / 1e9
    return f"matmul {m}x{n}x{k} f16: rel_err {rel:.1e}, {ms:.3f} ms ({tflops:.1f} TFLOP/s)"


def main() -> int:
    folder = cache_dir()
    if folder is None:
        print(f"set {CACHE_ENV} to a folder built by test/gpu/build_cache.py", file=sys.stderr)
        return 2
    with device() as name:
        print(f"device: {name}; driver {call(driver.cuDriverGetVersion)}")
        for check in (check_vector_add, check_matmul):
            print(check(folder))
    return 0


if __name__ == "__main__":
    sys.exit(main())
