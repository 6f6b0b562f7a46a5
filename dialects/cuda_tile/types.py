"""Types of the ``cuda_tile`` dialect (NVIDIA Tile IR 13.4, ``Types.td``).

Every value in Tile IR is a tile (a 0-d tile is a scalar), a view of global
memory, or a token.  The classes here mirror NVIDIA's type definitions: same
parameters, same textual syntax, same verifier messages.

Textual forms.  Inside a ``cuda_tile.module`` NVIDIA's tools write types without
the dialect prefix (``tile<4xptr<f32>>``); outside it they are fully qualified
(``!cuda_tile.tile<4x!cuda_tile.ptr<f32>>``).  ``parse_tile_ir_type`` accepts
both spellings anywhere; which one is printed is decided by the printer
(see ``syntax.TileIRPrinter``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatTF32Type,
    IntAttr,
    IntegerType,
    NoneAttr,
    Signedness,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition, param_def
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from .attributes import PaddingValue, PaddingValueAttr, PointerKind, PointerKindAttr
from .diagnostics import quoted

DYNAMIC = -1
"""Marker for a dynamic (``?``) dimension or stride of a ``tensor_view``."""

MAX_TILE_ELEMENTS = 16777216
"""Largest number of elements a tile may hold (``maxTileNumElements``)."""

INT32_MAX = 2**31 - 1


class CudaTileType(TypeAttribute):
    """Marker base of every type defined by the ``cuda_tile`` dialect.

    ``SINCE`` is the Tile IR version that introduced the type; the bytecode
    writer refuses to emit a type newer than the requested version.
    """

    SINCE: ClassVar[str] = "13.1"

    @property
    def mnemonic(self) -> str:
        return self.name.removeprefix("cuda_tile.")


# --------------------------------------------------------------------------
# Element types
# --------------------------------------------------------------------------


@irdl_attr_definition
class Float8E5M3FNUType(ParametrizedAttribute, CudaTileType):
    """``fnv8E5M3FNU``: 8-bit unsigned float used as an ``mmaf_scaled`` block scale.

    Developer preview in 13.4.  NVIDIA's 13.4 tools print it ``fnv8E5M3FNU``
    (the release notes also say ``f8E5M3FNU``; both spellings parse).  xDSL's
    builtin dialect has no such type, so it lives here; inside a module it is
    spelled bare like the builtin floats.
    """

    name = "cuda_tile.fnv8E5M3FNU"
    SINCE: ClassVar[str] = "13.4"

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return _no_parameters(parser, cls)

    def print_parameters(self, printer: Printer) -> None:
        return


INTEGER_WIDTHS = (1, 8, 16, 32, 64)
"""Widths of ``CudaTile_AnyInt``; integers are signless.  ``i4`` (13.3) is a
tile element type only: no arithmetic, pointer or tensor_view takes it."""

FLOAT_TYPES: tuple[type[Attribute], ...] = (
    Float16Type,
    BFloat16Type,
    Float32Type,
    FloatTF32Type,
    Float64Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float4E2M1FNType,
    Float8E5M3FNUType,
)
"""Floating-point element types, in ``Types.td`` order."""

ELEMENT_TYPE_SINCE: dict[str, str] = {
    "i4": "13.3",
    "f8E8M0FNU": "13.2",
    "f4E2M1FN": "13.3",
    "fnv8E5M3FNU": "13.4",
}
"""Element types newer than 13.1, by their textual spelling."""


def is_int(t: Attribute) -> bool:
    return (
        isinstance(t, IntegerType)
        and t.signedness.data == Signedness.SIGNLESS
        and t.width.data in INTEGER_WIDTHS
    )


def is_int_or_i4(t: Attribute) -> bool:
    """An integer element type, or the storage-only ``i4``."""
    return is_int(t) or t == IntegerType(4)


def int_width(t: Attribute) -> int | None:
    """The width of an integer element type (``i4`` included), else None."""
    return t.width.data if isinstance(t, IntegerType) and is_int_or_i4(t) else None


def is_float(t: Attribute) -> bool:
    return isinstance(t, FLOAT_TYPES)


def is_base_float(t: Attribute) -> bool:
    """``CudaTile_BaseFloatTileType``'s elements: f16, bf16, f32, f64 (arithmetic floats)."""
    return isinstance(t, Float16Type | BFloat16Type | Float32Type | Float64Type)


def is_number(t: Attribute) -> bool:
    return is_int(t) or is_float(t)


