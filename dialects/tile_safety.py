"""``tile_safety``: facts the frontend records for the safety passes.

Everything here exists only between the frontend and the lowering
(``passes/lower_tile_safety.py``); afterwards a module is pure ``cuda_tile``.

* ``tile_safety.check_index %i, %view[dim], "what"`` — the obligation
  ``0 <= %i < num_tiles(%view, dim)`` for one index of one partition access
  (``what`` names the access, ``z.store``; the op's location says where).
  The safety passes discharge it statically, hoist it to a launch check, or
  lower it to an in-kernel ``assert`` (the last rung).
* Discardable attributes, named ``tile_safety.<what>``:

  ``access`` (``#tile_safety.access<mut|mapped|shared>``) and ``arg``
  (the parameter name) on each tensor parameter's ``make_tensor_view``;
  ``partition`` (``array<i64: ...>``) there too for host-partitioned
  outputs; ``unsafe`` (unit) on every operation written in a
  ``with st.unsafe():`` block that needed it; ``unchecked_accesses`` and
  ``deny_in_kernel_checks`` (unit) on an ``entry`` compiled with those
  options; ``launch_checks`` on an ``entry``: the array of
  ``#tile_safety.launch_check`` that bounds-check-elision moved to the host.
* ``#tile_safety.launch_check<"message": LHS < RHS>``: one launch check, a
  small expression tree over the tensor arguments' shapes, each side a
  ``TileBound``: ``n``, ``ceil_div(x.shape[d], t) + k`` or
  ``(ceil_div(x.shape[d], t) + k) // q``.  The runtime evaluates it on the
  launch's shapes (``LaunchCheckAttr.sides``), never as Python source.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    LocationAttr,
    StringAttr,
    UnknownLoc,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    param_def,
    prop_def,
    traits_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException, VerifyException
from xdsl.utils.str_enum import StrEnum

from safetile.dialects.cuda_tile.ops._common import CudaTileOp, ScalarIntTile
from safetile.dialects.cuda_tile.ops.memory import AnyTileView
from safetile.dialects.cuda_tile.types import TileViewType

PREFIX = "tile_safety."

ACCESS = PREFIX + "access"
ARG = PREFIX + "arg"
PARTITION = PREFIX + "partition"
UNSAFE = PREFIX + "unsafe"
UNCHECKED_ACCESSES = PREFIX + "unchecked_accesses"
DENY_IN_KERNEL_CHECKS = PREFIX + "deny_in_kernel_checks"
EARLY_READS = PREFIX + "early_reads"
"""On an entry: the argument numbers of the base pointers of the read-only tensors
whose top-level loads ``grid-dependency`` may put before the wait."""
LAUNCH_CHECKS = PREFIX + "launch_checks"


class AccessMode(StrEnum):
    MUT = "mut"
    """Host-partitioned output: each tile block owns the tile at its id."""
    MAPPED = "mapped"
    """Host-partitioned output whose tiles blocks walk (``tile_indices()``)."""
    SHARED = "shared"
    """Read-only input: any block reads anything."""


@irdl_attr_definition
class AccessAttr(EnumAttribute[AccessMode]):
    """``#tile_safety.access<mut>``: how a kernel may use a tensor parameter."""

    name = "tile_safety.access"

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data.value}>")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> AccessMode:
        with parser.in_angle_brackets():
            return parser.parse_str_enum(AccessMode)


@irdl_op_definition
class CheckIndexOp(CudaTileOp):
    """Obliges ``0 <= index < num_tiles(view, dim)``; ``message`` names the access
    (``z.store``), the op's location where it is."""

    name = "tile_safety.check_index"
    SINCE: ClassVar[str] = "13.1"
    index = operand_def(ScalarIntTile)
    view = operand_def(AnyTileView)
    dim = prop_def(IntegerAttr[I64])
    message = prop_def(StringAttr)
    # No effect trait: like ``assert`` it must not be removed or moved.
    traits = traits_def()
    assembly_format = (
        "$index `,` $view `[` $dim `]` `,` $message attr-dict `:` type($index) `,` type($view)"
    )

    def __init__(self, index: SSAValue, view: SSAValue, dim: int, message: str):
        super().__init__(
            operands=[index, view],
            properties={"dim": IntegerAttr(dim, 64), "message": StringAttr(message)},
        )

    def verify_(self) -> None:
        view = self.view.type
        assert isinstance(view, TileViewType)
        dim = self.dim.value.data
        if not 0 <= dim < view.index_rank():
            raise VerifyException(
                f"dim {dim} is out of range for a view with {view.index_rank()} index dimensions"
            )


