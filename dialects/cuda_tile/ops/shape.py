"""Tile creation and shape manipulation (constant, iota, reshape, broadcast, ...).

``constant``'s literal syntax and value storage are ``literals``' (shared with
``global``): ``<f32: [1.0, 2.0]> : tile<2xf32>``, held as a builtin
``DenseIntOrFPElementsAttr`` of the raw element bits.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    FloatTF32Type,
    I32,
    I64,
    IntegerAttr,
    TensorType,
    i32,
)
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException

from ..diagnostics import quoted, shape_text
from ..literals import (
    CONSTANT_ELEMENTS,
    dense_value,
    element_width,
    encode_values,
    format_dense_values,
    is_constant_element,
    parse_dense_literal,
    storage_bytes,
)
from ..types import TileType, int_width
from ._common import (
    AnyTile,
    CudaTileOp,
    I8Tile,
    I32Index,
    IntTile,
    NumberOrI4Tile,
    SourceToResultOp,
    TileOf,
    same_element_type,
    same_rank,
)

# --------------------------------------------------------------------------
# Tile creation
# --------------------------------------------------------------------------


def _flatten(values: object) -> Iterator[int | float | bool]:
    """The numbers of a (possibly nested) sequence, in order."""
    if isinstance(values, (int, float, bool)):
        yield values
        return
    assert isinstance(values, Sequence)
    for v in values:
        yield from _flatten(v)


ConstantTile = TileOf(f"tile of {CONSTANT_ELEMENTS} values", is_constant_element)


@irdl_op_definition
class ConstantOp(CudaTileOp, HasFolderInterface):
    """A tile whose elements are the literal ``value``."""

    name = "cuda_tile.constant"
    value = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(ConstantTile)
    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, value: DenseIntOrFPElementsAttr, result_type: TileType):
        super().__init__(result_types=[result_type], properties={"value": value})

    @classmethod
    def from_values(cls, tile_type: TileType, values: object) -> ConstantOp:
        """A constant from Python numbers: one (a splat), or every element.

        ``values`` may be flat or nested like the tile; floats are rounded to
        the element type to nearest-even, integers wrap to its width.
        """
        flat = list(_flatten(values))
        if len(flat) not in (1, tile_type.num_elements):
            raise ValueError(
                f"{len(flat)} values for a tile of {tile_type.num_elements} elements"
            )
        data = encode_values(tile_type.element_type, flat)
        if len(flat) == 1:
            data *= tile_type.num_elements
        return cls(dense_value(tile_type, data), tile_type)

    @classmethod
    def splat(cls, tile_type: TileType, value: int | float | bool) -> ConstantOp:
        """A tile with every element equal to ``value``."""
        return cls.from_values(tile_type, [value])

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        value, result_type = parse_dense_literal(parser)
        op = cls(value, result_type)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        t = self.result.type
        assert isinstance(t, TileType)
        printer.print_string(" <")
        printer.print_attribute(t.element_type)
        printer.print_string(": " + format_dense_values(self.value, t.shape) + "> : ")
        printer.print_attribute(t)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        t = self.result.type
        v = self.value.type
        assert isinstance(t, TileType)
        if not (
            isinstance(v, TensorType)
            and v.get_element_type() == t.element_type
            and tuple(v.get_shape()) == t.shape
            and len(self.value.data.data) == t.num_elements * storage_bytes(t.element_type)
        ):
            raise VerifyException("failed to verify that all of {value, result} have same type")

    def fold(self) -> tuple[Attribute]:
        return (self.value,)


@irdl_op_definition
class IotaOp(CudaTileOp):
    """The 1-d tile ``[0, 1, ..., n - 1]`` (values read as unsigned)."""

    name = "cuda_tile.iota"
    result = result_def(IntTile)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: TileType):
        super().__init__(result_types=[result_type])

    def verify_(self) -> None:
        t = self.result.type
        assert isinstance(t, TileType)
        if t.rank != 1:
            raise VerifyException("expects result type to be 1-d tile")
        width = int_width(t.element_type)
        assert width is not None
        if width < 64 and t.shape[0] > 1 << width:
            raise VerifyException(
                f"the number of elements {t.shape[0]} exceeds the maximum value of "
                f"element type {quoted(t.element_type)}"
            )


class _SourceToResult(SourceToResultOp):
    """A shape op ``op %source : A -> B``."""

    def _same_element_type(self) -> None:
        """``SameOperandsAndResultElementType``."""
        s, r = self._types()
        if s.element_type != r.element_type:
            raise VerifyException(
                "requires the same element type for all operands and results"
            )


@irdl_op_definition
class ReshapeOp(_SourceToResult):
    """The same elements, in row-major order, under a new shape."""

    name = "cuda_tile.reshape"

    def verify_(self) -> None:
        self._same_element_type()
        s, r = self._types()
        if s.num_elements != r.num_elements:
            raise VerifyException(
                "expected source tile and result tile to have the same number of elements"
            )


@irdl_op_definition
class BroadcastOp(_SourceToResult):
    """Stretches each size-1 dimension of ``source`` to the result's size."""

    name = "cuda_tile.broadcast"

    def verify_(self) -> None:
        self._same_element_type()
        s, r = self._types()
        same_rank("source, result", s, r)
        if any(a != b and a != 1 for a, b in zip(s.shape, r.shape)):
            raise VerifyException(
                "expects the shape of source tile to be compatible with that of the "
                f"result tile, but got: {shape_text(s.shape)} and {shape_text(r.shape)}"
            )


