"""Element-wise arithmetic on float and integer tiles (``addf`` ... ``xori``).

The ops fall into a few shapes, each a base class here: float binary with an
IEEE rounding mode (``addf``), integer binary with an overflow flag (``addi``),
integer binary with signedness (``maxi``), plain binary (``andi``, ``remf``) and
plain unary (``absf``).  ``math.py`` reuses the float bases and the rounding
directives defined here.

``pow`` was renamed ``fpowf`` in Tile IR 13.4 (same op, bytecode opcode 84).
``FPowFOp`` is the canonical op, the one to build and the one bytecode opcode
84 reads back as; ``PowOp`` keeps 13.1-13.3 text readable and prints as it was
written (``pow``), so printing stays stable in every form.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import UnitAttr, i1, i8, i16, i32
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException

from ..attributes import (
    IntegerOverflow,
    IntegerOverflowAttr,
    RoundingMode,
    RoundingModeAttr,
    Signedness,
    SignednessAttr,
)
from ._common import (
    IEEE_MODES,
    NO_OVERFLOW,
    ApproxFullRounding,
    BaseFloatTile,
    CudaTileOp,
    DivRounding,
    IEEERounding,
    IntTile,
    SignednessKeyword,
    SqrtRounding,
    TileOf,
    directive_variant,
    same_shape,
    verify_f32_modifier,
    verify_ftz,
    verify_rounding_in,
)
from ._folding import elementwise, int_constant, is_splat, signed, width_of

FPowIExponentTile = TileOf(
    "tile of i1 or i8 or i16 or i32 values", lambda t: t in (i1, i8, i16, i32)
)
"""``fpowi`` exponents: signed integers of at most 32 bits."""


# --------------------------------------------------------------------------
# Rounding directives whose unsupported modes the verifier reports
# --------------------------------------------------------------------------


@directive_variant
class DivFRounding(DivRounding):
    """``custom<DivFOpRoundingMode>``: IEEE modes, approx, full."""

    VERIFIED = True


@directive_variant
class SqrtFRounding(SqrtRounding):
    """``custom<SqrtOpRoundingMode>``: IEEE modes and approx."""

    VERIFIED = True


@directive_variant
class ApproxFullFRounding(ApproxFullRounding):
    """``custom<ExpOpRoundingMode>`` / ``custom<TanHOpRoundingMode>``."""

    VERIFIED = True


@irdl_custom_directive
class UnitFlags(CustomDirective):
    """``oilist(`a` $a | `b` $b)`` of two unit flags named by their keyword.

    Either order parses; each flag at most once; they print in declared order.
    """

    first: AttributeVariable
    second: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        flags = {v.name: v for v in (self.first, self.second)}
        seen: set[str] = set()
        while (word := parser.parse_optional_keyword_in(flags)) is not None:
            if word in seen:
                parser.raise_error(
                    f"`{word}` clause can appear at most once in the expansion "
                    "of the oilist directive"
                )
            seen.add(word)
            flags[word].set(state, UnitAttr())

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        for flag in (self.first, self.second):
            if flag.get(op) is not None:
                state.print_whitespace(printer)
                printer.print_string(flag.name)


# --------------------------------------------------------------------------
# Verifier helpers (SharedVerifiers.h)
# --------------------------------------------------------------------------


def _verify_ieee_rounding(
    op: CudaTileOp, rounding: RoundingModeAttr, ftz: UnitAttr | None
) -> None:
    """``addf``, ``subf``, ``mulf``, ``fma``: an IEEE mode; ftz only on f32."""
    verify_rounding_in(rounding, IEEE_MODES)
    verify_ftz(op, ftz)


def verify_div_sqrt(
    op: CudaTileOp,
    rounding: RoundingModeAttr,
    ftz: UnitAttr | None,
    allowed: tuple[RoundingMode, ...],
) -> None:
    """``divf``/``sqrt``: the mode is one of ``allowed``, then ftz, approx, full need f32.

    ``verifyDivSqrtCommonFPModifiers``: one ``rounding`` attribute carries
    the mode, so approx and full exclude each other and an IEEE mode never
    comes with them: of NVIDIA's checks only the element-type ones can fail.
    """
    verify_rounding_in(rounding, allowed)
    verify_ftz(op, ftz)
    verify_f32_modifier(op, "approx", rounding.data == RoundingMode.APPROX)
    verify_f32_modifier(op, "full", rounding.data == RoundingMode.FULL)


# --------------------------------------------------------------------------
# Base classes
# --------------------------------------------------------------------------


class FloatUnaryOp(CudaTileOp):
    """``op %source : T`` on a float tile."""

    T: ClassVar = VarConstraint("T", BaseFloatTile)
    source = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$source attr-dict `:` type($result)"


class _FloatBinary(CudaTileOp):
    """``op %lhs, %rhs : T`` on float tiles."""

    T: ClassVar = VarConstraint("T", BaseFloatTile)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"


class _FloatBinaryRounded(CudaTileOp):
    """``op %lhs, %rhs [rounding<m>] [flush_to_zero] : T``."""

    T: ClassVar = VarConstraint("T", BaseFloatTile)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    rounding_mode = prop_def(RoundingModeAttr)
    flush_to_zero = opt_prop_def(UnitAttr)
    traits = traits_def(Pure())


class _FloatBinaryIEEE(_FloatBinaryRounded):
    """A ``_FloatBinaryRounded`` whose modes are the IEEE ones."""

    custom_directives = (IEEERounding,)
    assembly_format = (
        "$lhs `,` $rhs custom<IEEERounding>($rounding_mode) "
        "(`flush_to_zero` $flush_to_zero^)? attr-dict `:` type($result)"
    )

    def verify_(self) -> None:
        _verify_ieee_rounding(self, self.rounding_mode, self.flush_to_zero)


class _FloatMinMax(CudaTileOp):
    """``op %lhs, %rhs [flush_to_zero] [propagate_nan] : T``."""

    T: ClassVar = VarConstraint("T", BaseFloatTile)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    propagate_nan = opt_prop_def(UnitAttr)
    flush_to_zero = opt_prop_def(UnitAttr)
    traits = traits_def(Pure())
    custom_directives = (UnitFlags,)
    assembly_format = (
        "$lhs `,` $rhs custom<UnitFlags>($flush_to_zero, $propagate_nan) "
        "attr-dict `:` type($result)"
    )

    def verify_(self) -> None:
        verify_ftz(self, self.flush_to_zero)


class _PowBase(CudaTileOp):
    """``op %source, %exponent : T``: float power with a float exponent."""

    T: ClassVar = VarConstraint("T", BaseFloatTile)
    source = operand_def(T)
    exponent = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$source `,` $exponent attr-dict `:` type($result)"


class _IntUnary(CudaTileOp, HasFolderInterface):
    """``op %source : T`` on an integer tile; a constant operand folds."""

    T: ClassVar = VarConstraint("T", IntTile)
    source = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$source attr-dict `:` type($result)"

    def evaluate(self, bits: int, width: int) -> int:
        """The result's bits for an operand of ``bits`` (wrapped by the caller)."""
        raise NotImplementedError

    def fold(self) -> tuple[Attribute] | None:
        width = width_of(self.result)
        assert width is not None
        folded = elementwise(self.result, [self.source], lambda a: self.evaluate(a, width))
        return None if folded is None else (folded,)


