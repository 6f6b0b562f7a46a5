"""``token-order``: thread ``cuda_tile`` tokens so that memory operations are ordered as written."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from safetile.dialects.cuda_tile.attributes import MemoryOrdering
from safetile.dialects.cuda_tile.ops.control import (
    BreakOp,
    ContinueOp,
    ForOp,
    IfOp,
    LoopOp,
    YieldOp,
)
from safetile.dialects.cuda_tile.ops.memory import TokenOrderedOp
from safetile.dialects.cuda_tile.ops.memory.tokens import JoinTokensOp, MakeTokenOp
from safetile.dialects.cuda_tile.ops.memory.view_access import LoadViewTkoOp, StoreViewTkoOp
from safetile.dialects.cuda_tile.ops.memory.views import MakeTensorViewOp
from safetile.dialects.cuda_tile.ops.structure import EntryOp, entries
from safetile.dialects.cuda_tile.types import TokenType
from safetile.dialects.tile_safety import AccessMode
from safetile.passes.analyses.partitions import access_of, mapped_iterator, tensor_of

GLOBAL = "global"
"""The conservative chain: pointer accesses, atomics, fences, accesses to unknown tensors."""

Chain = MakeTensorViewOp | str
"""A mutable tensor's chain (keyed by its ``make_tensor_view``), or ``GLOBAL``."""


@dataclass(frozen=True)
class TokenOrder(ModulePass):
    """Thread tokens through memory operations: each mutable tensor's accesses in program order.

    Tile IR orders memory operations only through tokens; the frontend emits
    them without.  Invariant established: in every entry, each ``_tko``
    memory operation except a weak load of a shared tensor takes an input
    token, and

    * the accesses to one mutable tensor (its ``make_tensor_view`` marked
      ``#tile_safety.access<mut>`` or ``<mapped>``) form a chain: each takes
      the result token of the one before it in program order (a load after a
      store sees it; a store after a load does not overtake it).  Each
      mutable tensor has its own chain; chains start from one ``make_token``
      at the top of the entry;
    * weak loads of ``<shared>`` tensors take no token and are ordered with
      nothing (the tensor is read-only);
    * everything else (pointer loads and stores, atomics, alias fences,
      accesses to a tensor it cannot identify or to a shared one that
      writes) is on the global chain: it takes the join of every chain's
      token, and its result token is every chain's token afterwards;
    * ``for`` and ``loop`` carry one token per chain used inside them (an
      extra iteration value and result, passed by every ``continue`` and
      ``break``), or one token for all chains if a global-chain operation is
      inside; ``if`` yields the tokens of the chains either branch uses (an
      ``if`` without ``else`` gets one that yields them unchanged; a branch
      that ends in ``break``/``continue`` passes the loop's tokens there and
      yields none: only the other branch reaches the ``if``'s results).

    Disjoint iterations fork.  In ``for t in (bid.x to N, step nblocks.x)``,
    if every access on a chain inside the loop is a load or store of one
    partition view at the mapped tile of ``t`` (``t`` or ``(t / n1, t % n1)``,
    the index ``partition-disjointness`` proves injective, shared helper in
    ``analyses/partitions.py``), the iterations touch distinct tiles and
    need no order among them: each iteration's accesses chain from the
    token taken before the loop.  A token made inside the loop cannot be
    used after it, so the join of all iterations is carried instead: the
    loop carries, for that chain, a token initialised to the fork token
    that each iteration joins with its last access
    (``continue (join_tokens %acc, %last)``); it orders nothing inside the
    loop, and the loop's result for it, after every iteration's accesses,
    is the chain's token after the loop.  A store at a loop-invariant index
    writes one tile every iteration and is serialized through a carried
    token like any other access.

    Operations that already take a token (hand-written in unsafe code, or
    threaded by an earlier run) are left as they are; a later access on
    their chain also follows their result token (through a join, unless
    their token already follows the chain's), and token results of a
    ``for``/``loop``/``if`` that this pass did not add are followed like a
    global-chain operation's.  A hand-tokened operation nested in a loop or
    branch orders later ones only through the tokens its author carries
    out.  After one run every ordered operation takes a token, so a second
    run changes nothing.  ``print_tko`` and the ``gdc_*`` ops access no
    memory and are left unordered.

    It refuses nothing: the only other regions, ``reduce`` and ``scan``
    bodies, hold no memory operations (their verifier says so).

    ``report`` prints one line per entry on stderr:
    ``token-order: @entry: tokens T, joins J, chains C``, where T counts the
    ``make_token`` ops and used memory result tokens this run added, J the
    ``join_tokens`` it added, and C the chains in the entry (one per
    mutable tensor, plus the global chain if used).
    """

    name = "token-order"

    report: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for entry in list(entries(op)):
            tokens, joins = _token_counts(entry)
            _Threader(entry).run()
            if self.report:
                now_tokens, now_joins = _token_counts(entry)
                chains = {chain_of(o) for o in entry.walk() if isinstance(o, TokenOrderedOp)} - {None}
                print(
                    f"token-order: @{entry.sym_name.data}: tokens {now_tokens - tokens}, "
                    f"joins {now_joins - joins}, chains {len(chains)}",
                    file=sys.stderr,
                )


