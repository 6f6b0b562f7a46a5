"""The kernel language as users see it: element types, annotations, functions.

Everything here is a *name* the compiler recognises in kernel source; none
of it runs.  ``import safetile as st`` exposes these names.  Calling a
kernel-language function from ordinary Python raises ``RuntimeError``: the
compiler reads kernels from their source (``frontend.lower``) and lowers each
call through the table of ``frontend.builtins``.

Spelling (cuTile Rust on the left)::

    &mut Tensor<f32, S>            st.Mut[f32, "S"]          mutable output, host-partitioned
    &Tensor<E, {[-1, K]}>          st.Ref["E", (-1, "K")]    read-only input
    alpha: f32                     alpha: st.f32             scalar
    *mut f32                       st.Ptr[f32]               raw pointer (unsafe)
    <E: ElementType, const BM: i32, const S: [i32; 2]>
                                   *, E: st.DType, BM: int, S: st.Shape
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, TypeVar

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatTF32Type,
    IntegerType,
)
from xdsl.ir import Attribute

from safetile.dialects.cuda_tile.types import PointerType

# --------------------------------------------------------------------------
# Element types
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class DType:
    """An element type.  ``kind`` is ``float``, ``int`` (signed), ``uint`` or ``bool``.

    Tile IR integers are signless; the signedness lives here and is given to
    the ops that need it (division, comparison, shifts, conversions).  As an
    annotation of a keyword-only kernel parameter, ``st.DType`` declares an
    element-type generic (``*, E: st.DType``).
    """

    name: str
    kind: str
    bits: int

    def __repr__(self) -> str:
        return f"st.{self.name}"

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_int(self) -> bool:
        """Integers of either signedness, and bool."""
        return self.kind in ("int", "uint", "bool")

    @property
    def signed(self) -> bool:
        return self.kind == "int"

    @property
    def ir(self) -> Attribute:
        """The Tile IR element type."""
        if self.kind == "float":
            return _FLOAT_IR[self.name]()
        return IntegerType(self.bits)


@dataclass(frozen=True, repr=False)
class PtrDType(DType):
    """The element type of a pointer tile: ``ptr<pointee>``."""

    pointee: DType = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"st.Ptr[{self.pointee!r}]"

    @property
    def ir(self) -> Attribute:
        return PointerType(self.pointee.ir)


def ptr_dtype(pointee: DType) -> PtrDType:
    return PtrDType(f"ptr<{pointee.name}>", "ptr", 64, pointee)


_FLOAT_IR: dict[str, Callable[[], Attribute]] = {
    "f16": Float16Type,
    "bf16": BFloat16Type,
    "f32": Float32Type,
    "f64": Float64Type,
    "tf32": FloatTF32Type,
    "f8e4m3fn": Float8E4M3FNType,
    "f8e5m2": Float8E5M2Type,
}

f16 = DType("f16", "float", 16)
bf16 = DType("bf16", "float", 16)
f32 = DType("f32", "float", 32)
f64 = DType("f64", "float", 64)
tf32 = DType("tf32", "float", 32)
f8e4m3fn = DType("f8e4m3fn", "float", 8)
"""FP8 (storage only: convert to f16/f32 to compute; ``mma`` takes it)."""
f8e5m2 = DType("f8e5m2", "float", 8)
i8 = DType("i8", "int", 8)
i16 = DType("i16", "int", 16)
i32 = DType("i32", "int", 32)
i64 = DType("i64", "int", 64)
u8 = DType("u8", "uint", 8)
u16 = DType("u16", "uint", 16)
u32 = DType("u32", "uint", 32)
u64 = DType("u64", "uint", 64)
bool_ = DType("bool", "bool", 1)

DTYPES: dict[str, DType] = {
    d.name: d
    for d in (f16, bf16, f32, f64, tf32, f8e4m3fn, f8e5m2, i8, i16, i32, i64, u8, u16, u32, u64, bool_)
}


class Shape:
    """Annotation of a whole-shape generic: ``*, S: st.Shape`` (a tuple of ints)."""


# --------------------------------------------------------------------------
# Parameter annotations
# --------------------------------------------------------------------------

DTypeSpec = DType | str
"""An element type, or the name of an element-type generic (``"E"``)."""
DimSpec = int | str
"""A dimension: an int (``-1`` is dynamic) or the name of an int generic."""
ShapeSpec = tuple[DimSpec, ...] | str
"""A shape: a tuple of dimensions, or the name of a shape generic (``"S"``)."""


@dataclass(frozen=True)
class TensorParam:
    """What ``st.Mut[...]``, ``st.Ref[...]`` and ``st.MutMapped[...]`` stand for.

    ``mode`` is ``mut`` (host-partitioned output: ``shape`` is the partition
    shape each tile block owns), ``mapped`` (host-partitioned output whose
    tiles a block walks with ``tile_indices()``) or ``shared`` (read-only,
    ``shape`` is the whole tensor's, ``-1`` for a dynamic dimension).
    """

    mode: str
    dtype: DTypeSpec
    shape: ShapeSpec


def _tensor_param(mode: str, params: Any) -> TensorParam:
    if not isinstance(params, tuple) or len(params) != 2:
        raise TypeError("write a tensor parameter as st.Mut[dtype, shape]")
    dtype, shape = params
    if isinstance(shape, list):
        shape = tuple(shape)
    return TensorParam(mode, dtype, shape)


class Mut:
    """``st.Mut[E, S]``: the mutable output (``&mut Tensor<E, S>``), partitioned by the host.

    Each tile block owns the sub-tensor of shape ``S`` at its tile block id;
    ``z.load()`` reads it and ``z.store(tile)`` writes it.  Mutable
    parameters come first and have rank 1 to 3.
    """

    def __class_getitem__(cls, params: Any) -> TensorParam:
        return _tensor_param("mut", params)


class MutMapped:
    """``st.MutMapped[E, S]``: a mutable output whose tiles each block walks.

    The host partitions the tensor by ``S`` but launches any grid (e.g. one
    block per SM); ``for idx in z.tile_indices():`` visits this block's share
    of the tiles, and ``z.store(tile, idx)`` takes only such an ``idx``.
    """

    def __class_getitem__(cls, params: Any) -> TensorParam:
        return _tensor_param("mapped", params)


class Ref:
    """``st.Ref[E, shape]``: a read-only input (``&Tensor<E, shape>``), ``-1`` = dynamic dim."""

    def __class_getitem__(cls, params: Any) -> TensorParam:
        return _tensor_param("shared", params)


@dataclass(frozen=True)
class PtrParam:
    """What ``st.Ptr[E]`` stands for: a raw device pointer (usable in ``st.unsafe()``)."""

    dtype: DTypeSpec

    def __str__(self) -> str:
        return f"st.Ptr[{self.dtype.name if isinstance(self.dtype, DType) else repr(self.dtype)}]"


class Ptr:
    """``st.Ptr[E]``: a raw pointer parameter (``*mut E``); only unsafe code may use it."""

    def __class_getitem__(cls, dtype: DTypeSpec) -> PtrParam:
        return PtrParam(dtype)


@dataclass(frozen=True)
class TensorSpec:
    """What the host will pass for a tensor parameter: one specialization's facts.

    ``shape``/``strides`` are in elements (``-1`` or ``None``: unknown);
    ``strides=None`` with a known shape means contiguous row-major.
    ``partition`` is the host partition of a mutable output (it gives the
    ``S`` generic).  ``aligned``: the base address is 16-byte aligned.
    Dynamic dimensions never make a new variant; their divisibility by 16,
    unit strides and the alignment do (as in cuTile Python and Triton).
    """

    dtype: DType | None = None
    shape: tuple[int, ...] | None = None
    strides: tuple[int, ...] | None = None
    partition: tuple[int, ...] | None = None
    aligned: bool = True


# --------------------------------------------------------------------------
# Decorator-free names: context managers and loop helpers
# --------------------------------------------------------------------------


def unsafe() -> AbstractContextManager[None]:
    """``with st.unsafe():`` marks code that may use raw pointers, mutable
    device-side partitions and ``assume_*`` hints.  The compiler records
    every unsafe operation in the IR so a report can list them."""
    raise RuntimeError("st.unsafe() is only meaningful inside a kernel")


# --------------------------------------------------------------------------
# Kernel-language functions (lowered by frontend.builtins)
# --------------------------------------------------------------------------

_F = TypeVar("_F", bound=Callable[..., Any])


def kernel_only(what: str) -> RuntimeError:
    """The error for touching a kernel value (``Tile.shape``, ...) in plain Python."""
    return RuntimeError(f"{what} only exists inside a @st.kernel or @st.function")


def builtin(fn: _F) -> _F:
    """Mark ``fn`` as a kernel-language function: only kernels may call it."""

    @functools.wraps(fn)
    def outside(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            f"st.{fn.__name__}() can only be called inside a @st.kernel or @st.function"
        )

    outside.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]
    return outside  # type: ignore[return-value]


def with_host(kernel_fn: _F, host_fn: Callable[..., Any]) -> _F:
    """One name for both sides: ``kernel_fn`` inside a kernel, ``host_fn`` on
    the host (``st.zeros`` allocates a tensor outside a kernel)."""

    @functools.wraps(host_fn)
    def both(*args: Any, **kwargs: Any) -> Any:
        return host_fn(*args, **kwargs)

    both.__kernel_builtin__ = kernel_fn  # type: ignore[attr-defined]
    both.__doc__ = f"{kernel_fn.__doc__}\n\nOn the host: {host_fn.__doc__}"
    return both  # type: ignore[return-value]


@builtin
def static_range(start: int, stop: int | None = None, step: int = 1) -> range:
    """``for i in st.static_range(n):`` unrolls the loop at compile time."""


# Tile orders ---------------------------------------------------------------


@dataclass(frozen=True)
class GroupedOrder:
    """``st.grouped(G)``: the grouped tile order of a 2-d output (Triton's ``GROUP_M``).

    Tile number ``t`` of an ``n0 x n1`` grid of tiles is taken ``G`` rows at
    a time, column by column within a group::

        width = G * n1;  first = (t // width) * G;  rows = min(n0 - first, G)
        m = first + (t % width) % rows;  n = (t % width) // rows

    so consecutive blocks share rows of ``x`` and columns of ``y`` in L2.  With
    ``reverse`` the columns are walked from the last: ``n = n1 - 1 - (t % width) //
    rows`` (causal attention's heaviest query tiles first).  Either is a bijection
    of ``[0, n0 * n1)`` onto the tiles, which partition-disjointness proves from
    the index math the frontend emits.
    """

    group: int
    reverse: bool = False


@builtin
def grouped(group: int, *, reverse: bool = False) -> GroupedOrder:
    """The grouped tile order with groups of ``group`` rows (a compile-time int >= 1), for
    ``z.tile_indices(order=...)`` and ``z.tile_index(order=...)``; ``reverse`` (a compile-time
    bool) walks the columns from the last one down.  ``st.grouped(G)`` with ``G`` at least the
    rows is the default order (the row fastest), so ``st.grouped(G, reverse=True)`` is also the
    default order with the columns reversed."""


# Grid ----------------------------------------------------------------------


@builtin
def tile_block_id() -> tuple[Any, Any, Any]:
    """The (x, y, z) coordinates of this tile block (``get_tile_block_id``)."""


@builtin
def num_tile_blocks() -> tuple[Any, Any, Any]:
    """The grid size (x, y, z) (``get_num_tile_blocks``)."""


# Memory ----------------------------------------------------------------------


@builtin
def load_tile_like(
    src: TensorView, dst: TensorView, *, latency: int | None = None, allow_tma: bool | None = None
) -> Tile:
    """Load the tile of ``src`` at the position of this block's tile of ``dst`` (rank 1-3).

    ``latency`` (1-10) and ``allow_tma`` are this load's hints to tileiras
    (``latency`` sets the depth of the shared-memory pipeline feeding it)."""


@builtin
def load_tile_mut(dst: TensorView) -> Tile:
    """This block's tile of the mutable output (``dst.load()``)."""


@builtin
def num_tiles(partition: PartitionView, axis: int) -> Tile:
    """Number of tiles of ``partition`` along ``axis`` (``get_index_space_shape``)."""


# Creation ------------------------------------------------------------------


@builtin
def zeros(shape: tuple[int, ...], dtype: DType = f32) -> Tile:
    """A tile of zeros."""


@builtin
def ones(shape: tuple[int, ...], dtype: DType = f32) -> Tile:
    """A tile of ones."""


@builtin
def full(shape: tuple[int, ...], value: Any, dtype: DType | None = None) -> Tile:
    """A tile filled with ``value`` (a constant or a runtime scalar)."""


@builtin
def constant(value: Any, shape: tuple[int, ...], dtype: DType | None = None) -> Tile:
    """A tile filled with the constant ``value`` (cuTile's argument order)."""


@builtin
def broadcast_scalar(value: Any, shape: tuple[int, ...], dtype: DType | None = None) -> Tile:
    """A scalar (constant or runtime) broadcast to ``shape``."""


@builtin
def iota(shape: int | tuple[int], dtype: DType = i32) -> Tile:
    """``[0, 1, ..., n-1]`` as a 1-d tile."""


# Shape -----------------------------------------------------------------------


@builtin
def reshape(tile: Tile, shape: tuple[int, ...]) -> Tile:
    """The same elements (row-major) under a new shape."""


@builtin
def broadcast(tile: Tile, shape: tuple[int, ...]) -> Tile:
    """``tile`` stretched to ``shape`` by NumPy's rules (align right, 1 stretches)."""


@builtin
def permute(tile: Tile, perm: tuple[int, ...]) -> Tile:
    """Reorder dimensions: result dim ``i`` is ``tile``'s dim ``perm[i]``."""


@builtin
def transpose(tile: Tile) -> Tile:
    """Swap the two dimensions of a 2-d tile."""


@builtin
def cat(a: Tile, b: Tile, axis: int) -> Tile:
    """Concatenate along ``axis``."""


@builtin
def extract(tile: Tile, index: tuple[Any, ...], shape: tuple[int, ...]) -> Tile:
    """The sub-tile of ``shape`` at sub-tile grid position ``index``."""


# Reductions and scans ------------------------------------------------------


@builtin
def sum(tile: Tile, axis: int, keepdims: bool = False) -> Tile:  # noqa: A001
    """Sum along ``axis``."""


@builtin
def max(tile: Tile, axis: int, keepdims: bool = False) -> Tile:  # noqa: A001
    """Maximum along ``axis``."""


@builtin
def min(tile: Tile, axis: int, keepdims: bool = False) -> Tile:  # noqa: A001
    """Minimum along ``axis``."""


@builtin
def prod(tile: Tile, axis: int, keepdims: bool = False) -> Tile:
    """Product along ``axis``."""


@builtin
def reduce(
    tile: Tile, axis: int, combiner: Callable[[Any, Any], Any], identity: Any, keepdims: bool = False
) -> Tile:
    """Fold ``tile`` along ``axis`` with ``combiner(elem, acc)`` (a lambda or @st.function)."""


@builtin
def scan(
    tile: Tile, axis: int, combiner: Callable[[Any, Any], Any], identity: Any, reverse: bool = False
) -> Tile:
    """Inclusive prefix combination along ``axis``."""


@builtin
def cumsum(tile: Tile, axis: int, reverse: bool = False) -> Tile:
    """Inclusive prefix sum along ``axis``."""


@builtin
def cumprod(tile: Tile, axis: int, reverse: bool = False) -> Tile:
    """Inclusive prefix product along ``axis``."""


# Matrix multiply -----------------------------------------------------------


@builtin
def mma(a: Tile, b: Tile, acc: Tile) -> Tile:
    """``a @ b + acc`` (``[M,K] x [K,N] + [M,N]``, or batched 3-d) on tensor cores."""


# Arithmetic and math ---------------------------------------------------------


@builtin
def add(a: Any, b: Any, rounding: str = "nearest_even", ftz: bool = False) -> Tile:
    """``a + b`` with an explicit rounding mode / flush-to-zero (floats)."""


@builtin
def sub(a: Any, b: Any, rounding: str = "nearest_even", ftz: bool = False) -> Tile:
    """``a - b`` with an explicit rounding mode / flush-to-zero (floats)."""


@builtin
def mul(a: Any, b: Any, rounding: str = "nearest_even", ftz: bool = False) -> Tile:
    """``a * b`` with an explicit rounding mode / flush-to-zero (floats)."""


@builtin
def true_div(a: Any, b: Any, rounding: str = "nearest_even", ftz: bool = False) -> Tile:
    """Float division; ``rounding`` may also be ``approx`` or ``full`` (f32)."""


@builtin
def fma(a: Any, b: Any, c: Any, rounding: str = "nearest_even", ftz: bool = False) -> Tile:
    """``a * b + c`` rounded once."""


@builtin
def ceil_div(a: Any, b: Any) -> Any:
    """Integer division rounding up."""


@builtin
def pow(a: Any, b: Any) -> Tile:  # noqa: A001
    """``a ** b`` for floats (a float or integer exponent)."""


@builtin
def mulhi(a: Any, b: Any) -> Tile:
    """High half of the integer product (``mulhii``)."""


@builtin
def abs(x: Tile) -> Tile:  # noqa: A001
    """Absolute value (``absf``/``absi``); Python's ``abs(x)`` means the same."""


@builtin
def maximum(a: Any, b: Any, propagate_nan: bool = False, ftz: bool = False) -> Tile:
    """Element-wise maximum."""


@builtin
def minimum(a: Any, b: Any, propagate_nan: bool = False, ftz: bool = False) -> Tile:
    """Element-wise minimum."""


@builtin
def exp(x: Tile, approx: bool = False) -> Tile:
    """``e ** x``."""


@builtin
def exp2(x: Tile, ftz: bool = False) -> Tile:
    """``2 ** x``."""


@builtin
def log(x: Tile) -> Tile:
    """Natural logarithm."""


@builtin
def log2(x: Tile) -> Tile:
    """Base-2 logarithm."""


@builtin
def sqrt(x: Tile, rounding: str = "nearest_even", ftz: bool = False) -> Tile:
    """Square root (``rounding`` may be ``approx``)."""


@builtin
def rsqrt(x: Tile, ftz: bool = False) -> Tile:
    """``1 / sqrt(x)``."""


@builtin
def sin(x: Tile) -> Tile:
    """Sine."""


@builtin
def cos(x: Tile) -> Tile:
    """Cosine."""


@builtin
def tan(x: Tile) -> Tile:
    """Tangent."""


@builtin
def sinh(x: Tile) -> Tile:
    """Hyperbolic sine."""


@builtin
def cosh(x: Tile) -> Tile:
    """Hyperbolic cosine."""


@builtin
def tanh(x: Tile, approx: bool = False) -> Tile:
    """Hyperbolic tangent."""


@builtin
def ceil(x: Tile) -> Tile:
    """Round up to an integral value."""


@builtin
def floor(x: Tile) -> Tile:
    """Round down to an integral value."""


@builtin
def atan2(x: Tile, y: Tile) -> Tile:
    """Arc tangent of ``x / y`` with the quadrant of both signs."""


# Comparison and selection ----------------------------------------------------


@builtin
def where(cond: Any, a: Any, b: Any) -> Tile:
    """Element-wise ``a if cond else b`` (NumPy broadcasting)."""


select = where


# Conversions -------------------------------------------------------------------


@builtin
def astype(tile: Any, dtype: DType, rounding: str | None = None, saturate: bool = False) -> Tile:
    """Convert element type (value-preserving, like ``convert_tile``)."""


convert_tile = astype


@builtin
def bitcast(tile: Tile, dtype: DType) -> Tile:
    """Reinterpret the bits as another type of the same width."""


@builtin
def pack(tile: Tile) -> Tile:
    """The bytes of a 1-d tile, as a 1-d ``u8`` tile."""


@builtin
def unpack(tile: Tile, dtype: DType) -> Tile:
    """A 1-d tile of bytes (``i8``/``u8``) read as ``dtype`` elements."""


@builtin
def int_to_ptr(tile: Tile, dtype: DType) -> Tile:
    """Pointers to ``dtype`` from i64 addresses (unsafe)."""


@builtin
def ptr_to_int(ptrs: Tile) -> Tile:
    """The i64 addresses of pointers (unsafe)."""


@builtin
def ptr_to_ptr(ptrs: Tile, dtype: DType) -> Tile:
    """The same addresses as pointers to ``dtype`` (unsafe)."""


# Pointer tiles, atomics, tokens (unsafe) ---------------------------------------


@builtin
def offset(ptr: Tile, offsets: Tile) -> Tile:
    """``ptr + offsets`` elements (the pointer is broadcast to the offsets' shape)."""


@builtin
def load_ptr(
    ptrs: Tile,
    mask: Any = None,
    other: Any = None,
    ordering: str = "weak",
    scope: str | None = None,
    token: Token | None = None,
) -> Tile:
    """Gather through a pointer tile; masked-off lanes read ``other``."""


@builtin
def load_ptr_tko(
    ptrs: Tile,
    mask: Any = None,
    other: Any = None,
    ordering: str = "weak",
    scope: str | None = None,
    token: Token | None = None,
) -> tuple[Tile, Token]:
    """``load_ptr`` that also returns the load's token."""


@builtin
def store_ptr(
    ptrs: Tile,
    values: Any,
    mask: Any = None,
    ordering: str = "weak",
    scope: str | None = None,
    token: Token | None = None,
) -> Token:
    """Scatter ``values`` through a pointer tile; returns the store's token."""


@builtin
def atomic_rmw(
    ptrs: Tile,
    values: Any,
    mode: str,
    ordering: str = "relaxed",
    scope: str = "device",
    mask: Any = None,
    token: Token | None = None,
) -> Tile:
    """Atomic read-modify-write (add, addf, and, or, xor, max, min, umax, umin, xchg); old values."""


@builtin
def atomic_cas(
    ptrs: Tile,
    cmp: Any,
    values: Any,
    ordering: str = "acq_rel",
    scope: str = "device",
    mask: Any = None,
    token: Token | None = None,
) -> Tile:
    """Atomic compare-and-swap; returns the old values."""


@builtin
def make_token() -> Token:
    """A fresh memory-ordering token."""


@builtin
def join_tokens(*tokens: Token) -> Token:
    """A token ordered after all of ``tokens``."""


# Low-level views and their tokens (unsafe) ---------------------------------------


@builtin
def make_tensor_view(
    base: Tile, shape: tuple[Any, ...], strides: tuple[Any, ...], token: Token | None = None
) -> TensorView:
    """A tensor view at the scalar pointer ``base``: ``shape`` and ``strides`` (in
    elements) are ints or i32 scalars; ``token`` orders the accesses through it."""


@builtin
def load_tensor(
    ptrs: TensorView, index: tuple[Any, ...], shape: tuple[Any, ...], strides: tuple[Any, ...], dtype: DType
) -> TensorView:
    """The view of ``dtype`` elements at the address ``ptrs[index]`` (``ptrs``: a
    tensor of i64 addresses; the index is checked like a partition's)."""


@builtin
def get_tensor_token(tensor: TensorView) -> Token:
    """The tensor's memory token (a fresh one if none was set)."""


@builtin
def set_tensor_token(tensor: TensorView, token: Token) -> None:
    """Give the tensor a memory token: the partitions made from it afterwards carry it."""


@builtin
def get_partition_token(partition: PartitionView) -> Token:
    """A read-only partition's memory token (a fresh one if its tensor had none)."""


@builtin
def get_partition_token_mut(partition: PartitionView) -> Token:
    """A mutable partition's memory token (a fresh one if its tensor had none)."""


# Hints (unsafe) ----------------------------------------------------------------


@builtin
def assume_div_by(value: Any, divisor: int) -> Any:
    """Promise ``value`` is divisible by ``divisor`` (a power of two)."""


@builtin
def assume_bounds(value: Any, lower: int | None = None, upper: int | None = None) -> Any:
    """Promise ``lower <= value <= upper``."""


@builtin
def assume_bounds_lower(value: Any, lower: int) -> Any:
    """Promise ``value >= lower``."""


@builtin
def assume_bounds_upper(value: Any, upper: int) -> Any:
    """Promise ``value <= upper``."""


# Debugging -------------------------------------------------------------------


@builtin
def print(fmt: str, *args: Any) -> None:  # noqa: A001
    """printf-style device print (``%d``, ``%f``, ...); slow, for debugging."""


@builtin
def device_assert(cond: Any, message: str = "assertion failed") -> None:
    """Abort the kernel with ``message`` if any element of ``cond`` is false."""


# --------------------------------------------------------------------------
# Value types (what kernel code manipulates; methods are lowered too)
# --------------------------------------------------------------------------


class Tile:
    """An immutable, statically shaped array in registers (``Tile<E, S>``).

    Operators: ``+ - * / // % **``, unary ``-``, comparisons (bool tiles),
    ``& | ^ ~ << >>``, ``@`` (``mma`` into a fresh f32/i32 accumulator).
    """

    @property
    def shape(self) -> tuple[int, ...]:
        """The static shape, a tuple of ints."""
        raise kernel_only("Tile.shape")

    @property
    def dtype(self) -> DType:
        raise kernel_only("Tile.dtype")

    @property
    def ndim(self) -> int:
        raise kernel_only("Tile.ndim")

    @property
    def T(self) -> Tile:  # noqa: N802
        """Transpose of a 2-d tile."""
        raise kernel_only("Tile.T")

    @builtin
    def reshape(self, shape: tuple[int, ...]) -> Tile:
        """See ``st.reshape``."""

    @builtin
    def broadcast(self, shape: tuple[int, ...]) -> Tile:
        """See ``st.broadcast``."""

    @builtin
    def permute(self, perm: tuple[int, ...]) -> Tile:
        """See ``st.permute``."""

    @builtin
    def astype(self, dtype: DType, rounding: str | None = None, saturate: bool = False) -> Tile:
        """See ``st.astype``."""


class TensorView:
    """A tensor parameter inside a kernel (``Tensor<E, S>``; a Tile IR
    ``tensor_view``): global memory reached through tiles.  The host's
    tensor is ``st.Tensor`` (``runtime.tensor.Tensor``)."""

    @property
    def shape(self) -> tuple[Any, ...]:
        """``st.Mut``: the partition shape ``S``; ``st.Ref``: the runtime shape
        (ints for static dims, i32 scalars for dynamic ones)."""
        raise kernel_only("TensorView.shape")

    @property
    def dtype(self) -> DType:
        raise kernel_only("TensorView.dtype")

    @property
    def ndim(self) -> int:
        raise kernel_only("TensorView.ndim")

    @builtin
    def load(
        self, index: tuple[Any, ...] | None = None, *, latency: int | None = None, allow_tma: bool | None = None
    ) -> Tile:
        """This block's tile of a mutable output (at ``index`` from ``tile_index()``; ``st.MutMapped``:
        from ``tile_indices()``)."""

    @builtin
    def store(
        self, tile: Any, index: tuple[Any, ...] | None = None, *, latency: int | None = None,
        allow_tma: bool | None = None,
    ) -> None:
        """Store this block's tile (at ``index`` from ``tile_index()``; ``st.MutMapped``: from
        ``tile_indices()``)."""

    @builtin
    def load_tile(self, shape: tuple[int, ...], index: tuple[Any, ...]) -> Tile:
        """The tile of ``shape`` at partition index ``index``."""

    @builtin
    def partition(self, shape: tuple[int, ...], padding: str | None = None) -> PartitionView:
        """A device-side partition of a read-only tensor into tiles of ``shape``."""

    @builtin
    def partition_permuted(
        self, shape: tuple[int, ...], dim_map: tuple[int, ...], padding: str | None = None
    ) -> PartitionView:
        """A partition whose tile dim ``i`` walks tensor dim ``dim_map[i]``."""

    @builtin
    def partition_mut(self, shape: tuple[int, ...]) -> PartitionView:
        """A mutable device-side partition of an output tensor (unsafe)."""

    @builtin
    def tile_indices(self, *, order: GroupedOrder | None = None) -> Iterator[tuple[Any, ...]]:
        """``st.MutMapped``: the tile indices this block owns (use in ``for``): tile
        number ``t`` goes to block ``t mod nblocks``, numbered row-major or in ``order``
        (``st.grouped(G)``)."""

    @builtin
    def tile_index(self, *, order: GroupedOrder | None = None) -> tuple[Any, ...]:
        """``st.Mut``: this block's tile, for ``z.load(idx)``/``z.store(tile, idx)`` and index
        math: the tile block id, or with ``order=st.grouped(G)`` (a 2-d output) the tile
        numbered ``bid.x + bid.y * n0`` (the launch order) in the grouped order."""


class PartitionView:
    """A tensor cut into tiles inside a kernel (``Partition<E, S>``; a Tile IR
    ``partition_view``), indexed by tile coordinates.  The host's is ``st.Partition``."""

    @property
    def shape(self) -> tuple[int, ...]:
        """The tile shape."""
        raise kernel_only("PartitionView.shape")

    @builtin
    def load(self, index: tuple[Any, ...], *, latency: int | None = None, allow_tma: bool | None = None) -> Tile:
        """The tile at ``index`` (bounds-checked unless ``unchecked_accesses``); ``latency``
        (1-10) and ``allow_tma`` are hints to tileiras (see ``load_tile_like``)."""

    @builtin
    def store(self, index: tuple[Any, ...], tile: Any) -> Token:
        """Store at ``index`` (mutable partitions only; unsafe); returns the store's token."""

    @builtin
    def num_tiles(self, axis: int) -> Tile:
        """See ``st.num_tiles``."""


class Token:
    """A memory-ordering token (unsafe code only)."""
