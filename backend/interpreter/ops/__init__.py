"""Executors of every ``cuda_tile`` op, one module per op family.

``DISPATCH`` maps each op class to the builder that compiles one op of that
class into its executor (see ``engine``).  ``module``, ``entry`` and
``global`` are structure, not executed: ``engine.Kernel`` runs an ``entry``'s
body and ``get_global`` allocates its ``global``.
"""

from xdsl.ir import Operation

from ..engine import Builder
from . import aggregate, compare, control, convert, floating, integer, memory, misc, mma, shape

DISPATCH: dict[type[Operation], Builder] = {
    **integer.HANDLERS,
    **floating.HANDLERS,
    **compare.HANDLERS,
    **convert.HANDLERS,
    **shape.HANDLERS,
    **control.HANDLERS,
    **aggregate.HANDLERS,
    **memory.HANDLERS,
    **mma.HANDLERS,
    **misc.HANDLERS,
}
