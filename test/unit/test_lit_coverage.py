"""The round-trip lit files exercise every op and every enum case.

Issue #2 asks for a round trip of every op, each attribute variant used at
least once.  This test reads the valid lit programs (not the ``-invalid``
ones), parses them, and checks that nothing of the dialect is left out, so a
newly added op or enum case cannot land without a round-trip test.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin
from xdsl.ir import Attribute, Operation
from xdsl.utils.str_enum import StrEnum

from safetile.dialects.cuda_tile import CudaTile
from safetile.dialects.cuda_tile.attributes import ENUM_ATTRS
from safetile.dialects.cuda_tile.ops import ALL_OPS
from safetile.dialects.cuda_tile.syntax import parse_tile_ir
from safetile.dialects.cuda_tile.types import pointer_kind

LIT = Path(__file__).resolve().parents[1] / "lit"


def _programs() -> Iterator[Operation]:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(CudaTile)
    for path in sorted((LIT / "dialect").glob("*.mlir")):
        if path.stem.endswith("-invalid"):
            continue
        for chunk in path.read_text().split("// -----"):
            yield parse_tile_ir(ctx, chunk, str(path))


def _attributes(op: Operation) -> Iterator[Attribute]:
    yield from op.properties.values()
    yield from op.attributes.values()


def test_every_op_and_enum_case_round_trips() -> None:
    ops: set[str] = set()
    cases: set[StrEnum] = set()
    for module in _programs():
        for op in module.walk():
            ops.add(op.name)
            cases |= {a.data for a in _attributes(op) if isinstance(a, ENUM_ATTRS)}
            args = [a.type for r in op.regions for b in r.blocks for a in b.args]
            for t in (*op.result_types, *op.operand_types, *args):
                padding = getattr(t, "padding", None)
                if padding is not None:
                    cases.add(padding.data)
                if (kind := pointer_kind(t)) is not None:  # a ptr_attr
                    cases.add(kind)
    missing_ops = sorted({op.name for op in ALL_OPS} - ops)
    assert not missing_ops, f"ops with no round-trip lit test: {missing_ops}"
    every_case = {case for attr in ENUM_ATTRS for case in attr.enum_type}
    missing = sorted(f"{type(c).__name__}.{c.name}" for c in every_case - cases)
    assert not missing, f"enum cases no round-trip lit test uses: {missing}"
