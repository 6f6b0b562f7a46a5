"""The ``cuda_tile`` types and attributes: construction, verifiers, text.

Expected verifier messages are NVIDIA's (``/tmp/nvsrc/Types.cpp``,
``SharedVerifiers.h``, ``Attributes.cpp`` and the ``expected-error`` lines of
NVIDIA's ``tests/*invalid.mlir``), so a test fails when safetile words a rule
differently from NVIDIA's tools.  As in MLIR diagnostics, types in messages are
quoted (``got 'i32'``) and integer lists are not bracketed unless NVIDIA adds
the brackets itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    DictionaryAttr,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatTF32Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    Signedness as BuiltinSignedness,
    StringAttr,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from safetile.dialects.cuda_tile.attributes import (
    ASSUME_PREDICATES,
    ENUM_ATTRS,
    AtomicRMWMode,
    AtomicRMWModeAttr,
    BoundedAttr,
    ComparisonOrdering,
    ComparisonOrderingAttr,
    ComparisonPredicate,
    ComparisonPredicateAttr,
    CudaTileEnum,
    DivByAttr,
    IntegerOverflow,
    IntegerOverflowAttr,
    MemoryOrdering,
    MemoryOrderingAttr,
    MemoryScope,
    MemoryScopeAttr,
    MultimemReductionKind,
    MultimemReductionKindAttr,
    OptimizationHintsAttr,
    PaddingValue,
    PaddingValueAttr,
    PointerKind,
    PointerKindAttr,
    RoundingMode,
    RoundingModeAttr,
    SameElementsAttr,
    Signedness,
    SignednessAttr,
    SymbolVisibility,
    SymbolVisibilityAttr,
)
from safetile.dialects.cuda_tile.types import (
    CUDA_TILE_TYPES,
    DYNAMIC,
    MAX_TILE_ELEMENTS,
    Float8E5M3FNUType,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
    TokenType,
    element_type_of,
    is_float,
    is_int,
    is_number,
    is_tile_element,
    scalar,
)
from support import parse_attribute, parse_type, print_canonical, print_qualified

i1, i4, i8, i16, i32, i64 = (IntegerType(w) for w in (1, 4, 8, 16, 32, 64))
f16, bf16, f32, f64 = Float16Type(), BFloat16Type(), Float32Type(), Float64Type()
tf32 = FloatTF32Type()
f8e4m3, f8e5m2, f8e8m0 = Float8E4M3FNType(), Float8E5M2Type(), Float8E8M0FNUType()
f4 = Float4E2M1FNType()
f8e5m3 = Float8E5M3FNUType()

ALL_INTS: tuple[IntegerType, ...] = (i1, i8, i16, i32, i64)
"""``CudaTile_AnyInt``: i4 is not among them (Types.td)."""
ALL_FLOATS: tuple[Attribute, ...] = (
    f16, bf16, f32, tf32, f64, f8e4m3, f8e5m2, f8e8m0, f4, f8e5m3,
)


TV16 = TensorViewType(f32, (16,), (1,))
TV16x16 = TensorViewType(f32, (16, 16), (16, 1))
TV16x16_I32 = TensorViewType(i32, (16, 16), (16, 1))
TV4096 = TensorViewType(f32, (4096, 4096), (4096, 1))


def raises(message: str) -> pytest.RaisesExc[VerifyException]:
    """Expect a ``VerifyException`` whose text contains ``message`` verbatim."""
    return pytest.raises(VerifyException, match=re.escape(message))


# --------------------------------------------------------------------------
# Element type predicates
# --------------------------------------------------------------------------


@pytest.mark.parametrize("t", ALL_INTS, ids=str)
def test_integer_element_types(t: IntegerType) -> None:
    assert is_int(t) and is_number(t) and not is_float(t)


@pytest.mark.parametrize("t", ALL_FLOATS, ids=str)
def test_float_element_types(t: Attribute) -> None:
    assert is_float(t) and is_number(t) and not is_int(t)


def test_i4_is_a_tile_element_only() -> None:
    assert not is_int(i4) and not is_number(i4)
    assert is_tile_element(i4)
    assert all(is_tile_element(t) for t in (*ALL_INTS, *ALL_FLOATS, PointerType(f32)))
    assert not is_tile_element(TokenType())


@pytest.mark.parametrize(
    "t",
    [
        IntegerType(2),
        IntegerType(128),
        IntegerType(32, BuiltinSignedness.SIGNED),
        IntegerType(8, BuiltinSignedness.UNSIGNED),
        IndexType(),
        PointerType(f32),
        TokenType(),
        TileType((), f32),
    ],
    ids=str,
)
def test_non_element_types(t: Attribute) -> None:
    assert not is_number(t) and not is_int(t) and not is_float(t)


def test_element_type_of() -> None:
    assert element_type_of(TileType((4,), f16)) == f16
    assert element_type_of(TileType((), PointerType(i8))) == PointerType(i8)
    assert element_type_of(f32) == f32
    assert element_type_of(TokenType()) == TokenType()


def test_f8e5m3fnu_is_a_dialect_type_since_13_4() -> None:
    # NVIDIA's 13.4 tools spell it fnv8E5M3FNU; the release notes' f8E5M3FNU parses too.
    assert f8e5m3 == Float8E5M3FNUType()
    assert f8e5m3.SINCE == "13.4"
    assert f8e5m3.mnemonic == "fnv8E5M3FNU"
    assert Float8E5M3FNUType in CUDA_TILE_TYPES


def test_versions_of_view_types() -> None:
    assert PartitionViewType.SINCE == "13.1"
    assert StridedViewType.SINCE == "13.3"
    assert GatherScatterViewType.SINCE == "13.3"


# --------------------------------------------------------------------------
# Construction and accessors
# --------------------------------------------------------------------------


def test_tile_type_accessors() -> None:
    t = TileType((4, 8), f32)
    assert t.shape == (4, 8)
    assert t.rank == 2
    assert t.num_elements == 32
    assert t.element_type == f32
    assert t.mnemonic == "tile"
    assert t == TileType([4, 8], f32)
    assert t != TileType((8, 4), f32)
    assert t != TileType((4, 8), f16)


def test_scalar_tile() -> None:
    t = scalar(i32)
    assert t == TileType((), i32)
    assert t.shape == ()
    assert t.rank == 0
    assert t.num_elements == 1


def test_pointer_tile() -> None:
    ptr = PointerType(f16)
    assert ptr.pointee == f16
    assert ptr.mnemonic == "ptr"
    t = TileType((16,), ptr)
    assert t.element_type == ptr
    assert scalar(ptr).rank == 0


def test_token_type() -> None:
    assert TokenType() == TokenType()
    assert TokenType().mnemonic == "token"


def test_tensor_view_static() -> None:
    t = TensorViewType(f32, (16, 32), (32, 1))
    assert t.element_type == f32
    assert t.shape == (16, 32)
    assert t.strides == (32, 1)
    assert t.rank == 2
    assert t.dynamic_shape_count() == 0
    assert t.dynamic_stride_count() == 0


def test_tensor_view_dynamic() -> None:
    t = TensorViewType(f16, (DYNAMIC, 8, DYNAMIC), (DYNAMIC, DYNAMIC, 1))
    assert t.shape == (DYNAMIC, 8, DYNAMIC)
    assert t.strides == (DYNAMIC, DYNAMIC, 1)
    assert t.dynamic_shape_count() == 2
    assert t.dynamic_stride_count() == 2


def test_tensor_view_0d() -> None:
    t = TensorViewType(i64, (), ())
    assert t.rank == 0
    assert t.shape == () and t.strides == ()


def test_partition_view_defaults() -> None:
    v = PartitionViewType((2, 4), TV16x16)
    assert v.tile_shape == (2, 4)
    assert v.tensor_view == TV16x16
    assert v.dim_map == (0, 1)
    assert v.padding is None
    assert v.index_rank() == 2
    assert v.tile_type() == TileType((2, 4), f32)


def test_partition_view_padding_and_dim_map() -> None:
    pad = PaddingValueAttr(PaddingValue.NAN)
    v = PartitionViewType((2, 4), TV16x16, dim_map=(1, 0), padding_value=pad)
    assert v.dim_map == (1, 0)
    assert v.padding == pad
    assert v != PartitionViewType((2, 4), TV16x16)
    assert PartitionViewType((2, 4), TV16x16, dim_map=(0, 1)) == PartitionViewType(
        (2, 4), TV16x16
    )


def test_strided_view_accessors() -> None:
    v = StridedViewType((4, 8), (2, 8), TV16x16)
    assert v.tile_shape == (4, 8)
    assert v.traversal_strides == (2, 8)
    assert v.dim_map == (0, 1)
    assert v.padding is None
    assert v.tile_type() == TileType((4, 8), f32)
    pad = PaddingValueAttr(PaddingValue.ZERO)
    w = StridedViewType((4, 8), (2, 8), TV16x16, dim_map=(1, 0), padding_value=pad)
    assert w.dim_map == (1, 0) and w.padding == pad


def test_gather_scatter_view_accessors() -> None:
    v = GatherScatterViewType((8, 16), TV16x16, sparse_dim=0)
    assert v.tile_shape == (8, 16)
    assert v.sparse_dim == 0
    assert v.padding is None
    assert v.index_rank() == 2
    assert v.tile_type() == TileType((8, 16), f32)
    pad = PaddingValueAttr(PaddingValue.NEG_INF)
    w = GatherScatterViewType((8, 16), TV16x16, sparse_dim=1, padding_value=pad)
    assert w.sparse_dim == 1 and w.padding == pad


# --------------------------------------------------------------------------
# Type verifiers
# --------------------------------------------------------------------------

TYPE_VERIFIER_CASES: list[tuple[str, Callable[[], Attribute], str]] = [
    # tile: parameter constraints print as "failed to verify '<param>': <allowed>"
    ("tile-elem-token", lambda: TileType((4,), TokenType()), "failed to verify 'elementType'"),
    ("tile-elem-tile", lambda: TileType((4,), TileType((), f32)),
     "failed to verify 'elementType'"),
    ("tile-elem-index", lambda: TileType((4,), IndexType()), "failed to verify 'elementType'"),
    ("tile-elem-si32", lambda: TileType((4,), IntegerType(32, BuiltinSignedness.SIGNED)),
     "failed to verify 'elementType'"),
    ("tile-f4-0d", lambda: TileType((), f4),
     "F4E2M1FN tiles must have an even number of elements"),
    ("tile-f4-odd", lambda: TileType((1, 1), f4),
     "F4E2M1FN tiles must have an even number of elements"),
    # verifyTileSize prints the shape as a plain list (invalid.mlir:276,313).
    ("tile-zero-dim", lambda: TileType((1, 0, 2), f32),
     "all dimensions must be positive constants, got 1, 0, 2"),
    ("tile-negative-dim", lambda: TileType((-4,), f32),
     "all dimensions must be positive constants, got -4"),
    ("tile-not-pow2", lambda: TileType((3, 5, 9), f32),
     "all dimensions must be powers of two, got 3, 5, 9"),
    ("tile-too-big", lambda: TileType((4096, 4096, 2), f32),
     f"tile would exceed the maximum of {MAX_TILE_ELEMENTS} elements"),
    # ptr: the pointee is a CudaTile_NumberType; i4 is only a tile element (Types.td).
    # invalid.mlir:30: "failed to verify 'pointeeType': f16 or bf16 or ... or i64".
    ("ptr-token", lambda: PointerType(TokenType()), "failed to verify 'pointeeType': f16 or "),
    ("ptr-ptr", lambda: PointerType(PointerType(f32)), "failed to verify 'pointeeType'"),
    ("ptr-i4", lambda: PointerType(i4), "failed to verify 'pointeeType'"),
    # tensor_view
    ("tv-elem-ptr", lambda: TensorViewType(PointerType(f32), (4,), (1,)),
     "failed to verify 'elementType'"),
    ("tv-elem-i4", lambda: TensorViewType(i4, (4,), (1,)), "failed to verify 'elementType'"),
    ("tv-rank-mismatch", lambda: TensorViewType(f32, (DYNAMIC,), (4, 1)),
     "expected shape and stride to be of same rank but got shape of rank 1 and "
     "stride of rank 2"),
    ("tv-zero-dim", lambda: TensorViewType(f32, (0,), (1,)),
     "dimensions must have strictly positive constant sizes but got [0]"),
    ("tv-neg-dim", lambda: TensorViewType(f32, (4, -3), (1, 4)),
     "dimensions must have strictly positive constant sizes but got [4, -3]"),
    ("tv-zero-stride", lambda: TensorViewType(f32, (4, DYNAMIC), (0, 1)),
     "dimensions must have strictly positive constant strides but got [0, 1]"),
    ("tv-neg-stride", lambda: TensorViewType(f32, (4,), (-2,)),
     "dimensions must have strictly positive constant strides but got [-2]"),
    # partition_view (view_invalid.mlir)
    ("pv-0d", lambda: PartitionViewType((), TensorViewType(f32, (), ())),
     "0-dimension tile shape is not supported"),
    ("pv-rank", lambda: PartitionViewType((1, 1), TensorViewType(
        f32, (8192, 8192, 64), (524288, 64, 1))),
     "expected tensor_view rank and tile rank to match, got tensor_view of rank 3 "
     "and tiles of rank 2"),
    ("pv-dim-map-len", lambda: PartitionViewType((1024, 1024), TV4096, dim_map=(0,)),
     "expected dim_map to map exactly all 2 dimensions of the tile, got 1 mappings"),
    ("pv-tile-zero", lambda: PartitionViewType((0, 4), TV16x16),
     "tile shape dimensions must have positive length but got [0, 4]"),
    ("pv-tile-not-pow2", lambda: PartitionViewType((5, 1024), TV4096),
     "tile shape dimensions must have power of two length but got [5, 1024]"),
    ("pv-dim-map-negative", lambda: PartitionViewType((1024, 1024), TV4096, dim_map=(-1, 1)),
     "target dimension must not be negative, got -1"),
    ("pv-dim-map-outside", lambda: PartitionViewType((1024, 1024), TV4096, dim_map=(2, 1)),
     "target dimension is outside of tensor view dimensions, expected strictly less "
     "than 2, got 2"),
    ("pv-dim-map-twice", lambda: PartitionViewType((1024, 1024), TV4096, dim_map=(0, 0)),
     "target dimension 0 mapped at least twice (for tile dimensions 0 and 1)"),
    ("pv-tile-too-big", lambda: PartitionViewType(
        (4096, 4096, 2), TensorViewType(f32, (8192, 8192, 2), (16384, 2, 1))),
     f"tile would exceed the maximum of {MAX_TILE_ELEMENTS} elements"),
    ("pv-f4-odd", lambda: PartitionViewType((1,), TensorViewType(f4, (16,), (1,))),
     "F4E2M1FN tiles must have an even number of elements"),
    ("pv-padding-nan-int", lambda: PartitionViewType(
        (4, 4), TV16x16_I32, padding_value=PaddingValueAttr(PaddingValue.NAN)),
     "padding_value nan can only be used with floating point element types, got 'i32'"),
    ("pv-padding-neg-zero-int", lambda: PartitionViewType(
        (4, 4), TV16x16_I32, padding_value=PaddingValueAttr(PaddingValue.NEG_ZERO)),
     "padding_value neg_zero can only be used with floating point element types, got 'i32'"),
    # strided_view
    ("sv-0d", lambda: StridedViewType((), (), TensorViewType(f32, (), ())),
     "0-dimension tile shape is not supported"),
    ("sv-dim-map-twice", lambda: StridedViewType(
        (1024, 1024), (1024, 1), TV4096, dim_map=(0, 0)),
     "target dimension 0 mapped at least twice (for tile dimensions 0 and 1)"),
    ("sv-tile-not-pow2", lambda: StridedViewType((5, 1024), (1024, 1), TV4096),
     "tile shape dimensions must have power of two length but got [5, 1024]"),
    ("sv-stride-count", lambda: StridedViewType((1024, 1024), (1,), TV4096),
     "expected 2 traversal strides, got 1"),
    ("sv-stride-zero", lambda: StridedViewType((1024, 1024), (1, 0), TV4096),
     "traversal strides must be strictly positive but got [1, 0]"),
    ("sv-stride-negative", lambda: StridedViewType((1024, 1024), (1, -1), TV4096),
     "traversal strides must be strictly positive but got [1, -1]"),
    ("sv-padding-int", lambda: StridedViewType(
        (4, 4), (4, 4), TV16x16_I32, padding_value=PaddingValueAttr(PaddingValue.POS_INF)),
     "padding_value pos_inf can only be used with floating point element types, got 'i32'"),
    # gather_scatter_view (Types.cpp GatherScatterViewType::verify)
    ("gsv-0d", lambda: GatherScatterViewType((), TensorViewType(f32, (), ()), 0),
     "0-dimension tile shape is not supported"),
    ("gsv-rank", lambda: GatherScatterViewType((4,), TV16x16, 0),
     "expected tensor_view rank and tile rank to match, got tensor_view of rank 2 "
     "and tiles of rank 1"),
    ("gsv-not-pow2", lambda: GatherScatterViewType((3, 4), TV16x16, 0),
     "tile shape dimensions must have power of two length but got [3, 4]"),
    ("gsv-sparse-dim", lambda: GatherScatterViewType((4, 4), TV16x16, 2),
     "gather dimension is outside of tensor view dimensions, expected strictly less "
     "than 2, got 2"),
    ("gsv-padding-int", lambda: GatherScatterViewType(
        (4, 4), TV16x16_I32, 0, padding_value=PaddingValueAttr(PaddingValue.NEG_INF)),
     "padding_value neg_inf can only be used with floating point element types, got 'i32'"),
]


@pytest.mark.parametrize(
    ("build", "message"),
    [(b, m) for _, b, m in TYPE_VERIFIER_CASES],
    ids=[name for name, _, _ in TYPE_VERIFIER_CASES],
)
def test_type_verifier_rejects(build: Callable[[], Attribute], message: str) -> None:
    with raises(message):
        build()


VALID_EDGE_TYPES: list[tuple[str, Callable[[], Attribute]]] = [
    ("tile-max-elements", lambda: TileType((4096, 4096), f32)),
    ("tile-f4-even", lambda: TileType((1, 2), f4)),
    ("tile-i4", lambda: TileType((8,), i4)),
    ("tile-ptr-0d", lambda: TileType((), PointerType(i1))),
    ("tile-f8e5m3fnu", lambda: TileType((4,), f8e5m3)),
    ("pv-padding-zero-int", lambda: PartitionViewType(
        (4, 4), TV16x16_I32, padding_value=PaddingValueAttr(PaddingValue.ZERO))),
    ("pv-dynamic-tv", lambda: PartitionViewType(
        (64, 64), TensorViewType(f16, (DYNAMIC, DYNAMIC), (DYNAMIC, 1)))),
    ("pv-tile-larger-than-tv", lambda: PartitionViewType((32,), TV16)),
    ("sv-overlapping", lambda: StridedViewType((8,), (1,), TV16)),
    ("gsv-last-dim", lambda: GatherScatterViewType((4, 4), TV16x16, 1)),
]


@pytest.mark.parametrize(
    "build", [b for _, b in VALID_EDGE_TYPES], ids=[n for n, _ in VALID_EDGE_TYPES]
)
def test_type_verifier_accepts(build: Callable[[], Attribute]) -> None:
    build()


# --------------------------------------------------------------------------
# View index verification (TileView::verifyIndices)
# --------------------------------------------------------------------------


def test_partition_view_indices() -> None:
    v = PartitionViewType((4, 4), TV16x16)
    v.verify_indices([scalar(i32), scalar(i32)])
    with raises("expected index type to be a tile type, got 'i32'"):
        v.verify_indices([i32, scalar(i32)])
    with raises("expected index type to be a scalar tile, got '!cuda_tile.tile<4xi32>'"):
        v.verify_indices([TileType((4,), i32), scalar(i32)])
    with raises(
        "expected index type 1 to be the same as other index types "
        "('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'"
    ):
        v.verify_indices([scalar(i32), scalar(i64)])


def test_gather_scatter_view_indices() -> None:
    v = GatherScatterViewType((8, 16), TV16x16, sparse_dim=0)
    v.verify_indices([])
    v.verify_indices([TileType((8,), i32), scalar(i32)])
    with raises("gather/scatter dimension 1 is out of range for index count 1"):
        GatherScatterViewType((8, 16), TV16x16, 1).verify_indices([scalar(i32)])
    with raises("expected index at sparse_dim position 0 to be a tile type for GatherScatterView"):
        v.verify_indices([i32, scalar(i32)])
    with raises(
        "expected index at sparse_dim position 0 to be a 1D tensor for "
        "GatherScatterView, got rank 0"
    ):
        v.verify_indices([scalar(i32), scalar(i32)])
    with raises(
        "expected gather/scatter index size (4) to match tile shape at "
        "gather/scatter dimension 0 (8)"
    ):
        v.verify_indices([TileType((4,), i32), scalar(i32)])
    with raises("expected index 1 to be a scalar tile for GatherScatterView"):
        v.verify_indices([TileType((8,), i32), TileType((2,), i32)])


def test_gather_scatter_view_scalar_indices_share_a_type() -> None:
    v = GatherScatterViewType((8, 16, 4), TensorViewType(f32, (16, 16, 4), (64, 4, 1)), 0)
    with raises(
        "expected scalar index 2 to have the same type as other scalar indices "
        "('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'"
    ):
        v.verify_indices([TileType((8,), i32), scalar(i32), scalar(i64)])


# --------------------------------------------------------------------------
# Printing and parsing
# --------------------------------------------------------------------------

# (type builder, canonical spelling inside a module, fully qualified spelling);
# built lazily so that one broken constructor fails its own cases only.
SPELLINGS: list[tuple[Callable[[], Attribute], str, str]] = [
    (lambda: TileType((), i32), "tile<i32>", "!cuda_tile.tile<i32>"),
    (lambda: TileType((2,), f32), "tile<2xf32>", "!cuda_tile.tile<2xf32>"),
    (lambda: TileType((4, 8), bf16), "tile<4x8xbf16>", "!cuda_tile.tile<4x8xbf16>"),
    (lambda: TileType((2,), f4), "tile<2xf4E2M1FN>", "!cuda_tile.tile<2xf4E2M1FN>"),
    (lambda: TileType((8,), i4), "tile<8xi4>", "!cuda_tile.tile<8xi4>"),
    (lambda: TileType((2, 2), f8e5m3), "tile<2x2xfnv8E5M3FNU>",
     "!cuda_tile.tile<2x2x!cuda_tile.fnv8E5M3FNU>"),
    (lambda: TileType((16,), PointerType(f16)), "tile<16xptr<f16>>",
     "!cuda_tile.tile<16x!cuda_tile.ptr<f16>>"),
    (lambda: TileType((), PointerType(i8)), "tile<ptr<i8>>", "!cuda_tile.tile<!cuda_tile.ptr<i8>>"),
    (lambda: PointerType(i1), "ptr<i1>", "!cuda_tile.ptr<i1>"),
    (lambda: TokenType(), "token", "!cuda_tile.token"),
    (lambda: TensorViewType(f32, (), ()), "tensor_view<f32>", "!cuda_tile.tensor_view<f32>"),
    (lambda: TensorViewType(f32, (2,), (1,)), "tensor_view<2xf32, strides=[1]>",
     "!cuda_tile.tensor_view<2xf32, strides=[1]>"),
    (lambda: TensorViewType(f32, (DYNAMIC, 2), (1, DYNAMIC)), "tensor_view<?x2xf32, strides=[1,?]>",
     "!cuda_tile.tensor_view<?x2xf32, strides=[1,?]>"),
    (lambda: TensorViewType(f16, (DYNAMIC, DYNAMIC), (DYNAMIC, DYNAMIC)),
     "tensor_view<?x?xf16, strides=[?,?]>", "!cuda_tile.tensor_view<?x?xf16, strides=[?,?]>"),
    (lambda: PartitionViewType((2,), TV16), "partition_view<tile=(2), tensor_view<16xf32, strides=[1]>>",
     "!cuda_tile.partition_view<tile=(2), !cuda_tile.tensor_view<16xf32, strides=[1]>>"),
    (lambda: PartitionViewType((2,), TV16, padding_value=PaddingValueAttr(PaddingValue.NEG_ZERO)),
     "partition_view<tile=(2), padding_value = neg_zero, tensor_view<16xf32, strides=[1]>>",
     "!cuda_tile.partition_view<tile=(2), padding_value = neg_zero, "
     "!cuda_tile.tensor_view<16xf32, strides=[1]>>"),
    (lambda: PartitionViewType((2, 2), TV16x16, dim_map=(1, 0)),
     "partition_view<tile=(2x2), tensor_view<16x16xf32, strides=[16,1]>, dim_map=[1, 0]>",
     "!cuda_tile.partition_view<tile=(2x2), !cuda_tile.tensor_view<16x16xf32, "
     "strides=[16,1]>, dim_map=[1, 0]>"),
    (lambda: StridedViewType((4, 8), (2, 8), TV16x16),
     "strided_view<tile=(4x8), traversal_strides=[2,8], tensor_view<16x16xf32, strides=[16,1]>>",
     "!cuda_tile.strided_view<tile=(4x8), traversal_strides=[2,8], "
     "!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>>"),
    (lambda: StridedViewType((4, 8), (2, 8), TV16x16, dim_map=(1, 0),
                     padding_value=PaddingValueAttr(PaddingValue.ZERO)),
     "strided_view<tile=(4x8), traversal_strides=[2,8], padding_value = zero, "
     "tensor_view<16x16xf32, strides=[16,1]>, dim_map=[1, 0]>",
     "!cuda_tile.strided_view<tile=(4x8), traversal_strides=[2,8], padding_value = zero, "
     "!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>, dim_map=[1, 0]>"),
    (lambda: GatherScatterViewType((16, 16), TensorViewType(i32, (1024, 16), (16, 1)), 0),
     "gather_scatter_view<tile=(16x16), tensor_view<1024x16xi32, strides=[16,1]>, sparse_dim=0>",
     "!cuda_tile.gather_scatter_view<tile=(16x16), "
     "!cuda_tile.tensor_view<1024x16xi32, strides=[16,1]>, sparse_dim=0>"),
    (lambda: GatherScatterViewType((8, 16), TV16x16, 1, padding_value=PaddingValueAttr(PaddingValue.NAN)),
     "gather_scatter_view<tile=(8x16), padding_value = nan, "
     "tensor_view<16x16xf32, strides=[16,1]>, sparse_dim=1>",
     "!cuda_tile.gather_scatter_view<tile=(8x16), padding_value = nan, "
     "!cuda_tile.tensor_view<16x16xf32, strides=[16,1]>, sparse_dim=1>"),
]


@pytest.mark.parametrize(("canonical", "qualified"), [(c, q) for _, c, q in SPELLINGS],
                         ids=[c for _, c, _ in SPELLINGS])
def test_parse_both_spellings(ctx: Context, canonical: str, qualified: str) -> None:
    a = parse_type(ctx, canonical)
    b = parse_type(ctx, qualified)
    assert a == b
    assert print_canonical(a) == canonical
    assert print_qualified(a) == qualified


@pytest.mark.parametrize(("build", "canonical", "qualified"), SPELLINGS,
                         ids=[c for _, c, _ in SPELLINGS])
def test_print_constructed_type(
    ctx: Context, build: Callable[[], Attribute], canonical: str, qualified: str
) -> None:
    t = build()
    assert print_canonical(t) == canonical
    assert print_qualified(t) == qualified
    assert parse_type(ctx, canonical) == t


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        # NVIDIA's types.mlir: the identity dim_map is not printed.
        ("!cuda_tile.partition_view<tile=(2), tensor_view<16xf32, strides=[1]>, dim_map=[0]>",
         "partition_view<tile=(2), tensor_view<16xf32, strides=[1]>>"),
        ("partition_view<tile=(2x2), !cuda_tile.tensor_view<16x16xf32, strides=[16,1]>, "
         "dim_map=[0, 1]>",
         "partition_view<tile=(2x2), tensor_view<16x16xf32, strides=[16,1]>>"),
        # Whitespace in strides is not significant; printing normalises it.
        ("tensor_view<4x?xf32, strides=[5, ?]>", "tensor_view<4x?xf32, strides=[5,?]>"),
        ("!cuda_tile.tile<4x!cuda_tile.ptr<f32>>", "tile<4xptr<f32>>"),
        ("!cuda_tile.tile<4xptr<f32>>", "tile<4xptr<f32>>"),
        ("tile<2xf8E5M3FNU>", "tile<2xfnv8E5M3FNU>"),
        ("tile<2x!cuda_tile.fnv8E5M3FNU>", "tile<2xfnv8E5M3FNU>"),
    ],
)
def test_parse_normalises(ctx: Context, text: str, canonical: str) -> None:
    assert print_canonical(parse_type(ctx, text)) == canonical


PARSE_ERRORS: list[tuple[str, str]] = [
    ("tile<?xf32>", "expected static shape"),
    ("tensor_view<f32, strides=[]>", "strides must not be provided for 0-d tiles"),
    ("tensor_view<f16, 4>", "unexpected token after element type in 0-d tensor_view"),
    ("tensor_view<2xf32>", "expected 'strides'"),
    ("tensor_view<?xf32, strides=[-5]>", "expected strictly positive integer, got -5"),
    ("tensor_view<?xf32, strides=[0]>", "expected strictly positive integer, got 0"),
    ("tensor_view<?xf32, strides=[-9223372036854775808]>",
     "expected strictly positive integer, got -9223372036854775808"),
    ("partition_view<tile=(1099511627776x1024), tensor_view<4096x4096xf32, strides=[4096,1]>>",
     "tile dimension 0 exceeds i32 limitations (got 1099511627776, expected strictly "
     "positive and less than or equal to 2147483647)"),
    ("partition_view<tile=(4), tile<4xf32>>",
     "expected 'tensor_view' type, but got '!cuda_tile.tile<4xf32>'"),
    ("partition_view<tile=(4), padding_value = one, tensor_view<16xf32, strides=[1]>>",
     'invalid padding_value attribute specification. Got "one" but expect one of: '
     "zero, neg_zero, nan, pos_inf, neg_inf"),
    ("tile<3xf32>", "all dimensions must be powers of two, got 3"),
    ("tile<4xtoken>", "failed to verify 'elementType'"),
]


@pytest.mark.parametrize(("text", "message"), PARSE_ERRORS, ids=[t for t, _ in PARSE_ERRORS])
def test_parse_errors(ctx: Context, text: str, message: str) -> None:
    from xdsl.utils.exceptions import ParseError

    with pytest.raises(ParseError, match=re.escape(message)):
        parse_type(ctx, text)


@pytest.mark.parametrize(
    "text",
    [
        "tile<2xfnv8E5M3FNU<f32>>",
        "tile<2xf8E5M3FNU<f32>>",
        "!cuda_tile.fnv8E5M3FNU<i8, i8>",
        "tile<2xf32, 3>",
    ],
)
def test_types_without_parameters_reject_them(ctx: Context, text: str) -> None:
    """A parse error, not a Python error from building the type."""
    from xdsl.utils.exceptions import ParseError

    with pytest.raises(ParseError):
        parse_type(ctx, text)


# --------------------------------------------------------------------------
# Enum attributes
# --------------------------------------------------------------------------

# The cases of each enum in NVIDIA's order (AttrDefs.td): the index is the
# bytecode value.
ENUM_ORDER: list[tuple[type[CudaTileEnum], type[Attribute], str, tuple[str, ...]]] = [
    (Signedness, SignednessAttr, "signedness", ("unsigned", "signed")),
    (IntegerOverflow, IntegerOverflowAttr, "overflow",
     ("none", "no_signed_wrap", "no_unsigned_wrap", "no_wrap")),
    (RoundingMode, RoundingModeAttr, "rounding",
     ("nearest_even", "zero", "negative_inf", "positive_inf", "approx", "full",
      "nearest_int_to_zero", "nearest_away")),  # nearest_away: new in 13.4
    (ComparisonOrdering, ComparisonOrderingAttr, "comparison_ordering",
     ("unordered", "ordered")),
    (ComparisonPredicate, ComparisonPredicateAttr, "comparison_predicate",
     ("equal", "not_equal", "less_than", "less_than_or_equal", "greater_than",
      "greater_than_or_equal")),
    (AtomicRMWMode, AtomicRMWModeAttr, "atomic_rmw_mode",
     ("and", "or", "xor", "add", "addf", "max", "min", "umax", "umin", "xchg")),
    (MemoryScope, MemoryScopeAttr, "memory_scope", ("tl_blk", "device", "sys")),
    (MemoryOrdering, MemoryOrderingAttr, "memory_ordering",
     ("weak", "relaxed", "acquire", "release", "acq_rel")),
    (PaddingValue, PaddingValueAttr, "padding_value",
     ("zero", "neg_zero", "nan", "pos_inf", "neg_inf")),
    (SymbolVisibility, SymbolVisibilityAttr, "symbol_visibility", ("public", "private")),
    # 13.5 (codes as 13.5.37's tools read them: docs/bytecode.md)
    (PointerKind, PointerKindAttr, "ptr_attr", ("none", "unicast", "multicast")),
    (MultimemReductionKind, MultimemReductionKindAttr, "multimem_reduction_kind",
     ("add", "min", "max", "and", "or", "xor", "umin", "umax")),
]


def test_every_enum_attr_is_covered() -> None:
    assert {attr for _, attr, _, _ in ENUM_ORDER} == set(ENUM_ATTRS)


@pytest.mark.parametrize(
    ("enum", "attr_cls", "mnemonic", "cases"), ENUM_ORDER, ids=[m for _, _, m, _ in ENUM_ORDER]
)
def test_enum_codes_and_text(
    ctx: Context,
    enum: type[CudaTileEnum],
    attr_cls: type[Attribute],
    mnemonic: str,
    cases: tuple[str, ...],
) -> None:
    assert [c.value for c in enum] == list(cases)
    for code, word in enumerate(cases):
        case = enum(word)
        assert case.code == code
        assert enum.from_code(code) is case
        attr = attr_cls(case)  # type: ignore[call-arg]
        text = f"#cuda_tile.{mnemonic}<{word}>"
        assert print_qualified(attr) == text
        assert parse_attribute(ctx, text) == attr
    with pytest.raises(IndexError):
        enum.from_code(len(cases))


def test_enum_attr_rejects_unknown_case(ctx: Context) -> None:
    from xdsl.utils.exceptions import ParseError

    with pytest.raises(ParseError):
        parse_attribute(ctx, "#cuda_tile.rounding<sideways>")


# --------------------------------------------------------------------------
# optimization_hints
# --------------------------------------------------------------------------


def _i64(v: int) -> IntegerAttr:
    return IntegerAttr(v, 64)


def test_optimization_hints_construction() -> None:
    hints = OptimizationHintsAttr({"sm_100": {"num_cta_in_cga": _i64(2)}})
    assert isinstance(hints.value, DictionaryAttr)
    inner = hints.value.data["sm_100"]
    assert isinstance(inner, DictionaryAttr)
    assert inner.data["num_cta_in_cga"] == _i64(2)
    assert OptimizationHintsAttr(hints.value) == hints


def test_optimization_hints_print_integers_without_type() -> None:
    # NVIDIA prints hint values with printAttributeWithoutType (opt_hints.mlir).
    hints = OptimizationHintsAttr(
        {"sm_100": {"num_cta_in_cga": _i64(2)}, "sm_120": {"num_cta_in_cga": _i64(2),
                                                          "occupancy": _i64(2)}}
    )
    assert print_qualified(hints) == (
        "#cuda_tile.optimization_hints<sm_100 = {num_cta_in_cga = 2}, "
        "sm_120 = {num_cta_in_cga = 2, occupancy = 2}>"
    )


def test_optimization_hints_round_trip(ctx: Context) -> None:
    text = (
        "#cuda_tile.optimization_hints<sm_100 = {num_cta_in_cga = 2}, "
        "sm_120 = {num_cta_in_cga = 2, occupancy = 2}>"
    )
    parsed = parse_attribute(ctx, text)
    assert print_qualified(parsed) == text
    assert parse_attribute(ctx, print_qualified(parsed)) == parsed


def test_optimization_hints_print_sorted(ctx: Context) -> None:
    # MLIR's DictionaryAttr keeps its entries sorted by name, so NVIDIA's tools
    # print both levels of the hints sorted whatever the input order.
    parsed = parse_attribute(
        ctx,
        "#cuda_tile.optimization_hints<sm_90 = {occupancy = 2, num_cta_in_cga = 1}, "
        "default = {occupancy = 1}>",
    )
    assert print_qualified(parsed) == (
        "#cuda_tile.optimization_hints<default = {occupancy = 1}, "
        "sm_90 = {num_cta_in_cga = 1, occupancy = 2}>"
    )


def test_optimization_hints_empty(ctx: Context) -> None:
    parsed = parse_attribute(ctx, "#cuda_tile.optimization_hints<>")
    assert parsed == OptimizationHintsAttr({})
    assert print_qualified(parsed) == "#cuda_tile.optimization_hints<>"


def test_optimization_hints_verify() -> None:
    with raises("expected dictionary attribute for optimization_hints entry `sm_100` got value="):
        OptimizationHintsAttr(DictionaryAttr({"sm_100": StringAttr("x")}))


def test_optimization_hints_parse_errors(ctx: Context) -> None:
    from xdsl.utils.exceptions import ParseError

    with pytest.raises(ParseError, match="duplicate optimization_hints key `sm_100`"):
        parse_attribute(
            ctx,
            "#cuda_tile.optimization_hints<sm_100 = {occupancy = 1}, sm_100 = {occupancy = 2}>",
        )
    with pytest.raises(
        ParseError,
        match=re.escape("expected dictionary attribute for optimization_hints entry `sm_100`"),
    ):
        parse_attribute(ctx, "#cuda_tile.optimization_hints<sm_100 = 3>")


def test_optimization_hints_checks() -> None:
    """NVIDIA's -Wunsupported-hints checks (``hints.hint_warnings``): per op."""
    from safetile.dialects.cuda_tile.hints import HintChecks, hint_warnings
    from safetile.dialects.cuda_tile.ops.structure import EntryOp

    def warnings(hints: dict[str, dict[str, Attribute]]) -> list[str]:
        entry = EntryOp("k", [], optimization_hints=OptimizationHintsAttr(hints))
        return hint_warnings(entry, HintChecks.WARN)[0]

    assert warnings({"sm_100": {"num_cta_in_cga": _i64(2)}, "default": {"occupancy": _i64(4)}}) == []
    assert warnings({"sm_999": {"occupancy": _i64(1)}}) == ["unknown hint key sm_999"]
    assert warnings({"sm_90": {"latency": _i64(1)}}) == [
        "latency is not known hint for current Operation"
    ]


