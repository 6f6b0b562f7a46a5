"""Tile IR text in and out: NVIDIA's canonical syntax on top of xDSL's.

NVIDIA's tools write a module like this::

    cuda_tile.module @m {
      entry @k(%a: tile<ptr<f32>>) {
        %0 = addf %x, %y : tile<16xf32>
        return
      }
    }

Inside ``cuda_tile.module`` both op names and types drop the ``cuda_tile.``
prefix.  xDSL already resolves bare op names against the dialect of the
enclosing custom-syntax op; the two classes here add the rest:

* ``TileIRParser`` also accepts bare ``cuda_tile`` types (``tile<...>``,
  ``token``, ``tensor_view<...>``, ...) wherever a type is expected;
* ``TileIRPrinter`` elides the prefix of ops and types printed inside a
  ``cuda_tile.module`` (canonical form), and prints everything else as xDSL
  does (fully qualified, or generic with ``print_generic_format``).
"""

from __future__ import annotations

import re
import struct
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import cast
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    LocationAttr,
    ModuleOp,
    NameLoc,
    NoneAttr,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import (
    Attribute,
    AttributeInvT,
    BlockArgument,
    Dialect,
    Operation,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import OpDef, RangeConstraint, VerificationContext
from xdsl.irdl.declarative_assembly_format import FormatProgram, ParsingState
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import (
    DiagnosticException,
    MultipleSpansParseError,
    ParseError,
    VerifyException,
)
from xdsl.utils.hints import isa
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from .attributes import AtomicRMWModeAttr, MemoryOrderingAttr, MemoryScopeAttr
from .debuginfo import DI_NODES, DILocAttr
from .diagnostics import (
    ConstraintError,
    Diagnostic,
    PrecededParseError,
    TileIRError,
    at_span,
    constraint_message,
    from_parse_error,
    is_variadic,
    quoted,
    short_message,
    verify,
)
from .hints import HintChecks, check_hints
from .literals import format_float
from .types import BARE_TYPE_NAMES, CudaTileType, is_float, parse_optional_bare_type

PREFIX = "cuda_tile."

# xDSL 0.74's string-literal pattern nests a ``+`` inside a ``*``, which
# backtracks exponentially on an unterminated string (a fuzzed input hung
# tile-opt).  This pattern accepts exactly the same literals in linear time.
MLIRLexer._unescaped_characters_regex = re.compile(  # pyright: ignore[reportPrivateUsage]
    r'"(?:[^"\\\n\v\f]|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
)


_resolve_constraint_variables = FormatProgram.resolve_constraint_variables


def _resolve_naming_the_value(self: FormatProgram, state: ParsingState, op_def: OpDef) -> None:
    """xDSL checks the parsed operand, then result, types against their
    constraints but does not say which one failed; MLIR's message names it
    (``result #0 must be ...``).  MLIR checks operands first, inferred types
    included: the culprit is the first operand or result whose constraint
    rejects the type and that holds it, or whose type the text leaves to
    inference (from a type written elsewhere, so the rejected one)."""
    try:
        _resolve_constraint_variables(self, state, op_def)
    except ConstraintError as err:
        parsed = (
            ("operand", state.operand_types, op_def.operands),
            ("result", state.result_types, op_def.results),
        )
        err.position = next(
            (
                (kind, index)
                for kind, types, defs in parsed
                for index, (types_, (_, arg_def)) in enumerate(zip(types, defs))
                if (types_ is None or _holds(types_, err.attr))
                and _rejects(arg_def.constr, err)
            ),
            None,
        )
        raise


def _holds(types: Attribute | Sequence[Attribute] | None, attr: Attribute) -> bool:
    return types is not None and attr in ((types,) if isinstance(types, Attribute) else types)


def _rejects(constr: RangeConstraint, err: ConstraintError) -> bool:
    """Whether ``constr`` rejects ``err.attr`` for the same reason."""
    try:
        constr.verify((err.attr,), VerificationContext())
    except ConstraintError as rejected:
        return rejected.what == err.what
    except VerifyException:
        return False
    return False


FormatProgram.resolve_constraint_variables = _resolve_naming_the_value


_BLANKS = (" ", "\t", "\r", "\n", *b" \t\r\n")
"""Blanks, as characters of a text and as bytes of a byte string."""


class InMLIRWords(PrecededParseError):
    """A parse error already in MLIR's words (``TileIRParser._in_mlir_words``)."""


_TYPE_EXPECTED = re.compile(r"type expected")
_MLIR_WORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"Expected (.*?)!?"), r"expected \1"),
    (re.compile(r"'(.+)' expected"), r"expected '\1'"),
    (re.compile(r"attribute expected"), "expected attribute value"),
    (re.compile(r"operand expected"), "expected SSA operand"),
    (re.compile(r"expect symbol name"), "expected valid '@'-identifier for symbol name"),
    (re.compile(r"identifier or string literal expected"), "expected valid keyword or string"),
    (re.compile(r"Operation has 0 results, but was given \d+ to bind\."), "cannot name an operation with no results"),
    (
        re.compile(r"Operation has (\d+) results, but was given (\d+) to bind\."),
        r"operation defines \1 results but was provided \2 to bind",
    ),
    (_TYPE_EXPECTED, "expected valid keyword"),
)
"""xDSL's parser messages and MLIR's words for them."""

