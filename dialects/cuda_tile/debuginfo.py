"""Debug information: the ``#cuda_tile.di_*`` attributes (``AttrDefs.td``, 13.1).

A kernel's ops are located by ``#cuda_tile.di_loc<loc("k.py":3:5) in #sp>``:
a source place inside a *scope*, the kernel's ``di_subprogram`` (or a
``di_lexical_block`` in it).  The subprogram names the kernel (its
``linkageName`` is the entry's symbol) and a ``di_file`` and ``di_compile_unit``.
This is what the bytecode's debug section holds and what ``tileiras
--lineinfo`` turns into line tables, so ``cuda-gdb`` and the profilers show
the kernel's Python lines.  Syntax, as ``tileirdisasm -g`` prints it::

    #di_file = #cuda_tile.di_file<"k.py" in "/src">
    #di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
    #di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 8, name = "k",
                         linkageName = "k", compileUnit = #di_compile_unit, scopeLine = 8>
    %0 = addf %a, %b : tile<f32> loc(#cuda_tile.di_loc<loc("k.py":9:5) in #di_subprogram>)

The frontend locates ops with plain ``loc("k.py":9:5)``; ``scoped_locations``
gives each kernel the subprogram NVIDIA's ``synthesize-debug-info-scopes``
would, which is how the bytecode writer turns them into debug information.
The ``verify_*`` functions are NVIDIA's ``DebugInfoVerifier`` rules.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePosixPath

from xdsl.dialects.builtin import (
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    NameLoc,
    StringAttr,
)
from xdsl.ir import Attribute, Operation, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from .diagnostics import NestedOpError

# --------------------------------------------------------------------------
# ``struct(params)``: ``<key = value, ...>`` in any order
# --------------------------------------------------------------------------


def _parse_struct(
    parser: AttrParser, name: str, fields: dict[str, Callable[[], Attribute]], optional: set[str]
) -> dict[str, Attribute]:
    """MLIR's ``struct(params)`` directive: each field once, in any order."""
    values: dict[str, Attribute] = {}

    def entry() -> None:
        at = parser.pos
        key = parser.parse_identifier()
        if key not in fields:
            parser.raise_error(f"struct has unknown parameter '{key}' (#cuda_tile.{name})", at)
        if key in values:
            parser.raise_error(f"struct is already parsed parameter '{key}'", at)
        parser.parse_punctuation("=")
        values[key] = fields[key]()

    start = parser.pos
    with parser.in_angle_brackets():
        parser.parse_comma_separated_list(parser.Delimiter.NONE, entry)
    missing = [k for k in fields if k not in values and k not in optional]
    if missing:
        parser.raise_error(f"struct is missing required parameter: {missing[0]}", start, parser.pos)
    return values


def _unsigned(parser: AttrParser) -> Callable[[], Attribute]:
    return lambda: IntAttr(parser.parse_integer(allow_boolean=False, allow_negative=False))


def _string(parser: AttrParser) -> Callable[[], Attribute]:
    return lambda: StringAttr(parser.parse_str_literal())


def _attr(parser: AttrParser) -> Callable[[], Attribute]:
    return parser.parse_attribute


SUBPROGRAM_DECLARATION = 1
"""The ``di_subprogram`` flag bit 13.5's tools print as ``declaration``."""


def _subprogram_flags(parser: AttrParser) -> IntAttr:
    """``declaration``, the one flag (a subprogram without flags prints none)."""
    pos = parser.pos
    if parser.parse_optional_keyword("declaration") is None:
        parser.raise_error("expected 'declaration'", pos)
    return IntAttr(SUBPROGRAM_DECLARATION)


def _as_string(value: str | StringAttr) -> StringAttr:
    return StringAttr(value) if isinstance(value, str) else value


def _as_int(value: int | IntAttr) -> IntAttr:
    return IntAttr(value) if isinstance(value, int) else value


def _require(value: Attribute, kinds: tuple[type, ...], what: str, owner: str) -> None:
    if not isinstance(value, kinds):
        raise VerifyException(f"'{owner}' expects {what}, but got {value}")


# --------------------------------------------------------------------------
# Attributes
# --------------------------------------------------------------------------