def chain_of(op: TokenOrderedOp) -> Chain | None:
    """The chain ``op`` is ordered on; None for a weak load of a shared tensor (not ordered)."""
    if isinstance(op, LoadViewTkoOp | StoreViewTkoOp):
        tensor = tensor_of(op.view)
        mode = access_of(tensor) if tensor is not None else None
        if tensor is not None and mode in (AccessMode.MUT, AccessMode.MAPPED):
            return tensor
        weak = op.memory_ordering_semantics.data == MemoryOrdering.WEAK
        if mode is AccessMode.SHARED and isinstance(op, LoadViewTkoOp) and weak:
            return None
    return GLOBAL


def _pending(op: Operation) -> Iterator[tuple[TokenOrderedOp, Chain]]:
    """The accesses in ``op`` (itself included) that need a token, with their chains."""
    for inner in op.walk():
        if isinstance(inner, TokenOrderedOp) and inner.token is None:
            chain = chain_of(inner)
            if chain is not None:
                yield inner, chain


def _token_counts(entry: EntryOp) -> tuple[int, int]:
    """(make_token ops + used memory result tokens, join_tokens ops) in ``entry``."""
    tokens = joins = 0
    for op in entry.walk():
        if isinstance(op, MakeTokenOp):
            tokens += 1
        elif isinstance(op, JoinTokensOp):
            joins += 1
        elif isinstance(op, TokenOrderedOp) and op.result_token.first_use is not None:
            tokens += 1
    return tokens, joins


def _reaches(token: SSAValue, target: SSAValue) -> bool:
    """Whether ``token`` is ordered after ``target`` through memory ops and joins."""
    stack, seen = [token], set()
    while stack:
        value = stack.pop()
        if value is target:
            return True
        if id(value) in seen or not isinstance(value, OpResult):
            continue
        seen.add(id(value))
        if isinstance(value.op, JoinTokensOp):
            stack.extend(value.op.tokens)
        elif isinstance(value.op, TokenOrderedOp) and value.op.token is not None:
            stack.append(value.op.token)
    return False


@dataclass
class _Frontier:
    """The tokens the next access on each chain must be ordered after.

    ``base`` holds for every chain since the last global-chain operation;
    ``chains`` replaces it for the chains accessed since, whose tokens all
    follow ``base`` (so a global-chain operation need not join ``base`` too).
    """

    base: list[SSAValue]
    chains: dict[MakeTensorViewOp, list[SSAValue]] = field(default_factory=dict)

    def copy(self) -> _Frontier:
        return _Frontier(list(self.base), {k: list(v) for k, v in self.chains.items()})

    def needs(self, chain: Chain) -> list[SSAValue]:
        if isinstance(chain, MakeTensorViewOp):
            return self.chains.get(chain, self.base)
        return [t for tokens in self.chains.values() for t in tokens] or self.base

    def after(self, chain: Chain, tokens: list[SSAValue]) -> None:
        if isinstance(chain, MakeTensorViewOp):
            self.chains[chain] = tokens
        else:
            self.base, self.chains = tokens, {}

    def follow(self, chain: Chain, results: Sequence[SSAValue], inputs: Sequence[SSAValue]) -> None:
        """Continue ``chain`` after an op this pass left alone, whose input tokens are ``inputs``."""
        kept = [t for t in self.needs(chain) if not any(_reaches(i, t) for i in inputs)]
        self.after(chain, kept + list(results))


