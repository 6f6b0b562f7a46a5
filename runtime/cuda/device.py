"""One GPU: its primary context, architecture and memory pool.

Memory comes from the device's stream-ordered pool (``cuMemAllocAsync`` /
``cuMemFreeAsync``) with its release threshold raised to the maximum, so freed
blocks stay in the pool and the next allocation of that size is a pool hit
rather than a ``cudaMalloc``.  No managed memory is used.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from .driver import call, load


_here = threading.local()
"""The context ``Device.current_here`` made current on this thread."""


@dataclass
class Device:
    """Device ``ordinal``, its primary context current on the calling thread."""

    ordinal: int
    handle: Any
    context: Any
    name: str
    arch: str
    """``sm_90``: the architecture cubins are built for."""
    multiprocessors: int
    pool: Any
    shared_memory_per_block: int
    """The opt-in maximum of shared memory per block, in bytes."""

    @classmethod
    def open(cls, ordinal: int = 0) -> Device:
        driver = load()
        handle = call(driver.cuDeviceGet, ordinal)
        context = call(driver.cuDevicePrimaryCtxRetain, handle)
        call(driver.cuCtxSetCurrent, context)
        attr = driver.CUdevice_attribute
        major = call(driver.cuDeviceGetAttribute, attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, handle)
        minor = call(driver.cuDeviceGetAttribute, attr.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, handle)
        sms = call(driver.cuDeviceGetAttribute, attr.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, handle)
        shared = call(driver.cuDeviceGetAttribute, attr.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, handle)
        name = call(driver.cuDeviceGetName, 256, handle).split(b"\0")[0].decode()
        pool = call(driver.cuDeviceGetDefaultMemPool, handle)
        call(
            driver.cuMemPoolSetAttribute,
            pool,
            driver.CUmemPool_attribute.CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
            driver.cuuint64_t(2**64 - 1),
        )
        return cls(ordinal, handle, context, name, f"sm_{major}{minor}", sms, pool, shared)

    def make_current(self) -> None:
        """Make this device's context current on the calling thread (worker threads need it)."""
        driver = load()
        call(driver.cuCtxSetCurrent, self.context)

    def current_here(self) -> None:
        """``make_current`` once per thread: for threads the runtime does not start that launch
        through it (torch's autograd workers run backward ops in threads of their own, where no
        context is current until torch itself has run there).  A thread that made another
        context current since is not seen: its launches fail (``CUDA_ERROR_INVALID_CONTEXT``)."""
        if getattr(_here, "context", None) is not self.context:
            self.make_current()
            _here.context = self.context

    def describe(self) -> str:
        return f"{self.name} ({self.arch}, {self.multiprocessors} SMs)"
