"""Runtime: tensors, partitions, launches and device operations.

The host side of the model (cuTile Rust's, in Python): ``Tensor``s live in
memory, allocation ops and kernel calls are lazy ``DeviceOp``s run by
``.sync()``, ``.sync_on(stream)`` or ``await``; arguments move into a launch
and come back from it; ownership is checked at run time.  Kernels run on the
CPU interpreter (the only backend so far).  See docs/runtime.md.

Modules: ``tensor`` (Tensor, Partition, Shared), ``ops`` (DeviceOp, Stream,
allocation), ``launch`` (kernel calls), ``backend`` (backend selection),
``errors``.
"""

from safetile.frontend import dsl as _dsl

from .backend import select_backend
from .errors import DeviceOpError, LaunchRefused, OwnershipError, RuntimeModelError
from .launch import launch
from .ops import DeviceOp, Stream, arange, default_stream, from_numpy, full, ones, value, zeros, zip
from .tensor import Partition, Shared, Tensor, shared

for _name, _fn in (("zeros", zeros), ("ones", ones), ("full", full)):
    _dsl.HOST_FUNCTIONS[_name] = _fn

__all__ = [
    "DeviceOp",
    "DeviceOpError",
    "LaunchRefused",
    "OwnershipError",
    "Partition",
    "RuntimeModelError",
    "Shared",
    "Stream",
    "Tensor",
    "arange",
    "default_stream",
    "from_numpy",
    "full",
    "launch",
    "ones",
    "select_backend",
    "shared",
    "value",
    "zeros",
    "zip",
]
