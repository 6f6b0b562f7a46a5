"""Runtime: tensors, partitions, launches and device operations.

The host side of the model (cuTile Rust's, in Python): ``Tensor``s live in
memory, allocation ops and kernel calls are lazy ``DeviceOp``s run by
``.sync()``, ``.sync_on(stream)``, ``await`` or captured into a ``Graph``;
arguments move into a launch and come back from it; ownership is checked at
run time.  Kernels run on the GPU (``cuda/``, through cuda-python) or on the
CPU interpreter.  See docs/runtime.md.

Modules: ``tensor`` (Tensor, Partition, Shared, UnsafePointer), ``ops`` (DeviceOp,
allocation), ``stream`` (Stream, Event), ``graph`` (Graph), ``launch`` (kernel
calls), ``warmup`` (ahead-of-use compilation), ``interop`` (DLPack, CUDA
array interface), ``backend`` (backend selection), ``interface`` (what a
backend provides), ``cpu`` and ``cuda/`` (the backends), ``errors``.  The
modules form no import circle (test_import_cycles.py): where a lower module's
public surface needs a higher one (``Stream(name)`` the backend in use,
``DeviceOp.graph`` the ``Graph``, ``Tensor.__dlpack__`` the export), the
higher module hands its function down when it is imported.
"""

from .backend import current_backend, select_backend
from .errors import DeviceOpError, LaunchRefused, OwnershipError, RuntimeModelError
from .graph import Graph
from .interop import as_tensor, from_dlpack
from .launch import IdenticalTilesWarning, LaunchCache, Prepared, launch
from .ops import DeviceOp, arange, default_stream, from_numpy, full, ones, value, zeros, zip
from .stream import Event, Stream
from .tensor import Partition, Shared, Tensor, UnsafePointer, shared, unsafe_pointer
from .warmup import warm_up

__all__ = [
    "DeviceOp",
    "DeviceOpError",
    "Event",
    "Graph",
    "IdenticalTilesWarning",
    "LaunchCache",
    "LaunchRefused",
    "OwnershipError",
    "Partition",
    "Prepared",
    "RuntimeModelError",
    "Shared",
    "Stream",
    "Tensor",
    "UnsafePointer",
    "arange",
    "as_tensor",
    "current_backend",
    "default_stream",
    "from_dlpack",
    "from_numpy",
    "full",
    "launch",
    "ones",
    "select_backend",
    "shared",
    "unsafe_pointer",
    "value",
    "warm_up",
    "zeros",
    "zip",
]
