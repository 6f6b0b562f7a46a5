"""The unsafe report: where a kernel leaves its safety to its author.

Everything the compiler does not check is visible in a variant's entry, and
the report lists it, one ``file:line:col: what`` line each, in source order:

* each raw pointer parameter (``st.Ptr[E]``): a launch passes it only as an
  explicit ``st.unsafe_pointer(tensor)``, and nothing checks what the
  kernel reads or writes through it;
* ``unchecked_accesses`` on the entry: no partition index is checked;
* each operation marked ``tile_safety.unsafe`` (written in
  ``with st.unsafe():``), by its Tile IR name.

``KernelDefinition.unsafe_report(**specialization)`` gives it for a kernel.
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Attribute

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.ops.structure import EntryOp


def unsafe_report(entry: EntryOp, pointers: Mapping[str, str]) -> list[str]:
    """The report of ``entry``; ``pointers`` maps each raw pointer parameter to its declaration."""
    lines: list[tuple[tuple[str, int, int], str]] = []
    for arg in entry.body.block.args:
        if arg.name_hint in pointers:
            what = (f"raw pointer parameter '{arg.name_hint}' ({pointers[arg.name_hint]}): launches pass "
                    "st.unsafe_pointer(tensor) and nothing checks the accesses through it")
            lines.append((_place(getattr(arg, "location", None)), what))
    if tile_safety.UNCHECKED_ACCESSES in entry.attributes:
        lines.append((_place(entry.location), "unchecked_accesses: no partition index is checked"))
    for op in entry.walk():
        if tile_safety.UNSAFE in op.attributes:
            lines.append((_place(op.location), f"unsafe {op.name}"))
    lines.sort(key=lambda line: line[0])
    return [f"{file}:{line}:{col}: {what}" for (file, line, col), what in lines]


def _place(location: Attribute | None) -> tuple[str, int, int]:
    if isinstance(location, FileLineColLoc):
        return location.filename.data, location.line.data, location.column.data
    return "<unknown>", 0, 0
