"""What kernel code computes with while it is compiled, and the typing rules.

A name in a kernel is bound either to a *compile-time* Python value (an int,
a float, a bool, a tuple, a dtype, a function; generics such as ``BM`` are
these) or to a *runtime* value, one of the classes below, which wraps the
SSA value the IR computes it with.

Typing rules (``frontend.core`` applies them):

* no implicit element-type conversion between tiles: ``f32 + f16`` is an
  error that asks for ``.astype(...)``;
* a Python number combined with a tile takes the tile's element type;
* shapes combine by NumPy broadcasting (align right; equal, or one is 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import SSAValue

from safetile.dialects.cuda_tile.types import TileType

from . import dsl
from .dsl import DType


def tile_type(shape: Sequence[int], dtype: DType) -> TileType:
    return TileType(tuple(shape), dtype.ir)


@dataclass(eq=False)
class TileValue:
    """A runtime tile (a 0-d tile is a scalar).  ``dtype`` keeps the signedness
    that Tile IR's signless integer types do not carry."""

    value: SSAValue
    dtype: DType

    @property
    def type(self) -> TileType:
        t = self.value.type
        assert isinstance(t, TileType)
        return t

    @property
    def shape(self) -> tuple[int, ...]:
        return self.type.shape

    @property
    def ndim(self) -> int:
        return self.type.rank

    def describe(self) -> str:
        dims = "x".join(map(str, self.shape))
        return f"tile<{dims + 'x' if dims else ''}{self.dtype.name}>"


@dataclass(eq=False)
class TokenValue:
    """A runtime memory-ordering token (unsafe code)."""

    value: SSAValue


@dataclass(eq=False)
class TensorValue:
    """A tensor: its ``tensor_view`` and what the kernel knows of it.

    ``mode`` is a parameter's (``mut``, ``mapped``, ``shared``) or ``raw``
    for a view built in unsafe code (``st.make_tensor_view``,
    ``st.load_tensor``).  ``shape`` has an int per static dimension and a
    ``TileValue`` (i32 scalar) per dynamic one.  For ``mut``/``mapped``
    tensors ``tile`` is the host partition shape (``S``) and ``own_view``
    the partition view of it.  ``token`` is a hand-written memory token
    (``st.set_tensor_token``): the partitions made from the tensor carry it.
    """

    name: str
    mode: str
    dtype: DType
    view: SSAValue
    shape: tuple[int | TileValue, ...]
    tile: tuple[int, ...] = ()
    own_view: PartitionValue | None = None
    token: TokenValue | None = None

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def writable(self) -> bool:
        return self.mode in ("mut", "mapped")


@dataclass(eq=False)
class PartitionValue:
    """A ``partition_view`` of a tensor; ``mutable`` views accept stores.

    ``token`` is the hand-written token of the tensor when the view was made:
    every access through the view takes it (and is unsafe).
    """

    view: SSAValue
    tensor: TensorValue
    tile: tuple[int, ...]
    mutable: bool = False
    token: TokenValue | None = None

    @property
    def ndim(self) -> int:
        return len(self.tile)


@dataclass(eq=False)
class OwnedIndex:
    """A tile index this block owns, made by ``tile_indices()`` (``st.MutMapped``)
    or ``tile_index()`` (``st.Mut``).

    Only such an index may address that tensor's stores: the brand is what
    lets the disjointness pass prove one writer per tile.
    """

    tensor: TensorValue
    values: tuple[TileValue, ...]


@dataclass(frozen=True)
class OwnedTiles:
    """``z.tile_indices()``: the tiles of a ``st.MutMapped`` tensor this block owns,
    numbered row-major or in the grouped ``order``."""

    tensor: TensorValue
    order: dsl.GroupedOrder | None = None


@dataclass(frozen=True)
class BoundMethod:
    """``value.method`` before the call: the API function and its receiver."""

    function: object
    receiver: object


@dataclass(eq=False)
class Unavailable:
    """A name that exists in Python but not here (explained by ``reason``)."""

    reason: str


RUNTIME_TYPES = (TileValue, TensorValue, PartitionValue, TokenValue, OwnedIndex)

API_CLASS: dict[type, type] = {
    TileValue: dsl.Tile,
    TensorValue: dsl.TensorView,
    PartitionValue: dsl.PartitionView,
    TokenValue: dsl.Token,
}
"""Where a runtime value's methods and properties are declared."""


# --------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------


def is_pow2(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


def broadcast_shapes(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...] | None:
    """NumPy broadcasting of two static shapes, or None if they do not combine."""
    rank = len(a) if len(a) > len(b) else len(b)
    a = (1,) * (rank - len(a)) + tuple(a)
    b = (1,) * (rank - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x != y and 1 not in (x, y):
            return None
        out.append(y if x == 1 else x)
    return tuple(out)


def python_dtype(value: object) -> DType:
    """The element type a Python constant gets when nothing else decides it."""
    if isinstance(value, bool):
        return dsl.bool_
    if isinstance(value, int):
        return dsl.i32
    return dsl.f32


def fits(value: int, dtype: DType) -> bool:
    """Whether the integer ``value`` is representable in ``dtype``."""
    if dtype.kind == "bool":
        return value in (0, 1)
    if dtype.kind == "uint":
        return 0 <= value < 2**dtype.bits
    if dtype.kind == "int":
        return -(2 ** (dtype.bits - 1)) <= value < 2 ** (dtype.bits - 1)
    return True


def flatten(value: object) -> list[object]:
    """The leaves of ``value`` (tuples are walked, everything else is a leaf)."""
    if isinstance(value, tuple):
        return [leaf for v in value for leaf in flatten(v)]
    return [value]


def unflatten(template: object, leaves: list[object]) -> object:
    """``template``'s structure with its leaves taken in order from ``leaves``."""
    if isinstance(template, tuple):
        return tuple(unflatten(v, leaves) for v in template)
    return leaves.pop(0)