# --------------------------------------------------------------------------
# assume predicates
# --------------------------------------------------------------------------


def test_assume_predicates_listed() -> None:
    assert set(ASSUME_PREDICATES) == {DivByAttr, SameElementsAttr, BoundedAttr}


@pytest.mark.parametrize(
    ("attr", "text"),
    [
        (DivByAttr(16), "#cuda_tile.div_by<16>"),
        (DivByAttr(4, every=2, along=1), "#cuda_tile.div_by<4, every 2 along 1>"),
        (SameElementsAttr([1, 4]), "#cuda_tile.same_elements<[1, 4]>"),
        (SameElementsAttr([]), "#cuda_tile.same_elements<[]>"),
        (BoundedAttr(0, 100), "#cuda_tile.bounded<0, 100>"),
        (BoundedAttr(None, 7), "#cuda_tile.bounded<?, 7>"),
        (BoundedAttr(-3, None), "#cuda_tile.bounded<-3, ?>"),
        (BoundedAttr(None, None), "#cuda_tile.bounded<?, ?>"),
    ],
    ids=str,
)
def test_assume_predicate_text(ctx: Context, attr: Attribute, text: str) -> None:
    assert print_qualified(attr) == text
    assert parse_attribute(ctx, text) == attr


def test_assume_predicate_accessors() -> None:
    d = DivByAttr(8, 4, 0)
    assert (d.divisor, d.every, d.along) == (8, 4, 0)
    assert (DivByAttr(8).every, DivByAttr(8).along) == (None, None)
    assert SameElementsAttr([2, 1]).values == (2, 1)
    b = BoundedAttr(None, 3)
    assert (b.lb, b.ub) == (None, 3)
    assert isinstance(b.lb_attr, NoneAttr)


