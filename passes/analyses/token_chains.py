"""Which memory accesses a token is surely ordered after: the check of ``token-order``'s invariant.

Tile IR orders memory operations only through tokens.  ``token-order``
threads them so that the accesses to each mutable tensor run in program
order; a later pass can break that (move a load above the store it
followed, drop a join, carry a stale token out of a loop).  This module
checks the property on any IR, with no trust in who threaded it:

    for every two accesses ``A`` before ``B`` (program order) to one mutable
    tensor, at least one of them a write, ``B``'s input token is ordered
    after ``A`` (``A``'s result token reaches it through memory ops, joins,
    branch results and loop-carried tokens);

and, inside a loop, ``B`` is ordered after the previous iteration's ``A``
(for ``B`` at or before ``A`` in the body), unless every access to that
tensor in the loop is at the mapped tile of its iteration
(``analyses/partitions.py``): then iterations touch distinct tiles.

The analysis is a must-analysis over token values: ``must(t)`` is the set of
accesses whose latest instance surely completes before ``t`` is available
(an access that did not run on a path counts as done on it).  Loop-carried
tokens get a marker, their block argument: a token whose set holds the
marker is ordered after everything the previous iteration carried out.

Loops are left from branches (a ``while`` or ``for`` that breaks is a
``loop`` whose ``break``/``continue`` sit in ``if``s): a branch that ends in
``break``, ``continue`` or ``return`` never reaches its ``if``'s results, so
only the branches that ``yield`` bound them; a ``loop``'s results are what
its ``break``s pass, not its carried values (a counting ``loop`` carries a
counter it does not return).  What an iteration carries out counts the
accesses it skipped (the other branch, or after the ``continue`` it took)
only through a ``continue`` ordered after the carried token, which holds
what the earlier iterations carried out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue

from safetile.dialects.cuda_tile.ops.control import BreakOp, ContinueOp, ForOp, IfOp, LoopOp, YieldOp
from safetile.dialects.cuda_tile.ops.memory import TokenOrderedOp
from safetile.dialects.cuda_tile.ops.memory.tokens import JoinTokensOp
from safetile.dialects.cuda_tile.ops.memory.view_access import LoadViewTkoOp, StoreViewTkoOp
from safetile.dialects.cuda_tile.ops.structure import ReturnOp
from safetile.dialects.cuda_tile.types import TokenType
from safetile.passes.analyses.partitions import mapped_iterator

Marker = Operation | BlockArgument
"""An access (its latest instance), or a loop-carried token (all the previous iteration carried)."""


@dataclass(frozen=True)
class Unordered:
    """``later`` may run before (or overlap) ``earlier``: two accesses to one tensor, one a write."""

    earlier: Operation
    later: Operation
    across_iterations: bool


def unordered_accesses(
    root: Operation,
    tensor_of_access: Callable[[TokenOrderedOp], object | None],
    exempt: Callable[[Operation], bool],
) -> list[Unordered]:
    """The pairs of accesses under ``root`` that the tokens leave unordered.

    ``tensor_of_access`` names the mutable tensor an access touches (None: not one
    this check orders, e.g. a read-only tensor); ``exempt`` accesses (unsafe code)
    are left out of every pair."""
    accesses = [
        (op, tensor)
        for op in root.walk()
        if isinstance(op, TokenOrderedOp) and not exempt(op)
        and (tensor := tensor_of_access(op)) is not None
    ]
    must = _Must()
    found: list[Unordered] = []
    for j, (later, tensor) in enumerate(accesses):
        before = must.of(later.token) if later.token is not None else frozenset()
        for earlier, other in accesses[:j]:
            if other != tensor or not (_writes(earlier) or _writes(later)) or _exclusive(earlier, later):
                continue
            if earlier not in before:
                found.append(Unordered(earlier, later, False))
        for loop in _loops_around(later):
            if _iterations_disjoint(loop, tensor, accesses):
                continue
            carried = [a for a in before if isinstance(a, BlockArgument) and a.block is loop.region.block]
            for earlier, other in accesses[j:]:
                if other != tensor or not loop.is_ancestor(earlier) or not (_writes(earlier) or _writes(later)):
                    continue
                if not any(earlier in must.carried_out(loop, arg) for arg in carried):
                    found.append(Unordered(earlier, later, True))
    return found


def _writes(op: Operation) -> bool:
    return not isinstance(op, LoadViewTkoOp)


def _exclusive(a: Operation, b: Operation) -> bool:
    """``a`` and ``b`` are in the two branches of one ``if``: never both in one run of it."""
    region_a = _regions(a)
    for region in _regions(b):
        parent = region.parent_op()
        if isinstance(parent, IfOp) and region not in region_a:
            if any(r.parent_op() is parent for r in region_a):
                return True
    return False


def _regions(op: Operation) -> list[Region]:
    found = []
    region = op.parent_region()
    while region is not None:
        found.append(region)
        parent = region.parent_op()
        region = parent.parent_region() if parent is not None else None
    return found


def _loops_around(op: Operation) -> Iterator[ForOp | LoopOp]:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, ForOp | LoopOp):
            yield parent
        parent = parent.parent_op()


def _iterations_disjoint(
    loop: ForOp | LoopOp, tensor: object, accesses: list[tuple[TokenOrderedOp, object]]
) -> bool:
    """Every access to ``tensor`` in ``loop`` is a tile load/store of one view at its iteration's mapped tile."""
    if not isinstance(loop, ForOp):
        return False
    inside = [op for op, t in accesses if t == tensor and loop.is_ancestor(op)]
    tiles = [op for op in inside if isinstance(op, LoadViewTkoOp | StoreViewTkoOp)]
    return (
        len(tiles) == len(inside)
        and len({id(op.view) for op in tiles}) == 1
        and all(mapped_iterator(list(op.index), op.view) is loop.induction_var for op in tiles)
    )