@irdl_attr_definition
class DIFileAttr(ParametrizedAttribute):
    """``#cuda_tile.di_file<"k.py" in "/src">``: a source file and its directory."""

    name = "cuda_tile.di_file"
    file_name: StringAttr = param_def(converter=_as_string)
    directory: StringAttr = param_def(converter=_as_string)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            name = parser.parse_str_literal()
            parser.parse_keyword("in")
            directory = parser.parse_str_literal()
        return [StringAttr(name), StringAttr(directory)]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.file_name.data)
        printer.print_string(" in ")
        printer.print_string_literal(self.directory.data)
        printer.print_string(">")


@irdl_attr_definition
class DICompileUnitAttr(ParametrizedAttribute):
    """``#cuda_tile.di_compile_unit<file = #di_file>``: the root scope of a program."""

    name = "cuda_tile.di_compile_unit"
    file: Attribute = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        values = _parse_struct(parser, "di_compile_unit", {"file": _attr(parser)}, set())
        return [values["file"]]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<file = ")
        printer.print_attribute(self.file)
        printer.print_string(">")

    def verify(self) -> None:
        _require(self.file, (DIFileAttr,), "a #cuda_tile.di_file file", self.name)


@irdl_attr_definition
class DISubprogramAttr(ParametrizedAttribute):
    """``#cuda_tile.di_subprogram<file = ..., line = N, name = "k", linkageName = "k",
    compileUnit = ..., scopeLine = N[, flags = declaration]>``: a kernel (``scopeLine``
    optional, 0 if absent).

    ``flags`` is 13.5's: bit 0, the only one its tools accept, prints as
    ``declaration``; absent (0) it is not printed.
    """

    name = "cuda_tile.di_subprogram"
    file: Attribute = param_def()
    line: IntAttr = param_def(converter=_as_int)
    sub_name: StringAttr = param_def(converter=_as_string)
    linkage_name: StringAttr = param_def(converter=_as_string)
    compile_unit: Attribute = param_def()
    scope_line: IntAttr = param_def(converter=_as_int)
    flags: IntAttr = param_def(converter=_as_int)

    def __init__(
        self,
        file: Attribute,
        line: int | IntAttr,
        sub_name: str | StringAttr,
        linkage_name: str | StringAttr,
        compile_unit: Attribute,
        scope_line: int | IntAttr,
        flags: int | IntAttr = 0,
    ):
        super().__init__(file, line, sub_name, linkage_name, compile_unit, scope_line, flags)

    @property
    def declaration(self) -> bool:
        return bool(self.flags.data & SUBPROGRAM_DECLARATION)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        fields = {
            "file": _attr(parser),
            "line": _unsigned(parser),
            "name": _string(parser),
            "linkageName": _string(parser),
            "compileUnit": _attr(parser),
            "scopeLine": _unsigned(parser),
            "flags": lambda: _subprogram_flags(parser),
        }
        v = _parse_struct(parser, "di_subprogram", fields, {"scopeLine", "flags"})
        scope_line = v.get("scopeLine", IntAttr(0))
        flags = v.get("flags", IntAttr(0))
        return [v["file"], v["line"], v["name"], v["linkageName"], v["compileUnit"], scope_line, flags]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<file = ")
        printer.print_attribute(self.file)
        printer.print_string(f", line = {self.line.data}, name = ")
        printer.print_string_literal(self.sub_name.data)
        printer.print_string(", linkageName = ")
        printer.print_string_literal(self.linkage_name.data)
        printer.print_string(", compileUnit = ")
        printer.print_attribute(self.compile_unit)
        if self.scope_line.data:
            printer.print_string(f", scopeLine = {self.scope_line.data}")
        if self.declaration:
            printer.print_string(", flags = declaration")
        printer.print_string(">")

    def verify(self) -> None:
        if self.flags.data & ~SUBPROGRAM_DECLARATION:
            raise VerifyException(
                f"'{self.name}' flags must be 0 or {SUBPROGRAM_DECLARATION} (declaration), "
                f"got {self.flags.data}"
            )
        _require(self.file, (DIFileAttr,), "a #cuda_tile.di_file file", self.name)
        _require(
            self.compile_unit,
            (DICompileUnitAttr,),
            "a #cuda_tile.di_compile_unit compileUnit",
            self.name,
        )