PREDICATE_OK: list[tuple[Attribute, Attribute]] = [
    (DivByAttr(16), TileType((), i32)),
    (DivByAttr(16), TileType((), PointerType(f32))),
    (DivByAttr(16), TensorViewType(f32, (DYNAMIC,), (1,))),
    (DivByAttr(4, every=4, along=0), TileType((8, 2), i64)),
    (DivByAttr(4, every=0, along=1), TileType((8, 2), i64)),
    (DivByAttr(4611686018427387904), TileType((), i64)),
    (SameElementsAttr([4, 1]), TileType((8, 2), i32)),
    (SameElementsAttr([0, 2]), TileType((8, 2), PointerType(f16))),
    (SameElementsAttr([]), TileType((), i32)),
    (BoundedAttr(-128, 127), TileType((4,), i8)),
    (BoundedAttr(None, None), TileType((), i1)),
    (BoundedAttr(5, 5), TileType((), i32)),
]


@pytest.mark.parametrize(("pred", "t"), PREDICATE_OK, ids=[f"{p}-{t}" for p, t in PREDICATE_OK])
def test_assume_predicate_accepts(pred: Attribute, t: Attribute) -> None:
    assert hasattr(pred, "verify_with_value_type")
    pred.verify_with_value_type(t)  # type: ignore[attr-defined]


