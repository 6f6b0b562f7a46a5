"""Kernels as objects: specialization keys, the variant cache, compile(), options, errors."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import FileLineColLoc
from xdsl.dialects.builtin import ModuleOp

import safetile as st
from safetile import f16, f32, i32
from safetile.dialects import tile_safety
from safetile.dialects.cuda_tile.ops.structure import EntryOp
from safetile.dialects.cuda_tile.syntax import print_tile_ir


@st.kernel
def add(z: st.Mut[f32, "S"], x: st.Ref[f32, (-1,)], *, S: st.Shape):
    z.store(st.load_tile_like(x, z) + 1.0)


@st.kernel
def gemm(
    z: st.Mut["E", ("BM", "BN")],
    x: st.Ref["E", (-1, "K")],
    y: st.Ref["E", ("K", -1)],
    *,
    E: st.DType,
    BM: int,
    BN: int,
    K: int,
    BK: int = 32,
):
    bm, bn, _ = st.tile_block_id()
    px, py = x.partition((BM, BK)), y.partition((BK, BN))
    acc = st.zeros((BM, BN), f32)
    for k in st.static_range(K // BK):
        acc = st.mma(px.load((bm, k)), py.load((k, bn)), acc)
    z.store(acc.astype(E))


@st.kernel(print_ir=True)
def printed(z: st.Mut[f32, (16,)]):
    z.store(1.0)


@st.kernel(deny_in_kernel_checks=True)
def denied(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)], i: st.i32):
    # The store is proved in range; tile i of x only the kernel can check.
    z.store(x.partition((16,)).load((i,)))


@st.kernel
def broken(z: st.Mut[f32, (16,)], x: st.Ref[f16, (-1,)]):
    z.store(st.load_tile_like(x, z) + st.zeros((16,), f32))


def entries(module: ModuleOp) -> list[EntryOp]:
    return [op for op in module.walk() if isinstance(op, EntryOp)]


# -- inference and keys ---------------------------------------------------


def test_generics_are_inferred_from_argument_specs() -> None:
    spec_z = st.TensorSpec(f16, (1024, 1024), partition=(64, 128))
    spec_x = st.TensorSpec(f16, (1024, 256))
    generics, layouts = gemm.resolve(dict(z=spec_z, x=spec_x))
    assert generics == {"E": f16, "BM": 64, "BN": 128, "K": 256, "BK": 32}
    assert [t.name for t in layouts] == ["z", "x", "y"]
    assert layouts[1].shape == (None, 256)  # the static K is compiled in
    assert layouts[0].tile == (64, 128)


def test_explicit_and_inferred_generics_must_agree() -> None:
    with pytest.raises(st.CompileError, match=r"generic 'BM' is 32 but the partition of 'z' gives 64"):
        gemm.specialize(BM=32, z=st.TensorSpec(f16, partition=(64, 64)), K=64)


def test_missing_generic_is_an_error_at_the_parameter() -> None:
    with pytest.raises(st.CompileError) as err:
        gemm.specialize(E=f16, BM=64, BN=64)
    assert err.value.message == "generic 'K' has no value"
    assert err.value.hint.startswith("pass K=... to specialize()")
    assert err.value.source_line.strip().startswith("K: int")


def test_each_specialization_is_one_cached_variant() -> None:
    first = add.specialize(S=(128,))
    assert add.specialize(S=(128,)) is first
    other = add.specialize(S=(256,))
    assert other is not first
    assert (first.entry_name, other.entry_name) == ("add_128", "add_256")


@st.kernel
def scaled(z: st.Mut[f32, ("B",)], x: st.Ref[f32, (-1,)], *, B: int, K: int = 2, M: int = 3):
    z.store(st.load_tile_like(x, z) * float(K * M))


def test_a_default_passed_or_left_out_is_the_same_variant_and_name() -> None:
    """The generics keep the parameters' order however each got its value (passed, inferred,
    defaulted): a launch that passes a default and an ahead-of-time build that left it out name
    one entry, so the launch finds the cubin the build made."""
    z = st.TensorSpec(f32, (16,), partition=(16,))
    left_out = scaled.specialize(z=z)
    passed = scaled.specialize(z=z, M=3)
    assert passed is left_out and scaled.specialize(M=3, K=2, z=z) is left_out
    assert left_out.entry_name == "scaled_16_2_3"


def test_dynamic_dimensions_make_no_variant_but_facts_do() -> None:
    a = add.specialize(S=(64,), x=st.TensorSpec(f32, (4096,)))
    b = add.specialize(S=(64,), x=st.TensorSpec(f32, (8192,)))
    assert a is b  # both divisible by 16, contiguous, aligned: the same facts
    c = add.specialize(S=(64,), x=st.TensorSpec(f32, (4095,)))
    assert c is not a
    d = add.specialize(S=(64,), x=st.TensorSpec(f32, (4096,), aligned=False))
    assert d not in (a, c)
    assert len({a.entry_name, c.entry_name, d.entry_name}) == 3


def test_argument_facts_appear_as_assumes_and_unit_strides() -> None:
    text = print_tile_ir(add.compile(S=(64,), x=st.TensorSpec(f32, (4096,))))
    assert "assume div_by<16>, %x : tile<ptr<f32>>" in text
    assert "strides = [1]" in text
    without = print_tile_ir(add.compile(S=(64,)))
    assert "div_by" not in without and "strides = [1]" not in without


def test_the_abi_lists_pointer_shape_and_stride_per_tensor() -> None:
    variant = add.specialize(S=(32,))
    assert [p.name for p in variant.params] == [
        "z",
        "z.shape[0]",
        "z.stride[0]",
        "x",
        "x.shape[0]",
        "x.stride[0]",
    ]
    assert [str(arg.type) for arg in variant.entry.body.block.args][0].endswith("ptr<f32>>")


# -- compile() -------------------------------------------------------------


def test_compile_gives_one_entry_per_specialization() -> None:
    module = gemm.compile(dict(E=f16, BM=64, BN=64, K=128), dict(E=f32, BM=32, BN=32, K=64, BK=16))
    module.verify()
    names = [e.sym_name.data for e in entries(module)]
    assert names == ["gemm_f16_64_64_128_32", "gemm_f32_32_32_64_16"]
    assert "tile_safety" not in print_tile_ir(module)


def test_compile_can_keep_the_safety_checks() -> None:
    module = add.compile(S=(16,), stage="frontend")
    checks = [op for op in module.walk() if isinstance(op, tile_safety.CheckIndexOp)]
    assert [c.message.data for c in checks] == ["load_tile_like", "z.store"]
    assert all(isinstance(c.location, FileLineColLoc) and c.location.filename.data.endswith("test_frontend_kernel.py")
               for c in checks)


def test_compile_copies_variants_so_the_cache_stays_intact() -> None:
    first = add.compile(S=(512,))
    second = add.compile(S=(512,))
    assert entries(first)[0] is not entries(second)[0]
    assert print_tile_ir(first) == print_tile_ir(second)


def test_print_ir_and_dump_ir_dir(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    printed.compile()
    shown = capsys.readouterr().out
    assert "entry @printed(" in shown and "tile_safety" not in shown  # the IR that runs
    printed.compile()
    assert capsys.readouterr().out == ""  # printed when compiled, not again
    dumped = st.kernel(dump_ir_dir=tmp_path)(printed.python)
    dumped.compile()
    stages = sorted(p.name for p in (tmp_path / "printed").iterdir())
    assert stages == ["0-frontend.mlir", "1-safety.mlir", "2-clean-up.mlir"]
    assert "tile_safety.check_index" in (tmp_path / "printed" / "0-frontend.mlir").read_text()
    assert (tmp_path / "printed" / "2-clean-up.mlir").read_text() == shown


def test_print_ir_prints_on_the_launch_that_compiles(capsys: pytest.CaptureFixture[str]) -> None:
    @st.kernel(print_ir=True)
    def fill(z: st.Mut[f32, (16,)]):
        z.store(2.0)

    z = st.zeros((32,), f32).sync().partition((16,))
    (z,) = fill(z).sync()
    assert "entry @fill(" in capsys.readouterr().out
    (z,) = fill(z).sync()
    assert capsys.readouterr().out == ""
    assert (z.unpartition().numpy() == 2.0).all()


def test_deny_in_kernel_checks_refuses_the_assert_rung() -> None:
    with pytest.raises(st.CompileError, match="compiled with deny_in_kernel_checks"):
        denied.compile()
    assert "tile_safety.check_index" in print_tile_ir(denied.compile(stage="frontend"))


# -- errors ------------------------------------------------------------------


def test_compile_errors_name_the_line_and_show_it() -> None:
    with pytest.raises(st.CompileError) as err:
        broken.compile()
    e = err.value
    assert Path(e.file).name == "test_frontend_kernel.py"
    assert e.message == "element types differ in +: f16 and f32"
    lines = str(e).splitlines()
    assert re.fullmatch(rf".+test_frontend_kernel\.py:{e.line}:13: error: {re.escape(e.message)}", lines[0])
    assert lines[1] == "    z.store(st.load_tile_like(x, z) + st.zeros((16,), f32))"
    assert lines[2] == " " * 12 + "^"
    assert lines[3].startswith("help: convert one side explicitly")


def test_kernel_language_functions_do_not_run_in_python() -> None:
    with pytest.raises(RuntimeError, match=r"st\.iota\(\) can only be called inside"):
        st.iota((16,))
    # Names with a host meaning run their host implementation (safetile.runtime).
    assert isinstance(st.zeros((16,), f32), st.DeviceOp)

    @st.function
    def helper(x):  # pragma: no cover - never runs
        return x

    with pytest.raises(RuntimeError, match="device function 'helper'"):
        helper(1)


def test_a_kernel_needs_its_source() -> None:
    namespace: dict[str, object] = {"st": st, "f32": f32}
    exec("def k(z: st.Mut[f32, (16,)]):\n    z.store(0.0)\n", namespace)
    kernel = st.kernel(namespace["k"])  # type: ignore[arg-type]
    with pytest.raises(st.CompileError, match="cannot read the source of 'k'"):
        kernel.compile()


def test_scalar_parameters_cannot_be_specialized() -> None:
    @st.kernel
    def scaled(z: st.Mut[f32, (16,)], n: i32):
        z.store(n.astype(f32))

    with pytest.raises(st.CompileError, match="'n' is a scalar parameter"):
        scaled.specialize(n=3)


def test_every_kernel_language_name_has_a_lowering() -> None:
    import inspect

    from safetile.frontend import builtins, dsl

    names: list[object] = [
        v for k, v in vars(dsl).items() if inspect.isfunction(v) and hasattr(v, "__wrapped__")
    ]
    for api in (dsl.Tile, dsl.TensorView, dsl.PartitionView):
        for member in vars(api).values():
            names.append(member.fget if isinstance(member, property) else member)
    # static_range and unsafe are syntax (a for loop, a with block), not calls.
    names = [n for n in names if callable(n) and n not in (dsl.static_range, dsl.unsafe)]
    missing = [getattr(n, "__qualname__", n) for n in names if not builtins.is_builtin(n)]
    assert not missing


def test_with_options_makes_a_separate_kernel_with_its_own_variants() -> None:
    tuned = printed.with_options(print_ir=False, optimization_hints={"sm_90": {"num_worker_warps_per_cta": 8}})
    assert tuned.python is printed.python and tuned.options.print_ir is False
    assert "num_worker_warps_per_cta = 8" in print_tile_ir(tuned.compile())
    assert tuned.variants and all(v not in printed.variants.values() for v in tuned.variants.values())
    with pytest.raises(TypeError, match=r"with_options: .*no_such_option.*options are print_ir"):
        printed.with_options(no_such_option=1)


@st.kernel(optimization_hints=lambda BM, **_: {"sm_90": {"num_worker_warps_per_cta": 8}} if BM >= 128 else {},
           load_hints=lambda BM, **_: {"sm_90": {"latency": 6}} if BM >= 128 else {})
def tile_copy(z: st.Mut[f32, ("BM", 16)], x: st.Ref[f32, (-1, -1)], *, BM: int):
    z.store(st.load_tile_like(x, z))


def test_hints_per_specialization_follow_the_generics() -> None:
    big, small = print_tile_ir(tile_copy.compile(BM=128)), print_tile_ir(tile_copy.compile(BM=64))
    assert "num_worker_warps_per_cta = 8" in big and "latency = 6" in big
    assert "optimization_hints" not in small


def test_a_failing_hints_function_is_a_located_error() -> None:
    broken = tile_copy.with_options(optimization_hints=lambda BM: {"sm_90": {"occupancy": 1 // 0}})
    with pytest.raises(st.CompileError, match=r"the hints function '<lambda>' failed on \{'BM': 32\}: "
                                              r"ZeroDivisionError") as info:
        broken.compile(BM=32)
    assert info.value.file.endswith("test_frontend_kernel.py")


@st.function
def _sum_of(x, y=None):
    """``x``, plus ``y`` when one is given: an optional operand decided at compile time."""
    if y is not None:
        return x + y
    return x


@st.kernel
def optional_operand(z: st.Mut[f32, (16,)], a: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)], y: st.Ref[f32, (-1,)]):
    tx, ty = st.load_tile_like(x, z), st.load_tile_like(y, z)
    z.store(_sum_of(tx, ty))
    a.store(_sum_of(tx))


def test_is_none_on_a_runtime_value_is_decided_at_compile_time() -> None:
    x, y = np.arange(16, dtype=np.float32), np.full(16, 10, np.float32)
    z, a, *_ = optional_operand(st.zeros((16,)).sync().partition((16,)), st.zeros((16,)).sync().partition((16,)),
                                st.from_numpy(x).sync(), st.from_numpy(y).sync()).sync()
    np.testing.assert_array_equal(z.unpartition().numpy(), x + y)
    np.testing.assert_array_equal(a.unpartition().numpy(), x)
    assert "cuda_tile.if" not in print_tile_ir(optional_operand.compile())


@st.kernel
def tile_identity(z: st.Mut[f32, (16,)], x: st.Ref[f32, (-1,)]):
    t = st.load_tile_like(x, z)
    if t is st.load_tile_like(x, z):
        z.store(t)


def test_is_between_runtime_values_is_refused() -> None:
    with pytest.raises(st.CompileError, match=r"'is' works on compile-time values only"):
        tile_identity.compile()
