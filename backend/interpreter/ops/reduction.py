"""Executors of the ``reduction`` ops: ``reduce`` and ``scan``, folding tiles
along a dimension with a combiner region.

The combiner ``f(elem, acc)`` is the op's body.  Three strategies, fastest
first:

* a body that is one commutative integer op (``addi``, ``muli``, ``andi``,
  ``ori``, ``xori``, ``maxi``, ``mini``) runs as the numpy ufunc's
  ``reduce``/``accumulate`` (exact: these are associative in wrapping
  arithmetic);
* a body of element-wise ops only runs as a tree: ``log2(n)`` evaluations of
  the body, each on whole tiles of pairs (adjacent elements, so a
  non-commutative but associative combiner keeps its order).  ``scan`` uses
  the same pairing in a Hillis-Steele prefix;
* any other body runs once per element, in order, on scalars.

The identity is combined once, with the first element (``scan``: into the
first prefix), as in the spec's fold.  Float combiners round at every step,
as the body says; the order of a ``reduce`` is unspecified in Tile IR, so a
float sum may differ from the device's in the last bits.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.ir import Block, Operation

from safetile.dialects.cuda_tile.attributes import Signedness
from safetile.dialects.cuda_tile.ops import arith, control, reduction
from safetile.backend import elements

from ..engine import Builder, Executor, Frame, Program
from .arith import ELEMENTWISE as ARITH_ELEMENTWISE
from .common import element, typed_scalar
from .compare import ELEMENTWISE as COMPARE_ELEMENTWISE
from .conversion import ELEMENTWISE as CONVERSION_ELEMENTWISE
from .math import ELEMENTWISE as MATH_ELEMENTWISE
from .shape import ELEMENTWISE as SHAPE_ELEMENTWISE

ELEMENTWISE = (
    ARITH_ELEMENTWISE | MATH_ELEMENTWISE | COMPARE_ELEMENTWISE | CONVERSION_ELEMENTWISE | SHAPE_ELEMENTWISE
)
"""Ops that work on tiles of any shape: a body of only these runs as a tree."""

_UFUNCS: dict[type[Operation], np.ufunc] = {
    arith.AddIOp: np.add,
    arith.MulIOp: np.multiply,
    arith.AndIOp: np.bitwise_and,
    arith.OrIOp: np.bitwise_or,
    arith.XOrIOp: np.bitwise_xor,
    arith.MaxIOp: np.maximum,
    arith.MinIOp: np.minimum,
}

Combine = Callable[[Frame, Sequence[np.ndarray], Sequence[np.ndarray]], list[np.ndarray]]


def _combiner(body: Block, kernel: Program) -> Combine:
    """``f(elems, accs)`` evaluated by running the body."""

    def combine(frame: Frame, elems: Sequence[np.ndarray], accs: Sequence[np.ndarray]) -> list[np.ndarray]:
        args = [v for pair in zip(elems, accs) for v in pair]
        return list(kernel.run_block(frame, body, args).values)

    return combine


def _ufunc_of(op: reduction.ReduceOp | reduction.ScanOp) -> tuple[np.ufunc, bool] | None:
    """The ufunc of a single-integer-op body, and whether it reads signed."""
    ops = list(op.body.block.ops)
    if len(op.operands_) != 1 or len(ops) != 2:
        return None
    first, last = ops
    fn = _UFUNCS.get(type(first))
    args = op.body.block.args
    if (
        fn is None
        or set(first.operands) != set(args)
        or not isinstance(last, control.YieldOp)
        or list(last.operands) != [first.results[0]]
    ):
        return None
    reads_signed = getattr(first, "signedness", None)
    return fn, reads_signed is not None and reads_signed.data == Signedness.SIGNED


def _setup(
    op: reduction.ReduceOp | reduction.ScanOp, kernel: Program
) -> tuple[int, list[np.ndarray], bool, Combine, tuple[np.ufunc, bool] | None]:
    """``dim``, the identities, whether the body is element-wise, the
    combiner, and the ufunc of a single-op body."""
    dim = op.dim.value.data
    identities = [
        typed_scalar(attr, element(v)) for attr, v in zip(op.identities.data, op.operands_)
    ]
    elementwise = all(type(o) in ELEMENTWISE or isinstance(o, control.YieldOp) for o in op.body.block.ops)
    return dim, identities, elementwise, _combiner(op.body.block, kernel), _ufunc_of(op)


def _ufunc_operand(x: np.ndarray, w: int, reads_signed: bool) -> np.ndarray:
    return elements.signed(x, w) if reads_signed else elements.unsigned(x, w)


def _build_reduce(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, reduction.ReduceOp)
    dim, identities, elementwise, combine, ufunc = _setup(op, kernel)
    w = elements.bit_width(element(op.operands_[0]))

    def run(frame: Frame, xs: list[Any]) -> tuple[np.ndarray, ...]:
        if ufunc is not None:
            fn, reads_signed = ufunc
            x = _ufunc_operand(np.asarray(xs[0]), w, reads_signed)
            ident = _ufunc_operand(identities[0], w, reads_signed)
            return (elements.wrap(np.asarray(fn(fn.reduce(x, axis=dim), ident)), w),)
        moved = [np.moveaxis(np.asarray(x), dim, -1) for x in xs]
        if elementwise:
            return tuple(_tree_reduce(frame, combine, moved, identities))
        return tuple(_scalar_fold(frame, combine, moved, identities, scan=False))

    return run


def _tree_reduce(
    frame: Frame, combine: Combine, xs: list[np.ndarray], identities: list[np.ndarray]
) -> list[np.ndarray]:
    """Fold the last axis of every ``xs`` in ``log2(n)`` vectorised steps."""
    firsts = combine(frame, [x[..., 0] for x in xs], identities)
    xs = [np.concatenate([np.expand_dims(f, -1), x[..., 1:]], axis=-1) for f, x in zip(firsts, xs)]
    while xs[0].shape[-1] > 1:
        xs = combine(frame, [x[..., 1::2] for x in xs], [x[..., 0::2] for x in xs])
        xs = [np.asarray(x) for x in xs]
    return [x[..., 0] for x in xs]


def _scalar_fold(
    frame: Frame,
    combine: Combine,
    xs: list[np.ndarray],
    identities: list[np.ndarray],
    *,
    scan: bool,
) -> list[np.ndarray]:
    """Fold the last axis element by element, on scalars (bodies that are not
    element-wise); with ``scan`` every prefix is kept."""
    rest, n = xs[0].shape[:-1], xs[0].shape[-1]
    outs = [np.empty(x.shape if scan else rest, dtype=x.dtype) for x in xs]
    for position in itertools.product(*(range(d) for d in rest)):
        accs = identities
        for j in range(n):
            accs = combine(frame, [x[position + (j,)] for x in xs], accs)
            if scan:
                for out, acc in zip(outs, accs):
                    out[position + (j,)] = acc
        if not scan:
            for out, acc in zip(outs, accs):
                out[position] = acc
    return outs


def _build_scan(op: Operation, kernel: Program) -> Executor:
    assert isinstance(op, reduction.ScanOp)
    dim, identities, elementwise, combine, ufunc = _setup(op, kernel)
    reverse = bool(op.reverse.value.data)
    w = elements.bit_width(element(op.operands_[0]))

    def run(frame: Frame, xs: list[Any]) -> tuple[np.ndarray, ...]:
        moved = [np.moveaxis(np.asarray(x), dim, -1) for x in xs]
        if reverse:
            moved = [np.flip(x, -1) for x in moved]
        if ufunc is not None:
            fn, reads_signed = ufunc
            x = _ufunc_operand(moved[0], w, reads_signed)
            ident = _ufunc_operand(identities[0], w, reads_signed)
            results = [elements.wrap(np.asarray(fn(fn.accumulate(x, axis=-1), ident)), w)]
        elif elementwise:
            results = _tree_scan(frame, combine, moved, identities)
        else:
            results = _scalar_fold(frame, combine, moved, identities, scan=True)
        if reverse:
            results = [np.flip(r, -1) for r in results]
        return tuple(np.moveaxis(r, -1, dim) for r in results)

    return run


def _tree_scan(
    frame: Frame, combine: Combine, xs: list[np.ndarray], identities: list[np.ndarray]
) -> list[np.ndarray]:
    """Inclusive prefix along the last axis (Hillis-Steele, ``log2(n)`` steps)."""
    firsts = combine(frame, [x[..., 0] for x in xs], identities)
    ys = [np.concatenate([np.expand_dims(f, -1), x[..., 1:]], axis=-1) for f, x in zip(firsts, xs)]
    n, d = ys[0].shape[-1], 1
    while d < n:
        tails = combine(frame, [y[..., d:] for y in ys], [y[..., : n - d] for y in ys])
        ys = [np.concatenate([y[..., :d], np.asarray(t)], axis=-1) for y, t in zip(ys, tails)]
        d *= 2
    return ys


HANDLERS: dict[type[Operation], Builder] = {
    reduction.ReduceOp: _build_reduce,
    reduction.ScanOp: _build_scan,
}
