"""Errors in Tile IR input, reported as ``file:line:col: error: message``.

Every way input can be wrong — a syntax error, an op or type that fails its
verifier, a malformed byte sequence — ends up as one ``Diagnostic``: the place,
the message, and the offending source line with a caret under the column.
Tools print it and exit 1; they never show a Python traceback.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from io import StringIO
from typing import TypeVar

from xdsl.ir import Attribute, Operation
from xdsl.irdl import OptOperandDef, OptResultDef, VarOperandDef, VarResultDef
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import (
    DiagnosticException,
    MultipleSpansParseError,
    ParseError,
    VerifyException,
)
from xdsl.utils.lexer import Span

from .dominance import DominanceError, verify_dominance


@dataclass(frozen=True)
class Diagnostic:
    """An error at a place in a source text."""

    file: str
    line: int
    column: int
    message: str
    source_line: str = ""
    severity: str = "error"
    """``error``, ``warning``, ``note`` or ``remark``, as MLIR's diagnostics."""
    notes: tuple[Diagnostic, ...] = ()
    """Notes attached to this diagnostic (MLIR's ``prior use here``), printed after it."""
    preceding: tuple[Diagnostic, ...] = ()
    """Errors MLIR reports just before this one, at the same place: a custom
    parser's own message follows the ``expected valid keyword`` of the
    ``parseKeyword`` that failed.  Printed before it."""

    def __str__(self) -> str:
        head = f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}"
        if self.source_line:
            head += f"\n{self.source_line}\n" + " " * (self.column - 1) + "^"
        return "\n".join([*map(str, self.preceding), head, *map(str, self.notes)])

    def shifted(self, lines: int) -> Diagnostic:
        """This diagnostic (and its notes) ``lines`` further down: a split chunk's place in its file."""
        if not self.line:
            return self
        notes = tuple(n.shifted(lines) for n in self.notes)
        preceding = tuple(p.shifted(lines) for p in self.preceding)
        return dataclasses.replace(
            self, line=self.line + lines, notes=notes, preceding=preceding
        )

    def all(self) -> list[Diagnostic]:
        """This diagnostic with the errors before it and its notes, in the order MLIR emits them."""
        return [*self.preceding, self, *self.notes]


class ConstraintError(VerifyException):
    """A value's type is not one a constraint allows; ``what`` is the
    constraint's summary as NVIDIA's ``Types.td`` writes it."""

    def __init__(self, what: str, attr: Attribute):
        super().__init__(f"expected {what}, got {attr}")
        self.what, self.attr = what, attr
        self.position: tuple[str, int] | None = None
        """``("operand" | "result", index)`` of the rejected value, once known."""


class TileIRError(Exception):
    """Raised for bad Tile IR input; carries the ``Diagnostic``."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


def type_text(t: Attribute) -> str:
    """A type as NVIDIA's diagnostics show it: ``!cuda_tile.tile<4xptr<f32>>``, ``f32``.

    MLIR writes the outer dialect type with its prefix and the types nested in
    it without.  ``fnv8E5M3FNU`` is a builtin float type in NVIDIA's MLIR
    (ours is a ``cuda_tile`` type), so it never has one.
    """
    # Imported here: both modules import this one.
    from .syntax import PREFIX, TileIRPrinter
    from .types import CudaTileType, is_float

    out = StringIO()
    printer = TileIRPrinter(stream=out)
    with printer.eliding_prefix():
        printer.print_attribute(t)
    prefix = f"!{PREFIX}" if isinstance(t, CudaTileType) and not is_float(t) else ""
    return prefix + out.getvalue()


def shape_text(shape: Sequence[int]) -> str:
    """A shape as MLIR's diagnostics print an ``ArrayRef``: ``2, 4``."""
    return ", ".join(map(str, shape))


def quoted(t: Attribute) -> str:
    """A type quoted as in NVIDIA's diagnostics: ``'!cuda_tile.tile<f32>'``."""
    return f"'{type_text(t)}'"


def quoted_types(types: Sequence[Attribute]) -> str:
    """A type range as MLIR's diagnostics print it: ``'!cuda_tile.tile<f32>', 'i32'``."""
    return ", ".join(map(quoted, types))


def at_span(span: Span[str] | Span[bytes], message: str) -> Diagnostic:
    """A diagnostic pointing at the start of ``span``."""
    loc = span.get_location()
    inp = span.input
    start = inp.get_start_of_line(span.start)
    end = inp.get_end_of_line(span.start)
    line = inp.content[start:end]
    if isinstance(line, bytes):
        line = line.decode("utf-8", "replace")
    return Diagnostic(inp.name, loc.line, loc.col, message, line.rstrip("\r"))


class PrecededParseError(ParseError):
    """A parse error that MLIR reports after others at the same place
    (``preceding``, e.g. ``expected valid keyword``)."""

    def __init__(self, span: Span[str] | Span[bytes], msg: str, preceding: Sequence[str]):
        super().__init__(span, msg)
        self.preceding = tuple(preceding)


