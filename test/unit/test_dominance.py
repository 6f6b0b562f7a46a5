"""Dominance verification: ``verify()`` refuses a use before its definition.

IR built or rewritten in Python (by a pass) never goes through the parser, so
the op verifiers must catch an operand that does not dominate its use:
``module.verify()`` (xDSL's, through ``cuda_tile.entry``'s verifier), the
Tile IR ``verify`` with its diagnostic, and ``verify_dominance`` on its own.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from safetile.dialects.cuda_tile.diagnostics import TileIRError, verify
from safetile.dialects.cuda_tile.dominance import DominanceError, verify_dominance
from safetile.dialects.cuda_tile.syntax import parse_tile_ir
from support import make_context

KERNEL = """
cuda_tile.module @m {
  entry @k(%a: tile<f32>, %c: tile<i1>, %lb: tile<i32>) {
    %x = negf %a : tile<f32>
    %y = addf %x, %a : tile<f32>
    if %c {
      %z = absf %y : tile<f32>
    }
    for %i in (%lb to %lb, step %lb) : tile<i32> {
      %w = addi %i, %lb : tile<i32>
    }
    return
  }
}
"""


def _kernel() -> tuple[ModuleOp, dict[str, Operation]]:
    module = parse_tile_ir(make_context(), KERNEL)
    ops = {op.results[0].name_hint: op for op in module.walk() if op.results}
    return module, {name: op for name, op in ops.items() if name}


def test_valid_kernel_passes() -> None:
    module, _ = _kernel()
    verify_dominance(module)
    module.verify()


def test_moved_definition_is_refused_by_module_verify() -> None:
    module, ops = _kernel()
    ops["x"].detach()
    ops["y"].parent_block().insert_op_after(ops["x"], ops["y"])  # %x now after its use
    with pytest.raises(VerifyException, match="operand #0 does not dominate this use"):
        module.verify()


def test_diagnostic_names_the_use_and_notes_the_definition() -> None:
    module, ops = _kernel()
    ops["x"].detach()
    ops["z"].parent_block().insert_op_before(ops["x"], ops["z"])  # %x inside the if
    with pytest.raises(TileIRError) as info:
        verify(module, {}, "k.mlir")
    diagnostic = info.value.diagnostic
    assert diagnostic.message == "'cuda_tile.addf' op operand #0 does not dominate this use"
    assert [n.message for n in diagnostic.notes] == [
        "operand defined here (op in a child region)"
    ]


def test_block_argument_used_outside_its_block() -> None:
    module, ops = _kernel()
    for_op = ops["w"].parent_op()
    assert for_op is not None
    ops["w"].detach()
    for_op.parent_block().insert_op_after(ops["w"], for_op)  # uses %i after the loop
    with pytest.raises(DominanceError) as info:
        verify_dominance(module)
    assert info.value.user is ops["w"] and info.value.index == 0
    assert info.value.definer is for_op
    assert info.value.note == "operand defined as a block argument (block #0 in a child region)"
