"""``grid-dependency``: each entry waits for the kernels before it, then lets the next one start.

Hopper's programmatic dependent launch lets a kernel start while the kernel
before it on its stream is still running: its blocks are scheduled, set up
and wait at ``gdc_wait_tko`` (``griddepcontrol.wait``) while the other
drains, instead of the launch starting only after it has finished and
flushed.  On a chain of short memory-bound kernels (a model's decode step)
that start costs about a microsecond a launch.

The safety contract.  Starting early is safe only if the kernel touches no
memory before its wait returns, and the wait returns only once the kernels
before it have completed and their stores are visible.  Every entry is made
to keep that order by tokens, Tile IR's only memory order, so the contract
holds whatever the kernels around it are (ours or not):

* the wait comes first and orders every memory operation after it;
* the signal that the next kernel may be scheduled
  (``gdc_launch_dependents_tko``) comes right after the wait.  So a kernel
  that starts early overlaps only the one before it: that kernel signalled
  after its own wait returned, so everything before *it* has completed.

The runtime launches an entry with the programmatic attribute only when
``waits_first`` holds on the IR that runs (a user pass after this one may
break the invariant; the launch is then an ordinary one).

Early reads.  Waiting first costs the read latency of a memory-bound
kernel's first loads: the wait returns, then the first weights are fetched.
A kernel may name read-only (``st.Ref``) tensors whose loads may come before
the wait (``@st.kernel(early_reads=("w",))``, the entry's
``tile_safety.early_reads``): each load of one at the top of the body (not in
a loop or branch), with the pure ops computing its view and indices and its
index checks, moves before the wait, and the loads are chained by tokens into the wait's input
token, so tileiras issues them first (a load merely placed first, its token
unrelated to the wait, is free to sink past it, and tileiras sinks it).
That is safe only if the kernel before does not write those tensors: the
compiler cannot know, so the runtime checks it launch by launch and starts
the kernel early only then (``CompiledVariant.early_reads``; docs/runtime.md).
Nothing else moves: every other access stays ordered after the wait.

Invariant established: every entry has one ``gdc_wait_tko`` in its body,
followed by a ``gdc_launch_dependents_tko`` taking its token; the wait's
input token is none, or the last of a chain of loads of ``early_reads``
tensors (the first without input token, each token used only by the next
link); the entry holds no ``make_token`` (each was replaced by the wait's
token) and every other memory operation (``_tko`` access, atomic, fence)
takes an input token, so each is ordered after the wait.  Runs after ``token-order`` (whose chains start at
the ``make_token`` this pass replaces, and which leaves weak loads of
read-only tensors without a token: they now take the wait's).  An entry
that already satisfies it is left alone, so a second run changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.ops.memory import TokenOrderedOp
from safetile.dialects.cuda_tile.ops.memory.tokens import MakeTokenOp
from safetile.dialects.cuda_tile.ops.memory.view_access import LoadViewTkoOp
from safetile.dialects.cuda_tile.ops.memory.views import MakeTensorViewOp, MakeViewOp
from safetile.dialects.cuda_tile.ops.misc import AssumeOp
from safetile.dialects.cuda_tile.ops.misc import GdcLaunchDependentsTkoOp, GdcWaitTkoOp
from safetile.dialects.cuda_tile.ops.structure import EntryOp, entries
from safetile.dialects.cuda_tile.types import TokenType


@dataclass(frozen=True)
class GridDependency(ModulePass):
    """Wait for the kernels before, signal the next, order all memory after the wait (see the module doc)."""

    name = "grid-dependency"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for entry in list(entries(op)):
            if not waits_first(entry):
                _wait_first(entry)
            _read_early(entry)


def waits_first(entry: EntryOp) -> bool:
    """Whether ``entry`` keeps ``grid-dependency``'s invariant: every memory access, and the
    signal that lets the next kernel start, is ordered after one ``gdc_wait_tko``.

    Tokens come only from ``make_token``, from the ``gdc_*`` ops and from
    memory operations, each of the last two taking an optional input token.
    So if the entry's only op that makes a token from nothing is one
    ``gdc_wait_tko`` in its body (not in a loop or branch: it runs once,
    first), or the first of the early loads chained into it, every token,
    hence every access but those loads, descends from that wait.
    Where it stands in the body does not matter: tokens, not positions,
    order memory in Tile IR."""
    sources = []
    for op in entry.walk():
        if isinstance(op, MakeTokenOp):
            return False
        if isinstance(op, GdcWaitTkoOp | GdcLaunchDependentsTkoOp | TokenOrderedOp) and op.token is None:
            sources.append(op)
    return len(sources) == 1 and _chain_from(sources[0]) is not None


def _chain_from(source: Operation) -> list[LoadViewTkoOp] | None:
    """The early loads before the wait in the entry's body that ``source`` (the entry's one token
    source) leads to: none if ``source`` is that wait, else the chain it starts
    (``early_loads``); None if it leads to no such wait, or not through such a chain."""
    op: Operation = source
    while isinstance(op, LoadViewTkoOp) and len(uses := list(op.result_token.uses)) == 1:
        op = uses[0].operation
    if not isinstance(op, GdcWaitTkoOp) or not isinstance(op.parent_op(), EntryOp):
        return None
    chain = early_loads(op)
    return chain if chain is not None and (chain[0] if chain else op) is source else None


def early_arguments(entry: EntryOp) -> tuple[int, ...]:
    """The numbers of the entry arguments (base pointers) read before its wait, in argument
    order; for an entry keeping the invariant (``waits_first``)."""
    loads = [op for op in entry.body.block.ops if isinstance(op, LoadViewTkoOp) and op.token is None]
    chain = _chain_from(loads[0]) if len(loads) == 1 else None
    return tuple(sorted({a.index for load in chain or [] if (a := view_argument(load.view)) is not None}))


def early_loads(wait: GdcWaitTkoOp) -> list[LoadViewTkoOp] | None:
    """The loads ordered before ``wait`` (first to last): the chain of ``load_view_tko`` in its
    block ending at its input token, each token used only by the next link and each view made
    from an entry argument (``view_argument``: what the runtime checks); None if what orders
    before the wait is anything else (a store, an atomic, a token used elsewhere)."""
    chain: list[LoadViewTkoOp] = []
    token, user = wait.token, wait
    while token is not None:
        load = token.owner
        if (not isinstance(load, LoadViewTkoOp) or load.parent_block() is not wait.parent_block()
                or [u.operation for u in token.uses] != [user] or view_argument(load.view) is None):
            return None
        chain.insert(0, load)
        token, user = load.token, load
    return chain


def view_argument(view: SSAValue) -> BlockArgument | None:
    """The entry argument (a base pointer) ``view`` was made from, through ``make_*_view``,
    ``make_tensor_view`` and ``assume``; None if it was made otherwise."""
    value: SSAValue = view
    while True:
        owner = value.owner
        if isinstance(owner, MakeViewOp):
            value = owner.tensor_view
        elif isinstance(owner, MakeTensorViewOp):
            value = owner.base
        elif isinstance(owner, AssumeOp):
            value = owner.value
        else:
            return value if isinstance(value, BlockArgument) else None


def _wait_first(entry: EntryOp) -> None:
    block = entry.body.block
    wait = GdcWaitTkoOp.build(operands=[[]], result_types=[TokenType()])
    signal = GdcLaunchDependentsTkoOp.build(operands=[[wait.result_token]], result_types=[TokenType()])
    wait.location = signal.location = entry.location
    Rewriter.insert_op([wait, signal], InsertPoint.at_start(block))
    for op in list(entry.walk()):
        if isinstance(op, MakeTokenOp):
            Rewriter.replace_op(op, [], [wait.result_token])
        elif isinstance(op, GdcWaitTkoOp | GdcLaunchDependentsTkoOp) and op.token is None and op is not wait:
            Rewriter.replace_op(op, op.build(operands=[[wait.result_token]], result_types=[TokenType()]))
        elif isinstance(op, TokenOrderedOp) and op.token is None:
            threaded = op.with_token(wait.result_token)
            threaded.location = op.location
            Rewriter.replace_op(op, threaded)


def _read_early(entry: EntryOp) -> None:
    """Move the top-level loads of the entry's ``early_reads`` tensors before its wait, chained
    into the wait's input token (see the module doc)."""
    early = entry.attributes.get(tile_safety.EARLY_READS)
    if not isinstance(early, ArrayAttr):
        return
    block = entry.body.block
    arguments = {block.args[a.value.data] for a in early if isinstance(a, IntegerAttr)}
    wait = next(op for op in block.ops if isinstance(op, GdcWaitTkoOp))
    chain = early_loads(wait) or []
    for load in [op for op in block.ops if isinstance(op, LoadViewTkoOp)]:
        if load.token is not wait.result_token or view_argument(load.view) not in arguments:
            continue
        computed = _pure_slice(load, block)
        if computed is None:
            continue
        for op in computed + _index_checks(load):
            if not _before(op, wait):
                op.detach()
                block.insert_op_before(op, wait)
        moved = load.with_token(chain[-1].result_token if chain else None)
        moved.location = load.location
        block.insert_op_before(moved, wait)
        Rewriter.replace_op(load, [], moved.results)
        chain.append(moved)
    if chain and wait.token is not chain[-1].result_token:
        chained = GdcWaitTkoOp.build(operands=[[chain[-1].result_token]], result_types=[TokenType()])
        chained.location = wait.location
        Rewriter.replace_op(wait, chained)