_NUMBER_TYPES = (
    "f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or "
    "f4E2M1FN or fnv8E5M3FNU or i1 or i8 or i16 or i32 or i64"
)
"""What NVIDIA's 13.4 tools list for ``CudaTile_NumberType`` in diagnostics."""


def is_tile_element(t: Attribute) -> bool:
    """``CudaTile_TileElementType``: a number, a pointer, or ``i4``."""
    return is_int_or_i4(t) or is_float(t) or isinstance(t, PointerType)


def element_type_of(t: Attribute) -> Attribute:
    """Element type of a tile, or the type itself for a non-tile."""
    return t.element_type if isinstance(t, TileType) else t


# --------------------------------------------------------------------------
# Shared parsing and printing helpers
# --------------------------------------------------------------------------

BARE_TYPE_NAMES: dict[str, type[CudaTileType]] = {}


def _register_bare(cls: type[CudaTileType]) -> type[CudaTileType]:
    BARE_TYPE_NAMES[cls.name.removeprefix("cuda_tile.")] = cls
    return cls


def parse_optional_bare_type(parser: AttrParser) -> Attribute | None:
    """Parse a ``cuda_tile`` type written without its ``!cuda_tile.`` prefix."""
    name = parser.parse_optional_keyword_in(BARE_TYPE_NAMES)
    if name is None:
        return None
    cls = BARE_TYPE_NAMES[name]
    return cls.new(cls.parse_parameters(parser))


def parse_tile_ir_type(parser: AttrParser) -> Attribute:
    """Parse a type in either spelling (bare inside a module, or qualified)."""
    if (t := parse_optional_bare_type(parser)) is not None:
        return t
    return parser.parse_type()


def _no_parameters(parser: AttrParser, cls: type[CudaTileType]) -> list[Attribute]:
    """Parameters of a type that takes none: refuse a ``<...>`` after it."""
    pos = parser.pos
    if parser.parse_optional_punctuation("<") is not None:
        name = cls.name.removeprefix("cuda_tile.")
        parser.raise_error(f"type '{name}' takes no parameters", pos)
    return []


def parse_dims(parser: AttrParser, allow_dynamic: bool) -> list[int]:
    """Parse ``AxBx...x`` (each followed by ``x``) in front of an element type."""
    dims: list[int] = []
    while True:
        pos = parser.pos
        if parser.parse_optional_punctuation("?") is not None:
            if not allow_dynamic:
                parser.raise_error("expected static shape", pos)
            dims.append(DYNAMIC)
        elif (d := parse_optional_dimension(parser)) is not None:
            dims.append(d)
        else:
            return dims
        if parser._parse_optional_shape_delimiter() is None:  # pyright: ignore[reportPrivateUsage]
            parser.raise_error("expected 'x' after a dimension", pos, parser.pos)


def parse_optional_dimension(parser: AttrParser) -> int | None:
    """One dimension of a shape, read as MLIR reads it.

    In a shape ``0x10`` is the dimension ``0``, then the delimiter ``x`` and
    the dimension ``10`` (MLIR's ``parseIntegerInDimensionList``): the lexer's
    hex literal would silently turn ``4x0x10`` into ``4x16``.  As in MLIR's
    ``parseDimensionList``, only an integer literal is a dimension: a ``-``
    ends the list (``tile<1x-1xf32>`` then expects its element type there).
    """
    if parser._current_token.kind == MLIRTokenKind.INTEGER_LIT:  # pyright: ignore[reportPrivateUsage]
        return parser.parse_shape_dimension(allow_dynamic=False)
    return None


def print_dims(printer: Printer, dims: Sequence[int]) -> None:
    for d in dims:
        printer.print_string(("?" if d == DYNAMIC else str(d)) + "x")


def _parse_int_list(parser: AttrParser, allow_dynamic: bool) -> list[int]:
    def elem() -> int:
        if allow_dynamic and parser.parse_optional_punctuation("?") is not None:
            return DYNAMIC
        pos = parser.pos
        if (n := parser.parse_optional_integer(allow_boolean=False)) is None:
            parser.raise_error(
                "expected either 64-bit integer or question mark"
                if allow_dynamic
                else "expected integer value",
                pos,
            )
        return n

    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, elem)


def _fmt_list(values: Sequence[int], sep: str = ", ") -> str:
    return sep.join("?" if v == DYNAMIC else str(v) for v in values)