PREDICATE_BAD: list[tuple[Attribute, Attribute, str]] = [
    (DivByAttr(3), TileType((), i32), "'cuda_tile.div_by' divisor must be a power of 2"),
    (DivByAttr(0), TileType((), i32), "'cuda_tile.div_by' divisor must be a power of 2"),
    (DivByAttr(4, every=2), TileType((4,), i32),
     "'cuda_tile.div_by' 'every'/'along' must be used in combination"),
    (DivByAttr(4, along=0), TileType((4,), i32),
     "'cuda_tile.div_by' 'every'/'along' must be used in combination"),
    (DivByAttr(2**63), TileType((), i64), "'cuda_tile.div_by' divisor is too large"),
    (DivByAttr(4, every=2, along=0), TensorViewType(f32, (DYNAMIC,), (1,)),
     "'cuda_tile.div_by' 'every'/'along' cannot be used if the constrained value is a tensor_view"),
    (DivByAttr(4), TokenType(),
     "'cuda_tile.div_by' is valid only for tile of integer/pointer or tensor_view values"),
    (DivByAttr(4, every=1, along=0), TileType((), i32),
     "'cuda_tile.div_by' 'every'/'along' cannot be used if the constrained value is a 0D tile"),
    (DivByAttr(4), TileType((4,), f32),
     "'cuda_tile.div_by' is valid only for tile of integer/pointer or tensor_view values"),
    (DivByAttr(4, every=1, along=2), TileType((4, 4), i32),
     "'cuda_tile.div_by' every_dim (2) must be >= 0 and < tile rank (2)"),
    (DivByAttr(4, every=1, along=-1), TileType((4, 4), i32),
     "'cuda_tile.div_by' every_dim (-1) must be >= 0 and < tile rank (2)"),
    (DivByAttr(4, every=8, along=1), TileType((4, 4), i32),
     "expected 'cuda_tile.div_by' every_dim to be within 0 and the size of the respective "
     "dimension (4)"),
    (SameElementsAttr([1]), TileType((4,), f32),
     "'cuda_tile.same_elements' is valid only for tile of integer/pointer values"),
    (SameElementsAttr([1]), TensorViewType(i32, (4,), (1,)),
     "'cuda_tile.same_elements' is valid only for tile of integer/pointer values"),
    (SameElementsAttr([1]), TileType((4, 4), i32),
     "expected number of values in 'cuda_tile.same_elements' (1) to match rank of constrained tile (2)"),
    (SameElementsAttr([1, 8]), TileType((4, 4), i32),
     "expected 'cuda_tile.same_elements' value 1 to be within 0 and the size of the respective "
     "dimension (4)"),
    (SameElementsAttr([-1, 1]), TileType((4, 4), i32),
     "expected 'cuda_tile.same_elements' value 0 to be within 0 and the size of the respective "
     "dimension (4)"),
    (BoundedAttr(0, 1), TileType((4,), f32), "'cuda_tile.bounded' is valid only for tile of integer values"),
    (BoundedAttr(0, 1), TileType((4,), PointerType(i32)),
     "'cuda_tile.bounded' is valid only for tile of integer values"),
    (BoundedAttr(-129, 0), TileType((4,), i8),
     "'cuda_tile.bounded' expects lower bound to be within [-128, 127]"),
    (BoundedAttr(0, 128), TileType((4,), i8),
     "'cuda_tile.bounded' expects upper bound to be within [-128, 127]"),
    (BoundedAttr(None, 2**31), TileType((), i32),
     "'cuda_tile.bounded' expects upper bound to be within [-2147483648, 2147483647]"),
    (BoundedAttr(3, 2), TileType((), i32),
     "'cuda_tile.bounded' expects lower bound to be less than or equal to upper bound"),
]


