"""User passes cannot void the proofs: each attack a pass author could make, refused at compile time.

Every pass below breaks one safety property of the IR that runs.  Each must be
refused by the compile (a ``CompileError`` naming the pass, the property and
the kernel line), never caught later by the interpreter's run-time checks
(nothing here launches an attacked kernel), or run only when the user trusts
the pass by name, and then listed by ``kernel.unsafe_report()``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass

import safetile as st
from safetile import f32, i32
from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.ops.arith import AddIOp
from safetile.dialects.cuda_tile.ops.control import ForOp
from safetile.dialects.cuda_tile.ops.memory.view_access import LoadViewTkoOp, StoreViewTkoOp
from safetile.dialects.cuda_tile.ops.memory.views import MakeTensorViewOp
from safetile.dialects.cuda_tile.ops.misc import AssertOp
from safetile.dialects.cuda_tile.ops.shape import ConstantOp
from safetile.dialects.cuda_tile.ops.structure import EntryOp
from safetile.dialects.cuda_tile.types import TileType
from safetile.passes.analyses.index_math import strip_assumes
from safetile.passes.analyses.partitions import tensor_of


def edits(name: str, edit: Callable[[ModuleOp], None]) -> ModulePass:
    """A pass named ``name`` that applies ``edit`` to the module."""

    @dataclass(frozen=True)
    class Edit(ModulePass):
        def apply(self, ctx: Context, op: ModuleOp) -> None:
            edit(op)

    Edit.name = name
    return Edit()


def ops(module: ModuleOp, kind: type[Operation]) -> list[Operation]:
    return [o for o in module.walk() if isinstance(o, kind)]


def tensor_name(view: object) -> str:
    """The parameter a partition view cuts (the IR that runs keeps no tile_safety facts)."""
    return strip_assumes(tensor_of(view).base).name_hint  # type: ignore[union-attr]


def constant_before(op: Operation, like: TileType, value: int) -> ConstantOp:
    const = ConstantOp.splat(like, value)
    op.parent_block().insert_op_before(const, op)  # type: ignore[union-attr]
    return const


# -- the attacks, as pass bodies ---------------------------------------------------------------------


def store_at_tile_zero(module: ModuleOp) -> None:
    for store in ops(module, StoreViewTkoOp):
        zero = constant_before(store, store.index[0].type, 0)
        store.operands = (store.tile, store.view, *[zero.result] * len(store.index), store.token)


def store_into_the_input(module: ModuleOp) -> None:
    store = ops(module, StoreViewTkoOp)[0]
    load = next(o for o in ops(module, LoadViewTkoOp) if tensor_name(o.view) == "x")
    copy = StoreViewTkoOp.build(operands=[store.tile, load.view, list(load.index), store.result_token],
                                result_types=[store.result_token.type], properties=dict(store.properties))
    copy.location = store.location
    store.parent_block().insert_op_after(copy, store)


def widen_the_input_view(module: ModuleOp) -> None:
    view = next(o for o in ops(module, MakeTensorViewOp) if strip_assumes(o.base).name_hint == "x")
    size = view.dynamic_shape[0]
    twice = AddIOp.build(operands=[size, size], result_types=[size.type])
    view.parent_block().insert_op_before(twice, view)
    view.operands = (view.base, twice.result, *view.dynamic_shape[1:], *view.dynamic_strides)


def load_above_the_store(module: ModuleOp) -> None:
    first = ops(module, StoreViewTkoOp)[0]
    load = next(o for o in ops(module, LoadViewTkoOp) if tensor_name(o.view) == "z")
    load.detach()
    first.parent_block().insert_op_before(load, first)
    load.operands = (*load.operands[:-1], first.token)  # the token the store started from


def load_above_the_store_keeping_its_token(module: ModuleOp) -> None:
    first = ops(module, StoreViewTkoOp)[0]
    load = next(o for o in ops(module, LoadViewTkoOp) if tensor_name(o.view) == "z")
    load.detach()
    first.parent_block().insert_op_before(load, first)  # uses the store's token before it exists


def reroot_the_last_store(module: ModuleOp) -> None:
    """The last store of ``z`` takes the chain's first token: no longer after the load before it."""
    first, last = ops(module, StoreViewTkoOp)[0], ops(module, StoreViewTkoOp)[-1]
    last.operands = (*last.operands[:-1], first.token)


