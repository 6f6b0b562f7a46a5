"""The launch ABI: an entry's parameter list, and the views built from it.

Calling convention (cuTile Python's v1, see docs/abi.md), in the order of
the kernel's parameters:

* a tensor ``x`` of rank r: ``x`` (``tile<ptr<E>>``), ``x.shape[0..r-1]``,
  ``x.stride[0..r-1]`` (each ``tile<i32>``, strides in elements);
  a ``st.Mut``/``st.MutMapped`` tensor passes the whole tensor, its
  partition shape is static;
* a scalar: ``tile<E>``; a raw pointer: ``tile<ptr<E>>``;
* generics are not parameters: they are compiled in.

The list never depends on the specialization, so a launcher needs only the
kernel's signature.  What the specialization knows is compiled in instead:
static dimensions, unit strides (static ``1``) and, unless disabled, the
argument facts as ``assume`` ops (16-byte aligned base: ``div_by<16>``;
extents and strides divisible by 16: ``div_by<16>``; every extent:
``bounded<0, ?>``).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import DenseArrayBase, StringAttr, i64
from xdsl.ir import Attribute, SSAValue

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.attributes import AssumePredicate, BoundedAttr, DivByAttr
from safetile.dialects.cuda_tile.ops.memory.views import MakeTensorViewOp
from safetile.dialects.cuda_tile.ops.misc import AssumeOp
from safetile.dialects.cuda_tile.types import DYNAMIC, TensorViewType, TileType

from . import dsl
from .dsl import DType, ptr_dtype
from .emit import Builder
from .types import TensorValue, TileValue

INDEX = dsl.i32
"""The type of shapes and strides in the ABI."""


@dataclass(frozen=True)
class TensorFacts:
    """What a specialization knows about one tensor argument (part of its key).

    ``None`` entries are unknown.  ``unit_strides[i]``: stride i is 1;
    ``dims_div16``/``strides_div16``: divisible by 16; ``aligned``: the
    base address is a multiple of 16 bytes.
    """

    aligned: bool = False
    dims_div16: tuple[bool, ...] = ()
    strides_div16: tuple[bool, ...] = ()
    unit_strides: tuple[bool, ...] = ()

    @staticmethod
    def of(spec: dsl.TensorSpec, rank: int) -> TensorFacts:
        """The facts ``spec`` (what the host passes) gives a tensor of ``rank``."""
        shape = spec.shape
        if shape is None or len(shape) != rank or any(d < 0 for d in shape):
            return TensorFacts(aligned=spec.aligned)
        strides = spec.strides if spec.strides is not None else _contiguous(shape)
        return TensorFacts(
            aligned=spec.aligned,
            dims_div16=tuple(d % 16 == 0 for d in shape),
            strides_div16=tuple(s % 16 == 0 for s in strides),
            unit_strides=tuple(s == 1 for s in strides),
        )


def _contiguous(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides = []
    step = 1
    for d in reversed(shape):
        strides.append(step)
        step *= d
    return tuple(reversed(strides))


@dataclass(frozen=True)
class TensorLayout:
    """A tensor parameter as one specialization compiles it."""

    name: str
    mode: str
    dtype: DType
    shape: tuple[int | None, ...]
    """Static extents, None where dynamic (always dynamic for outputs)."""
    tile: tuple[int, ...] = ()
    """The host partition shape of an output (``S``)."""
    facts: TensorFacts = TensorFacts()

    @property
    def rank(self) -> int:
        return len(self.shape)


@dataclass(frozen=True)
class EntryParam:
    """One entry parameter of the ABI (what a launcher passes, in order)."""

    name: str
    """``x``, ``x.shape[0]``, ``x.stride[1]``, ``n``."""
    type: Attribute


def tensor_params(layout: TensorLayout) -> list[EntryParam]:
    index = TileType((), INDEX.ir)
    params = [EntryParam(layout.name, TileType((), ptr_dtype(layout.dtype).ir))]
    params += [EntryParam(f"{layout.name}.shape[{i}]", index) for i in range(layout.rank)]
    params += [EntryParam(f"{layout.name}.stride[{i}]", index) for i in range(layout.rank)]
    return params


def _assume(builder: Builder, value: SSAValue, predicate: AssumePredicate) -> SSAValue:
    op = AssumeOp.build(operands=[value], result_types=[value.type], properties={"predicate": predicate})
    return builder.add(op).result


def bind_tensor(
    builder: Builder, layout: TensorLayout, args: list[SSAValue], facts: bool
) -> TensorValue:
    """Build ``layout``'s ``tensor_view`` from its entry arguments ``args``
    (``facts``: compile in the argument facts as assumes and unit strides)."""
    rank = layout.rank
    ptr, dims, strides = args[0], args[1 : 1 + rank], args[1 + rank :]
    known = layout.facts
    if facts and known.aligned:
        ptr = _assume(builder, ptr, DivByAttr(16))
    shape_types: list[int] = []
    dynamic_shape: list[SSAValue] = []
    shape_values: list[int | TileValue] = []
    for i, (static, value) in enumerate(zip(layout.shape, dims)):
        if static is not None:
            shape_types.append(static)
            shape_values.append(static)
            continue
        if facts:
            value = _assume(builder, value, BoundedAttr(0, None))
            if known.dims_div16 and known.dims_div16[i]:
                value = _assume(builder, value, DivByAttr(16))
        shape_types.append(DYNAMIC)
        dynamic_shape.append(value)
        shape_values.append(TileValue(value, INDEX))
    stride_types: list[int] = []
    dynamic_strides: list[SSAValue] = []
    for i, value in enumerate(strides):
        if facts and known.unit_strides and known.unit_strides[i]:
            stride_types.append(1)
            continue
        if facts and known.strides_div16 and known.strides_div16[i]:
            value = _assume(builder, value, DivByAttr(16))
        stride_types.append(DYNAMIC)
        dynamic_strides.append(value)
    view_type = TensorViewType(layout.dtype.ir, shape_types, stride_types)
    op = builder.add(
        MakeTensorViewOp.build(
            operands=[ptr, dynamic_shape, dynamic_strides], result_types=[view_type]
        )
    )
    op.attributes[tile_safety.ACCESS] = tile_safety.AccessAttr(tile_safety.AccessMode(layout.mode))
    op.attributes[tile_safety.ARG] = StringAttr(layout.name)
    if layout.tile:
        op.attributes[tile_safety.PARTITION] = DenseArrayBase.from_list(i64, list(layout.tile))
    return TensorValue(layout.name, layout.mode, layout.dtype, op.result, tuple(shape_values), layout.tile)