_CUSTOM_ONLY = (_TYPE_EXPECTED,)
"""Translations that hold in a custom op's syntax only: NVIDIA's ops read their
types with ``custom<CudaTileType>``, which first expects a keyword."""

_WRONG_TOKEN = re.compile(r"expected '[^\w\s']+'")
"""A missing punctuation token: MLIR's ``parseToken`` (``parseColon``, ``parseComma``,
...) reports it itself, without the ``custom op`` prefix, after the token before
(``Parser::emitWrongTokenError``; ``wrong_token_place``)."""

_AFTER_PARSING = (
    re.compile(r"cannot name an operation with no results"),
    re.compile(r"operation defines \d+ results but was provided \d+ to bind"),
)
"""MLIR's messages about an op's result names, given after its parser is done
(by MLIR's parser, not the op's: no ``custom op`` prefix)."""


GENERIC_PROPERTY_NAMES = {"unsigned_cmp": "unsignedCmp"}
"""Our property names that NVIDIA's generic form spells otherwise (its ODS names)."""


GENERIC_ENUM_INTEGERS = {
    "memory_ordering_semantics": MemoryOrderingAttr,
    "memory_scope": MemoryScopeAttr,
    "mode": AtomicRMWModeAttr,
}
"""Properties NVIDIA's generic form writes as ``N : i32`` (the case number)."""


def _is_location(attr: Attribute) -> bool:
    return isa(attr, LocationAttr) or isinstance(attr, DILocAttr)


