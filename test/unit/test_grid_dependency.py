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
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

import safetile as st
from safetile import f32
from xdsl.dialects.builtin import Builtin

from safetile.dialects.cuda_tile import CudaTile
from safetile.dialects.cuda_tile.ops.memory.tokens import MakeTokenOp
from safetile.dialects.cuda_tile.ops.memory.view_access import LoadViewTkoOp
from safetile.dialects.cuda_tile.ops.misc import GdcLaunchDependentsTkoOp, GdcWaitTkoOp
from safetile.dialects.cuda_tile.ops.structure import EntryOp
from safetile.dialects.cuda_tile.syntax import parse_tile_ir
from safetile.dialects.cuda_tile.types import TokenType
from safetile.passes.grid_dependency import early_arguments, waits_first


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


EARLY = """
    %tp = make_tensor_view %p, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pp = make_partition_view %tp : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %e:2 = load_view_tko weak %pp[%c0] : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %w = gdc_wait_tko token = %e#1 -> token
    {after}"""
STORE = ("%s = store_view_tko weak %e#0, %pp[%c0] token = {token} : tile<16xf32>, "
         "partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token")


def test_early_loads_chained_into_the_wait_keep_the_invariant() -> None:
    """A load before the wait is allowed only as a link of the chain ending at the wait's token."""
    entry = _entry(EARLY.replace("{after}", STORE.format(token="%w")))
    assert waits_first(entry) and early_arguments(entry) == (0,)
    # The early load's token also ordering the store: the store is no longer after the wait.
    assert not waits_first(_entry(EARLY.replace("{after}", STORE.format(token="%e#1"))))
    # A store (not a load) chained into the wait.
    stored_first = EARLY.replace("%w = gdc_wait_tko token = %e#1", STORE.format(token="%e#1") + "\n    %w = gdc_wait_tko token = %s")
    assert not waits_first(_entry(stored_first.replace("{after}", "")))


@st.kernel(early_reads=("w",))
def early_gemv(z: st.Mut[f32, (16,)], x: st.Ref[f32, (64,)], w: st.Ref[f32, (-1, 64)]):
    """``z = w @ x``, the first column tile of ``w`` read before the wait."""
    b, _, _ = st.tile_block_id()
    pw, px = w.partition((16, 16), padding="zero"), x.partition((16,))
    acc = pw.load((b, 0)) * px.load((0,)).reshape((1, 16))
    for k in range(1, 4):
        acc = acc + pw.load((b, k)) * px.load((k,)).reshape((1, 16))
    z.store(st.sum(acc, 1))


GEMV_SPEC = {"z": st.TensorSpec(dtype=f32, shape=(32,), partition=(16,)), "x": st.TensorSpec(dtype=f32, shape=(64,)),
             "w": st.TensorSpec(dtype=f32, shape=(32, 64))}


def test_a_named_tensors_top_level_load_is_read_before_the_wait() -> None:
    compiled = early_gemv.compile_variant(**GEMV_SPEC)
    assert compiled.dependent_launch and compiled.early_reads == ("w",)
    ops = list(compiled.entry.body.block.ops)
    wait = next(o for o in ops if isinstance(o, GdcWaitTkoOp))
    before = [o for o in ops[: ops.index(wait)] if isinstance(o, LoadViewTkoOp)]
    assert len(before) == 1 and wait.token == before[0].result_token
    assert early_gemv.with_options(early_reads=()).compile_variant(**GEMV_SPEC).early_reads == ()
    assert early_gemv.with_options(dependent_launch=False).compile_variant(**GEMV_SPEC).early_reads == ()
    x, w = np.arange(64, dtype=np.float32), np.ones((32, 64), np.float32)
    z, *_ = early_gemv(st.zeros((32,)).sync().partition((16,)), st.from_numpy(x).sync(),
                       st.from_numpy(w).sync()).sync()
    np.testing.assert_array_equal(z.unpartition().numpy(), w @ x)


def test_early_reads_of_a_written_or_unknown_parameter_are_refused() -> None:
    for names, message in ((("z",), "'z' is st.Mut"), (("nope",), "it has no such parameter")):
        with pytest.raises(st.CompileError, match=message) as refused:
            early_gemv.with_options(early_reads=names).compile_variant(**GEMV_SPEC)
        assert "st.Ref tensor parameters" in str(refused.value)