def _ints(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    return ArrayAttr(IntAttr(v) for v in values)


def _values(ints: ArrayAttr[IntAttr]) -> tuple[int, ...]:
    """The integers of an ``_ints`` parameter."""
    return tuple(d.data for d in ints.data)


def verify_tile_size(shape: Sequence[int]) -> None:
    """NVIDIA's ``verifyTileSize``: positive power-of-two dims, bounded size."""
    elems = 1
    for d in shape:
        if d <= 0:
            raise VerifyException(
                f"all dimensions must be positive constants, got {_fmt_list(shape)}"
            )
        if d & (d - 1):
            raise VerifyException(
                f"all dimensions must be powers of two, got {_fmt_list(shape)}"
            )
        if elems > MAX_TILE_ELEMENTS // d:
            raise VerifyException(
                f"tile would exceed the maximum of {MAX_TILE_ELEMENTS} elements"
            )
        elems *= d


# --------------------------------------------------------------------------
# ptr, tile, token
# --------------------------------------------------------------------------


@_register_bare
@irdl_attr_definition
class PointerType(ParametrizedAttribute, CudaTileType):
    """``ptr<E>`` or ``ptr<E, <kind>>``: a global-memory pointer to numbers of type ``E``.

    The ``ptr_attr`` (13.4; cases ``unicast`` and ``multicast`` since 13.5) is
    printed stripped (``<multicast>``) as NVIDIA's tools print it; the qualified
    ``#cuda_tile.ptr_attr<multicast>`` parses too.
    """

    name = "cuda_tile.ptr"
    pointee: Attribute = param_def()
    ptr_attr: Attribute = param_def()
    """A ``PointerKindAttr``, or ``NoneAttr`` when the type has none."""

    def __init__(self, pointee: Attribute, kind: PointerKindAttr | None = None):
        super().__init__(pointee, NoneAttr() if kind is None else kind)

    @property
    def kind(self) -> PointerKindAttr | None:
        return self.ptr_attr if isinstance(self.ptr_attr, PointerKindAttr) else None

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            pointee = parse_tile_ir_type(parser)
            kind: Attribute = NoneAttr()
            if parser.parse_optional_punctuation(",") is not None:
                kind = _parse_pointer_kind(parser, stripped=True)
        return [pointee, kind]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.pointee)
            if self.kind is not None:
                printer.print_string(f", <{self.kind.data.value}>")

    def verify(self) -> None:
        if not is_number(self.pointee):
            raise VerifyException(f"failed to verify 'pointeeType': {_NUMBER_TYPES}")
        _verify_pointer_kind(self.ptr_attr)


def _parse_pointer_kind(parser: AttrParser, stripped: bool) -> PointerKindAttr:
    """``#cuda_tile.ptr_attr<kind>``, or (``stripped``) also ``<kind>``."""
    pos = parser.pos
    if stripped and parser.parse_optional_characters("<") is not None:
        kind = parser.parse_str_enum(PointerKind)
        parser.parse_punctuation(">")
        return PointerKindAttr(kind)
    return _as_pointer_kind(parser, parser.parse_attribute(), pos)


def _as_pointer_kind(parser: AttrParser, attr: Attribute, pos: int) -> PointerKindAttr:
    if not isinstance(attr, PointerKindAttr):
        parser.raise_error(f"expected '#cuda_tile.ptr_attr<...>', got {quoted(attr)}", pos)
    return attr


def _verify_pointer_kind(attr: Attribute) -> None:
    if not isinstance(attr, PointerKindAttr | NoneAttr):
        raise VerifyException(f"expected a '#cuda_tile.ptr_attr', got {quoted(attr)}")


def pointer_kind(t: Attribute) -> PointerKind | None:
    """The ``ptr_attr`` case of a ``ptr``, a tile of them or a ``tensor_view`` (None: none)."""
    if isinstance(t, TileType):
        t = t.element_type
    kind = getattr(t, "kind", None)
    return kind.data if isinstance(kind, PointerKindAttr) else None


_TILE_TYPES: dict[tuple[tuple[int, ...], Attribute], TileType] = {}
"""``TileType(shape, element_type)`` made so far, by its arguments (``TileType.__new__``)."""

_TILE_TYPES_LIMIT = 65_536


