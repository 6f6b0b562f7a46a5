"""``test-debuginfo-update-symbol-name``: rename a symbol and its debug information.

NVIDIA's test-only pass of the same name (``cuda-tile-opt`` built with tests
has it), which exercises ``updateSymbolName``: what a tool that renames a
kernel (a mangled name, a specialization's suffix) must do so that the
kernel's debug information keeps naming it.  Options:

* ``symbol-to-rename``: the symbol, as a nested specifier from the top-level
  module, ``kernels::test_func`` (a ``cuda_tile.module``, then its kernel);
* ``new-name``: its new name (the last part only);
* ``scope``: where debug information is updated, a nested specifier too
  (default: the whole input); it must enclose the symbol;
* ``update-uses``: also rename the symbol's uses in its symbol table (the
  ``cuda_tile.module``), e.g. a ``get_global`` of a renamed global.

Then the symbol is renamed and, if its location is a ``di_loc`` in a
``di_subprogram``, that subprogram is replaced everywhere in the scope (op and
argument locations, lexical blocks inside it, attributes) by one whose
``linkageName`` is the new name, so that the kernel still matches its scope
(the verifier's rule: a kernel's subprogram's ``linkageName`` is its name).

Errors, in NVIDIA's words: a symbol or scope that is not found (``could not
find symbol op with name '@kernels::@foo'``); a scope that does not enclose
the symbol (``attempted to update symbol names in a scope that did not enclose
the symbol itself``, with the note ``scope defined here``).  Renaming onto a
name the symbol table already has is refused (NVIDIA's tool leaves two ops of
one name).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FileLineColLoc,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.passes import ModulePass
from xdsl.traits import SymbolTable

from safetile.dialects.cuda_tile.debuginfo import DISubprogramAttr, di_location, source_location
from safetile.dialects.cuda_tile.diagnostics import Diagnostic, TileIRError


@dataclass(frozen=True)
class TestDebuginfoUpdateSymbolName(ModulePass):
    """Test the debuginfo utilities to update symbol names (NVIDIA's test pass)."""

    name = "test-debuginfo-update-symbol-name"

    symbol_to_rename: str = ""
    scope: str = ""
    new_name: str = ""
    update_uses: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        scope: Operation = op
        if self.scope:
            scope = _lookup(op, self.scope)
        symbol = _lookup(op, self.symbol_to_rename)
        if symbol.parent_op() is not None and not scope.is_ancestor(symbol):
            note = _at(scope, "scope defined here", "note")
            raise TileIRError(
                _at(symbol, "attempted to update symbol names in a scope that did not enclose "
                    "the symbol itself", notes=(note,))
            )
        new_name = StringAttr(self.new_name)
        table = symbol.parent_op()
        old_name = _symbol_name(symbol)
        if self.update_uses and table is not None:
            if _find(table, self.new_name) not in (None, symbol):
                raise TileIRError(
                    _at(symbol, f"cannot rename @{old_name.data} to @{self.new_name}: "
                        f"that name is already a symbol of '{table.name}'")
                )
            renamed = SymbolRefAttr(new_name)
            _replace_in(table, lambda a: renamed if a == SymbolRefAttr(old_name) else None)
        symbol.properties["sym_name"] = new_name
        found = di_location(symbol.location)
        old = found.scope if found is not None else None
        if not isinstance(old, DISubprogramAttr):
            return
        new = DISubprogramAttr(
            old.file, old.line, old.sub_name, new_name, old.compile_unit, old.scope_line, old.flags
        )
        _replace_in(scope, lambda a: new if a == old else None)


def _specifier(text: str) -> list[str]:
    """``outer::middle::inner`` as its names."""
    return text.split("::")


def _lookup(module: ModuleOp, specifier: str) -> Operation:
    """The op ``specifier`` names from ``module``, each name in the symbol table of the one before."""
    current: Operation = module
    for name in _specifier(specifier):
        found = _find(current, name)
        if found is None:
            reference = "::".join(f"@{n}" for n in _specifier(specifier))
            raise TileIRError(_at(module, f"could not find symbol op with name '{reference}'"))
        current = found
    return current


def _find(table: Operation, name: str) -> Operation | None:
    """The op named ``name`` directly in ``table`` (a symbol table)."""
    if not table.regions or not table.regions[0].blocks:
        return None
    if table.has_trait(SymbolTable) or isinstance(table, ModuleOp):
        for op in table.regions[0].block.ops:
            if _symbol_name(op) == StringAttr(name):
                return op
    return None


def _symbol_name(op: Operation) -> StringAttr | None:
    name = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return name if isinstance(name, StringAttr) else None


def _at(
    op: Operation, message: str, severity: str = "error", notes: tuple[Diagnostic, ...] = ()
) -> Diagnostic:
    """A diagnostic at ``op``'s location (line 0, MLIR's unknown place, if it has none)."""
    place = source_location(op.location)
    if isinstance(place, FileLineColLoc):
        return Diagnostic(
            place.filename.data, place.line.data, place.column.data, message,
            severity=severity, notes=notes,
        )
    return Diagnostic("<unknown>", 0, 0, message, severity=severity, notes=notes)


def _replace_in(root: Operation, replace: Callable[[Attribute], Attribute | None]) -> None:
    """MLIR's ``AttrTypeReplacer`` on ``root`` and every op in it: locations (of
    ops and block arguments), attributes and properties, nested attributes included."""
    for op in root.walk():
        op.location = _replaced(op.location, replace)  # pyright: ignore[reportAttributeAccessIssue]
        for fields in (op.attributes, op.properties):
            for key, value in fields.items():
                fields[key] = _replaced(value, replace)
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    arg.location = _replaced(arg.location, replace)  # pyright: ignore


def _replaced(attr: Attribute, replace: Callable[[Attribute], Attribute | None]) -> Attribute:
    """``attr`` with each attribute in it that ``replace`` maps (itself included) replaced."""
    new = replace(attr)
    if new is not None:
        return new
    if isinstance(attr, ArrayAttr):
        items = [_replaced(a, replace) for a in attr.data]
        return attr if all(a is b for a, b in zip(items, attr.data)) else ArrayAttr(items)
    if isinstance(attr, DictionaryAttr):
        entries = {k: _replaced(v, replace) for k, v in attr.data.items()}
        same = all(entries[k] is v for k, v in attr.data.items())
        return attr if same else DictionaryAttr(entries)
    if isinstance(attr, ParametrizedAttribute):
        params = [_replaced(p, replace) for p in attr.parameters]
        if all(a is b for a, b in zip(params, attr.parameters)):
            return attr
        return type(attr).new(params)
    return attr
