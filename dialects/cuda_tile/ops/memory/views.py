"""Views: ``make_tensor_view`` over a base pointer, the tiled views cut from it
(``make_partition_view``, ``make_strided_view``, ``make_gather_scatter_view``),
and the shape queries ``get_tensor_shape`` / ``get_index_space_shape``."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import ClassVar, NamedTuple, Self

from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException

from ...attributes import PointerKindAttr
from ...diagnostics import quoted
from ...types import (
    DYNAMIC,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
    TileViewType,
)
from .._common import TypeOf, CudaTileOp, ScalarIntTile, ScalarPointerTile
from ._common import AnyTileView


TensorView = TypeOf("tensor view type", TensorViewType)
PartitionView = TypeOf("partition view type", PartitionViewType)
StridedView = TypeOf("strided view type", StridedViewType)
GatherScatterView = TypeOf("gather/scatter view type", GatherScatterViewType)


# The ptr_attr rules of 13.5.37's verifiers (docs/bytecode.md, "Tile IR 13.5").


def _verify_kept_pointer_kind(base: PointerKindAttr | None, view: PointerKindAttr | None) -> None:
    """``make_tensor_view``: the view has its base pointer's ``ptr_attr``, or neither has one."""
    if base is not None and view is None:
        raise VerifyException(f"tensor_view must preserve ptr_attr from base pointer ({base})")
    if base is None and view is not None:
        raise VerifyException(
            "pointer base without ptr_attr cannot produce tensor_view with ptr_attr"
        )
    if base != view:
        raise VerifyException(
            f"ptr_attr mismatch between base pointer ({base}) and result tensor_view ({view})"
        )


# --------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------


class _DeclaredList(NamedTuple):
    """A ``shape = [...]`` or ``strides = [...]`` list as written in the op."""

    dims: list[int]
    """Each entry, ``DYNAMIC`` where an SSA value is written."""
    positions: list[int]
    values: list[UnresolvedOperand]
    pos: int


def _parse_declared_list(parser: Parser, keyword: str) -> _DeclaredList:
    """``keyword = [entry, ...]``, each entry an integer or an SSA value."""
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    declared = _DeclaredList([], [], [], parser.pos)

    def entry() -> None:
        pos = parser.pos
        declared.positions.append(pos)
        if (n := parser.parse_optional_integer(allow_boolean=False)) is not None:
            declared.dims.append(n)
        elif (v := parser.parse_optional_unresolved_operand()) is not None:
            declared.dims.append(DYNAMIC)
            declared.values.append(v)
        else:
            parser.raise_error("expected either integer or SSA value", pos)

    parser.parse_comma_separated_list(parser.Delimiter.SQUARE, entry)
    return declared


def _check_declared(
    parser: Parser, what: str, declared: _DeclaredList, expected: Sequence[int]
) -> None:
    """The shape/stride written in the op must be the one of the result type."""
    if len(declared.dims) != len(expected):
        parser.raise_error(
            f"expected {what} declaration to contain {len(expected)} elements due to "
            f"tensor_view type, but {len(declared.dims)} were provided",
            declared.pos,
        )
    for i, (d, e, pos) in enumerate(zip(declared.dims, expected, declared.positions)):
        if d != e:
            parser.raise_error(
                f"input {what} dimension {i} does not match tensor_view type "
                f"(expected {_fmt_dim(e)}, got {_fmt_dim(d)})",
                pos,
            )


def _fmt_dim(d: int) -> str:
    return "dynamic" if d == DYNAMIC else str(d)


def _print_declared_list(
    printer: Printer, dims: Sequence[int], values: Sequence[SSAValue]
) -> None:
    dynamic = iter(values)
    printer.print_string("[")
    for i, d in enumerate(dims):
        if i:
            printer.print_string(", ")
        if d == DYNAMIC:
            printer.print_operand(next(dynamic))
        else:
            printer.print_string(str(d))
    printer.print_string("]")


