"""The visitor that turns a function's AST into ``cuda_tile`` IR.

One ``Lowerer`` lowers one function body: the kernel's, or a device
function's or lambda's when it is inlined at a call site (each with its own
``Scope`` and ``Source``, sharing the ``CompileState``).  Expressions
evaluate to compile-time Python values or runtime values
(``frontend.types``); only runtime values emit IR.

Control flow:

* ``if`` on a compile-time condition lowers only the branch taken; on a
  runtime ``bool`` scalar it becomes ``cuda_tile.if``, yielding every name
  either branch (re)assigned.
* ``for x in range(...)`` becomes ``cuda_tile.for`` (``cuda_tile.loop`` if
  the body ``break``s); ``while`` becomes ``cuda_tile.loop``.  The values a
  loop carries are found as Triton does, by a *dry visit* of the body:
  lower it into a scratch block, see which names it reassigns (at its end
  and at each ``break``/``continue``) and with which types, then lower it
  for real with exactly those names as ``iter_values``.  One dry visit
  usually settles it (``Lowerer.find_carried``), and a loop met in a dry
  visit is not lowered for real: a nest of d loops whose carries settle at
  the first visit lowers its innermost body d + 1 times, not 3^d.
* ``for`` over ``st.static_range(...)`` or a compile-time tuple is unrolled;
  ``for idx in z.tile_indices()`` walks a ``st.MutMapped`` tensor's tiles.
* A device function's ``return`` inside an ``if`` is turned into a value
  both branches yield (the rest of the body moves into the other branch).
"""

from __future__ import annotations

import ast
import inspect
import operator as pyop
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects.builtin import StringAttr, UnitAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.attributes import ComparisonPredicate
from safetile.dialects.cuda_tile.ops.compare import CmpIOp
from safetile.dialects.cuda_tile.ops.control import (
    BreakOp,
    ContinueOp,
    ForOp,
    IfOp,
    LoopOp,
    YieldOp,
)
from safetile.dialects.cuda_tile.ops.arith import AddIOp
from safetile.dialects.cuda_tile.ops.memory.tokens import MakeTokenOp
from safetile.dialects.cuda_tile.ops.misc import AssertOp, GetNumTileBlocksOp
from safetile.dialects.cuda_tile.ops.structure import ReturnOp
from safetile.dialects.cuda_tile.types import PartitionViewType, TileType, TokenType

from . import builtins, dsl
from .core import as_tile, const, constant_value, describe, is_number, signedness
from .emit import Builder
from .errors import CompileError, Source
from .parse import MISSING, DeviceFunction, ParsedFunction
# The op families fill builtins' tables when imported.
from . import ops_arith, ops_compare, ops_conversion, ops_math, ops_misc, ops_mma, ops_reduction, ops_shape  # noqa: F401
from .ops_memory import owned_tile_range
from .pybuiltins import PY_BUILTINS
from .spellings import spelling
from .scope import RETURN_SLOT, Scope
from .types import (
    API_CLASS,
    RUNTIME_TYPES,
    BoundMethod,
    OwnedIndex,
    OwnedTiles,
    PartitionValue,
    TileValue,
    TokenValue,
    Unavailable,
    flatten,
    python_dtype,
    unflatten,
)

_BINARY = {
    ast.Add: ("Add", pyop.add),
    ast.Sub: ("Sub", pyop.sub),
    ast.Mult: ("Mult", pyop.mul),
    ast.Div: ("Div", pyop.truediv),
    ast.FloorDiv: ("FloorDiv", pyop.floordiv),
    ast.Mod: ("Mod", pyop.mod),
    ast.Pow: ("Pow", pyop.pow),
    ast.MatMult: ("MatMult", pyop.matmul),
    ast.BitAnd: ("BitAnd", pyop.and_),
    ast.BitOr: ("BitOr", pyop.or_),
    ast.BitXor: ("BitXor", pyop.xor),
    ast.LShift: ("LShift", pyop.lshift),
    ast.RShift: ("RShift", pyop.rshift),
}
_COMPARE = {
    ast.Lt: ("Lt", pyop.lt),
    ast.LtE: ("LtE", pyop.le),
    ast.Gt: ("Gt", pyop.gt),
    ast.GtE: ("GtE", pyop.ge),
    ast.Eq: ("Eq", pyop.eq),
    ast.NotEq: ("NotEq", pyop.ne),
}
_UNARY = {
    ast.USub: ("USub", pyop.neg),
    ast.UAdd: ("UAdd", pyop.pos),
    ast.Invert: ("Invert", pyop.invert),
    ast.Not: ("Not", pyop.not_),
}
_MAX_DRY_VISITS = 6

_HOST_RUNTIME = "safetile.runtime"
"""The host runtime's package: a value of its types made in a kernel came from a plain Python
call run at compile time (the frontend does not import the runtime: layering)."""


# --------------------------------------------------------------------------
# Shared state of one compilation
# --------------------------------------------------------------------------


@dataclass
class CompileState:
    """What every function lowered into one entry shares."""

    builder: Builder
    inlining: list[DeviceFunction] = field(default_factory=list)
    unsafe_depth: int = 0
    dry_depth: int = 0
    """Above 0 while a loop body is visited only to find its carried values."""
    runtime_ifs: int = 0
    """How many runtime ``if`` branches enclose the code being lowered."""
    hoisted: dict[str, Operation] = field(default_factory=dict)
    """Ops made once at the top of the entry (tile block ids, grid size)."""
    load_hints: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """The kernel's hints of every load (``frontend/hints.py``)."""
    store_hints: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


@dataclass(frozen=True)
class Slot:
    """A runtime leaf that a merge or a loop carries: its IR type and dtype.

    ``dtype`` is None for a token.
    """

    type: Attribute
    dtype: dsl.DType | None


@dataclass(eq=False)
class LambdaValue:
    """A ``lambda`` written in a kernel, closed over the names it saw."""

    node: ast.Lambda
    parsed: ParsedFunction
    scope: dict[str, object]


@dataclass(frozen=True)
class StaticRange:
    """``st.static_range(...)``: a loop to unroll."""

    values: range


@dataclass(frozen=True)
class Carries:
    """What the dry visits of a loop body found (``Lowerer.find_carried``)."""

    names: list[str]
    """The names the loop carries, in scope order."""
    templates: dict[str, object]
    """Each carried name's structure, with a ``Slot`` per runtime leaf."""
    end: dict[str, object]
    """The scope at the end of the last visit's body."""