class _IntOperands(CudaTileOp, HasFolderInterface):
    """``op %lhs, %rhs : T`` on integer tiles (traits left to subclasses).

    Folds constant operands lane by lane (``evaluate``), else an algebraic
    identity (``identity``: ``x + 0``, ``x * 1``, ``x - x``...).
    """

    T: ClassVar = VarConstraint("T", IntTile)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"

    def evaluate(self, a: int, b: int, width: int) -> int | None:
        """The result's bits for operand bits ``a`` and ``b`` (wrapped by the
        caller), or None where the op must not fold (a division by zero)."""
        raise NotImplementedError

    def identity(self) -> SSAValue | Attribute | None:
        """The result when an identity holds whatever the other operand is."""
        return None

    def fold(self) -> tuple[SSAValue | Attribute] | None:
        width = width_of(self.result)
        assert width is not None
        folded = elementwise(self.result, [self.lhs, self.rhs], lambda a, b: self.evaluate(a, b, width))
        if folded is not None:
            return (folded,)
        same = self.identity()
        return None if same is None else (same,)

    def zero(self) -> Attribute:
        return int_constant(self.result, [0])

    def read(self, a: int, b: int, width: int) -> tuple[int, int]:
        """The operands as the op's ``signedness`` reads them."""
        if self.signedness.data == Signedness.SIGNED:  # ops that read signedness have it
            return signed(a, width), signed(b, width)
        return a, b