@irdl_op_definition
class MakeTensorViewOp(CudaTileOp):
    """Creates a ``tensor_view`` from a base pointer and (partly dynamic) shape and strides."""

    name = "cuda_tile.make_tensor_view"
    base = operand_def(ScalarPointerTile)
    dynamic_shape = var_operand_def(ScalarIntTile)
    dynamic_strides = var_operand_def(ScalarIntTile)
    result = result_def(TensorView)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(NoMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        base = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        shape = _parse_declared_list(parser, "shape")
        parser.parse_punctuation(",")
        strides = _parse_declared_list(parser, "strides")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        # A base pointer with a ptr_attr is written first (13.5's tools print
        # it so), then a comma; all dynamic values share one type, written
        # before the view (a pointer tile there is a wrong index type, for
        # the verifier to name).
        base_type = index_type = None
        if shape.values or strides.values:
            index_type = parser.parse_type()
            if _is_pointer_tile(index_type) and parser.parse_optional_punctuation(",") is not None:
                base_type = index_type
                index_type = parser.parse_type()
            parser.parse_punctuation("->")
        pos = parser.pos
        view = parser.parse_type()
        if base_type is None and _is_pointer_tile(view):
            base_type = view
            parser.parse_punctuation("->")
            pos = parser.pos
            view = parser.parse_type()
        if not isinstance(view, TensorViewType):
            parser.raise_error(f"expected 'tensor_view' type, but got {quoted(view)}", pos)
        base_value = parser.resolve_operand(
            base, base_type or TileType((), PointerType(view.element_type))
        )
        _check_declared(parser, "shape", shape, view.shape)
        _check_declared(parser, "stride", strides, view.strides)
        op = cls.build(
            operands=[
                base_value,
                [parser.resolve_operand(v, index_type) for v in shape.values],
                [parser.resolve_operand(v, index_type) for v in strides.values],
            ]
            if index_type is not None
            else [base_value, [], []],
            result_types=[view],
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        view = self.result.type
        printer.print_string(" ")
        printer.print_operand(self.base)
        printer.print_string(", shape = ")
        _print_declared_list(printer, view.shape, self.dynamic_shape)
        printer.print_string(", strides = ")
        _print_declared_list(printer, view.strides, self.dynamic_strides)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        dynamic = (*self.dynamic_shape, *self.dynamic_strides)
        types = [dynamic[0].type] if dynamic else []
        if self.base.type != TileType((), PointerType(view.element_type)):
            types.insert(0, self.base.type)
        for t in types:
            printer.print_attribute(t)
            printer.print_string(", " if t is not types[-1] else " -> ")
        printer.print_attribute(view)

    def verify_(self) -> None:
        view = self.result.type
        pointer = self.base.type
        assert isinstance(pointer, TileType) and isinstance(pointer.element_type, PointerType)
        pointee = pointer.element_type.pointee
        if view.element_type != pointee:
            raise VerifyException(
                f"expected pointer to {quoted(view.element_type)} to build tensor_view of "
                f"this type, got {quoted(pointee)}"
            )
        _verify_kept_pointer_kind(pointer.element_type.kind, view.kind)
        for what, count, values in (
            ("shape", view.dynamic_shape_count(), self.dynamic_shape),
            ("stride", view.dynamic_stride_count(), self.dynamic_strides),
        ):
            if count != len(values):
                raise VerifyException(
                    f"expected {count} dynamic {what} operands, got {len(values)}"
                )
        dynamic_values = (*self.dynamic_shape, *self.dynamic_strides)
        for what, values in (("shape", self.dynamic_shape), ("stride", self.dynamic_strides)):
            for i, v in enumerate(values):
                if v.type != dynamic_values[0].type:
                    raise VerifyException(
                        f"expected dynamic {what} index {i} to be of the same type as "
                        f"the other dynamic values ({quoted(dynamic_values[0].type)}), got "
                        f"{quoted(v.type)}"
                    )


def _is_pointer_tile(t: Attribute) -> bool:
    return isinstance(t, TileType) and isinstance(t.element_type, PointerType)


class MakeViewOp(CudaTileOp):
    """``make_*_view %tensor_view : VIEW``: the view type says how tiles are cut."""

    VIEW: ClassVar[type[TileViewType]]
    tensor_view = operand_def(TensorView)
    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        source = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        view = parser.parse_type()
        if not isinstance(view, cls.VIEW):
            mnemonic = cls.VIEW.name.removeprefix("cuda_tile.")
            parser.raise_error(f"expected '{mnemonic}' type, but got {quoted(view)}", pos)
        op = cls.build(
            operands=[parser.resolve_operand(source, view.tensor_view)],
            result_types=[view],
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensor_view)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.results[0].type)

    def verify_(self) -> None:
        view = self.results[0].type
        assert isinstance(view, TileViewType)
        if self.tensor_view.type != view.tensor_view:
            raise VerifyException(
                "expected the type of the provided tensor_view value "
                f"({quoted(self.tensor_view.type)}) to be the same as the view's "
                f"tensor_view type ({quoted(view.tensor_view)})"
            )


@irdl_op_definition
class MakePartitionViewOp(MakeViewOp):
    """Cuts a tensor view into a grid of equally sized tiles."""

    name = "cuda_tile.make_partition_view"
    VIEW: ClassVar[type[TileViewType]] = PartitionViewType
    result = result_def(PartitionView)


@irdl_op_definition
class MakeStridedViewOp(MakeViewOp):
    """Cuts a tensor view into tiles that start every ``traversal_strides`` elements."""

    name = "cuda_tile.make_strided_view"
    SINCE: ClassVar[str] = "13.3"
    VIEW: ClassVar[type[TileViewType]] = StridedViewType
    result = result_def(StridedView)


@irdl_op_definition
class MakeGatherScatterViewOp(MakeViewOp):
    """Makes a view whose ``sparse_dim`` is indexed by a tile of row indices."""

    name = "cuda_tile.make_gather_scatter_view"
    SINCE: ClassVar[str] = "13.3"
    VIEW: ClassVar[type[TileViewType]] = GatherScatterViewType
    result = result_def(GatherScatterView)


class _ShapeQueryOp(CudaTileOp):
    """``get_*_shape %src : SRC -> tile<iN>``: one scalar result per dimension."""

    SOURCE: ClassVar[str]
    result = var_result_def(ScalarIntTile)
    traits = traits_def(NoMemoryEffect())

    @classmethod
    @abstractmethod
    def _rank(cls, source: Attribute) -> int | None:
        """The number of results for ``source``, or None if it is not accepted."""

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        pos = parser.pos
        src_type = parser.parse_type()
        rank = cls._rank(src_type)
        if rank is None:
            parser.raise_error(f"expected {cls.SOURCE}, got {quoted(src_type)}", pos)
        result_type = None
        if parser.parse_optional_punctuation("->") is not None:
            result_type = parser.parse_type()
        elif rank:  # only a 0-d source (no results) may leave the result type out
            parser.parse_punctuation("->")
        return cls.build(
            operands=[parser.resolve_operand(src, src_type)],
            result_types=[[result_type] * rank],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        printer.print_string(" : ")
        printer.print_attribute(self.operands[0].type)
        if self.results:
            printer.print_string(" -> ")
            printer.print_attribute(self.results[0].type)


@irdl_op_definition
class GetTensorShapeOp(_ShapeQueryOp):
    """The shape of a tensor view, one scalar per dimension."""

    name = "cuda_tile.get_tensor_shape"
    SOURCE: ClassVar[str] = "tensor_view"
    src = operand_def(TensorView)

    @classmethod
    def _rank(cls, source: Attribute) -> int | None:
        return source.rank if isinstance(source, TensorViewType) else None

    def verify_(self) -> None:
        rank = self.src.type.rank
        if len(self.result) != rank:
            raise VerifyException(
                f"expected {rank} results due to tensor rank, but got {len(self.result)}"
            )


@irdl_op_definition
class GetIndexSpaceShapeOp(_ShapeQueryOp):
    """The number of tiles of a view along each index dimension."""

    name = "cuda_tile.get_index_space_shape"
    SOURCE: ClassVar[str] = "tile view"
    src = operand_def(AnyTileView)

    @classmethod
    def _rank(cls, source: Attribute) -> int | None:
        return source.index_rank() if isinstance(source, TileViewType) else None

    def verify_(self) -> None:
        view = self.src.type
        assert isinstance(view, TileViewType)
        if len(self.result) != view.index_rank():
            raise VerifyException(
                f"expected {view.index_rank()} results due to view index space rank, "
                f"but got {len(self.result)}"
            )