def is_safety_attribute(name: str) -> bool:
    return name.startswith(PREFIX)


def partition_tiles(op: Operation) -> tuple[int, ...] | None:
    """The tile shape of ``op``'s ``tile_safety.partition``, or None without one.

    Raises ``DiagnosticException`` naming the attribute when it is not an
    ``array<i64: ...>`` of positive sizes (hand-written or mutated IR).
    """
    attr = op.attributes.get(PARTITION)
    if attr is None:
        return None
    if not (isinstance(attr, DenseArrayBase) and attr.elt_type == i64):
        raise DiagnosticException(f"'{op.name}' op {PARTITION} must be an array<i64: ...> of tile sizes, got {attr}")
    tiles = tuple(int(t) for t in attr.get_values())
    if not tiles or any(t < 1 for t in tiles):
        raise DiagnosticException(f"'{op.name}' op {PARTITION} must hold positive tile sizes, got {list(tiles)}")
    return tiles


@irdl_attr_definition
class TileBoundAttr(ParametrizedAttribute):
    """``floor((ceil_div(tensor.shape[dim], tile) + offset) / divisor)``; just
    ``offset`` when ``tensor`` is empty.  One side of a launch check, printed
    (inside ``#tile_safety.launch_check``) as that Python-like expression."""

    name = "tile_safety.tile_bound"

    tensor: StringAttr = param_def()
    dim: IntAttr = param_def()
    tile: IntAttr = param_def()
    offset: IntAttr = param_def()
    divisor: IntAttr = param_def()

    @staticmethod
    def of(tensor: str | None, dim: int = 0, tile: int = 1, offset: int = 0, divisor: int = 1) -> TileBoundAttr:
        return TileBoundAttr(StringAttr(tensor or ""), IntAttr(dim), IntAttr(tile), IntAttr(offset), IntAttr(divisor))

    def value(self, shapes: Mapping[str, Sequence[int]]) -> int:
        """The bound on the launch whose tensor arguments have ``shapes`` (by name)."""
        if not self.tensor.data:
            return self.offset.data
        count = -(-shapes[self.tensor.data][self.dim.data] // self.tile.data)
        return (count + self.offset.data) // self.divisor.data

    def expression(self, floordiv: str = "//") -> str:
        """``(ceil_div(x.shape[1], 32) - 1) // 4``: the text users read.  The IR
        spells the division ``floordiv`` (as MLIR's affine maps do): ``//``
        starts a comment there."""
        if not self.tensor.data:
            return str(self.offset.data)
        text = f"ceil_div({self.tensor.data}.shape[{self.dim.data}], {self.tile.data})"
        if self.offset.data:
            text += f" {'+' if self.offset.data > 0 else '-'} {abs(self.offset.data)}"
        return text if self.divisor.data == 1 else f"({text}) {floordiv} {self.divisor.data}"

    @staticmethod
    def parse_expression(parser: AttrParser) -> TileBoundAttr:
        """Read what ``expression`` prints."""
        constant = parser.parse_optional_integer(allow_boolean=False, allow_negative=True)
        if constant is not None:
            return TileBoundAttr.of(None, offset=constant)
        parenthesized = parser.parse_optional_punctuation("(") is not None
        parser.parse_keyword("ceil_div")
        parser.parse_punctuation("(")
        field = parser.parse_identifier(" tensor.shape")
        tensor, _, shape = field.rpartition(".")
        if shape != "shape" or not tensor.isidentifier():
            parser.raise_error(f"expected '<tensor>.shape', got '{field}'")
        parser.parse_punctuation("[")
        dim = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation("]")
        parser.parse_punctuation(",")
        tile = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_punctuation(")")
        offset = 0
        if parser.parse_optional_punctuation("+") is not None:
            offset = parser.parse_integer(allow_boolean=False, allow_negative=False)
        else:
            offset = parser.parse_optional_integer(allow_boolean=False, allow_negative=True) or 0
        divisor = 1
        if parenthesized:
            parser.parse_punctuation(")")
            parser.parse_keyword("floordiv")
            divisor = parser.parse_integer(allow_boolean=False, allow_negative=False)
        return TileBoundAttr.of(tensor, dim, tile, offset, divisor)

    def verify(self) -> None:
        if self.tile.data < 1 or self.divisor.data < 1:
            raise VerifyException(f"{self.name}: tile and divisor must be positive, got {self.expression('floordiv')}")


@irdl_attr_definition
class LaunchCheckAttr(ParametrizedAttribute):
    """``#tile_safety.launch_check<"message": LHS < RHS>``: a bounds obligation
    the host decides before a launch (``lhs < rhs`` on the arguments' shapes).

    ``location`` is the checked access's source position (printed after the
    condition when known)."""

    name = "tile_safety.launch_check"

    message: StringAttr = param_def()
    lhs: TileBoundAttr = param_def()
    rhs: TileBoundAttr = param_def()
    location: LocationAttr = param_def()

    def __init__(self, message: str, lhs: TileBoundAttr, rhs: TileBoundAttr, location: LocationAttr | None = None):
        super().__init__(StringAttr(message), lhs, rhs, location or UnknownLoc())

    def sides(self, shapes: Mapping[str, Sequence[int]]) -> tuple[int, int]:
        """Both sides' values on a launch with these tensor shapes; it may run when lhs < rhs."""
        return self.lhs.value(shapes), self.rhs.value(shapes)

    def condition(self, floordiv: str = "//") -> str:
        """``lhs < rhs`` as text (see ``TileBoundAttr.expression``)."""
        return f"{self.lhs.expression(floordiv)} < {self.rhs.expression(floordiv)}"

    def tensors(self) -> set[str]:
        """The tensor arguments the check reads."""
        return {b.tensor.data for b in (self.lhs, self.rhs) if b.tensor.data}

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.message.data)
        printer.print_string(f": {self.condition('floordiv')}")
        if not isinstance(self.location, UnknownLoc):
            printer.print_string(" at ")
            printer.print_attribute(self.location)
        printer.print_string(">")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            message = parser.parse_str_literal()
            parser.parse_punctuation(":")
            lhs = TileBoundAttr.parse_expression(parser)
            parser.parse_punctuation("<")
            rhs = TileBoundAttr.parse_expression(parser)
            location: LocationAttr = UnknownLoc()
            if parser.parse_optional_keyword("at") is not None:
                found = parser.parse_optional_location()
                if found is None:
                    parser.raise_error("expected loc(...) after 'at'")
                location = found
        return (StringAttr(message), lhs, rhs, location)


