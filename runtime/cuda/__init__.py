"""The CUDA backend of the runtime, through cuda-python's driver bindings.

Safety contract.  The runtime model's guarantees hold on the GPU through
stream order: every tensor remembers the stream of the last work that used
it; a launch on another stream first waits for that work, and a host copy
(``Tensor.numpy()``) is enqueued on it and waited for.  So host reads never
see memory the GPU is still writing, and launches never overlap work on the
same tensors, whatever streams the user picks.  Early starts keep it: a
kernel starting while the kernel before it drains waits for it before any
memory access, except the reads named by ``CompiledVariant.early_reads``, and
a kernel with those starts early only right after one of our launches that
writes none of their memory (the rule and why: ``stream``).  Memory comes
from the device's stream-ordered pool; nothing uses managed memory.

Modules: ``driver`` (checked calls, ``CudaError``, ``NoGpu``), ``device``
(context, architecture, pool), ``stream`` (streams, events, CUDA graphs),
``memory`` (``DeviceArray``), ``kernels`` (loaded cubins, parameter packing),
``backend`` (``CudaBackend``: JIT through the cubin cache).
"""