@irdl_op_definition
class PermuteOp(_SourceToResult):
    """Reorders the dimensions: result dimension ``i`` is source dimension ``permutation[i]``."""

    name = "cuda_tile.permute"
    permutation = prop_def(DenseArrayBase.constr(I32))
    assembly_format = (
        "$source $permutation attr-dict `:` type($source) `->` type($result)"
    )

    def __init__(self, source: SSAValue, permutation: Sequence[int], result_type: TileType):
        super().__init__(source, result_type)
        self.properties["permutation"] = DenseArrayBase.from_list(i32, permutation)

    def verify_(self) -> None:
        s, r = self._types()
        same_element_type("source, result", s, r)
        same_rank("source, result", s, r)
        perm = self.permutation.get_values()
        if s.rank < 2:
            raise VerifyException(f"expects at least rank 2, but got: {s.rank}")
        if len(perm) != s.rank:
            raise VerifyException(
                f"expect permutation size ({len(perm)}) to equal the rank of the "
                f"source ({s.rank})"
            )
        if len(set(perm)) != len(perm):
            raise VerifyException("expect permutation elements to be unique")
        for i, p in enumerate(perm):
            if not 0 <= p < s.rank:
                raise VerifyException(
                    f"permutation element at index {i} ({p}) is out of bound [0, {s.rank})"
                )
        for i, p in enumerate(perm):
            if r.shape[i] != s.shape[p]:
                raise VerifyException(
                    f"result shape invalid at index {i}, expected: {s.shape[p]}, but "
                    f"got: {r.shape[i]}"
                )


@irdl_op_definition
class CatOp(CudaTileOp):
    """Concatenates ``lhs`` and ``rhs`` along dimension ``dim``."""

    name = "cuda_tile.cat"
    lhs = operand_def(AnyTile)
    rhs = operand_def(AnyTile)
    result = result_def(AnyTile)
    dim = prop_def(IntegerAttr[I64])
    traits = traits_def(Pure())
    assembly_format = (
        "$lhs `,` $rhs `dim` `=` $dim attr-dict `:` type($lhs) `,` type($rhs) "
        "`->` type($result)"
    )

    def __init__(self, lhs: SSAValue, rhs: SSAValue, dim: int, result_type: TileType):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type],
            properties={"dim": IntegerAttr(dim, 64)},
        )

    def verify_(self) -> None:
        lhs, rhs, res = self.lhs.type, self.rhs.type, self.result.type
        assert isinstance(lhs, TileType) and isinstance(rhs, TileType)
        assert isinstance(res, TileType)
        same_rank("lhs, rhs, result", lhs, rhs, res)
        same_element_type("lhs, rhs, result", lhs, rhs, res)
        dim = self.dim.value.data
        if not 0 <= dim < lhs.rank:
            raise VerifyException(f"expect dim to be [0, {lhs.rank}), but got: {dim}")
        if lhs.shape[dim] + rhs.shape[dim] != res.shape[dim]:
            raise VerifyException(
                f"invalid concat at position {dim}, expected: "
                f"{lhs.shape[dim] + rhs.shape[dim]} but got: {res.shape[dim]}"
            )
        for i in range(lhs.rank):
            if i == dim:
                continue
            for other, name in ((rhs, "rhs"), (res, "result")):
                if lhs.shape[i] != other.shape[i]:
                    raise VerifyException(
                        f"expect lhs and {name} shapes to match at non-concat position "
                        f"{i}, expected: {lhs.shape[i]} but got: {other.shape[i]}"
                    )