@dataclass(frozen=True)
class _Carried:
    """What a loop's ``continue``/``break`` pass: one token per chain, ``args`` inside."""

    chains: list[Chain]
    args: list[BlockArgument]
    forks: dict[Chain, SSAValue]
    """Chains whose iterations fork from a token taken before the loop: their
    carried token only collects the join of the iterations."""


@dataclass(frozen=True)
class _Exits:
    """The tokens the terminators of the block being threaded pass on."""

    loop: _Carried | None = None
    """``continue``/``break`` of the innermost loop."""
    branch: list[Chain] = field(default_factory=list)
    """``yield`` of the innermost ``if``: these chains' tokens."""


class _Threader:
    """Threads the tokens of one entry, its blocks in program order."""

    def __init__(self, entry: EntryOp):
        self.entry = entry

    def run(self) -> None:
        if next(_pending(self.entry), None) is None:
            return
        block = self.entry.body.block
        start = MakeTokenOp.build(result_types=[TokenType()])
        start.result.name_hint = "token"
        start.location = self.entry.location
        Rewriter.insert_op(start, InsertPoint.at_start(block))
        self._block(block, _Frontier([start.result]), _Exits())

    def _block(self, block: Block, state: _Frontier, exits: _Exits) -> None:
        for op in list(block.ops):
            if isinstance(op, TokenOrderedOp):
                self._access(op, state)
            elif isinstance(op, ForOp | LoopOp):
                self._loop(op, state)
            elif isinstance(op, IfOp):
                self._if(op, state, exits)
            elif isinstance(op, ContinueOp | BreakOp | YieldOp):
                self._exit(op, state, exits)

    def _access(self, op: TokenOrderedOp, state: _Frontier) -> None:
        chain = chain_of(op)
        if chain is None:
            return
        if op.token is not None:
            state.follow(chain, [op.result_token], [op.token])
            return
        threaded = op.with_token(self._single(state.needs(chain), op))
        threaded.location = op.location
        Rewriter.replace_op(op, threaded)
        state.after(chain, [threaded.result_token])

    def _loop(self, loop: ForOp | LoopOp, state: _Frontier) -> None:
        own = [r.index for r in loop.results if isinstance(r.type, TokenType)]
        chains = _chains_inside(loop)
        inits = [self._single(state.needs(c), loop) for c in chains]
        body = loop.region.block
        args = [body.insert_arg(TokenType(), len(body.args)) for _ in chains]
        for arg in args:
            arg.name_hint = "token"
        forks: dict[Chain, SSAValue] = {}
        inner = state.copy()
        for chain, arg, init in zip(chains, args, inits):
            if isinstance(loop, ForOp) and _iterations_disjoint(loop, chain):
                forks[chain] = init
                inner.after(chain, [init])
            else:
                inner.after(chain, [arg])
        self._block(body, inner, _Exits(loop=_Carried(chains, args, forks)))
        if chains:
            loop = _with_tokens(loop, inits)
            for chain, result in zip(chains, loop.results[-len(chains):]):
                state.after(chain, [result])
        if own:
            state.follow(GLOBAL, [loop.results[i] for i in own], [])

    def _if(self, op: IfOp, state: _Frontier, exits: _Exits) -> None:
        own = [r.index for r in op.results if isinstance(r.type, TokenType)]
        chains = _chains_inside(op)
        # Both branches start from one token per chain, which a branch that
        # does not touch the chain yields unchanged.
        for chain in chains:
            state.after(chain, [self._single(state.needs(chain), op)])
        if chains and not op.else_region.blocks:
            op.else_region.add_block(Block([YieldOp()]))
        for region in op.regions:
            if region.blocks:
                self._block(region.block, state.copy(), _Exits(loop=exits.loop, branch=chains))
        if chains:
            old_count = len(op.results)
            branches = [op.detach_region(r) for r in list(op.regions)]
            new = IfOp(op.condition, [*op.result_types, *[TokenType()] * len(chains)], *branches)
            new.attributes |= op.attributes
            new.location = op.location
            Rewriter.replace_op(op, new, new.results[:old_count])
            op = new
            for chain, result in zip(chains, new.results[old_count:]):
                state.after(chain, [result])
        if own:
            state.follow(GLOBAL, [op.results[i] for i in own], [])

    def _exit(self, term: ContinueOp | BreakOp | YieldOp, state: _Frontier, exits: _Exits) -> None:
        if isinstance(term, YieldOp):
            tokens = [self._single(state.needs(c), term) for c in exits.branch]
        elif exits.loop is None:
            return
        else:
            carried = exits.loop
            tokens = []
            for chain, arg in zip(carried.chains, carried.args):
                needs = state.needs(chain)
                if chain in carried.forks:
                    # Join this iteration's accesses into the collected ones
                    # (nothing to join if it made none).
                    needs = [arg, *(t for t in needs if t is not carried.forks[chain])]
                tokens.append(self._single(needs, term))
        if tokens:
            term.operands = (*term.operands, *tokens)

    def _single(self, tokens: list[SSAValue], before: Operation) -> SSAValue:
        """One token ordered after ``tokens``: a ``join_tokens`` in front of ``before`` if several."""
        unique = list({id(t): t for t in tokens}.values())
        assert unique, "every chain starts from the entry's make_token"
        if len(unique) == 1:
            return unique[0]
        join = JoinTokensOp.build(operands=[unique], result_types=[TokenType()])
        join.location = before.location
        Rewriter.insert_op(join, InsertPoint.before(before))
        return join.result


