"""All ``cuda_tile`` ops, one module per op family."""

from . import (
    arith,
    compare,
    control,
    conversion,
    math,
    memory,
    misc,
    mma,
    reduction,
    shape,
    structure,
)
from ._common import CudaTileOp

FAMILIES = (
    structure,
    arith,
    math,
    compare,
    conversion,
    shape,
    control,
    memory,
    mma,
    reduction,
    misc,
)

ALL_OPS: tuple[type[CudaTileOp], ...] = tuple(
    op
    for family in FAMILIES
    for op in vars(family).values()
    if isinstance(op, type)
    and issubclass(op, CudaTileOp)
    and "name" in vars(op)
    and op.__module__ == family.__name__
)
"""Every concrete op class, from the family module that defines it."""