class TileIRParser(Parser):
    """xDSL's parser, plus bare ``cuda_tile`` type names.

    It also remembers where each op starts (``op_spans``), so that verifier
    errors found after parsing can name the line of the offending op.  With
    ``source_locations`` each op and block argument without a ``loc(...)`` in
    the text gets its place, ``loc("FILE":LINE:COL)``, as MLIR's parser gives
    it (an op's place is where it starts, its results included; an argument's
    is its name's); a ``loc(...)`` in the text, ``loc(unknown)`` too, is kept.
    """

    def __init__(
        self,
        ctx: Context,
        input: str | bytes,
        name: str = "<input>",
        source_locations: bool = False,
    ):
        super().__init__(ctx, input, name)
        self.source_locations = source_locations
        self.op_spans: dict[Operation, Span[str] | Span[bytes]] = {}
        self._arg_spans: dict[BlockArgument, Span[str] | Span[bytes]] = {}
        self._written_locations: dict[int, LocationAttr] = {}
        """The locations the text writes (by identity: a written ``loc(unknown)``
        is another object than the default one), kept alive so ids stay unique."""
        self._value_spans: dict[str, Span[str] | Span[bytes]] = {}
        self._forward_spans: dict[str, Span[str] | Span[bytes]] = {}
        """The first use of each name not (yet) defined in scope."""
        self._op_types: list[type[Operation]] = []  # of the ops being parsed, outermost first
        self._custom: list[bool] = []  # whether each of them is in its custom form
        self._deferred_locations: dict[str, Span[str] | Span[bytes]] = {}
        self._implicit_terminators: list[Operation] = []
        """Terminators the ops being parsed added (``add_implicit_terminator``)."""
        self.single_top_level = False
        """MLIR's ``--no-implicit-module``: the text must be one top-level op."""

    def add_implicit_terminator(self, op: Operation) -> None:
        """``op`` was added by the parser to the op being parsed (MLIR's
        ``ensureTerminator``): it is placed where that op starts."""
        self._implicit_terminators.append(op)

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        depth = len(self._op_types)
        implicit = len(self._implicit_terminators)
        try:
            op = super().parse_operation()
            self._read_generic_form(op, start)
        except ConstraintError as err:
            # A custom format read operand or result types that break the
            # op's constraints: report it at the op, in MLIR's words.
            message = self._constraint_message(self._op_types[depth], err)
            raise InMLIRWords(start, message, ()) from None
        except VerifyException as err:
            raise InMLIRWords(start, short_message(err), ()) from None
        except ParseError as err:
            raise self._in_mlir_words(err, depth) from None
        finally:
            del self._op_types[depth:]
            del self._custom[depth:]
        self.op_spans[op] = start
        for terminator in self._implicit_terminators[implicit:]:
            self.op_spans[terminator] = start
        del self._implicit_terminators[implicit:]
        return op

    def parse_optional_location(self) -> LocationAttr | None:
        location = super().parse_optional_location()
        if location is not None:
            self._written_locations[id(location)] = location
        return location

    def _parse_location(self) -> LocationAttr:
        """MLIR lets a location name an alias defined further down
        (``loc(#loc3)`` with ``#loc3 = loc("k.py":3:5)`` at the end of the file,
        as ``tileirdisasm -g`` prints): such a use is a placeholder until
        ``parse_module`` has read the aliases.  A ``#cuda_tile.di_loc<...>``
        (or an alias of one) is a location too."""
        token = self._current_token
        if token.kind != MLIRTokenKind.HASH_IDENT:
            return super()._parse_location()
        if token.text not in self.attribute_aliases and not token.text.startswith(f"#{PREFIX}"):
            self._consume_token()
            self._deferred_locations.setdefault(token.text, token.span)
            return NameLoc(StringAttr(token.text), NoneAttr())
        value = self.parse_attribute()
        if not _is_location(value):
            self.raise_error(f"expected location, but '{token.text}' is {value}", token.span)
        return cast(LocationAttr, value)

    def parse_module(self, *args: bool) -> ModuleOp:
        # Top-level ops may drop the prefix too: ``tileirdisasm`` prints a
        # module's entries without the module around them (see ``_wrapped``).
        self._parser_state.dialect_stack = ["cuda_tile", *self._parser_state.dialect_stack]
        try:
            parsed = super().parse_module(*args)
            if self.single_top_level and parsed not in self.op_spans and len(parsed.ops) != 1:
                raise TileIRError(Diagnostic(
                    self.lexer.input.name, 0, 0,
                    f"source must contain a single top-level operation, found: {len(parsed.ops)}",
                ))
            module = _wrapped(parsed)
        except ParseError as err:
            if not (err.msg.startswith("values used but not defined") and self._forward_spans):
                raise
            # MLIR's words, at the first use of a name that no definition in
            # scope declares (one defined in a region is not visible after it).
            first = min(self._forward_spans.values(), key=lambda span: span.start)
            self.raise_error("use of undeclared SSA value name", first)
        for name, span in self._deferred_locations.items():
            value = self.attribute_aliases.get(name)
            if value is None:
                self.raise_error(f"undefined symbol alias '{name}'", span)
            if not _is_location(value):
                self.raise_error(f"expected location, but '{name}' is {value}", span)
        for op in module.walk():
            op.location = self._resolved(op.location, self.op_spans.get(op))
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        arg.location = self._resolved(  # pyright: ignore
                            arg.location, self._arg_spans.get(arg)  # pyright: ignore
                        )
        return module

    def _resolved(
        self, location: LocationAttr, span: Span[str] | Span[bytes] | None
    ) -> LocationAttr:
        """``location`` with a forward alias resolved, or, if the text gives
        none and ``source_locations`` is on, the place ``span`` starts."""
        if (
            self.source_locations
            and span is not None
            and isinstance(location, UnknownLoc)
            and id(location) not in self._written_locations
        ):
            place = span.get_location()
            return FileLineColLoc(StringAttr(self.lexer.input.name), IntAttr(place.line), IntAttr(place.col))
        if (
            isinstance(location, NameLoc)
            and isinstance(location.location, NoneAttr)
            and location.desc.data in self._deferred_locations
        ):
            return cast(LocationAttr, self.attribute_aliases[location.desc.data])
        return location

    def _get_op_by_name(self, name: str) -> type[Operation]:
        op_type = super()._get_op_by_name(name)
        self._op_types.append(op_type)
        # The custom form names the op with a bare identifier, the generic
        # form with a string: the text just before the current token tells which.
        content = self.lexer.input.content
        end = self._current_token.span.start
        while end > 0 and content[end - 1] in _BLANKS:
            end -= 1
        self._custom.append(end == 0 or content[end - 1] not in ('"', ord('"')))
        return op_type

    def _in_mlir_words(self, err: ParseError, depth: int) -> ParseError:
        """``err``, raised while parsing the op at ``depth``, in MLIR's words.

        xDSL's wording is translated (``Expected ':'`` is MLIR's ``expected
        ':'``), and an error of a custom-format op's own parser gets MLIR's
        ``custom op 'NAME'`` prefix (``CustomOpAsmParser::emitError``), but for
        a missing punctuation token, which MLIR reports where it should have
        been (``_WRONG_TOKEN``).  The innermost op handles an error; the ops
        around it leave it as it is.
        """
        if isinstance(err, (InMLIRWords, MultipleSpansParseError)):
            return err
        custom = len(self._op_types) > depth and self._custom[depth]

        def in_mlir_words(message: str) -> str:
            for pattern, words in _MLIR_WORDS:
                if pattern.fullmatch(message) and (custom or pattern not in _CUSTOM_ONLY):
                    message = pattern.sub(words, message)
                    break
            if custom and not any(p.fullmatch(message) for p in (*_AFTER_PARSING, _WRONG_TOKEN)):
                message = f"custom op '{self._op_types[depth].name}' {message}"
            return message

        preceding = err.preceding if isinstance(err, PrecededParseError) else ()
        message = in_mlir_words(err.msg)
        span = wrong_token_place(err.span) if _WRONG_TOKEN.fullmatch(message) else err.span
        return InMLIRWords(span, message, list(map(in_mlir_words, preceding)))

    @staticmethod
    def _constraint_message(op_type: type[Operation], err: ConstraintError) -> str:
        if err.position is None:
            return f"'{op_type.name}' op {short_message(err)}"
        kind, index = err.position
        op_def = op_type.get_irdl_definition()  # pyright: ignore[reportAttributeAccessIssue]
        name = (op_def.operands if kind == "operand" else op_def.results)[index][0]
        variadic = is_variadic(op_type, kind, name)
        return constraint_message(op_type.name, kind, index, err.what, err.attr, variadic)

    def _register_ssa_definition(
        self, name: str, values: Sequence[SSAValue], span: Span[str] | Span[bytes]
    ) -> None:
        self._value_spans.setdefault(name, span)
        self._forward_spans.pop(name, None)
        for value in values:
            if isinstance(value, BlockArgument):
                self._arg_spans[value] = span
        super()._register_ssa_definition(name, values, span)

    def resolve_operand(self, operand: UnresolvedOperand, type: AttributeInvT) -> SSAValue[AttributeInvT]:
        """MLIR's message for a value used with another type than it has."""
        name = operand.operand_name
        values = self.ssa_values.get(name) or ()
        prior = (
            values[operand.index]
            if operand.index < len(values)
            else self.forward_ssa_references.get(name, {}).get(operand.index)
        )
        if prior is not None and prior.type != type:
            raise MultipleSpansParseError(
                operand.span,
                f"use of value '%{name}' expects different type than prior uses: "
                f"{quoted(type)} vs {quoted(prior.type)}",
                None,
                [(self._value_spans.get(name, operand.span), "prior use here")],
            )
        if values == ():
            self._forward_spans.setdefault(name, operand.span)
            if name not in self.forward_ssa_references:
                self._value_spans.setdefault(name, operand.span)
        return super().resolve_operand(operand, type)

    def _read_generic_form(self, op: Operation, start: Span[str] | Span[bytes]) -> None:
        """Read NVIDIA's generic form: its property names, and enums as integers.

        ``unsignedCmp`` is our ``unsigned_cmp`` (``GENERIC_PROPERTY_NAMES``).
        ``memory_ordering_semantics = 0 : i32`` is ``weak``: MLIR stores an
        ``I32EnumAttr`` that has no dialect attribute of its own as its case
        number (the bytecode's code).
        """
        for ours, theirs in GENERIC_PROPERTY_NAMES.items():
            if theirs in op.properties:
                op.properties[ours] = op.properties.pop(theirs)
        for name, attr_type in GENERIC_ENUM_INTEGERS.items():
            value = op.properties.get(name)
            if not isinstance(value, IntegerAttr):
                continue
            cases = list(attr_type.enum_type)
            code = value.value.data
            if not 0 <= code < len(cases):
                words = ", ".join(f"{i} ({c.value})" for i, c in enumerate(cases))
                self.raise_error(f"{name} = {code} is not one of: {words}", start)
            op.properties[name] = attr_type(cases[code])

    def _parse_builtin_densearray_attr(self) -> DenseArrayBase | None:
        start = self.pos
        try:
            return super()._parse_builtin_densearray_attr()
        except NotImplementedError:
            # xDSL stores dense arrays with ``struct``: no element wider than 64 bits.
            self.raise_error("dense array elements must be at most 64 bits wide", start, self.pos)

    def parse_optional_attribute(self) -> Attribute | None:
        start = self._current_token.span
        try:
            return super().parse_optional_attribute()
        except VerifyException as err:  # report an invalid attribute where it starts
            self.raise_error(short_message(err), start)

    def parse_optional_type(self) -> TypeAttribute | None:
        start = self.pos
        text = _bare_type_text(self._current_token.span)
        if text is not None and (known := _PARSED_TYPES.get(text)) is not None:
            self._resume_from(start + len(text))
            return known
        try:
            if (t := parse_optional_bare_type(self)) is not None:
                assert isinstance(t, TypeAttribute)
                if text is not None and not self._current_token.span.input.content[start + len(text) : self.pos].strip():
                    _remember_type(text, t)
                return t
            return super().parse_optional_type()
        except VerifyException as err:  # report an invalid type where it starts
            self.raise_error(short_message(err), start, self.pos)