def _chains_inside(op: Operation) -> list[Chain]:
    """The chains of the accesses in ``op`` that need a token, in program order;
    only ``GLOBAL`` if a global-chain operation is among them (it orders all chains)."""
    chains = list(dict.fromkeys(chain for _, chain in _pending(op)))
    return [GLOBAL] if GLOBAL in chains else chains


def _iterations_disjoint(loop: ForOp, chain: Chain) -> bool:
    """Whether every access on ``chain`` in ``loop`` is to one view, at the mapped tile of its iteration."""
    if not isinstance(chain, MakeTensorViewOp):
        return False
    accesses = [o for o, c in _pending(loop) if c is chain]
    tiles = [o for o in accesses if isinstance(o, LoadViewTkoOp | StoreViewTkoOp)]
    return (
        len(tiles) == len(accesses)
        and len({id(o.view) for o in tiles}) == 1
        and all(mapped_iterator(list(o.index), o.view) is loop.induction_var for o in tiles)
    )


def _with_tokens(loop: ForOp | LoopOp, inits: list[SSAValue]) -> ForOp | LoopOp:
    """``loop`` rebuilt to carry ``inits`` too (its body already has their arguments)."""
    count = len(loop.results)
    body = loop.detach_region(loop.region)
    new: ForOp | LoopOp
    if isinstance(loop, ForOp):
        new = ForOp(
            loop.lower_bound,
            loop.upper_bound,
            loop.step,
            [*loop.init_values, *inits],
            body,
            loop.unsigned_cmp is not None,
        )
    else:
        new = LoopOp([*loop.init_values, *inits], [*loop.result_types, *(i.type for i in inits)], body)
    new.attributes |= loop.attributes
    new.location = loop.location
    Rewriter.replace_op(loop, new, new.results[:count])
    return new


__all__ = ["GLOBAL", "TokenOrder", "chain_of"]
