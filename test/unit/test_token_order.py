"""token-order through the default pipeline: chains, numerics, the interpreter, tileiras.

* Every example kernel specialization (the ones test_frontend_examples uses)
  goes through the full pipeline (safety steps and clean-ups); in the result,
  every access to a mutable tensor takes a token from which the previous
  access on that tensor, in program order, is reachable through the token
  def-use graph (through joins, loop-carried values and branch yields; the
  loop back edge too, except where the iterations are disjoint), and so is
  every earlier global-chain (pointer, atomic) operation.
* Kernels that reload their output in loops and branches run on the CPU
  interpreter and match numpy (every example does in
  test_runtime_examples.py: the runtime lowers through the same pipeline).
* A second run of token-order changes nothing.
* The interpreter runs hand-written token IR (make_token, join_tokens,
  tokens carried by for/loop and yielded by if).
* tileiras accepts the pipelined IR of the token-order lit cases (built into
  the suite's cubin cache: a rerun builds only what changed).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

import safetile as st
from bytecode_support import skip_without_toolchain
from interpreter_support import parse, poisoned
from safetile.backend.bytecode import write_bytecode
from safetile.backend.cache import compile_cubin
from safetile.backend.interpreter import run_kernel
from safetile.dialects.cuda_tile.ops.control import BreakOp, ContinueOp, ForOp, IfOp, LoopOp, YieldOp
from safetile.dialects.cuda_tile.ops.memory import TokenOrderedOp
from safetile.dialects.cuda_tile.ops.memory.tokens import JoinTokensOp
from safetile.dialects.cuda_tile.ops.memory.view_access import LoadViewTkoOp, StoreViewTkoOp
from safetile.dialects.cuda_tile.ops.memory.views import MakeTensorViewOp
from safetile.dialects.cuda_tile.ops.structure import EntryOp
from safetile.dialects.cuda_tile.syntax import parse_tile_ir, print_tile_ir
from safetile.dialects.tile_safety import AccessMode
from safetile.frontend.dsl import f32, i32
from safetile.frontend.kernel import context
from safetile.jit import Kernel
from safetile.passes.analyses.intervals import strip_assumes
from safetile.passes.analyses.partitions import access_of, mapped_iterator, tensor_of
from safetile.passes.grid_dependency import waits_first
from safetile.passes.lower_tile_safety import LowerTileSafety
from safetile.passes.pipeline import clean_up_passes, safety_passes
from safetile.passes.token_order import TokenOrder
from test_frontend_examples import CASES

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
import run_all  # noqa: E402

LIT = Path(__file__).resolve().parents[1] / "lit" / "passes" / "token-order.mlir"
GLOBAL = "global"


# --------------------------------------------------------------------------
# The chain property, on pipelined IR (tile_safety attributes gone)
# --------------------------------------------------------------------------


def mutable_bases(module: ModuleOp) -> set[int]:
    """The pointers (ids of entry arguments) of the tensors marked mut/mapped, before lowering."""
    return {
        id(strip_assumes(o.base))
        for o in module.walk()
        if isinstance(o, MakeTensorViewOp) and access_of(o) in (AccessMode.MUT, AccessMode.MAPPED)
    }


def chain_key(op: TokenOrderedOp, mutable: set[int]) -> object | None:
    """The chain an access must be on: its tensor's pointer, GLOBAL, or None (a shared read)."""
    if isinstance(op, LoadViewTkoOp | StoreViewTkoOp):
        tensor = tensor_of(op.view)
        if tensor is not None:
            base = strip_assumes(tensor.base)
            return base if id(base) in mutable else None
    return GLOBAL


def innermost_loop(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ForOp | LoopOp):
        parent = parent.parent_op()
    return parent


def exits(loop: ForOp | LoopOp, kind: type[Operation]) -> list[Operation]:
    return [o for o in loop.region.walk() if isinstance(o, kind) and innermost_loop(o) is loop]