def erase_the_asserts(module: ModuleOp) -> None:
    for assertion in ops(module, AssertOp):
        assertion.detach()
        assertion.erase()


def one_more_iteration(module: ModuleOp) -> None:
    loop = ops(module, ForOp)[0]
    one = constant_before(loop, loop.upper_bound.type, 1)
    longer = AddIOp.build(operands=[loop.upper_bound, one.result], result_types=[loop.upper_bound.type])
    loop.parent_block().insert_op_before(longer, loop)
    loop.operands = (loop.lower_bound, longer.result, *loop.operands[2:])


def mark_stores_unsafe(module: ModuleOp) -> None:
    for store in ops(module, StoreViewTkoOp):
        store.attributes[tile_safety.UNSAFE] = UnitAttr()


def drop_access_facts(module: ModuleOp) -> None:
    for view in ops(module, MakeTensorViewOp):
        view.attributes.pop(tile_safety.ACCESS, None)


def set_unchecked_accesses(module: ModuleOp) -> None:
    for entry in ops(module, EntryOp):
        entry.attributes[tile_safety.UNCHECKED_ACCESSES] = UnitAttr()


# -- the kernels (one source each: the JIT tests load it, the tile-opt tests pass it as a file) ----------

KERNEL_SOURCES = {
    "add": '''
import safetile as st
from safetile import f32


@st.kernel(specialize=[{}])
def add(z: st.Mut[f32, (128,)], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)]):
    z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))
''',
    "bump": '''
import safetile as st
from safetile import f32


@st.kernel(specialize=[{}])
def bump(z: st.Mut[f32, (128,)], x: st.Ref[f32, (-1,)]):
    z.store(st.load_tile_like(x, z))
    z.store(z.load() + 1.0)
''',
    "pick": '''
import safetile as st
from safetile import f32, i32


@st.kernel(specialize=[{}])
def pick(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)], i: i32):
    z.store(x.partition((16,)).load((i,)))
''',
    "row_sum": '''
import safetile as st
from safetile import f32


@st.kernel(specialize=[{}])
def row_sum(z: st.Mut[f32, (1, 16)], x: st.Ref[f32, (-1, -1)]):
    bm, _, _ = st.tile_block_id()
    px = x.partition((1, 16))
    acc = st.zeros((1, 16), f32)
    for k in range(st.num_tiles(px, 1)):
        acc = acc + px.load((bm, k))
    z.store(acc)
''',
}


KERNEL_DIR = Path(tempfile.mkdtemp(prefix="user_pass_safety_"))


def kernel_path(name: str) -> Path:
    path = KERNEL_DIR / f"{name}.py"
    if not path.exists():
        path.write_text(KERNEL_SOURCES[name])
    return path


def load_kernel(name: str) -> st.Kernel:
    spec = importlib.util.spec_from_file_location(f"user_pass_safety_{name}", kernel_path(name))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def kernel_with(name: str) -> Callable[[list[object]], st.Kernel]:
    """The kernel ``name`` with a pass list (a kernel of its own, compiled apart)."""
    kernel = load_kernel(name)

    def with_passes(passes: list[object]) -> st.Kernel:
        return kernel.with_options(passes=tuple(passes))

    with_passes.__name__ = name
    return with_passes


add, bump, pick, row_sum = (kernel_with(n) for n in ("add", "bump", "pick", "row_sum"))


