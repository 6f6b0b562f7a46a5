"""``cuda_tile.testing$func``: NVIDIA's test-only function (``TestingOps.td``).

NVIDIA's own test suite writes most of its verifier cases inside
``testing$func @f(%a: T) -> R { ... return %r : R }``, an op its
``cuda-tile-opt`` has when built with tests.  tile-opt loads it too (it is not
part of the ``CudaTile`` dialect nor of ``ALL_OPS``: no bytecode, no
interpreter, no frontend makes or takes it), so that those test files read
as they are written.  It is an ``entry`` that may take any argument types and
return values: its ``return`` must hand back the declared result types
(``ReturnOp``'s verifier).
"""

from __future__ import annotations

from xdsl.irdl import irdl_op_definition

from ..dominance import verify_dominance
from .structure import TESTING_FUNC, FunctionOp


@irdl_op_definition
class TestingFuncOp(FunctionOp):
    """``testing$func @f(%a: T, ...) [-> R] { ... }``: a function for tests."""

    name = TESTING_FUNC

    def verify_(self) -> None:
        self.verify_signature()

    def verify_regions(self) -> None:
        verify_dominance(self)
