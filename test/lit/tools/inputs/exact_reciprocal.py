# The pass of docs/tile-opt.md's tutorial ("Writing a pass"), as the docs show it.
from dataclasses import dataclass

from xdsl.passes import ModulePass

from safetile.dialects.cuda_tile.ops.arith import AddFOp


@dataclass(frozen=True)
class CountAdds(ModulePass):
    """Print how many addf ops the module holds."""

    name = "count-adds"

    def apply(self, ctx, op):
        print(sum(isinstance(o, AddFOp) for o in op.walk()))