ATTACKS_AFTER_SAFETY = [
    (add, store_at_tile_zero, "one writer per tile", "z.store"),
    (add, store_into_the_input, "nothing written through a read-only view", "z.store"),
    (add, widen_the_input_view, "views as the launch ABI describes them", "def add"),
    (bump, load_above_the_store, "accesses to each mutable tensor ordered by its tokens", "z.store"),
    (bump, load_above_the_store_keeping_its_token, "does not verify", "def bump"),
    (bump, reroot_the_last_store, "accesses to each mutable tensor ordered by its tokens", "z.store(z.load() + 1.0)"),
    (pick, erase_the_asserts, "every index in range", "load((i,))"),
    (row_sum, one_more_iteration, "every index in range", "px.load((bm, k))"),
]


@pytest.mark.parametrize("point", ["after-safety", "after-clean-up"])
@pytest.mark.parametrize(("kernel", "attack", "property", "line"), ATTACKS_AFTER_SAFETY,
                         ids=[a[1].__name__ for a in ATTACKS_AFTER_SAFETY])
def test_a_pass_after_the_safety_passes_cannot_break_a_proof(
    kernel: Callable[[list[object]], st.Kernel], attack: Callable[[ModuleOp], None], property: str, line: str,
    point: str,
) -> None:
    evil = edits(attack.__name__.replace("_", "-"), attack)
    with pytest.raises(st.CompileError) as info:
        kernel([(point, evil)]).compile_variant()
    message = str(info.value)
    assert f"user pass '{evil.name}' (at {point})" in message
    assert property in message
    assert line in message, message  # the kernel line of the op (or the kernel, for the IR as a whole)
    assert info.value.file.endswith(f"{kernel.__name__}.py")


def test_the_same_kernels_compile_without_the_attacks() -> None:
    for kernel, attack, _, _ in ATTACKS_AFTER_SAFETY:
        compiled = kernel([]).compile_variant()
        assert compiled.unsafe_report == (), attack.__name__


ATTACKS_BEFORE_SAFETY = [
    (mark_stores_unsafe, "added 'tile_safety.unsafe'"),
    (drop_access_facts, "removed 'tile_safety.access'"),
    (set_unchecked_accesses, "added 'tile_safety.unchecked_accesses'"),
]


@pytest.mark.parametrize(("attack", "what"), ATTACKS_BEFORE_SAFETY, ids=[a[0].__name__ for a in ATTACKS_BEFORE_SAFETY])
def test_a_pass_before_the_safety_passes_cannot_edit_their_facts(attack: Callable[[ModuleOp], None], what: str) -> None:
    evil = edits(attack.__name__.replace("_", "-"), attack)
    with pytest.raises(st.CompileError) as info:
        add([("before-safety", evil)]).compile_variant()
    message = str(info.value)
    assert f"user pass '{evil.name}' (at before-safety) edited the frontend's tile_safety facts" in message
    assert what in message and "st.trusted(pass)" in message


def test_a_trusted_pass_runs_and_the_kernel_is_an_unsafe_island() -> None:
    evil = edits("store-at-tile-zero", store_at_tile_zero)
    compiled = add([st.trusted(evil)]).compile_variant()
    report = compiled.unsafe_report
    assert report and all("trusted pass 'store-at-tile-zero' (at after-safety): not proved" in line for line in report)
    assert "one writer per tile" in report[0] and "add.py" in report[0]
    kernel = add([("before-safety", st.trusted(edits("mark-stores-unsafe", mark_stores_unsafe)))])
    lines = kernel.unsafe_report()
    assert any("trusted pass 'mark-stores-unsafe' (at before-safety)" in line for line in lines), lines


def test_a_trusted_pass_that_keeps_the_proofs_leaves_no_island() -> None:
    harmless = edits("does-nothing", lambda module: None)
    assert add([st.trusted(harmless)]).compile_variant().unsafe_report == ()


def test_an_untrusted_pass_after_a_trusted_one_is_still_checked() -> None:
    trusted = st.trusted(edits("store-at-tile-zero", store_at_tile_zero))
    also = edits("store-into-the-input", store_into_the_input)
    with pytest.raises(st.CompileError, match=r"user pass 'store-into-the-input' \(at after-safety\)"):
        add([trusted, also]).compile_variant()