class _IntBinary(_IntOperands):
    """A side-effect-free, speculatable binary integer op."""

    traits = traits_def(Pure())


class _IntBinaryOverflow(_IntBinary):
    """``op %lhs, %rhs [overflow<flag>] : T`` (``overflow<none>`` elided)."""

    overflow = prop_def(IntegerOverflowAttr, default_value=NO_OVERFLOW)
    assembly_format = (
        "$lhs `,` $rhs (`overflow` `` $overflow^)? attr-dict `:` type($result)"
    )


class _IntBinarySigned(_IntBinary):
    """``op %lhs, %rhs signed|unsigned : T``."""

    signedness = prop_def(SignednessAttr)
    custom_directives = (SignednessKeyword,)
    assembly_format = (
        "$lhs `,` $rhs custom<SignednessKeyword>($signedness) attr-dict "
        "`:` type($result)"
    )


# --------------------------------------------------------------------------
# Float ops
# --------------------------------------------------------------------------


@irdl_op_definition
class AbsFOp(FloatUnaryOp):
    """Element-wise floating-point absolute value."""

    name = "cuda_tile.absf"


@irdl_op_definition
class NegFOp(FloatUnaryOp):
    """Element-wise floating-point negation."""

    name = "cuda_tile.negf"


@irdl_op_definition
class AddFOp(_FloatBinaryIEEE):
    """Element-wise floating-point addition."""

    name = "cuda_tile.addf"


@irdl_op_definition
class SubFOp(_FloatBinaryIEEE):
    """Element-wise floating-point subtraction."""

    name = "cuda_tile.subf"


@irdl_op_definition
class MulFOp(_FloatBinaryIEEE):
    """Element-wise floating-point multiplication."""

    name = "cuda_tile.mulf"


@irdl_op_definition
class DivFOp(_FloatBinaryRounded):
    """Element-wise floating-point division (IEEE, ``approx`` or ``full``)."""

    name = "cuda_tile.divf"
    custom_directives = (DivFRounding,)
    assembly_format = (
        "$lhs `,` $rhs custom<DivFRounding>($rounding_mode) "
        "(`flush_to_zero` $flush_to_zero^)? attr-dict `:` type($result)"
    )

    def verify_(self) -> None:
        verify_div_sqrt(
            self, self.rounding_mode, self.flush_to_zero, DivFRounding.ALLOWED
        )


@irdl_op_definition
class RemFOp(_FloatBinary):
    """Element-wise floating-point remainder (sign of the dividend)."""

    name = "cuda_tile.remf"


@irdl_op_definition
class MaxFOp(_FloatMinMax):
    """Element-wise floating-point maximum (IEEE maximumNumber / maximum)."""

    name = "cuda_tile.maxf"


@irdl_op_definition
class MinFOp(_FloatMinMax):
    """Element-wise floating-point minimum (IEEE minimumNumber / minimum)."""

    name = "cuda_tile.minf"


@irdl_op_definition
class FmaOp(CudaTileOp):
    """Element-wise fused multiply-add ``lhs * rhs + acc``, rounded once."""

    name = "cuda_tile.fma"
    T: ClassVar = VarConstraint("T", BaseFloatTile)
    lhs = operand_def(T)
    rhs = operand_def(T)
    acc = operand_def(T)
    result = result_def(T)
    rounding_mode = prop_def(RoundingModeAttr)
    flush_to_zero = opt_prop_def(UnitAttr)
    traits = traits_def(Pure())
    custom_directives = (IEEERounding,)
    assembly_format = (
        "$lhs `,` $rhs `,` $acc custom<IEEERounding>($rounding_mode) "
        "(`flush_to_zero` $flush_to_zero^)? attr-dict `:` type($result)"
    )

    def verify_(self) -> None:
        _verify_ieee_rounding(self, self.rounding_mode, self.flush_to_zero)


@irdl_op_definition
class FPowFOp(_PowBase):
    """Element-wise ``source ** exponent`` with a float exponent.

    The 13.4 spelling of opcode 84 (``pow`` before); the op itself is 13.1.
    """

    name = "cuda_tile.fpowf"


@irdl_op_definition
class PowOp(_PowBase):
    """``pow``: the 13.1-13.3 spelling of ``fpowf`` (same op, opcode 84)."""

    name = "cuda_tile.pow"


