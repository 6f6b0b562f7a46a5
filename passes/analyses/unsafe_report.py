"""The unsafe report: where a compiled variant leaves its safety to someone other than the compiler.

It is read off the IR that runs (``CompiledVariant.module``) with the facts of
the frontend's record (``passes/analyses/safety_record.py``), so that no pass
can hide an unsafe operation from it.  One ``file:line:col: what`` line each,
in source order:

* each raw pointer parameter (``st.Ptr[E]``): a launch passes it only as an
  explicit ``st.unsafe_pointer(tensor)``, and nothing checks what the kernel
  reads or writes through it;
* ``unchecked_accesses`` on the kernel: no partition index is checked;
* each operation from a ``with st.unsafe():`` block still in the IR that runs,
  by its Tile IR name;
* each property a pass the user trusts by name (``st.trusted``) left unproved,
  with the pass's name and the re-proof's message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.ops.structure import EntryOp
from safetile.passes.analyses.reproof import Violation
from safetile.passes.analyses.safety_record import EntryRecord


def unsafe_report(
    entry: EntryOp,
    facts: EntryRecord,
    pointers: Mapping[str, str],
    trusted: Sequence[tuple[str, Violation]] = (),
) -> tuple[str, ...]:
    """The report of the final ``entry``; ``pointers`` maps each raw pointer parameter to its
    declaration, ``trusted`` pairs a trusted pass (``'name' (at point)``) with each violation it left."""
    lines: list[tuple[tuple[str, int, int], str]] = []
    for arg in entry.body.block.args:
        if arg.name_hint in pointers:
            what = (f"raw pointer parameter '{arg.name_hint}' ({pointers[arg.name_hint]}): launches pass "
                    "st.unsafe_pointer(tensor) and nothing checks the accesses through it")
            lines.append((_place(getattr(arg, "location", None)), what))
    if facts.unchecked_accesses:
        lines.append((_place(entry.location), "unchecked_accesses: no partition index is checked"))
    for op in entry.walk():
        if facts.is_unsafe(op):
            lines.append((_place(op.location), f"unsafe {op.name}"))
    for name, violation in trusted:
        if violation.entry not in (None, entry.sym_name.data):
            continue
        where = violation.location if violation.location is not None else entry.location
        lines.append((_place(where), f"trusted pass {name}: not proved: {violation.property}: {violation.message}"))
    lines.sort(key=lambda line: line[0])
    return tuple(dict.fromkeys(f"{file}:{line}:{col}: {what}" for (file, line, col), what in lines))


def _place(location: Attribute | None) -> tuple[str, int, int]:
    if isinstance(location, FileLineColLoc):
        return location.filename.data, location.line.data, location.column.data
    return "<unknown>", 0, 0