def _verify_subtile(
    whole: TileType, part: TileType, index_count: int, whole_name: str, part_name: str
) -> None:
    """``extract``/``insert``: ``part`` evenly tiles ``whole``; one index per dim."""
    if part.element_type != whole.element_type:
        raise VerifyException("source and result element type do not match")
    if part.rank != whole.rank:
        raise VerifyException("source and result must have the same rank")
    for i, (w, p) in enumerate(zip(whole.shape, part.shape)):
        if w % p:
            raise VerifyException(
                f"{whole_name} dimension {i} size ({w}) must be evenly divisible by "
                f"{part_name} dimension {i} size ({p})"
            )
    if index_count != whole.rank:
        raise VerifyException(f"expected {whole.rank} indices, but got {index_count}")


@irdl_op_definition
class ExtractOp(CudaTileOp):
    """The subtile at grid position ``indices`` (a subtile index, not an offset)."""

    name = "cuda_tile.extract"
    source = operand_def(AnyTile)
    indices = var_operand_def(I32Index)
    result = result_def(AnyTile)
    traits = traits_def(Pure())
    assembly_format = (
        "$source `[` $indices `]` attr-dict `:` type($source) `->` type($result)"
    )

    def __init__(self, source: SSAValue, indices: Sequence[SSAValue], result_type: TileType):
        super().__init__(operands=[source, indices], result_types=[result_type])

    def verify_(self) -> None:
        s, r = self.source.type, self.result.type
        assert isinstance(s, TileType) and isinstance(r, TileType)
        same_rank("source, result", s, r)
        _verify_subtile(s, r, len(self.indices), "source", "result")


@irdl_op_definition
class InsertOp(CudaTileOp):
    """``destination`` with the subtile at grid position ``indices`` replaced by ``source`` (13.4)."""

    name = "cuda_tile.insert"
    SINCE: ClassVar[str] = "13.4"
    T: ClassVar = VarConstraint("T", AnyTile)
    source = operand_def(AnyTile)
    destination = operand_def(T)
    indices = var_operand_def(I32Index)
    result = result_def(T)
    traits = traits_def(Pure())
    assembly_format = (
        "$source `,` $destination `[` $indices `]` attr-dict `:` type($source) `,` "
        "type($destination)"
    )

    def __init__(self, source: SSAValue, destination: SSAValue, indices: Sequence[SSAValue]):
        super().__init__(
            operands=[source, destination, indices], result_types=[destination.type]
        )

    def verify_(self) -> None:
        s, d = self.source.type, self.destination.type
        assert isinstance(s, TileType) and isinstance(d, TileType)
        _verify_subtile(d, s, len(self.indices), "result", "source")


def _verify_pack(source: TileType, result: TileType) -> None:
    """``verifyPackUnpackTypes``: rank-1 tiles of the same size in bytes."""
    same_rank("source, result", source, result)
    if source.rank != 1:
        raise VerifyException("expects source and result to be rank-1 tiles")
    if element_width(source.element_type) == element_width(result.element_type):
        raise VerifyException(
            "expects source and result to have different element type widths"
        )

    def size_in_bits(t: TileType) -> int:
        # A tf32 element occupies 32 bits of storage; i1 elements pack to bits.
        e = t.element_type
        return (32 if isinstance(e, FloatTF32Type) else element_width(e)) * t.num_elements

    source_bits, result_bits = size_in_bits(source), size_in_bits(result)
    if source_bits % 8:
        raise VerifyException("expects source tile to be byte-aligned")
    if result_bits % 8:
        raise VerifyException("expects result tile to be byte-aligned")
    if source_bits != result_bits:
        raise VerifyException(
            "expects source and result to have the same size in bytes, but got source "
            f"tile size {source_bits // 8} bytes and result tile size "
            f"{result_bits // 8} bytes"
        )


@irdl_op_definition
class PackOp(_SourceToResult):
    """The bytes of a rank-1 numeric tile, as a ``tile<Nxi8>`` (13.3)."""

    name = "cuda_tile.pack"
    SINCE: ClassVar[str] = "13.3"
    source = operand_def(NumberOrI4Tile)
    result = result_def(I8Tile)

    def verify_(self) -> None:
        _verify_pack(*self._types())


@irdl_op_definition
class UnpackOp(_SourceToResult):
    """A ``tile<Nxi8>`` reinterpreted as a rank-1 numeric tile (13.3)."""

    name = "cuda_tile.unpack"
    SINCE: ClassVar[str] = "13.3"
    source = operand_def(I8Tile)
    result = result_def(NumberOrI4Tile)

    def verify_(self) -> None:
        _verify_pack(*self._types())