@irdl_attr_definition
class DILexicalBlockAttr(ParametrizedAttribute):
    """``#cuda_tile.di_lexical_block<scope = ..., file = ..., line = N, column = N>``:
    a block nested in a subprogram (``column`` optional, 0 if absent)."""

    name = "cuda_tile.di_lexical_block"
    scope: Attribute = param_def()
    file: Attribute = param_def()
    line: IntAttr = param_def(converter=_as_int)
    column: IntAttr = param_def(converter=_as_int)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        fields = {
            "scope": _attr(parser),
            "file": _attr(parser),
            "line": _unsigned(parser),
            "column": _unsigned(parser),
        }
        v = _parse_struct(parser, "di_lexical_block", fields, {"column"})
        return [v["scope"], v["file"], v["line"], v.get("column", IntAttr(0))]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<scope = ")
        printer.print_attribute(self.scope)
        printer.print_string(", file = ")
        printer.print_attribute(self.file)
        printer.print_string(f", line = {self.line.data}")
        if self.column.data:
            printer.print_string(f", column = {self.column.data}")
        printer.print_string(">")

    def verify(self) -> None:
        _require(self.scope, LOCAL_SCOPES, "a local scope (di_subprogram or di_lexical_block)", self.name)
        _require(self.file, (DIFileAttr,), "a #cuda_tile.di_file file", self.name)


LOCAL_SCOPES: tuple[type[ParametrizedAttribute], ...] = (DISubprogramAttr, DILexicalBlockAttr)
"""``DILocalScopeAttr``: the scopes an op's location may be in."""


@irdl_attr_definition
class DILocAttr(ParametrizedAttribute):
    """``loc(#cuda_tile.di_loc<loc("k.py":3:5) in #scope>)``: an op's source place in a scope.

    A location attribute: ops and entries carry it as their ``location``.
    """

    name = "cuda_tile.di_loc"
    source_loc: FileLineColLoc = param_def()
    scope: Attribute = param_def()

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            at = parser.pos
            source = parser.parse_optional_location()
            if source is None:
                source = parser.parse_attribute()  # an alias: #loc1
            if not isinstance(source, FileLineColLoc):
                parser.raise_error(
                    f"expected a file location (\"file\":line:col) in #cuda_tile.di_loc, got {source}",
                    at,
                    parser.pos,
                )
            parser.parse_keyword("in")
            scope = parser.parse_attribute()
        return [source, scope]

    def print_parameters(self, printer: Printer) -> None:
        loc = self.source_loc
        printer.print_string("<loc(")
        printer.print_string_literal(loc.filename.data)
        printer.print_string(f":{loc.line.data}:{loc.column.data}) in ")
        printer.print_attribute(self.scope)
        printer.print_string(">")

    def verify(self) -> None:
        _require(self.scope, LOCAL_SCOPES, "a local scope (di_subprogram or di_lexical_block)", self.name)


DEBUG_INFO_ATTRS = (DIFileAttr, DICompileUnitAttr, DISubprogramAttr, DILexicalBlockAttr, DILocAttr)

DI_NODES: tuple[type[ParametrizedAttribute], ...] = (
    DIFileAttr,
    DICompileUnitAttr,
    DISubprogramAttr,
    DILexicalBlockAttr,
)
"""The scope attributes, printed once as ``#di_file = ...`` aliases (``DINodeAttr``)."""


# --------------------------------------------------------------------------
# Queries
# --------------------------------------------------------------------------


def source_location(loc: Attribute) -> FileLineColLoc | None:
    """The ``file:line:col`` a location names, if any (``extractFileLoc``)."""
    if isinstance(loc, FileLineColLoc):
        return loc
    if isinstance(loc, DILocAttr):
        return loc.source_loc
    if isinstance(loc, NameLoc):
        return source_location(loc.location)
    if isinstance(loc, CallSiteLoc):
        return source_location(loc.caller)
    if isinstance(loc, FusedLoc):
        for sub in loc.locations:  # pyright: ignore[reportGeneralTypeIssues]
            if (found := source_location(sub)) is not None:
                return found
    return None


def di_location(loc: Attribute) -> DILocAttr | None:
    """The ``di_loc`` a location holds (``getDILoc``): through call sites' callers,
    name and fused locations."""
    if isinstance(loc, DILocAttr):
        return loc
    if isinstance(loc, CallSiteLoc):
        return di_location(loc.caller)
    if isinstance(loc, NameLoc):
        return di_location(loc.location)
    if isinstance(loc, FusedLoc):
        for sub in loc.locations:  # pyright: ignore[reportGeneralTypeIssues]
            if (found := di_location(sub)) is not None:
                return found
    return None