_PARSED_TYPES: dict[str, TypeAttribute] = {}
"""Bare ``cuda_tile`` types parsed before, by their text (``tile<16x32xf32>``).

A kernel's text writes the same few types hundreds of times, and reading one
token by token is most of what parsing it costs; a type is an immutable value
the same in every context, so its text maps to one.  Only types that parsed
(and verified) are kept, so a bad one is read, and reported, every time."""

_PARSED_TYPES_LIMIT = 4096


def _remember_type(text: str, parsed: TypeAttribute) -> None:
    if len(_PARSED_TYPES) >= _PARSED_TYPES_LIMIT:
        _PARSED_TYPES.clear()
    _PARSED_TYPES[text] = parsed


def _bare_type_text(span: Span[str] | Span[bytes]) -> str | None:
    """The text of the bare type starting at ``span`` (a keyword such as ``tile``
    followed at once by ``<...>``), up to its matching ``>``; None where the token
    is no bare type name or the brackets hold anything but a type's characters
    (an arrow, a string, a line break: parsed the usual way)."""
    content = span.input.content
    if not isinstance(content, str) or content[span.start : span.end] not in BARE_TYPE_NAMES:
        return None
    end = span.end
    if end >= len(content) or content[end] != "<":
        return None
    depth = 0
    for i in range(end, min(len(content), end + _TYPE_TEXT_LIMIT)):
        c = content[i]
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
            if depth == 0:
                return content[span.start : i + 1]
        elif c in _NOT_IN_A_TYPE or (c == "-" and content[i + 1 : i + 2] == ">"):
            return None
    return None


