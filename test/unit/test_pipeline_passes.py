"""User passes in the JIT pipeline: ``@st.kernel(passes=...)`` and ``st.register_pipeline_pass``.

The pass under test turns every ``addf`` into a ``subf``, so a launch on the
CPU interpreter shows in its numbers whether the pass ran in the pipeline
that compiled it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest

import safetile as st
from safetile import f32
from safetile.driver import user_passes
from safetile.passes import registry

PASS_SOURCE = textwrap.dedent('''
    from dataclasses import dataclass

    from xdsl.passes import ModulePass

    from safetile.dialects.cuda_tile.ops.arith import AddFOp, SubFOp


    @dataclass(frozen=True)
    class AddsToSubs(ModulePass):
        """Turns every addf into a subf (a test pass)."""

        name = "adds-to-subs"

        def apply(self, ctx, op):
            for add in [o for o in op.walk() if isinstance(o, AddFOp)]:
                sub = SubFOp.create(operands=list(add.operands), result_types=[add.result.type],
                                    properties=dict(add.properties))
                sub.location = add.location
                add.parent_block().insert_op_before(sub, add)
                add.result.replace_all_uses_with(sub.result)
                add.detach()
                add.erase()


    @dataclass(frozen=True)
    class Explodes(ModulePass):
        """Fails (a test pass)."""

        name = "explodes"

        def apply(self, ctx, op):
            raise ValueError("the pass's own bug")
''')


@pytest.fixture()
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An installed distribution advertising the passes as ``safetile.passes`` entry points."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "jit_test_passes.py").write_text(PASS_SOURCE)
    dist = site / "jit_test_passes-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: jit-test-passes\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        f"[{registry.ENTRY_POINT_GROUP}]\n"
        "adds-to-subs = jit_test_passes:AddsToSubs\nexplodes = jit_test_passes:Explodes\n"
    )
    monkeypatch.syspath_prepend(str(site))
    yield
    user_passes.unregister_pipeline_passes()


def combine(passes: object = ()) -> st.Kernel:
    @st.kernel(passes=passes)
    def combine(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)], *, S: st.Shape):
        z.store(st.load_tile_like(x, z) + st.load_tile_like(y, z))

    return combine


def run(kernel: st.Kernel) -> np.ndarray:
    x = st.from_numpy(np.full(64, 5.0, np.float32)).sync()
    y = st.from_numpy(np.full(64, 2.0, np.float32)).sync()
    z = st.zeros((64,), f32).sync().partition((32,))
    z, x, y = kernel(z, x, y).sync()
    return z.unpartition().numpy()


def test_a_pass_named_by_its_entry_point_runs_in_the_launch(package: None) -> None:
    assert (run(combine()) == 7.0).all()
    assert (run(combine(["adds-to-subs"])) == 3.0).all()


def test_the_stage_of_a_user_pass_is_recorded(package: None) -> None:
    spec = dict(S=(32,))
    plain = combine().compile_variant(**spec)
    changed = combine([("after-clean-up", "adds-to-subs")]).compile_variant(**spec)
    assert [s for s, _ in plain.stages] == ["frontend", "safety", "clean-up"]
    assert [s for s, _ in changed.stages] == ["frontend", "safety", "clean-up", "after-clean-up"]
    assert "addf" in changed.ir("clean-up") and "subf" in changed.ir() and "addf" not in changed.ir()
    assert changed.key != plain.key


def test_a_stage_not_kept_is_made_again_as_the_compile_made_it(package: None) -> None:
    """Without user passes a compile keeps no copy of its earlier stages; asked
    for, each is made again, and is the IR a compile stopping there ends with."""
    from safetile.driver.compile import CompileOptions

    kernel = combine()
    compiled = kernel.compile_variant(S=(32,))
    assert [m is None for _, m in compiled.recorded] == [True, True, False]
    for stage in ("frontend", "safety"):
        stopped = kernel.compile_variant(S=(32,), options=CompileOptions(until=stage))
        assert compiled.ir(stage) == stopped.ir(), stage
    assert compiled.stages[-1][1] is compiled.module
    with pytest.raises(KeyError, match="no stage 'after-safety' in this compile; it ran frontend, safety, clean-up"):
        compiled.ir("after-safety")


def test_a_pass_object_before_the_safety_passes(package: None) -> None:
    from jit_test_passes import AddsToSubs  # type: ignore[import-not-found]

    kernel = combine([("before-safety", AddsToSubs())])
    assert (run(kernel) == 3.0).all()
    assert "tile_safety.check_index" in kernel.compile_variant(S=(32,)).ir("before-safety")


def test_a_registered_pass_runs_in_every_kernel(package: None) -> None:
    st.register_pipeline_pass("adds-to-subs")
    assert (run(combine()) == 3.0).all()
    user_passes.unregister_pipeline_passes()
    assert (run(combine()) == 7.0).all()


def test_an_unknown_pass_is_a_compile_error_naming_the_kernel(package: None) -> None:
    with pytest.raises(st.CompileError, match=r"no pass named 'no-such-pass'") as info:
        combine(["no-such-pass"]).compile(S=(32,))
    assert info.value.file.endswith("test_pipeline_passes.py") and "register it" in str(info.value)
    with pytest.raises(st.CompileError, match=r"unknown pipeline point 'middle'"):
        combine([("middle", "adds-to-subs")]).compile(S=(32,))
    with pytest.raises(Exception, match=r"unknown pipeline point"):
        st.register_pipeline_pass("adds-to-subs", point="middle")


def test_a_failing_user_pass_is_a_compile_error_naming_it(package: None) -> None:
    with pytest.raises(st.CompileError, match=r"user pass 'explodes' \(at after-safety\) failed: ValueError: "
                                              r"the pass's own bug"):
        combine(["explodes"]).compile(S=(32,))