def token_deps(value: SSAValue) -> list[SSAValue]:
    """The tokens ``value`` is ordered after, one step back."""
    if isinstance(value, BlockArgument):
        loop = value.owner.parent_op()
        if not isinstance(loop, ForOp | LoopOp):
            return []
        i = value.index - (1 if isinstance(loop, ForOp) else 0)
        return [loop.init_values[i], *(t.operands[i] for t in exits(loop, ContinueOp))]
    assert isinstance(value, OpResult)
    op = value.op
    if isinstance(op, TokenOrderedOp):
        return [op.token] if op.token is not None else []
    if isinstance(op, JoinTokensOp):
        return list(op.tokens)
    if isinstance(op, ForOp):
        return [op.init_values[value.index], *(t.operands[value.index] for t in exits(op, ContinueOp))]
    if isinstance(op, LoopOp):
        return [t.operands[value.index] for t in exits(op, BreakOp)]
    if isinstance(op, IfOp):
        ends = [r.block.last_op for r in op.regions if r.blocks]
        return [y.operands[value.index] for y in ends if isinstance(y, YieldOp)]
    return []


def reaches(token: SSAValue, target: SSAValue) -> bool:
    stack, seen = [token], set()
    while stack:
        value = stack.pop()
        if value is target:
            return True
        if id(value) not in seen:
            seen.add(id(value))
            stack.extend(token_deps(value))
    return False


Last = dict[object, set[TokenOrderedOp]]
"""Per chain, the accesses that may have run last."""


def merge(*states: Last) -> Last:
    out: Last = {}
    for state in states:
        for key, ops in state.items():
            out[key] = out.get(key, set()) | ops
    return out


def disjoint_iterations(loop: ForOp | LoopOp, key: object, mutable: set[int]) -> bool:
    accesses = [o for o in loop.walk() if isinstance(o, TokenOrderedOp) and chain_key(o, mutable) is key]
    return isinstance(loop, ForOp) and all(
        isinstance(o, LoadViewTkoOp | StoreViewTkoOp)
        and mapped_iterator(list(o.index), o.view) is loop.induction_var
        for o in accesses
    )


class ChainChecker:
    """Walks an entry in program order, checking each access against its predecessors."""

    def __init__(self, mutable: set[int]):
        self.mutable = mutable
        self.checked = 0

    def block(self, block: Block, last: Last) -> Last:
        last = dict(last)
        for op in block.ops:
            if isinstance(op, TokenOrderedOp) and (key := chain_key(op, self.mutable)) is not None:
                self.access(op, key, last)
            elif isinstance(op, ForOp | LoopOp):
                once = self.block(op.region.block, last)
                # The next iteration follows this one, unless iterations are disjoint.
                back = {k: v for k, v in once.items() if not disjoint_iterations(op, k, self.mutable)}
                last = merge(last, self.block(op.region.block, merge(last, back)))
            elif isinstance(op, IfOp):
                branches = [self.block(r.block, last) for r in op.regions if r.blocks]
                last = merge(*branches, *([] if op.else_region.blocks else [last]))
        return last

    def access(self, op: TokenOrderedOp, key: object, last: Last) -> None:
        assert op.token is not None, f"{op.name} on a chain takes no token"
        if key is GLOBAL:
            preds = set().union(*last.values())
        else:
            preds = last.get(key, set()) | last.get(GLOBAL, set())
        for pred in preds:
            assert reaches(op.token, pred.result_token), f"{op.name} is not ordered after {pred.name}"
        self.checked += 1
        if key is GLOBAL:
            last.clear()
        last[key] = {op}


def pipelined(module: ModuleOp) -> set[int]:
    """Run the default pipeline on ``module``; the mutable tensors' pointers."""
    mutable = mutable_bases(module)
    ctx = context()
    for step in safety_passes() + clean_up_passes():
        step.apply(ctx, module)
    module.verify()
    return mutable


def check_chains(module: ModuleOp, mutable: set[int]) -> int:
    """Check every entry; the number of accesses checked."""
    checker = ChainChecker(mutable)
    for entry in [o for o in module.walk() if isinstance(o, EntryOp)]:
        checker.block(entry.body.block, {})
    return checker.checked


# --------------------------------------------------------------------------
# Kernels beyond the examples: reloading the output, unsafe atomics
# --------------------------------------------------------------------------