@_register_bare
@irdl_attr_definition
class TileType(ParametrizedAttribute, CudaTileType):
    """``tile<SHAPE x E>``: a statically shaped tile of numbers or pointers."""

    name = "cuda_tile.tile"
    shape_attr: ArrayAttr[IntAttr] = param_def()
    element_type: Attribute = param_def()

    def __new__(cls, shape: Sequence[int] | None = None, element_type: Attribute | None = None) -> TileType:
        # Uniqued, as MLIR uniques every type in its context: the compiler makes
        # the same few tile types tens of thousands of times, and each new one
        # builds and verifies its parameters (the interpreter tests' compiles
        # spent ~5% of their CPU so).  ``new``/copies call this with no arguments.
        if element_type is not None and shape is not None:
            known = _TILE_TYPES.get((tuple(shape), element_type))
            if known is not None:
                return known
        return super().__new__(cls)

    def __init__(self, shape: Sequence[int], element_type: Attribute):
        if "element_type" in self.__dict__:
            return  # a uniqued type: built and verified before
        super().__init__(_ints(shape), element_type)
        if len(_TILE_TYPES) >= _TILE_TYPES_LIMIT:
            _TILE_TYPES.clear()
        _TILE_TYPES[(tuple(shape), element_type)] = self

    @property
    def shape(self) -> tuple[int, ...]:
        return _values(self.shape_attr)

    @property
    def rank(self) -> int:
        return len(self.shape_attr.data)

    @property
    def num_elements(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            dims = parse_dims(parser, allow_dynamic=False)
            elem = parse_tile_ir_type(parser)
        return [_ints(dims), elem]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            print_dims(printer, self.shape)
            printer.print_attribute(self.element_type)

    def verify(self) -> None:
        elem = self.element_type
        if not is_tile_element(elem):
            raise VerifyException(
                f"failed to verify 'elementType': {_NUMBER_TYPES} or Pointer type or i4"
            )
        if isinstance(elem, Float4E2M1FNType) and (
            not self.shape or all(d % 2 for d in self.shape)
        ):
            raise VerifyException(
                "F4E2M1FN tiles must have an even number of elements"
            )
        verify_tile_size(self.shape)


@_register_bare
@irdl_attr_definition
class TokenType(ParametrizedAttribute, CudaTileType):
    """``token``: orders token-ordered (``_tko``) memory operations.

    Tokens are not runtime values; they carry ordering constraints only.
    """

    name = "cuda_tile.token"

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        return _no_parameters(parser, cls)

    def print_parameters(self, printer: Printer) -> None:
        return


# --------------------------------------------------------------------------
# tensor_view
# --------------------------------------------------------------------------


@_register_bare
@irdl_attr_definition
class TensorViewType(ParametrizedAttribute, CudaTileType):
    """``tensor_view<SHAPE x E, strides=[...]>``: a tensor in global memory.

    Shape and stride entries may be dynamic (``?``, stored as ``DYNAMIC``);
    dynamic values are operands of ``make_tensor_view``.
    """

    name = "cuda_tile.tensor_view"
    element_type: Attribute = param_def()
    shape_attr: ArrayAttr[IntAttr] = param_def()
    strides_attr: ArrayAttr[IntAttr] = param_def()
    ptr_attr: Attribute = param_def()
    """The ``ptr_attr`` of its base pointer (``PointerKindAttr``), or ``NoneAttr``;
    printed last, qualified: ``tensor_view<8xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>``."""

    def __init__(
        self,
        element_type: Attribute,
        shape: Sequence[int],
        strides: Sequence[int],
        kind: PointerKindAttr | None = None,
    ):
        super().__init__(
            element_type, _ints(shape), _ints(strides), NoneAttr() if kind is None else kind
        )

    @property
    def kind(self) -> PointerKindAttr | None:
        return self.ptr_attr if isinstance(self.ptr_attr, PointerKindAttr) else None

    @property
    def shape(self) -> tuple[int, ...]:
        return _values(self.shape_attr)

    @property
    def strides(self) -> tuple[int, ...]:
        return _values(self.strides_attr)

    @property
    def rank(self) -> int:
        return len(self.shape_attr.data)

    def dynamic_shape_count(self) -> int:
        return sum(d == DYNAMIC for d in self.shape)

    def dynamic_stride_count(self) -> int:
        return sum(s == DYNAMIC for s in self.strides)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            dims = parse_dims(parser, allow_dynamic=True)
            elem = parse_tile_ir_type(parser)
            strides: list[int] = []
            kind: Attribute = NoneAttr()
            if not dims:
                if parser.parse_optional_punctuation(",") is not None:
                    if parser.parse_optional_keyword("strides") is not None:
                        parser.raise_error("strides must not be provided for 0-d tiles")
                    pos = parser.pos
                    attr = parser.parse_optional_attribute()
                    if not isinstance(attr, PointerKindAttr):
                        parser.raise_error(
                            "unexpected token after element type in 0-d tensor_view", pos
                        )
                    kind = attr
            else:
                if parser.parse_optional_punctuation(",") is None:
                    parser.raise_error("expected 'strides'")
                parser.parse_keyword("strides")
                parser.parse_punctuation("=")
                pos = parser.pos
                strides = _parse_int_list(parser, allow_dynamic=True)
                for s in strides:
                    if s != DYNAMIC and s <= 0:
                        parser.raise_error(
                            f"expected strictly positive integer, got {s}", pos
                        )
                if parser.parse_optional_punctuation(",") is not None:
                    kind = _parse_pointer_kind(parser, stripped=False)
        return [elem, _ints(dims), _ints(strides), kind]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            print_dims(printer, self.shape)
            printer.print_attribute(self.element_type)
            if self.shape:
                printer.print_string(f", strides=[{_fmt_list(self.strides, ',')}]")
            if self.kind is not None:
                printer.print_string(f", #cuda_tile.ptr_attr<{self.kind.data.value}>")

    def verify(self) -> None:
        if not is_number(self.element_type):
            raise VerifyException(f"failed to verify 'elementType': {_NUMBER_TYPES}")
        _verify_pointer_kind(self.ptr_attr)
        shape, strides = self.shape, self.strides
        if len(shape) != len(strides):
            raise VerifyException(
                "expected shape and stride to be of same rank but got shape of "
                f"rank {len(shape)} and stride of rank {len(strides)}"
            )
        if any(d <= 0 and d != DYNAMIC for d in shape):
            raise VerifyException(
                "dimensions must have strictly positive constant sizes but got "
                f"[{_fmt_list(shape)}]"
            )
        if any(s <= 0 and s != DYNAMIC for s in strides):
            raise VerifyException(
                "dimensions must have strictly positive constant strides but got "
                f"[{_fmt_list(strides)}]"
            )


# --------------------------------------------------------------------------
# Tile views: partition_view, strided_view, gather_scatter_view
# --------------------------------------------------------------------------


def _parse_tile_shape(parser: AttrParser) -> list[int]:
    parser.parse_keyword("tile")
    parser.parse_punctuation("=")
    pos = parser.pos
    with parser.in_parens():
        dims: list[int] = []
        if (d := parse_optional_dimension(parser)) is not None:
            dims.append(d)
            while parser._parse_optional_shape_delimiter() is not None:  # pyright: ignore[reportPrivateUsage]
                if (d := parse_optional_dimension(parser)) is None:
                    parser.raise_error("expected integer value")
                dims.append(d)
    for i, v in enumerate(dims):
        if v <= 0 or v > INT32_MAX:
            parser.raise_error(
                f"tile dimension {i} exceeds i32 limitations (got {v}, expected "
                f"strictly positive and less than or equal to {INT32_MAX})",
                pos,
            )
    return dims


def _parse_optional_padding(parser: AttrParser) -> PaddingValueAttr | None:
    if parser.parse_optional_keyword("padding_value") is None:
        return None
    parser.parse_punctuation("=")
    pos = parser.pos
    word = parser.parse_identifier()
    try:
        value = PaddingValue(word)
    except ValueError:
        parser.raise_error(
            f'invalid padding_value attribute specification. Got "{word}" but '
            "expect one of: zero, neg_zero, nan, pos_inf, neg_inf",
            pos,
        )
    parser.parse_punctuation(",")
    return PaddingValueAttr(value)


def _parse_tensor_view(parser: AttrParser) -> TensorViewType:
    pos = parser.pos
    t = parse_tile_ir_type(parser)
    if not isinstance(t, TensorViewType):
        parser.raise_error(f"expected 'tensor_view' type, but got {quoted(t)}", pos)
    return t


def _parse_optional_dim_map(parser: AttrParser, rank: int) -> list[int]:
    if parser.parse_optional_punctuation(",") is None:
        return list(range(rank))
    parser.parse_keyword("dim_map")
    parser.parse_punctuation("=")
    return _parse_int_list(parser, allow_dynamic=False)


def _print_optional_dim_map(printer: Printer, dim_map: Sequence[int]) -> None:
    """``, dim_map=[...]``, left out when it is the identity."""
    if tuple(dim_map) != tuple(range(len(dim_map))):
        printer.print_string(f", dim_map=[{_fmt_list(dim_map)}]")


def _print_view_head(printer: Printer, tile_shape: Sequence[int]) -> None:
    printer.print_string("tile=(" + "x".join(map(str, tile_shape)) + "), ")


def _print_padding(printer: Printer, padding: PaddingValueAttr | None) -> None:
    if padding is not None:
        printer.print_string(f"padding_value = {padding.data.value}, ")


class TileViewType(CudaTileType):
    """A view that loads and stores whole tiles (the ``TileView`` interface).

    Every view type has the parameters ``tile_shape_attr``, ``tensor_view_type``
    and ``padding_value``; the accessors below read them.
    """

    if TYPE_CHECKING:  # declared by each subclass; annotations here would make
        # xDSL put these parameters first, before the subclass's own ones.
        tile_shape_attr: ArrayAttr[IntAttr]
        tensor_view_type: TensorViewType
        padding_value: Attribute

    @property
    def tile_shape(self) -> tuple[int, ...]:
        return _values(self.tile_shape_attr)

    @property
    def tensor_view(self) -> TensorViewType:
        return self.tensor_view_type

    @property
    def padding(self) -> PaddingValueAttr | None:
        """The padding for out-of-bounds loads, or None (unspecified values)."""
        p = self.padding_value
        return p if isinstance(p, PaddingValueAttr) else None

    def index_rank(self) -> int:
        return len(self.tile_shape)

    def tile_type(self) -> TileType:
        """The type of the tile a load through this view produces."""
        return TileType(self.tile_shape, self.tensor_view.element_type)

    def verify_indices(self, index_types: Sequence[Attribute]) -> None:
        """All indices are scalar tiles of one type (NVIDIA ``verifyIndices``)."""
        for t in index_types:
            _check_scalar_index(t)
        _check_same_index_types(index_types)


def _check_scalar_index(t: Attribute) -> None:
    if not isinstance(t, TileType):
        raise VerifyException(f"expected index type to be a tile type, got {quoted(t)}")
    if t.rank != 0:
        raise VerifyException(f"expected index type to be a scalar tile, got {quoted(t)}")


def _check_same_index_types(index_types: Sequence[Attribute]) -> None:
    for i, t in enumerate(index_types):
        if t != index_types[0]:
            raise VerifyException(
                f"expected index type {i} to be the same as other index types "
                f"({quoted(index_types[0])}), got {quoted(t)}"
            )


def _verify_view_like(
    tile_shape: Sequence[int],
    tensor_view: TensorViewType,
    dim_map: Sequence[int] | None,
    padding: PaddingValueAttr | None,
    sparse_dim: int | None = None,
) -> None:
    """NVIDIA's ``verifyPartitionViewLike`` (dim_map checks skipped if None).

    With ``sparse_dim`` it is ``GatherScatterViewType::verify`` instead.
    """
    if not tile_shape:
        raise VerifyException("0-dimension tile shape is not supported")
    if len(tile_shape) != tensor_view.rank:
        raise VerifyException(
            "expected tensor_view rank and tile rank to match, got tensor_view "
            f"of rank {tensor_view.rank} and tiles of rank {len(tile_shape)}"
        )
    if dim_map is not None and len(dim_map) != len(tile_shape):
        raise VerifyException(
            f"expected dim_map to map exactly all {len(tile_shape)} dimensions "
            f"of the tile, got {len(dim_map)} mappings"
        )
    if any(d <= 0 for d in tile_shape):
        raise VerifyException(
            "tile shape dimensions must have positive length but got "
            f"[{_fmt_list(tile_shape)}]"
        )
    if any(d & (d - 1) for d in tile_shape):
        raise VerifyException(
            "tile shape dimensions must have power of two length but got "
            f"[{_fmt_list(tile_shape)}]"
        )
    if sparse_dim is not None and sparse_dim >= tensor_view.rank:
        raise VerifyException(
            "gather dimension is outside of tensor view dimensions, expected "
            f"strictly less than {tensor_view.rank}, got {sparse_dim}"
        )
    used: dict[int, int] = {}
    for tile_dim, target in enumerate(dim_map or ()):
        if target < 0:
            raise VerifyException(
                f"target dimension must not be negative, got {target}"
            )
        if target >= tensor_view.rank:
            raise VerifyException(
                "target dimension is outside of tensor view dimensions, expected "
                f"strictly less than {tensor_view.rank}, got {target}"
            )
        if target in used:
            raise VerifyException(
                f"target dimension {target} mapped at least twice (for tile "
                f"dimensions {used[target]} and {tile_dim})"
            )
        used[target] = tile_dim
    TileType(tile_shape, tensor_view.element_type).verify()
    if (
        padding is not None
        and padding.data != PaddingValue.ZERO
        and not is_float(tensor_view.element_type)
    ):
        raise VerifyException(
            f"padding_value {padding.data.value} can only be used with floating "
            f"point element types, got {quoted(tensor_view.element_type)}"
        )


@_register_bare
@irdl_attr_definition
class PartitionViewType(ParametrizedAttribute, TileViewType):
    """``partition_view<tile=(AxB), [padding_value = P,] tensor_view<...>[, dim_map=[..]]>``.

    Tiles laid out in an aligned grid over the tensor view; the index space has
    ``ceil(dim / tile)`` entries per dimension.  ``dim_map[i]`` is the tensor
    dimension that tile dimension ``i`` walks (identity if omitted).
    """

    name = "cuda_tile.partition_view"
    tile_shape_attr: ArrayAttr[IntAttr] = param_def()
    tensor_view_type: TensorViewType = param_def()
    dim_map_attr: ArrayAttr[IntAttr] = param_def()
    padding_value: Attribute = param_def()
    """A ``PaddingValueAttr``, or ``NoneAttr`` when loads leave padding unspecified."""

    def __init__(
        self,
        tile_shape: Sequence[int],
        tensor_view: TensorViewType,
        dim_map: Sequence[int] | None = None,
        padding_value: PaddingValueAttr | None = None,
    ):
        super().__init__(
            _ints(tile_shape),
            tensor_view,
            _ints(range(len(tile_shape)) if dim_map is None else dim_map),
            NoneAttr() if padding_value is None else padding_value,
        )

    @property
    def dim_map(self) -> tuple[int, ...]:
        return _values(self.dim_map_attr)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            tile = _parse_tile_shape(parser)
            parser.parse_punctuation(",")
            padding = _parse_optional_padding(parser)
            tv = _parse_tensor_view(parser)
            dim_map = _parse_optional_dim_map(parser, len(tile))
        return [_ints(tile), tv, _ints(dim_map), padding or NoneAttr()]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            _print_view_head(printer, self.tile_shape)
            _print_padding(printer, self.padding)
            printer.print_attribute(self.tensor_view_type)
            _print_optional_dim_map(printer, self.dim_map)

    def verify(self) -> None:
        _verify_view_like(
            self.tile_shape, self.tensor_view_type, self.dim_map, self.padding
        )


@_register_bare
@irdl_attr_definition
class StridedViewType(ParametrizedAttribute, TileViewType):
    """``strided_view<tile=(..), traversal_strides=[..], [padding_value = P,] tensor_view<..>[, dim_map=[..]]>``.

    Like ``partition_view`` but tile ``i`` starts at ``i * traversal_stride``
    elements, so tiles may interleave or overlap (13.3).
    """

    name = "cuda_tile.strided_view"
    SINCE: ClassVar[str] = "13.3"
    tile_shape_attr: ArrayAttr[IntAttr] = param_def()
    traversal_strides_attr: ArrayAttr[IntAttr] = param_def()
    tensor_view_type: TensorViewType = param_def()
    dim_map_attr: ArrayAttr[IntAttr] = param_def()
    padding_value: Attribute = param_def()

    def __init__(
        self,
        tile_shape: Sequence[int],
        traversal_strides: Sequence[int],
        tensor_view: TensorViewType,
        dim_map: Sequence[int] | None = None,
        padding_value: PaddingValueAttr | None = None,
    ):
        super().__init__(
            _ints(tile_shape),
            _ints(traversal_strides),
            tensor_view,
            _ints(range(len(tile_shape)) if dim_map is None else dim_map),
            NoneAttr() if padding_value is None else padding_value,
        )

    @property
    def traversal_strides(self) -> tuple[int, ...]:
        return _values(self.traversal_strides_attr)

    @property
    def dim_map(self) -> tuple[int, ...]:
        return _values(self.dim_map_attr)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            tile = _parse_tile_shape(parser)
            parser.parse_punctuation(",")
            parser.parse_keyword("traversal_strides")
            parser.parse_punctuation("=")
            strides = _parse_int_list(parser, allow_dynamic=False)
            parser.parse_punctuation(",")
            padding = _parse_optional_padding(parser)
            tv = _parse_tensor_view(parser)
            dim_map = _parse_optional_dim_map(parser, len(tile))
        return [_ints(tile), _ints(strides), tv, _ints(dim_map), padding or NoneAttr()]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            _print_view_head(printer, self.tile_shape)
            printer.print_string(
                f"traversal_strides=[{_fmt_list(self.traversal_strides, ',')}], "
            )
            _print_padding(printer, self.padding)
            printer.print_attribute(self.tensor_view_type)
            _print_optional_dim_map(printer, self.dim_map)

    def verify(self) -> None:
        _verify_view_like(
            self.tile_shape, self.tensor_view_type, self.dim_map, self.padding
        )
        if len(self.traversal_strides) != len(self.tile_shape):
            raise VerifyException(
                f"expected {len(self.tile_shape)} traversal strides, got "
                f"{len(self.traversal_strides)}"
            )
        if any(s <= 0 for s in self.traversal_strides):
            raise VerifyException(
                "traversal strides must be strictly positive but got "
                f"[{', '.join(map(str, self.traversal_strides))}]"
            )


@_register_bare
@irdl_attr_definition
class GatherScatterViewType(ParametrizedAttribute, TileViewType):
    """``gather_scatter_view<tile=(..), [padding_value = P,] tensor_view<..>, sparse_dim=D>``.

    Dimension ``sparse_dim`` is indexed by a 1-d tile of row indices (gather
    on load, scatter on store); the other indices are scalars (13.3).
    """

    name = "cuda_tile.gather_scatter_view"
    SINCE: ClassVar[str] = "13.3"
    tile_shape_attr: ArrayAttr[IntAttr] = param_def()
    tensor_view_type: TensorViewType = param_def()
    sparse_dim_attr: IntAttr = param_def()
    padding_value: Attribute = param_def()

    def __init__(
        self,
        tile_shape: Sequence[int],
        tensor_view: TensorViewType,
        sparse_dim: int,
        padding_value: PaddingValueAttr | None = None,
    ):
        super().__init__(
            _ints(tile_shape),
            tensor_view,
            IntAttr(sparse_dim),
            NoneAttr() if padding_value is None else padding_value,
        )

    @property
    def sparse_dim(self) -> int:
        return self.sparse_dim_attr.data

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            tile = _parse_tile_shape(parser)
            parser.parse_punctuation(",")
            padding = _parse_optional_padding(parser)
            tv = _parse_tensor_view(parser)
            parser.parse_punctuation(",")
            parser.parse_keyword("sparse_dim")
            parser.parse_punctuation("=")
            pos = parser.pos
            sparse_dim = parser.parse_integer(allow_boolean=False)
            if sparse_dim < 0:
                parser.raise_error("sparse_dim must not be negative", pos)
        return [_ints(tile), tv, IntAttr(sparse_dim), padding or NoneAttr()]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            _print_view_head(printer, self.tile_shape)
            _print_padding(printer, self.padding)
            printer.print_attribute(self.tensor_view_type)
            printer.print_string(f", sparse_dim={self.sparse_dim}")

    def verify(self) -> None:
        _verify_view_like(
            self.tile_shape, self.tensor_view_type, None, self.padding, self.sparse_dim
        )

    def verify_indices(self, index_types: Sequence[Attribute]) -> None:
        if not index_types:
            return
        d = self.sparse_dim
        if d >= len(index_types):
            raise VerifyException(
                f"gather/scatter dimension {d} is out of range for index count "
                f"{len(index_types)}"
            )
        gather = index_types[d]
        if not isinstance(gather, TileType):
            raise VerifyException(
                f"expected index at sparse_dim position {d} to be a tile type for "
                "GatherScatterView"
            )
        if gather.rank != 1:
            raise VerifyException(
                f"expected index at sparse_dim position {d} to be a 1D tensor for "
                f"GatherScatterView, got rank {gather.rank}"
            )
        if gather.shape[0] != self.tile_shape[d]:
            raise VerifyException(
                f"expected gather/scatter index size ({gather.shape[0]}) to match "
                f"tile shape at gather/scatter dimension {d} ({self.tile_shape[d]})"
            )
        scalars = [(i, t) for i, t in enumerate(index_types) if i != d]
        for i, t in scalars:
            if not isinstance(t, TileType) or t.rank != 0:
                raise VerifyException(
                    f"expected index {i} to be a scalar tile for GatherScatterView"
                )
            if t != scalars[0][1]:
                raise VerifyException(
                    f"expected scalar index {i} to have the same type as other scalar "
                    f"indices ({quoted(scalars[0][1])}), got {quoted(t)}"
                )


_register_bare(Float8E5M3FNUType)
BARE_TYPE_NAMES["f8E5M3FNU"] = Float8E5M3FNUType  # the release notes' spelling

TILE_VIEW_TYPES: tuple[type[TileViewType], ...] = (
    PartitionViewType,
    StridedViewType,
    GatherScatterViewType,
)

CUDA_TILE_TYPES: tuple[type[CudaTileType], ...] = (
    PointerType,
    TileType,
    TokenType,
    TensorViewType,
    PartitionViewType,
    StridedViewType,
    GatherScatterViewType,
    Float8E5M3FNUType,
)


def scalar(element_type: Attribute) -> TileType:
    """The 0-d tile (scalar) of ``element_type``."""
    return TileType((), element_type)
