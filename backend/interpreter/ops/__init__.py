"""Executors of every ``cuda_tile`` op, one module per dialect op module.

Each module executes the ops of the ``dialects/cuda_tile/ops`` module of its
name (``arith``, ``compare``, ``control``, ``conversion``, ``math``,
``memory``, ``misc``, ``mma``, ``reduction``, ``shape``, ``structure``);
``common`` and ``access`` hold helpers they share.  ``DISPATCH`` maps each op
class to the builder that compiles one op of that class into its executor
(see ``engine``).
"""

from xdsl.ir import Operation

from ..engine import Builder
from . import arith, compare, control, conversion, math, memory, misc, mma, reduction, shape, structure

DISPATCH: dict[type[Operation], Builder] = {
    **arith.HANDLERS,
    **math.HANDLERS,
    **compare.HANDLERS,
    **conversion.HANDLERS,
    **shape.HANDLERS,
    **control.HANDLERS,
    **reduction.HANDLERS,
    **memory.HANDLERS,
    **mma.HANDLERS,
    **misc.HANDLERS,
    **structure.HANDLERS,
}
