"""All ``cuda_tile`` ops, one module per op family."""

from . import arith, structure
from ._common import CudaTileOp

ALL_OPS: tuple[type[CudaTileOp], ...] = tuple(
    op
    for module in (structure, arith)
    for op in vars(module).values()
    if isinstance(op, type) and issubclass(op, CudaTileOp) and "name" in vars(op)
)