def subprogram_of(scope: Attribute) -> DISubprogramAttr | None:
    """The subprogram a local scope lies in."""
    while isinstance(scope, DILexicalBlockAttr):
        scope = scope.scope
    return scope if isinstance(scope, DISubprogramAttr) else None


# --------------------------------------------------------------------------
# NVIDIA's debug-info rules (``DebugInfoVerifier`` in CudaTile.cpp)
# --------------------------------------------------------------------------


def verify_entry_debug_info(entry: Operation, name: str) -> None:
    """A kernel's own location (rules 1, 2 and 6)."""
    if isinstance(entry.location, CallSiteLoc):
        raise VerifyException(
            f"invalid function debug info location: {entry.location}. Function location "
            "must not be a CallSiteLoc."
        )
    found = di_location(entry.location)
    if found is None:
        return
    kernel = found.scope
    if not isinstance(kernel, DISubprogramAttr):
        raise VerifyException(
            f"invalid function debug info scope: {kernel}. Function location must have "
            "cuda_tile.di_subprogram debug info scope."
        )
    if kernel.linkage_name.data != name:
        raise VerifyException(
            f'invalid function debug info scope: {kernel}. Function name "{name}" does not '
            f'match subprogram scope linkage name "{kernel.linkage_name.data}".'
        )


def verify_body_debug_info(entry: Operation) -> None:
    """Every op of a kernel is in the kernel's scope (rules 3 and 4), checked
    once the ops verify, in post-order as NVIDIA's ``verifyFuncBody`` walks;
    the error is at the op (``NestedOpError``)."""
    kernel_loc = di_location(entry.location)
    kernel_scope = subprogram_of(kernel_loc.scope) if kernel_loc is not None else None
    for op in entry.walk(region_first=True):
        found = di_location(op.location)
        scope = subprogram_of(found.scope) if found is not None else None
        if scope is None:
            continue
        if kernel_scope is None:  # NVIDIA's emitOpError: with the op's name
            raise NestedOpError(
                op,
                f"'{op.name}' op invalid operation debug info scope: {scope}. Operation has "
                "debug info scope, but function debug info scope is undefined.",
            )
        if scope != kernel_scope:  # NVIDIA's emitError: without it
            raise NestedOpError(
                op,
                f"invalid operation debug info scope: {scope}. Operation debug info scope "
                f"does not match function debug info scope: {kernel_scope}.",
            )


def verify_global_debug_info(op: Operation) -> None:
    """Rule 5: a global is not in a scope."""
    if (found := di_location(op.location)) is not None:
        raise VerifyException(
            f"invalid operation debug info scope: {found}. Global variables must not have scope."
        )


# --------------------------------------------------------------------------
# Scopes for plain locations
# --------------------------------------------------------------------------


def file_of(loc: FileLineColLoc) -> DIFileAttr:
    """The ``di_file`` of a place: its file name and its folder (empty for none)."""
    path = PurePosixPath(loc.filename.data)
    directory = "" if str(path.parent) == "." else str(path.parent)
    return DIFileAttr(StringAttr(path.name), StringAttr(directory))


def kernel_subprogram(name: str, loc: FileLineColLoc) -> DISubprogramAttr:
    """The subprogram of kernel ``name`` defined at ``loc``; its file is also its compile unit."""
    file = file_of(loc)
    line = loc.line
    return DISubprogramAttr(
        file, line, StringAttr(name), StringAttr(name), DICompileUnitAttr(file), line
    )


def scoped_locations(entry: Operation, name: str) -> Callable[[Attribute], Attribute] | None:
    """Debug locations for a kernel, as ``synthesize-debug-info-scopes`` makes them.

    Returns None when the kernel has no source place (nothing to scope), else
    a map from a location in the kernel to what the bytecode carries: a
    ``di_loc`` (kept), or a plain or nested file location placed in the
    kernel's subprogram; an unknown location stays unknown.  The kernel's own
    location maps to ``di_loc<its place in its subprogram>``.
    """
    if (found := di_location(entry.location)) is not None:
        kernel = subprogram_of(found.scope)
    elif (place := source_location(entry.location)) is not None:
        kernel = kernel_subprogram(name, place)
    else:
        return None
    assert kernel is not None  # verify_entry_debug_info: a kernel's di_loc is in a subprogram

    def scoped(loc: Attribute) -> Attribute:
        if isinstance(loc, DILocAttr | CallSiteLoc):
            return loc
        place = source_location(loc)
        return loc if place is None else DILocAttr(place, kernel)

    return scoped