def launch_checks(entry: Operation) -> tuple[LaunchCheckAttr, ...]:
    """The launch checks recorded on ``entry`` (``tile_safety.launch_checks``)."""
    attr = entry.attributes.get(LAUNCH_CHECKS)
    if attr is None:
        return ()
    if not (isinstance(attr, ArrayAttr) and all(isinstance(c, LaunchCheckAttr) for c in attr.data)):
        raise DiagnosticException(
            f"'{entry.name}' op {LAUNCH_CHECKS} must be an array of #tile_safety.launch_check, got {attr}"
        )
    return tuple(attr.data)  # type: ignore[arg-type]


def add_launch_checks(entry: Operation, checks: Sequence[LaunchCheckAttr]) -> None:
    """Append ``checks`` to ``entry``'s launch checks, each once."""
    merged = list(dict.fromkeys((*launch_checks(entry), *checks)))
    if merged:
        entry.attributes[LAUNCH_CHECKS] = ArrayAttr(merged)


TileSafety = Dialect("tile_safety", [CheckIndexOp], [AccessAttr, TileBoundAttr, LaunchCheckAttr])
"""The dialect object to load into an xDSL ``Context``."""

__all__ = [
    "ACCESS",
    "ARG",
    "DENY_IN_KERNEL_CHECKS",
    "EARLY_READS",
    "LAUNCH_CHECKS",
    "PARTITION",
    "UNCHECKED_ACCESSES",
    "UNSAFE",
    "AccessAttr",
    "AccessMode",
    "CheckIndexOp",
    "LaunchCheckAttr",
    "TileBoundAttr",
    "TileSafety",
    "add_launch_checks",
    "is_safety_attribute",
    "launch_checks",
    "partition_tiles",
]