_TYPE_TEXT_LIMIT = 512
_NOT_IN_A_TYPE = frozenset("\"\n\r{}#^%")


def wrong_token_place(span: Span[str] | Span[bytes]) -> Span[str] | Span[bytes]:
    """Where MLIR reports a missing token that ``span`` (the token found) stands
    in for (``Parser::emitWrongTokenError``): just after the text before it,
    skipping blanks, blank lines and ``//`` comments (an annotation line too), so
    a missing ``:`` at the end of a line is reported on that line."""
    content = span.input.content
    newlines = ("\n", "\r", 10, 13)
    end = span.start - 1 if span.start >= len(content) else span.start  # at the end: back one
    original = end
    while True:
        while end > 0 and content[end - 1] in (" ", "\t", 32, 9):
            end -= 1
        if end == 0:
            return Span(original, original, span.input)
        if content[end - 1] not in newlines:
            return Span(end, end, span.input)
        end -= 1
        line_start = end
        while line_start > 0 and content[line_start - 1] not in newlines:
            line_start -= 1
        line = content[line_start:end]
        comment = line.find("//" if isinstance(line, str) else b"//")
        if comment != -1:
            end = line_start + comment


@dataclass(eq=False, repr=False)
class TileIRPrinter(Printer):
    """xDSL's printer, eliding ``cuda_tile.`` inside a ``cuda_tile.module``.

    With ``elide=False`` it prints fully qualified names (the ``mlir`` target).
    Either way, ``dense`` attributes print as their exact hex bytes: xDSL
    re-reads a bare hex float literal (NaN, inf) as an integer and ``true`` as
    the byte 0xFF, either of which would change a constant.
    """

    elide: bool = field(default=True)
    _elide_depth: int = field(default=0)
    aliases: dict[Attribute, str] = field(default_factory=dict[Attribute, str])
    """Attributes printed as ``#name`` (debug-info scopes, defined above the module)."""

    @property
    def eliding(self) -> bool:
        return self.elide and self._elide_depth > 0 and not self.print_generic_format

    @contextmanager
    def eliding_prefix(self) -> Iterator[None]:
        """Within this block, ops and types of the dialect print unprefixed."""
        self._elide_depth += 1
        try:
            yield
        finally:
            self._elide_depth -= 1

    def print_attribute(self, attribute: Attribute) -> None:
        if attribute in self.aliases:
            self.print_string(f"#{self.aliases[attribute]}")
            return
        if isinstance(attribute, DILocAttr) and not self.printing_location:
            with self.in_location():
                super().print_attribute(attribute)
            return
        if self.eliding and isinstance(attribute, CudaTileType):
            self.print_string(attribute.name.removeprefix(PREFIX))
            attribute.print_parameters(self)
            return
        if isinstance(attribute, DenseIntOrFPElementsAttr):
            self.print_string(f'dense<"0x{attribute.data.data.hex().upper()}"> : ')
            self.print_attribute(attribute.type)
            return
        if isinstance(attribute, ArrayAttr):
            with self.in_square_brackets():
                self.print_list(attribute.data, self._print_array_element)
            return
        super().print_attribute(attribute)

    def _print_op_properties(self, properties: dict[str, Attribute]) -> None:
        """The generic form's properties, under NVIDIA's names (``unsignedCmp``)."""
        renamed = {GENERIC_PROPERTY_NAMES.get(name, name): value for name, value in properties.items()}
        super()._print_op_properties(renamed)

    def _print_array_element(self, attribute: Attribute) -> None:
        """MLIR leaves out the ``: f64`` of a decimal f64 in an array."""
        if isinstance(attribute, FloatAttr) and isinstance(attribute.type, Float64Type):
            text = format_float(attribute.value.data, attribute.type)
            if not text.startswith("0x"):
                self.print_string(text)
                return
        self.print_attribute(attribute)

    def print_float(self, value: float, type: AnyFloat) -> None:
        """A float attribute's value as NVIDIA's tools print it.

        MLIR's ``printFloatValue``, as dense literals print their elements
        (``-1.500000e+00``; non-finite values in hex, ``0xFF800000``).
        """
        if is_float(type):
            self.print_string(format_float(value, type))
        else:  # a builtin float type Tile IR does not have
            super().print_float(value, type)

    def _print_results(self, op: Operation) -> None:
        """Print ``%r:N =`` for results that share one name, as MLIR does.

        Results named separately in the source (``%bx, %by, %bz``) print
        separately; results of one ``%r:N`` group (or with no names at all)
        print as a group and are used as ``%r#i``.
        """
        results = op.results
        if len(results) < 2 or len({r.name_hint for r in results}) != 1:
            super()._print_results(op)
            return
        hint = results[0].name_hint
        if hint is None:
            base = self._get_new_valid_name_id()
        else:
            index = self.ssa_names.get(hint, 0)
            self.ssa_names[hint] = index + 1
            base = f"{hint}_{index}" if index else hint
        for i, result in enumerate(results):
            self._ssa_values[result] = f"{base}#{i}"
        self.print_string(f"%{base}:{len(results)} = ")

    def print_op(self, op: Operation) -> None:
        if not (self.eliding and op.name.startswith(PREFIX)):
            super().print_op(op)
            return
        isolated = bool(op.get_traits_of_type(IsolatedFromAbove))
        self._print_results(op)
        if isolated:
            self.enter_scope()
        self.print_string(op.name.removeprefix(PREFIX))
        op.print(self)
        if self.print_debuginfo:
            self.print_string(" ")
            self.print_attribute(op.location)
        if isolated:
            self.exit_scope()