@dataclass
class LoopFrame:
    """The innermost loop being lowered: how ``break``/``continue`` leave it."""

    kind: str
    """``for`` (cuda_tile.for), ``loop`` (cuda_tile.loop) or ``static`` (unrolled)."""
    carried: list[str] = field(default_factory=list)
    templates: dict[str, object] = field(default_factory=dict)
    next_index: Callable[[], list[SSAValue]] | None = None
    """``for`` lowered as ``loop``: the induction variable's next value."""
    exits: list[dict[str, object]] = field(default_factory=list)
    """Scopes at each ``break``/``continue`` (dry visits)."""
    entry_ifs: int = 0
    """``CompileState.runtime_ifs`` when the loop was entered."""
    broke: bool = False
    continued: bool = False


# --------------------------------------------------------------------------
# The visitor
# --------------------------------------------------------------------------


class Lowerer:
    """Lowers the body of one function (kernel, device function or lambda)."""

    def __init__(
        self, state: CompileState, parsed: ParsedFunction, scope: Scope, is_kernel: bool
    ):
        self.state = state
        self.parsed = parsed
        self.source: Source = parsed.source
        self.scope = scope
        self.is_kernel = is_kernel
        self.node: ast.AST = parsed.tree
        self.loops: list[LoopFrame] = []
        self.terminated = False
        """A terminator op (break/continue/return) ended the current block."""
        self.unreachable = False
        """Every path through the last ``if`` left the block: nothing after runs."""
        self.returned = False
        """A ``return`` without an op was reached (a device function's, or the
        kernel's outside any runtime ``if``): the rest of the body is skipped."""
        if is_kernel:
            # The entry, and what is added outside any statement (its final
            # return), are located at the kernel's ``def``.
            here = self.source.location(parsed.tree)
            self.builder.location = here
            entry = self.builder.entry.parent_op()
            if entry is not None:
                entry.location = here

    # -- services for the lowerings ---------------------------------------

    @property
    def builder(self) -> Builder:
        return self.state.builder

    def add(self, op: Operation) -> Any:
        return self.builder.add(op)

    def hoisted(self, key: str, make: Callable[[], Operation]) -> Operation:
        """The op ``make()`` at the top of the entry, made on first use.

        For ops without operands whose value is the same everywhere in a
        kernel (``get_tile_block_id``): one definition dominates all uses.
        """
        op = self.state.hoisted.get(key)
        if op is None:
            op = self.builder.stamp(make())
            entry = self.builder.entry
            if entry.first_op is None:
                entry.add_op(op)
            else:
                entry.insert_op_before(op, entry.first_op)
            self.state.hoisted[key] = op
        return op

    def error(self, message: str, hint: str = "", node: ast.AST | None = None) -> CompileError:
        return self.source.error(node or self.node, message, hint)

    def where(self) -> str:
        return self.source.where(self.node)

    @property
    def in_unsafe(self) -> bool:
        return self.state.unsafe_depth > 0

    def require_unsafe(self, what: str) -> None:
        if not self.in_unsafe:
            raise self.error(
                f"{what} is unsafe",
                "wrap it in 'with st.unsafe():' to take responsibility for it",
            )

    def mark_unsafe(self, op: Operation, what: str) -> Operation:
        """Check that ``op`` is in an unsafe block and record it in the IR."""
        self.require_unsafe(what)
        op.attributes[tile_safety.UNSAFE] = UnitAttr()
        return op

    @property
    def dry(self) -> bool:
        return self.state.dry_depth > 0

    @contextmanager
    def at_node(self, node: ast.AST) -> Iterator[None]:
        saved = self.node
        self.node = node
        try:
            with self.builder.located(self.source.location(node)):
                yield
        finally:
            self.node = saved

    # -- statements ---------------------------------------------------------

    def lower_body(self, stmts: list[ast.stmt]) -> None:
        """Lower a statement list; stops where control cannot continue."""
        stmts = list(stmts)
        i = 0
        while i < len(stmts):
            if self.stopped:
                return
            stmt = stmts[i]
            rest = stmts[i + 1 :]
            if not self.is_kernel and isinstance(stmt, ast.If) and rest:
                # A branch that always returns takes the rest of the body into
                # the other branch, so that both paths end in a return.
                if _always_returns(stmt.body):
                    stmt, stmts = _with_branches(stmt, stmt.body, stmt.orelse + rest), stmts[: i + 1]
                elif _always_returns(stmt.orelse):
                    stmt, stmts = _with_branches(stmt, stmt.body + rest, stmt.orelse), stmts[: i + 1]
            with self.at_node(stmt):
                self.visit_stmt(stmt)
            i += 1

    @property
    def stopped(self) -> bool:
        """No statement after this point runs (on this path)."""
        if self.terminated or self.unreachable or self.returned:
            return True
        frame = self.loops[-1] if self.loops else None
        return frame is not None and frame.kind == "static" and (frame.broke or frame.continued)

    def visit_stmt(self, stmt: ast.stmt) -> None:
        visit = getattr(self, "stmt_" + type(stmt).__name__, None)
        if visit is None:
            raise self.error(
                f"unsupported Python construct in a kernel: {_construct(stmt)}",
                "kernels support assignments, calls, if, for, while, with st.unsafe(), assert and return",
            )
        visit(stmt)

    def stmt_Expr(self, stmt: ast.Expr) -> None:
        if isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
            return  # a docstring, or a string used as a comment
        self.eval(stmt.value)

    def stmt_Pass(self, stmt: ast.Pass) -> None:
        return

    def stmt_Assign(self, stmt: ast.Assign) -> None:
        value = self.eval(stmt.value)
        for target in stmt.targets:
            self.assign(target, value)

    def stmt_AnnAssign(self, stmt: ast.AnnAssign) -> None:
        if stmt.value is not None:
            self.assign(stmt.target, self.eval(stmt.value))

    def stmt_AugAssign(self, stmt: ast.AugAssign) -> None:
        if not isinstance(stmt.target, ast.Name):
            raise self.error(
                f"cannot update {_construct(stmt.target)} in place",
                "tiles and tensors are immutable in kernels; assign a new value to a name",
            )
        current = self.lookup(stmt.target.id, stmt.target)
        self.scope[stmt.target.id] = self.binary(stmt.op, current, self.eval(stmt.value))

    def assign(self, target: ast.expr, value: object) -> None:
        with self.at_node(target):
            if isinstance(target, ast.Name):
                self.scope[target.id] = value
                return
            if isinstance(target, ast.Tuple | ast.List):
                if isinstance(value, OwnedIndex):
                    value = value.values
                if not isinstance(value, tuple) or len(value) != len(target.elts):
                    raise self.error(
                        f"cannot unpack {describe(value)} into {len(target.elts)} names",
                        "the number of names must match the number of values",
                    )
                for t, v in zip(target.elts, value):
                    self.assign(t, v)
                return
            raise self.error(
                f"cannot assign to {_construct(target)}",
                "tiles and tensors are immutable in kernels; store tiles with z.store(tile)",
            )

    def stmt_Raise(self, stmt: ast.Raise) -> None:
        if self.state.runtime_ifs:
            raise self.error(
                "raise is only allowed under compile-time conditions",
                "check runtime values with assert (a device assertion) instead",
            )
        exc = self.eval(stmt.exc) if stmt.exc is not None else "raise"
        raise self.error(str(exc), "this raise is reached at compile time for this specialization")

    def stmt_Assert(self, stmt: ast.Assert) -> None:
        cond = self.eval(stmt.test)
        message = self.eval(stmt.msg) if stmt.msg is not None else "assertion failed"
        if not isinstance(message, str):
            raise self.error("the assert message must be a string constant", node=stmt.msg)
        if _is_runtime(cond):
            builtins.call(self, dsl.device_assert, (cond, message), {})
        elif not cond:
            raise self.error(
                f"static assertion failed: {message}",
                "this assert is checked at compile time for this specialization",
            )

    def stmt_With(self, stmt: ast.With) -> None:
        for item in stmt.items:
            expr = item.context_expr
            if not (
                isinstance(expr, ast.Call)
                and not expr.args
                and not expr.keywords
                and self.eval(expr.func) is dsl.unsafe
            ):
                raise self.error(
                    "only 'with st.unsafe():' is supported in kernels",
                    "other context managers do not exist on the device",
                    expr,
                )
            if item.optional_vars is not None:
                raise self.error("'with st.unsafe()' binds no name", node=item.optional_vars)
        self.state.unsafe_depth += 1
        try:
            self.lower_body(stmt.body)
        finally:
            self.state.unsafe_depth -= 1

    def stmt_Return(self, stmt: ast.Return) -> None:
        if any(f.kind != "static" for f in self.loops):
            raise self.error(
                "return inside a loop is not supported",
                "leave the loop with break and return after it",
            )
        if self.is_kernel:
            if stmt.value is not None:
                raise self.error("kernels return nothing", "store results with z.store(tile)")
            if self.state.runtime_ifs:
                self.add(ReturnOp())
                self.terminated = True
            else:
                self.returned = True
            return
        if stmt.value is not None:
            self.scope[RETURN_SLOT] = self.eval(stmt.value)
        self.returned = True

    # -- if -------------------------------------------------------------------

    def stmt_If(self, stmt: ast.If) -> None:
        cond = self.eval(stmt.test)
        if not _is_runtime(cond):
            self.lower_body(stmt.body if cond else stmt.orelse)
            return
        flag = self.condition(cond, stmt.test)
        self.runtime_if(flag, lambda: self.lower_body(stmt.body), lambda: self.lower_body(stmt.orelse))

    def condition(self, value: object, node: ast.AST) -> TileValue:
        if not (isinstance(value, TileValue) and value.ndim == 0 and value.dtype == dsl.bool_):
            raise self.error(
                f"a condition must be a bool scalar, got {describe(value)}",
                "compare scalars (a < b), or use st.where for element-wise choices",
                node,
            )
        return value

    def runtime_if(
        self, cond: TileValue, then: Callable[[], None], otherwise: Callable[[], None]
    ) -> None:
        """``cuda_tile.if``: lower both branches and yield what they assigned."""
        before = self.scope.snapshot()
        line = self.source.place(self.node)[0]
        branches = []
        for lower in (then, otherwise):
            self.scope.restore(before)
            self.terminated = self.unreachable = self.returned = False
            block = Block()
            self.state.runtime_ifs += 1
            try:
                with self.builder.at(block):
                    lower()
            finally:
                self.state.runtime_ifs -= 1
            branches.append(
                _Branch(block, self.scope.snapshot(), self.terminated, self.unreachable, self.returned)
            )
        self.scope.restore(before)
        self.terminated = self.unreachable = self.returned = False
        live = [b for b in branches if not (b.terminated or b.unreachable)]
        names: list[str] = []
        for b in live:
            names += [n for n in _changed(before, b.scope) if n not in names]
        results: list[str] = []
        for name in names:
            values = [b.scope.get(name, MISSING) for b in live]
            if any(v is MISSING or isinstance(v, Unavailable) for v in values):
                self.scope[name] = Unavailable(
                    f"'{name}' is assigned on only some paths of the if at line {line}"
                )
            elif all(v is values[0] for v in values):
                self.scope[name] = values[0]
            else:
                results.append(name)
        templates = {n: self.merge_template(n, [b.scope[n] for b in live]) for n in results}
        for b in branches:
            if not b.terminated:
                with self.builder.at(b.block):
                    leaves = [
                        v
                        for n in results
                        for v in self.leaves_like(templates[n], MISSING if b.unreachable else b.scope[n])
                    ]
                    self.add(YieldOp(*leaves))
        types = [t for n in results for t in _leaf_types(templates[n])]
        other = branches[1].block
        only_yield = isinstance(other.first_op, YieldOp) and other.first_op is other.last_op
        else_region = Region() if not results and (not other.ops or only_yield) else Region(other)
        op = self.add(IfOp(cond.value, types, Region(branches[0].block), else_region))
        self.bind_results(results, templates, list(op.results))
        if not live:
            self.unreachable = True
        elif all(b.returned for b in live):
            self.returned = True

    # -- merges: what a name holds after paths meet ------------------------

    def merge_template(self, name: str, values: list[object]) -> object:
        """The structure of ``name`` after paths meet: ``Slot``s where it differs."""
        shapes = [_structure(v) for v in values]
        if any(s != shapes[0] for s in shapes):
            raise self.error(
                f"'{name}' has a different structure on different paths: "
                + ", ".join(describe(v) for v in values),
                "give the name values of one structure on every path",
            )
        columns = list(zip(*(flatten(v) for v in values)))
        leaves = [self.merge_leaf(name, list(column)) for column in columns]
        return unflatten(values[0], leaves)

    def merge_leaf(self, name: str, values: list[object]) -> object:
        """One leaf after paths meet: a ``Slot``, or a value equal on all paths."""
        slots: list[Slot] = []
        for v in values:
            if isinstance(v, Slot):
                slots.append(v)
            elif isinstance(v, TileValue):
                slots.append(Slot(v.type, v.dtype))
            elif isinstance(v, TokenValue):
                slots.append(Slot(v.value.type, None))
        if not slots:
            if all(_same(v, values[0]) for v in values):
                return values[0]
            if all(is_number(v) for v in values):
                widest = next((v for v in values if isinstance(v, float)), values[0])
                dtype = python_dtype(widest)
                return Slot(TileType((), dtype.ir), dtype)
            raise self.error(
                f"'{name}' holds different {describe(values[0])} values on different paths",
                "only tiles, scalars and tokens can differ between runtime paths",
            )
        first = slots[0]
        for s in slots[1:]:
            if s != first:
                raise self.error(
                    f"'{name}' changes type: {_slot_text(first)} on one path, {_slot_text(s)} on another",
                    "convert explicitly (e.g. .astype(...)) so that every path gives one type",
                )
        for v in values:
            if not isinstance(v, Slot | TileValue | TokenValue) and not (
                is_number(v) and first.dtype is not None
            ):
                raise self.error(
                    f"'{name}' is {describe(v)} on one path and {_slot_text(first)} on another",
                    "give the name values of one type on every path",
                )
        return first

    def leaves_like(self, template: object, value: object) -> list[SSAValue]:
        """``value``'s runtime leaves, typed as ``template``'s slots.

        A number becomes a constant of the slot's type; ``MISSING`` (a path
        that cannot reach this point) gives placeholder constants.
        """
        slots = [s for s in flatten(template) if isinstance(s, Slot)]
        if value is MISSING:
            return [self.placeholder(s) for s in slots]
        out = []
        for t, v in zip(flatten(template), flatten(value)):
            if not isinstance(t, Slot):
                continue
            if isinstance(v, TileValue | TokenValue):
                out.append(v.value)
            elif is_number(v) and t.dtype is not None:
                assert isinstance(t.type, TileType)
                out.append(const(self, v, t.dtype, t.type.shape).value)
            else:
                out.append(self.placeholder(t))
        return out

    def placeholder(self, slot: Slot) -> SSAValue:
        """A value of ``slot``'s type for a path that never reaches its use."""
        if slot.dtype is None:
            return self.add(MakeTokenOp.build(result_types=[TokenType()])).result
        assert isinstance(slot.type, TileType)
        return const(self, 0, slot.dtype, slot.type.shape).value

    def bind_results(self, names: list[str], templates: dict[str, object], values: list[SSAValue]) -> None:
        """Bind ``names`` to the runtime values ``values``, slot by slot."""
        values = list(values)
        for name in names:
            leaves: list[object] = []
            for t in flatten(templates[name]):
                if not isinstance(t, Slot):
                    leaves.append(t)
                elif t.dtype is None:
                    leaves.append(TokenValue(values.pop(0)))
                else:
                    leaves.append(TileValue(values.pop(0), t.dtype))
            self.scope[name] = unflatten(templates[name], leaves)

    # -- loops ----------------------------------------------------------------

    def stmt_For(self, stmt: ast.For) -> None:
        if stmt.orelse:
            raise self.error("for ... else is not supported", "move the else code after the loop")
        iterator = stmt.iter
        if isinstance(iterator, ast.Call) and self.eval(iterator.func) is range:
            args = [self.eval(a) for a in iterator.args]
            if iterator.keywords or not 1 <= len(args) <= 3:
                raise self.error("range takes 1 to 3 positional arguments", node=iterator)
            start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args, 1)[:3]
            self.python_range(stmt, start, stop, step)
            return
        value = self.eval(iterator)
        if isinstance(value, OwnedTiles):
            self.mapped_loop(stmt, value)
        elif isinstance(value, StaticRange | tuple | range):
            self.unrolled_loop(stmt, tuple(value.values if isinstance(value, StaticRange) else value))
        else:
            raise self.error(
                f"cannot iterate over {describe(value)} in a kernel",
                "loop over range(...), st.static_range(...), a tuple, or z.tile_indices()",
                iterator,
            )

    def unrolled_loop(self, stmt: ast.For, items: tuple[object, ...]) -> None:
        frame = LoopFrame("static", entry_ifs=self.state.runtime_ifs)
        self.loops.append(frame)
        try:
            for item in items:
                frame.continued = False
                self.assign(stmt.target, item)
                self.lower_body(stmt.body)
                if frame.broke or self.terminated or self.unreachable or self.returned:
                    break
        finally:
            self.loops.pop()

    def python_range(self, stmt: ast.For, start: object, stop: object, step: object) -> None:
        """``for i in range(start, stop, step)`` with Python's meaning.

        ``cuda_tile.for`` only counts upward, so a negative (compile-time)
        step counts ``-start, -start - step, ... < -stop`` and binds the
        negation; a runtime step is asserted positive where it is not
        known to be (a ``for`` with a negative step would run no iteration).
        """
        assign: Callable[[TileValue], None] = lambda iv: self.assign(stmt.target, iv)
        if is_number(step):
            if step == 0:
                raise self.error("range() step must not be zero", "count with a positive or negative step", stmt.iter)
            if step < 0:
                if any(isinstance(v, TileValue) and v.dtype.kind == "uint" for v in (start, stop)):
                    raise self.error(
                        "a range with a negative step needs signed bounds",
                        "convert the bounds to a signed type (e.g. .astype(st.i32))",
                        stmt.iter,
                    )
                negate = builtins.OPERATORS["USub"]
                flip = lambda v: negate(self, v) if isinstance(v, TileValue) else self.python(pyop.neg, v)
                self.range_loop(stmt, flip(start), flip(stop), -step, lambda iv: assign(negate(self, iv)))
                return
        elif isinstance(step, TileValue) and not isinstance(step.value.owner, GetNumTileBlocksOp):
            positive = builtins.OPERATORS["Gt"](self, step, 0)
            message = "range() step must be positive at run time (count down with a constant negative step)"
            self.add(AssertOp.build(operands=[positive.value], properties={"message": StringAttr(message)}))
        self.range_loop(stmt, start, stop, step, assign)

    def range_loop(
        self, stmt: ast.For, start: object, stop: object, step: object, bind: Callable[[TileValue], None]
    ) -> None:
        """``for`` over ``range(start, stop, step)``: ``cuda_tile.for``, or
        ``cuda_tile.loop`` when the body breaks out."""
        dtype = next((v.dtype for v in (start, stop, step) if isinstance(v, TileValue)), dsl.i32)
        bounds = []
        for v, what in ((start, "start"), (stop, "stop"), (step, "step")):
            t = as_tile(self, v, dtype, f"the range {what}")
            if t.ndim != 0 or t.dtype != dtype or not dtype.is_int or dtype.kind == "bool":
                raise self.error(
                    f"range bounds must be integer scalars of one type, got {describe(v)} as {what}",
                    "convert the bounds to one integer type (e.g. .astype(st.i32))",
                )
            bounds.append(t)
        lb, ub, step_ = bounds
        iv_type = TileType((), dtype.ir)

        if not _has_break(stmt.body):
            def enter(frame: LoopFrame, iv: TileValue) -> None:
                bind(iv)

            def build(inits: list[SSAValue], block: Block) -> Operation:
                return ForOp(lb.value, ub.value, step_.value, inits, Region(block), dtype.kind == "uint")

            self.loop(stmt, "for", dtype, enter, lambda: self.lower_body(stmt.body), build)
            return

        def enter_checked(frame: LoopFrame, iv: TileValue) -> None:
            # ``for`` cannot break: count the index in a ``loop`` instead.
            if not self.dry:
                frame.next_index = lambda: [
                    self.add(AddIOp.build(operands=[iv.value, step_.value], result_types=[iv_type])).result
                ]
            done = self.add(
                CmpIOp(ComparisonPredicate.GREATER_THAN_OR_EQUAL, iv.value, ub.value, signedness(dtype))
            )
            leave = Block()
            with self.builder.at(leave):
                self.add(BreakOp(*self.frame_leaves(frame)))
            self.add(IfOp(done.result, [], Region(leave), Region()))
            bind(iv)

        def build_loop(inits: list[SSAValue], block: Block) -> Operation:
            return LoopOp([lb.value, *inits], [v.type for v in inits], Region(block))

        self.loop(stmt, "loop", dtype, enter_checked, lambda: self.lower_body(stmt.body), build_loop)

    def mapped_loop(self, stmt: ast.For, tiles: OwnedTiles) -> None:
        """``for idx in z.tile_indices()``: this block's tiles of ``z``, round robin."""
        start, stop, step, delinearize = owned_tile_range(self, tiles)
        self.range_loop(
            stmt, start, stop, step, lambda t: self.assign(stmt.target, OwnedIndex(tiles.tensor, delinearize(t)))
        )

    def stmt_While(self, stmt: ast.While) -> None:
        if stmt.orelse:
            raise self.error("while ... else is not supported", "move the else code after the loop")
        scratch = Block()
        self.state.dry_depth += 1
        try:
            with self.builder.at(scratch):
                probe = self.eval(stmt.test)
        finally:
            self.state.dry_depth -= 1
            _discard(scratch)
        if not _is_runtime(probe) and not probe:
            return

        def enter(frame: LoopFrame, _: object) -> None:
            cond = self.eval(stmt.test)
            if not _is_runtime(cond):
                if cond:
                    return
                raise self.error(
                    "this while condition becomes false at compile time inside the loop",
                    "make the condition depend on runtime values, or leave with break",
                    stmt.test,
                )
            flag = self.condition(cond, stmt.test)
            stay, leave = Block(), Block()
            with self.builder.at(stay):
                self.add(YieldOp())
            with self.builder.at(leave):
                self.add(BreakOp(*self.frame_leaves(frame)))
            self.add(IfOp(flag.value, [], Region(stay), Region(leave)))

        def build(inits: list[SSAValue], block: Block) -> Operation:
            return LoopOp(inits, [v.type for v in inits], Region(block))

        self.loop(stmt, "loop", None, enter, lambda: self.lower_body(stmt.body), build)

    def loop(
        self,
        stmt: ast.For | ast.While,
        kind: str,
        iv_dtype: dsl.DType | None,
        enter: Callable[[LoopFrame, Any], None],
        body: Callable[[], None],
        build: Callable[[list[SSAValue], Block], Operation],
    ) -> None:
        """Find the carried values, then lower the loop for real.

        ``enter`` binds the induction variable (and tests the condition);
        ``build`` makes the loop op from the initial values and the body block
        (whose first argument is the induction variable if ``iv_dtype``).

        In a dry visit of an enclosing loop the body is not lowered again:
        the dry visits here found what it leaves in scope, and the
        enclosing loop's real visit lowers it for real.
        """
        carries = self.find_carried(kind, iv_dtype, enter, body)
        carried, templates, inner = carries.names, carries.templates, carries.end
        inits = [v for n in carried for v in self.leaves_like(templates[n], self.scope[n])]
        index_types = [] if iv_dtype is None else [TileType((), iv_dtype.ir)]
        block = Block(arg_types=[*index_types, *(v.type for v in inits)])
        if isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name):
            block.args[0].name_hint = stmt.target.id
        before = self.scope.snapshot()
        if not self.dry:
            frame = LoopFrame(kind, carried, templates)
            self.loops.append(frame)
            try:
                with self.builder.at(block):
                    self.bind_results(carried, templates, list(block.args[len(index_types) :]))
                    enter(frame, TileValue(block.args[0], iv_dtype) if iv_dtype is not None else None)
                    body()
                    if not self.terminated:
                        self.add(ContinueOp(*self.continue_operands(frame)))
                inner = self.scope.snapshot()
            finally:
                self.loops.pop()
                self.terminated = self.unreachable = self.returned = False
                self.scope.restore(before)
        op = self.add(build(inits, block))
        self.bind_results(carried, templates, list(op.results))
        line = self.source.place(stmt)[0]
        for name in _changed(before, inner):
            if name not in carried and name != RETURN_SLOT:
                self.scope[name] = Unavailable(
                    f"'{name}' is assigned inside the loop at line {line}; "
                    "only names assigned before a loop are available after it"
                )

    def find_carried(
        self,
        kind: str,
        iv_dtype: dsl.DType | None,
        enter: Callable[[LoopFrame, Any], None],
        body: Callable[[], None],
    ) -> Carries:
        """The dry visits: which names a loop carries, and their types.

        A name defined before the loop is carried if the body leaves it
        different (at its end, or at a ``break``/``continue``).  Visits repeat
        until the set and the types settle: a carried name that started as a
        Python number becomes a runtime value, which may change what the body
        does with it.  The second visit, which binds the names found by the
        first to block arguments, is skipped where it cannot find more
        (``_rebinding_is_invisible``).
        """
        before = self.scope.snapshot()
        carried: list[str] = []
        templates: dict[str, object] = {}
        index_types = [] if iv_dtype is None else [TileType((), iv_dtype.ir)]
        for visit in range(_MAX_DRY_VISITS):
            slot_types = [t for n in carried for t in _leaf_types(templates[n])]
            block = Block(arg_types=[*index_types, *slot_types])
            frame = LoopFrame(kind, carried, templates)
            self.loops.append(frame)
            self.state.dry_depth += 1
            try:
                with self.builder.at(block):
                    self.bind_results(carried, templates, list(block.args[len(index_types) :]))
                    enter(frame, TileValue(block.args[0], iv_dtype) if iv_dtype is not None else None)
                    start = self.scope.snapshot()
                    body()
                    end = self.scope.snapshot()
                    reached_end = not (self.terminated or self.unreachable)
                exits = frame.exits + ([end] if reached_end else [])
            finally:
                self.state.dry_depth -= 1
                self.loops.pop()
                self.terminated = self.unreachable = self.returned = False
                self.scope.restore(before)
                _discard(block)
            found = [
                n
                for n in before
                if n in start
                and not isinstance(before[n], Unavailable)
                and n != RETURN_SLOT
                and any(n in e and e[n] is not start[n] for e in exits)
            ]
            new = [n for n in found if n not in carried]
            updated = {
                n: self.merge_template(
                    n, [templates.get(n, before[n])] + [e[n] for e in exits if n in e]
                )
                for n in carried + new
            }
            settled = not new and all(
                _leaf_types(updated[n]) == _leaf_types(templates[n]) for n in carried
            )
            carried, templates = carried + new, updated
            if settled or (visit == 0 and _rebinding_is_invisible(before, carried, templates)):
                return Carries(carried, templates, end)
        raise self.error("the values this loop carries do not settle", "simplify the loop body")

    def frame_leaves(self, frame: LoopFrame) -> list[SSAValue]:
        """The carried values at a ``continue``/``break`` of ``frame``."""
        if self.dry:
            return []
        return [v for n in frame.carried for v in self.leaves_like(frame.templates[n], self.scope[n])]

    def continue_operands(self, frame: LoopFrame) -> list[SSAValue]:
        head = frame.next_index() if frame.next_index is not None else []
        return head + self.frame_leaves(frame)

    # -- break / continue ---------------------------------------------------

    def stmt_Break(self, stmt: ast.Break) -> None:
        frame = self.loops[-1]
        if frame.kind == "static":
            self.static_jump(frame, "break")
            frame.broke = True
            return
        if self.dry:
            frame.exits.append(self.scope.snapshot())
        self.add(BreakOp(*self.frame_leaves(frame)))
        self.terminated = True

    def stmt_Continue(self, stmt: ast.Continue) -> None:
        frame = self.loops[-1]
        if frame.kind == "static":
            self.static_jump(frame, "continue")
            frame.continued = True
            return
        if self.dry:
            frame.exits.append(self.scope.snapshot())
        self.add(ContinueOp(*self.continue_operands(frame)))
        self.terminated = True

    def static_jump(self, frame: LoopFrame, what: str) -> None:
        if self.state.runtime_ifs > frame.entry_ifs:
            raise self.error(
                f"{what} in an unrolled loop must not depend on a runtime condition",
                "use range(...) for a runtime loop, or make the condition compile-time",
            )

    # -- expressions ----------------------------------------------------------

    def eval(self, node: ast.expr) -> Any:
        visit = getattr(self, "expr_" + type(node).__name__, None)
        if visit is None:
            raise self.error(
                f"unsupported Python expression in a kernel: {_construct(node)}",
                "kernels support names, numbers, tuples, operators, calls, attributes and lambdas",
                node,
            )
        with self.at_node(node):
            return visit(node)

    def expr_Constant(self, node: ast.Constant) -> Any:
        return node.value

    def expr_Name(self, node: ast.Name) -> Any:
        return self.lookup(node.id, node)

    def lookup(self, name: str, node: ast.AST) -> Any:
        if name in self.scope:
            value = self.scope[name]
            if isinstance(value, Unavailable):
                raise self.error(value.reason, "assign it before the if/loop so every path defines it", node)
            return value
        value = self.parsed.lookup_global(name)
        if value is MISSING:
            raise self.error(
                f"name '{name}' is not defined",
                spelling(name) or "define it before use, or pass it as a parameter or generic",
                node,
            )
        return value

    def expr_Tuple(self, node: ast.Tuple) -> tuple[Any, ...]:
        return self.sequence(node.elts)

    def expr_List(self, node: ast.List) -> tuple[Any, ...]:
        return self.sequence(node.elts)

    def sequence(self, elts: list[ast.expr]) -> tuple[Any, ...]:
        out: list[Any] = []
        for e in elts:
            if isinstance(e, ast.Starred):
                value = self.eval(e.value)
                if not isinstance(value, tuple):
                    raise self.error(f"cannot unpack {describe(value)}", node=e)
                out += value
            else:
                out.append(self.eval(e))
        return tuple(out)

    def expr_BinOp(self, node: ast.BinOp) -> Any:
        return self.binary(node.op, self.eval(node.left), self.eval(node.right))

    def binary(self, op: ast.operator, a: Any, b: Any) -> Any:
        name, fn = _BINARY[type(op)]
        if not _is_runtime(a) and not _is_runtime(b):
            return self.python(fn, a, b)
        return builtins.OPERATORS[name](self, a, b)

    def expr_UnaryOp(self, node: ast.UnaryOp) -> Any:
        name, fn = _UNARY[type(node.op)]
        value = self.eval(node.operand)
        if not _is_runtime(value):
            return self.python(fn, value)
        return builtins.OPERATORS[name](self, value)

    def expr_Compare(self, node: ast.Compare) -> Any:
        """``a < b <= c``: compile-time parts fold, runtime parts are and-ed."""
        runtime: list[Any] = []
        left = self.eval(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            right = self.eval(right_node)
            if isinstance(op, ast.Is | ast.IsNot) and (left is None or right is None):
                # A runtime value is never None: `w is None` decides at compile time (an
                # optional operand of a device function).
                value = self.python(_MEMBERSHIP[type(op)], left, right)
            elif isinstance(op, ast.Is | ast.IsNot | ast.In | ast.NotIn):
                if _is_runtime(left) or _is_runtime(right):
                    raise self.error(
                        f"'{_OP_TEXT[type(op)]}' works on compile-time values only",
                        "compare runtime values with == or !=",
                    )
                value: Any = self.python(_MEMBERSHIP[type(op)], left, right)
            elif _is_runtime(left) or _is_runtime(right):
                value = builtins.OPERATORS[_COMPARE[type(op)][0]](self, left, right)
            else:
                value = self.python(_COMPARE[type(op)][1], left, right)
            if not _is_runtime(value) and not value:
                return value  # Python stops at the first false comparison
            if _is_runtime(value):
                runtime.append(value)
            left = right
        result: Any = runtime[0] if runtime else True
        for value in runtime[1:]:
            result = builtins.OPERATORS["And"](self, result, value)
        return result

    def expr_BoolOp(self, node: ast.BoolOp) -> Any:
        is_and = isinstance(node.op, ast.And)
        result = self.eval(node.values[0])
        for value_node in node.values[1:]:
            if not _is_runtime(result):
                if bool(result) != is_and:  # short circuit, as Python does
                    return result
                result = self.eval(value_node)
                continue
            other = self.eval(value_node)
            if not _is_runtime(other) and bool(other) != is_and:
                return other
            if not _is_runtime(other):
                continue
            result = builtins.OPERATORS["And" if is_and else "Or"](self, result, other)
        return result

    def expr_IfExp(self, node: ast.IfExp) -> Any:
        cond = self.eval(node.test)
        if not _is_runtime(cond):
            return self.eval(node.body if cond else node.orelse)
        return builtins.call(self, dsl.where, (cond, self.eval(node.body), self.eval(node.orelse)), {})

    def expr_Subscript(self, node: ast.Subscript) -> Any:
        value = self.eval(node.value)
        index = self.eval(node.slice)
        if isinstance(value, OwnedIndex):
            value = value.values
        if isinstance(value, tuple | str) and not _is_runtime(index):
            return self.python(pyop.getitem, value, index)
        if index is None or (isinstance(index, tuple) and None in index):
            hint = ("a None index adds a dimension of size 1 in numpy and Triton: here reshape, "
                    "e.g. x.reshape((M, 1))")
        else:
            hint = "tiles are indexed by whole sub-tiles: use st.extract(tile, index, shape)"
        raise self.error(f"cannot index {describe(value)} with {describe(index)}", hint)

    def expr_Slice(self, node: ast.Slice) -> slice:
        parts = [self.eval(p) if p is not None else None for p in (node.lower, node.upper, node.step)]
        return slice(*parts)

    def expr_Attribute(self, node: ast.Attribute) -> Any:
        value = self.eval(node.value)
        api = API_CLASS.get(type(value))
        if api is None:
            if _is_runtime(value) or isinstance(value, tuple):
                raise self.error(f"{describe(value)} has no attribute '{node.attr}'")
            try:
                return getattr(value, node.attr)
            except AttributeError:
                raise self.error(f"{describe(value)} has no attribute '{node.attr}'", spelling(node.attr) or "") from None
        getter = builtins.property_getter(api, node.attr)
        if getter is not None and builtins.is_builtin(getter):
            return builtins.call(self, getter, (value,), {})
        member = getattr(api, node.attr, None)
        if member is None or not builtins.is_builtin(member):
            raise self.error(
                f"{describe(value)} has no attribute '{node.attr}'",
                spelling(node.attr) or f"see the methods of st.{api.__name__} in docs/language.md",
            )
        return BoundMethod(member, value)

    def expr_Lambda(self, node: ast.Lambda) -> LambdaValue:
        return LambdaValue(node, self.parsed, self.scope.snapshot())

    def expr_JoinedStr(self, node: ast.JoinedStr) -> str:
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
                continue
            assert isinstance(v, ast.FormattedValue)
            value = self.eval(v.value)
            if _is_runtime(value):
                raise self.error(
                    "f-strings may only format compile-time values",
                    "print runtime values with st.print(\"x=%f\\n\", x)",
                    v,
                )
            spec = self.eval(v.format_spec) if v.format_spec is not None else ""
            parts.append(format(value, spec))
        return "".join(parts)

    def expr_NamedExpr(self, node: ast.NamedExpr) -> Any:
        value = self.eval(node.value)
        self.assign(node.target, value)
        return value

    def python(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Evaluate a Python operation on compile-time values."""
        try:
            return fn(*args, **kwargs)
        except Exception as err:
            raise self.error(
                f"cannot evaluate at compile time: {err}",
                "check the compile-time values (generics and constants) involved",
            ) from None

    # -- calls ----------------------------------------------------------------

    def expr_Call(self, node: ast.Call) -> Any:
        func = self.eval(node.func)
        args = self.sequence(node.args)
        kwargs: dict[str, Any] = {}
        for kw in node.keywords:
            if kw.arg is None:
                value = self.eval(kw.value)
                if not isinstance(value, dict):
                    raise self.error("** needs a compile-time dict", node=kw.value)
                kwargs.update(value)
            else:
                kwargs[kw.arg] = self.eval(kw.value)
        return self.call(func, args, kwargs)

    def call(self, func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        func = getattr(func, "__kernel_builtin__", func) if inspect.isfunction(func) else func
        if isinstance(func, BoundMethod):
            return builtins.call(self, func.function, (func.receiver, *args), kwargs)
        if func is dsl.static_range:
            return StaticRange(self.python(range, *args))
        if func is dsl.TensorView.tile_indices:
            raise self.error("tile_indices() is a method: call z.tile_indices()")
        if builtins.is_builtin(func):
            return builtins.call(self, func, args, kwargs)
        if isinstance(func, DeviceFunction):
            return self.inline(func, args, kwargs)
        if isinstance(func, LambdaValue):
            return self.inline_lambda(func, args, kwargs)
        if getattr(func, "__safetile_kernel__", False):
            raise self.error(
                "a kernel cannot be called from a kernel",
                "move the shared code into a @st.function and call that",
            )
        python_builtin = PY_BUILTINS.get(func) if _hashable(func) else None
        if python_builtin is not None:
            return python_builtin(self, *args, **kwargs)
        if any(_is_runtime(v) for v in (*args, *kwargs.values())):
            name = getattr(func, "__name__", describe(func))
            raise self.error(
                f"'{name}' is not a kernel function",
                f"decorate '{name}' with @st.function to call it with tiles",
            )
        name = getattr(func, "__name__", describe(func))
        try:
            result = func(*args, **kwargs)
        except RuntimeError as err:
            raise self.error(str(err), f"decorate '{name}' with @st.function") from None
        except Exception as err:
            raise self.error(f"cannot evaluate at compile time: {err}") from None
        if type(result).__module__.startswith(_HOST_RUNTIME):
            # A host function (st.arange, st.from_numpy...): what it made cannot enter the kernel.
            raise self.error(
                f"'{name}' is a plain Python function: it ran at compile time, on the host, and "
                f"made {describe(result)}, which a kernel cannot use",
                spelling(name) or "in a kernel, make tiles with the kernel language's functions "
                "(docs/language.md, \"Plain Python calls\")",
            )
        return result

    def inline(self, fn: DeviceFunction, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Inline a ``@st.function`` at this call site."""
        if fn in self.state.inlining:
            chain = " -> ".join(f.name for f in (*self.state.inlining, fn))
            raise self.error(
                f"recursive call of device function '{fn.name}' ({chain})",
                "device functions are inlined, so they cannot recurse; rewrite it as a loop",
            )
        parsed = fn.parsed
        try:
            bound = inspect.signature(parsed.python).bind(*args, **kwargs)
        except TypeError as err:
            raise self.error(f"bad call of '{fn.name}': {err}") from None
        bound.apply_defaults()
        callee = Lowerer(self.state, parsed, Scope(dict(bound.arguments)), is_kernel=False)
        self.state.inlining.append(fn)
        try:
            callee.lower_body(parsed.tree.body)
        except CompileError as err:
            err.notes.append(f"inlined from {self.where()}")
            raise
        finally:
            self.state.inlining.pop()
        return callee.result()

    def inline_lambda(self, fn: LambdaValue, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        params = [a.arg for a in fn.node.args.args]
        if kwargs or len(args) != len(params):
            raise self.error(f"this lambda takes {len(params)} arguments, got {len(args)}", node=fn.node)
        callee = Lowerer(self.state, fn.parsed, Scope({**fn.scope, **dict(zip(params, args))}), False)
        return callee.eval(fn.node.body)

    def result(self) -> Any:
        """A device function's return value (None if it returns nothing)."""
        if RETURN_SLOT not in self.scope:
            return None
        value = self.scope[RETURN_SLOT]
        if isinstance(value, Unavailable):
            raise self.error(
                f"'{self.parsed.name}' does not return a value on every path",
                "end every path of the function with a return",
                self.parsed.tree,
            )
        return value

    # -- index checks -------------------------------------------------------

    def check_index(self, index: TileValue, view: PartitionValue, dim: int, what: str) -> None:
        """The obligation ``0 <= index < num_tiles(view, dim)`` (``unchecked_accesses`` drops it
        in ``bounds-check-elision``, the one place that option acts)."""
        self.refuse_static_out_of_range(index, view, dim, what)
        self.add(tile_safety.CheckIndexOp(index.value, view.view, dim, what))

    def refuse_static_out_of_range(self, index: TileValue, view: PartitionValue, dim: int, what: str) -> None:
        """A constant index outside a partition of static extent is a compile error
        (every launch would fail it)."""
        known = constant_value(index)
        if not isinstance(known, int):
            return
        view_type = view.view.type
        assert isinstance(view_type, PartitionViewType)
        extent = view.tensor.shape[view_type.dim_map[dim]]
        tiles = -(-extent // view.tile[dim]) if isinstance(extent, int) else None
        if known < 0:
            raise self.error(
                f"{what}: tile index {known} (dimension {dim}) is negative",
                "tile indices count from 0; Python's negative indexing does not apply to partitions",
            )
        if tiles is not None and known >= tiles:
            raise self.error(
                f"{what}: tile index {known} (dimension {dim}) is out of range: the partition has {tiles} "
                f"tile(s) there ({extent} elements in tiles of {view.tile[dim]})",
                f"use an index below {tiles}, or a larger tensor",
            )


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


@dataclass
class _Branch:
    block: Block
    scope: dict[str, object]
    terminated: bool
    unreachable: bool
    returned: bool


_OP_TEXT = {ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}
_MEMBERSHIP: dict[type, Callable[[Any, Any], Any]] = {
    ast.Is: pyop.is_,
    ast.IsNot: pyop.is_not,
    ast.In: lambda x, y: x in y,
    ast.NotIn: lambda x, y: x not in y,
}


def _is_runtime(value: object) -> bool:
    if isinstance(value, tuple):
        return False
    return isinstance(value, RUNTIME_TYPES)


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _construct(node: ast.AST) -> str:
    names = {
        "Try": "'try' statement",
        "FunctionDef": "nested function definition",
        "ClassDef": "class definition",
        "Import": "import statement",
        "ImportFrom": "import statement",
        "Global": "'global' statement",
        "Nonlocal": "'nonlocal' statement",
        "Delete": "'del' statement",
        "Match": "'match' statement",
        "AsyncFor": "'async for'",
        "AsyncWith": "'async with'",
        "ListComp": "list comprehension",
        "DictComp": "dict comprehension",
        "SetComp": "set comprehension",
        "GeneratorExp": "generator expression",
        "Dict": "dict literal",
        "Set": "set literal",
        "Await": "'await'",
        "Yield": "'yield'",
        "Subscript": "an indexed element",
        "Attribute": "an attribute",
        "Starred": "a starred name",
    }
    kind = type(node).__name__
    return names.get(kind, kind)


def _always_returns(stmts: list[ast.stmt]) -> bool:
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    if isinstance(last, ast.If):
        return _always_returns(last.body) and _always_returns(last.orelse)
    return False


def _with_branches(stmt: ast.If, body: list[ast.stmt], orelse: list[ast.stmt]) -> ast.If:
    new = ast.If(test=stmt.test, body=body, orelse=orelse)
    return ast.copy_location(new, stmt)


def _has_break(stmts: list[ast.stmt]) -> bool:
    """Whether a ``break`` of this loop (not of a nested one) occurs in ``stmts``."""
    for stmt in stmts:
        if isinstance(stmt, ast.Break):
            return True
        if isinstance(stmt, ast.For | ast.While | ast.FunctionDef):
            continue
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.stmt) and _has_break([child]):
                return True
    return False


def _changed(before: dict[str, object], after: dict[str, object]) -> list[str]:
    return [n for n, v in after.items() if n not in before or before[n] is not v]


def _same(a: object, b: object) -> bool:
    """The same compile-time value (equal numbers of one type count)."""
    return a is b or (is_number(a) and type(a) is type(b) and a == b)


def _structure(value: object) -> object:
    if isinstance(value, tuple):
        return tuple(_structure(v) for v in value)
    return None


def _rebinding_is_invisible(before: dict[str, object], carried: list[str], templates: dict[str, object]) -> bool:
    """Whether a dry visit that binds ``carried`` to block arguments typed by
    ``templates`` would find what the first visit (which saw ``before``) found.

    It would if every runtime leaf of a carried name's value becomes a block
    argument of that leaf's type (``templates`` kept every other leaf) and no
    other name holds the value, one of its tuples or runtime leaves: then the
    body takes the same path on values of the same types, and a name it left
    as it was still is.  (The one thing a block argument changes is that it
    is no constant: a check that refuses a constant index or divisor has
    already run on the first visit.)
    """
    replaced: set[int] = set()
    for n in carried:
        for leaf, slot in zip(flatten(before[n]), flatten(templates[n]), strict=True):
            if isinstance(leaf, TileValue):
                runtime = Slot(leaf.type, leaf.dtype)
            elif isinstance(leaf, TokenValue):
                runtime = Slot(leaf.value.type, None)
            else:
                if slot is not leaf:
                    return False
                continue
            if slot != runtime:
                return False
            replaced.add(id(leaf))
        replaced |= {id(part) for part in _tuples(before[n])}
    return not any(id(before[n]) in replaced for n in before if n not in carried)


def _tuples(value: object) -> Iterator[tuple[object, ...]]:
    """``value`` and the tuples nested in it, if it is a tuple."""
    if isinstance(value, tuple):
        yield value
        for v in value:
            yield from _tuples(v)


def _leaf_types(template: object) -> list[Attribute]:
    return [leaf.type for leaf in flatten(template) if isinstance(leaf, Slot)]


def _slot_text(slot: Slot) -> str:
    if slot.dtype is None:
        return "token"
    assert isinstance(slot.type, TileType)
    dims = "x".join(map(str, slot.type.shape))
    return f"tile<{dims + 'x' if dims else ''}{slot.dtype.name}>"


def _discard(block: Block) -> None:
    """Erase the ops of a dry visit."""
    for op in reversed(list(block.ops)):
        block.detach_op(op)
        op.erase(safe_erase=False)