@irdl_op_definition
class FPowIOp(CudaTileOp):
    """Element-wise ``source ** exponent`` with a signed-integer exponent."""

    name = "cuda_tile.fpowi"
    SINCE: ClassVar[str] = "13.4"
    T: ClassVar = VarConstraint("T", BaseFloatTile)
    source = operand_def(T)
    exponent = operand_def(FPowIExponentTile)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = (
        "$source `,` $exponent attr-dict `:` type($source) `,` type($exponent)"
    )

    def verify_(self) -> None:
        same_shape("source, exponent", self.source.type, self.exponent.type)


# --------------------------------------------------------------------------
# Integer ops
# --------------------------------------------------------------------------


@irdl_op_definition
class AbsIOp(_IntUnary):
    """Element-wise absolute value of signed integers (result read unsigned)."""

    name = "cuda_tile.absi"

    def evaluate(self, bits: int, width: int) -> int:
        return abs(signed(bits, width))  # abs(MIN) wraps to MIN


@irdl_op_definition
class NegIOp(_IntUnary):
    """Element-wise two's-complement integer negation."""

    name = "cuda_tile.negi"
    overflow = prop_def(IntegerOverflowAttr, default_value=NO_OVERFLOW)
    assembly_format = (
        "$source (`overflow` `` $overflow^)? attr-dict `:` type($result)"
    )

    def evaluate(self, bits: int, width: int) -> int:
        return -bits

    def verify_(self) -> None:
        # Negation is a signed operation: unsigned wrap has no meaning.
        if self.overflow.data == IntegerOverflow.NUW:
            raise VerifyException("'no_unsigned_wrap' overflow flag is not supported")


@irdl_op_definition
class AddIOp(_IntBinaryOverflow):
    """Element-wise integer addition."""

    name = "cuda_tile.addi"

    def evaluate(self, a: int, b: int, width: int) -> int:
        return a + b

    def identity(self) -> SSAValue | None:
        if is_splat(self.rhs, 0):
            return self.lhs
        return self.rhs if is_splat(self.lhs, 0) else None


@irdl_op_definition
class SubIOp(_IntBinaryOverflow):
    """Element-wise integer subtraction."""

    name = "cuda_tile.subi"

    def evaluate(self, a: int, b: int, width: int) -> int:
        return a - b

    def identity(self) -> SSAValue | Attribute | None:
        if self.lhs == self.rhs:
            return self.zero()
        return self.lhs if is_splat(self.rhs, 0) else None


@irdl_op_definition
class MulIOp(_IntBinaryOverflow):
    """Element-wise integer multiplication (low half of the product)."""

    name = "cuda_tile.muli"

    def evaluate(self, a: int, b: int, width: int) -> int:
        return a * b

    def identity(self) -> SSAValue | None:
        for x, y in ((self.lhs, self.rhs), (self.rhs, self.lhs)):
            if is_splat(y, 1):
                return x
            if is_splat(y, 0):
                return y
        return None


@irdl_op_definition
class ShLIOp(_IntBinaryOverflow):
    """Element-wise shift left of ``lhs`` by ``rhs`` bits."""

    name = "cuda_tile.shli"

    def evaluate(self, a: int, b: int, width: int) -> int:
        return a << b if b < width else 0  # the amount reads unsigned

    def identity(self) -> SSAValue | None:
        return self.lhs if is_splat(self.rhs, 0) else None


@irdl_op_definition
class MulhiIOp(CudaTileOp):
    """Element-wise high half of the integer product ``x * y``."""

    name = "cuda_tile.mulhii"
    T: ClassVar = VarConstraint("T", IntTile)
    x = operand_def(T)
    y = operand_def(T)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = "$x `,` $y attr-dict `:` type($result)"


