"""Property tests: every well-formed type (and constant) prints, parses back
equal, and prints the same text again.

Types are drawn from the whole space NVIDIA allows: tile shapes of powers of
two with every element type (pointers included), tensor_views with any mix of
static and dynamic (``?``) sizes and strides, and every kind of tile view with
a valid tile shape, a permutation as ``dim_map`` and a padding value allowed
for its element type.  Constants are drawn with every element type and any
bit pattern (NaN payloads, infinities, -0.0, extreme integers), splat or not,
built through ``ConstantOp``'s API inside a module; their values must survive
printing and parsing (canonical and generic forms) bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float4E2M1FNType,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float8E8M0FNUType,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatTF32Type,
    IntegerType,
)
from xdsl.dialects.builtin import ModuleOp as BuiltinModuleOp
from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.attributes import PaddingValue, PaddingValueAttr
from safetile.dialects.cuda_tile.literals import dense_value, element_bits, element_width
from safetile.dialects.cuda_tile.ops.shape import ConstantOp
from safetile.dialects.cuda_tile.ops.structure import EntryOp, ModuleOp, ReturnOp
from safetile.dialects.cuda_tile.syntax import parse_tile_ir, print_tile_ir
from safetile.dialects.cuda_tile.types import (
    DYNAMIC,
    MAX_TILE_ELEMENTS,
    Float8E5M3FNUType,
    GatherScatterViewType,
    PartitionViewType,
    PointerType,
    StridedViewType,
    TensorViewType,
    TileType,
    is_float,
)
from support import examples, make_context, parse_type, print_canonical, print_qualified, roundtrip_module

PROPERTY_SETTINGS = settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

CTX: Context = make_context()
"""One context for all examples (fixtures do not mix with ``@given``)."""

# Pointees and tensor_view elements are CudaTile_NumberType, which has no i4
# (Types.td); i4 is a tile element type only.
NUMBER_TYPES: tuple[Attribute, ...] = (
    IntegerType(1),
    IntegerType(8),
    IntegerType(16),
    IntegerType(32),
    IntegerType(64),
    Float16Type(),
    BFloat16Type(),
    Float32Type(),
    FloatTF32Type(),
    Float64Type(),
    Float8E4M3FNType(),
    Float8E5M2Type(),
    Float8E8M0FNUType(),
    Float4E2M1FNType(),
    Float8E5M3FNUType(),
)
TILE_ONLY_ELEMENTS: tuple[Attribute, ...] = (IntegerType(4),)
"""Tile element types that are not ``CudaTile_NumberType``."""

number_types = st.sampled_from(NUMBER_TYPES)
pointer_types = st.builds(PointerType, number_types)
tile_element_types = st.one_of(
    number_types, st.sampled_from(TILE_ONLY_ELEMENTS), pointer_types
)


def _fits(shape: Sequence[int], element_type: Attribute) -> bool:
    """Whether a ``pow2_shapes`` shape suits ``element_type`` (f4 needs an even count)."""
    if isinstance(element_type, Float4E2M1FNType):
        return bool(shape) and any(d % 2 == 0 for d in shape)
    return True


@st.composite
def pow2_shapes(
    draw: st.DrawFn, min_rank: int = 0, max_rank: int = 4
) -> tuple[int, ...]:
    """Tile shapes of powers of two, at most ``MAX_TILE_ELEMENTS`` elements."""
    rank = draw(st.integers(min_rank, max_rank))
    budget = MAX_TILE_ELEMENTS.bit_length() - 1  # log2 of the element limit
    shape: list[int] = []
    for _ in range(rank):
        e = draw(st.integers(0, min(12, budget)))
        budget -= e
        shape.append(1 << e)
    return tuple(shape)


@st.composite
def tile_types(draw: st.DrawFn) -> TileType:
    elem = draw(tile_element_types)
    shape = draw(pow2_shapes().filter(lambda s: _fits(s, elem)))
    return TileType(shape, elem)


view_dims = st.one_of(st.just(DYNAMIC), st.integers(1, 2**40))
view_strides = st.one_of(st.just(DYNAMIC), st.integers(1, 2**40))


@st.composite
def tensor_view_types(
    draw: st.DrawFn, rank: int | None = None, element_type: Attribute | None = None
) -> TensorViewType:
    r = draw(st.integers(0, 4)) if rank is None else rank
    elem = draw(number_types) if element_type is None else element_type
    shape = draw(st.lists(view_dims, min_size=r, max_size=r))
    strides = draw(st.lists(view_strides, min_size=r, max_size=r))
    return TensorViewType(elem, shape, strides)


@st.composite
def view_parts(
    draw: st.DrawFn,
) -> tuple[tuple[int, ...], TensorViewType, list[int], PaddingValueAttr | None]:
    """Tile shape, tensor_view, dim_map and padding of a valid tile view."""
    elem = draw(number_types)
    tile = draw(pow2_shapes(min_rank=1).filter(lambda s: _fits(s, elem)))
    view = draw(tensor_view_types(rank=len(tile), element_type=elem))
    dim_map = draw(st.permutations(range(len(tile))))
    allowed = list(PaddingValue) if is_float(elem) else [PaddingValue.ZERO]
    padding = draw(st.one_of(st.none(), st.sampled_from(allowed).map(PaddingValueAttr)))
    return tile, view, list(dim_map), padding


@st.composite
def partition_view_types(draw: st.DrawFn) -> PartitionViewType:
    tile, view, dim_map, padding = draw(view_parts())
    return PartitionViewType(tile, view, dim_map=dim_map, padding_value=padding)


@st.composite
def strided_view_types(draw: st.DrawFn) -> StridedViewType:
    tile, view, dim_map, padding = draw(view_parts())
    strides = draw(st.lists(st.integers(1, 2**31 - 1), min_size=len(tile), max_size=len(tile)))
    return StridedViewType(tile, strides, view, dim_map=dim_map, padding_value=padding)


@st.composite
def gather_scatter_view_types(draw: st.DrawFn) -> GatherScatterViewType:
    tile, view, _, padding = draw(view_parts())
    sparse_dim = draw(st.integers(0, len(tile) - 1))
    return GatherScatterViewType(tile, view, sparse_dim, padding_value=padding)


def assert_round_trips(t: Attribute) -> None:
    """Both spellings parse back to ``t`` and printing is stable."""
    canonical = print_canonical(t)
    qualified = print_qualified(t)
    again = parse_type(CTX, canonical)
    assert again == t, f"{canonical!r} parsed to {again}"
    assert parse_type(CTX, qualified) == t, qualified
    assert print_canonical(again) == canonical
    assert print_qualified(parse_type(CTX, qualified)) == qualified
    assert "cuda_tile." not in canonical
    assert qualified.startswith("!cuda_tile.")


@PROPERTY_SETTINGS
@given(tile_types())
def test_tile_types_round_trip(t: TileType) -> None:
    assert_round_trips(t)


@PROPERTY_SETTINGS
@given(tensor_view_types())
def test_tensor_view_types_round_trip(t: TensorViewType) -> None:
    assert_round_trips(t)


@PROPERTY_SETTINGS
@given(partition_view_types())
def test_partition_view_types_round_trip(t: PartitionViewType) -> None:
    assert_round_trips(t)


@PROPERTY_SETTINGS
@given(strided_view_types())
def test_strided_view_types_round_trip(t: StridedViewType) -> None:
    assert_round_trips(t)


@PROPERTY_SETTINGS
@given(gather_scatter_view_types())
def test_gather_scatter_view_types_round_trip(t: GatherScatterViewType) -> None:
    assert_round_trips(t)


entry_arg_types: st.SearchStrategy[Attribute] = st.one_of(
    st.builds(TileType, st.just(()), st.one_of(number_types.filter(
        lambda e: not isinstance(e, Float4E2M1FNType)), pointer_types)),
    tensor_view_types(),
    partition_view_types(),
    strided_view_types(),
    gather_scatter_view_types(),
)


@PROPERTY_SETTINGS
@given(st.lists(entry_arg_types, min_size=1, max_size=4))
def test_types_round_trip_in_a_module(arg_types: list[Attribute]) -> None:
    """Types of entry arguments print canonically and re-parse identically."""
    args = ", ".join(f"%a{i}: {print_qualified(t)}" for i, t in enumerate(arg_types))
    text = f"cuda_tile.module @m {{\n  entry @k({args}) {{\n    return\n  }}\n}}\n"
    module, printed = roundtrip_module(CTX, text)
    _, again = roundtrip_module(CTX, printed)
    assert again == printed
    for t in arg_types:
        assert print_canonical(t) in printed
    entry = next(iter(next(iter(module.ops)).regions[0].block.ops))
    assert [a.type for a in entry.regions[0].block.args] == arg_types


# --------------------------------------------------------------------------
# Constants: every element type, every bit pattern
# --------------------------------------------------------------------------

INT_CONSTANT_TYPES: tuple[IntegerType, ...] = tuple(IntegerType(w) for w in (1, 8, 16, 32, 64))
FLOAT_CONSTANT_TYPES: tuple[Attribute, ...] = (
    Float16Type(),
    BFloat16Type(),
    Float32Type(),
    Float64Type(),
    FloatTF32Type(),
    Float8E4M3FNType(),
    Float8E5M2Type(),
    Float8E8M0FNUType(),
    Float4E2M1FNType(),
)
"""Element types a ``constant`` may have (NVIDIA's isValidDenseElementType)."""

# Element counts up to 512 cover the nested-list form and MLIR's hex-string
# form (used above 100 elements).
constant_shapes = st.lists(st.integers(0, 3).map(lambda e: 1 << e), min_size=0, max_size=3).map(
    tuple
)

CONSTANT_SETTINGS = settings(PROPERTY_SETTINGS, max_examples=examples(60))


def _constant_tile_type(draw: st.DrawFn, element_type: Attribute) -> TileType:
    shape = draw(constant_shapes.filter(lambda s: _fits(s, element_type)))
    return TileType(shape, element_type)


def _splat_or_not(draw: st.DrawFn, n: int, element: st.SearchStrategy[object]) -> list[object]:
    if draw(st.booleans()):
        return [draw(element)] * n
    return draw(st.lists(element, min_size=n, max_size=n))


ConstantSpec = tuple[TileType, bytes]
"""A constant's type and raw little-endian element data."""


@st.composite
def constants_from_bits(draw: st.DrawFn) -> ConstantSpec:
    """Any bit pattern of any element type: NaN payloads, infinities, -0.0, ..."""
    element_type = draw(st.sampled_from((*INT_CONSTANT_TYPES, *FLOAT_CONSTANT_TYPES)))
    tile_type = _constant_tile_type(draw, element_type)
    width = element_width(element_type)
    size = (width + 7) // 8
    extremes = [0, 1, (1 << width) - 1, 1 << (width - 1), (1 << (width - 1)) - 1]
    bits = st.one_of(st.integers(0, (1 << width) - 1), st.sampled_from(extremes))
    values = _splat_or_not(draw, tile_type.num_elements, bits)
    return tile_type, b"".join(int(b).to_bytes(size, "little") for b in values)  # type: ignore[call-overload]


SPECIAL_FLOATS = (0.0, -0.0, float("inf"), float("-inf"), float("nan"), -float("nan"),
                  1.0, -1.0, 0.5, 1e-300, 5e-324, 1.7976931348623157e308, 65504.0, 448.0,
                  57344.0, 6.0, 3.4028234663852886e38, 1.1754943508222875e-38)


@st.composite
def constants_from_values(draw: st.DrawFn) -> ConstantSpec:
    """Python numbers through ``ConstantOp.from_values`` / ``splat``."""
    element_type = draw(st.sampled_from((*INT_CONSTANT_TYPES, *FLOAT_CONSTANT_TYPES)))
    tile_type = _constant_tile_type(draw, element_type)
    element: st.SearchStrategy[object]
    if isinstance(element_type, IntegerType):
        w = element_type.width.data
        lo, hi = (0, 1) if w == 1 else (-(1 << (w - 1)), (1 << w) - 1)
        element = st.one_of(st.integers(lo, hi), st.sampled_from((lo, hi, 0, -1 if lo else 0)))
    else:
        element = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                            st.sampled_from(SPECIAL_FLOATS))
    if draw(st.booleans()):
        op = ConstantOp.splat(tile_type, draw(element))  # type: ignore[arg-type]
    else:
        values = draw(st.lists(element, min_size=tile_type.num_elements,
                               max_size=tile_type.num_elements))
        op = ConstantOp.from_values(tile_type, values)
    assert op.result.type == tile_type
    return tile_type, op.value.data.data