MODULE_MEMBERS = ("cuda_tile.entry", "cuda_tile.global", "cuda_tile.testing$func")
"""Ops that live directly in a ``cuda_tile.module``."""


def _wrapped(module: ModuleOp) -> ModuleOp:
    """``module``, its top-level entries and globals (as ``tileirdisasm``
    prints a module) put in a ``cuda_tile.module`` named ``UNNAMED_MODULE``."""
    ops = list(module.ops)
    if not ops or not all(op.name in MODULE_MEMBERS for op in ops):
        return module
    # Imported here: the ops import this module.
    from .ops.structure import UNNAMED_MODULE
    from .ops.structure import ModuleOp as TileModuleOp

    for op in ops:
        op.detach()
    tile_module = TileModuleOp(UNNAMED_MODULE, ops)  # pyright: ignore[reportArgumentType]
    module.body.block.add_op(tile_module)
    return module


def tile_ir_context(ctx: Context | None = None) -> Context:
    """``ctx`` (a new context if None) made able to read any Tile IR text.

    What it lacks is added: the ``builtin`` and ``cuda_tile`` dialects are
    loaded, and ``tile_safety`` (the frontend's checks) is registered, to be
    loaded when the text uses it.
    """
    # Imported here: the dialects' modules import this one.
    from xdsl.dialects.builtin import Builtin

    from . import CudaTile

    ctx = Context() if ctx is None else ctx
    present = set(ctx.registered_dialect_names)
    for dialect in (Builtin, CudaTile):
        if dialect.name not in present:
            ctx.load_dialect(dialect)
    if "tile_safety" not in present:
        ctx.register_dialect("tile_safety", _tile_safety)
    return ctx