def from_parse_error(err: ParseError) -> Diagnostic:
    diagnostic = at_span(err.span, err.msg)
    if isinstance(err, PrecededParseError):
        preceding = tuple(at_span(err.span, message) for message in err.preceding)
        diagnostic = dataclasses.replace(diagnostic, preceding=preceding)
    if isinstance(err, MultipleSpansParseError):
        notes = tuple(
            dataclasses.replace(at_span(span, note or ""), severity="note")
            for span, note in err.refs
        )
        diagnostic = dataclasses.replace(diagnostic, notes=notes)
    return diagnostic


def constraint_message(
    op_name: str, kind: str, index: int, what: str, attr: Attribute, variadic: bool = False
) -> str:
    """MLIR's wording of a type constraint failure (``operand #0 must be ...``);
    a variadic group's constraint reads ``variadic of ...``, as ODS's summary."""
    what = f"variadic of {what}" if variadic and not what.startswith("variadic of") else what
    return f"'{op_name}' op {kind} #{index} must be {what}, but got {quoted(attr)}"


def is_variadic(op_type: type[Operation], kind: str, name: str) -> bool:
    """Whether ``op_type``'s operand or result group ``name`` is ``Variadic``
    (not ``Optional``, whose constraint MLIR names as it is)."""
    op_def = op_type.get_irdl_definition()  # pyright: ignore[reportAttributeAccessIssue]
    defs = dict(op_def.operands if kind == "operand" else op_def.results)
    arg_def = defs.get(name)
    return isinstance(arg_def, (VarOperandDef, VarResultDef)) and not isinstance(
        arg_def, (OptOperandDef, OptResultDef)
    )


def short_message(err: Exception) -> str:
    """The first line of an xDSL exception, without its printed-IR context."""
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


class NestedOpError(VerifyException):
    """An error a parent's region verifier (``verify_regions``) finds in an op
    nested in it, reported at that op: MLIR's ``innerOp.emitOpError(...)`` from
    ``verifyRegions``.  ``message`` is whole (with ``'NAME' op`` where MLIR's
    ``emitOpError`` puts it)."""

    def __init__(self, op: Operation, message: str):
        super().__init__(message)
        self.op = op


class NotedError(VerifyException):
    """An op's verifier error as MLIR reports it with more than one diagnostic:
    ``notes`` are ``(op, text)`` pairs (MLIR's ``attachNote``), printed after
    the error at each op; ``preceding`` are errors of the same op MLIR emits
    just before this one (``inferred type(s) ... are incompatible`` before
    ``failed to infer returned types``)."""

    def __init__(
        self,
        message: str,
        notes: Sequence[tuple[Operation, str]] = (),
        preceding: Sequence[str] = (),
    ):
        super().__init__(message)
        self.notes = tuple(notes)
        self.preceding = tuple(preceding)


def verify(
    root: Operation,
    spans: Mapping[Operation, Span[str] | Span[bytes]],
    file: str = "<input>",
) -> None:
    """Verify ``root`` and everything in it; raise ``TileIRError`` on failure.

    Ops are checked in MLIR's order (``_verify_ops``); once they hold, every
    use is checked to come after its value's definition (``verify_dominance``).
    ``spans`` (from ``TileIRParser``) supplies the offending op's source place.
    """
    _verify_ops(root, spans, file)
    _verify_dominance(root, spans, file)


def _verify_ops(
    root: Operation, spans: Mapping[Operation, Span[str] | Span[bytes]], file: str
) -> None:
    """MLIR's ``OperationVerifier`` order, stopping at the first error.

    An op's own invariants come first (``verify(verify_nested_ops=False)``:
    constraints, traits, its verifier); then the ops nested in it, those
    isolated from above last, each followed by its dominance check; then its
    region verifier (``verify_regions``, ODS's ``hasRegionVerifier``).  So a
    parent's own error is reported before any error of the ops in it, and the
    ops in a parent that fails are not verified at all, as with mlir-opt.
    """
    _checked(root, lambda: root.verify(verify_nested_ops=False), spans, file)
    isolated: list[Operation] = []
    for region in root.regions:
        for block in region.blocks:
            for op in block.ops:
                if op.regions and op.has_trait(IsolatedFromAbove):
                    isolated.append(op)
                else:
                    _verify_ops(op, spans, file)
    for op in isolated:
        _verify_ops(op, spans, file)
        _verify_dominance(op, spans, file)
    verify_regions: Callable[[], None] | None = getattr(root, "verify_regions", None)
    if verify_regions is not None:
        _checked(root, verify_regions, spans, file)


def _verify_dominance(
    root: Operation, spans: Mapping[Operation, Span[str] | Span[bytes]], file: str
) -> None:
    try:
        verify_dominance(root)
    except DominanceError as err:
        raise TileIRError(_dominance_diagnostic(err, spans, file)) from None