@st.kernel
def reload(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], n: i32, *, S: st.Shape):
    """Reads its own output back in a for loop, a while loop and a branch."""
    z.store(st.load_tile_like(x, z))
    for _ in range(n):
        z.store(z.load() + 1.0)
    i = 0
    while i < n:
        if i % 2 == 0:
            z.store(z.load() * 2.0)
        i += 1
    z.store(z.load() - 1.0)


def reload_reference(x: np.ndarray, n: int) -> np.ndarray:
    return (x + n) * 2.0 ** math.ceil(n / 2) - 1.0


@st.kernel(specialize=[dict()])
def counters(z: st.Mut[f32, (16,)], p: st.Ptr[i32]):
    """Atomics through a raw pointer between accesses to the output."""
    z.store(st.zeros((16,), f32))
    with st.unsafe():
        ptrs = st.offset(p, st.iota((16,)))
        old = st.atomic_rmw(ptrs, 1, "add")
        again = st.load_ptr(ptrs)
    z.store(z.load() + old.astype(f32) + again.astype(f32))


OWN_KERNELS = [pytest.param(reload, dict(S=(64,)), id="reload"), pytest.param(counters, {}, id="counters")]


def example_kernels() -> Iterator[Any]:
    """Every example kernel's specializations and this file's kernels; ``make test`` takes each
    example kernel's first specialization (the rest differ in tiles and dtypes, not in the
    accesses the chains order), ``make test-full`` every one."""
    for case in CASES:
        yield case if case.id.endswith("-0") else pytest.param(*case.values, id=case.id, marks=pytest.mark.full)
    yield from OWN_KERNELS


# --------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------


def test_pipeline_orders_tokens_after_disjointness() -> None:
    # Kernel.compile, the runtime and the tileiras tests all run safety_passes().
    names = [p.name for p in safety_passes()]
    assert names == ["partition-disjointness", "token-order", "grid-dependency", "bounds-check-elision",
                     "lower-tile-safety"]
    assert "grid-dependency" not in [p.name for p in safety_passes(dependent_launch=False)]


@pytest.mark.parametrize(("kernel", "spec"), list(example_kernels()))
def test_pipelined_accesses_are_chained(kernel: Kernel, spec: dict[str, Any]) -> None:
    module = kernel.compile(**spec, stage="frontend")
    mutable = pipelined(module)
    assert mutable, "every example writes a mutable output"
    assert check_chains(module, mutable) >= 1
    # The chains start at the wait for the kernels launched before (grid-dependency).
    assert "make_token" not in print_tile_ir(module)
    assert all(waits_first(entry) for entry in module.walk() if isinstance(entry, EntryOp))


@pytest.mark.parametrize(("kernel", "spec"), list(example_kernels()))
def test_second_run_changes_nothing(kernel: Kernel, spec: dict[str, Any]) -> None:
    module = kernel.compile(**spec, stage="frontend")
    TokenOrder().apply(context(), module)
    once = print_tile_ir(module)
    TokenOrder().apply(context(), module)
    assert print_tile_ir(module) == once


def test_reload_carries_tokens_through_loops_and_branches() -> None:
    module = reload.compile(S=(64,), stage="frontend")
    pipelined(module)
    text = print_tile_ir(module)
    assert text.count("-> (token) {") == 2  # the for loop and the if
    assert ": tile<i32>, token -> tile<i32>, token {" in text  # the while loop
    assert "join_tokens" not in text  # one chain, nothing to fork or join


@pytest.mark.parametrize("n", [0, 1, 4, 5])
def test_reload_matches_numpy(n: int) -> None:
    xs = run_all.fresh(np.random.default_rng(), (200,))
    out = st.full((200,), np.nan, f32).sync().partition((64,))
    z, _, _ = reload(out, st.from_numpy(xs).sync(), n).sync()
    np.testing.assert_allclose(z.unpartition().numpy(), reload_reference(xs, n), rtol=1e-6)