def _module_with(constants: list[ConstantOp]) -> BuiltinModuleOp:
    entry = EntryOp("k", [])
    for c in constants:
        entry.body.block.add_op(c)
    entry.body.block.add_op(ReturnOp())
    return BuiltinModuleOp([ModuleOp("m", [entry])])


def _constants_in(module: BuiltinModuleOp) -> list[ConstantOp]:
    return [op for op in module.walk() if isinstance(op, ConstantOp)]


def assert_constants_round_trip(specs: list[ConstantSpec]) -> None:
    constants = [ConstantOp(dense_value(t, data), t) for t, data in specs]
    expected = [(c.result.type, element_bits(c.value)) for c in constants]
    module = _module_with(constants)
    module.verify()
    printed = print_tile_ir(module)
    parsed = parse_tile_ir(CTX, printed)
    got = [(c.result.type, element_bits(c.value)) for c in _constants_in(parsed)]
    assert got == expected, printed
    assert print_tile_ir(parsed) == printed
    # The generic and fully qualified forms carry the same bits.
    generic_text = print_tile_ir(parsed, generic=True)
    generic = parse_tile_ir(CTX, generic_text)
    got_generic = [element_bits(c.value) for c in _constants_in(generic)]
    assert got_generic == [b for _, b in expected], generic_text
    assert print_tile_ir(generic) == printed