def _checked(
    op: Operation,
    check: Callable[[], None],
    spans: Mapping[Operation, Span[str] | Span[bytes]],
    file: str,
) -> None:
    """Run one of ``op``'s verifiers; raise its failure as ``TileIRError`` in MLIR's words."""
    try:
        check()
    except (DiagnosticException, ValueError) as err:
        dominance = _cause_of_type(err, DominanceError)
        if dominance is not None:  # a verifier that checks dominance (entry's)
            raise TileIRError(_dominance_diagnostic(dominance, spans, file)) from None
        nested = _cause_of_type(err, NestedOpError)
        if nested is not None:
            raise TileIRError(_at_op(nested.op, spans, file, str(nested))) from None
        cause = err.__cause__ if isinstance(err.__cause__, DiagnosticException) else err
        message = (
            _constraint_failure(op, err)
            or _all_types_match_failure(op, err)
            or f"'{op.name}' op {_in_ods_words(short_message(cause))}"
        )
        noted = _cause_of_type(err, NotedError)
        notes = tuple(
            _at_op(at, spans, file, text, severity="note")
            for at, text in (noted.notes if noted is not None else ())
        )
        preceding = tuple(
            _at_op(op, spans, file, f"'{op.name}' op {text}")
            for text in (noted.preceding if noted is not None else ())
        )
        diagnostic = _at_op(op, spans, file, message)
        raise TileIRError(dataclasses.replace(diagnostic, notes=notes, preceding=preceding)) from None


def _at_op(
    op: Operation | None,
    spans: Mapping[Operation, Span[str] | Span[bytes]],
    file: str,
    message: str,
    severity: str = "error",
) -> Diagnostic:
    """A diagnostic at ``op``'s source place (line 0 for an op that has none)."""
    span = None if op is None else spans.get(op)
    if span is None:
        return Diagnostic(file, 0, 0, message, severity=severity)
    return dataclasses.replace(at_span(span, message), severity=severity)


def _dominance_diagnostic(
    err: DominanceError, spans: Mapping[Operation, Span[str] | Span[bytes]], file: str
) -> Diagnostic:
    """MLIR's ``operand #N does not dominate this use`` at the user, with its note."""
    note = _at_op(err.definer, spans, file, err.note, severity="note")
    error = _at_op(err.user, spans, file, f"'{err.user.name}' op {err}")
    return dataclasses.replace(error, notes=(note,))


_E = TypeVar("_E", bound=BaseException)


def _cause_of_type(err: BaseException, kind: type[_E]) -> _E | None:
    """The first exception of type ``kind`` in ``err``'s chain of causes."""
    error: BaseException | None = err
    while error is not None and not isinstance(error, kind):
        error = error.__cause__
    return error


_SINGLE_BLOCK = re.compile(
    r"Region '(\w+)' at position (\d+) expected a single block, but got \d+ blocks"
)


def _in_ods_words(message: str) -> str:
    """xDSL's message for a region constraint in ODS's words (``SizedRegion<1>``)."""
    return _SINGLE_BLOCK.sub(
        r"region #\2 ('\1') failed to verify constraint: region with 1 blocks", message
    )


_ARGUMENT = re.compile(
    r"(operand|result) '(?P<name>\w+)' at positions? (\d+)(?: to (\d+))? does not verify"
)


def _constraint_failure(op: Operation, err: BaseException) -> str | None:
    """MLIR's message for an operand or result that breaks its type
    constraint, found in xDSL's chain of exceptions (``operand 'lhs' at
    position 0 does not verify`` caused by a ``ConstraintError``).  In a
    variadic group (``at positions 1 to 3``) it names the first value of the
    offending type."""
    error: BaseException | None = err
    while error is not None:
        match = _ARGUMENT.match(str(error))
        if match and isinstance(error.__cause__, ConstraintError):
            cause = error.__cause__
            kind, first = match[1], int(match[3])
            values = op.operands if kind == "operand" else op.results
            last = int(match[4] or first)
            index = next(
                (i for i in range(first, last + 1) if values[i].type == cause.attr), first
            )
            variadic = is_variadic(type(op), kind, match["name"])
            return constraint_message(op.name, kind, index, cause.what, cause.attr, variadic)
        error = error.__cause__
    return None


_VARIABLE = re.compile(r"attribute .* expected from variable '(\w+)', but got ")


def _all_types_match_failure(op: Operation, err: BaseException) -> str | None:
    """ODS's ``AllTypesMatch`` message for values that share a constraint
    variable (xDSL's ``VarConstraint``) but not a type: the values are the
    operands, then results, whose constraint holds the variable."""
    error: BaseException | None = err
    while error is not None:
        match = _VARIABLE.match(str(error))
        if match:
            op_def = type(op).get_irdl_definition()  # pyright: ignore[reportAttributeAccessIssue]
            ods_names: Mapping[str, str] = getattr(op, "ODS_NAMES", {})
            names = [
                ods_names.get(name, name)
                for name, arg_def in (*op_def.operands, *op_def.results)
                if match[1] in arg_def.constr.variables()
            ]
            return f"'{op.name}' op failed to verify that all of {{{', '.join(names)}}} have same type"
        error = error.__cause__
    return None