def test_the_unsafe_report_reads_the_ir_that_runs() -> None:
    @st.kernel
    def pick_bounded(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)], i: i32):
        with st.unsafe():
            j = st.assume_bounds(i, 0, 3)
        z.store(x.partition((16,)).load((j,)))

    report = pick_bounded.unsafe_report()
    assert len(report) == 1 and report[0].endswith("unsafe cuda_tile.assume"), report
    line = report[0].split(":")[1]
    assert "assume_bounds(i, 0, 3)" in open(__file__).read().splitlines()[int(line) - 1]


def test_a_pass_that_breaks_the_ir_is_named_with_the_whole_verifier_message() -> None:
    evil = edits("unhooks-a-load", load_above_the_store_keeping_its_token)
    with pytest.raises(st.CompileError) as info:
        bump([evil]).compile_variant()
    message = str(info.value)
    assert "user pass 'unhooks-a-load' (at after-safety) produced IR that does not verify" in message
    assert "bug in safetile" not in message
    assert "dominate" in message  # the verifier's own words, not a first line cut short


def test_two_passes_with_one_name_and_options_do_not_share_a_compile() -> None:
    first = edits("same-name", lambda module: None)
    second = edits("same-name", store_at_tile_zero)
    assert first.spec() == second.spec()
    kernel = add([])
    plain = kernel.compile_variant(options=st.CompileOptions(passes=(st.trusted(first),)))
    changed = kernel.compile_variant(options=st.CompileOptions(passes=(st.trusted(second),)))
    assert plain.unsafe_report == () and changed.unsafe_report != ()
    assert plain.key != changed.key


def test_a_safe_user_pass_runs_in_the_launch(isolated_registry: None) -> None:
    """The re-proof refuses what breaks the proofs, nothing else: the tutorial's pass
    (docs/tile-opt.md) rewrites arithmetic; it compiles and its result shows in the launch."""
    from safetile.passes.registry import load_pass_file

    load_pass_file(Path(__file__).resolve().parents[1] / "lit" / "tools" / "inputs" / "exact_reciprocal.py")

    @st.kernel(passes=["exact-reciprocal"])
    def quarter(z: st.Mut[f32, (128,)], x: st.Ref[f32, (-1,)]):
        z.store(st.load_tile_like(x, z) / 4.0)

    x = st.from_numpy(np.arange(256, dtype=np.float32)).sync()
    z = st.zeros((256,), f32).sync().partition((128,))
    z, x = quarter(z, x).sync()
    assert (z.unpartition().numpy() == np.arange(256, dtype=np.float32) / 4).all()
    assert "mulf" in quarter.compile_variant().ir() and "divf" not in quarter.compile_variant().ir()
    assert quarter.unsafe_report() == []


# -- the same guard in tile-opt ---------------------------------------------------------------------------

EVIL_PASSES = '''
from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import UnitAttr
from xdsl.passes import ModulePass

from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.ops.memory.view_access import StoreViewTkoOp
from safetile.dialects.cuda_tile.ops.shape import ConstantOp


@dataclass(frozen=True)
class StoreAtTileZero(ModulePass):
    """Points every store at tile 0 (an attack)."""

    name = "store-at-tile-zero"

    def apply(self, ctx, op) -> None:
        for store in [o for o in op.walk() if isinstance(o, StoreViewTkoOp)]:
            zero = ConstantOp.splat(store.index[0].type, 0)
            store.parent_block().insert_op_before(zero, store)
            store.operands = (store.tile, store.view, *[zero.result] * len(store.index), store.token)


@dataclass(frozen=True)
class MarkStoresUnsafe(ModulePass):
    """Marks every store unsafe (an attack on the facts)."""

    name = "mark-stores-unsafe"

    def apply(self, ctx, op) -> None:
        for store in [o for o in op.walk() if isinstance(o, StoreViewTkoOp)]:
            store.attributes[tile_safety.UNSAFE] = UnitAttr()
'''