@CONSTANT_SETTINGS
@given(st.lists(constants_from_bits(), min_size=1, max_size=3))
def test_constants_round_trip_bit_exactly(specs: list[ConstantSpec]) -> None:
    assert_constants_round_trip(specs)


@CONSTANT_SETTINGS
@given(st.lists(constants_from_values(), min_size=1, max_size=3))
def test_constants_from_python_values_round_trip(specs: list[ConstantSpec]) -> None:
    assert_constants_round_trip(specs)


@PROPERTY_SETTINGS
@given(st.sampled_from(INT_CONSTANT_TYPES), st.data())
def test_integer_constants_keep_their_values(element_type: IntegerType, data: st.DataObject) -> None:
    """Integers print as signed decimals and wrap modulo 2**width."""
    w = element_type.width.data
    value = data.draw(st.integers(-(1 << (w - 1)), (1 << w) - 1) if w > 1 else st.integers(0, 1))
    c = ConstantOp.splat(TileType((), element_type), value)
    assert element_bits(c.value) == [value % (1 << w)]
    printed = print_tile_ir(_module_with([c]))
    signed = value - (1 << w) if w > 1 and value >= 1 << (w - 1) else value
    literal = ("true" if value else "false") if w == 1 else str(signed)
    assert f"constant <i{w}: {literal}> : tile<i{w}>" in printed