@pytest.mark.parametrize(
    ("pred", "t", "message"), PREDICATE_BAD, ids=[f"{p}-{t}" for p, t, _ in PREDICATE_BAD]
)
def test_assume_predicate_rejects(pred: Attribute, t: Attribute, message: str) -> None:
    with raises(message):
        pred.verify_with_value_type(t)  # type: ignore[attr-defined]


MODULE_WITH_REPEATED_TYPES = """cuda_tile.module @m {
  entry @k(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>) {
    %c = constant <i32: 0> : tile<4xi32>
    %d = constant <i32: 1> : tile<4xi32>
    return
  }
}
"""


def test_a_type_written_again_is_read_once() -> None:
    """The parser keeps the bare types it read by their text: each later place that
    writes the same text gets the same (immutable) type, without reading it again."""
    from safetile.dialects.cuda_tile.ops.structure import EntryOp
    from safetile.dialects.cuda_tile.syntax import parse_tile_ir

    module = parse_tile_ir(None, MODULE_WITH_REPEATED_TYPES)
    entry = next(op for op in module.walk() if isinstance(op, EntryOp))
    a, b = entry.body.block.args
    c, d = (op.results[0] for op in entry.body.block.ops if op.results)
    assert a.type is b.type and c.type is d.type
    assert c.type == TileType((4,), IntegerType(32))


def test_a_bad_type_is_reported_at_each_place_it_is_written() -> None:
    """Only types that parsed are kept: a bad one is read, and refused, every time, at its own line."""
    from safetile.dialects.cuda_tile.syntax import TileIRError, parse_tile_ir

    for line in (3, 4):
        lines = MODULE_WITH_REPEATED_TYPES.splitlines()
        lines[line - 1] = lines[line - 1].replace("tile<4xi32>", "tile<0xi32>")
        with pytest.raises(TileIRError, match=rf"<input>:{line}:\d+: error: .*"):
            parse_tile_ir(None, "\n".join(lines))


def test_a_tile_type_is_uniqued_and_a_bad_one_refused_every_time() -> None:
    """``TileType(shape, element)`` gives the one made before for the same arguments (as MLIR
    uniques types); one that does not verify is never kept, so it is refused each time."""
    f32 = Float32Type()
    assert TileType((4, 8), f32) is TileType([4, 8], f32)
    assert TileType((4, 8), f32) is not TileType((8, 4), f32)
    for _ in range(2):
        with pytest.raises(VerifyException, match="powers of two"):
            TileType((3,), f32)