def _tile_safety() -> Dialect:
    from ..tile_safety import TileSafety

    return TileSafety


def parse_tile_ir(
    ctx: Context | None,
    text: str | bytes,
    name: str = "<input>",
    *,
    hints: HintChecks = HintChecks.OFF,
    warnings: list[Diagnostic] | None = None,
    source_locations: bool = False,
    implicit_module: bool = True,
) -> ModuleOp:
    """Parse and verify Tile IR text in any of its three forms.

    The result is a ``builtin.module``: a top-level ``cuda_tile.module`` is
    wrapped in an implicit one, as xDSL does for any non-module top-level op.
    Bad input raises ``TileIRError`` with a ``file:line:col`` diagnostic.
    ``hints`` asks for NVIDIA's optimization-hint checks (``-Wunsupported-hints``,
    ``-Werr-hints``); their warnings are appended to ``warnings``.
    ``source_locations`` gives each op and block argument that has no
    ``loc(...)`` its place in the text, ``loc("NAME":LINE:COL)``, as MLIR's
    parser does (off by default: the bytecode writer scopes file locations into
    debug information, which NVIDIA's writes as unknown).  ``implicit_module=False``
    is MLIR's ``--no-implicit-module``: the text must be one top-level op.

    ``ctx`` is the xDSL context the ops and types are looked up in; ``None`` (or
    a bare ``Context()``) is completed by ``tile_ir_context``.
    """
    ctx = tile_ir_context(ctx)
    parser: TileIRParser | None = None
    try:
        parser = TileIRParser(ctx, text, name, source_locations)  # lexes the first token
        parser.single_top_level = not implicit_module
        if parser._current_token.kind == MLIRTokenKind.EOF:  # pyright: ignore[reportPrivateUsage]
            return ModuleOp([])  # empty, or only comments
        module = parser.parse_module()
    except ParseError as err:
        raise TileIRError(from_parse_error(err)) from None
    except (DiagnosticException, *_VALUE_ERRORS) as err:
        # An attribute or type failed to verify, or a literal does not fit its
        # type (a float too large for f32, an index beyond i32): report it at
        # the token where parsing stopped.
        assert parser is not None
        span = parser._current_token.span  # pyright: ignore[reportPrivateUsage]
        raise TileIRError(at_span(span, short_message(err))) from None
    verify(module, parser.op_spans, name)
    check_hints(module, parser.op_spans, name, hints, [] if warnings is None else warnings)
    return module


