"""``grid-dependency`` in the JIT pipeline: which compiled kernels may start early.

A kernel launched as a programmatic dependent starts while the one before it
runs; the compiler says it may (``CompiledVariant.dependent_launch``) only if
every memory access of the IR that runs is ordered after the entry's wait
(``passes/grid_dependency.waits_first``).  These tests check that the default
pipeline establishes it, that the option turns it off, and that a user pass
breaking it after the safety steps turns the early start off instead of
making it unsafe.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

import safetile as st
from safetile import f32
from xdsl.dialects.builtin import Builtin

from safetile.dialects.cuda_tile import CudaTile
from safetile.dialects.cuda_tile.ops.memory import LoadViewTkoOp, MakeTokenOp
from safetile.dialects.cuda_tile.ops.misc import GdcLaunchDependentsTkoOp, GdcWaitTkoOp
from safetile.dialects.cuda_tile.ops.structure import EntryOp
from safetile.dialects.cuda_tile.syntax import parse_tile_ir
from safetile.dialects.cuda_tile.types import TokenType
from safetile.passes.grid_dependency import waits_first


@st.kernel
def scale(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)], factor: f32):
    """``z = factor * x``, a tile a block."""
    b, _, _ = st.tile_block_id()
    z.store(x.partition((16,)).load((b,)) * factor)


SPEC = {"z": st.TensorSpec(dtype=f32, shape=(64,), partition=(16,)), "x": st.TensorSpec(dtype=f32, shape=(64,))}


@dataclass(frozen=True)
class UnorderLoads(ModulePass):
    """Drops the input token of every load (a test pass breaking the invariant)."""

    name = "unorder-loads"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from xdsl.rewriter import Rewriter

        for load in [o for o in op.walk() if isinstance(o, LoadViewTkoOp)]:
            Rewriter.replace_op(load, load.with_token(None))


@dataclass(frozen=True)
class RestartChains(ModulePass):
    """Puts a ``make_token`` in front of the entry and roots the wait's users at it."""

    name = "restart-chains"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        wait = next(o for o in op.walk() if isinstance(o, GdcWaitTkoOp))
        fresh = MakeTokenOp.build(result_types=[TokenType()])
        wait.parent_block().insert_op_before(fresh, wait)  # type: ignore[union-attr]
        wait.result_token.replace_all_uses_with(fresh.result)


def test_the_default_pipeline_waits_first_and_signals_after() -> None:
    compiled = scale.compile_variant(**SPEC)
    entry = compiled.entry
    ops = list(entry.body.block.ops)
    assert isinstance(ops[0], GdcWaitTkoOp) and ops[0].token is None
    assert isinstance(ops[1], GdcLaunchDependentsTkoOp) and ops[1].token == ops[0].result_token
    loads = [o for o in entry.walk() if isinstance(o, LoadViewTkoOp)]
    assert loads and all(load.token == ops[0].result_token for load in loads)
    assert not any(isinstance(o, MakeTokenOp) for o in entry.walk())
    assert compiled.dependent_launch and waits_first(entry)


def test_the_option_leaves_the_kernel_as_it_was() -> None:
    compiled = scale.with_options(dependent_launch=False).compile_variant(**SPEC)
    assert not any(isinstance(o, GdcWaitTkoOp | GdcLaunchDependentsTkoOp) for o in compiled.entry.walk())
    assert not compiled.dependent_launch


def test_a_user_pass_that_unorders_a_load_turns_the_early_start_off() -> None:
    compiled = scale.with_options(passes=(UnorderLoads(),)).compile_variant(**SPEC)
    assert any(isinstance(o, GdcWaitTkoOp) for o in compiled.entry.walk())
    assert not compiled.dependent_launch


def test_a_user_pass_that_starts_a_chain_from_nothing_turns_it_off() -> None:
    compiled = scale.with_options(passes=(RestartChains(),)).compile_variant(**SPEC)
    assert not compiled.dependent_launch


def _entry(body: str) -> EntryOp:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(CudaTile)
    module = parse_tile_ir(ctx, "cuda_tile.module @m {\n  entry @k(%p: tile<ptr<f32>>, %n: tile<i32>) {\n"
                           + body + "\n    return\n  }\n}", "k.mlir")
    return next(o for o in module.walk() if isinstance(o, EntryOp))


LOOP = """
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    for %k in (%c0 to %n, step %c1) : tile<i32> {
      {wait_inside}
      %l:2 = load_ptr_tko weak %p token=%w : tile<ptr<f32>> -> tile<f32>, token
    }"""


def test_only_a_wait_in_the_entrys_body_counts() -> None:
    """The one token source must run once, before every access: one inside a loop does not."""
    wait = "%w = gdc_wait_tko -> token"
    assert waits_first(_entry("    " + wait + LOOP.replace("{wait_inside}", "")))
    assert not waits_first(_entry(LOOP.replace("{wait_inside}", wait)))


def test_two_waits_from_nothing_are_two_token_sources() -> None:
    two = "    %w = gdc_wait_tko -> token\n    %v = gdc_wait_tko -> token\n" \
          "    %l:2 = load_ptr_tko weak %p token=%v : tile<ptr<f32>> -> tile<f32>, token"
    assert not waits_first(_entry(two))
    assert waits_first(_entry(two.replace("%v = gdc_wait_tko ->", "%v = gdc_wait_tko token = %w ->")))


def test_the_interpreter_runs_the_waiting_kernel_unchanged() -> None:
    x = np.arange(64, dtype=np.float32)
    z, _, _ = scale(st.zeros((64,)).sync().partition((16,)), st.from_numpy(x).sync(), 3.0).sync()
    out = z.unpartition().numpy()
    np.testing.assert_array_equal(out, 3.0 * x)