@irdl_op_definition
class DivIOp(_IntOperands):
    """Element-wise integer division, rounding toward zero, -inf or +inf."""

    name = "cuda_tile.divi"
    signedness = prop_def(SignednessAttr)
    rounding = prop_def(
        RoundingModeAttr, default_value=RoundingModeAttr(RoundingMode.ZERO)
    )
    # Division by zero is undefined behaviour: not speculatable, so not Pure.
    traits = traits_def(NoMemoryEffect())
    custom_directives = (SignednessKeyword,)
    assembly_format = (
        "$lhs `,` $rhs custom<SignednessKeyword>($signedness) "
        "(`rounding` `` $rounding^)? attr-dict `:` type($result)"
    )

    def evaluate(self, a: int, b: int, width: int) -> int | None:
        x, y = self.read(a, b, width)
        if y == 0:
            return None  # undefined behaviour: leave it to run (and be reported)
        floor = x // y
        if self.rounding.data == RoundingMode.NEGATIVE_INF or floor * y == x:
            return floor  # MIN / -1 wraps to MIN
        if self.rounding.data == RoundingMode.POSITIVE_INF:
            return floor + 1
        return floor + 1 if (x < 0) != (y < 0) else floor  # toward zero

    def identity(self) -> SSAValue | None:
        return self.lhs if is_splat(self.rhs, 1) else None

    def verify_(self) -> None:
        verify_rounding_in(
            self.rounding,
            (RoundingMode.ZERO, RoundingMode.NEGATIVE_INF, RoundingMode.POSITIVE_INF),
        )
        if (
            self.rounding.data == RoundingMode.NEGATIVE_INF
            and self.signedness.data == Signedness.UNSIGNED
        ):
            raise VerifyException(
                "rounding mode 'negative_inf' is not allowed with 'unsigned' flag"
            )


@irdl_op_definition
class RemIOp(_IntBinarySigned):
    """Element-wise integer remainder (sign of the dividend)."""

    name = "cuda_tile.remi"

    def evaluate(self, a: int, b: int, width: int) -> int | None:
        x, y = self.read(a, b, width)
        if y == 0:
            return None  # undefined behaviour: leave it to run (and be reported)
        r = abs(x) % abs(y)
        return -r if x < 0 else r  # the sign of the dividend

    def identity(self) -> Attribute | None:
        return self.zero() if is_splat(self.rhs, 1) else None


@irdl_op_definition
class MaxIOp(_IntBinarySigned):
    """Element-wise integer maximum."""

    name = "cuda_tile.maxi"

    def evaluate(self, a: int, b: int, width: int) -> int:
        return max(self.read(a, b, width))

    def identity(self) -> SSAValue | None:
        return self.lhs if self.lhs == self.rhs else None


@irdl_op_definition
class MinIOp(_IntBinarySigned):
    """Element-wise integer minimum."""

    name = "cuda_tile.mini"

    def evaluate(self, a: int, b: int, width: int) -> int:
        return min(self.read(a, b, width))

    def identity(self) -> SSAValue | None:
        return self.lhs if self.lhs == self.rhs else None


@irdl_op_definition
class ShRIOp(_IntBinarySigned):
    """Element-wise shift right (arithmetic if signed, logical if unsigned)."""

    name = "cuda_tile.shri"

    def evaluate(self, a: int, b: int, width: int) -> int:
        x, _ = self.read(a, b, width)  # the amount reads unsigned
        return x >> min(b, width)  # past the width: 0, or the sign if signed

    def identity(self) -> SSAValue | None:
        return self.lhs if is_splat(self.rhs, 0) else None


@irdl_op_definition
class AndIOp(_IntBinary):
    """Element-wise bitwise AND."""

    name = "cuda_tile.andi"

    def evaluate(self, a: int, b: int, width: int) -> int:
        return a & b

    def identity(self) -> SSAValue | None:
        if self.lhs == self.rhs:
            return self.lhs
        for x, y in ((self.lhs, self.rhs), (self.rhs, self.lhs)):
            if is_splat(y, -1):
                return x
            if is_splat(y, 0):
                return y
        return None


@irdl_op_definition
class OrIOp(_IntBinary):
    """Element-wise bitwise OR."""

    name = "cuda_tile.ori"

    def evaluate(self, a: int, b: int, width: int) -> int:
        return a | b

    def identity(self) -> SSAValue | None:
        if self.lhs == self.rhs:
            return self.lhs
        for x, y in ((self.lhs, self.rhs), (self.rhs, self.lhs)):
            if is_splat(y, 0):
                return x
            if is_splat(y, -1):
                return y
        return None


@irdl_op_definition
class XOrIOp(_IntBinary):
    """Element-wise bitwise XOR."""

    name = "cuda_tile.xori"

    def evaluate(self, a: int, b: int, width: int) -> int:
        return a ^ b

    def identity(self) -> SSAValue | Attribute | None:
        if self.lhs == self.rhs:
            return self.zero()
        if is_splat(self.rhs, 0):
            return self.lhs
        return self.rhs if is_splat(self.lhs, 0) else None

