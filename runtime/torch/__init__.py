"""The torch edge: safetile kernels as ``torch.library`` custom ops.

``kernel_op`` registers a kernel, with its recipe (how the op's torch tensors
become the kernel's partitioned outputs and inputs), as a custom op that runs
eagerly, under ``torch.compile(fullgraph=True)`` (its fake implementation is
derived from the recipe's output spec) and with autograd once a backward is
registered (``op.register_autograd``).  See docs/torch.md.

Importing this package imports torch (a test dependency of safetile, not a
requirement of the compiler): elsewhere the runtime imports it only when handed CUDA torch
tensors (``interop.torch_stream``, ``keep_for_stream``: torch's current stream, ``record_stream``).
"""

from .custom_op import KernelLaunch, OutputSpec, TraceError, accumulator, forget_signatures, kernel_op, safetile_dtype

__all__ = ["KernelLaunch", "OutputSpec", "TraceError", "accumulator", "forget_signatures", "kernel_op",
           "safetile_dtype"]