def _pure_slice(load: Operation, block: Block) -> list[Operation] | None:
    """The ops of ``block`` computing ``load``'s view and indices, in block order; None if one
    of them has effects or regions (it cannot move before the wait).  An ``assume`` moves: its
    effects are unknown only because NVIDIA declares none, and it touches no memory."""
    found: set[Operation] = set()
    todo = [o for o in load.operands if o is not load.token]
    while todo:
        owner = todo.pop().owner
        if isinstance(owner, Block) or owner in found:
            continue
        if owner.parent_block() is not block or owner.regions or not (
                isinstance(owner, AssumeOp) or is_side_effect_free(owner)):
            return None
        found.add(owner)
        todo += owner.operands
    return [op for op in block.ops if op in found]


def _index_checks(load: LoadViewTkoOp) -> list[Operation]:
    """The frontend's index checks of ``load`` (``tile_safety.check_index`` on its view and
    indices, in its block): they move with it, so the load still comes after its checks."""
    indices = set(load.index)
    return [use.operation for use in load.view.uses
            if isinstance(use.operation, tile_safety.CheckIndexOp) and use.operation.index in indices
            and use.operation.parent_block() is load.parent_block()]


def _before(op: Operation, anchor: Operation) -> bool:
    """Whether ``op`` comes before ``anchor`` in ``anchor``'s block."""
    block = anchor.parent_block()
    assert block is not None
    return op.parent_block() is block and block.get_operation_index(op) < block.get_operation_index(anchor)
