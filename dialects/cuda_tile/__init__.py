"""The ``cuda_tile`` dialect: every op, type and attribute of NVIDIA Tile IR 13.4."""

from xdsl.ir import Dialect

from .attributes import CUDA_TILE_ATTRS
from .debuginfo import DEBUG_INFO_ATTRS
from .ops import ALL_OPS
from .ops._folding import ConstantMaterialization
from .types import CUDA_TILE_TYPES

CudaTile = Dialect(
    "cuda_tile", list(ALL_OPS), [*CUDA_TILE_TYPES, *CUDA_TILE_ATTRS, *DEBUG_INFO_ATTRS], [ConstantMaterialization()]
)
"""The dialect object to load into an xDSL ``Context``."""
