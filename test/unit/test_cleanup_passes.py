"""xDSL's clean-up passes (cse, dce, canonicalize, licm) on ``cuda_tile`` IR.

They are only correct if every op declares its side effects like NVIDIA's
``Ops.td`` does: ``Pure`` ops may be merged, removed and hoisted; ops with
``NoMemoryEffect`` only (``divi`` may trap) may be removed but not hoisted;
ops NVIDIA gives no effect trait (stores, atomics, ``assert``, ``print_tko``,
``assume``, loads with their memory orderings, ...) have unknown effects and
must survive every clean-up.  The table below is that spec; the tests check
every op the dialect defines against it, so they grow as op families land.

IR keeps values alive with an unregistered ``"test.use"`` op (unknown
effects), so the tests do not depend on any particular op family.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Float32Type, ModuleOp, UnregisteredOp
from xdsl.traits import (
    AlwaysSpeculatable,
    IsTerminator,
    NoMemoryEffect,
    Pure,
    RecursiveMemoryEffect,
)

from safetile.dialects.cuda_tile.ops import ALL_OPS
from safetile.dialects.cuda_tile.ops._common import CudaTileOp
from safetile.dialects.cuda_tile.syntax import parse_tile_ir, print_tile_ir
from safetile.dialects.cuda_tile.types import TileType
from safetile.passes.registry import all_passes
from support import make_context

# Effect class of every op, by mnemonic, from the traits in NVIDIA's Ops.td
# (13.3).  13.4-only ops follow their nearest 13.3 relative: fpowf/fpowi like
# pow, insert like extract; the fence and GDC ops order memory.  The 13.5-only
# multimem ops (docs/bytecode.md) read and write memory as the view ops do.
PURE = "pure"
NO_MEMORY_EFFECT = "no-memory-effect"
RECURSIVE = "recursive"
TERMINATOR = "terminator"
EFFECTS = "effects"

SPEC_EFFECTS: dict[str, str] = {
    **dict.fromkeys(
        """absf absi addi addf andi atan2 bitcast broadcast cat cos cosh ceil cmpf cmpi
        constant divf mmaf mmaf_scaled mmai extract exp exp2 exti floor fma ftof ftoi
        get_tile_block_id get_num_tile_blocks get_global int_to_ptr iota join_tokens
        trunci itof log log2 maxf maxi minf mini mulf muli mulhii negi negf make_token
        offset pack permute pow ptr_to_int ptr_to_ptr remi reshape select shli shri
        sin sinh subf subi tan tanh unpack make_partition_view make_strided_view
        make_gather_scatter_view xori ori remf rsqrt sqrt fpowf fpowi insert""".split(),
        PURE,
    ),
    **dict.fromkeys(
        "get_index_space_shape get_tensor_shape divi make_tensor_view".split(),
        NO_MEMORY_EFFECT,
    ),
    **dict.fromkeys("for if loop reduce scan".split(), RECURSIVE),
    **dict.fromkeys("break continue return yield".split(), TERMINATOR),
    **dict.fromkeys(
        """assert alloca assume atomic_cas_tko atomic_rmw_tko atomic_red_view_tko entry
        global load_view_tko load_ptr_tko module print_tko store_ptr_tko store_view_tko
        memory_fence_alias_tko gdc_launch_dependents_tko gdc_wait_tko multimem_load_reduce_view_tko
        multimem_reduce_view_tko multimem_store_view_tko""".split(),
        EFFECTS,
    ),
}


def mnemonic(op: type[CudaTileOp]) -> str:
    return op.name.removeprefix("cuda_tile.")


DEFINED: dict[str, type[CudaTileOp]] = {mnemonic(op): op for op in ALL_OPS}


def _ids(ops: Sequence[type[CudaTileOp]]) -> list[str]:
    return [mnemonic(op) for op in ops]


# --------------------------------------------------------------------------
# Declared traits against the spec
# --------------------------------------------------------------------------


def test_every_defined_op_is_in_the_spec() -> None:
    # 'pow' is the 13.3 spelling of fpowf; both may be defined.
    unknown = sorted(set(DEFINED) - set(SPEC_EFFECTS))
    assert not unknown, f"ops not in Tile IR 13.5: {unknown}"


def test_every_spec_op_is_defined() -> None:
    missing = sorted(set(SPEC_EFFECTS) - set(DEFINED) - {"pow"})
    assert not missing, f"Tile IR 13.5 ops not defined yet: {missing}"


DEFINED_OPS = list(DEFINED.values())


@pytest.mark.parametrize("op", DEFINED_OPS, ids=_ids(DEFINED_OPS))
def test_declared_effects_match_spec(op: type[CudaTileOp]) -> None:
    kind = SPEC_EFFECTS.get(mnemonic(op))
    assert kind is not None, f"{op.name} is not a Tile IR 13.5 op"
    if kind == PURE:
        assert op.has_trait(Pure)
    elif kind == NO_MEMORY_EFFECT:
        assert op.has_trait(NoMemoryEffect)
        assert not op.has_trait(AlwaysSpeculatable), "NVIDIA does not mark it speculatable"
    elif kind == RECURSIVE:
        assert op.has_trait(RecursiveMemoryEffect)
        assert not op.has_trait(NoMemoryEffect)
    elif kind == TERMINATOR:
        assert op.has_trait(IsTerminator)
    else:
        assert not op.has_trait(NoMemoryEffect), "unknown effects in NVIDIA's Ops.td"
        assert not op.has_trait(AlwaysSpeculatable)


# --------------------------------------------------------------------------
# dce on bare instances of every defined op
# --------------------------------------------------------------------------


def _dce_survivors(op: type[CudaTileOp]) -> list[str]:
    """Names of the ops left after dce on one unused, bare ``op`` in a module.

    The instance is built with ``create`` (no verification): dce only looks at
    uses and declared effects.  Each result gets some tile type.
    """
    n_results = len(op.get_irdl_definition().results)
    instance = op.create(result_types=[TileType((4,), Float32Type())] * n_results)
    module = ModuleOp([instance])
    run_pass("dce", module)
    return [o.name for o in module.ops]


# Region ops are left out: a bare instance has no body to take effects from.
# So is alloca: NVIDIA declares no effects, but an unused allocation may go
# (an alloc effect on its own result, as MLIR models allocations).
DCE_OPS = [
    op
    for op in DEFINED_OPS
    if SPEC_EFFECTS.get(mnemonic(op)) != RECURSIVE and mnemonic(op) != "alloca"
]


@pytest.mark.parametrize("op", DCE_OPS, ids=_ids(DCE_OPS))
def test_dce_on_an_unused_op(op: type[CudaTileOp]) -> None:
    removable = SPEC_EFFECTS.get(mnemonic(op)) in (PURE, NO_MEMORY_EFFECT)
    assert _dce_survivors(op) == ([] if removable else [op.name])


# --------------------------------------------------------------------------
# The passes on cuda_tile text
# --------------------------------------------------------------------------


def run_pass(name: str, module: ModuleOp) -> None:
    """Apply the registered pass ``name`` (as tile-opt's ``-p name`` would)."""
    all_passes()[name]()().apply(make_context(), module)


def cleaned(text: str, *passes: str) -> ModuleOp:
    """Parse ``text`` (unregistered ops allowed) and run ``passes`` on it."""
    ctx: Context = make_context()
    ctx.allow_unregistered = True
    module = parse_tile_ir(ctx, text)
    for name in passes:
        all_passes()[name]()().apply(ctx, module)
    module.verify()
    return module


def cleanup(text: str, *passes: str) -> str:
    """``cleaned`` printed canonically."""
    return print_tile_ir(cleaned(text, *passes))


def kernel(*body: str, args: str = "%a: tile<f32>, %b: tile<f32>") -> str:
    """A module with one entry whose body is ``body`` followed by ``return``."""
    lines = "".join(f"    {line}\n" for line in body)
    return f"cuda_tile.module @m {{\n  entry @k({args}) {{\n{lines}    return\n  }}\n}}\n"


USE2 = '"test.use"(%x, %y) : (tile<f32>, tile<f32>) -> ()'


def test_cse_merges_identical_pure_ops() -> None:
    text = kernel(
        "%x = addf %a, %b : tile<f32>",
        "%y = addf %a, %b : tile<f32>",
        USE2,
    )
    assert cleanup(text, "cse") == kernel(
        "%x = addf %a, %b : tile<f32>",
        '"test.use"(%x, %x) : (tile<f32>, tile<f32>) -> ()',
    )


@pytest.mark.parametrize(
    "other",
    [
        "addf %a, %b rounding<zero> : tile<f32>",
        "addf %a, %b flush_to_zero : tile<f32>",
        "addf %b, %a : tile<f32>",
        "addf %a, %a : tile<f32>",
    ],
)
def test_cse_keeps_ops_that_differ(other: str) -> None:
    text = kernel("%x = addf %a, %b : tile<f32>", f"%y = {other}", USE2)
    assert cleanup(text, "cse") == text


def test_dce_removes_dead_chains_only() -> None:
    text = kernel(
        "%x = addf %a, %b : tile<f32>",
        "%y = addf %x, %b : tile<f32>",
        "%dead = addf %x, %y : tile<f32>",
        "%dead2 = addf %dead, %dead : tile<f32>",
        USE2,
    )
    expected = kernel("%x = addf %a, %b : tile<f32>", "%y = addf %x, %b : tile<f32>", USE2)
    assert cleanup(text, "dce") == expected
    assert cleanup(text, "canonicalize") == expected


EFFECTFUL_BODY = (
    '%t = print_tko "x = %f", %a : tile<f32> -> token',
    'assert %c, "c must hold" : tile<i1>',
    "%s = store_ptr_tko weak %p, %a : tile<ptr<f32>>, tile<f32> -> token",
)
EFFECTFUL_ARGS = "%a: tile<f32>, %b: tile<f32>, %c: tile<i1>, %p: tile<ptr<f32>>"


@pytest.mark.parametrize("name", ["dce", "canonicalize", "cse"])
def test_cleanups_keep_prints_asserts_and_stores(name: str) -> None:
    text = kernel(
        "%dead = addf %a, %b : tile<f32>",
        "%tok = make_token : token",
        *EFFECTFUL_BODY,
        args=EFFECTFUL_ARGS,
    )
    assert cleanup(text, name) == kernel(*EFFECTFUL_BODY, args=EFFECTFUL_ARGS)


def test_cleanups_keep_kernels_and_modules() -> None:
    """An entry has no results and only pure ops, yet it is the program."""
    text = kernel("%x = addf %a, %b : tile<f32>")
    empty = kernel()
    for name in ("dce", "canonicalize", "cse"):
        assert cleanup(text, name) == empty, name
    assert cleanup(kernel(), "dce", "canonicalize", "cse", "licm") == empty


LOOP_ARGS = "%a: tile<f32>, %b: tile<f32>, %lb: tile<i32>, %ub: tile<i32>, %st: tile<i32>"
LOOP = kernel(
    "%r = for %i in (%lb to %ub, step %st) : tile<i32> iter_values(%acc = %a) -> (tile<f32>) {",
    "  %inv = addf %a, %b : tile<f32>",
    "  %q = divi %lb, %st signed : tile<i32>",
    "  %n = addf %acc, %inv : tile<f32>",
    '  "test.use"(%q) : (tile<i32>) -> ()',
    "  continue %n : tile<f32>",
    "}",
    '"test.use"(%r) : (tile<f32>) -> ()',
    args=LOOP_ARGS,
)


def _parents(module: ModuleOp) -> dict[str, str]:
    """For each op named by its first operand pair, the name of its parent op."""
    found: dict[str, str] = {}
    for op in module.walk():
        name = op.op_name.data if isinstance(op, UnregisteredOp) else op.name
        if name in ("cuda_tile.addf", "cuda_tile.divi", "test.use"):
            parent = op.parent_op()
            assert parent is not None
            key = name + "(" + ", ".join(
                str(getattr(o, "name_hint", None) or "?") for o in op.operands
            ) + ")"
            found[key] = parent.name
    return found


def test_licm_hoists_invariant_pure_ops_out_of_for() -> None:
    """xDSL's licm only knows scf.for; cuda_tile.for must get the same treatment."""
    parents = _parents(cleaned(LOOP, "licm"))
    assert parents["cuda_tile.addf(a, b)"] == "cuda_tile.entry"


def test_licm_keeps_unspeculatable_and_effectful_ops_in_loops() -> None:
    parents = _parents(cleaned(LOOP, "licm"))
    assert parents["cuda_tile.addf(acc, inv)"] == "cuda_tile.for"
    assert parents["cuda_tile.divi(lb, st)"] == "cuda_tile.for"  # may divide by zero
    assert parents["test.use(q)"] == "cuda_tile.for"


def test_licm_without_loops_changes_nothing() -> None:
    text = kernel("%x = addf %a, %b : tile<f32>", "%y = addf %x, %x : tile<f32>", USE2)
    assert cleanup(text, "licm") == text