INTERPRETED = """
cuda_tile.module @t {
  entry @k(%z: tile<ptr<f32>>, %n: tile<i32>, %flag: tile<i1>) {
    %t0 = make_token : token
    %b:3 = get_tile_block_id : tile<i32>
    %tz = make_tensor_view %z, shape = [16], strides = [1] : tensor_view<16xf32, strides=[1]>
    %pz = make_partition_view %tz : partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>
    %one = constant <f32: 1.0> : tile<4xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %s0 = store_view_tko weak %one, %pz[%b#0] token = %t0 : tile<4xf32>, partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>, tile<i32> -> token
    %r = for %k in (%c0 to %n, step %c1) : tile<i32> iter_values(%tk = %s0) -> (token) {
      %l:2 = load_view_tko weak %pz[%b#0] token = %tk : partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>, tile<i32> -> tile<4xf32>, token
      %v = addf %l#0, %one : tile<4xf32>
      %s = store_view_tko weak %v, %pz[%b#0] token = %l#1 : tile<4xf32>, partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>, tile<i32> -> token
      %j = join_tokens %tk, %s : token
      continue %j : token
    }
    %f = if %flag -> (token) {
      %l:2 = load_view_tko weak %pz[%b#0] token = %r : partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>, tile<i32> -> tile<4xf32>, token
      %v = mulf %l#0, %l#0 : tile<4xf32>
      %s = store_view_tko weak %v, %pz[%b#0] token = %l#1 : tile<4xf32>, partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>, tile<i32> -> token
      yield %s : token
    } else {
      yield %r : token
    }
    %w = loop iter_values(%tk = %f) : token -> token {
      %l:2 = load_view_tko weak %pz[%b#0] token = %tk : partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>, tile<i32> -> tile<4xf32>, token
      %v = subf %l#0, %one : tile<4xf32>
      %s = store_view_tko weak %v, %pz[%b#0] token = %l#1 : tile<4xf32>, partition_view<tile=(4), tensor_view<16xf32, strides=[1]>>, tile<i32> -> token
      break %s : token
    }
    return
  }
}
"""


@pytest.mark.parametrize(("n", "flag", "expected"), [(0, False, 0.0), (3, False, 3.0), (3, True, 15.0)])
def test_interpreter_runs_token_ir(n: int, flag: bool, expected: float) -> None:
    # 1 + n, squared if flag, minus 1: each access reads what the previous one wrote.
    z = poisoned(16, np.float32)
    run_kernel(parse(INTERPRETED), (4,), [z, n, flag], shuffle=True)
    np.testing.assert_array_equal(z, np.full(16, expected, np.float32))


@pytest.fixture(scope="module")
def toolchain() -> Any:
    from safetile.backend.toolchain import ToolchainError, default_toolchain

    if skip_without_toolchain():
        pytest.skip("SAFETILE_SKIP_TOOLCHAIN_TESTS=1")
    try:
        return default_toolchain()
    except ToolchainError as err:
        pytest.skip(f"no Tile IR toolchain: {err}")


LIT_CASES = LIT.read_text().split("// -----")


@pytest.mark.parametrize("chunk", range(len(LIT_CASES)))
def test_tileiras_accepts_token_ordered_lit_case(chunk: int, toolchain: Any, cubin_cache: Path) -> None:
    module = parse_tile_ir(context(), LIT_CASES[chunk], str(LIT))
    ctx = context()
    for step in [TokenOrder(), LowerTileSafety(), *clean_up_passes()]:
        step.apply(ctx, module)
    module.verify()
    entry = compile_cubin(write_bytecode(module, "13.4"), "sm_90", cache_dir=cubin_cache, toolchain=toolchain)
    assert entry.cubin.startswith(b"\x7fELF")


@pytest.mark.parametrize(("kernel", "spec"), OWN_KERNELS)
def test_tileiras_accepts_pipelined_kernel(kernel: Kernel, spec: dict[str, Any], toolchain: Any,
                                          cubin_cache: Path) -> None:
    module = kernel.compile(**spec, stage="frontend")
    pipelined(module)
    entry = compile_cubin(write_bytecode(module, "13.4"), "sm_90", cache_dir=cubin_cache, toolchain=toolchain)
    assert entry.cubin.startswith(b"\x7fELF")