@pytest.fixture()
def files(tmp_path: Path, isolated_registry: None) -> tuple[str, str]:
    (tmp_path / "evil_passes.py").write_text(EVIL_PASSES)
    (tmp_path / "kernels.py").write_text(KERNEL_SOURCES["add"])
    return str(tmp_path / "evil_passes.py"), str(tmp_path / "kernels.py")


def tile_opt(*args: str) -> tuple[int, str, str]:
    from safetile.tools.tile_opt import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def test_tile_opt_refuses_a_pass_after_the_pipeline_that_breaks_a_proof(files: tuple[str, str]) -> None:
    passes, kernels = files
    status, out, err = tile_opt(kernels, "--load", passes, "-p", "safetile-pipeline,store-at-tile-zero")
    assert status == 1 and out == ""
    assert "kernels.py:8:5: error: pass 'store-at-tile-zero' broke a proved safety property: one writer per tile" in err
    assert "--trust store-at-tile-zero" in err


def test_tile_opt_refuses_a_pass_before_the_pipeline_that_edits_a_fact(files: tuple[str, str]) -> None:
    passes, kernels = files
    status, _, err = tile_opt(kernels, "--load", passes, "-p", "mark-stores-unsafe,safetile-pipeline")
    assert status == 1
    assert "pass 'mark-stores-unsafe' broke a proved safety property: the frontend's tile_safety facts: added " \
           "'tile_safety.unsafe'" in err


def test_tile_opt_runs_a_trusted_pass_and_reports_the_island(files: tuple[str, str]) -> None:
    passes, kernels = files
    status, out, err = tile_opt(kernels, "--load", passes, "-p", "safetile-pipeline,store-at-tile-zero",
                                "--trust", "store-at-tile-zero", "--unsafe-report")
    assert status == 0 and "store_view_tko" in out
    assert "unsafe report @add:" in err
    assert "kernels.py:8:5: trusted pass 'store-at-tile-zero': not proved: one writer per tile" in err
    status, _, err = tile_opt(kernels, "-p", "safetile-pipeline", "--unsafe-report")
    assert status == 0 and "unsafe report @add: nothing" in err


def test_a_load_file_imports_as_an_ordinary_module(files: tuple[str, str]) -> None:
    """``from __future__ import annotations`` with a dataclass needs the module in sys.modules."""
    passes, kernels = files
    status, out, err = tile_opt(kernels, "--load", passes, "-p", "safetile-pipeline")
    assert status == 0, err


def test_the_tutorial_pass_is_the_one_the_docs_show() -> None:
    """docs/tile-opt.md's tutorial code is the pass its lit test and snippet run."""
    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "tile-opt.md").read_text()
    tutorial = doc.split("`test/lit/tools/inputs/exact_reciprocal.py`:", 1)[1]
    shown = tutorial.split("```python\n# my_passes.py\n", 1)[1].split("```", 1)[0]
    used = (root / "test" / "lit" / "tools" / "inputs" / "exact_reciprocal.py").read_text()
    assert used.split("\n", 1)[1] == shown




@pytest.mark.parametrize(("kernel", "attack", "property", "line"), ATTACKS_AFTER_SAFETY,
                         ids=[a[1].__name__ for a in ATTACKS_AFTER_SAFETY])
def test_tile_opt_refuses_every_attack_after_the_pipeline(
    kernel: Callable[[list[object]], st.Kernel], attack: Callable[[ModuleOp], None], property: str, line: str,
    isolated_registry: None,
) -> None:
    from safetile.passes import registry

    evil = edits(attack.__name__.replace("_", "-"), attack)
    registry.register_pass(type(evil))
    status, out, err = tile_opt(str(kernel_path(kernel.__name__)), "-p", f"safetile-pipeline,{evil.name}")
    assert status == 1 and out == "", err
    assert f"pass '{evil.name}'" in err and (property in err or "does not dominate this use" in err), err
