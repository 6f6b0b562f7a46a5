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

Invariant established: every entry starts with a ``gdc_wait_tko``
without input token, followed by a ``gdc_launch_dependents_tko`` taking its
token; the entry holds no
``make_token`` (each was replaced by the wait's token) and every memory
operation (``_tko`` access, atomic, fence) takes an input token, so each is
ordered after the wait.  Runs after ``token-order`` (whose chains start at
the ``make_token`` this pass replaces, and which leaves weak loads of
read-only tensors without a token: they now take the wait's).  An entry
that already satisfies it is left alone, so a second run changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from safetile.dialects.cuda_tile.ops.memory import MakeTokenOp, TokenOrderedOp
from safetile.dialects.cuda_tile.ops.misc import GdcLaunchDependentsTkoOp, GdcWaitTkoOp
from safetile.dialects.cuda_tile.ops.structure import EntryOp
from safetile.dialects.cuda_tile.types import TokenType


@dataclass(frozen=True)
class GridDependency(ModulePass):
    """Wait for the kernels before, signal the next, order all memory after the wait (see the module doc)."""

    name = "grid-dependency"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for entry in [o for o in op.walk() if isinstance(o, EntryOp)]:
            if not waits_first(entry):
                _wait_first(entry)


def waits_first(entry: EntryOp) -> bool:
    """Whether ``entry`` keeps ``grid-dependency``'s invariant: every memory access, and the
    signal that lets the next kernel start, is ordered after one ``gdc_wait_tko``.

    Tokens come only from ``make_token``, from the ``gdc_*`` ops and from
    memory operations, each of the last two taking an optional input token.
    So if the entry's only op that makes a token from nothing is one
    ``gdc_wait_tko`` in its body (not in a loop or branch: it runs once,
    first), every token, hence every access, descends from that wait.
    Where it stands in the body does not matter: tokens, not positions,
    order memory in Tile IR."""
    sources = []
    for op in entry.walk():
        if isinstance(op, MakeTokenOp):
            return False
        if isinstance(op, GdcWaitTkoOp | GdcLaunchDependentsTkoOp | TokenOrderedOp) and op.token is None:
            sources.append(op)
    wait = sources[0] if len(sources) == 1 else None
    return isinstance(wait, GdcWaitTkoOp) and wait.parent_block() is entry.body.block


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