_VALUE_ERRORS = (OverflowError, ValueError, IndexError, KeyError, struct.error)
"""Python errors a malformed literal can raise inside xDSL's parsers."""


def print_tile_ir(
    module: Operation, generic: bool = False, elide: bool = True, debuginfo: bool = False
) -> str:
    """Print ``module`` in canonical Tile IR syntax (or generic form).

    ``elide=False`` keeps the ``cuda_tile.`` prefixes (fully qualified form);
    ``debuginfo=True`` prints each op's location, ``loc(...)``.

    An implicit ``builtin.module`` wrapper (one with no attributes) around
    ``cuda_tile.module`` ops is left out, so Tile IR files round-trip verbatim.
    """
    from io import StringIO

    out = StringIO()
    printer = TileIRPrinter(
        stream=out, print_generic_format=generic, elide=elide, print_debuginfo=debuginfo
    )
    ops: list[Operation] = [module]
    if (
        isinstance(module, ModuleOp)
        and not module.attributes
        and module.sym_name is None
    ):
        ops = list(module.ops)
    if debuginfo:
        _print_scope_aliases(printer, ops)
    for op in ops:
        printer.print_op(op)
        out.write("\n")
    return out.getvalue()


def _print_scope_aliases(printer: TileIRPrinter, ops: Sequence[Operation]) -> None:
    """``#di_file = #cuda_tile.di_file<...>`` lines for the debug-info scopes the
    locations of ``ops`` use, each after those it names, as MLIR prints aliases;
    the locations then name them (``loc(#cuda_tile.di_loc<... in #di_subprogram>)``)."""
    found: list[Attribute] = []

    def visit(attr: Attribute) -> None:
        if attr in found or not isinstance(attr, (*DI_NODES, DILocAttr, *_NESTING_LOCATIONS)):
            return
        for param in getattr(attr, "parameters", ()):
            for nested in param.data if isinstance(param, ArrayAttr) else (param,):
                visit(nested)
        if isinstance(attr, DI_NODES):
            found.append(attr)

    for top in ops:
        for op in top.walk():
            visit(op.location)
            for region in op.regions:
                for block in region.blocks:
                    for arg in block.args:
                        visit(arg.location)  # pyright: ignore[reportUnknownMemberType]
    counts: dict[str, int] = {}
    for attr in found:
        base = attr.name.removeprefix(PREFIX)
        n = counts.get(base, 0)
        counts[base] = n + 1
        printer.print_string(f"#{base}{n or ''} = ")
        printer.print_attribute(attr)
        printer.print_string("\n")
        printer.aliases[attr] = f"{base}{n or ''}"


_NESTING_LOCATIONS = (CallSiteLoc, FusedLoc, NameLoc)
"""Locations that hold others, which may be ``di_loc``s."""