def _exits(loop: ForOp | LoopOp, kind: type[Operation]) -> list[Operation]:
    """``loop``'s own ``continue`` (or ``break``) ops, not those of loops nested in it."""
    found: list[Operation] = []

    def visit(block: Block) -> None:
        for op in block.ops:
            if isinstance(op, kind):
                found.append(op)
            elif isinstance(op, IfOp):
                for region in op.regions:
                    for inner in region.blocks:
                        visit(inner)

    visit(loop.region.block)
    return found


def _carried_args(loop: ForOp | LoopOp) -> list[BlockArgument]:
    """The body arguments that carry values (after a ``for``'s induction variable)."""
    args = list(loop.region.block.args)
    return args[1:] if isinstance(loop, ForOp) else args


class _Must:
    """``must(token)``, computed on demand; loops to a fixed point."""

    def __init__(self) -> None:
        self.memo: dict[SSAValue, frozenset[Marker]] = {}
        self.args: dict[BlockArgument, frozenset[Marker]] = {}
        self.solved: set[Operation] = set()

    def of(self, value: SSAValue) -> frozenset[Marker]:
        if isinstance(value, BlockArgument) and isinstance(value.type, TokenType):
            loop = value.block.parent_op()
            if isinstance(loop, ForOp | LoopOp):
                # The loop's current approximation, also while it is being solved.
                self._solve(loop)
                return self.args.get(value, frozenset())
        if value in self.memo:
            return self.memo[value]
        self.memo[value] = frozenset()  # a cycle not through a loop argument orders nothing
        result = self._compute(value)
        self.memo[value] = result
        return result

    def _compute(self, value: SSAValue) -> frozenset[Marker]:
        if isinstance(value, BlockArgument):
            return frozenset()  # an entry argument, or a token of another region: orders nothing
        assert isinstance(value, OpResult)
        op = value.op
        if isinstance(op, TokenOrderedOp) and value is op.result_token:
            return frozenset({op}) | (self.of(op.token) if op.token is not None else frozenset())
        if isinstance(op, JoinTokensOp):
            return frozenset().union(*(self.of(t) for t in op.tokens))
        if isinstance(op, IfOp) and isinstance(value.type, TokenType):
            return self._if_result(op, value.index)
        if isinstance(op, ForOp | LoopOp) and isinstance(value.type, TokenType):
            return self._loop_result(op, value.index)
        return frozenset()

    def _if_result(self, op: IfOp, index: int) -> frozenset[Marker]:
        """What both branches that ``yield`` surely order before result ``index``.  A branch
        that ends in ``break``, ``continue`` or ``return`` leaves the ``if`` by that exit and
        never reaches the result (the path is checked at the exit's own operands), so it
        adds no bound; with no branch yielding, nothing is ordered."""
        branches = [r for r in op.regions if r.blocks]
        if len(branches) != 2:
            return frozenset()
        sets = []
        for region, other in ((branches[0], branches[1]), (branches[1], branches[0])):
            end = region.block.last_op
            if isinstance(end, BreakOp | ContinueOp | ReturnOp):
                continue
            if not isinstance(end, YieldOp) or index >= len(end.operands):
                return frozenset()
            # What ran only in the other branch did not run on this path: done.
            sets.append(self.of(end.operands[index]) | _accesses_in(other))
        return frozenset.intersection(*sets) if sets else frozenset()

    def carried_out(self, loop: ForOp | LoopOp, arg: BlockArgument) -> frozenset[Marker]:
        """The accesses in ``loop`` whose latest instance, in this iteration or an earlier one,
        every iteration surely carries out through ``arg`` (its ``continue`` operands).

        An access that did not run in an iteration (in a branch not taken, or after the
        ``continue`` that ended it) is carried out only if that ``continue`` is ordered after
        ``arg``, the token the earlier iterations carried in; a ``continue`` that is not carries
        out nothing surely (what it follows may have been skipped in this iteration)."""
        self._solve(loop)
        position = _carried_args(loop).index(arg)
        outs = []
        for term in _exits(loop, ContinueOp):
            out = self.of(term.operands[position]) if position < len(term.operands) else frozenset()
            outs.append((out | _not_run_before(term, loop)) if arg in out else frozenset())
        return frozenset.intersection(*outs) if outs else frozenset()

    def _loop_result(self, loop: ForOp | LoopOp, index: int) -> frozenset[Marker]:
        """What every way out of ``loop`` surely orders before result ``index``: each operand
        ``index`` of a ``for``'s ``continue`` or a ``loop``'s ``break``.  A ``loop``'s results
        are what its ``break`` passes, not its carried values (a ``for`` lowered to a ``loop``
        to break carries its counter but returns none), so which carried token an exit is
        ordered after is read from the markers in its set, not from ``index``."""
        self._solve(loop)
        carried = frozenset(a for a in _carried_args(loop) if isinstance(a.type, TokenType))
        exits = _exits(loop, ContinueOp if isinstance(loop, ForOp) else BreakOp)
        inside = _accesses_in(loop.region)
        sets = []
        for term in exits:
            if index >= len(term.operands):
                return frozenset()
            out = self.of(term.operands[index])
            followed = out & carried
            for arg in followed:
                # Ordered after the iteration's start: after what came before the loop and what
                # every earlier iteration carried out.
                out = out | self.args[arg] | (self.carried_out(loop, arg) & inside)
            if not followed:
                out = out - inside  # only the last iteration's accesses
            sets.append(out - carried)
        if isinstance(loop, ForOp):
            # A loop that runs no iteration gives its initial value; nothing inside ran.
            sets.append(self.of(loop.init_values[index]) | inside)
        return frozenset.intersection(*sets) if sets else frozenset()

    def _solve(self, loop: ForOp | LoopOp) -> None:
        if loop in self.solved:
            return
        self.solved.add(loop)
        args = _carried_args(loop)
        inits = {arg: self.of(init) for arg, init in zip(args, loop.init_values) if isinstance(arg.type, TokenType)}
        for arg, init in inits.items():
            self.args[arg] = init | {arg}
        continues = _exits(loop, ContinueOp)
        for _ in range(len(inits) + 2):
            self._forget(loop)
            changed = False
            for position, arg in enumerate(args):
                if arg not in inits:
                    continue
                new = inits[arg]
                for term in continues:
                    out = self.of(term.operands[position]) if position < len(term.operands) else frozenset()
                    new = new & (out | self.args[arg] if arg in out else out)
                new = new | {arg}
                if new != self.args[arg]:
                    self.args[arg], changed = new, True
            if not changed:
                break
        self._forget(loop)

    def _forget(self, loop: Operation) -> None:
        """Drop what was computed inside ``loop`` (it depended on the carried sets)."""
        for op in loop.walk():
            if op is not loop:
                self.solved.discard(op)
                for result in op.results:
                    self.memo.pop(result, None)


def _not_run_before(term: Operation, loop: ForOp | LoopOp) -> frozenset[Marker]:
    """The accesses in ``loop`` that cannot run in an iteration before it leaves by ``term``:
    those after ``term`` (or after the ops around it) in the body, and those in the other
    branch of each ``if`` around it."""
    before: set[Operation] = set()
    current = term
    while current is not loop:
        block, parent = current.parent_block(), current.parent_op()
        assert block is not None and parent is not None, "the exit is inside the loop"
        for op in block.ops:
            if op is current:
                break
            before.update(o for o in op.walk() if isinstance(o, TokenOrderedOp))
        current = parent
    return _accesses_in(loop.region) - before


def _accesses_in(region: Region) -> frozenset[Marker]:
    return frozenset(op for block in region.blocks for o in block.ops for op in o.walk()
                     if isinstance(op, TokenOrderedOp))


__all__ = ["Unordered", "unordered_accesses"]
