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
"""The op families, in the order the dialect lists their ops."""

MODULES = tuple(
    sub for family in FAMILIES for sub in (memory.SUB_FAMILIES if family is memory else (family,))
)
"""The modules that define ops: each family's, ``memory``'s sub-family modules in its place."""

ALL_OPS: tuple[type[CudaTileOp], ...] = tuple(
    op
    for module in MODULES
    for op in vars(module).values()
    if isinstance(op, type)
    and issubclass(op, CudaTileOp)
    and "name" in vars(op)
    and op.__module__ == module.__name__
)
"""Every concrete op class, from the module that defines it."""
