"""The CUDA driver API through cuda-python, every failure a Python exception.

``call(driver.cuStreamCreate, 0)`` runs a ``cuda.bindings.driver`` function
and returns its values; a result other than ``CUDA_SUCCESS`` raises
``CudaError`` naming the call and the driver's error (``CUDA_ERROR_...``:
its description).  ``load()`` imports the bindings and initialises the
driver once; it raises ``NoGpu`` saying why there is no usable GPU (no
cuda-python, no driver library, no device).
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable
from types import ModuleType
from typing import Any

INSTALL_HINT = "install the CUDA extra: pip install 'safetile[cuda]'"

_driver: ModuleType | None = None
_failure: str | None = None


class CudaError(RuntimeError):
    """A CUDA driver call failed.

    ``call`` is the driver function (``cuLaunchKernel``), ``name`` the
    ``CUresult`` name (``CUDA_ERROR_ILLEGAL_ADDRESS``).
    """

    def __init__(self, call: str, name: str, description: str = ""):
        text = f"{call} failed: {name}"
        if description:
            text += f" ({description})"
        if name == "CUDA_ERROR_ASSERT":
            # The kernel's assert messages start with their file:line:col
            # (backend/bytecode/writer.py); the device printed the failing one.
            text += "; the device printed the failing assert's file:line:col and message"
        if name in STICKY:
            text += (
                "; the CUDA context is unusable after this error (a kernel faulted or a "
                "device-side assert failed): restart the process"
            )
        super().__init__(text)
        self.call = call
        self.name = name


STICKY = frozenset(
    {
        "CUDA_ERROR_ASSERT",
        "CUDA_ERROR_ILLEGAL_ADDRESS",
        "CUDA_ERROR_ILLEGAL_INSTRUCTION",
        "CUDA_ERROR_MISALIGNED_ADDRESS",
        "CUDA_ERROR_HARDWARE_STACK_ERROR",
        "CUDA_ERROR_LAUNCH_FAILED",
    }
)
"""Errors after which the context cannot be used again (CUDA's sticky errors)."""


class NoGpu(RuntimeError):
    """No usable GPU: cuda-python missing, no driver, or no device."""


def load() -> ModuleType:
    """``cuda.bindings.driver``, initialised (``cuInit``) once per process."""
    global _driver, _failure
    if _driver is not None:
        return _driver
    if _failure is not None:
        raise NoGpu(_failure)
    try:
        from cuda.bindings import driver
    except ImportError:
        _failure = f"cuda-python is not installed ({INSTALL_HINT})"
        raise NoGpu(_failure) from None
    try:
        err, = driver.cuInit(0)
    except RuntimeError as exc:  # the bindings could not open libcuda.so.1
        _failure = f"no CUDA driver: {exc}"
        raise NoGpu(_failure) from None
    if err != driver.CUresult.CUDA_SUCCESS:
        _failure = f"cuInit failed: {_name(driver, err)}"
        raise NoGpu(_failure)
    _driver = driver
    return driver


def _name(driver: ModuleType, err: Any) -> str:
    status, name = driver.cuGetErrorName(err)
    return name.decode() if status == driver.CUresult.CUDA_SUCCESS and name else str(err)


def error(function: Callable[..., Any] | str, err: Any) -> CudaError:
    """The exception for ``err`` returned by ``function`` (or the call named so)."""
    driver = load()
    if type(err) is int:  # from the C launch path: a plain number
        err = driver.CUresult(err)
    status, text = driver.cuGetErrorString(err)
    description = text.decode() if status == driver.CUresult.CUDA_SUCCESS and text else ""
    return CudaError(getattr(function, "__name__", str(function)), _name(driver, err), description)


def call(function: Callable[..., tuple[Any, ...]], *args: Any) -> Any:
    """``function(*args)``: its value (``None``, one value, or a tuple); raises ``CudaError``."""
    err, *values = function(*args)
    if err:  # CUresult.CUDA_SUCCESS is 0
        raise error(function, err)
    if not values:
        return None
    return values[0] if len(values) == 1 else tuple(values)


KernelLaunch = Callable[[int, int, int, int, int], int]
"""``launch(grid_x, grid_y, grid_z, stream, params) -> CUresult``: one ``cuLaunchKernel`` (or
``cuLaunchKernelEx``) of one function with block (1, 1, 1) and no dynamic shared memory (the cubin
carries its thread count); ``stream`` is a stream's handle as an integer, ``params`` the address of
the ``void**`` array."""


def kernel_launch(function: Any, programmatic: bool = False) -> KernelLaunch:
    """The fastest way this process has to launch ``function`` (a ``CUfunction``).

    ``runtime/cuda/_launch.c`` where it was built and libcuda's ``cuLaunchKernel`` is found: one C
    call with integers (cuda-python's wrapper converts eleven Python objects, about as costly as
    the driver call); else ``cuda.bindings.driver.cuLaunchKernel``.

    ``programmatic``: ``cuLaunchKernelEx`` with the launch attribute
    ``PROGRAMMATIC_STREAM_SERIALIZATION`` (a programmatic dependent launch: the kernel may start
    while the one before it on the stream drains; only for kernels that wait for it before any
    memory access, ``CompiledVariant.dependent_launch``), by the same two routes.
    """
    driver = load()
    address = cu_launch_kernel_ex_address() if programmatic else cu_launch_kernel_address()
    try:
        from ._launch import launch_kernel, launch_kernel_ex
    except ImportError:  # installed without a C compiler
        address = None
    if address is not None:
        return functools.partial(launch_kernel_ex if programmatic else launch_kernel, address, int(function))
    if programmatic:
        return _bindings_launch_ex(driver, function)
    bindings = driver.cuLaunchKernel

    def launch(grid_x: int, grid_y: int, grid_z: int, stream: int, params: int) -> int:
        return bindings(function, grid_x, grid_y, grid_z, 1, 1, 1, 0, stream, params, 0)[0]

    return launch


def _bindings_launch_ex(driver: ModuleType, function: Any) -> KernelLaunch:
    """``cuda.bindings.driver.cuLaunchKernelEx`` of ``function`` as a programmatic dependent."""
    attribute = driver.CUlaunchAttribute()
    attribute.id = driver.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
    attribute.value.programmaticStreamSerializationAllowed = 1
    bindings = driver.cuLaunchKernelEx

    def launch(grid_x: int, grid_y: int, grid_z: int, stream: int, params: int) -> int:
        config = driver.CUlaunchConfig()  # one per call: another thread may launch this kernel meanwhile
        config.gridDimX, config.gridDimY, config.gridDimZ = grid_x, grid_y, grid_z
        config.blockDimX = config.blockDimY = config.blockDimZ = 1
        config.sharedMemBytes = 0
        config.hStream = stream
        config.attrs = [attribute]
        config.numAttrs = 1
        return bindings(config, function, params, 0)[0]

    return launch


def _libcuda_address(name: str) -> int | None:
    try:
        return ctypes.cast(getattr(ctypes.CDLL("libcuda.so.1"), name), ctypes.c_void_p).value
    except (OSError, AttributeError):
        return None


@functools.cache
def cu_launch_kernel_address() -> int | None:
    """The address of ``cuLaunchKernel`` in the loaded libcuda (``None``: not found)."""
    return _libcuda_address("cuLaunchKernel")


@functools.cache
def cu_launch_kernel_ex_address() -> int | None:
    """The address of ``cuLaunchKernelEx`` in the loaded libcuda (``None``: not found, a driver
    older than CUDA 11.8)."""
    return _libcuda_address("cuLaunchKernelEx")
